"""A status a later message says is over, and a thing said to have ended stated as in force.

- **A status that waits for an act** ("Status: ready for pickup", "awaiting approval", "out
  for delivery") is over when a later statement, not negated, says the act done ("I picked
  up the carprofen", "approved") of what the status's text names, or of "it".
- **A thing that has ended** ("Basic 5yr/60,000mi: EXPIRED", "the basic warranty has
  already run out", "lapsed", "was cancelled"; said of the content words before it in its
  clause, the last three; not negated, not asked): a claim holding all those words with a
  word stating it in force ("covers", "valid", "active", "still") and no ending word is stale.

:func:`status_over` and :func:`ended_in_force` say whether a claim states such a status or
thing as current (pure; neither raises on any ``str``); ``staleness.stale`` asks them.
"""

from __future__ import annotations

import functools
import re

from .changes import sentences
from .words import content_forms, content_forms_in_order, stem


def status_over(claim: str, texts: tuple[str, ...]) -> str | None:
    """Why ``claim`` states a status that waits for an act ("ready for pickup") that a later
    message of ``texts`` (a conversation, in order) says done; None when it does not."""
    if _AWAITS.search(claim) is not None and _done_since(claim, texts):
        return "states a status a later message says is over"
    return None


def ended_in_force(claim: str, texts: tuple[str, ...]) -> str | None:
    """Why ``claim`` states as in force ("covers", "valid", "still"), with no ending word of
    its own, a thing ``texts`` say has ended (all the words it is said of); None when it
    does not."""
    if _IN_FORCE.search(claim) is not None and _ENDED.search(claim) is None:
        forms = content_forms(claim)
        if any(thing <= forms for thing in _ended_things(texts)):
            return "states as in force what the conversation says has ended"
    return None


_AWAITS = re.compile(
    r"\b(?:ready (?:for|to)|awaiting|waiting (?:for|to)|pending|due for|out for|available for)\s+"
    r"(?:(?:your|my|the|his|her|their)\s+)?(?P<act>[a-z]+(?:\s+(?:up|off|out)\b)?)",
    re.IGNORECASE,
)
"""A status that waits for an act ("Status: ready for pickup", "awaiting approval", "out
for delivery"): its act."""
_DONE = re.compile(r"\b(?P<verb>[a-z]{3,}ed)(?:\s+(?:it|them)?\s*(?P<particle>up|off|out)\b)?", re.IGNORECASE)
"""A verb in the past ("picked up", "picked it up", "approved", "delivered")."""
_NEGATION = re.compile(r"\b(?:not|never|no|yet|n't)\b|n't\b", re.IGNORECASE)
_ENDED = re.compile(
    r"\b(?:expired|(?:has|have) (?:already )?run out|ran out|lapsed"
    r"|(?:has|have) ended|no longer|(?:is|are|was|were) (?:over|void|cancell?ed|terminated|expired|inactive)|inactive)\b",
    re.IGNORECASE,
)
"""Words saying a thing's term or status has ended ("EXPIRED", "has already run out",
"lapsed", "is no longer", "was cancelled"); not one that will ("expires in 2030", "runs out
in June")."""
_IN_FORCE = re.compile(
    r"\b(?:cover(?:s|ed|ing|age)?|valid|active|in (?:force|effect)|applies|apply|good (?:until|through|for)|still)\b",
    re.IGNORECASE,
)
"""Words stating a thing in force ("the warranty covers ...", "is valid", "still")."""


_HEAD_SPLIT = re.compile(r"[.;!?]|(?<!\d),(?!\d)|\s[-\u2013\u2014]\s|\b(?:and|but|so|because)\b", re.IGNORECASE)
"""Where the words an ending word is said of start: its clause."""


@functools.lru_cache(maxsize=8)
def _ended_things(texts: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """What ``texts`` say has ended: the content words before an ending word in its clause
    (at most three: "Basic 5yr/60,000mi: EXPIRED" is the basic one's, "the basic warranty has
    already run out" the basic warranty's), in a statement not negated nor asked."""
    found = []
    for text in texts:
        for sentence in sentences(text):
            if sentence.rstrip().endswith("?"):
                continue
            for m in _ENDED.finditer(sentence):
                head = _HEAD_SPLIT.split(sentence[: m.start()])[-1]
                if _NEGATION.search(head):
                    continue  # "the warranty hasn't expired"
                names = content_forms_in_order(head)
                if names:
                    found.append(frozenset(names[-3:]))
    return tuple(dict.fromkeys(found))


def _done_since(claim: str, texts: tuple[str, ...]) -> bool:
    """Whether a status ``claim`` states, one that waits for an act ("ready for pickup"),
    is over: a text after the one saying it (a statement, not negated) says the act done
    ("I picked up the carprofen"), of what that text names (a word of it shared) or of
    "it"; not when the whole ``texts`` never say the status."""
    claimed = [_act(m) for m in _AWAITS.finditer(claim)]
    for i, text in enumerate(texts):
        said = [_act(m) for m in _AWAITS.finditer(text)]
        acts = [a for a in said if a in claimed]
        if not acts:
            continue
        named = content_forms(text)
        for later in texts[i + 1:]:
            for sentence in sentences(later):
                if sentence.rstrip().endswith("?") or _NEGATION.search(sentence):
                    continue
                for m in _DONE.finditer(sentence):
                    verb = stem(m.group("verb").casefold()) + (m.group("particle") or "").casefold()
                    if len(verb) >= 4 and any(a.startswith(verb) for a in acts) and (
                        content_forms(sentence) & named or re.search(r"\b(?:it|them)\b", sentence, re.IGNORECASE)
                    ):
                        return True
    return False


def _act(match: re.Match[str]) -> str:
    """An awaited act as one stem ("pickup", "pick up": "pickup"; "approval": "approval")."""
    return stem("".join(match.group("act").casefold().split()))
