"""Automatic pins: the facts a user states that must never be lost, by phrase rules.

A pin is shown in every context of its session, so a wrong automatic pin
costs tokens in every model call: these rules trade recall for precision.
:func:`pin_facts` reads one USER message (an assistant's text is not the
user's fact) and returns the sentences (``localmem.extract.sentences``:
clipped, whitespace normalized) that state

- **health**: an allergy, intolerance or condition of a person ("I'm allergic
  to penicillin", "my son is lactose intolerant", "she has type 2 diabetes",
  "my peanut allergy"), or a medication taken with a dose or by name ("she
  takes lisinopril 10 mg", "I'm on insulin");
- **names**: "my name is ...", "call me Sam", "my daughter is called Emma",
  "my dog's name is Milo", "her pharmacist is Mr. Okafor";
- **dates**: an event word (appointment, meeting, deadline, due, birthday,
  interview, flight, exam, surgery, ...) together with an absolute date or a
  weekday ("the report is due Friday", "appointment on December 3rd");
- **explicit requests**: "remember that ...", "note that ...", "don't forget
  ...", "keep in mind ...", "for the record ...", "can you remember ...";
- **constraints** the user states about themselves: "I can't eat gluten",
  "I don't drink alcohol", "we must not use GPL code", "I'm vegan", "my budget
  is 500 EUR".

Out of scope, on purpose (each would pin noise into every context): questions
(a sentence ending in "?", unless it asks to remember something),
hypotheticals and examples ("if I were allergic ...", "imagine ...", "for
example ...", "in my story ..."), people in general ("people who are allergic
..."), relative dates alone ("my appointment is tomorrow" goes stale within a
day), a time without a date ("the meeting is at 3pm"), and "I can't" about
anything but a short list of everyday verbs ("I can't get this to compile"
is a problem, not a constraint).

Cost: the no-match path is one pre-compiled keyword search over the first
:data:`MAX_SCAN_CHARS` characters; only a message that passes it is split
into sentences. A huge message costs no more than a long one. Pure functions;
nothing here raises on any string.
"""

from __future__ import annotations

import re

from . import extract as rules

MAX_SCAN_CHARS = rules.MAX_SCAN_CHARS
MAX_FACTS_PER_MESSAGE = 5
"""Most auto pins one message yields (its first facts): a pasted document must
not flood every context."""
TRAILING_PUNCTUATION = " .!?;:,…"

_RELATIONS = (
    "daughter|son|wife|husband|partner|spouse|boyfriend|girlfriend|fianc[eé]e?|mom|mum|mother|dad"
    "|father|parents?|brother|sister|sibling|grand(?:ma|mother|pa|father|son|daughter|child)|aunt"
    "|uncle|cousin|niece|nephew|child|kid|baby|twins?|dog|cat|puppy|kitten|pet|horse|bird|rabbit"
    "|boss|manager|friend|colleague|roommate|flatmate|neighbou?r"
)
_PROFESSIONALS = (
    "doctor|gp|physician|dentist|pharmacist|therapist|psychiatrist|cardiologist|nurse|midwife"
    "|surgeon|specialist|vet|lawyer|solicitor|accountant|landlord|caregiver|carer|teacher"
)
_CONDITIONS = (
    r"allergic|(?:lactose|gluten)[- ]intolerant|intolerant|(?:pre-?)?diabetic|epileptic|asthmatic"
    r"|c[o]?eliac|pregnant|an[a]?emic|hypertensive|immunocompromised|deaf|hard of hearing|blind"
    r"|colou?r[- ]?blind|vegetarian|vegan|pescatarian|teetotal|on dialysis"
)
_ILLNESSES = (
    r"allerg(?:y|ies)|intoleran(?:ce|ces)|diabetes|epilepsy|asthma|c[o]?eliac disease|hypertension"
    r"|high blood pressure|heart condition|kidney disease|migraines?|adhd|autism|dyslexia|copd"
)
_MEDICINES = (
    r"\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|iu|units?)|medications?|medicines?|insulin|inhalers?"
    r"|antibiotics?|antidepressants?|blood thinners?|statins?|birth control|the pill|steroids?"
    r"|chemo(?:therapy)?"
)
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec"
)
_EVERYDAY = (
    "eat|drink|have|take|use|afford|drive|fly|travel|walk|stand|lift|attend|install|access|share"
    "|spend|tolerate|digest|swallow|climb|kneel|wear|consume|smoke|own"
    r"|work(?!\s+(?:out|with|through|it|this|that|on it|on this|on that)\b)"
)
# A person the fact is about: I, a pronoun, "my X", or a capitalized name
# (not "This", "Everyone", ...): "people who are allergic" names no one.
_NOT_NAMES = "This|That|It|There|Here|What|Who|Which|Everyone|Everybody|Nobody|Anyone|Someone|People"
_PERSON_IS = (
    r"(?:(?i:\bI(?:'m| am)|\b(?:he|she|they|we)(?:'s|'re| is| are)"
    r"|\b(?:my|our|his|her|their) (?:[\w-]+ ){1,2}?(?:is|are))"
    rf"|\b(?!(?:{_NOT_NAMES})\b)[A-Z][a-z]+ (?i:is|are))"
)
_PERSON = (
    r"(?:(?i:\bI|\b(?:he|she|they|we)|\b(?:my|our|his|her|their) (?:[\w-]+ ){0,1}[\w-]+)"
    rf"|\b(?!(?:{_NOT_NAMES})\b)[A-Z][a-z]+)"
)
_ADVERBS = r"(?i:(?:(?:very|severely|also|quite|really|highly|mildly|slightly|extremely|deathly|seriously|both|all|not|an?|type [12]) ){0,3})"
_TITLE = r"(?:(?:Mr|Mrs|Ms|Mx|Dr|Prof)\.?\s+)?"
_DAY_AFTER_CALL = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Today|Tonight|Tomorrow"

