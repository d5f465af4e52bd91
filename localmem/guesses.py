"""A guess taken back later: what a conversation said only as possible, then denied.

An assistant debugging a date a day early says "It might be daylight saving time shifting
the date." and, two turns on, "Actually, daylight saving isn't involved: the string is parsed
as UTC midnight." A summary, a fact or a checkpoint line stating "the date is shifted by
daylight saving time" states the guess, not what the conversation ended with.

- **A guess** is a sentence that says its claim as only possible: a modal or an adverb of
  possibility ("might", "could be", "may be", "probably", "maybe", "perhaps", "likely") or a
  first person's hedge ("I think", "I suspect", "my first guess is"); not a question.
- **Taken back**: a later sentence, not a question and not itself a guess, that denies
  ("isn't", "not", "never", "no longer", "rule out", "I was wrong about") or takes back (``changes.TAKE_BACK``:
  "actually", "scratch that") what the guess brought: two of the words the claim shares
  with the guess that no text before the guess said: "daylight saving" above. "The train to Varenna isn't expensive" takes back no guess that "you could
  take the train to Varenna" when the train and Varenna were named before it.
- A claim rests on a guess taken back when most of its content words are in the guess's
  sentence and it does not deny them itself ("daylight saving isn't the cause" tells the
  outcome).

:func:`taken_back` says whether a claim rests on such a guess (pure; it never raises on any
``str``); ``staleness.stale`` asks it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Final

from .changes import TAKE_BACK, sentences
from .words import STOP_WORDS, stem, words

_I = re.IGNORECASE

SHARE: Final = 0.6
"""Share of a claim's content words the guess must hold ("most of them"; ``grounding.SUPPORT_SHARE``'s value, not imported: this
reader stays two modules deep under ``staleness``)."""
_BROUGHT: Final = 2
"""Words the guess brought (said by no sentence before it) that the claim and the denial
must both hold: one shared word ("compensation" of "you may be owed compensation" and
"Haven't claimed the compensation yet") denies another thing said of it."""
_HEDGE = re.compile(
    r"\b(?:might|could be|could have|may be|may have|probably|possibly|perhaps|maybe|likely"
    r"|i think|i suspect|i guess|my (?:\w+ )?(?:guess|hunch)|i'd guess|i wonder if)\b",
    _I,
)
"""Words that say a claim as only possible."""
_DENIES = re.compile(
    rf"n't\b|n\u2019t\b|\b(?:not|never|no longer|rule[sd]? out|ruling out|(?:was|were) (?:wrong|mistaken)|{TAKE_BACK})\b",
    _I,
)
"""Words that deny what a sentence names, or take back what was said."""


def _forms(text: str) -> set[str]:
    return {stem(w) for w in words(text) if w not in STOP_WORDS and len(w) > 2}


@functools.lru_cache(maxsize=8)
def _guesses(
    texts: tuple[str, ...],
) -> tuple[tuple[frozenset[str], frozenset[str], tuple[frozenset[str], ...]], ...]:
    """Each guess of ``texts`` (a conversation, in order): its content words, those of them
    no sentence before it said, and the content words of every later denying sentence
    (see the module docstring)."""
    said = [(i, s) for i, text in enumerate(texts) for s in sentences(text)]
    out = []
    before: set[str] = set()
    for k, (i, sentence) in enumerate(said):
        forms = _forms(sentence)
        if _HEDGE.search(sentence) and not sentence.rstrip().endswith("?") and not _DENIES.search(sentence):
            denials = tuple(
                frozenset(_forms(later)) for j, later in said[k + 1:]
                if j > i and _DENIES.search(later) and _HEDGE.search(later) is None
                and not later.rstrip().endswith("?")
            )
            if denials:
                out.append((frozenset(forms), frozenset(forms - before), denials))
        before |= forms
    return tuple(out)


def taken_back(claim: str, texts: Sequence[str]) -> str | None:
    """Why ``claim`` states what ``texts`` (a conversation, in order) said only as a guess
    and a later sentence denied or took back; None when it does not."""
    if _DENIES.search(claim):
        return None  # it states the denial, or denies something itself
    mine = _forms(claim)
    if not mine:
        return None
    for guess, brought, denials in _guesses(tuple(texts)):
        shared = mine & guess
        novel = shared & brought
        if len(shared) < SHARE * len(mine) or len(novel) < _BROUGHT:
            continue
        if any(len(novel & denial) >= _BROUGHT for denial in denials):
            return "states a guess the conversation took back"
    return None
