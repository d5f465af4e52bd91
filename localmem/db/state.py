"""Session state.

Goals, subtasks, tool executions, tracked files, checkpoints and summary
facts (migration m005_session_state). JSON columns are parsed here, so the
models carry dicts and lists. ``token_count`` is the count of the line a row
renders as (``localmem.state``), passed in by the caller.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from ..models import Checkpoint, Goal, Subtask, SummaryFacts, ToolExecution, TrackedFile
from .rows import (
    CHECKPOINTS_SQL, FACTS_SQL, FILES_SQL, FILE_COLUMNS, GOALS_SQL, GOAL_COLUMNS,
    INSERT_CHECKPOINT_SQL, SUBTASKS_SQL, SUBTASK_COLUMNS, TOOLS_SQL, TOOL_COLUMNS,
    _CHECKPOINT_ROWS, _FACTS_ROWS, _FILE_ROWS, _GOAL_ROWS, _SUBTASK_ROWS, _TOOL_ROWS,
)

INSERT_GOAL_SQL = """INSERT INTO goals (session_id, text, status, token_count, created_at)
    VALUES (?, ?, 'active', ?, ?)"""
ACTIVE_GOAL_SQL = f"SELECT {GOAL_COLUMNS} FROM goals WHERE session_id = ? AND status = 'active'"
END_GOAL_SQL = """UPDATE goals SET status = ?, archive = ?, archive_tokens = ?, ended_at = ?
    WHERE id = ?"""


def insert_goal(conn: sqlite3.Connection, session_id: str, text: str, tokens: int, now: str) -> Goal:
    cur = conn.execute(INSERT_GOAL_SQL, (session_id, text, tokens, now))
    return _GOAL_ROWS((cur.lastrowid, session_id, text, "active", tokens, None, None, now, None))


def active_goal(conn: sqlite3.Connection, session_id: str) -> Goal | None:
    row = conn.execute(ACTIVE_GOAL_SQL, (session_id,)).fetchone()
    return _GOAL_ROWS(row) if row else None


def goals(conn: sqlite3.Connection, session_id: str) -> list[Goal]:
    """A session's goals, oldest first."""
    return [_GOAL_ROWS(row) for row in conn.execute(GOALS_SQL, (session_id,))]


def end_goal(
    conn: sqlite3.Connection, goal: Goal, status: str, archive: dict, archive_tokens: int, now: str
) -> Goal:
    """Set a goal's final status and store its archive (JSON)."""
    text = json.dumps(archive, ensure_ascii=False)  # key order kept: most used first
    conn.execute(END_GOAL_SQL, (status, text, archive_tokens, now, goal.id))
    return goal.model_copy(
        update={"status": status, "archive": archive, "archive_tokens": archive_tokens, "ended_at": now}
    )


INSERT_SUBTASK_SQL = """INSERT INTO subtasks
    (session_id, goal_id, name, status, dependencies, notes, token_count, created_at, updated_at)
    VALUES (?, ?, ?, 'pending', ?, NULL, ?, ?, ?)"""
GET_SUBTASK_SQL = f"SELECT {SUBTASK_COLUMNS} FROM subtasks WHERE id = ?"
SUBTASK_SESSION_SQL = "SELECT session_id FROM subtasks WHERE id = ?"
UPDATE_SUBTASK_SQL = """UPDATE subtasks SET status = ?, notes = ?, token_count = ?, updated_at = ?
    WHERE id = ?"""
GOAL_SUBTASKS_SQL = f"""SELECT {SUBTASK_COLUMNS} FROM subtasks
    WHERE session_id = ? AND goal_id IS ? ORDER BY id"""


def insert_subtask(
    conn: sqlite3.Connection,
    session_id: str,
    goal_id: int | None,
    name: str,
    dependencies: Sequence[int],
    tokens: int,
    now: str,
) -> Subtask:
    deps = json.dumps(list(dependencies))
    cur = conn.execute(INSERT_SUBTASK_SQL, (session_id, goal_id, name, deps, tokens, now, now))
    return _SUBTASK_ROWS(
        (cur.lastrowid, session_id, goal_id, name, "pending", deps, None, tokens, now, now)
    )


def get_subtask(conn: sqlite3.Connection, subtask_id: int) -> Subtask | None:
    row = conn.execute(GET_SUBTASK_SQL, (subtask_id,)).fetchone()
    return _SUBTASK_ROWS(row) if row else None


def update_subtask(
    conn: sqlite3.Connection, subtask: Subtask, status: str, notes: str | None, tokens: int, now: str
) -> Subtask:
    conn.execute(UPDATE_SUBTASK_SQL, (status, notes, tokens, now, subtask.id))
    return subtask.model_copy(
        update={"status": status, "notes": notes, "token_count": tokens, "updated_at": now}
    )


