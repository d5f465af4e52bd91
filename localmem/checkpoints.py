"""The store's checkpoints: taken before each compaction and on request, kept, listed.

What a checkpoint holds and how it is made (the floor of state and rules,
carried forward; what the local model may add) is ``localmem.checkpoint``
(pure); which of the model's items stand is ``localmem.model_checkpoint`` (pure).
:class:`Checkpoints` reads its inputs (the previous checkpoint, the messages
since, the session state), asks the local model through ``localmem.localmodel``,
lays the items that stand over the floor, and stores the result with its rendered lines and, for
each line, the messages it rests on (``checkpoint_sources``: ``localmem.sources``;
the model's lines as the judgement that kept them found them, the rules' by the
messages they quote, carried lines with their earlier sources). Deleting them is a
forget's (``Forgetting.clear_checkpoints``).
"""

from __future__ import annotations

import logging
import sqlite3
from typing import TYPE_CHECKING

from . import db
from .args import check_id
from .checkpoint import CHECKPOINTS_KEPT, RULES, StateSnapshot, floor, overlay, render_lines
from .checkpoint_request import checkpoint_messages
from .errors import SessionNotFound
from .model_checkpoint import ModelCheckpoint, Support, supported_items
from .models import OPEN_SUBTASK_STATUSES, Checkpoint, CheckpointData, Message, Session
from .sources import Span, by_text, checkpoint_sources, rows
from .trust import kept_whole

if TYPE_CHECKING:  # what it is given (the handle, capabilities): for the type checker only
    from .handle import Handle
    from .localmodel import LocalModel
    from .state import SessionState
    from .verdicts import Verdicts

logger = logging.getLogger("localmem")

MAX_CHECKPOINT_MESSAGES = 400
"""The newest messages a checkpoint reads (those since the previous one, at most this many)."""


