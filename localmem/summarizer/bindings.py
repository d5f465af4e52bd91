"""What a summary's clause binds together, held to how the conversation binds it.

Word overlap (``support``) sees that a clause's words were all said; it cannot see that they
were said of different things. A 1.5B model wrote "plans to bake the cake on Saturday, June
8" (the birthday is Saturday; the baking is "on Friday evening"), "will take a ferry to Lake
Como" (the train goes to Varenna, the ferry across to Bellagio), "the Red Smoothie" (the band
is red; the smoothie is "at the place on 5th"). Three checks read the bindings (pure; they
never raise on any ``str``):

- :func:`misbound`: **an event bound to the wrong day, time or place.** A clause's event is
  the verb after "to", "will" or a modal ("plans to bake"), a verb "is" or "was" done ("was
  finished"), the thing a day is said of ("the check is on Monday") or a person's verb
  ("Rosa takes"); after a verb that only carries its object ("take", "have", "get",
  ``grounding.CARRIERS``...), that object ("will take a ferry"; not a name: "see Max" is
  "see him" in the conversation). Its values are what follows it up to the next item of a
  list: the days (a weekday, a month's date, a month, "tomorrow"...), the clock times ("7
  pm", "9:33"), how often ("twice a day", "once an hour") and the places a preposition
  leads to, by role ("to Lake Como", "from Zurich", "in Navigli"). The conversation's clauses are its sentences split at ``,``
  ``;`` ``:``, dashes, "then", "but", "so", and before a new subject ("the puzzle | I
  started in January"); a part with no subject, event or thing of its own goes on the one
  before ("at Hotel Aurora", "June 8"). The clause is misbound when a value is in no
  clause of the conversation that names its event or most of the words after it (what it
  is done to: "wants to give her antibiotics before the extraction on Monday" binds "to
  prescribe antibiotics before the extraction on Monday"), unless the conversation says
  it bare ("June 2 to June 9", answering "dates?"). An event the
  conversation never names is not checked here: ``support`` holds its words.
- :func:`misattributed`: **what one person did or has, said of another.** A clause opening
  with a name and a verb ("Tom is allergic to peanuts") is dropped when no clause naming
  that person says half of the rest, and a clause opening with another name does ("Mia is
  allergic to peanuts and tree nuts, and Tom can't have eggs"); or when what the name is
  doing ("Marta is drafting") the conversation says only of "I" or "we" ("I have 1,800
  words drafted": the user writes the story, Marta is in it); and a clause opening with
  someone the user calls "my coworker" that says what only the user's "I" did ("The
  coworker has raised his rate" where "I also raised my rate"); and a clause giving
  someone named by a role ("the workshop leader") an act that no third person does in the
  conversation, only its parties, a question or a thing ("Who narrates it?" "First
  person": the user writes the piece); and a clause making a person the conversation
  names by a tie ("my son Felix") one of the things it speaks of ("Felix's a brave little
  hedgehog": a story retold as facts about the chat's people), when the kind's word is in
  clauses of the conversation and none naming that person. A part of a sentence that
  is small talk ("Yes.") is no name for the part after it.
- :func:`invented_name`: **a compound name the conversation never wrote.** Two or more
  capitalized words in a row inside a sentence ("Red Smoothie", "Hotel Aurora"; a first
  word that is a function word, "The", left out; at a sentence's start, the first word may
  owe its capital to the sentence) name one thing; they must appear together, in that
  order, in the conversation (case and a possessive "'s" aside). Words said apart are not
  the name.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Final

from ..extract import sentences
from ..grounding import CARRIERS, SUPPORT_SHARE, holds_word, same_word
from ..periods import CLOCK, DAY, MONTH_NAMES, MONTHS, WEEKDAYS, clock_value, day_value
from ..words import RELATION_WORDS, SMALL_TALK, STOP_WORDS, stem, words
from .wording import naming_forms

_MONTH = re.compile(rf"\b(?:in|since|until|by|from|during|last|next|this) ({MONTH_NAMES})\b(?! \d)", re.IGNORECASE)
"""A month named alone ("in January", "since May")."""
_OFTEN = re.compile(
    r"\b(?:(?:once|twice|three times|four times|\d+ times) (?:a|an|per) (?:day|night|week|month|hour|year)"
    r"|every (?:\d+ |other )?(?:day|morning|evening|night|hour|week|month|minute)s?|daily|weekly|hourly|nightly)\b",
    re.IGNORECASE,
)
"""How often: "twice a day", "once an hour", "every morning", "daily"."""
_NAME_WORD = r"[A-Z][\w\u2019'-]*"
_PLACE = re.compile(rf"\b(?P<role>to|in|at|from|near)\s+(?P<place>{_NAME_WORD}(?:\s+{_NAME_WORD})*)")
"""A place a preposition leads to: capitalized words ("to Lake Como", "in Navigli"), with
its role: where to, where from, or where ("in", "at", "near")."""
_ROLES: Final = {"to": "to", "from": "from", "in": "at", "at": "at", "near": "at"}
_EVENT = re.compile(
    r"\b(?:to|will|shall|would|should|must|can|could|might|'ll|\u2019ll)\s+(?:[a-z]+ly\s+)?"
    r"(?P<verb>[a-z][a-z'-]*)\b(?=(?P<rest>(?:\s+[\w'\u2019-]+){0,3}))"
    r"|\b(?:is|are|was|were|be|been|being)\s+(?:[a-z]+ly\s+)?(?P<done>[a-z]+(?:ed|en|ing))\b"
    r"|\b(?P<noun>[a-z]{3,})\s+(?:is|are|was|were)\s+(?:(?:set|planned|scheduled|booked)\s+)?(?:on|in|at|for)\s"
    r"|(?:\b[A-Z][a-z]+|\b(?:he|she|they|it|user|users))\s+(?:[a-z]+ly\s+)?"
    r"(?P<says>[a-z]{3,}(?<!ss)s)\b(?=(?P<said>(?:\s+[\w'\u2019:-]+){0,3}))"
)
"""The verb after "to", "will" or a modal (lowercase: "to Milan" is a place), and what
follows it (a carrier verb's object); a verb "is" or "was" done ("was finished"); the thing
a day is said of ("the check is on Monday"); a person's verb ("Rosa takes ...")."""
_SPLIT = re.compile(r"[,;:](?!\d)|\s[-\u2013\u2014]\s|\s(?:then|but|so|while|because)\s", re.IGNORECASE)
"""Where a sentence of the conversation splits into clauses."""
_LIGHT: Final = frozenset(
    {"be", "have", "get", "go", "do", "make", "take", "give", "keep", "try", "put", "start", "want",
     "need", "like", "plan", "help", "let", *CARRIERS}
)
"""Verbs that carry their object: the event is the object ("take a ferry": the ferry)."""
_DETERMINERS: Final = frozenset(
    "a an the his her their my our your its this that these those some one two any".split()
)
_SUBJECT = re.compile(r"\b([A-Za-z]{4,}) (?=(?:I|[Ww]e|[Hh]e|[Ss]he|[Tt]hey) [a-z])")
"""A new subject after a noun starts a clause of its own: "finished the puzzle I started
in January" (the start is in January, not the finish)."""
_OWN = re.compile(r"^\W*(?:(?:and|or|but)\s+)?(?:i|we|you|he|she|they|it|there)\b", re.IGNORECASE)
"""A part of a sentence that opens with its own subject ("and I want to ...")."""
_LIGHT_FORMS: Final = frozenset(stem(w) for w in _LIGHT)
_SUBJECT_NAME = re.compile(
    r"^\W*(?:(?:and|but|so)\s+)?(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)"
    r"(?!['\u2019\w])\s+(?:is|are|was|were|has|had|can|can't|cannot|must|takes|gets|likes|loves|needs)\b"
)
"""A clause that opens with a name and says something of it ("Tom is allergic ...")."""
_PARTY = re.compile(
    r"^\W*(?:(?:and|but|so)\s+)?(?:[Tt]he|[Hh]is|[Hh]er|[Tt]heir)\s+(?P<noun>[a-z]{3,})"
    r"(?:\s+(?:has|have|had|also|already|just|recently))*\s+(?P<act>[a-z]{3,}ed)\b"
)
"""A clause that opens with someone named by a common noun and what they did ("The
coworker has raised his rate")."""
_DOING = re.compile(r"\s*(?:[a-z]+ly\s+)?([a-z]{3,}(?:ing|ed))\b")
"""The verb a name's clause goes on with ("Marta is drafting")."""
_FIRST_PERSON = re.compile(r"\bI\b|\bI['\u2019](?:m|ll|ve|d)\b|\b[Ww]e(?:['\u2019](?:re|ll|ve|d))?\b")
"""A clause whose subject is a party of the conversation: "I have 1,800 words drafted"."""
_I = re.compile(r"\bI\b|\bI['\u2019](?:m|ll|ve|d)\b")
"""The user alone as a clause's party ("I also raised my rate")."""
_NAME_ALONE = re.compile(r"(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?")
"""A part of a sentence that is a name and nothing else ("Ms. Alvarez")."""
_AND_ITEM = re.compile(r"\s(?:and|or|then)\s+(?!(?:at|on|in|by|from|to|until)\b)")
"""Where the phrase of one item of a list ends."""
_NOT_PLACES: Final = frozenset(WEEKDAYS) | frozenset(MONTHS) | frozenset(m[:3] for m in MONTHS) | STOP_WORDS
"""A capitalized word after "in" or "on" that is no place ("in May", "to The ...")."""
_NAME_RUN = re.compile(rf"(?<![\w'\u2019-]){_NAME_WORD}(?:\s+{_NAME_WORD})+")
_POSSESSIVE = re.compile(r"['\u2019]s\b")


def misbound(clause: str, conversation: Sequence[str]) -> str | None:
    """Why ``clause`` (of a summary) binds its event to a day, time or place the
    conversation's texts do not bind it to, or None (see the module docstring)."""
    found = _event(clause)
    if found is None:
        return None
    event, at = found
    # what the event leads to (not what its subject names), up to the next item of a list
    # ("takes warfarin at 6 pm and metoprolol at 8 am": 8 am is the metoprolol's)
    values = _values(_AND_ITEM.split(clause[at:], maxsplit=1)[0])
    if not values:
        return None
    said, bare = _read(tuple(conversation))
    if not any(holds_word(forms, event) for forms, _ in said):
        return None  # an event the conversation never names: ``support`` holds its words
    others = _forms(_without_values(clause[at:])) - {event} - _LIGHT_FORMS  # what it is done to
    for kind, value in sorted(values - bare):  # said bare: "May 10 to May 17" answers "dates?"
        if not any((kind, value) in found and _binds(forms, event, others) for forms, found in said):
            return f"binds its event to a {kind} the conversation does not give it"
    return None


@functools.lru_cache(maxsize=4)
def _read(conversation: tuple[str, ...]) -> tuple[list[tuple[set[str], set[tuple[str, str]]]], set[tuple[str, str]]]:
    """The conversation's clauses (their forms and values) and its bare values, read once
    for all the clauses of a summary."""
    said = [(_forms(_without_values(part)), _values(part)) for part in _clauses(conversation)]
    return said, _bare(conversation)


def _binds(forms: set[str], event: str, others: set[str]) -> bool:
    """Whether a clause of the conversation (its ``forms``) holds the event, or most of the
    summary clause's ``others`` words (``grounding.SUPPORT_SHARE``: the event paraphrased,
    "wants to give her antibiotics on Monday" binds "to prescribe antibiotics on Monday")."""
    return holds_word(forms, event) or (
        bool(others) and sum(holds_word(forms, w) for w in others) >= SUPPORT_SHARE * len(others)
    )


def _without_values(text: str) -> str:
    for pattern in (DAY, _MONTH, _OFTEN, CLOCK, _PLACE):
        text = pattern.sub(" ", text)
    return text


def misattributed(clause: str, conversation: Sequence[str]) -> str | None:
    """Why ``clause`` says of the person (or thing) it opens with what the conversation
    says of another, or None: "Tom is allergic to peanuts" where "Mia is allergic to
    peanuts, and Tom can't have eggs". Dropped when no clause of the conversation naming
    it holds at least half of what ``clause`` says of it and a clause opening with
    another name does (a pronoun's clause, "she is on warfarin", says nothing of whom)."""
    kind = _kind_given(clause, conversation)
    if kind is not None:
        return kind
    match = _SUBJECT_NAME.match(clause)
    if match is None:
        return _party_swapped(clause, conversation) or _role_given(clause, conversation)
    name = _forms(match.group("name"))
    others = _forms(clause[match.end():]) - _LIGHT_FORMS - name
    if not name or not others:
        return None
    said = _named(tuple(conversation))

    def says(forms: set[str]) -> bool:
        return 2 * sum(holds_word(forms, w) for w in others) >= len(others)

    if any(name <= forms and says(forms) for forms, _, _ in said):
        return None
    if any(subject and not name & subject and says(forms) for forms, subject, _ in said):
        return "says of someone what the conversation says of another"
    doing = _DOING.match(clause, match.end())
    if doing is not None:  # "Marta is drafting": who drafts?
        act = stem(doing.group(1))
        holding = [(forms, first) for forms, _, first in said if holds_word(forms, act)]
        if holding and all(first and not name & forms for forms, first in holding):
            return "says of someone what a party of the conversation does"
    return None


_IS_A = re.compile(
    r"^\W*(?P<name>[A-Z][a-z]+)(?:['\u2019]s|\s+is|\s+was)\s+(?:a|an)\s+(?P<kind>[a-z][a-z -]*?)"
    r"(?=\s+(?:who|that|which|with|and|in|of|from|for)\b|\s*[,.;:!?]|\s*$)"
)
"""A clause saying what a named one is ("Felix's a brave little hedgehog who ...")."""
_RELATION = "|".join(sorted(RELATION_WORDS))


def _kind_given(clause: str, conversation: Sequence[str]) -> str | None:
    """Why ``clause`` makes a person of the conversation one of the things it speaks of
    ("Felix's a brave little hedgehog" where the user's "son Felix" is told a story about a
    hedgehog: a story retold as facts about the chat's people), or None: the conversation
    names the person by a tie ("my son Felix", "Felix, my son"), says the kind's last word
    ("hedgehog") in a clause not naming the person, and in none naming the person. A kind
    the conversation never says ("a 5-year-old boy") is not judged here."""
    match = _IS_A.match(clause)
    if match is None:
        return None
    name, kind = match.group("name"), match.group("kind").split()[-1].casefold()
    if kind in RELATION_WORDS or kind in STOP_WORDS:
        return None
    written = " ".join(conversation)
    tie = rf"\b(?:(?:my|our|his|her|their|your)\s+(?:{_RELATION})\s+{name}\b|\b{name},\s+(?:my|our|his|her|their)\s+(?:{_RELATION})\b)"
    if re.search(tie, written, re.IGNORECASE) is None:
        return None
    kind_form = stem(kind)
    said = [c for c in _clauses(tuple(conversation)) if any(same_word(stem(w), kind_form) for w in words(c))]
    named = re.compile(rf"\b{name}\b")
    if said and not any(named.search(c) for c in said):
        return "makes a person of the conversation a thing it speaks of"
    return None


def _party_swapped(clause: str, conversation: Sequence[str]) -> str | None:
    """Why ``clause`` says someone the user speaks of ("my coworker") did what the user did
    ("The coworker has raised his rate to $80 per hour" where "I also raised my rate from
    65 to 80 dollars an hour"), or None: every clause of the conversation holding the act
    and half of what ``clause`` says with it has "I" in it (not "we": the coworker may be
    one of us) and does not name that someone."""
    match = _PARTY.match(clause)
    if match is None:
        return None
    noun = match.group("noun")
    if re.search(rf"\b(?:my|our)\s+{re.escape(noun)}\b", " ".join(conversation), re.IGNORECASE) is None:
        return None  # not a third party of the user's: "the patient", "the speaker"
    act, who = stem(match.group("act")), stem(noun)
    others = _forms(clause[match.end():]) - _LIGHT_FORMS - {who}
    parts = [(part, _forms(part)) for part in _clauses(tuple(conversation))]
    holding = [
        (part, forms) for part, forms in parts
        if holds_word(forms, act) and 2 * sum(holds_word(forms, w) for w in others) >= len(others)
    ]
    if holding and all(_I.search(part) and not holds_word(forms, who) for part, forms in holding):
        return "says of someone what a party of the conversation does"
    return None


_ROLE = re.compile(
    r"^\W*(?:(?:and|but|so)\s+)?(?:[Tt]he|[Hh]is|[Hh]er|[Tt]heir)\s+(?P<role>[a-z]{3,}(?:\s+(?!(?:also|already|just|now|then)\b)[a-z]{3,})?)"
    r"(?:\s+(?:also|already|just|now|then))*\s+(?P<act>[a-z]{3,}(?:s|ed))\b"
)
"""A clause that opens with someone named by a role ("The workshop leader narrates")."""
_AGENT = re.compile(r"[a-z]{2,}(?:er|or|ist|ian)")
"""A noun naming a person by what they do: "leader", "doctor", "pharmacist", "physician"."""
_DOER = re.compile(r"([A-Za-z][\w'\u2019.]*)\s+(?:(?:[a-z]+ly|just|also|already|still|could|would|should|can|will|might|must|may|to)\s+)*$")
"""The word before an act, adverbs and auxiliaries aside: its doer ("You could | open")."""
_THIRD: Final = frozenset("he she they".split())
"""Third persons by a pronoun ("we" may hold one too: "my husband and I ... we booked")."""


def _role_given(clause: str, conversation: Sequence[str]) -> str | None:
    """Why ``clause`` gives someone the conversation names by a role (a relation, "my
    sister", or a doer's noun, "the workshop leader") an act no third person does in the
    conversation, or None: some clause of the conversation says the act, and in none is
    its doer (the word before it, adverbs and auxiliaries aside) a third person (a name,
    "he", "she", "they", a relation or a doer's noun; "we" may be one of us) or that
    someone: the act is the parties' ("I", "you", none: "Trimmed it"), asked ("Who
    narrates it?") or a thing's ("it opens with").
    "The workshop leader narrates the keeper's message" where the assistant asked "Who
    narrates it?" (the user writes the piece; the leader only set its limit) is dropped;
    "The urgent care switched it" where "Dr. Okafor switched it" is not: a third person
    did the act."""
    match = _ROLE.match(clause)
    if match is None:
        return None
    role = match.group("role").split()
    head = role[-1]
    if head not in RELATION_WORDS and not _AGENT.fullmatch(head):
        return None  # a thing ("the note ends"), not a person
    text = " ".join(conversation)
    if re.search(rf"\b(?:the|my|our|his|her|their)\s+{re.escape(' '.join(role))}(?![\w-])", text, re.IGNORECASE) is None:
        return None  # someone the conversation does not name ("the user"; "the mother" of "my mother-in-law")
    act, who = stem(match.group("act")), stem(head)
    doers: list[str] = []
    for part in _clauses((text,)):
        for found in re.finditer(r"[A-Za-z]+", part):
            if holds_word({stem(found.group().casefold())}, act):
                doer = _DOER.search(part[: found.start()])
                doers.append(doer.group(1) if doer else "")
    if doers and not any(_third(doer, who) for doer in doers):
        return "gives someone an act no third person does in the conversation"
    return None


def _third(doer: str, who: str) -> bool:
    """Whether ``doer`` (a word before an act) is a third person, or the role ``who``."""
    word = doer.casefold()
    if word in ("i", "you", "who", "it", "this", "that", "there") or (word in STOP_WORDS and word != "we"):
        return False
    if word in _THIRD or word == "we" or word in RELATION_WORDS or _AGENT.fullmatch(word) or same_word(stem(word), who):
        return True
    return doer[:1].isupper()  # a name ("Okafor switched it")


@functools.lru_cache(maxsize=4)
def _named(conversation: tuple[str, ...]) -> list[tuple[set[str], set[str], bool]]:
    """Each clause of the conversation as its forms, the forms of the name it opens with
    (empty when none) and whether its subject is "I" or "we" (a party of the
    conversation); a name set off by commas ("the teacher, Ms. Alvarez, can check it")
    goes with what follows it."""
    parts = _clauses(conversation)
    forms = [_forms(part) for part in parts]
    out = []
    for i, (part, held) in enumerate(zip(parts, forms)):
        subject = _SUBJECT_NAME.match(part)
        alone = part.strip(" ,.!")
        if subject is None and i + 1 < len(forms) and _NAME_ALONE.fullmatch(alone) and alone.casefold() not in SMALL_TALK:
            held = held | forms[i + 1]
        out.append((held, _forms(subject.group("name")) if subject else set(), bool(_FIRST_PERSON.search(part))))
    return out


def invented_name(sentence: str, conversation: str) -> str | None:
    """Why ``sentence`` names a compound the ``conversation`` never wrote, or None."""
    said = f" {' '.join(words(_POSSESSIVE.sub('', conversation)))} "
    for match in _NAME_RUN.finditer(sentence):
        run = _POSSESSIVE.sub("", match.group()).split()
        while run and run[0].casefold() in STOP_WORDS:
            run = run[1:]  # "The Last Supper": the name is "Last Supper"
        first = not sentence[: match.start()].strip(" \"'\u201c")
        if len(run) < 2 or _written(run, said) or (first and (len(run) < 3 or _written(run[1:], said))):
            continue  # at a sentence's start, the first word may be capitalized for it
        return "names a compound the conversation never wrote"
    return None


def _written(run: Sequence[str], said: str) -> bool:
    """Whether the words of ``run`` are in ``said`` (words joined by spaces) together."""
    return f" {' '.join(words(' '.join(run)))} " in said


def planned_event(clause: str) -> str | None:
    """The stem of the event ``clause`` plans ("will stay at ...": stay), or None."""
    found = _event(clause)
    return None if found is None else found[0]


def _event(clause: str) -> tuple[str, int] | None:
    """The stem of ``clause``'s event (the module docstring) and where its verb starts, or
    None."""
    for match in _EVENT.finditer(clause):
        if match.group("done"):
            return stem(match.group("done")), match.start("done")  # "was finished"
        if match.group("noun"):
            if match.group("noun") in STOP_WORDS:
                continue
            return stem(match.group("noun")), match.start("noun")  # "the check is on"
        name = "says" if match.group("says") else "verb"
        verb = match.group(name).casefold()
        light = stem(verb) in _LIGHT_FORMS or (name == "says" and {verb[:-1], verb[:-2]} & _LIGHT)
        if verb in STOP_WORDS and not light:
            continue
        if not light:
            return stem(verb), match.start(name)
        for token in match.group("rest" if name == "verb" else "said").split():
            word = " ".join(words(token))
            if word in _DETERMINERS or word[:1].isdigit():
                continue  # "take the 9:33 train": the train
            if not word or word in STOP_WORDS or len(word) < 3 or token[:1].isupper():
                break  # "see Max tomorrow": a person, whom the conversation calls "him"
            return stem(word), match.start(name)
    return None


def _values(text: str) -> set[tuple[str, str]]:
    """The days, times and places ``text`` names, each as ``(kind, normalized value)``."""
    found: set[tuple[str, str]] = set()
    for m in DAY.finditer(text):
        found.add(("day", day_value(m)))
    for m in _MONTH.finditer(text):
        found.add(("month", m.group(1)[:3].casefold()))
    for m in _OFTEN.finditer(text):
        found.add(("frequency", " ".join(m.group().casefold().split())))
    for m in CLOCK.finditer(text):
        found.add(("time", clock_value(m)))
    for m in _PLACE.finditer(text):
        place = " ".join(w for w in _POSSESSIVE.sub("", m.group("place")).split())
        if place.split()[0].casefold() not in _NOT_PLACES:
            found.add(("place", f"{_ROLES[m.group('role')]} {place.casefold()}"))
    return found


def _bare(texts: Sequence[str]) -> set[tuple[str, str]]:
    """The values the ``texts`` give in a part of a sentence with no other word that names
    something ("May 10 to May 17", an answer): bound to whatever was asked."""
    return {
        value
        for text in texts
        for sentence in sentences(text)
        for part in _SPLIT.split(sentence)
        if not _forms(_without_values(part))
        for value in _values(part)
    }


def _item(part: str) -> bool:
    """Whether a part of a sentence opens with a thing of its own, not a preposition, an
    article, a number or a day ("metoprolol at 8 am" after "warfarin at 6 pm": an item of a
    list, with its own time; "at Hotel Aurora", "a solar company", "June 8" go on the one
    before)."""
    said = words(part)
    first = said[1] if len(said) > 1 and said[0] in ("and", "or") else said[0] if said else ""
    return first.isalpha() and first not in STOP_WORDS and first not in _NOT_PLACES and not DAY.match(first)


def _split_subjects(sentence: str) -> str:
    return _SUBJECT.sub(
        lambda m: f"{m.group(1)}, " if m.group(1).islower() and m.group(1) not in STOP_WORDS else m.group(),
        sentence,
    )


def _clauses(texts: Sequence[str]) -> list[str]:
    """The clauses of ``texts``: a part of a sentence (between :data:`_SPLIT`'s marks) that
    has no subject, event or thing of its own continues the one before it ("I'll stay in
    Milan for three nights, at Hotel Aurora": the stay is at the hotel; "Leo turns 7 on
    Saturday, June 8, and I want to bake his cake": the baking has no day); the items of
    a list, each with its value, are clauses (:func:`_items`)."""
    out: list[str] = []
    for text in texts:
        for sentence in sentences(text):
            sentence = _split_subjects(sentence)
            parts = _SPLIT.split(sentence)
            marks = [m.group() for m in _SPLIT.finditer(sentence)]
            out.append(parts[0])
            for mark, part in zip(marks, parts[1:]):
                if mark.strip() in ",;:" and not _OWN.search(part) and not _EVENT.search(part) and not _item(part):
                    out[-1] = f"{out[-1]}, {part}"
                else:
                    out.append(part)
    return [item for clause in out for item in _items(clause)]


def _items(clause: str) -> list[str]:
    """``clause`` split where "and" starts an item with a value of its own after one with
    its own ("insulin at 7 am and lisinopril at 9 pm"); whole otherwise ("peanuts and tree
    nuts")."""
    parts = _AND_ITEM.split(clause)
    out = [parts[0]]
    for part in parts[1:]:
        if _values(out[-1]) and _values(part):
            out.append(part)
        else:
            out[-1] = f"{out[-1]} and {part}"
    return out


def _forms(text: str) -> set[str]:
    """The stems of ``text``'s words that name something (``wording.naming_forms``)."""
    return set(naming_forms(text))