def subtasks(conn: sqlite3.Connection, session_id: str) -> list[Subtask]:
    return [_SUBTASK_ROWS(row) for row in conn.execute(SUBTASKS_SQL, (session_id,))]


def goal_subtasks(conn: sqlite3.Connection, session_id: str, goal_id: int | None) -> list[Subtask]:
    """The subtasks of one goal (None: those recorded with no goal active), oldest first."""
    return [_SUBTASK_ROWS(row) for row in conn.execute(GOAL_SUBTASKS_SQL, (session_id, goal_id))]


def subtask_session(conn: sqlite3.Connection, subtask_id: int) -> str | None:
    """The session a subtask belongs to, or None if there is no such subtask."""
    row = conn.execute(SUBTASK_SESSION_SQL, (subtask_id,)).fetchone()
    return row[0] if row else None


INSERT_TOOL_SQL = """INSERT INTO tool_executions
    (session_id, goal_id, tool_name, arguments, success, result_summary, error_message,
     token_count, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"""
GOAL_TOOLS_SQL = f"""SELECT {TOOL_COLUMNS} FROM tool_executions
    WHERE session_id = ? AND goal_id IS ? ORDER BY id"""


def insert_tool(
    conn: sqlite3.Connection,
    session_id: str,
    goal_id: int | None,
    tool_name: str,
    arguments: str,
    success: bool,
    result_summary: str | None,
    error_message: str | None,
    tokens: int,
    now: str,
) -> ToolExecution:
    """Insert a tool execution; ``arguments`` is JSON text."""
    row = (
        session_id, goal_id, tool_name, arguments, int(success), result_summary, error_message,
        tokens, now,
    )
    cur = conn.execute(INSERT_TOOL_SQL, row)
    return _TOOL_ROWS((cur.lastrowid, *row))


def tools(conn: sqlite3.Connection, session_id: str) -> list[ToolExecution]:
    return [_TOOL_ROWS(row) for row in conn.execute(TOOLS_SQL, (session_id,))]


def goal_tools(conn: sqlite3.Connection, session_id: str, goal_id: int | None) -> list[ToolExecution]:
    """The tool executions of one goal (None: those with no goal active), oldest first."""
    return [_TOOL_ROWS(row) for row in conn.execute(GOAL_TOOLS_SQL, (session_id, goal_id))]


# A touch moves the file to the front; once modified, it stays modified.
TRACK_FILE_SQL = """INSERT INTO tracked_files
    (session_id, path, modified, seq, token_count, created_at, updated_at)
    VALUES (?1, ?2, ?3, (SELECT coalesce(max(seq), 0) + 1 FROM tracked_files WHERE session_id = ?1),
        ?4, ?5, ?5)
    ON CONFLICT (session_id, path) DO UPDATE SET modified = max(modified, excluded.modified),
        seq = excluded.seq, updated_at = excluded.updated_at"""
GET_FILE_SQL = f"SELECT {FILE_COLUMNS} FROM tracked_files WHERE session_id = ? AND path = ?"


def track_file(
    conn: sqlite3.Connection, session_id: str, path: str, modified: bool, tokens: int, now: str
) -> TrackedFile:
    conn.execute(TRACK_FILE_SQL, (session_id, path, int(modified), tokens, now))
    return _FILE_ROWS.build(conn.execute(GET_FILE_SQL, (session_id, path)).fetchone())


def tracked_files(conn: sqlite3.Connection, session_id: str) -> list[TrackedFile]:
    return [_FILE_ROWS.build(row) for row in conn.execute(FILES_SQL, (session_id,))]


# Every checkpoint of the session older than its newest ``keep``.
PRUNE_CHECKPOINTS_SQL = """DELETE FROM checkpoints WHERE session_id = ?1 AND id <=
    (SELECT id FROM checkpoints WHERE session_id = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)"""
CLEAR_CHECKPOINTS_SQL = "DELETE FROM checkpoints WHERE session_id = ?"


def _checkpoint(row: tuple) -> Checkpoint:
    """A checkpoint row as a model; memoized by the whole row (immutable once written)."""
    return _CHECKPOINT_ROWS(row)


def insert_checkpoint(
    conn: sqlite3.Connection,
    session_id: str,
    data: str,
    source: str,
    through_message_id: int,
    lines: Sequence[tuple[str, int, bool]],
    now: str,
    keep: int,
) -> Checkpoint:
    """Insert a checkpoint (``data`` is JSON text; ``lines``: text, tokens, repeats
    the state), then drop all but the newest ``keep``."""
    tokens = sum(line[1] for line in lines)
    rendered = json.dumps([list(line) for line in lines], ensure_ascii=False)
    row = (session_id, data, source, through_message_id, tokens, rendered, now)
    cur = conn.execute(INSERT_CHECKPOINT_SQL, row)
    conn.execute(PRUNE_CHECKPOINTS_SQL, (session_id, keep))
    return _checkpoint((cur.lastrowid, *row))


