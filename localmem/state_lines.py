"""The session state as the context shows it: lines, their groups, and a goal's archive.

Pure (no connection). Each state row's ``token_count`` is the exact count of
the line it renders as (the ``*_line`` functions below), stored when the row
is written (``localmem.state``), so building a context never tokenizes;
:func:`state_groups` turns the rows ``db.session_state`` reads into the
context's groups and the checkpoint's lines (``localmem.packing``), and
:func:`archive_stats` is what a finished goal keeps of its tool runs and
subtasks (origin 000).
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from .models import GoalArchive, Subtask, ToolExecution
from .context import (
    ACTIVE_FILES_HEADING,
    ARCHIVES_HEADING,
    MODIFIED_FILES_HEADING,
    OLDER_FILES,
    SUBTASKS_HEADING,
    TOOLS_HEADING,
    Costs,
)
from .packing import Group, Line

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
    rows: Sequence[tuple[Any, ...]], costs: Costs
) -> tuple[tuple[Group, ...], tuple[Line, ...]]:
    """The rows of ``db.session_state`` (``db.StateRow``) as the state's groups and the
    checkpoint's lines."""
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
