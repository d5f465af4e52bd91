"""Whether a claim states as current what its conversation changed later.

A summary's sentence, a quoted fact or a pin is stale when a later message of the
conversation it comes from made it untrue: it states a status that is over ("ready for
pickup" after "I picked it up"), a dose's frequency that was changed, as in force a thing
said to have ended, as still on a thing called off, as planned a plan the speaker withdrew, as said a guess taken back, a name or a place given again or denied, or a value replaced ("June 21" of a
wedding moved to June 28). :func:`stale` asks each reader in that order and gives the first
reason found (pure; it never raises on any ``str``): :mod:`localmem.statuses` (statuses,
ended things), :mod:`localmem.doses` (frequencies), :mod:`localmem.renames` (names and
places) and :mod:`localmem.revisions` (values) and :mod:`localmem.guesses` (a guess denied later) say what
each kind of change is.
"""

from __future__ import annotations

from collections.abc import Sequence

# Three modules deep (the readers import only leaves): ``summarizer.support``, ``facts``, ``remember``,
# ``summarizer.fallback`` and ``summarizer.warned`` import it 6 deep, so 9 in all
# (tests/test_architecture.py); ``summarizer.salient`` (7 deep) is given it by its callers.
from .doses import changed_rate
from .guesses import taken_back
from .renames import replaced_name
from .revisions import replaced_value
from .statuses import called_off, ended_in_force, status_over, withdrawn


def stale(claim: str, texts: Sequence[str], whole: str = "") -> str | None:
    """Why ``claim`` states as current what ``texts`` (a conversation, in order) changed
    later, without what changed it, in itself or in the ``whole`` text it is part of (a
    summary that says "prescribed Bactrim for 7 days" and then "switched to nitrofurantoin
    for 5 days" tells the change); None when it does not."""
    texts = tuple(texts)  # the readers are memoized by it
    return (
        status_over(claim, texts)
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
