"""Whether a claim states as current what its conversation changed later.

A summary's sentence, a quoted fact or a pin is stale when a later message of the
conversation it comes from made it untrue: it states a status that is over ("ready for
pickup" after "I picked it up"), a run's outcome a later run replaced ("1 failed" after
"46 passed"), a dose's frequency that was changed, as in force a thing
said to have ended, as still on a thing called off, as planned a plan the speaker withdrew, as said a guess taken back, a name or a place given again or denied, or a value replaced ("June 21" of a
wedding moved to June 28). :func:`stale` asks each reader in that order and gives the first
reason found (pure; it never raises on any ``str``): :mod:`localmem.statuses` (statuses,
ended things), :mod:`localmem.doses` (frequencies), :mod:`localmem.renames` (names and
places) and :mod:`localmem.revisions` (values) and :mod:`localmem.guesses` (a guess denied later) say what
each kind of change is. :func:`still_holds` keeps of a stale claim the clauses that still
hold ("Ollie has asthma." of "Ollie sleeps there and he has asthma." once Ollie moved rooms).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Three modules deep (the readers import only leaves): ``summarizer.support``, ``facts``, ``remember``,
# ``summarizer.fallback`` and ``summarizer.warned`` import it 6 deep, so 9 in all
# (tests/test_architecture.py); ``summarizer.salient`` (7 deep) is given it by its callers.
from .doses import changed_rate
from .guesses import taken_back
from .renames import replaced_name
from .revisions import replaced_value
from .statuses import called_off, ended_in_force, outcome_replaced, status_over, withdrawn
from .words import STOP_WORDS


def stale(claim: str, texts: Sequence[str], whole: str = "") -> str | None:
    """Why ``claim`` states as current what ``texts`` (a conversation, in order) changed
    later, without what changed it, in itself or in the ``whole`` text it is part of (a
    summary that says "prescribed Bactrim for 7 days" and then "switched to nitrofurantoin
    for 5 days" tells the change); None when it does not."""
    texts = tuple(texts)  # the readers are memoized by it
    return (
        status_over(claim, texts)
        or outcome_replaced(claim, texts)
        or changed_rate(claim, texts)
        or ended_in_force(claim, texts)
        or called_off(claim, texts)
        or withdrawn(claim, texts)
        or replaced_name(claim, texts, whole)
        or replaced_value(claim, texts, whole)
        or taken_back(claim, texts)
    )


def ended_at(claim: str, texts: Sequence[str]) -> int | None:
    """The index of the text of ``texts`` (a conversation, in order) from which ``claim`` is
    stale (:func:`stale` over the texts up to it, and not over those before): the message
    that changed it, whose forgetting makes the claim current again; None when the claim is
    not stale. Only a stale claim costs more than one :func:`stale`."""
    texts = tuple(texts)
    if stale(claim, texts) is None:
        return None
    return next(k for k in range(1, len(texts) + 1) if stale(claim, texts[:k]) is not None) - 1


_JOINS = re.compile(r"\s*(?:[,;]\s*)?\b(?:and|but)\s+(?=(?:he|she|they|it|i|we)\b|[A-Z][a-z]+\s)|\s*;\s*")
"""Where a claim joins clauses with a subject of their own ("Ollie sleeps there and he has
asthma"; "I take it daily; it helps"): not "allergic to cats and dogs"."""
_PRONOUN_SUBJECT = re.compile(r"^(?:(?P<person>he|she)|it|they)\b", re.IGNORECASE)
_OPENING_NAME = re.compile(r"^[A-Z][a-z]+\b")
_END = re.compile(r"[.!?]+$")


def still_holds(claim: str, texts: Sequence[str]) -> str | None:
    """What of ``claim``, stale as a whole (:func:`stale` over ``texts``), still holds: its
    clauses with a subject of their own that are not stale, joined, with "he" or "she"
    opening the first of them replaced by the name opening the claim ("Ollie has asthma." of
    "Ollie sleeps there and he has asthma." once "he's moved his mattress into the living
    room"). None when no clause is stale alone or none holds, or when what holds would
    stand on a pronoun naming no one."""
    texts = tuple(texts)
    body = _END.sub("", claim.strip())
    clauses = [c.strip() for c in _JOINS.split(body) if c.strip()]
    if len(clauses) < 2:
        return None
    kept = [c for c in clauses if stale(c, texts) is None]
    if not kept or len(kept) == len(clauses):
        return None
    first = kept[0]
    pronoun = _PRONOUN_SUBJECT.match(first)
    if pronoun is not None:
        name = _OPENING_NAME.match(clauses[0])
        if pronoun.group("person") is None or name is None or name.group().casefold() in STOP_WORDS:
            return None  # "It leaks.": what "it" stands for is in the clause left out
        first = name.group() + first[pronoun.end():]
    text = " and ".join([first, *kept[1:]])
    end = _END.search(claim.strip())
    return text[:1].upper() + text[1:] + (end.group() if end else ".")
