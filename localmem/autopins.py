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
- **identifiers** the user gives: "my wifi password is ...", "our address is ...", "my
  phone number is ..." (kept in their session, as their updates are: "my new wifi
  password is ..." supersedes it, with history);
- **explicit requests**: "remember that ...", "note that ...", "don't forget
  ...", "keep in mind ...", "for the record ...", "can you remember ...";
- **constraints** the user states about themselves: "I can't eat gluten",
  "I don't drink alcohol", "we must not use GPL code", "I'm vegan", "my budget
  is 500 EUR".

A fact whose subject is a bare he/she/his/her ("Her birthday's Sunday 8 June.") is pinned
with the nearest sentence of its message before it that names a person by a tie ("Planning
mum's 70th with my brother Rob ...": :func:`who_named`), so the pin says whose it is.

A question is no fact ("Can I take amoxicillin if I'm allergic to
penicillin?"), except two kinds: one that asks to remember something, and one
that opens with a health fact stated as a clause of its own ("My son is
allergic to peanuts, which pastries are safe?"), whose clause is pinned
("My son is allergic to peanuts.").

Out of scope, on purpose (each would pin noise into every context): other
questions,
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
from collections.abc import Sequence

from . import extract as rules
from .words import FILLERS, RELATION_WORDS, is_number, stem
from .words import words as text_words

MAX_SCAN_CHARS = rules.MAX_SCAN_CHARS
MAX_FACTS_PER_MESSAGE = 5
"""Most auto pins one message yields (its first facts): a pasted document must
not flood every context."""
TRAILING_PUNCTUATION = " .!?;:,…"

_PROFESSIONALS = (
    "doctor|gp|physician|dentist|pharmacist|therapist|psychiatrist|cardiologist|nurse|midwife"
    "|surgeon|specialist|vet|lawyer|solicitor|accountant|landlord|caregiver|carer"
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
    r"\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|iu)|medications?|medicines?|insulin|inhalers?"
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
# followed by a verb of the third person ("Rosa is", "Rosa takes"): "people
# who are allergic" names no one, and "Please take ..." is not a name.
_NOT_NAMES = "This|That|It|There|Here|What|Who|Which|Everyone|Everybody|Nobody|Anyone|Someone|People"
_NAME = rf"\b(?!(?:{_NOT_NAMES})\b)[A-Z][a-z]+(?= (?:is|are|has|takes|uses|suffers|was)\b)"
_PERSON = rf"(?:(?i:\bI|\b(?:he|she|they|we)|\b(?:my|our|his|her|their) (?:[\w-]+ )?[\w-]+)|{_NAME})"
_PERSON_IS = (
    r"(?:(?i:\bI(?:'m| am)|\b(?:he|she|they|we)(?:'s|'re| is| are)"
    rf"|\b(?:my|our|his|her|their) (?:[\w-]+ ){{1,2}}?(?:is|are))|{_NAME} (?i:is|are))"
)
_ADVERBS = (
    r"(?i:(?:(?:very|severely|also|quite|really|highly|mildly|slightly|extremely|deathly"
    r"|seriously|both|all|not|an?|type [12]) ){0,3})"
)
_TITLE = r"(?:(?:Mr|Mrs|Ms|Mx|Dr|Prof)\.?\s+)?"
_DAY_AFTER_CALL = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Today|Tonight|Tomorrow"

# Each family of rules: the words (lower case) a sentence needs for its pattern
# to be tried at all, and the pattern. The words make the cheap gate.
# Words are ``localmem.words``' ("10mg" has "mg", "can't" is one word).


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_CONDITION = (
    _words(
        """allergic intolerant lactose gluten diabetic prediabetic epileptic asthmatic celiac
        coeliac pregnant anemic anaemic hypertensive immunocompromised deaf hearing blind
        colorblind colourblind vegetarian vegan pescatarian teetotal dialysis"""
    ),
    re.compile(rf"{_PERSON_IS} {_ADVERBS}(?i:{_CONDITIONS})\b"),
)
_ILLNESS = (
    _words(
        """allergy allergies intolerance intolerances diabetes epilepsy asthma celiac coeliac
        hypertension blood heart kidney migraine migraines adhd autism dyslexia copd"""
    ),
    re.compile(
        rf"{_PERSON} (?i:has|have|'ve got|has got|suffers? from|was diagnosed with"
        rf"|been diagnosed with)\b(?i:[^.?!]{{0,30}}?\b(?:{_ILLNESSES}))\b"
        r"|(?i:\b(?:my|our|his|her|their) (?:[\w-]+ )?(?:allerg(?:y|ies)|intoleran(?:ce|ces))\b)"
    ),
)
_MEDICATION = (
    _words(
        """mg mcg µg ml iu medication medications medicine medicines meds insulin inhaler inhalers
        antibiotic antibiotics antidepressant antidepressants statin statins birth pill steroid
        steroids chemo chemotherapy prescription prescriptions thinner thinners"""
    ),
    re.compile(
        rf"{_PERSON}(?i: takes?| (?:am|is|are) (?:taking|on)|'(?:m|s|re) (?:taking|on)| uses?)\b"
        rf"(?i:[^.?!]{{0,60}}?\b(?:{_MEDICINES}))\b"
        r"|(?i:\b(?:my|our|his|her|their) (?:[\w-]+ )?(?:medications?|meds|prescriptions?)"
        r" (?:is|are|includes?)\b)"
    ),
)
_NAMES = (
    _words(f"name name's call called named {_PROFESSIONALS.replace('|', ' ')}"),
    re.compile(
        r"(?i:\bmy name(?:'s| is)|\b(?:his|her|their) name is)\s+[A-Za-z]"
        rf"|(?i:\b(?:please )?call me|\bI go by|\bI(?:'m| am) called)\s+"
        rf"(?!(?:{_DAY_AFTER_CALL})\b)[A-Z]"
        r"|(?i:\b(?:my|our|his|her|their) (?:[\w-]+ ){0,2}?[\w-]+"
        r"(?:'s name is|'s called| is called| is named| goes by))\s+[\"']?[A-Z]"
        rf"|(?i:\b(?:my|our|his|her|their) (?:{_PROFESSIONALS})) (?i:is) {_TITLE}[A-Z][a-z]"
    ),
)
_CONSTRAINTS = (
    _words("can't cannot not mustn't must never allowed unable don't budget"),
    re.compile(
        r"(?i:\b(?:I|we) (?:(?:really|just|simply|absolutely) )?(?:can't|cannot|can not|must not"
        r"|mustn't|must never|(?:am|'m|are|'re) not allowed to|(?:am|'m|are|'re) unable to|never"
        rf"|don't|do not) (?:ever )?(?:{_EVERYDAY})\b)"
        r"|(?i:\b(?:my|our) (?:[\w-]+ )?budget (?:is|of)\b|\bI(?:'m| am) on a (?:tight )?budget\b)"
    ),
)
_RULES = (_CONDITION, _ILLNESS, _MEDICATION, _NAMES, _CONSTRAINTS)
# A date: an event word with an absolute date or a weekday, in one sentence.
_EVENTS = (
    _words(
        """appointment appointments meeting meetings deadline deadlines due birthday birthdays
        anniversary interview interviews surgery operation flight flights exam exams wedding
        checkup checkups consultation consultations reservation reservations booking born
        scheduled expire expires expiry"""
    ),
    re.compile(
        r"\b(?:appointments?|meetings?|deadlines?|due(?! to\b)|birthdays?|anniversary|interviews?"
        r"|surgery|operation|flights?|exams?|wedding|check-?ups?|consultations?|reservations?"
        r"|booking|born|scheduled|expires?|expiry)\b",
        re.IGNORECASE,
    ),
)
_DATE = re.compile(
    rf"\b(?:{_MONTHS})\.? \d{{1,2}}(?:st|nd|rd|th)?\b|\b\d{{1,2}}(?:st|nd|rd|th)? (?:of )?(?:{_MONTHS})\b"
    r"|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b|\b\d{1,2}\.\d{1,2}\.\d{2,4}\b"
    r"|\bthe \d{1,2}(?:st|nd|rd|th)\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b",
    re.IGNORECASE,
)
# An explicit request to remember, even asked as a question ("can you remember that ...?").
_EXPLICIT = (
    _words("remember note mind forget record important"),
    re.compile(
        r"^(?:(?:please|also|and|oh|ok|okay|just|but|so|btw|by the way|fyi|hey|important)[,:]?\s+)*"
        r"(?:remember(?: that\b|:|,| I\b| my\b| we\b| our\b)|note(?: that\b|:)|keep in mind"
        r"|bear in mind|don't forget|do not forget|never forget|make a note|take note)"
        r"|\b(?:please|can you|could you|will you|would you|I want you to|I need you to)"
        r" (?:always )?(?:remember|note|keep in mind|don't forget|make a note)\b"
        r"|\bfor the record\b|^important:",
        re.IGNORECASE,
    ),
)
# An identifier the user gives ("my wifi password is ...", "our address is ..."): pinned
# in its session, as "my NEW wifi password is ..." is (``localmem.updates``), which then
# supersedes it with history: a fact and its update are learnt alike.
_IDENTIFIERS = (
    _words("password passcode pin address number email mail username postcode zip"),
    re.compile(
        r"\b(?:my|our)\s+(?:[\w-]+\s+){0,2}?"
        r"(?:password|passcode|pin(?: code)?|(?:e-?mail )?address|(?:phone |account )?number"
        r"|e-?mail|user ?name|postcode|zip code)(?:\s*(?:is|:)|'s)\s+\S",
        re.IGNORECASE,
    ),
)
_HYPOTHETICAL = re.compile(
    r"^(?:if|suppose|supposing|imagine|assuming|assume|say)\b"
    r"|\b(?:what if|hypothetically|pretend|let's say|let us say|for example|for instance|e\.g\."
    r"|i wonder|wondering|whether|in (?:a|my|the|this) (?:story|novel|game|script|scenario|example)"
    r"|(?:my|the|a) character)\b"
    # said as a joke ("I'm allergic to cats lol jk"), unless denied ("I'm not kidding")
    r"|(?<!not )(?<!n't )\b(?:jk|j/k|just kidding|kidding|joking)\b",
    re.IGNORECASE,
)
# Every rule needs one of its family's words: a message with none is done after
# one lower-casing, one word split and a set intersection per family (the
# common case), before any sentence is split; a sentence is then tried only
# against the families its message mentions.
_FAMILIES = (*_RULES, _EVENTS, _EXPLICIT, _IDENTIFIERS)
_HEALTH = (_CONDITION, _ILLNESS, _MEDICATION)
# Where a statement clause may end before the question it opens ("..., which ...?").
_CLAUSE_END = re.compile(r"\s*(?:[,;:]|\s[-–—])\s+")
# A clause opening with one of these is itself part of the question.
_QUESTION_OPENERS = frozenset(
    """what which who whom whose where when why how is are am was were do does did can could
    will would shall should may might must have has had isn't aren't don't doesn't didn't
    can't won't wouldn't shouldn't""".split()
)


def message_words(text: str) -> frozenset[str]:
    """The words (``localmem.words``) of a message's scanned start: what every rule family's gate
    (and ``localmem.updates``') looks at, computed once per message."""
    return _gate_words(text[:MAX_SCAN_CHARS])


def _gate_words(text: str) -> frozenset[str]:
    """The words of ``text``, and each possessive's or contraction's base besides
    ("password's" is "password" too: "my wifi password's bluefox77")."""
    found = text_words(text)
    return frozenset([*found, *(w[:-2] for w in found if w.endswith("'s"))])


def pin_facts(role: str, text: str, words: frozenset[str] | None = None) -> list[str]:
    """The facts in one message worth pinning automatically, in order, each once.

    Only ``user`` messages have any. Each fact is a whole sentence (see the
    module docstring for the rules and what they leave out), clipped to
    ``localmem.extract.ITEM_CHARS`` characters; at most
    :data:`MAX_FACTS_PER_MESSAGE`, from the first :data:`MAX_SCAN_CHARS`
    characters of ``text``. ``words``: ``message_words(text)``, if already known.
    """
    if role != "user":
        return []
    head = text[:MAX_SCAN_CHARS].replace("’", "'")  # the rules spell apostrophes straight
    if words is None:
        words = message_words(text)
    mentioned = [family for family in _FAMILIES if not words.isdisjoint(family[0])]
    if not mentioned:
        return []
    facts: list[str] = []
    keys: set[str] = set()
    before: list[str] = []
    for sentence in rules.sentences(head):
        before.append(sentence)
        if not _is_fact(sentence, mentioned):
            if not sentence.endswith("?"):
                continue
            stated = _stated_in_question(sentence, mentioned)
            if stated is None:
                continue
            sentence = stated
        sentence = who_named(sentence, before[:-1])
        key = pin_key(sentence)
        if key not in keys:
            keys.add(key)
            facts.append(sentence)
            if len(facts) == MAX_FACTS_PER_MESSAGE:
                break
    return facts


_UNNAMED = re.compile(r"^\W*(?:he|she|his|her)\b", re.IGNORECASE)
"""A sentence whose subject is a bare "he", "she", "his ..." or "her ..." ("Her birthday's
Sunday 8 June.", "She has asthma."): it does not say whom it means."""


def who_named(fact: str, before: Sequence[str]) -> str:
    """``fact`` as a pin reads it alone: when its subject is a bare he/she/his/her
    (:data:`_UNNAMED`), the nearest sentence of its message before it (``before``, in
    order) that names a person by a tie (``words.RELATION_WORDS``: "my daughter Leila",
    "mum's 70th") comes first, when both fit in ``extract.ITEM_CHARS`` ("Planning mum's
    70th with my brother Rob and my sister Ellie. Her birthday's Sunday 8 June."; the
    message is the pin's source); else the fact as it is (whom it means may be in an
    earlier message, which these rules do not read)."""
    if _UNNAMED.match(fact) is None:
        return fact
    for sentence in reversed(before):
        said = {w.removesuffix("'s") for w in text_words(sentence)}
        if not said.isdisjoint(RELATION_WORDS) and _UNNAMED.match(sentence) is None:
            joined = f"{sentence.rstrip()} {fact}"
            return joined if len(joined) <= rules.ITEM_CHARS else fact
    return fact


def _is_fact(sentence: str, families: list[tuple[frozenset[str], re.Pattern[str]]]) -> bool:
    words = _gate_words(sentence)
    found = False
    question = sentence.endswith("?")
    for family in families:
        needed, rule = family
        if words.isdisjoint(needed) or not rule.search(sentence):
            continue
        if family is _EXPLICIT:
            found = True  # even as a question: "can you remember that ...?"
        elif question:
            continue
        elif family is _EVENTS:
            found = bool(_DATE.search(sentence))
        else:
            found = True
        if found:
            break
    return found and not _HYPOTHETICAL.search(sentence)


def is_lasting(fact: str) -> bool:
    """Whether a fact is about the person and holds beyond one conversation: health
    (allergies, conditions, medication), names and relations, stable constraints and
    preferences. Dated events and "remember that ..." requests are bound to the
    conversation they were said in."""
    words = set(text_words(fact))
    return any(not words.isdisjoint(needed) and rule.search(fact) for needed, rule in _RULES)


def _stated_in_question(
    sentence: str, families: list[tuple[frozenset[str], re.Pattern[str]]]
) -> str | None:
    """The health fact a question opens with, as a sentence of its own ("My son is
    allergic to peanuts, which pastries are safe?" -> "My son is allergic to
    peanuts."): the shortest leading clause, ended by a comma, semicolon, colon or
    dash, that states one; None if there is none."""
    health = [family for family in families if family in _HEALTH]
    if not health:
        return None
    first = sentence.split(maxsplit=1)[0].casefold() if sentence.strip() else ""
    if first in _QUESTION_OPENERS or _HYPOTHETICAL.search(sentence):
        return None
    for end in _CLAUSE_END.finditer(sentence):
        clause = sentence[: end.start()].rstrip(TRAILING_PUNCTUATION)
        words = set(text_words(clause))
        if any(not words.isdisjoint(needed) and rule.search(clause) for needed, rule in health):
            return clause + "."
    return None


def pin_key(content: str) -> str:
    """The key two pins of a session with the same fact share: ``content`` case-folded,
    whitespace collapsed, trailing punctuation stripped.

    Stored as ``semantic_pins.content_key`` (migration ``m008_auto_pins``
    back-filled it with this function): changing what it computes needs a
    migration that re-keys every pin.
    """
    return " ".join(content.casefold().split()).rstrip(TRAILING_PUNCTUATION)


# What tells two statements apart: every word but those that change no statement
# (articles, "and", the present forms of be, have and do, asides: words.FILLERS), some
# read for what they say rather than as spelt: who a pronoun names ("my" and "I" are
# the user), whether it is denied ("can't", "cannot", "can not"), its tense or mood
# ("I had asthma", "I'll take it", "I could eat it").
_NEUTRAL = frozenset("a an the and am is are be do does have has".split()) | FILLERS
_PERSONS = {
    **dict.fromkeys("i me my mine myself i'm i'll i've i'd".split(), "I"),
    **dict.fromkeys("we us our ours ourselves we're we'll we've we'd".split(), "we"),
    **dict.fromkeys(
        "you your yours yourself yourselves you're you'll you've you'd".split(), "you"
    ),
    **dict.fromkeys("he him his himself he's he'll he'd".split(), "he"),
    **dict.fromkeys("she her hers herself she's she'll she'd".split(), "she"),
    **dict.fromkeys(
        "they them their theirs themselves they're they'll they've they'd".split(), "they"
    ),
}
_NEGATIONS = frozenset("not no never nor neither cannot".split())
_MOODS = {
    **dict.fromkeys("was were".split(), "was"),
    **dict.fromkeys("had did used".split(), "past"),
    **{w: w for w in "will would could should might may must can shall ought".split()},
    "won't": "will", "wouldn't": "would", "couldn't": "could", "shouldn't": "should",
    "can't": "can", "cannot": "can", "mustn't": "must", "shan't": "shall", "wasn't": "was",
    "weren't": "was", "hadn't": "past", "didn't": "past", "'ll": "will", "'d": "would",
}

StatementKey = tuple[frozenset[str], tuple[str, ...], int, frozenset[str], frozenset[str]]


def statement_key(content: str) -> StatementKey:
    """What two pins saying the same statement share, whatever their order, case,
    punctuation, inflection and asides: the stems of their words (``words``'
    vocabulary and stemmer) but articles, "and", the present forms of be, have and
    do and asides ("lol", "honestly": ``words.FILLERS``); their numbers; how many
    negations ("not", "never", "n't" ...); the persons their pronouns name; their
    tense or mood. Anything else that differs keeps them apart: "Project Harrier
    ships on the 9th" and "Project Merlin ships on the 8th", "I am allergic to
    penicillin" and "I am not allergic to penicillin", "she takes insulin" and "I
    take insulin", "take it before meals" and "take it after meals" are two
    statements each."""
    stems: set[str] = set()
    numbers: list[str] = []
    negations = 0
    persons: set[str] = set()
    moods: set[str] = set()
    for word in text_words(content):
        if is_number(word):
            numbers.append(word)
        elif word.endswith("n't") or word in _NEGATIONS:
            negations += 1
            if word in _MOODS:  # "can't", "cannot", "won't": denied, and a mood
                moods.add(_MOODS[word])
        elif word in _PERSONS:
            persons.add(_PERSONS[word])
            if "'" in word and word[word.index("'"):] in _MOODS:  # "I'll", "she'd"
                moods.add(_MOODS[word[word.index("'"):]])
        elif word in _MOODS:
            moods.add(_MOODS[word])
        elif word not in _NEUTRAL:
            # a word with a digit ("b12", "hunter2") is a value: kept whole
            stems.add(word if any(c.isdigit() for c in word) else stem(word))
    return (
        frozenset(stems), tuple(sorted(numbers)), negations, frozenset(persons), frozenset(moods),
    )