_HEALTH = (
    rf"{_PERSON_IS} {_ADVERBS}(?i:{_CONDITIONS})\b"
    rf"|{_PERSON} (?i:has|have|'ve got|has got|suffers? from|was diagnosed with|been diagnosed with)\b"
    rf"(?i:[^.?!]{{0,30}}?\b(?:{_ILLNESSES}))\b"
    rf"|(?i:\b(?:my|our|his|her|their) (?:[\w-]+ )?(?:allerg(?:y|ies)|intoleran(?:ce|ces))\b)"
    rf"|{_PERSON}(?i: takes?| (?:am|is|are) (?:taking|on)|'(?:m|s|re) (?:taking|on)| uses?)\b"
    rf"(?i:[^.?!]{{0,60}}?\b(?:{_MEDICINES}))\b"
    r"|(?i:\b(?:my|our|his|her|their) (?:[\w-]+ )?(?:medications?|meds|prescriptions?) (?:is|are|includes?)\b)"
)
_NAMES = (
    r"(?i:\bmy name(?:'s| is)|\b(?:his|her|their) name is)\s+[A-Za-z]"
    rf"|(?i:\b(?:please )?call me|\bI go by|\bI(?:'m| am) called)\s+(?!(?:{_DAY_AFTER_CALL})\b)[A-Z]"
    r"|(?i:\b(?:my|our|his|her|their) (?:[\w-]+ ){0,2}?[\w-]+(?:'s name is|'s called| is called| is named| goes by))"
    r"\s+[\"']?[A-Z]"
    rf"|(?i:\b(?:my|our|his|her|their) (?:{_PROFESSIONALS}|{_RELATIONS})) (?i:is) {_TITLE}[A-Z][a-z]"
)
_DATE = (
    rf"\b(?:{_MONTHS})\.? \d{{1,2}}(?:st|nd|rd|th)?\b|\b\d{{1,2}}(?:st|nd|rd|th)? (?:of )?(?:{_MONTHS})\b"
    r"|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b|\b\d{1,2}\.\d{1,2}\.\d{2,4}\b"
    r"|\bthe \d{1,2}(?:st|nd|rd|th)\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b"
)
_EVENT = (
    r"\b(?:appointments?|meetings?|deadlines?|due(?! to\b)|birthdays?|anniversary|interviews?"
    r"|surgery|operation|flights?|exams?|wedding|check-?ups?|consultations?|reservations?|booking"
    r"|born|scheduled|expires?|expiry)\b"
)
_CONSTRAINT = (
    r"(?i:\b(?:I|we) (?:(?:really|just|simply|absolutely) )?(?:can't|cannot|can not|must not|mustn't|must never"
    r"|(?:am|'m|are|'re) not allowed to|(?:am|'m|are|'re) unable to|never|don't|do not) (?:ever )?"
    rf"(?:{_EVERYDAY})\b)"
    r"|(?i:\b(?:my|our) (?:[\w-]+ )?budget (?:is|of)\b|\bI(?:'m| am) on a (?:tight )?budget\b)"
)
_EXPLICIT = re.compile(
    r"^(?:(?:please|also|and|oh|ok|okay|just|but|so|btw|by the way|fyi|hey|important)[,:]?\s+)*"
    r"(?:remember|note|keep in mind|bear in mind|don't forget|do not forget|never forget"
    r"|make a note|take note)\b"
    r"|\b(?:please|can you|could you|will you|would you|I want you to|I need you to)"
    r" (?:always )?(?:remember|note|keep in mind|don't forget|make a note)\b"
    r"|\bfor the record\b|^important:",
    re.IGNORECASE,
)
_FACT = re.compile(f"{_HEALTH}|{_NAMES}|{_CONSTRAINT}")
_DATED = re.compile(_DATE, re.IGNORECASE)
_EVENTFUL = re.compile(_EVENT, re.IGNORECASE)
_HYPOTHETICAL = re.compile(
    r"^(?:if|suppose|supposing|imagine|assuming|assume|say)\b"
    r"|\b(?:what if|hypothetically|pretend|let's say|let us say|for example|for instance|e\.g\."
    r"|i wonder|wondering|whether|in (?:a|my|the|this) (?:story|novel|game|script|scenario|example)"
    r"|(?:my|the|a) character)\b",
    re.IGNORECASE,
)
# Every rule above needs one of these words: a message without any is done
# after this one search (the common case), before any sentence is split.
_GATE = re.compile(
    r"allerg|intoleran|diabet|epilep|asthma|c[o]?eliac|pregnan|an[a]?emi|hypertens|immuno|deaf"
    r"|blind|vegetarian|vegan|pescatarian|teetotal|dialysis|migraine|adhd|autism|dyslexia|copd"
    r"|disease|condition|\d\s?(?:mg|mcg|µg|ml|iu|units?)\b|insulin|inhaler|antibiotic|antidepress"
    r"|thinner|statin|birth control|the pill|steroid|chemo|medic|\bmeds\b|prescription"
    r"|\bname|\bcall me\b|\bgo(?:es)? by\b|\bcalled\b|\bnamed\b"
    rf"|\b(?:{_PROFESSIONALS}|{_RELATIONS}) is "
    r"|appointment|meeting|deadline|\bdue\b|birthday|anniversary|interview|surgery|operation|flight"
    r"|\bexams?\b|wedding|check-?up|consultation|reservation|booking|\bborn\b|scheduled|expir"
    r"|remember|\bnote\b|forget|in mind|for the record|important:"
    r"|\b(?:I|we)(?: \w+)? (?:can't|cannot|can not|must|am not|'m not|are not|'re not|am unable"
    r"|'m unable|never|don't|do not)\b|budget",
    re.IGNORECASE,
)