def checkpoints(conn: sqlite3.Connection, session_id: str, limit: int) -> list[Checkpoint]:
    """A session's newest ``limit`` checkpoints (-1: all), newest first."""
    return [_checkpoint(row) for row in conn.execute(CHECKPOINTS_SQL, (session_id, limit))]


def clear_checkpoints(conn: sqlite3.Connection, session_id: str) -> int:
    return conn.execute(CLEAR_CHECKPOINTS_SQL, (session_id,)).rowcount


INSERT_FACTS_SQL = """INSERT INTO summary_facts (id, session_id, data, text, source, created_at)
    VALUES (?, ?, ?, ?, ?, ?)"""


def insert_facts(
    conn: sqlite3.Connection, summary_id: int, session_id: str, data: str, text: str, source: str, now: str
) -> SummaryFacts:
    """Keep the facts (``data``: JSON text, ``text``: their flat rendering) of a summary."""
    row = (summary_id, session_id, data, text, source, now)
    conn.execute(INSERT_FACTS_SQL, row)
    return _FACTS_ROWS(row)


def summary_facts(conn: sqlite3.Connection, session_id: str) -> list[SummaryFacts]:
    """The facts of a session's summaries, in summary id order."""
    return [_FACTS_ROWS(row) for row in conn.execute(FACTS_SQL, (session_id,))]


# The session state a context shows, in one statement, as rows of
# (kind, id, goal_id, text, status, token_count, data, extra):
#   goal        the active goal
#   subtask     its open subtasks, oldest first (goal-less ones when no goal is
#               active; data: notes)
#   tool        its newest tool executions (text: tool name, status: success,
#               data: result summary, extra: error message)
#   file        the newest touched files not modified (goal_id 0), then modified (1)
#   files       per modified flag (goal_id), how many files there are (token_count)
#   archive     finished goals, newest first (data: the archive JSON)
#   checkpoint  the newest checkpoint (extra: its rendered lines, JSON)
# A session with none of these costs one statement that finds nothing.
_ACTIVE_GOAL_ID = "(SELECT id FROM goals WHERE session_id = ?1 AND status = 'active')"
SESSION_STATE_SQL = f"""SELECT 'goal', id, NULL, text, status, token_count, NULL, NULL
    FROM goals WHERE session_id = ?1 AND status = 'active'
UNION ALL SELECT * FROM (SELECT 'subtask', id, goal_id, name, status, token_count, notes, NULL
    FROM subtasks WHERE session_id = ?1 AND goal_id IS {_ACTIVE_GOAL_ID}
    AND status IN ('pending', 'in_progress', 'blocked') ORDER BY id LIMIT ?2)
UNION ALL SELECT * FROM (SELECT 'tool', id, goal_id, tool_name, success, token_count,
        result_summary, error_message
    FROM tool_executions WHERE session_id = ?1 AND goal_id IS {_ACTIVE_GOAL_ID}
    ORDER BY id DESC LIMIT ?3)
UNION ALL SELECT * FROM (SELECT 'file', id, 0, path, NULL, token_count, NULL, NULL
    FROM tracked_files WHERE session_id = ?1 AND modified = 0 ORDER BY seq DESC LIMIT ?4)
UNION ALL SELECT * FROM (SELECT 'file', id, 1, path, NULL, token_count, NULL, NULL
    FROM tracked_files WHERE session_id = ?1 AND modified = 1 ORDER BY seq DESC LIMIT ?5)
UNION ALL SELECT 'files', NULL, modified, NULL, NULL, count(*), NULL, NULL
    FROM tracked_files WHERE session_id = ?1 GROUP BY modified
UNION ALL SELECT * FROM (SELECT 'archive', id, NULL, text, status, archive_tokens, archive, NULL
    FROM goals WHERE session_id = ?1 AND status != 'active' ORDER BY id DESC LIMIT ?6)
UNION ALL SELECT * FROM (SELECT 'checkpoint', id, NULL, NULL, NULL, token_count, NULL, lines
    FROM checkpoints WHERE session_id = ?1 ORDER BY id DESC LIMIT 1)"""

StateRow = tuple[Any, ...]
"""(kind, id, goal_id, text, status, token_count, data, extra): see SESSION_STATE_SQL."""


def session_state(
    conn: sqlite3.Connection,
    session_id: str,
    limits: tuple[int, int, int, int, int],
) -> list[StateRow]:
    """The rows of SESSION_STATE_SQL; ``limits``: subtasks, tools, active files,
    modified files, archives. ``localmem.state`` turns the rows into context lines."""
    params = (session_id, *limits)
    return conn.execute(SESSION_STATE_SQL, params).fetchall()
