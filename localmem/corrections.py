"""A user correcting what they said just before: deterministic rules, pure functions.

"My wifi password is bluefox77." ... "Actually no, it's bluefox78." The second
message states no fact on its own ("it's bluefox78" names nothing), so the
fact rules (``autopins``) and the update rules (``updates``) pass it by, and
the pin of the first would go on asserting the wrong value in every context.
:func:`find_correction` reads a user's message for a correction: an opening that
says so ("actually", "sorry", "oops", "correction:", "I meant", "scratch that",
"no wait") followed by a new value ("it's X", "I meant X", "make that X", "X, not
Y", "not Y but X"), where a value is something that can be wrong: a number, a
code ("bluefox78"), a name, a day or month. :func:`corrects` then says which of
the pins taken from the user's previous message it corrects: those holding the
old value when the message names it ("20 mg, not 10 mg"), else those holding a
value of the same kind ("Tuesday" corrects a pin with a weekday).

The store (``Pins.add_auto_pins``) keeps a corrected pin in history, ended by
the correction (forgetting the correction makes it current again), and pins
:func:`corrected` in its place: both of the user's sentences, each in their own
words, with what one did to the other said, built from both messages (forgetting
either removes it).

Precision first: "Actually, I have a question about Python" opens like a
correction but says no "it's"; "Sorry, it's late" names no value. Such
messages correct nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from .changes import TAKE_BACK
from .words import MONTHS, WEEKDAYS, WORD, is_number

_I = re.IGNORECASE

CUE_WORDS: Final = frozenset(
    "actually sorry oops whoops correction meant typo wait scratch misspoke mistake bad".split()
)
"""A message without one of these words corrects nothing: the gate every user message
passes, a set intersection with its words (``autopins.message_words``). It holds a word of
every opening :data:`_OPENING` reads ("whoops", "my bad"), or that opening would never reach
:func:`find_correction` through the store."""

# The opening that says a message corrects something: "Actually, ...", "Sorry, I meant
# ...", "Oops, typo: ...", "No wait, ...", "Correction: ...", "Scratch that, ...": the words
# that take back what was said (``changes.TAKE_BACK``, a change's cue too) and those of an
# admitted slip.
_OPENING = re.compile(
    r"^\s*(?:(?:no|nope|oh|ah|hmm|um|er|sorry|oops|whoops|wait)\b[\s,.!:;-]*)*"
    rf"(?:{TAKE_BACK}|sorry|oops|whoops|typo|my bad|my mistake|i misspoke|wait)\b[\s,.!:;-]*"
    r"(?:(?:no|not quite|typo|my bad|my mistake|sorry)\b[\s,.!:;-]*)*",
    _I,
)
# What the correction says the value is: its claim ("it's X", "I meant X", "make that X",
# "the dose is X"), then, within the claim, the value it replaces when said ("20 mg, not
# 10 mg", "not Monday, it's Tuesday").
_CLAIM = re.compile(
    r"^(?:(?:it|that|this|the \w+)(?:'s| is| was| should be| should have been| will be"
    r"| has to be| must be)|(?:i\s+)?meant|make\s+(?:that|it))\s+(?P<claim>.+)$",
    _I,
)
_MEANT = re.compile(r"^(?:i\s+)?meant\b", _I)
_NOT_BUT = re.compile(
    r"^not\s+(?P<old>[^,;]+?)\s*[,;]?\s+(?:but\s+)?(?:it'?s\s+|it\s+is\s+)?(?P<new>.+)$", _I
)
_BUT_NOT = re.compile(r"^(?P<new>.+?)\s*[,;]?\s+(?:and\s+|but\s+)?not\s+(?P<old>.+)$", _I)

MAX_CLAIM_WORDS: Final = 5
"""A correction restates a value, briefly ("it's 20 mg", "I meant next Tuesday"): a longer
claim is a new statement ("that's the 3rd time this week I forgot it")."""

_DAY = re.compile(rf"^(?:{WEEKDAYS}|{MONTHS})$", _I)


@dataclass(frozen=True, slots=True)
class Correction:
    """A correction: the sentence that says it, the values it gives and the values it
    names as wrong (empty when it does not name them)."""

    sentence: str
    new: frozenset[tuple[str, str]]
    old: frozenset[tuple[str, str]]


def value_kind(word: str) -> str | None:
    """The kind of value a word is, if it is one: ``"number"`` ("10", "8:30", "2.5"),
    ``"code"`` (letters with digits: "bluefox78", "b12"), ``"day"`` (a weekday or a
    month), ``"name"`` (a capitalised word that is not "I"); None for other words."""
    if is_number(word):  # a clock time too: a word that opens with a digit
        return "number"
    if any(c.isdigit() for c in word):
        return "code"
    if _DAY.match(word):
        return "day"
    if word[:1].isupper() and word not in ("I", "I'm", "I've", "I'll", "I'd"):
        return "name"
    return None


def values(text: str, *, fragment: bool = False) -> frozenset[tuple[str, str]]:
    """Every value in ``text``, as (kind, the word case-folded). A capitalised word that
    opens a sentence is no name, unless ``text`` is a fragment of one ("it's *Ana*")."""
    found = set()
    for match in WORD.finditer(text):
        word = match.group()
        kind = value_kind(word)
        before = text[: match.start()].rstrip()[-1:]
        if kind == "name" and before in (".", "!", "?", ":", '"', "") and not (fragment and not before):
            continue
        if kind is not None:
            found.add((kind, word.casefold()))
    return frozenset(found)


def find_correction(text: str) -> Correction | None:
    """The correction a user's message makes of what they said before, if it makes one:
    its first sentence opens as a correction ("actually", "sorry", ...; "I meant" needs
    none) and claims a new value."""
    head = text.strip().replace("\u2019", "'")[:300]
    opening = _OPENING.match(head)
    start = opening.end() if opening is not None else 0
    body = re.split(r"(?<=[.!?])\s", head[start:].strip(), maxsplit=1)[0].rstrip(" .!")
    if body.endswith("?") or not (start or _MEANT.match(body)):
        return None
    found = _CLAIM.match(body)
    if found is not None:
        claim = found.group("claim")
    elif body[:4].casefold() == "not ":
        claim = body  # "No wait, not Monday, Tuesday."
    else:
        return None
    new, old = claim, ""
    for rule in (_NOT_BUT, _BUT_NOT):
        split = rule.match(claim)
        if split is not None:
            new, old = split.group("new"), split.group("old")
            break
    if len(WORD.findall(new)) > MAX_CLAIM_WORDS:
        return None
    new_values = values(new, fragment=True)
    old_values = values(old, fragment=True)
    if not new_values - old_values:
        return None
    return Correction((head[:start] + body).strip() + ".", new_values - old_values, old_values)


def corrects(correction: Correction, pin: str) -> bool:
    """Whether ``correction`` corrects the fact ``pin`` (a pin of the user's previous
    message): the pin holds a value the correction names as wrong, or, when it names
    none, a value of the same kind as a new one that the correction does not give."""
    held = values(pin)
    if correction.old:
        return not held.isdisjoint(correction.old)
    kinds = {kind for kind, _ in correction.new}
    return any(kind in kinds and (kind, value) not in correction.new for kind, value in held)


def corrected(pin: str, correction: Correction) -> str:
    """What stands in a corrected pin's place: the fact, then the user's correction."""
    return f'{pin.rstrip()} (then corrected by the user: "{correction.sentence}")'