def pin_facts(role: str, text: str) -> list[str]:
    """The facts in one message worth pinning automatically, in order, each once.

    Only ``user`` messages have any. Each fact is a whole sentence (see the
    module docstring for the rules and what they leave out), clipped to
    ``localmem.extract.ITEM_CHARS`` characters; at most
    :data:`MAX_FACTS_PER_MESSAGE`, from the first :data:`MAX_SCAN_CHARS`
    characters of ``text``.
    """
    if role != "user":
        return []
    head = text[:MAX_SCAN_CHARS].replace("’", "'")  # the rules spell apostrophes straight
    if not _GATE.search(head):
        return []
    facts: list[str] = []
    keys: set[str] = set()
    for sentence in rules.sentences(head):
        if not _is_fact(sentence):
            continue
        key = pin_key(sentence)
        if key not in keys:
            keys.add(key)
            facts.append(sentence)
            if len(facts) == MAX_FACTS_PER_MESSAGE:
                break
    return facts


def _is_fact(sentence: str) -> bool:
    if _HYPOTHETICAL.search(sentence):
        return False
    if _EXPLICIT.search(sentence):
        return True  # even as a question: "can you remember that ...?"
    if sentence.endswith("?"):
        return False
    if _FACT.search(sentence):
        return True
    return bool(_EVENTFUL.search(sentence) and _DATED.search(sentence))


def pin_key(content: str) -> str:
    """The key two pins of a session with the same fact share: ``content`` case-folded,
    whitespace collapsed, trailing punctuation stripped.

    Stored as ``semantic_pins.content_key`` (migration ``m007_auto_pins``
    back-filled it with this function): changing what it computes needs a
    migration that re-keys every pin.
    """
    return " ".join(content.casefold().split()).rstrip(TRAILING_PUNCTUATION)
