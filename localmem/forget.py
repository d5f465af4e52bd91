"""Forgetting: a deletion takes the text out of the whole file, not only out of its table.

:class:`Forgetting` holds ``delete_message``, ``clear_messages`` (and
``clear_conversation``), ``delete_session`` and ``clear_checkpoints``, and the
machinery ``pop_item``, ``unpin`` and ``prune`` share (:meth:`Forgetting.forgetting`). Deleting a message (one, a popped item, a
session's whole conversation) reaches everything that may quote it, in the
same transaction:

- **automatic pins** taken from it (``kind="auto"``, its ``source_message_id``,
  or one of their ``pin_sources``) are deleted and tombstoned (a model does not
  pin them again from older messages); a manual pin is the user's own words and
  stays (its source becomes None); the pins its update ended are current again
  (not a fact the user removed since, nor one a current pin holds meanwhile);
- **the level-1 summary** over it: the session's newest one is deleted, and
  its messages, uncovered again, go into the next summary (the model's, when
  it is there); an older one (which no later summary would replace) is
  rewritten deterministically from the messages left in its range (the
  keyword summary, ``source="fallback"``, and the rules' facts), its range
  narrowed to them, or deleted with none left;
- **the rollups** (level 2) from there on all quote it, each one carrying the
  one before: they are replaced by one deterministic rollup of the level-1
  summaries they rolled (after the newest rollup that is left);
- **checkpoints** taken after it (carried forward, any may quote it) are
  deleted; if there were any, the rules build a new one in their place from
  the newest checkpoint left, the session state and the messages after it;
- **the summary cache** is emptied (its keys hash whole spans: any entry may
  hold the text);
- **the full-text indexes** that held a deleted or rewritten row are merged
  (FTS5 'optimize'): a 'delete' only marks an entry until its segment is merged;
- **the file's free pages**: SQLite overwrites deleted content with zeros
  (``PRAGMA secure_delete``, set on every connection the store opens), and
  after the commit the write-ahead log is copied into the file and truncated
  (``wal_checkpoint(TRUNCATE)``), so the old pages do not live on in ``-wal``; while
  Litestream replicates the file, its checkpoints do that (``_empty_log``).

Every forget raises the session's forget mark (every session's, when sessions
go or for the user's facts) in its transaction: a model's output computed from
what it read before is discarded when it would be stored (``db.provenance``).
Deleting a session or pruning old ones does the same for everything the
session held, including automatic pins taken from its messages wherever they
are kept. The store's vectors of a message go with it (a trigger).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from . import db
from . import extract as rules
from .args import check_id, check_int
from .checkpoint import RULES
from .db import Forgotten
from .errors import NotFound, SessionNotFound
from .facts import facts_row, rule_facts
from .models import Summary
from .outcome import FALLBACK
from .scoring import SUMMARY_IMPORTANCE
from .sources import Span, facts_sources, rows
from .summarizer.fallback import keyword_summary

if TYPE_CHECKING:  # what it is given (the handle, capabilities): for the type checker only
    from .checkpoints import Checkpoints
    from .handle import Handle

logger = logging.getLogger("localmem")


class Forgetting:
    """Deleting, so that nothing of what is deleted stays in the file; the checkpoints
    a deletion drops are replaced through ``checkpoints``."""

    def __init__(self, handle: Handle, checkpoints: Checkpoints) -> None:
        self._db = handle
        self._checkpoints = checkpoints

    def delete_session(self, session_id: str) -> None:
        """Delete a session and everything that belongs to it, leaving no trace of
        its text in the file (see the module's docstring). Raises :class:`SessionNotFound`."""
        check_id(session_id)
        with self.forgetting(session_id) as gone:
            if not self.forget_session(gone, session_id):
                raise SessionNotFound(session_id)

    def clear_messages(self, session_id: str) -> int:
        """Delete every message of a session, their items and its summaries; return how many.

        One transaction. The session itself, its manual pins (a pin's
        ``source_message_id`` becomes None), goals, subtasks, tool executions
        and tracked files stay; the summaries' facts and the automatic pins
        taken from the messages go with them, and the checkpoints are
        replaced by one the rules make from the session state alone.
        Raises :class:`SessionNotFound`.
        """
        check_id(session_id)
        with self.forgetting(session_id) as gone:
            self._db.require_session(session_id)
            return self.forget_messages(gone, session_id, None)

    def clear_conversation(self, session_id: str) -> int:
        """Drop the session's messages and summaries; keep its goals, subtasks,
        tool executions, files and manual pins. Returns the messages dropped.

        One transaction. The conversation's text leaves the file
        (``clear_messages``, ``localmem.forget``): the automatic pins taken
        from it go, and the checkpoints are replaced by one the rules make
        from the state alone. The next context shows the state and that
        checkpoint with no conversation. Raises :class:`SessionNotFound`.
        """
        return self.clear_messages(session_id)

    def clear_checkpoints(self, session_id: str) -> int:
        """Delete the session's checkpoints; return how many. Their text leaves the
        file, as a forget's does (``localmem.forget``). Raises :class:`SessionNotFound`."""
        check_id(session_id)
        with self.forgetting(session_id) as gone:
            self._db.require_session(session_id)
            cleared = db.clear_checkpoints(gone.conn, session_id)
            gone.deleted = cleared > 0
            return cleared

    def delete_message(self, message_id: int) -> None:
        """Delete one message (and its item), and its text wherever it was quoted.

        One transaction. The summary over it is deleted if it is the
        session's newest (its messages, uncovered again, go into the next
        summary), else rewritten by the rules from the messages left in its
        range; the rollups and checkpoints that follow are rebuilt by the
        rules, and automatic pins taken from it are deleted (see the module's
        docstring); a manual pin it was the source of stays (its
        ``source_message_id`` becomes None). Raises :class:`NotFound` if
        there is no message with this id; nothing is written then.
        """
        check_int("message_id", message_id)
        with self._db.locked() as conn:
            session_id = db.message_session(conn, message_id)
            if session_id is None:
                raise NotFound("message", message_id)
            with self.forgetting(session_id) as gone:
                self.forget_messages(gone, session_id, [message_id])

    # --- the machinery ---------------------------------------------------------------

    @contextlib.contextmanager
    def forgetting(self, session_id: str | None = None) -> Iterator[Forgotten]:
        """``Handle.write`` for a deletion: then, in the same transaction,
        the full-text indexes that held what went are merged and (for messages)
        the summary cache emptied; after the commit the log is emptied."""
        with self._db.write(session_id) as conn:
            gone = Forgotten(conn)
            yield gone
            if "messages" in gone.lowest or "summaries" in gone.lowest:
                db.clear_summary_cache(conn)
            if gone.deleted:
                self._final(gone, session_id)
            db.merge_indexes(gone)
            if gone.deleted:  # else (an import that replaced nothing, a new importance) every memo holds
                self._drop_memos(session_id, gone.users)
        if gone.deleted:
            self._empty_log()

    def _drop_memos(self, session_id: str | None, users: bool) -> None:
        if session_id is None or users:  # the user's facts: every session's contexts
            self._db.cache.clear()
            self._db.memo.clear()
        else:
            self._db.memo.forget(session_id)  # its state rows hold the checkpoint's lines
            self._db.memo.deleted()  # rows gone: no recall may find them there

    @staticmethod
    def _final(gone: Forgotten, session_id: str | None) -> None:
        """Make the forget final, in its transaction: raise the forget mark a model's
        output is checked against before it is stored (the session's; every
        session's when sessions went or the user's facts were reached), and
        tombstone the facts removed, so that no model pins them again from what was
        said before (``db.provenance``): every fact unpinned, and every fact whose pins
        went with the forgotten messages unless a message left still says it
        (``db.still_said``: forgetting a message is not removing the fact)."""
        conn = gone.conn
        every = session_id is None or not db.session_exists(conn, session_id)
        if every and session_id is not None:
            db.drop_session_marks(conn, session_id)
        db.raise_mark(conn, db.EVERY_SESSION if every else session_id)
        removed = gone.removed + [
            (scope, key) for scope, key in gone.with_messages if not db.still_said(conn, scope, key)
        ]
        db.bury(conn, [
            (scope, key) for scope, key in removed
            if scope is None or scope == session_id and not every
        ])

    def _empty_log(self) -> None:
        """Copy the write-ahead log into the file and truncate it.

        At once when no other connection reads. Litestream (a file it replicates
        has its ``_litestream_seq`` table) holds a read transaction for as long as
        it runs, to keep the log until it has copied it: waiting for it would only
        wait out ``busy_timeout``, so the log gets a PASSIVE checkpoint instead,
        and is left to Litestream's checkpoints (``localmem replicate``); a
        TRUNCATE outside its reads would only make it take a new snapshot. Any
        other reader (another localmem process) is waited for, up to
        ``busy_timeout``, as before.
        """
        if self._db.path == db.MEMORY:
            return
        with self._db.locked() as conn:
            with db.no_waiting(conn, self._db.config.busy_timeout):
                if db.checkpoint_truncate(conn):
                    return
            if db.replicated(conn):
                db.checkpoint_passive(conn)
                logger.info(
                    "%s: Litestream is replicating it, so its write-ahead log still holds the "
                    "deleted text until later writes overwrite it or, once Litestream stops, "
                    "the next forget empties it (the replica keeps it for its retention)",
                    self._db.path,
                )
                return
            if not db.checkpoint_truncate(conn):
                logger.warning(
                    "%s: another connection is reading, so the write-ahead log still holds "
                    "deleted text; it is emptied when every connection closes "
                    "(or by `localmem vacuum`)",
                    self._db.path,
                )

    def forget_session(self, gone: Forgotten, session_id: str) -> bool:
        """Delete a session (in a ``_forgetting`` transaction); False if there is none."""
        conn = gone.conn
        gone.pins_gone(db.delete_session_sourced_auto_pins(conn, session_id))
        gone.users |= db.restore_session_ended(conn, session_id) > 0  # after: no pin going holds them
        return self._delete_rows(gone, session_id)

    def forget_replaced(self, gone: Forgotten, session_id: str) -> None:
        """Delete a session an import replaces (in a ``forgetting`` transaction), as
        ``delete_session`` does but for what rests on its messages outside it, which the
        import moved or took first (``Transfer``): its rows, and every trace of them
        the transaction's end reaches (the indexes merged, the summary cache emptied,
        the forget mark raised: a model's output computed from the old text while the
        import ran is discarded when it would be stored)."""
        self._delete_rows(gone, session_id)

    def _delete_rows(self, gone: Forgotten, session_id: str) -> bool:
        """Delete a session's rows, each table's lowest id touched for the indexes' merge;
        False if there is none."""
        lowest = db.session_lowest_ids(gone.conn, session_id)
        self._db.memo.forget(session_id)
        if not db.delete_session(gone.conn, session_id):
            return False
        gone.deleted = True  # its title, at least
        for table, low in lowest.items():
            gone.touch(table, [low])
        return True

    def forget_messages(
        self, gone: Forgotten, session_id: str, message_ids: Sequence[int] | None
    ) -> int:
        """Delete messages of one session (all of them for None) and what quotes
        them, in a ``_forgetting`` transaction; return how many were deleted."""
        conn = gone.conn
        # the pins taken from them go first: one said again there no longer holds the fact
        # when what they ended is made current again
        if message_ids is None:
            gone.pins_gone(db.delete_session_sourced_auto_pins(conn, session_id))
            gone.users |= db.restore_session_ended(conn, session_id) > 0
            lowest = db.session_lowest_ids(conn, session_id)
            count = db.clear_messages(conn, session_id)  # and every summary, facts and all
            for table in ("messages", "summaries", "summary_facts"):
                gone.touch(table, [lowest[table]] if table in lowest else [])
            first = 0
        else:
            gone.pins_gone(db.delete_sourced_auto_pins(conn, message_ids))
            gone.users |= db.restore_ended(conn, message_ids) > 0
            covering = db.covering_summaries(conn, session_id, message_ids)
            newest = db.last_covered(conn, session_id)
            count = sum(db.delete_message(conn, mid) for mid in message_ids)
            gone.touch("messages", message_ids)
            for summary in covering:
                self._rewrite_summary(gone, session_id, summary, drop=summary.end_message_id == newest)
            first = min(message_ids)
        self._roll_again(gone, session_id, first)
        if db.delete_checkpoints_from(conn, session_id, first):
            gone.deleted = True
            self._checkpoints.rules_checkpoint(conn, session_id)
        return count

    def _rewrite_summary(
        self, gone: Forgotten, session_id: str, summary: Summary, *, drop: bool
    ) -> None:
        """Write a level-1 summary again, deterministically, from the messages left
        in its range (narrowed to them), with the rules' facts; delete it if none is
        left, or if ``drop`` (the session's newest: its messages become the
        uncovered tail, which the next summary covers)."""
        conn = gone.conn
        gone.touch("summaries", [summary.id])
        gone.touch("summary_facts", [summary.id])
        left = db.messages_between(
            conn, session_id, summary.start_message_id, summary.end_message_id
        )
        if drop or not left:
            db.drop_summary(conn, summary.id)
            return
        pairs = [(m.role, m.text) for m in left]
        text = keyword_summary(pairs)
        db.rewrite_summary(
            conn, summary.id, text, left[0].id, left[-1].id, len(left), FALLBACK,
            self._db.tokenizer.count(text),
        )
        found = rule_facts(rules.extract(pairs), [text for _, text in pairs])
        data, facts = facts_row(found)
        if not db.rewrite_facts(conn, summary.id, data, facts, RULES):
            return  # stored without facts (an import may bring such a summary)
        db.drop_fact_sources(conn, summary.id)  # the lines are new: so are their sources
        db.add_fact_sources(conn, rows(summary.id, facts_sources(found, Span(
            [m.id for m in left], [m.text for m in left]
        ))))

    def _roll_again(self, gone: Forgotten, session_id: str, first: int) -> None:
        """Replace the rollups ending at or after message ``first`` (each quotes the
        one before) by one deterministic rollup of the level-1 summaries they rolled."""
        conn = gone.conn
        stale = db.rollups_from(conn, session_id, first)
        if not stale:
            return
        for rollup in stale:
            db.drop_summary(conn, rollup.id)
        gone.touch("summaries", [r.id for r in stale])
        kept = db.recent_summaries(conn, session_id, 1, level=2)
        after = kept[0].end_message_id if kept else 0
        parts = [
            s for s in db.summaries_after(conn, session_id, 1, after)
            if s.end_message_id <= stale[-1].end_message_id
        ]
        texts = [kept[0].text] if kept else []
        texts += [s.text for s in parts]
        if not parts or len(texts) < 2:
            return  # one summary alone is its own rollup
        # As the summarizer's own fallback rolls summaries: each text a turn.
        text = keyword_summary([("user", t) for t in texts])
        db.insert_summary(conn, db.SummaryRow(
            session_id, text, parts[0].start_message_id, parts[-1].end_message_id,
            sum(s.message_count for s in parts), 2, FALLBACK, SUMMARY_IMPORTANCE,
            self._db.tokenizer.count(text), self._db.now(),
        ))
