"""Facts that update earlier ones: deterministic rules, pure functions.

"My new wifi password is heron-77", "we moved to Leeds", "I no longer take
lisinopril": each makes an earlier fact stop holding. :func:`find_update`
reads one sentence of a user's message and says what it updates (an
:class:`Update`: the slot, that is what the facts are about, and a test for
the earlier facts it replaces); :func:`superseded` picks those among the
current pins. The store then keeps the old pins in history
(``superseded_at``) and pins the new sentence, so only the current fact is in
the context.

Precision first, as for automatic pins: a wrong update hides a true fact from
every context. Questions, hypotheticals and other people's news ("my sister
moved to Leeds" updates nothing of the user's) are left alone, and an earlier
fact is replaced only when it is about the same thing: its words must name
the slot ("wifi password"), the place one lives, or the medicine stopped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from . import extract
from .autopins import message_words, pin_key
from .models import Pin
from .statements import CHANGE_WORDS
from .words import STOP_WORDS

_HYPOTHETICAL = re.compile(r"\b(?:if|imagine|suppose|what if|for example|in my story)\b", re.I)

# "my new wifi password is ...", "our new address is ...", "my new number: ..."
_NEW_THING = re.compile(
    r"\b(?:my|our)\s+(?:new|updated|current)\s+(?P<what>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?)"
    r"(?:\s*(?:is|are|will be|:)|'s)\s+\S",
    re.I,
)
# "my wifi password changed to ...", "my phone number is now ..."
_CHANGED_THING = re.compile(
    r"\b(?:my|our)\s+(?P<what>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?)\s+"
    r"(?:changed to|has changed to|is now|are now)\s+\S",
    re.I,
)
# "we moved to Leeds", "I've just moved to Porto", "we now live in Leeds"
_MOVED = re.compile(
    r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|recently\s+)?"
    r"(?:moved\s+to|relocated\s+to|now\s+live\s+in|are\s+now\s+living\s+in|live\s+in\s+\S+\s+now)"
    r"\s*\S",
    re.I,
)
_HOME_WORDS = re.compile(r"\b(?:live|lives|living|lived|moved|home|address|based in|reside)\b", re.I)
# "I no longer take lisinopril", "she stopped taking warfarin", "I'm off metformin now"
_STOPPED = re.compile(
    r"\b(?:i|we|he|she|they|my\s+\w+)\s+(?:(?:no\s+longer|don't|do\s+not|doesn't|does\s+not)"
    r"\s+(?:take|takes|use|uses|eat|eats|drink|drinks|need|needs)|(?:stopped|quit)\s+"
    r"(?:taking|using|eating|drinking)|(?:am|'m|is|are)\s+(?:off|no\s+longer\s+on))\s+"
    r"(?P<what>[a-z][\w-]+)",
    re.I,
)
_NEGATED = re.compile(r"\b(?:don't|do\s+not|doesn't|does\s+not)\b", re.I)
_ANYMORE = re.compile(r"\bany\s?more\b", re.I)


@dataclass(frozen=True, slots=True)
class Update:
    """What a new fact updates: ``slot`` names the chain; ``replaces`` tells an
    earlier fact's text about the same thing."""

    slot: str
    replaces: Callable[[str], bool]


def _words_of(what: str) -> list[str]:
    """The words naming a thing (a rule's ``what``: words of ``[\\w-]``, spaced), stop
    words left out: "the wifi password" is "wifi password"."""
    return [w for w in what.lower().split() if w not in STOP_WORDS]


def _mentions_all(words: Sequence[str]) -> Callable[[str], bool]:
    patterns = [re.compile(rf"\b{re.escape(w)}", re.I) for w in words]
    return lambda text: all(p.search(text) for p in patterns)


def find_update(sentence: str) -> Update | None:
    """The update ``sentence`` states, if it states one (a user's own sentence)."""
    if sentence.rstrip().endswith("?") or _HYPOTHETICAL.search(sentence):
        return None
    for rule in (_NEW_THING, _CHANGED_THING):
        found = rule.search(sentence)
        if found:
            words = _words_of(found.group("what"))
            if words:
                return Update(" ".join(words), _mentions_all(words))
    if _MOVED.search(sentence):
        return Update("home", lambda text: bool(_HOME_WORDS.search(text)))
    found = _STOPPED.search(sentence)
    if found and _NEGATED.search(found.group()) and not _ANYMORE.search(sentence):
        found = None  # "I don't eat gluten" is a constraint, not a change
    if found:
        what = found.group("what").lower()
        return Update(what, _mentions_all([what]))
    return None


CUE_WORDS = CHANGE_WORDS
"""A message without one of these words states no update: the gate every user message
passes, a set intersection with its words (``autopins.message_words``)."""


def updates_in(text: str, words: frozenset[str] | None = None) -> list[tuple[str, Update]]:
    """Each sentence of a user's message that states an update, with it. ``words``:
    ``autopins.message_words(text)``, if already known."""
    if (message_words(text) if words is None else words).isdisjoint(CUE_WORDS):
        return []  # the common case
    return [
        (sentence, update)
        # apostrophes straight, as the fact rules spell them (``autopins.pin_facts``): the
        # same sentence is then the same pin, whichever rule found it
        for sentence in extract.sentences(text[: extract.MAX_SCAN_CHARS].replace("\u2019", "'"))
        if (update := find_update(sentence)) is not None
    ]


MODEL_MATCH = 0.6
"""Share of an earlier pin's content words the model's "old" side must hold for that
pin to be the one it replaces."""


def model_update(old: str) -> Update:
    """The update a local model named (``facts.model_updates``): it replaces the pins
    most of whose content words its ``old`` side holds; the chain is named by them."""
    haystack = old.casefold()
    slot = " ".join(sorted(set(extract.content_words(old))))[:60]
    return Update(slot, lambda text: extract.grounded(text, haystack, MODEL_MATCH))


def superseded(update: Update, pins: Iterable[Pin], new_key: str) -> list[Pin]:
    """The current pins among ``pins`` that ``update`` makes stop holding (never one
    saying the new fact itself, ``new_key``)."""
    return [
        p for p in pins
        if p.superseded_at is None and pin_key(p.content) != new_key and update.replaces(p.content)
    ]
