"""Progressive compression by age: ``store.maintain()`` (origin 000, phase 4).

A session the user has not touched for a while needs less detail in its next
context, and its history can be folded tighter. ``maintain`` looks at every
session's last activity (``Session.updated_at``: the later of its record and
its newest message) and compacts the idle ones at one of three levels, by
``MemoryConfig.compaction_ages`` (1, 7 and 30 days by default):

1. **light**: every due range summarized (``summary_threshold`` messages at
   a time, as ``summarize`` does); the context's state shows fewer tool
   calls and files (``STATE_LIMITS[1]``);
2. **heavy**: also the uncovered tail, all but the newest
   ``min_recent_messages``; every level-1 summary but the newest rolled into
   the level-2 rollup; fewer tool calls, files and archives still;
3. **archival**: every level-1 summary rolled, so the context's history is
   one rollup reaching back to the first message; the state keeps the
   active goal, its open subtasks, a count of the files and the newest
   archive.

Nothing is deleted: messages, tool runs, files and summaries stay in their
tables; maintenance only adds summaries and records the session's level
(table ``session_compaction``) with the newest message it saw. The level
holds while no newer message exists, so a session the user picks up again
is shown in full detail at once, with nothing rewritten, and is compacted
again once it falls idle again. The origin measured age from a session's
creation, which would compress a long session the user is still working
in; idle time does not.

Idempotent: a session already at its level with no new message is skipped,
so running ``maintain`` twice in a row does nothing the second time. Model
failures never raise (summaries fall back as everywhere else). Last, the
deterministic summaries written while no model answered are redone by the
model if one answers now (``store.resummarize``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from . import db
from .clock import parse_time
from .errors import SessionNotFound
from .reports import MaintenanceReport, SessionCompaction

if TYPE_CHECKING:  # what it is given (the handle, capabilities): for the type checker only
    from .handle import Handle
    from .resummarize import Resummarizer
    from .summaries import Summaries

logger = logging.getLogger("localmem")

LEVEL_NAMES = {1: "light", 2: "heavy", 3: "archival"}
ROLLUP_LEAVES = {2: 1, 3: 0}
"""Level-1 summaries a level leaves out of the rollup (level 1 rolls as usual)."""
SECONDS_PER_DAY = 86400.0


def level_for(idle_days: float, ages: Sequence[float]) -> int:
    """The compaction level of a session idle for ``idle_days`` (0: none)."""
    return sum(idle_days >= age for age in ages)


def idle_days(last_activity: str, now: datetime) -> float | None:
    """Days from an ISO-8601 timestamp (UTC unless it says otherwise) to ``now``,
    never negative; None for text that is not a timestamp (a row written by
    another program), whose session is then left alone."""
    then = parse_time(last_activity)
    if then is None:
        return None
    return max((now - then).total_seconds() / SECONDS_PER_DAY, 0.0)


class Maintenance:
    """``maintain``: the store's compaction of idle sessions, through ``summaries``;
    then ``resummarizer`` has the model redo the deterministic summaries."""

    def __init__(self, handle: Handle, summaries: Summaries, resummarizer: Resummarizer) -> None:
        self._db = handle
        self._summaries = summaries
        self._resummarizer = resummarizer

    def maintain(self, *, on_progress: Callable[[int, int], None] | None = None) -> MaintenanceReport:
        """Compact every session idle long enough, more tightly the longer it has been idle.

        See :mod:`localmem.maintain` for the levels. Writes summaries (one
        transaction each) and each compacted session's level; deletes
        nothing; idempotent. Summaries use the local model when it is there
        and the deterministic fallback otherwise; nothing here raises for a
        model's failure. Then has the model redo the deterministic summaries
        (``resummarize``), if one answers. Last, merges the search indexes into
        one segment each (FTS5 'optimize', ``db.optimize_indexes``): written at
        commit, an index gathers a dozen segments, and every word a query reads
        is looked up in each (a query-aware context reads its words in ~40% less
        time from one); about a second at 100,000 messages, the write lock held,
        milliseconds when nothing was written since. ``on_progress(done, total)``
        is called after each session looked at. Returns what it did.
        """
        now = self._db.clock()
        with self._db.locked() as conn:
            candidates = db.compaction_candidates(conn)
        compacted = []
        for done, (session_id, activity, recorded, through, newest) in enumerate(candidates, 1):
            if on_progress is not None and done > 1:
                on_progress(done - 1, len(candidates))
            idle = idle_days(activity, now)
            if idle is None:
                logger.warning("session %s: last activity %r is not a timestamp", session_id, activity)
                continue
            level = level_for(idle, self._db.config.compaction_ages)
            current = recorded if recorded is not None and through >= newest else 0
            if level <= current:
                continue
            done = self._compact(session_id, level, current, idle, newest)
            if done is not None:
                compacted.append(done)
        if on_progress is not None and candidates:
            on_progress(len(candidates), len(candidates))
        resummarized = self._resummarizer.resummarize()
        with self._db.write() as conn:
            db.optimize_indexes(conn)
        return MaintenanceReport(
            checked=len(candidates), compacted=compacted, resummarized=resummarized
        )

    def _compact(
        self, session_id: str, level: int, previous: int, idle: float, newest: int
    ) -> SessionCompaction | None:
        """Compact one session at ``level``; None if it was deleted meanwhile."""
        try:
            before = self._summaries.get_summaries(session_id)
            while self._summaries.summarize(session_id) is not None:
                pass
            if level >= 2:
                session, span, mark = self._summaries.due(session_id)
                tail = span[: max(len(span) - self._db.config.min_recent_messages, 0)]
                if tail:
                    self._summaries.summarize_span(session, tail, mark)
                self._summaries.rollup(session, leave=ROLLUP_LEAVES[level])
            after = self._summaries.get_summaries(session_id)
        except SessionNotFound:
            return None
        with self._db.write(session_id) as conn:
            if not db.session_exists(conn, session_id):
                return None
            db.record_compaction(conn, session_id, level, newest, self._db.now())
            self._db.memo.forget(session_id)  # its level and state limits change

        def written(level: int) -> int:
            return sum(s.level == level for s in after) - sum(s.level == level for s in before)

        return SessionCompaction(
            session_id=session_id,
            idle_days=round(idle, 2),
            level=level,
            previous_level=previous,
            summaries=written(1),
            rollups=written(2),
            through_message_id=newest,
        )