class Checkpoints:
    """Taking, storing and reading checkpoints; session state writes go through ``state``."""

    def __init__(self, handle: Handle, model: LocalModel, state: SessionState, verdicts: Verdicts) -> None:
        self._db = handle
        self._model = model
        self._state = state
        self._verdicts = verdicts

    def checkpoint(self, session_id: str) -> Checkpoint:
        """Take a checkpoint of the session now and return it.

        Reads the state and the messages since the previous checkpoint, merges
        them onto it, and asks the local model (JSON mode) to add what the
        rules missed when it is there (this may take the model's time; it
        never raises for the model). Keeps the newest 10. A forget in the session
        while the model was thinking discards its answer: the checkpoint is then the
        rules' of what is left. Raises :class:`SessionNotFound`.
        """
        check_id(session_id)
        with self._db.locked() as conn:
            session = db.get_session(conn, session_id)
        if session is None:
            raise SessionNotFound(session_id)
        taken = self.take(session, min_tokens=0)
        if taken is not None:
            return taken
        # Deleted, or a forget happened while the model was thinking: what it
        # answered is discarded, and the checkpoint is the rules' of what is left.
        with self._state.write_state(session_id) as conn:
            if not db.session_exists(conn, session_id):
                raise SessionNotFound(session_id)
            return self.rules_checkpoint(conn, session_id)

    def latest_checkpoint(self, session_id: str) -> Checkpoint | None:
        """The session's newest checkpoint, or None. Read-only."""
        check_id(session_id)
        with self._db.locked() as conn:
            self._db.require_session(session_id)
            newest = db.checkpoints(conn, session_id, 1)
        return newest[0] if newest else None

    def get_checkpoints(self, session_id: str) -> list[Checkpoint]:
        """The session's checkpoints (at most 10), newest first. Read-only."""
        return self._db.read_session(session_id, lambda conn, sid: db.checkpoints(conn, sid, -1))

    def take(self, session: Session, min_tokens: int) -> Checkpoint | None:
        """Build and store a checkpoint; the model is asked only for at least
        ``min_tokens`` new tokens. None if the session was deleted meanwhile, or if
        anything was forgotten in it since its inputs were read (its forget mark
        moved, checked in the storing transaction): a forget is final.

        With ``model_trust="earned"``, the model's items are added only once it has
        earned trust for its checkpoints on this file (``verdicts``); until then the
        rules' checkpoint is stored (``source`` ``rules``; the log says why). Either way
        the model's answer is judged, and its verdict (``trust.kept_whole`` over the
        items it proposed beyond the floor; none when it proposed none) is recorded in
        the transaction that stores the checkpoint: a forget meanwhile discards both."""
        with self._db.locked() as conn:
            mark = db.forget_mark(conn, session.id)
            previous, new, through, state = self._checkpoint_inputs(conn, session.id)
            carried = self._carried(conn, previous)
        data = floor(previous.data if previous else None, state, [(m.role, m.text) for m in new])
        source = RULES
        judged: dict[str, Support] = {}
        verdict: tuple[str, bool] | None = None
        new_tokens = sum(m.token_count for m in new)
        if new and new_tokens >= min_tokens:
            request = checkpoint_messages(data, state, new)
            answer = self._model.summarizer().ask_json(
                request, session.model, ModelCheckpoint, ratio=self._model.model_ratio(session.model)
            )
            if answer.data is not None and answer.model is not None:
                proposed: list[tuple[str, str, str | None]] = []
                supported = supported_items(data, answer.data, answer.model, state, new, judged, proposed)
                if proposed:
                    verdict = (answer.model, kept_whole([why for _, _, why in proposed]))
                if self._verdicts.shows(answer.model, "checkpoint"):
                    merged = overlay(data, supported, state)  # the model's only if one of its items is in
                    data, source = (merged, answer.model) if merged != data else (data, RULES)
                else:
                    judged.clear()
                    logger.info(
                        "%s has not earned trust for its checkpoints on this file yet: "
                        "the rules' checkpoint is stored", answer.model,
                    )
        sources = checkpoint_sources(data, Span.over(new), carried, judged)
        with self._state.write_state(session.id) as conn:
            if not db.session_exists(conn, session.id):
                return None
            if db.forget_mark(conn, session.id) != mark:
                logger.info(
                    "session %s: checkpoint discarded: something it was made from was "
                    "forgotten while it was taken", session.id,
                )
                return None
            taken = self._store_checkpoint(conn, session.id, data, source, through, state, sources)
            if verdict is not None:
                self._verdicts.record(conn, verdict[0], "checkpoint", verdict[1], self._db.now())
        logger.info(
            "session %s: checkpoint %d (%s, %d new messages, %d tokens)",
            session.id, taken.id, source, len(new), taken.token_count,
        )
        return taken

    def rules_checkpoint(self, conn: sqlite3.Connection, session_id: str) -> Checkpoint:
        """Build a checkpoint by the rules alone (no model) and store it, in the
        caller's write transaction: what a forget puts in place of the
        checkpoints it dropped (``localmem.forget``)."""
        previous, new, through, state = self._checkpoint_inputs(conn, session_id)
        data = floor(previous.data if previous else None, state, [(m.role, m.text) for m in new])
        sources = checkpoint_sources(data, Span.over(new), self._carried(conn, previous))
        return self._store_checkpoint(conn, session_id, data, RULES, through, state, sources)

    @staticmethod
    def _carried(conn: sqlite3.Connection, previous: Checkpoint | None) -> dict[str, tuple[int, ...]]:
        """The previous checkpoint's lines, by text, with their sources: what a line
        carried forward keeps (``sources.checkpoint_sources``)."""
        if previous is None:
            return {}
        return by_text(previous.data, db.checkpoint_sources(conn, previous.id))

    def _checkpoint_inputs(
        self, conn: sqlite3.Connection, session_id: str
    ) -> tuple[Checkpoint | None, list[Message], int, StateSnapshot]:
        """What the next checkpoint is made from: the previous one, the messages
        since (at most the newest :data:`MAX_CHECKPOINT_MESSAGES`), the newest
        message id and the state."""
        last = db.checkpoints(conn, session_id, 1)
        previous = last[0] if last else None
        newest = db.recent_messages(conn, session_id, 1)
        through = newest[0].id if newest else 0
        after = previous.through_message_id if previous else 0  # ids are never reused
        new = db.messages_after(conn, session_id, after, MAX_CHECKPOINT_MESSAGES + 1)
        if len(new) > MAX_CHECKPOINT_MESSAGES:  # read the newest, not the oldest
            new = db.recent_messages(conn, session_id, MAX_CHECKPOINT_MESSAGES)[::-1]
        return previous, new, through, self._snapshot(conn, session_id)

    def _store_checkpoint(
        self,
        conn: sqlite3.Connection,
        session_id: str,
        data: CheckpointData,
        source: str,
        through: int,
        state: StateSnapshot,
        sources: dict[str, tuple[int, ...]],
    ) -> Checkpoint:
        lines = [(text, self._db.tokenizer.count(text), live) for text, live in render_lines(data, state)]
        taken = db.insert_checkpoint(
            conn, session_id, data.model_dump_json(), source, through, lines, self._db.now(),
            CHECKPOINTS_KEPT,
        )
        db.add_checkpoint_sources(conn, rows(taken.id, sources))
        return taken

    def _snapshot(self, conn: sqlite3.Connection, session_id: str) -> StateSnapshot:
        goals = db.goals(conn, session_id)
        active = next((g for g in goals if g.status == "active"), None)
        goal_id = None if active is None else active.id
        subtasks = db.subtasks(conn, session_id)
        mine = [s for s in subtasks if s.goal_id == goal_id]
        return StateSnapshot(
            has_goals=bool(goals),
            active_goal=None if active is None else active.text,
            open_subtasks=tuple((s.name, s.status) for s in mine if s.status in OPEN_SUBTASK_STATUSES),
            done_subtasks=tuple(s.name for s in mine if s.status == "completed"),
            closed=frozenset(
                s.name.casefold() for s in subtasks if s.status not in OPEN_SUBTASK_STATUSES
            ),
            files=tuple(f.path for f in sorted(db.tracked_files(conn, session_id), key=lambda f: -f.seq)),
        )
