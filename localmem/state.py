"""Session state: goals, subtasks, tool executions and tracked files.

An agent works through several goals in one long session (origin 000). Only
the active goal is kept in detail in the context; when it ends, rule-based
statistics of what it did are stored on it as JSON (:func:`archive_stats`),
and its detailed rows stay in their tables, out of the context:

- a **goal** is ``active``, then ``completed``, ``failed`` or ``cancelled``;
  setting a new goal completes the active one;
- **subtasks** and **tool executions** belong to the goal active when they
  were recorded (``goal_id`` None when none was);
- **tracked files**: the files the session works on; the context shows the
  newest :data:`ACTIVE_FILES_SHOWN` not modified and the newest
  :data:`MODIFIED_FILES_SHOWN` modified ones, the rest as a count.

The context's session-state section (:func:`state_groups`) shows the active
goal, its open subtasks, its newest tool calls, the tracked files, then the
archives of finished goals, newest first. Each row's ``token_count`` is the
exact count of the line it renders as (the ``*_line`` functions below),
stored when the row is written, so building a context never tokenizes.

:class:`StateMixin` holds the store's methods for all this (and for the
window-share compaction trigger, :meth:`StateMixin.context_usage`);
:class:`~localmem.MemoryStore` inherits it. Everything else here is pure.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import math
import sqlite3
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from . import db
from .args import check_id, check_int, check_text
from .context import (
    ACTIVE_FILES_HEADING,
    ARCHIVES_HEADING,
    MODIFIED_FILES_HEADING,
    OLDER_FILES,
    SUBTASKS_HEADING,
    TOOLS_HEADING,
    Costs,
    Group,
    Line,
)
from .errors import InvalidInput, NotFound, SessionNotFound
from .mixin import StoreBase
from .models import (
    GOAL_STATUSES,
    SUBTASK_STATUSES,
    Goal,
    GoalArchive,
    Session,
    Subtask,
    ToolExecution,
    TrackedFile,
)

if TYPE_CHECKING:
    from .summarizer import Summarizer

logger = logging.getLogger("localmem")

SUBTASKS_SHOWN = 10
TOOLS_SHOWN = 5
ACTIVE_FILES_SHOWN = 10
MODIFIED_FILES_SHOWN = 20
ARCHIVES_SHOWN = 5
STATE_LIMITS = (
    (SUBTASKS_SHOWN, TOOLS_SHOWN, ACTIVE_FILES_SHOWN, MODIFIED_FILES_SHOWN, ARCHIVES_SHOWN),
    (SUBTASKS_SHOWN, 3, 5, 10, ARCHIVES_SHOWN),
    (SUBTASKS_SHOWN, 1, 3, 5, 3),
    (SUBTASKS_SHOWN, 0, 0, 0, 1),
)
"""How many rows of each kind (subtasks, tool calls, active files, modified files,
archives) the context reads (``db.session_state``), by the session's compaction
level: 0 in full, then tighter for sessions ``store.maintain`` found idle for 1, 7
and 30 days. Open subtasks always show (they are what a resumed session needs);
files beyond the limit are still counted."""

MAX_LINE_TEXT = 200
"""Characters of a name, goal, path or note shown in a line (the row keeps all of it)."""
MAX_DETAIL_TEXT = 160
"""Characters of a tool call's result or error shown in a line."""
MAX_ERROR_PATTERN = 50
"""An error without a ``Type:`` prefix is grouped by its first characters (origin 000)."""
MIN_WINDOW = 2048
"""No local model has a smaller window: below its share, the trigger asks no server."""
ELLIPSIS = "…"


# --- rendering (pure; the stored token counts are of these lines) -----------------


