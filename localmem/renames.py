"""A name or a place a later message gives again: what a conversation renamed or moved.

- **A name given again** (:func:`renamed`): a statement with a word of change naming
  something ("he wants her called Bramble now", "renamed him to Otis") replaces the latest
  name given before it (in a text that gives or asks a name: "We were going with Pip") when
  that name is never said again; a claim saying the old name and not the new one is stale.
- **A place given again** (``_moved``): a statement with a word of change or of a mistake
  giving a place ("I got the place wrong, it's at Kemi's", "moved it to Kemi's") replaces
  the latest place said before it ("at Graham's", "in Leeds") when that place is never said
  as one again; a claim saying the old place and not the new name is stale. A turn with a
  word of correction anywhere in it ("Two corrections though.", "I always mix those two up",
  "I meant") that gives a thing's place ("the new job is in Cardiff") replaces the place an
  earlier text gave that thing ("a new job in Bristol"), not in a question nor a hedge, and
  not when the old place is still said as one (both in force).
- **A name denied beside its new one** (``_denied``): with a word of correction (the same
  words) in it or in the sentence after it, a statement "X, not Y" ("It says felodipine 5 mg, not amlodipine. Sorry,
  I mixed them up") replaces the word Y said in an earlier text when no text after that turn
  says Y again; a claim saying Y and not X is stale ("With amlodipine the grapefruit effect is
  small"). Without the comma ("I do not smoke") or the word of correction ("take the tablets,
  not the syrup") nothing is denied.
- **Where someone stays, left** (``_left``): a statement, not a question nor negated nor on a
  condition, that a person moved (done: "Ollie has moved his mattress into the living room",
  "He's already moved ... into ...", "Priya moved out"; "he" or "she" standing for the last
  name its text, or the text before, says mid-sentence) ends where an earlier text said
  they stay: a claim naming them with a verb of staying and a place ("Ollie sleeps there",
  "Priya lives in the flat upstairs"), and not the new place, is stale. What else the
  claim says of them ("he has asthma") still holds: ``staleness.still_holds`` keeps it.

:func:`replaced_name` says whether a claim states such an old name or place (pure; neither
raises on any ``str``); ``staleness.stale`` asks it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Final

from .changes import CUE, last_question, sentences
from .periods import MONTHS, WEEKDAYS
from .words import NUMBER_WORDS, STOP_WORDS, content_forms, content_forms_in_order


def replaced_name(claim: str, texts: tuple[str, ...], whole: str = "") -> str | None:
    """Why ``claim`` states a name or a place ``texts`` (a conversation, in order) gave again
    later, without the new one, in itself or in the ``whole`` text it is part of; None when
    it does not."""
    for old, new in _denied(texts):
        if _says(claim, old, anycase=True) and not any(_says(t, new, anycase=True) for t in (claim, whole)):
            return "states a name a later message denied"
    if _NAME.search(claim) is not None:
        for old, new in renamed(texts):
            if _says(claim, old) and not _says(claim, new) and not _says(whole, new):
                return "states a name a later message replaced"
        for old, new in _moved(texts):
            if _at(claim, old) and not _says(claim, new) and not _says(whole, new):
                return "states a place a later message replaced"
        if any(_NOT_DONE.search(claim[: m.start()].rsplit(".", 1)[-1]) is None for m in _STAYS.finditer(claim)):
            told = content_forms(claim) | content_forms(whole)
            for who, place in _left(texts):
                if _says(claim, who) and not (place and place <= told):
                    return "states where someone stays that a later message says they moved from"
    return None


_NAME = re.compile(r"\b[A-Z][a-z]+\b")
"""A word written as a name: capitalised, then lower-case."""
_RENAME = re.compile(
    r"(?i:\b(?:renam(?:e|ed|es|ing)\s+(?:\w+\s+){0,2}?(?:to|as)|going with"
    r"|(?:call|name)(?:d|ed|s|ing)?\s+(?:her|him|it|them|the\s+[a-z]+)"
    r"|(?:her|him|it|them|the\s+[a-z]+)\s+(?:be\s+)?(?:called|named)))"
    r"\s+(?P<name>[A-Z][a-z]+)\b"
)
"""A name given to something ("wants her called Bramble", "renamed him to Otis", "call her
Bramble", "going with Pip"); "called Sarah" alone is a phone call."""
_RENAME_CUE = re.compile(rf"{CUE.pattern}|\brenam\w*|\bchanged? (?:\w+ )?mind\b", re.IGNORECASE)
"""What says the name given replaces one given before ("... called Bramble now",
"changed his mind about the name", "renamed")."""
_NAMING = re.compile(r"\b(?:name[ds]?|call(?:ed|s)?|going with)\b", re.IGNORECASE)
"""A text that gives or asks a name."""


@functools.lru_cache(maxsize=8)
def _renames(texts: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    found: list[tuple[str, str]] = []
    for i, new in _given(texts, _RENAME_CUE, _RENAME):
        old = _last_name(texts, i, new)
        if old is not None:
            found.append((old, new))
    return tuple(found)


def _given(texts: tuple[str, ...], cue: re.Pattern[str], giving: re.Pattern[str]) -> list[tuple[int, str]]:
    """Each name ``giving`` finds (its group "name") in a statement, not a question, that
    ``cue`` finds a word of change in, with the index of its text."""
    return [
        (i, m.group("name"))
        for i, text in enumerate(texts)
        for sentence in sentences(text)
        if not sentence.rstrip().endswith("?") and cue.search(sentence) is not None
        for m in giving.finditer(sentence)
    ]


def renamed(texts: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Each name ``texts`` (a conversation, in order) replace, with the name replacing it:
    a statement with a word of change gives a name ("he wants her called Bramble now",
    "renamed it to Otis instead"), and the latest name given before it, in a text that gives
    or asks a name ("We were going with Pip", after "What's his name?"), is never said
    again from that text on ("Pip" after "called Bramble now"; a name still said later is
    of something else or still in use, and replaced by nothing)."""
    return _renames(tuple(texts))


def _last_name(texts: tuple[str, ...], i: int, new: str) -> str | None:
    """The latest name said before text ``i`` in a text that gives or asks a name (or
    answers a question that asks one), and said in no text from ``i`` on; None when the
    latest such name is still said."""
    later = " ".join(texts[i:])
    for j in range(i - 1, -1, -1):
        naming = _NAMING.search(texts[j]) is not None or (j and _NAMING.search(last_question(texts[j - 1])) is not None)
        names = [m.group() for m in _NAME.finditer(texts[j]) if m.group().casefold() not in STOP_WORDS and m.group() != new]
        if not naming or not names:
            continue
        fresh = [n for n in names if not _says(later, n)]
        return fresh[-1] if fresh else None
    return None


_PLACE = re.compile(r"\b(?:at|in)\s+(?P<name>[A-Z][a-z]+)(?:'s)?\b")
"""A place said as one: "at" or "in", then a name ("at Graham's", "in Leeds")."""
_NEW_PLACE = re.compile(
    r"(?i:\b(?:it's|it is|it'll be|it will be|now)\s+(?:at|in)|\bmov(?:e|ed|es|ing)\s+(?:\w+\s+){0,2}?to)"
    r"\s+(?P<name>[A-Z][a-z]+)(?:'s)?\b"
)
"""A place given again: "it's at Kemi's", "now in Leeds", "moved it to Kemi's"."""
_PLACE_CUE = re.compile(rf"{CUE.pattern}|\bwrong\b|\bmov(?:e|ed|es|ing)\b|\bwait\b", re.IGNORECASE)
"""What says the place given replaces one given before ("I got the place wrong, it's at
Kemi's", "moved it to Kemi's")."""
_NOT_PLACES: Final = frozenset(MONTHS) | frozenset(WEEKDAYS) | STOP_WORDS
_NOT_NAMES: Final = _NOT_PLACES | frozenset(NUMBER_WORDS) | frozenset(("one", "once", "twice"))
"""Words no denial replaces as a name: a value's (``revisions`` reads those) or a function word."""


@functools.lru_cache(maxsize=8)
def _moved(texts: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Each place ``texts`` replace, with the place replacing it: a statement, not a
    question, with a word of change or of a mistake gives a place ("it's at Kemi's",
    "moved it to Kemi's"), and the latest place said before it ("at Graham's"), in an
    earlier text, is never said as a place again from that text on."""
    found: list[tuple[str, str]] = []
    for i, new in _given(texts, _PLACE_CUE, _NEW_PLACE):
        if new.casefold() in _NOT_PLACES:
            continue  # "move to Friday" moves a day, not a place
        olds = [
            p.group("name") for j in range(i) for p in _PLACE.finditer(texts[j])
            if p.group("name") != new and p.group("name").casefold() not in _NOT_PLACES
        ]
        if olds and not _at(" ".join(texts[i:]), olds[-1]):
            found.append((olds[-1], new))
    return tuple(found) + _placed_again(texts)


_THING_AT = re.compile(
    r"\b(?P<thing>[a-z]{3,})\s+(?:is|are|was|were|will be|'s)\s+(?:at|in)\s+(?P<name>[A-Z][a-z]+)(?:'s)?\b"
)
"""A place given for a thing the sentence names: "the new job is in Cardiff"."""
_MISTAKE = re.compile(
    rf"{CUE.pattern}|\bcorrect(?:ion|ions|ed)?\b|\bwrong\b|\bmistake\b|\bI meant\b"
    r"|\bmix(?:ed|es|ing)?\s+(?:\w+\s+){0,3}?up\b|\bmixed up\b",
    re.IGNORECASE,
)
"""A word of correction anywhere in a turn ("Two corrections though.", "I always mix those
two up", "I meant Cardiff", "actually")."""
_HEDGE = re.compile(r"\b(?:maybe|perhaps|might|probably|possibly|not sure|i think|could be)\b", re.IGNORECASE)
"""A place said with doubt gives no new place."""


@functools.lru_cache(maxsize=8)
def _placed_again(texts: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Each place a turn with a word of correction (:data:`_MISTAKE`) gives again for the
    same thing: a statement, not a question nor a hedge, gives a thing's place ("the new job
    is in Cardiff"), and an earlier text said that thing at another place ("a new job in
    Bristol": the thing's word, then "in" or "at" within three words) that no text from
    this turn on says as a place again (both places in force replace nothing)."""
    found: list[tuple[str, str]] = []
    for i, text in enumerate(texts):
        if _MISTAKE.search(text) is None:
            continue  # most turns correct nothing
        for sentence in sentences(text):
            if sentence.rstrip().endswith("?") or _HEDGE.search(sentence) is not None:
                continue
            for m in _THING_AT.finditer(sentence):
                thing, new = m.group("thing"), m.group("name")
                if thing in STOP_WORDS or new.casefold() in _NOT_PLACES:
                    continue
                said = re.compile(rf"\b{re.escape(thing)}\w*\s+(?:\w+\s+){{0,2}}?(?:at|in)\s+(?P<name>[A-Z][a-z]+)")
                olds = [o.group("name") for j in range(i) for o in said.finditer(texts[j]) if o.group("name") != new]
                if olds and not _at(" ".join(texts[i:]), olds[-1]):
                    found.append((olds[-1], new))
    return tuple(found)


_DENIAL = re.compile(
    r"\b(?P<new>[A-Za-z][\w-]{2,})(?:\s+\d[\d.,]*\s*[a-z\u00b5]+)?,\s+not\s+(?:the\s+|a\s+|an\s+)?"
    r"(?P<old>[A-Za-z][\w-]{2,})(?=\s*(?:[.;!?]|$))"
)
"""A name denied beside the one replacing it: "felodipine 5 mg, not amlodipine" (the new name
may carry its amount), "Lisbon, not Porto"."""


@functools.lru_cache(maxsize=8)
def _denied(texts: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Each word a turn of correction denies beside its new one (:data:`_DENIAL`, in a
    statement that :data:`_MISTAKE` finds a word of correction in, or in the sentence right
    after it: "It says felodipine 5 mg, not amlodipine. Sorry, I mixed them up"; not "I had
    the wrong number in my head. The oil changes were done at Quick Lube, not the dealer"),
    said in an earlier text and in no text after this one, with the word replacing it."""
    found: list[tuple[str, str]] = []
    for i, text in enumerate(texts):
        if _MISTAKE.search(text) is None:
            continue  # most turns correct nothing
        said = list(sentences(text))
        for k, sentence in enumerate(said):
            if sentence.rstrip().endswith("?") or _MISTAKE.search(" ".join(said[k:k + 2])) is None:
                continue  # the mistake admitted is another one ("I had the wrong number ...")
            for m in _DENIAL.finditer(sentence):
                old, new = m.group("old"), m.group("new")
                pair = {old.casefold(), new.casefold()}
                if pair & _NOT_NAMES or len(pair) == 1:
                    continue  # a number, a day or a month is a value (``revisions``)
                naming = [_says(t, old, anycase=True) for t in texts]
                if any(naming[:i]) and not any(naming[i + 1:]):
                    found.append((old, new))
    return tuple(found)


def _at(text: str, place: str) -> bool:
    """Whether ``text`` says ``place`` as a place ("at Graham's", "in Leeds")."""
    return any(m.group("name") == place for m in _PLACE.finditer(text))


def _says(text: str, name: str, anycase: bool = False) -> bool:
    """Whether ``text`` says ``name`` as a word (``anycase``: in any case)."""
    flags = re.IGNORECASE if anycase else 0
    return bool(name) and re.search(rf"\b{re.escape(name)}\b", text, flags) is not None



_STAYS = re.compile(
    r"\b(?:sleeps?|sleeping|slept|lives?|living|lived|stays?|staying|stayed)\s+"
    r"(?:(?:now|still|at the moment)\s+)?(?:there|here|in|at|on|upstairs|downstairs)\b",
    re.IGNORECASE,
)
"""A verb of staying with its place ("sleeps there", "lives in the flat upstairs")."""
_MOVED = re.compile(
    r"(?P<who>\b[A-Z][a-z]+|\b(?:[Hh]e|[Ss]he))(?:'s|\s+has|\s+had)?\s+(?:(?:already|just|now|finally)\s+)*"
    r"moved\s+(?:(?!(?:into|to|out|in)\b)[\w']+\s+){0,3}?(?P<to>into|to|out of|out|in with)\b(?P<place>[^.;!?,]*)"
)
"""A person who moved, and where to ("He's already moved his mattress into the living room",
"Priya moved out")."""
_NOT_DONE = re.compile(r"\b(?:not|never|n't|if|unless|when|once)\b|n't\b", re.IGNORECASE)
"""A move denied, or on a condition: nobody moved yet; a stay denied or on a condition ("it
would be safer if Ollie didn't sleep in that room") says where no one stays."""
_PRONOUNS: Final = frozenset(("he", "she"))


@functools.lru_cache(maxsize=8)
def _left(texts: tuple[str, ...]) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each person ``texts`` say moved, after an earlier text said where they stay (a verb
    of staying, :data:`_STAYS`), with the first two content words of the place they moved
    to (a claim saying them tells the move)."""
    found: list[tuple[str, frozenset[str]]] = []
    for i, text in enumerate(texts):
        if "moved" not in text:
            continue  # most texts move no one
        for sentence in sentences(text):
            if sentence.rstrip().endswith("?"):
                continue
            for m in _MOVED.finditer(sentence):
                if _NOT_DONE.search(sentence[: m.start("place")]) is not None:
                    continue  # "he hasn't moved into the living room", "if she moved out"
                who = m.group("who")
                if who.casefold() in _PRONOUNS:
                    who = _last_person(texts, i, text[: max(0, text.find(sentence)) + m.start()]) or ""
                if not who or who.casefold() in _NOT_NAMES:
                    continue
                if any(_says(t, who) and _STAYS.search(t) for t in texts[:i]):
                    found.append((who, frozenset(content_forms_in_order(m.group("place"))[:2])))
    return tuple(found)


def _last_person(texts: tuple[str, ...], i: int, before: str) -> str | None:
    """The name "he" or "she" stands for: the last name said mid-sentence in ``before`` (text
    ``i`` up to the pronoun), else in the text before it."""
    for text in (before, texts[i - 1] if i else ""):
        names = [
            m.group() for sentence in sentences(text) for m in _NAME.finditer(sentence)
            if m.start() > 0 and m.group().casefold() not in _NOT_NAMES
        ]
        if names:
            return names[-1]
    return None
