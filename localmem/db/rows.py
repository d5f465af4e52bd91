"""What more than one module of ``db/`` shares: each table's row shape and the
statements two of them run (a leaf: it imports no other module of ``db/``).

A table's row shape is its columns, in the order every ``SELECT`` here and in
the table's own module reads them, and the :class:`_RowModels` that turns such
a row into the table's frozen pydantic model. The statements here are those a
table's own module runs and ``db.transfer`` (which reads and writes every table
of a session) runs too, and the fragments several statements embed. Everything
else stays beside the function that runs it, in the table's module: the
modules of ``db/`` import this one and ``connection``, never one another in a
line.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from ..models import (
    Checkpoint, Goal, Item, Message, Pin, Session, Subtask, Summary, SummaryFacts, ToolExecution,
    TrackedFile,
)

ROW_MEMO_SIZE = 4096
ROW_MEMO_MAX_CHARS = 8192


class _RowModels:
    """Rows of one table as frozen pydantic models, memoized by the row's content.

    A context is rebuilt after every write, yet most of its rows are the same
    as last time; models are immutable and the memo is keyed by the whole row
    (id, text and all), so a hit can never be stale. Long texts are not kept.

    ``read`` builds the model of a row read back from the file, bypassing the
    memo. With ``as_stored`` (every column comes back from SQLite as its field's
    type, which the table's affinities and CHECKs guarantee, and the model has
    no other field) it does not validate again what was validated when the row
    was written; else it is ``build``. Rows just written go through ``build``.
    """

    def __init__(
        self,
        model: type,
        columns: str,
        text_column: str | None,
        json_columns: tuple[str, ...] = (),
        *,
        as_stored: bool = False,
    ) -> None:
        self.fields = tuple(columns.split(", "))
        self._model = model
        self._validate = model.__pydantic_validator__.validate_python  # type: ignore[attr-defined]
        self._text = self.fields.index(text_column) if text_column else None
        self._json = json_columns  # stored as JSON text, given to the model decoded
        self.read: Callable[[tuple], Any] = (
            _constructor(model, self.fields) if as_stored else self.build
        )
        self._memo = functools.lru_cache(maxsize=ROW_MEMO_SIZE)(self.read)

    def build(self, row: tuple) -> Any:
        """The model of a row, bypassing the memo (for rows just written)."""
        fields = dict(zip(self.fields, row))
        for column in self._json:
            if fields[column] is not None:
                fields[column] = json.loads(fields[column])
        return self._validate(fields)

    def __call__(self, row: tuple) -> Any:
        """The model of a row read from the file; memoized unless it has no text
        column (``text_column=None``) or its text is long."""
        if self._text is None or len(row[self._text]) > ROW_MEMO_MAX_CHARS:
            return self.read(row)
        return self._memo(row)


def _constructor(model: type, fields: tuple[str, ...]) -> Callable[[tuple], Any]:
    """What pydantic's model_construct leaves, in a third of its time: the fields as
    given, all of them set, no extra, no private attributes; what it looks up bound
    once (a row of recall's candidates costs a third less than through attributes)."""
    names = frozenset(fields)
    new = model.__new__
    set_attribute = object.__setattr__  # the model is frozen

    def construct(row: tuple) -> Any:
        built = new(model)
        set_attribute(built, "__dict__", dict(zip(fields, row)))
        set_attribute(built, "__pydantic_fields_set__", set(names))
        set_attribute(built, "__pydantic_extra__", None)
        set_attribute(built, "__pydantic_private__", None)
        return built

    return construct


# --- sessions ----------------------------------------------------------------

SESSION_COLUMNS = "id, title, model, created_at, updated_at"
_SESSION_ROWS = _RowModels(Session, SESSION_COLUMNS, None)
INSERT_SESSION_SQL = (
    "INSERT INTO sessions (id, title, model, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"
)
# updated_at as read: the later of the session's own record and its newest message.
_LAST_ACTIVITY = """max(s.updated_at, coalesce((SELECT m.created_at FROM messages m
    WHERE m.session_id = s.id ORDER BY m.id DESC LIMIT 1), ''))"""

# --- messages and their items --------------------------------------------------

MESSAGE_COLUMNS = "id, session_id, role, text, model_id, token_count, importance_score, created_at"
# Every column comes back as its field's type: INTEGER, TEXT, REAL (an integer
# written there is read back a float), role CHECKed against the model's roles.
_MESSAGE_ROWS = _RowModels(Message, MESSAGE_COLUMNS, "text", as_stored=True)
# The id after every id ever handed out (m011_message_ids): never a deleted one's.
_NEXT_ID = """max(coalesce((SELECT max(id) FROM messages), 0),
    (SELECT max_id FROM used_ids WHERE name = 'messages')) + 1"""
INSERT_MESSAGE_SQL = f"""INSERT INTO messages
    (id, session_id, role, text, model_id, token_count, importance_score, created_at)
    VALUES ({_NEXT_ID}, ?, ?, ?, ?, ?, ?, ?)"""
MESSAGES_AFTER_SQL = (
    f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND id > ? ORDER BY id LIMIT ?"
)
NEXT_MESSAGE_ID_SQL = f"SELECT {_NEXT_ID}"
ITEM_COLUMNS = "message_id, session_id, kind, data"
_ITEM_ROWS = _RowModels(Item, ITEM_COLUMNS, "data")
INSERT_ITEM_SQL = "INSERT INTO items (message_id, session_id, kind, data) VALUES (?, ?, ?, ?)"

# --- pins --------------------------------------------------------------------

PIN_COLUMNS = (
    "id, session_id, content, source_message_id, importance_score, kind, token_count, created_at,"
    " slot, superseded_at"
)
_PIN_ROWS = _RowModels(Pin, PIN_COLUMNS, "content")
# A session's own pins, current and superseded, and the user's pins learnt from
# one of its messages (an export writes them all).
SESSION_PINS_SQL = f"""SELECT {PIN_COLUMNS} FROM semantic_pins WHERE session_id = ?1
    UNION ALL SELECT {PIN_COLUMNS} FROM semantic_pins WHERE session_id IS NULL
        AND source_message_id IN (SELECT id FROM messages WHERE session_id = ?1)"""

# --- summaries ---------------------------------------------------------------

SUMMARY_COLUMNS = (
    "id, session_id, text, start_message_id, end_message_id, message_count, level, source, "
    "importance_score, token_count, created_at"
)
_SUMMARY_ROWS = _RowModels(Summary, SUMMARY_COLUMNS, "text")
RECENT_SUMMARIES_SQL = f"""SELECT {SUMMARY_COLUMNS} FROM summaries
    WHERE session_id = ? AND level = ? ORDER BY end_message_id DESC LIMIT ?"""

# --- the session's state: goals, subtasks, tools, files, checkpoints, facts ----

GOAL_COLUMNS = "id, session_id, text, status, token_count, archive, archive_tokens, created_at, ended_at"
_GOAL_ROWS = _RowModels(Goal, GOAL_COLUMNS, None, json_columns=("archive",))
GOALS_SQL = f"SELECT {GOAL_COLUMNS} FROM goals WHERE session_id = ? ORDER BY id"
SUBTASK_COLUMNS = (
    "id, session_id, goal_id, name, status, dependencies, notes, token_count, created_at, updated_at"
)
_SUBTASK_ROWS = _RowModels(Subtask, SUBTASK_COLUMNS, None, json_columns=("dependencies",))
# Grouped by goal (goal-less first), in order: the order of the index.
SUBTASKS_SQL = f"SELECT {SUBTASK_COLUMNS} FROM subtasks WHERE session_id = ? ORDER BY goal_id, id"
TOOL_COLUMNS = (
    "id, session_id, goal_id, tool_name, arguments, success, result_summary, error_message, "
    "token_count, created_at"
)
_TOOL_ROWS = _RowModels(ToolExecution, TOOL_COLUMNS, None, json_columns=("arguments",))
TOOLS_SQL = f"SELECT {TOOL_COLUMNS} FROM tool_executions WHERE session_id = ? ORDER BY goal_id, id"
FILE_COLUMNS = "id, session_id, path, modified, seq, token_count, created_at, updated_at"
_FILE_ROWS = _RowModels(TrackedFile, FILE_COLUMNS, None)
# Modified files first, then the others; newest touch first within each.
FILES_SQL = f"""SELECT {FILE_COLUMNS} FROM tracked_files WHERE session_id = ?
    ORDER BY modified DESC, seq DESC"""
CHECKPOINT_COLUMNS = (
    "id, session_id, data, source, through_message_id, token_count, lines, created_at"
)
_CHECKPOINT_ROWS = _RowModels(
    Checkpoint, CHECKPOINT_COLUMNS, "lines", json_columns=("data", "lines")
)
INSERT_CHECKPOINT_SQL = """INSERT INTO checkpoints
    (session_id, data, source, through_message_id, token_count, lines, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)"""
CHECKPOINTS_SQL = f"""SELECT {CHECKPOINT_COLUMNS} FROM checkpoints WHERE session_id = ?
    ORDER BY id DESC LIMIT ?"""
FACTS_COLUMNS = "id, session_id, data, text, source, created_at"
_FACTS_ROWS = _RowModels(SummaryFacts, FACTS_COLUMNS, None, json_columns=("data",))
FACTS_SQL = f"SELECT {FACTS_COLUMNS} FROM summary_facts WHERE session_id = ? ORDER BY id"

# --- the full-text indexes -----------------------------------------------------

SEARCH_TABLES = ("messages", "summaries", "semantic_pins", "summary_facts")
_OPTIMIZE = "INSERT INTO [{0}_fts] ([{0}_fts]) VALUES ('optimize')"
OPTIMIZE_SQL = {table: _OPTIMIZE.format(table) for table in SEARCH_TABLES}
"""Per table: merge its index into one segment (FTS5 'optimize'), leaving out
the entries a 'delete' only marked."""
