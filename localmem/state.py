"""The store's session state: goals, subtasks, tool executions and tracked files.

An agent works through several goals in one long session (origin 000). Only
the active goal is kept in detail in the context; when it ends, rule-based
statistics of what it did are stored on it as JSON
(``state_lines.archive_stats``), and its detailed rows stay in their tables,
out of the context:

- a **goal** is ``active``, then ``completed``, ``failed`` or ``cancelled``;
  setting a new goal completes the active one;
- **subtasks** and **tool executions** belong to the goal active when they
  were recorded (``goal_id`` None when none was);
- **tracked files**: the files the session works on; the context shows the
  newest ``ACTIVE_FILES_SHOWN`` not modified and the newest
  ``MODIFIED_FILES_SHOWN`` modified ones, the rest as a count.

How the state reads in a context, and the line each row's ``token_count``
counts, is ``localmem.state_lines`` (pure). :class:`SessionState` writes and
reads the rows, and answers ``context_usage`` (the window-share trigger's
figures, from ``localmem.localmodel``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import db
from .args import check_id, check_int, check_text
from .errors import InvalidInput, NotFound, SessionNotFound
from .models import GOAL_STATUSES, SUBTASK_STATUSES, Goal, Subtask, ToolExecution, TrackedFile
from .state_lines import archive_line, archive_stats, file_line, goal_line, subtask_line, tool_line

if TYPE_CHECKING:  # what it is given (the handle, capabilities): for the type checker only
    from .handle import Handle
    from .localmodel import LocalModel

logger = logging.getLogger("localmem")


class SessionState:
    """Goals, subtasks, tool executions, tracked files and ``context_usage``.

    Each write is one transaction (:meth:`write_state`); arguments are checked
    before it begins.
    """

    def __init__(self, handle: Handle, model: LocalModel) -> None:
        self._db = handle
        self._model = model

    @contextlib.contextmanager
    def write_state(self, session_id: str) -> Iterator[sqlite3.Connection]:
        """``Handle.write`` for a write of session state: the store then
        reads the session's state again for its next context (forgotten under
        the lock, so no other thread builds a context in between)."""
        with self._db.write(session_id) as conn:
            self._db.memo.state.pop(session_id, None)
            yield conn

    # --- goals --------------------------------------------------------------

    def set_goal(self, session_id: str, text: str) -> Goal:
        """Make ``text`` the session's active goal and return it.

        The goal that was active is completed first and archived (its
        statistics stored on it), in the same transaction. Raises
        :class:`SessionNotFound` or :class:`InvalidInput` (empty text).
        """
        check_id(session_id)
        if not check_text("text", text).strip():
            raise InvalidInput("a goal's text must not be empty")
        tokens = self._db.tokenizer.count(goal_line(text))
        with self.write_state(session_id) as conn:
            self._db.require_session(session_id)
            now = self._db.now()
            previous = db.active_goal(conn, session_id)
            if previous is not None:
                self._end_goal(conn, previous, "completed", now)
            return db.insert_goal(conn, session_id, text, tokens, now)

    def complete_goal(self, session_id: str, success: bool = True) -> Goal | None:
        """End the active goal as ``completed`` (or ``failed``) and archive it.

        Returns the ended goal, or None when no goal is active.
        """
        if not isinstance(success, bool):
            raise InvalidInput(f"success must be True or False, not {type(success).__name__}")
        return self._finish(session_id, "completed" if success else "failed")

    def cancel_goal(self, session_id: str) -> Goal | None:
        """End the active goal as ``cancelled`` and archive it; None when no goal is active."""
        return self._finish(session_id, "cancelled")

    def get_goals(self, session_id: str) -> list[Goal]:
        """A session's goals, oldest first (at most one ``active``)."""
        return self._db.read_session(session_id, db.goals)

    def _finish(self, session_id: str, status: str) -> Goal | None:
        check_id(session_id)
        with self.write_state(session_id) as conn:
            self._db.require_session(session_id)
            goal = db.active_goal(conn, session_id)
            return None if goal is None else self._end_goal(conn, goal, status, self._db.now())

    def _end_goal(self, conn: sqlite3.Connection, goal: Goal, status: str, now: str) -> Goal:
        """Archive ``goal``: its statistics and their line's tokens; inside a write."""
        assert status in GOAL_STATUSES and status != "active"
        tools = db.goal_tools(conn, goal.session_id, goal.id)
        subtasks = db.goal_subtasks(conn, goal.session_id, goal.id)
        archive = archive_stats(tools, subtasks, goal.created_at, now)
        tokens = self._db.tokenizer.count(archive_line(goal.text, status, archive))
        logger.debug("goal %d %s: %d tools, %d subtasks", goal.id, status, len(tools), len(subtasks))
        return db.end_goal(conn, goal, status, archive, tokens, now)

    # --- subtasks and tools ---------------------------------------------------

    def add_subtask(
        self, session_id: str, name: str, dependencies: Sequence[int] | None = None
    ) -> Subtask:
        """Add a ``pending`` subtask to the active goal (or to no goal, if none is active).

        ``dependencies`` are ids of subtasks of the same session. Raises
        :class:`SessionNotFound` or :class:`InvalidInput`.
        """
        check_id(session_id)
        if not check_text("name", name).strip():
            raise InvalidInput("a subtask's name must not be empty")
        deps = _check_ids("dependencies", dependencies)
        tokens = self._db.tokenizer.count(subtask_line("pending", name, None))
        with self.write_state(session_id) as conn:
            self._db.require_session(session_id)
            for dep in deps:
                if db.subtask_session(conn, dep) != session_id:
                    raise InvalidInput(f"subtask {dep} is not a subtask of session {session_id!r}")
            goal = db.active_goal(conn, session_id)
            goal_id = None if goal is None else goal.id
            return db.insert_subtask(conn, session_id, goal_id, name, deps, tokens, self._db.now())

    def update_subtask(self, subtask_id: int, status: str, notes: str | None = None) -> Subtask:
        """Set a subtask's status (``pending``, ``in_progress``, ``completed``,
        ``blocked``, ``cancelled``) and, unless ``notes`` is None, its notes.

        Raises :class:`NotFound` or :class:`InvalidInput`.
        """
        check_int("subtask_id", subtask_id)
        if status not in SUBTASK_STATUSES:
            raise InvalidInput(f"status must be one of {', '.join(SUBTASK_STATUSES)}, not {status!r}")
        if notes is not None:
            check_text("notes", notes)
        with self._db.locked() as conn:
            subtask = db.get_subtask(conn, subtask_id)
            if subtask is None:
                raise NotFound("subtask", subtask_id)
            kept = subtask.notes if notes is None else notes
            tokens = self._db.tokenizer.count(subtask_line(status, subtask.name, kept))
            with self.write_state(subtask.session_id) as conn:
                return db.update_subtask(conn, subtask, status, kept, tokens, self._db.now())

    def get_subtasks(self, session_id: str) -> list[Subtask]:
        """A session's subtasks by goal (those of no goal first), oldest first within each."""
        return self._db.read_session(session_id, db.subtasks)

    def record_tool(
        self,
        session_id: str,
        tool_name: str,
        arguments: Mapping[str, Any] | None = None,
        success: bool = True,
        result_summary: str | None = None,
        error_message: str | None = None,
    ) -> ToolExecution:
        """Record one tool call of the agent, tied to the active goal (if any).

        ``arguments`` must be JSON-serializable; it is stored as JSON text.
        Raises :class:`SessionNotFound` or :class:`InvalidInput`.
        """
        check_id(session_id)
        if not check_text("tool_name", tool_name).strip():
            raise InvalidInput("tool_name must not be empty")
        if not isinstance(success, bool):
            raise InvalidInput(f"success must be True or False, not {type(success).__name__}")
        for name, value in (("result_summary", result_summary), ("error_message", error_message)):
            if value is not None:
                check_text(name, value)
        args = _json_object("arguments", arguments)
        line = tool_line(tool_name, success, result_summary, error_message)
        tokens = self._db.tokenizer.count(line)
        with self.write_state(session_id) as conn:
            self._db.require_session(session_id)
            goal = db.active_goal(conn, session_id)
            return db.insert_tool(
                conn, session_id, None if goal is None else goal.id, tool_name, args, success,
                result_summary, error_message, tokens, self._db.now(),
            )

    def get_tool_executions(self, session_id: str) -> list[ToolExecution]:
        """A session's tool executions by goal (those of no goal first), oldest first within each."""
        return self._db.read_session(session_id, db.tools)

    # --- files ----------------------------------------------------------------

    def track_file(self, session_id: str, path: str, modified: bool = False) -> TrackedFile:
        """Note that the session works on ``path`` (``modified``: it changed it).

        A file tracked again moves to the front; once modified it stays so.
        The context shows the newest 10 files not modified and the newest 20
        modified, and how many older ones there are.
        """
        check_id(session_id)
        if not check_text("path", path).strip():
            raise InvalidInput("path must not be empty")
        if not isinstance(modified, bool):
            raise InvalidInput(f"modified must be True or False, not {type(modified).__name__}")
        tokens = self._db.tokenizer.count(file_line(path))
        with self.write_state(session_id) as conn:
            self._db.require_session(session_id)
            return db.track_file(conn, session_id, path, modified, tokens, self._db.now())

    def get_tracked_files(self, session_id: str) -> list[TrackedFile]:
        """A session's tracked files: modified ones first, newest touch first within each."""
        return self._db.read_session(session_id, db.tracked_files)

    # --- the window-share trigger ------------------------------------------------

    def context_usage(self, session_id: str) -> dict[str, Any]:
        """How full the session model's context window is with messages no summary covers.

        ``used_tokens`` (in the model's own tokens once its ratio is known),
        ``context_window`` (from the local Ollama server's ``/api/show`` when
        it has the session's model, else ``MemoryConfig.context_window``),
        ``share`` (used / window), ``threshold`` (``context_share``: compaction
        is due at or above it), ``window_source`` (``ollama`` or ``config``)
        and ``uncovered_messages``. May ask the local server (bounded, cached).
        """
        check_id(session_id)
        with self._db.locked() as conn:
            session = db.get_session(conn, session_id)
            if session is None:
                raise SessionNotFound(session_id)
            count, tokens = db.uncovered_tokens(conn, session_id, db.last_covered(conn, session_id))
            ratio = self._model.session_ratio(session_id, db.data_version(conn))
        window, source = self._model.window(session)
        used = math.ceil(tokens * ratio)
        return {
            "used_tokens": used,
            "context_window": window,
            "share": round(used / window, 4),
            "threshold": self._db.config.context_share,
            "window_source": source,
            "uncovered_messages": count,
        }


def _check_ids(name: str, ids: object) -> list[int]:
    if ids is None:
        return []
    if isinstance(ids, (str, bytes, Mapping)) or not isinstance(ids, (list, tuple)):
        raise InvalidInput(f"{name} must be a list of subtask ids")
    return [check_int(name, i) for i in ids]


def _json_object(name: str, value: object) -> str:
    """``value`` (a mapping, or None for ``{}``) as JSON text; InvalidInput if it cannot be."""
    if value is None:
        return "{}"
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{name} must be a dict, not {type(value).__name__}")
    try:
        text = json.dumps(dict(value), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidInput(f"{name} must be JSON-serializable: {exc}") from None
    return check_text(name, text)
