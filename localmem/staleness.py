"""Whether a claim states as current what its conversation changed later.

A summary's sentence, a quoted fact or a pin is stale when a later message of the
conversation it comes from made it untrue: it states a status that is over ("ready for
pickup" after "I picked it up"), a dose's frequency that was changed, as in force a thing
said to have ended, a name or a place given again, or a value replaced ("June 21" of a
wedding moved to June 28). :func:`stale` asks each reader in that order and gives the first
reason found (pure; it never raises on any ``str``): :mod:`localmem.statuses` (statuses,
ended things), :mod:`localmem.doses` (frequencies), :mod:`localmem.renames` (names and
places) and :mod:`localmem.revisions` (values) say what each kind of change is.
"""

from __future__ import annotations

from collections.abc import Sequence

# Three modules deep (the readers import only leaves): ``summarizer.support``, ``facts``, ``remember``,
# ``summarizer.fallback`` and ``summarizer.warned`` import it 6 deep, so 9 in all
# (tests/test_architecture.py); ``summarizer.salient`` (7 deep) is given it by its callers.
from .doses import changed_rate
from .renames import replaced_name
from .revisions import replaced_value
from .statuses import ended_in_force, status_over


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
        or replaced_name(claim, texts, whole)
        or replaced_value(claim, texts, whole)
    )