def clip(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + ELLIPSIS


def goal_line(text: str) -> str:
    return "Goal: " + clip(text, MAX_LINE_TEXT)


def subtask_line(status: str, name: str, notes: str | None) -> str:
    line = f"- [{status}] {clip(name, MAX_LINE_TEXT)}"
    return line + f" ({clip(notes, MAX_DETAIL_TEXT)})" if notes else line


def tool_line(
    tool_name: str, success: bool, result_summary: str | None, error_message: str | None
) -> str:
    line = f"- {clip(tool_name, MAX_DETAIL_TEXT)}: {'ok' if success else 'failed'}"
    detail = result_summary if success else (error_message or result_summary)
    return line + f", {clip(detail, MAX_DETAIL_TEXT)}" if detail else line


def file_line(path: str) -> str:
    return "- " + clip(path, MAX_LINE_TEXT)


def archive_line(text: str, status: str, archive: GoalArchive | Mapping[str, Any]) -> str:
    """A finished goal in one line: its outcome, tool usage and subtasks.

    ``archive`` is read through :class:`~localmem.models.GoalArchive` (the model an
    import checks archives with); one of another shape (a file written by another
    program) renders as "nothing recorded" rather than failing every context.
    """
    if not isinstance(archive, GoalArchive):
        try:
            archive = GoalArchive.model_validate(archive)
        except ValidationError:
            archive = None
    parts = []
    tools = archive.tools if archive is not None else None
    if tools is not None and tools.total:
        most_used = sorted(tools.usage.items(), key=lambda item: -item[1])[:3]
        usage = ", ".join(f"{name} {n}" for name, n in most_used)
        rate = "" if tools.success_rate is None else f", {round(100 * tools.success_rate)}% ok"
        parts.append(f"{_count(tools.total, 'tool call')}{rate} ({usage})")
    subtasks = archive.subtasks if archive is not None else None
    if subtasks is not None and subtasks.total:
        statuses = ", ".join(f"{n} {status}" for status, n in subtasks.by_status.items())
        parts.append(f"{_count(subtasks.total, 'subtask')} ({statuses})")
    done = "; ".join(parts) or "nothing recorded"
    return f"- {status}: {clip(text, MAX_DETAIL_TEXT)} — {done}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


@functools.lru_cache(maxsize=1024)
def _archive_line(text: str, status: str, archive: str) -> str:
    try:
        data = json.loads(archive)
    except ValueError:
        data = None
    return archive_line(text, status, data)


def archive_stats(
    tools: Sequence[ToolExecution], subtasks: Sequence[Subtask], started: str, ended: str
) -> dict[str, Any]:
    """Rule-based statistics of a goal's tool executions and subtasks (origin 000).

    ``tools``: count, successes, success rate, usage per tool (most used
    first), error patterns (the text before the first ``:``, else its first
    50 characters) and the time range; ``subtasks``: count, count per status
    and themes (first words, most common first). Plain JSON types only.
    """
    succeeded = sum(1 for t in tools if t.success)
    errors = Counter(
        (e.split(":", 1)[0] if ":" in e else e[:MAX_ERROR_PATTERN]).strip() or "error"
        for e in (t.error_message for t in tools)
        if e
    )
    themes = Counter(_theme(s.name) for s in subtasks)
    return {
        "tools": {
            "total": len(tools),
            "succeeded": succeeded,
            "success_rate": round(succeeded / len(tools), 3) if tools else None,
            "usage": dict(Counter(t.tool_name for t in tools).most_common()),
            "error_patterns": dict(errors.most_common()),
            "first": tools[0].created_at if tools else None,
            "last": tools[-1].created_at if tools else None,
        },
        "subtasks": {
            "total": len(subtasks),
            "by_status": dict(Counter(s.status for s in subtasks).most_common()),
            "themes": dict(themes.most_common()),
        },
        "started_at": started,
        "ended_at": ended,
    }


def _theme(name: str) -> str:
    """A subtask's theme: its first word, capitalized (origin 000)."""
    words = name.split()
    first = words[0].strip(".,:;!?\"'()[]") if words else ""
    return first.capitalize() if first else "Other"


def state_groups(
    rows: Sequence[db.StateRow], costs: Costs
) -> tuple[tuple[Group, ...], tuple[Line, ...]]:
    """The rows of ``db.session_state`` as the state's groups and the checkpoint's lines."""
    if not rows:
        return (), ()
    goal: list[Line] = []
    subtasks: list[Line] = []
    tools: list[Line] = []
    files: tuple[list[Line], list[Line]] = ([], [])
    totals = [0, 0]
    archives: list[Line] = []
    checkpoint = ""
    for kind, _id, aux, text, status, tokens, data, extra in rows:
        if kind == "goal":
            goal.append((goal_line(text), tokens))
        elif kind == "subtask":
            subtasks.append((subtask_line(status, text, data), tokens))
        elif kind == "tool":
            tools.append((tool_line(text, bool(status), data, extra), tokens))
        elif kind == "file":
            files[aux].append((file_line(text), tokens))
        elif kind == "files":
            totals[aux] = tokens
        elif kind == "archive" and data is not None:
            archives.append((_archive_line(text, status, data), tokens))
        elif kind == "checkpoint":
            checkpoint = extra
    for modified in (0, 1):
        older = totals[modified] - len(files[modified])
        if older > 0:
            files[modified].append((OLDER_FILES.format(count=older), costs.older_files))
    groups = tuple(
        Group(heading, tuple(lines), heading is ARCHIVES_HEADING)
        for heading, lines in (
            (None, goal),
            (SUBTASKS_HEADING, subtasks),
            (TOOLS_HEADING, tools),
            (ACTIVE_FILES_HEADING, files[0]),
            (MODIFIED_FILES_HEADING, files[1]),
            (ARCHIVES_HEADING, archives),
        )
        if lines
    )
    live = bool(goal or subtasks or archives)  # the goals and subtasks, as they are now
    return groups, _checkpoint_lines(checkpoint, live) if checkpoint else ()


@functools.lru_cache(maxsize=1024)
def _checkpoint_lines(lines: str, live: bool) -> tuple[Line, ...]:
    """A checkpoint's stored lines; with ``live`` state shown, not those repeating it."""
    return tuple((text, tokens) for text, tokens, repeats in json.loads(lines) if not (live and repeats))


# --- the store's methods ---------------------------------------------------------


class StateMixin(StoreBase):
    """Goals, subtasks, tool executions, tracked files and the window-share trigger.

    Mixed into :class:`~localmem.MemoryStore`; each write is one transaction
    through the store's ``_write``, arguments are checked before it begins.
    """

    if TYPE_CHECKING:
        def _get_summarizer(self) -> Summarizer: ...
        def _session_ratio(self, session_id: str, stamp: int) -> float: ...
        def clear_messages(self, session_id: str) -> int: ...

    @contextlib.contextmanager
    def _write_state(self, session_id: str) -> Iterator[sqlite3.Connection]:
        """The store's ``_write`` for a write of session state: the store then
        reads the session's state again for its next context (forgotten under
        the lock, so no other thread builds a context in between)."""
        with self._write(session_id) as conn:
            self._memo.state.pop(session_id, None)
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
        tokens = self.tokenizer.count(goal_line(text))
        with self._write_state(session_id) as conn:
            self._require_session(session_id)
            now = self._now()
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
        return self._read_session(session_id, db.goals)

    def _finish(self, session_id: str, status: str) -> Goal | None:
        check_id(session_id)
        with self._write_state(session_id) as conn:
            self._require_session(session_id)
            goal = db.active_goal(conn, session_id)
            return None if goal is None else self._end_goal(conn, goal, status, self._now())

    def _end_goal(self, conn: sqlite3.Connection, goal: Goal, status: str, now: str) -> Goal:
        """Archive ``goal``: its statistics and their line's tokens; inside a write."""
        assert status in GOAL_STATUSES and status != "active"
        tools = db.goal_tools(conn, goal.session_id, goal.id)
        subtasks = db.goal_subtasks(conn, goal.session_id, goal.id)
        archive = archive_stats(tools, subtasks, goal.created_at, now)
        tokens = self.tokenizer.count(archive_line(goal.text, status, archive))
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
        tokens = self.tokenizer.count(subtask_line("pending", name, None))
        with self._write_state(session_id) as conn:
            self._require_session(session_id)
            for dep in deps:
                if db.subtask_session(conn, dep) != session_id:
                    raise InvalidInput(f"subtask {dep} is not a subtask of session {session_id!r}")
            goal = db.active_goal(conn, session_id)
            goal_id = None if goal is None else goal.id
            return db.insert_subtask(conn, session_id, goal_id, name, deps, tokens, self._now())

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
        with self._locked() as conn:
            subtask = db.get_subtask(conn, subtask_id)
            if subtask is None:
                raise NotFound("subtask", subtask_id)
            kept = subtask.notes if notes is None else notes
            tokens = self.tokenizer.count(subtask_line(status, subtask.name, kept))
            with self._write_state(subtask.session_id) as conn:
                return db.update_subtask(conn, subtask, status, kept, tokens, self._now())

    def get_subtasks(self, session_id: str) -> list[Subtask]:
        """A session's subtasks by goal (those of no goal first), oldest first within each."""
        return self._read_session(session_id, db.subtasks)

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
        tokens = self.tokenizer.count(line)
        with self._write_state(session_id) as conn:
            self._require_session(session_id)
            goal = db.active_goal(conn, session_id)
            return db.insert_tool(
                conn, session_id, None if goal is None else goal.id, tool_name, args, success,
                result_summary, error_message, tokens, self._now(),
            )

    def get_tool_executions(self, session_id: str) -> list[ToolExecution]:
        """A session's tool executions by goal (those of no goal first), oldest first within each."""
        return self._read_session(session_id, db.tools)

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
        tokens = self.tokenizer.count(file_line(path))
        with self._write_state(session_id) as conn:
            self._require_session(session_id)
            return db.track_file(conn, session_id, path, modified, tokens, self._now())

    def get_tracked_files(self, session_id: str) -> list[TrackedFile]:
        """A session's tracked files: modified ones first, newest touch first within each."""
        return self._read_session(session_id, db.tracked_files)

    # --- reset ----------------------------------------------------------------

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
        with self._locked() as conn:
            session = db.get_session(conn, session_id)
            if session is None:
                raise SessionNotFound(session_id)
            count, tokens = db.uncovered_tokens(conn, session_id, db.last_covered(conn, session_id))
            ratio = self._session_ratio(session_id, db.data_version(conn))
        window, source = self._window(session)
        used = math.ceil(tokens * ratio)
        return {
            "used_tokens": used,
            "context_window": window,
            "share": round(used / window, 4),
            "threshold": self.config.context_share,
            "window_source": source,
            "uncovered_messages": count,
        }

    def _window(self, session: Session) -> tuple[int, str]:
        window = self._get_summarizer().session_window(session.model)
        return (window, "ollama") if window else (self.config.context_window, "config")

    def _window_span(self, session: Session, uncovered: Sequence[Any]) -> list[Any]:
        """The range the window-share trigger cuts from ``uncovered`` (all the messages
        no summary covers, fewer than ``summary_threshold``), or [] if not due.

        Due when they fill ``context_share`` of the window; the newest
        ``min_recent_messages`` are never in the range.
        """
        keep = self.config.min_recent_messages
        if len(uncovered) <= keep:
            return []
        with self._locked() as conn:
            ratio = self._session_ratio(session.id, db.data_version(conn))
        used = sum(m.token_count for m in uncovered) * ratio
        share = self.config.context_share
        if used < share * min(MIN_WINDOW, self.config.context_window):
            return []  # far below any window: no need to ask the server
        window, source = self._window(session)
        if used < share * window:
            return []
        logger.info(
            "session %s: %d uncovered tokens fill %.0f%% of the %s window (%d): compacting",
            session.id, used, 100 * used / window, source, window,
        )
        return list(uncovered[: len(uncovered) - keep])


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
