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

A thing stopped ("OK, no more aspirin", "finished the prednisone") also ends what a
local model says of it later, at summary time: :func:`ended` tells a model's fact or pin
that states it as current.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from . import extract
from .autopins import message_words, pin_key
from .models import Pin
from .statements import CHANGE_WORDS
from .words import STOP_WORDS, is_drug

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
# "OK, no more aspirin", "I stopped the aspirin", "we finished the antibiotics", "done
# with the inhaler": a thing stopped, said without a verb of taking. "No more" starts its
# clause ("there's no more milk" says the milk ran out; "no more than" is a limit).
# "Stopped", "finished" and "done with" end many things that are no fact ("my laptop
# stopped working", "I stopped the car", "finished my first 5k"): they count for a drug only.
_DETERMINER = r"(?:the|my|his|her|their|our|its|your)\s+"
_ENDED = re.compile(
    r"(?:(?:^|[,;:.!(]|\b(?:ok|okay|so|then|and|but))\s*no\s+more)"
    rf"\s+(?:{_DETERMINER})?(?P<what>[a-z][\w-]+)"
    rf"|\b(?:stopped|quit|finished|ended|done\s+with)\s+(?:{_DETERMINER})?(?P<thing>[a-z][\w-]+)",
    re.I,
)
# "He was on prednisone for an ear infection, finished it last week": the drug stopped
# named earlier in the sentence, by what one is on, takes or is given.
_ENDED_IT = re.compile(
    r"\b(?:on|taking|takes|took|gets|got|giving|given|using|uses)\s+(?:(?:the|my|his|her|their|our)\s+)?"
    r"(?P<what>[a-z][\w-]+)\b[^.;!?]*?\b(?:finished|stopped|quit|ended|done\s+with|came\s+off)"
    r"\s+(?:it|them|that)\b",
    re.I,
)
_ENDED_CUES = ("no more", "stopped", "quit", "finished", "ended", "done with", "came off")
"""What :data:`_ENDED` or :data:`_ENDED_IT` needs in a sentence to match, as text."""
_NOT_A_THING = frozenset({"than", "it", "them", "that", "this", "those", "these", "so", "now", "up", "today"})
_NEGATED = re.compile(r"\b(?:don't|do\s+not|doesn't|does\s+not)\b", re.I)
_ANYMORE = re.compile(r"\bany\s?more\b", re.I)


@dataclass(frozen=True, slots=True)
class Update:
    """What a new fact updates: ``slot`` names the chain; ``replaces`` tells an
    earlier fact's text about the same thing."""

    slot: str
    replaces: Callable[[str], bool]
    ends: bool = False
    """The update says the thing stopped (a medicine, a routine), with no new value."""


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
        return Update(what, _mentions_all([what]), ends=True)
    what = _ended(sentence)
    return Update(what, _mentions_all([what]), ends=True) if what else None


def _ended(sentence: str) -> str | None:
    """The thing ``sentence`` says stopped without a verb of taking (:data:`_ENDED_IT`,
    :data:`_ENDED`), case-folded: any thing after a clause's "no more", a drug otherwise."""
    low = sentence.lower()
    if not any(cue in low for cue in _ENDED_CUES):
        return None  # the common case, without running the patterns
    found = _ENDED_IT.search(sentence) or _ENDED.search(sentence)
    if found is None:
        return None
    what = (found.group("what") or found.group("thing")).lower()
    if found.re is not _ENDED or found.group("thing"):
        return what if is_drug(what) else None
    return None if what in STOP_WORDS or what in _NOT_A_THING else what


CUE_WORDS = CHANGE_WORDS | frozenset({"finished", "ended", "done"})
"""A message without one of these words (or both of :data:`NO_MORE`) states no update: the
gate every user message passes, a set intersection with its words (``autopins.message_words``)."""
NO_MORE = frozenset({"no", "more"})
""""OK, no more aspirin": "more" alone is too common a word to open the gate."""


def updates_in(text: str, words: frozenset[str] | None = None) -> list[tuple[str, Update]]:
    """Each sentence of a user's message that states an update, with it. ``words``:
    ``autopins.message_words(text)``, if already known."""
    words = message_words(text) if words is None else words
    if words.isdisjoint(CUE_WORDS) and not NO_MORE <= words:
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
    """The update a local model named (``remember.model_updates``): it replaces the pins
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


# "I was on it", "used to take", "not", "no longer": a fact that tells the thing is over
# (or never held) is no claim that it goes on.
_NOT_CURRENT = re.compile(
    r"\b(?:was|were|used\s+to|had\s+been|no\s+longer|not|never|no\s+more|until)\b|n't\b"
    r"|\b(?:finished|stopped|quit|ended|done\s+with|off)\b",
    re.I,
)
# "he's back on aspirin", "we restarted the drops": the thing goes on again.
_RESUMED = re.compile(r"\b(?:back\s+on|again|restart\w*|resum\w*|start\w*\s+(?:taking|giving|using))\b", re.I)


def stops(texts: Sequence[str]) -> list[tuple[Update | None, str]]:
    """Each sentence of ``texts`` (the user's messages, in order) with the stop it states
    (:func:`find_update`: "OK, no more aspirin"), or None: read once for a span, then
    asked of each of a model's facts (:func:`ended`)."""
    out: list[tuple[Update | None, str]] = []
    for sentence in (s for text in texts for s in extract.sentences(text.replace("\u2019", "'"))):
        update = find_update(sentence)
        out.append((update if update is not None and update.ends else None, sentence))
    return out


def ended(item: str, texts: Sequence[str]) -> bool:
    """Whether ``item`` (a model's fact or pin, read as current) names a thing, a medicine
    or a routine, that one of ``texts`` (the user's messages, in order) says stopped
    (:func:`find_update`: "OK, no more aspirin", "I no longer take lisinopril") and no
    later one of them says goes on again; never when ``item`` itself tells it is over
    ("Biscuit finished prednisone last week"). Pure; never raises on any ``str``."""
    return ended_in(item, stops(texts))


def ended_in(item: str, read: Sequence[tuple[Update | None, str]]) -> bool:
    """:func:`ended`, with the span's :func:`stops` already read."""
    if _NOT_CURRENT.search(item):
        return False
    stopped: str | None = None
    for update, sentence in read:
        if update is not None and update.replaces(item):
            stopped = update.slot
        elif stopped is not None and _RESUMED.search(sentence) and _mentions_all([stopped])(sentence):
            stopped = None
    return stopped is not None
