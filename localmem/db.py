"""Every SQL statement localmem runs, next to the code that runs it.

Functions here take an open ``sqlite3.Connection`` and turn rows into the
pydantic models of ``localmem.models``; no other module writes SQL (the DDL
lives in ``localmem.migrations``). Transactions are the caller's: the store
wraps each logical write in ``transaction()``.

Opening a file (``connect``) checks what it is before changing anything: a
text file, another application's SQLite file or a file from a newer
localmem is refused and left byte-for-byte as it was.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from .autopins import pin_key
from .errors import DatabaseError, NotALocalMemDatabase, SchemaTooNew
from .migrations import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from .models import (
    Checkpoint,
    Goal,
    Item,
    Message,
    Pin,
    SearchHit,
    Session,
    Subtask,
    Summary,
    SummaryFacts,
    ToolExecution,
    TrackedFile,
)

SQLITE_HEADER = b"SQLite format 3\x00"
ROW_MEMO_SIZE = 4096
ROW_MEMO_MAX_CHARS = 8192
MEMORY = ":memory:"

# --- opening -----------------------------------------------------------------


def connect(path: str | Path, *, busy_timeout: float, synchronous: str) -> sqlite3.Connection:
    """Open (creating with mode 0600 if needed) and migrate a localmem file.

    Raises :class:`NotALocalMemDatabase`, :class:`SchemaTooNew` or
    :class:`DatabaseError`; in each case the file is not modified.
    """
    if str(path) != MEMORY:
        _create_private_file(Path(path))
    try:
        conn = sqlite3.connect(
            str(path),
            timeout=busy_timeout,
            isolation_level=None,  # we issue BEGIN IMMEDIATE / COMMIT ourselves
            check_same_thread=False,  # the store serialises access with a lock
            cached_statements=512,
        )
    except sqlite3.Error as exc:
        raise DatabaseError(f"cannot open {path}: {exc}") from None
    try:
        version = _identify(conn, path)
        conn.execute("PRAGMA foreign_keys = ON")
        if str(path) != MEMORY:
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute(f"PRAGMA synchronous = {synchronous}")
        if version < SCHEMA_VERSION:
            migrate(conn)
    except sqlite3.Error as exc:
        conn.close()
        raise DatabaseError(f"cannot use {path}: {exc}") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _create_private_file(path: Path, *, exclusive: bool = False) -> None:
    """Create the database file readable by its owner alone, if it is missing.

    SQLite gives the ``-wal`` and ``-shm`` files the database file's mode.
    ``exclusive``: the file must be new (``FileExistsError`` if it is not).
    """
    if path.exists() and not exclusive:
        if path.is_dir():
            raise DatabaseError(f"{path} is a directory, not a database file")
        _check_header(path)
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        if exclusive:
            raise
        return  # another process created it first
    except OSError as exc:
        raise DatabaseError(f"cannot create {path}: {exc.strerror or exc}") from None
    os.close(fd)


def _check_header(path: Path) -> None:
    """Refuse, before SQLite touches it, a file that is not SQLite or is cut short."""
    try:
        with path.open("rb") as f:
            head = f.read(100)
        size = path.stat().st_size
    except OSError as exc:
        raise DatabaseError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not head:
        return  # an empty file becomes a new database
    if head[: len(SQLITE_HEADER)] != SQLITE_HEADER or len(head) < 100:
        raise NotALocalMemDatabase(f"{path} is not an SQLite database; it was left untouched")
    # The header's page size and page count (valid when the two change
    # counters agree) say how long the file must be at least.
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(head[28:32], "big")
    counters_agree = head[24:28] == head[92:96]
    # With a write-ahead log beside it, a short file is normal: a checkpoint
    # cut by a crash writes page 1 first, and SQLite finishes it from the log.
    wal = Path(f"{path}-wal")
    has_log = wal.exists() and wal.stat().st_size > 0
    if counters_agree and not has_log and size < pages * page_size:
        raise NotALocalMemDatabase(
            f"{path} is truncated ({size} of {pages * page_size} bytes); it was left untouched"
        )


def _identify(conn: sqlite3.Connection, path: str | Path) -> int:
    """Return the file's schema version, refusing files that are not ours."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if app_id == 0 and version == 0:
        has_tables = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' LIMIT 1"
        ).fetchone()
        if has_tables:
            raise NotALocalMemDatabase(
                f"{path} is another application's SQLite database; it was left untouched"
            )
        return 0
    if app_id != APPLICATION_ID:
        raise NotALocalMemDatabase(
            f"{path} belongs to another application (application_id {app_id}); "
            "it was left untouched"
        )
    if version > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"{path} has schema version {version}, newer than this localmem's "
            f"{SCHEMA_VERSION}: upgrade localmem to open it"
        )
    return version


def migrate(conn: sqlite3.Connection) -> int:
    """Apply the migrations a file lacks, all in one transaction; return the new version."""
    # m008_auto_pins back-fills content_key with the key new pins get.
    conn.create_function("pin_key", 1, pin_key, deterministic=True)
    with transaction(conn):
        # Read again inside the write lock: another process may have migrated first.
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        for _name, statements in MIGRATIONS[version:]:
            for statement in statements:
                conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return SCHEMA_VERSION


# Transaction control, for the store's hot paths that inline it.
BEGIN_READ_SQL = "BEGIN"
BEGIN_WRITE_SQL = "BEGIN IMMEDIATE"
COMMIT_SQL = "COMMIT"
ROLLBACK_SQL = "ROLLBACK"


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction: ``BEGIN IMMEDIATE`` ... ``COMMIT``, or rollback on error.

    IMMEDIATE takes the write lock up front, so a busy file makes the
    writer wait (up to the busy timeout) instead of failing mid-way.
    """
    conn.execute(BEGIN_WRITE_SQL)
    try:
        yield
    except BaseException:
        conn.execute(ROLLBACK_SQL)
        raise
    conn.execute(COMMIT_SQL)


SCHEMA_SQL = """SELECT sql FROM sqlite_master
WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END, rowid"""


def schema(conn: sqlite3.Connection) -> str:
    """The file's schema as SQL, one statement per paragraph (what ``schema.sql`` holds)."""
    return "".join(row[0] + ";\n\n" for row in conn.execute(SCHEMA_SQL)).rstrip() + "\n"


DATA_VERSION_SQL = "PRAGMA data_version"


def data_version(conn: sqlite3.Connection) -> int:
    """Changes whenever another connection commits to the file."""
    return conn.execute(DATA_VERSION_SQL).fetchone()[0]


class _RowModels:
    """Rows of one table as frozen pydantic models, memoized by the row's content.

    A context is rebuilt after every write, yet most of its rows are the same
    as last time; models are immutable and the memo is keyed by the whole row
    (id, text and all), so a hit can never be stale. Long texts are not kept.
    """

    def __init__(
        self,
        model: type,
        columns: str,
        text_column: str | None,
        json_columns: tuple[str, ...] = (),
    ) -> None:
        self.fields = tuple(columns.split(", "))
        self._validate = model.__pydantic_validator__.validate_python  # type: ignore[attr-defined]
        self._text = self.fields.index(text_column) if text_column else None
        self._json = json_columns  # stored as JSON text, given to the model decoded
        self._memo = functools.lru_cache(maxsize=ROW_MEMO_SIZE)(self.build)

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
            return self.build(row)
        return self._memo(row)


# --- sessions ----------------------------------------------------------------

SESSION_COLUMNS = "id, title, model, created_at, updated_at"
_SESSION_ROWS = _RowModels(Session, SESSION_COLUMNS, None)
INSERT_SESSION_SQL = (
    "INSERT INTO sessions (id, title, model, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"
)
# updated_at as read: the later of the session's own record and its newest message.
_LAST_ACTIVITY = """max(s.updated_at, coalesce((SELECT m.created_at FROM messages m
    WHERE m.session_id = s.id ORDER BY m.id DESC LIMIT 1), ''))"""
GET_SESSION_SQL = (
    f"SELECT s.id, s.title, s.model, s.created_at, {_LAST_ACTIVITY} FROM sessions s WHERE s.id = ?"
)
LIST_SESSIONS_SQL = f"""SELECT s.id, s.title, s.model, s.created_at, {_LAST_ACTIVITY} AS activity
    FROM sessions s ORDER BY activity DESC, s.id"""
EXISTS_SESSION_SQL = "SELECT 1 FROM sessions WHERE id = ?"
TOUCH_SESSION_SQL = "UPDATE sessions SET updated_at = ? WHERE id = ?"
DELETE_SESSION_SQL = "DELETE FROM sessions WHERE id = ?"


def insert_session(
    conn: sqlite3.Connection, session_id: str, title: str | None, model: str | None, now: str
) -> Session:
    conn.execute(INSERT_SESSION_SQL, (session_id, title, model, now, now))
    return _SESSION_ROWS((session_id, title, model, now, now))


def get_session(conn: sqlite3.Connection, session_id: str) -> Session | None:
    row = conn.execute(GET_SESSION_SQL, (session_id,)).fetchone()
    return _SESSION_ROWS(row) if row else None


def session_exists(conn: sqlite3.Connection, session_id: str) -> bool:
    return conn.execute(EXISTS_SESSION_SQL, (session_id,)).fetchone() is not None


def list_sessions(conn: sqlite3.Connection) -> list[Session]:
    return [_SESSION_ROWS(row) for row in conn.execute(LIST_SESSIONS_SQL)]


def touch_session(conn: sqlite3.Connection, session_id: str, now: str) -> bool:
    """Mark a session as updated; False if it does not exist."""
    return conn.execute(TOUCH_SESSION_SQL, (now, session_id)).rowcount == 1


def delete_session(conn: sqlite3.Connection, session_id: str) -> bool:
    """Delete a session; its messages, summaries and pins go with it (ON DELETE CASCADE)."""
    return conn.execute(DELETE_SESSION_SQL, (session_id,)).rowcount == 1


# --- messages ----------------------------------------------------------------

MESSAGE_COLUMNS = "id, session_id, role, text, model_id, token_count, importance_score, created_at"
_MESSAGE_ROWS = _RowModels(Message, MESSAGE_COLUMNS, "text")
INSERT_MESSAGE_SQL = """INSERT INTO messages
    (session_id, role, text, model_id, token_count, importance_score, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)"""
RECENT_MESSAGES_SQL = (
    f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE session_id = ? ORDER BY id DESC LIMIT ?"
)
MESSAGES_AFTER_SQL = (
    f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND id > ? ORDER BY id LIMIT ?"
)

# A message checked and counted, before it is written: (session_id, role, text,
# model_id, token_count, importance_score); the insert adds created_at.
MessageRow = tuple[str, str, str, "str | None", int, float]
NEXT_MESSAGE_ID_SQL = "SELECT coalesce(max(id), 0) + 1 FROM messages"


def insert_message(conn: sqlite3.Connection, row: MessageRow, now: str) -> Message | None:
    """Insert one message, created at ``now``.

    Returns None when the session does not exist (the foreign key refused the row).
    """
    row = (*row, now)
    try:
        cur = conn.execute(INSERT_MESSAGE_SQL, row)
    except sqlite3.IntegrityError as exc:
        if "FOREIGN KEY" in str(exc):
            return None
        raise
    return _MESSAGE_ROWS.build((cur.lastrowid, *row))


def insert_messages(
    conn: sqlite3.Connection, rows: Sequence[MessageRow], now: str
) -> list[Message]:
    """Insert messages in order, all created at ``now``; ids are consecutive
    because the caller holds the write lock."""
    if not rows:
        return []
    rows = [(*row, now) for row in rows]
    # executemany is several times faster than one execute per row; with the
    # write lock held (BEGIN IMMEDIATE) and no deletes in between, INTEGER
    # PRIMARY KEY ids are assigned as max(id)+1, +2, ... in order.
    first = conn.execute(NEXT_MESSAGE_ID_SQL).fetchone()[0]
    conn.executemany(INSERT_MESSAGE_SQL, rows)
    return [_MESSAGE_ROWS.build((first + i, *row)) for i, row in enumerate(rows)]


def recent_messages(conn: sqlite3.Connection, session_id: str, limit: int) -> list[Message]:
    """The newest ``limit`` messages, newest first."""
    return [_MESSAGE_ROWS(row) for row in conn.execute(RECENT_MESSAGES_SQL, (session_id, limit))]


def messages_after(
    conn: sqlite3.Connection, session_id: str, after_id: int, limit: int
) -> list[Message]:
    """Messages with id > ``after_id``, oldest first; ``limit`` -1 means all."""
    return [
        _MESSAGE_ROWS(row) for row in conn.execute(MESSAGES_AFTER_SQL, (session_id, after_id, limit))
    ]


CLEAR_SUMMARIES_SQL = "DELETE FROM summaries WHERE session_id = ?"
CLEAR_MESSAGES_SQL = "DELETE FROM messages WHERE session_id = ?"
DELETE_MESSAGE_SQL = "DELETE FROM messages WHERE id = ?"
# Summaries (of either level) whose range holds a message that is deleted.
DELETE_COVERING_SUMMARIES_SQL = """DELETE FROM summaries
    WHERE session_id = ?1 AND start_message_id <= ?2 AND end_message_id >= ?2"""


def clear_messages(conn: sqlite3.Connection, session_id: str) -> int:
    """Delete a session's messages (their items with them) and its summaries; return how many.

    Pins stay, their ``source_message_id`` set to NULL by the foreign key.
    """
    conn.execute(CLEAR_SUMMARIES_SQL, (session_id,))
    return conn.execute(CLEAR_MESSAGES_SQL, (session_id,)).rowcount


def delete_message(conn: sqlite3.Connection, session_id: str, message_id: int) -> None:
    """Delete one message (and its item), and the summaries whose range holds it.

    A summary that covered it no longer says what the session holds; dropping
    it makes its messages uncovered again, so the next summary is written
    from what is left (even when SQLite hands the freed id to a new message).
    """
    conn.execute(DELETE_COVERING_SUMMARIES_SQL, (session_id, message_id))
    conn.execute(DELETE_MESSAGE_SQL, (message_id,))


# --- items -------------------------------------------------------------------

ITEM_COLUMNS = "message_id, session_id, kind, data"
_ITEM_ROWS = _RowModels(Item, ITEM_COLUMNS, "data")
INSERT_ITEM_SQL = "INSERT INTO items (message_id, session_id, kind, data) VALUES (?, ?, ?, ?)"
ITEMS_AFTER_SQL = f"""SELECT {ITEM_COLUMNS} FROM items
    WHERE session_id = ? AND kind = ? AND message_id > ? ORDER BY message_id"""
NEWEST_ITEMS_SQL = f"""SELECT {ITEM_COLUMNS} FROM items
    WHERE session_id = ? AND kind = ? AND message_id > ? ORDER BY message_id DESC LIMIT ?"""


def insert_items(
    conn: sqlite3.Connection,
    session_id: str,
    kind: str,
    messages: Sequence[Message],
    data: Sequence[str],
) -> None:
    """Insert one item per message just inserted, in the same order."""
    conn.executemany(INSERT_ITEM_SQL, [(m.id, session_id, kind, d) for m, d in zip(messages, data)])


def items_after(conn: sqlite3.Connection, session_id: str, kind: str, after_id: int) -> list[Item]:
    """A session's items of ``kind`` after message ``after_id``, oldest first."""
    return [_ITEM_ROWS(row) for row in conn.execute(ITEMS_AFTER_SQL, (session_id, kind, after_id))]


def newest_items(
    conn: sqlite3.Connection, session_id: str, kind: str, after_id: int, limit: int
) -> list[Item]:
    """The newest ``limit`` items of ``kind`` after message ``after_id``, newest first."""
    return [
        _ITEM_ROWS(row) for row in conn.execute(NEWEST_ITEMS_SQL, (session_id, kind, after_id, limit))
    ]


# --- pins --------------------------------------------------------------------

PIN_COLUMNS = (
    "id, session_id, content, source_message_id, importance_score, kind, token_count, created_at"
)
_PIN_ROWS = _RowModels(Pin, PIN_COLUMNS, "content")
INSERT_PIN_SQL = """INSERT INTO semantic_pins (session_id, content, content_key, source_message_id,
    importance_score, kind, token_count, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"""
# An auto pin, unless a pin of its session (either kind) has its key.
INSERT_AUTO_PIN_SQL = """INSERT OR IGNORE INTO semantic_pins (session_id, content, content_key,
    source_message_id, importance_score, kind, token_count, created_at)
    SELECT ?1, ?2, ?3, ?4, ?5, 'auto', ?6, ?7
    WHERE NOT EXISTS (SELECT 1 FROM semantic_pins WHERE session_id = ?1 AND content_key = ?3)"""
TOP_PINS_SQL = f"""SELECT {PIN_COLUMNS} FROM semantic_pins WHERE session_id = ?
    ORDER BY importance_score DESC, id DESC LIMIT ?"""
KIND_PINS_SQL = f"""SELECT {PIN_COLUMNS} FROM semantic_pins WHERE session_id = ? AND kind = ?
    ORDER BY importance_score DESC, id DESC"""
GET_PIN_SQL = f"SELECT {PIN_COLUMNS} FROM semantic_pins WHERE id = ?"
KEYED_PIN_SQL = f"""SELECT {PIN_COLUMNS} FROM semantic_pins
    WHERE session_id = ? AND content_key = ? AND kind = ? AND id != ? ORDER BY id LIMIT 1"""
UPDATE_PIN_SQL = """UPDATE semantic_pins
    SET content = ?, content_key = ?, importance_score = ?, token_count = ? WHERE id = ?"""
DELETE_PIN_SQL = "DELETE FROM semantic_pins WHERE id = ?"
DELETE_AUTO_KEYED_PINS_SQL = """DELETE FROM semantic_pins
    WHERE session_id = ? AND content_key = ? AND kind = 'auto'"""
MESSAGE_SESSION_SQL = "SELECT session_id FROM messages WHERE id = ?"
PIN_SESSION_SQL = "SELECT session_id FROM semantic_pins WHERE id = ?"

# A pin to write automatically: (content, content_key, token_count).
AutoPin = tuple[str, str, int]


def insert_pin(
    conn: sqlite3.Connection,
    session_id: str,
    content: str,
    source_message_id: int | None,
    importance: float,
    kind: str,
    token_count: int,
    now: str,
) -> Pin:
    key = pin_key(content)
    row = (session_id, content, key, source_message_id, importance, kind, token_count, now)
    cur = conn.execute(INSERT_PIN_SQL, row)
    return _PIN_ROWS.build((cur.lastrowid, *row[:2], *row[3:]))


def insert_auto_pins(
    conn: sqlite3.Connection,
    session_id: str,
    source_message_id: int | None,
    pins: Sequence[AutoPin],
    importance: float,
    now: str,
) -> int:
    """Insert auto pins whose key no pin of the session has yet; return how many were new."""
    rows = [
        (session_id, content, key, source_message_id, importance, tokens, now)
        for content, key, tokens in pins
    ]
    return conn.executemany(INSERT_AUTO_PIN_SQL, rows).rowcount


def keyed_pin(
    conn: sqlite3.Connection, session_id: str, key: str, kind: str, besides: int | None = None
) -> Pin | None:
    """The session's oldest pin of ``kind`` whose content_key is ``key`` (other than
    pin ``besides``), if any."""
    row = conn.execute(KEYED_PIN_SQL, (session_id, key, kind, besides or 0)).fetchone()
    return _PIN_ROWS(row) if row else None


def delete_auto_pins(conn: sqlite3.Connection, session_id: str, key: str) -> int:
    """Delete the session's auto pins whose content_key is ``key``; return how many."""
    return conn.execute(DELETE_AUTO_KEYED_PINS_SQL, (session_id, key)).rowcount


def get_pin(conn: sqlite3.Connection, pin_id: int) -> Pin | None:
    row = conn.execute(GET_PIN_SQL, (pin_id,)).fetchone()
    return _PIN_ROWS(row) if row else None


def update_pin(
    conn: sqlite3.Connection, pin: Pin, content: str, importance: float, token_count: int
) -> Pin:
    """Rewrite a pin's content (re-keyed), importance and token count; its kind stays."""
    conn.execute(UPDATE_PIN_SQL, (content, pin_key(content), importance, token_count, pin.id))
    return pin.model_copy(
        update={"content": content, "importance_score": importance, "token_count": token_count}
    )


def kind_pins(conn: sqlite3.Connection, session_id: str, kind: str) -> list[Pin]:
    """A session's pins of one kind, by importance, newest first on ties."""
    return [_PIN_ROWS(row) for row in conn.execute(KIND_PINS_SQL, (session_id, kind))]


def top_pins(conn: sqlite3.Connection, session_id: str, limit: int) -> list[Pin]:
    """Pins by importance, newest first on ties; ``limit`` -1 means all."""
    return [_PIN_ROWS(row) for row in conn.execute(TOP_PINS_SQL, (session_id, limit))]


def message_session(conn: sqlite3.Connection, message_id: int) -> str | None:
    row = conn.execute(MESSAGE_SESSION_SQL, (message_id,)).fetchone()
    return row[0] if row else None


def pin_session(conn: sqlite3.Connection, pin_id: int) -> str | None:
    row = conn.execute(PIN_SESSION_SQL, (pin_id,)).fetchone()
    return row[0] if row else None


def delete_pin(conn: sqlite3.Connection, pin_id: int) -> bool:
    return conn.execute(DELETE_PIN_SQL, (pin_id,)).rowcount == 1


# --- summaries ---------------------------------------------------------------

SUMMARY_COLUMNS = (
    "id, session_id, text, start_message_id, end_message_id, message_count, level, source, "
    "importance_score, token_count, created_at"
)
_SUMMARY_ROWS = _RowModels(Summary, SUMMARY_COLUMNS, "text")
RECENT_SUMMARIES_SQL = f"""SELECT {SUMMARY_COLUMNS} FROM summaries
    WHERE session_id = ? AND level = ? ORDER BY end_message_id DESC LIMIT ?"""
# The context's summaries in one statement: the newest rollup (level 2, which
# reaches back to the session's start) and the newest level-1 summaries.
CONTEXT_SUMMARIES_SQL = f"""SELECT * FROM (SELECT {SUMMARY_COLUMNS} FROM summaries
    WHERE session_id = ?1 AND level = 2 ORDER BY end_message_id DESC LIMIT 1)
UNION ALL SELECT * FROM (SELECT {SUMMARY_COLUMNS} FROM summaries
    WHERE session_id = ?1 AND level = 1 ORDER BY end_message_id DESC LIMIT ?2)"""
LAST_COVERED_SQL = (
    "SELECT coalesce(max(end_message_id), 0) FROM summaries WHERE session_id = ? AND level = ?"
)
SUMMARIES_AFTER_SQL = f"""SELECT {SUMMARY_COLUMNS} FROM summaries
    WHERE session_id = ? AND level = ? AND end_message_id > ? ORDER BY end_message_id"""
OVERLAP_SQL = """SELECT 1 FROM summaries WHERE session_id = ? AND level = ?
    AND end_message_id >= ? AND start_message_id <= ? LIMIT 1"""
INSERT_SUMMARY_SQL = """INSERT INTO summaries
    (session_id, text, start_message_id, end_message_id, message_count, level, source,
     importance_score, token_count, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"""
GET_CACHED_SUMMARY_SQL = "SELECT text FROM summary_cache WHERE key = ?"
PUT_CACHED_SUMMARY_SQL = """INSERT OR IGNORE INTO summary_cache (key, model, text, created_at)
    VALUES (?, ?, ?, ?)"""
RECORD_TOKENS_SQL = """INSERT INTO model_token_stats
    (model, local_tokens, model_tokens, calls, updated_at) VALUES (?, ?, ?, 1, ?)
    ON CONFLICT (model) DO UPDATE SET local_tokens = local_tokens + excluded.local_tokens,
    model_tokens = model_tokens + excluded.model_tokens, calls = calls + 1,
    updated_at = excluded.updated_at"""
# A session's model may be named without its tag ("llama3.2" for "llama3.2:latest").
_RATIO_OF = "(SELECT 1.0 * model_tokens / local_tokens FROM model_token_stats WHERE model = {})"
MODEL_RATIO_SQL = "SELECT coalesce({}, {})".format(
    _RATIO_OF.format("?1"), _RATIO_OF.format("?1 || ':latest'")
)
# What the context builder needs to know of a session, in one lookup: its
# model's ratio and its compaction level (0 once a message is newer than the
# compaction: the user picked the session up again).
SESSION_PROFILE_SQL = """SELECT s.model, coalesce({}, {}), coalesce((SELECT c.level
        FROM session_compaction c WHERE c.session_id = s.id
        AND c.through_message_id >= (SELECT coalesce(max(m.id), 0) FROM messages m
            WHERE m.session_id = s.id)), 0)
    FROM sessions s WHERE s.id = ?""".format(
    _RATIO_OF.format("s.model"), _RATIO_OF.format("s.model || ':latest'")
)


def recent_summaries(
    conn: sqlite3.Connection, session_id: str, limit: int, level: int = 1
) -> list[Summary]:
    """The summaries of one level covering the newest ranges, newest first."""
    return [_SUMMARY_ROWS(row) for row in conn.execute(RECENT_SUMMARIES_SQL, (session_id, level, limit))]


def context_summaries(conn: sqlite3.Connection, session_id: str, limit: int) -> list[Summary]:
    """The newest rollup and the newest ``limit`` level-1 summaries it does not cover, newest first."""
    rows = [_SUMMARY_ROWS(row) for row in conn.execute(CONTEXT_SUMMARIES_SQL, (session_id, limit))]
    rollup = rows[0] if rows and rows[0].level == 2 else None
    if rollup is None:
        return rows
    return [s for s in rows[1:] if s.end_message_id > rollup.end_message_id] + [rollup]


def last_covered(conn: sqlite3.Connection, session_id: str, level: int = 1) -> int:
    """The highest message id covered by a summary of ``level`` (0 if none)."""
    return conn.execute(LAST_COVERED_SQL, (session_id, level)).fetchone()[0]


def summaries_after(
    conn: sqlite3.Connection, session_id: str, level: int, after_id: int
) -> list[Summary]:
    """Summaries of ``level`` ending after message ``after_id``, oldest first."""
    return [_SUMMARY_ROWS(r) for r in conn.execute(SUMMARIES_AFTER_SQL, (session_id, level, after_id))]


def insert_summary(
    conn: sqlite3.Connection,
    session_id: str,
    text: str,
    start: int,
    end: int,
    message_count: int,
    level: int,
    source: str,
    importance: float,
    token_count: int,
    now: str,
) -> Summary | None:
    """Insert a summary unless one of the same level already overlaps its range.

    Call inside a write transaction: the check and the insert then see the
    same state, so two processes can never store overlapping ranges.
    """
    if conn.execute(OVERLAP_SQL, (session_id, level, start, end)).fetchone():
        return None
    row = (session_id, text, start, end, message_count, level, source, importance, token_count, now)
    cur = conn.execute(INSERT_SUMMARY_SQL, row)
    return _SUMMARY_ROWS((cur.lastrowid, *row))


def cached_summary(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute(GET_CACHED_SUMMARY_SQL, (key,)).fetchone()
    return row[0] if row else None


def cache_summary(conn: sqlite3.Connection, key: str, model: str, text: str, now: str) -> None:
    conn.execute(PUT_CACHED_SUMMARY_SQL, (key, model, text, now))


def record_tokens(
    conn: sqlite3.Connection, model: str, local_tokens: int, model_tokens: int, now: str
) -> None:
    """Add one call's prompt sizes (ours in cl100k, the model's own) to the model's totals."""
    conn.execute(RECORD_TOKENS_SQL, (model, local_tokens, model_tokens, now))


def model_ratio(conn: sqlite3.Connection, model: str) -> float | None:
    """The model's tokens per cl100k token, learnt from its calls; None if never measured."""
    return conn.execute(MODEL_RATIO_SQL, (model,)).fetchone()[0]


def session_profile(
    conn: sqlite3.Connection, session_id: str
) -> tuple[bool, float | None, int]:
    """(session exists, its model's token ratio or None, its compaction level) in one lookup."""
    row = conn.execute(SESSION_PROFILE_SQL, (session_id,)).fetchone()
    return (True, row[1], row[2]) if row else (False, None, 0)


# --- compaction by age (store.maintain) -------------------------------------------

# Every session with what maintenance needs: its last activity (as
# Session.updated_at), its recorded compaction and its newest message id.
COMPACTION_CANDIDATES_SQL = f"""SELECT s.id, {_LAST_ACTIVITY}, c.level, c.through_message_id,
        (SELECT coalesce(max(m.id), 0) FROM messages m WHERE m.session_id = s.id)
    FROM sessions s LEFT JOIN session_compaction c ON c.session_id = s.id ORDER BY s.id"""
RECORD_COMPACTION_SQL = """INSERT INTO session_compaction
    (session_id, level, through_message_id, compacted_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (session_id) DO UPDATE SET level = excluded.level,
    through_message_id = excluded.through_message_id, compacted_at = excluded.compacted_at"""

CompactionCandidate = tuple[str, str, int | None, int | None, int]
"""(session id, last activity, recorded level, its through_message_id, newest message id)."""


def compaction_candidates(conn: sqlite3.Connection) -> list[CompactionCandidate]:
    return conn.execute(COMPACTION_CANDIDATES_SQL).fetchall()


def record_compaction(
    conn: sqlite3.Connection, session_id: str, level: int, through_message_id: int, now: str
) -> None:
    conn.execute(RECORD_COMPACTION_SQL, (session_id, level, through_message_id, now))


# --- full-text search ----------------------------------------------------------
#
# Each searched table has an FTS5 index ``<table>_fts`` over the view
# ``<table>_fts_source`` (text, session_key) and a high-water mark in
# search_state: rows with id <= indexed_to are indexed, rows above are not yet
# (migration m004_search says why). ``catch_up`` indexes the rows above the
# mark; call it in a write transaction and match in that same transaction.

SEARCH_TABLES = ("messages", "summaries", "semantic_pins", "summary_facts")
_INDEX_LAG = """SELECT indexed_to, (SELECT coalesce(max(id), 0) FROM {0})
    FROM search_state WHERE name = '{0}'"""
_CATCH_UP = """INSERT INTO {0}_fts (rowid, text, session_key)
    SELECT id, text, session_key FROM {0}_fts_source WHERE id > ? AND id <= ?"""
_MARK_INDEXED = "UPDATE search_state SET indexed_to = ? WHERE name = '{0}'"
_OPTIMIZE = "INSERT INTO {0}_fts ({0}_fts) VALUES ('optimize')"
MESSAGES_INDEX_LAG_SQL = _INDEX_LAG.format("messages")
SUMMARIES_INDEX_LAG_SQL = _INDEX_LAG.format("summaries")
PINS_INDEX_LAG_SQL = _INDEX_LAG.format("semantic_pins")
FACTS_INDEX_LAG_SQL = _INDEX_LAG.format("summary_facts")
MESSAGES_CATCH_UP_SQL = _CATCH_UP.format("messages")
SUMMARIES_CATCH_UP_SQL = _CATCH_UP.format("summaries")
PINS_CATCH_UP_SQL = _CATCH_UP.format("semantic_pins")
FACTS_CATCH_UP_SQL = _CATCH_UP.format("summary_facts")
MESSAGES_MARK_INDEXED_SQL = _MARK_INDEXED.format("messages")
SUMMARIES_MARK_INDEXED_SQL = _MARK_INDEXED.format("summaries")
PINS_MARK_INDEXED_SQL = _MARK_INDEXED.format("semantic_pins")
FACTS_MARK_INDEXED_SQL = _MARK_INDEXED.format("summary_facts")
MESSAGES_OPTIMIZE_SQL = _OPTIMIZE.format("messages")
SUMMARIES_OPTIMIZE_SQL = _OPTIMIZE.format("summaries")
PINS_OPTIMIZE_SQL = _OPTIMIZE.format("semantic_pins")
FACTS_OPTIMIZE_SQL = _OPTIMIZE.format("summary_facts")
_INDEX_SQL = {
    "messages": (
        MESSAGES_INDEX_LAG_SQL,
        MESSAGES_CATCH_UP_SQL,
        MESSAGES_MARK_INDEXED_SQL,
        MESSAGES_OPTIMIZE_SQL,
    ),
    "summaries": (
        SUMMARIES_INDEX_LAG_SQL,
        SUMMARIES_CATCH_UP_SQL,
        SUMMARIES_MARK_INDEXED_SQL,
        SUMMARIES_OPTIMIZE_SQL,
    ),
    "semantic_pins": (
        PINS_INDEX_LAG_SQL,
        PINS_CATCH_UP_SQL,
        PINS_MARK_INDEXED_SQL,
        PINS_OPTIMIZE_SQL,
    ),
    "summary_facts": (
        FACTS_INDEX_LAG_SQL,
        FACTS_CATCH_UP_SQL,
        FACTS_MARK_INDEXED_SQL,
        FACTS_OPTIMIZE_SQL,
    ),
}
OPTIMIZE_MIN_ROWS = 1000
"""A catch-up of at least this many rows, and of half the table or more, ends
by merging the index into one segment (FTS5 'optimize'): bulk indexing leaves
several large segments, and FTS5 would otherwise merge them later, hundreds of
milliseconds at a time, inside some search; and each segment adds to the cost
of every query."""


def index_behind(conn: sqlite3.Connection, tables: Sequence[str]) -> bool:
    """True when a row of ``tables`` is not in the search index yet (two lookups per table)."""
    for table in tables:
        indexed, newest = conn.execute(_INDEX_SQL[table][0]).fetchone()
        if newest != indexed:
            return True
    return False


def catch_up(conn: sqlite3.Connection, tables: Sequence[str]) -> int:
    """Index every row of ``tables`` above the high-water mark; return how many.

    Call inside a write transaction, so that no row can commit in between.
    """
    indexed_rows = 0
    for table in tables:
        lag_sql, catch_up_sql, mark_sql, optimize_sql = _INDEX_SQL[table]
        indexed, newest = conn.execute(lag_sql).fetchone()
        if newest > indexed:
            rows = conn.execute(catch_up_sql, (indexed, newest)).rowcount
            if rows >= OPTIMIZE_MIN_ROWS and 2 * rows >= newest:
                conn.execute(optimize_sql)
            indexed_rows += rows
        if newest != indexed:
            conn.execute(mark_sql, (newest,))
    return indexed_rows


# How many messages hold a term, counting no further than the limit: a common
# term's document list is long, and reading all of it costs milliseconds.
TERM_DOCS_SQL = """SELECT count(*) FROM
    (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT ?)"""
# The same over messages, summaries (their facts too) and pins, each count capped.
TERM_DOCS_ALL_SQL = """SELECT
    (SELECT count(*) FROM (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ?1 LIMIT ?2))
    + (SELECT count(*) FROM (SELECT 1 FROM summaries_fts WHERE summaries_fts MATCH ?1 LIMIT ?2))
    + (SELECT count(*) FROM
        (SELECT 1 FROM semantic_pins_fts WHERE semantic_pins_fts MATCH ?1 LIMIT ?2))
    + (SELECT count(*) FROM
        (SELECT 1 FROM summary_facts_fts WHERE summary_facts_fts MATCH ?1 LIMIT ?2))"""


def term_docs(conn: sqlite3.Connection, match: str, cap: int, *, everywhere: bool = False) -> int:
    """The number of messages matching ``match``, or ``cap`` if there are at least that many.

    ``everywhere`` counts summaries and pins too (each count capped).
    """
    sql = TERM_DOCS_ALL_SQL if everywhere else TERM_DOCS_SQL
    return conn.execute(sql, (match, cap)).fetchone()[0]


# BM25 with the session_key column weighted 0: only the text ranks. The FTS5
# table sorts by rank itself and stops at the LIMIT; the join reads the rows.
_RANK = "rank MATCH 'bm25(1.0, 0.0)'"
_M_MESSAGE_COLUMNS = ", ".join("m." + column for column in MESSAGE_COLUMNS.split(", "))
RELEVANT_MESSAGES_SQL = f"""SELECT {_M_MESSAGE_COLUMNS}, hit_rank
    FROM (SELECT rowid AS hit_id, rank AS hit_rank FROM messages_fts
        WHERE messages_fts MATCH ?1 AND rowid < ?2 AND {_RANK} ORDER BY rank LIMIT ?3)
    JOIN messages m ON m.id = hit_id WHERE m.session_id = ?4"""


def relevant_messages(
    conn: sqlite3.Connection, session_id: str, match: str, before_id: int, limit: int
) -> list[Message]:
    """The session's messages older than ``before_id`` matching ``match``, best first.

    ``match`` must carry the session's key; the join checks the session too.
    """
    rows = conn.execute(RELEVANT_MESSAGES_SQL, (match, before_id, limit, session_id)).fetchall()
    rows.sort(key=lambda row: row[-1])  # a join's order is not guaranteed; rank: lower is better
    return [_MESSAGE_ROWS(row[:-1]) for row in rows]


SNIPPET_START = "["
SNIPPET_END = "]"
SNIPPET_ELLIPSIS = "…"
SNIPPET_TOKENS = 24
_HITS = """SELECT '{kind}', t.id, t.session_id, t.{text}, -hit_rank, hit_snippet
    FROM (SELECT rowid AS hit_id, rank AS hit_rank,
            snippet({table}_fts, 0, ?2, ?3, ?4, ?5) AS hit_snippet
        FROM {table}_fts WHERE {table}_fts MATCH ?1 AND {rank} ORDER BY rank LIMIT ?6)
    JOIN {table} t ON t.id = hit_id WHERE ?7 IS NULL OR t.session_id = ?7"""
SEARCH_MESSAGES_SQL = _HITS.format(kind="message", table="messages", text="text", rank=_RANK)
SEARCH_SUMMARIES_SQL = _HITS.format(kind="summary", table="summaries", text="text", rank=_RANK)
SEARCH_PINS_SQL = _HITS.format(kind="pin", table="semantic_pins", text="content", rank=_RANK)
# A summary found by its facts: the hit is the summary, the snippet from its facts.
SEARCH_FACTS_SQL = f"""SELECT 'summary', s.id, s.session_id, s.text, -hit_rank, hit_snippet
    FROM (SELECT rowid AS hit_id, rank AS hit_rank,
            snippet(summary_facts_fts, 0, ?2, ?3, ?4, ?5) AS hit_snippet
        FROM summary_facts_fts WHERE summary_facts_fts MATCH ?1 AND {_RANK} ORDER BY rank LIMIT ?6)
    JOIN summaries s ON s.id = hit_id WHERE ?7 IS NULL OR s.session_id = ?7"""
_HIT_ROWS = _RowModels(SearchHit, "kind, id, session_id, text, score, snippet", None)


def search(
    conn: sqlite3.Connection, match: str, session_id: str | None, limit: int
) -> list[SearchHit]:
    """The best ``limit`` messages, summaries and pins matching ``match``, best first.

    A summary matches by its text or by its facts (one hit, the better of the
    two). With ``session_id``, ``match`` must carry that session's key.
    """
    best: dict[tuple[str, int], SearchHit] = {}
    snippet = (SNIPPET_START, SNIPPET_END, SNIPPET_ELLIPSIS, SNIPPET_TOKENS)
    params = (match, *snippet, limit, session_id)
    for sql in (SEARCH_MESSAGES_SQL, SEARCH_SUMMARIES_SQL, SEARCH_PINS_SQL, SEARCH_FACTS_SQL):
        for row in conn.execute(sql, params):
            hit = _HIT_ROWS(row)
            seen = best.get((hit.kind, hit.id))
            if seen is None or hit.score > seen.score:
                best[(hit.kind, hit.id)] = hit
    hits = sorted(best.values(), key=lambda h: -h.score)
    return hits[:limit]


# --- export / import -----------------------------------------------------------
#
# ``localmem.transfer`` exports a session by reading all its rows inside one
# read transaction (``session_rows``) and imports one inside one write
# transaction, keeping every column as the export has it: timestamps, token
# counts, scores, sources and levels are never recomputed. Reads reuse each
# table's queries but build their models past the row memo: an export reads
# every row once, and memoizing them would evict the rows contexts reuse.
# Pins, summaries, facts and tool executions are written by their usual
# inserts, which take every column; the rest have their own below.

# Every session, oldest first: an export reads the whole table anyway.
SESSION_IDS_SQL = "SELECT id FROM sessions ORDER BY created_at, rowid"
# The stored row (GET_SESSION_SQL reads updated_at as the last activity).
SESSION_ROW_SQL = f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?"
# Every kind, in the order of the index.
SESSION_ITEMS_SQL = f"SELECT {ITEM_COLUMNS} FROM items WHERE session_id = ? ORDER BY kind, message_id"
IMPORT_GOAL_SQL = """INSERT INTO goals
    (session_id, text, status, token_count, archive, archive_tokens, created_at, ended_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)"""
IMPORT_SUBTASK_SQL = """INSERT INTO subtasks
    (session_id, goal_id, name, status, dependencies, notes, token_count, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"""
IMPORT_FILE_SQL = """INSERT INTO tracked_files
    (session_id, path, modified, seq, token_count, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)"""


class SessionRows(NamedTuple):
    """Every row of one session, each table oldest (lowest id) first."""

    session: Session
    messages: list[Message]
    items: list[Item]
    pins: list[Pin]
    summaries: list[Summary]
    facts: list[SummaryFacts]
    goals: list[Goal]
    subtasks: list[Subtask]
    tools: list[ToolExecution]
    files: list[TrackedFile]
    checkpoints: list[Checkpoint]


def session_ids(conn: sqlite3.Connection) -> list[str]:
    """Every session's id, oldest first."""
    return [row[0] for row in conn.execute(SESSION_IDS_SQL)]


def session_rows(conn: sqlite3.Connection, session_id: str) -> SessionRows | None:
    """Every row of a session (None if there is none); read-only.

    Call inside a read transaction: the rows are then one consistent snapshot.
    """
    row = conn.execute(SESSION_ROW_SQL, (session_id,)).fetchone()
    if row is None:
        return None

    def read(rows: _RowModels, sql: str, *params: object) -> list:
        return [rows.build(r) for r in conn.execute(sql, (session_id, *params))]

    def by_id(models: list) -> list:
        return sorted(models, key=lambda m: m.id)

    return SessionRows(
        session=_SESSION_ROWS.build(row),
        messages=read(_MESSAGE_ROWS, MESSAGES_AFTER_SQL, 0, -1),
        items=sorted(read(_ITEM_ROWS, SESSION_ITEMS_SQL), key=lambda i: i.message_id),
        pins=by_id(read(_PIN_ROWS, TOP_PINS_SQL, -1)),
        summaries=by_id(
            read(_SUMMARY_ROWS, RECENT_SUMMARIES_SQL, 1, -1)
            + read(_SUMMARY_ROWS, RECENT_SUMMARIES_SQL, 2, -1)
        ),
        facts=read(_FACTS_ROWS, FACTS_SQL),
        goals=read(_GOAL_ROWS, GOALS_SQL),
        subtasks=by_id(read(_SUBTASK_ROWS, SUBTASKS_SQL)),
        tools=by_id(read(_TOOL_ROWS, TOOLS_SQL)),
        files=by_id(read(_FILE_ROWS, FILES_SQL)),
        checkpoints=by_id(read(_CHECKPOINT_ROWS, CHECKPOINTS_SQL, -1)),
    )


def import_session(
    conn: sqlite3.Connection, row: tuple[str, str | None, str | None, str, str]
) -> None:
    """Insert a session as it was: (id, title, model, created_at, updated_at)."""
    conn.execute(INSERT_SESSION_SQL, row)


def import_messages(conn: sqlite3.Connection, rows: Sequence[tuple]) -> int:
    """Insert messages in order, each row every column but the id; return the
    first one's id. The others follow it one by one (see ``insert_messages``)."""
    first = conn.execute(NEXT_MESSAGE_ID_SQL).fetchone()[0]
    conn.executemany(INSERT_MESSAGE_SQL, rows)
    return first


def import_items(conn: sqlite3.Connection, rows: Sequence[tuple[int, str, str, str]]) -> None:
    """Insert items: (message_id, session_id, kind, data)."""
    conn.executemany(INSERT_ITEM_SQL, rows)


def import_goal(conn: sqlite3.Connection, row: tuple) -> int:
    """Insert a goal, every column but the id (``archive`` as JSON text); return its id."""
    return conn.execute(IMPORT_GOAL_SQL, row).lastrowid  # type: ignore[return-value]


def import_subtask(conn: sqlite3.Connection, row: tuple) -> int:
    """Insert a subtask, every column but the id (``dependencies`` as JSON text); return its id."""
    return conn.execute(IMPORT_SUBTASK_SQL, row).lastrowid  # type: ignore[return-value]


def import_file(conn: sqlite3.Connection, row: tuple) -> None:
    """Insert a tracked file, every column but the id (its ``seq`` kept)."""
    conn.execute(IMPORT_FILE_SQL, row)


def import_checkpoint(conn: sqlite3.Connection, row: tuple) -> None:
    """Insert a checkpoint, every column but the id (``data`` and ``lines`` as
    JSON text); unlike ``insert_checkpoint``, nothing is pruned or recounted."""
    conn.execute(INSERT_CHECKPOINT_SQL, row)


# --- session state -------------------------------------------------------------
#
# Goals, subtasks, tool executions, tracked files, checkpoints and summary
# facts (migration m005_session_state). JSON columns are parsed here, so the
# models carry dicts and lists. ``token_count`` is the count of the line a row
# renders as (``localmem.state``), passed in by the caller.

GOAL_COLUMNS = "id, session_id, text, status, token_count, archive, archive_tokens, created_at, ended_at"
_GOAL_ROWS = _RowModels(Goal, GOAL_COLUMNS, None, json_columns=("archive",))
INSERT_GOAL_SQL = """INSERT INTO goals (session_id, text, status, token_count, created_at)
    VALUES (?, ?, 'active', ?, ?)"""
ACTIVE_GOAL_SQL = f"SELECT {GOAL_COLUMNS} FROM goals WHERE session_id = ? AND status = 'active'"
GOALS_SQL = f"SELECT {GOAL_COLUMNS} FROM goals WHERE session_id = ? ORDER BY id"
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


SUBTASK_COLUMNS = (
    "id, session_id, goal_id, name, status, dependencies, notes, token_count, created_at, updated_at"
)
_SUBTASK_ROWS = _RowModels(Subtask, SUBTASK_COLUMNS, None, json_columns=("dependencies",))
INSERT_SUBTASK_SQL = """INSERT INTO subtasks
    (session_id, goal_id, name, status, dependencies, notes, token_count, created_at, updated_at)
    VALUES (?, ?, ?, 'pending', ?, NULL, ?, ?, ?)"""
GET_SUBTASK_SQL = f"SELECT {SUBTASK_COLUMNS} FROM subtasks WHERE id = ?"
SUBTASK_SESSION_SQL = "SELECT session_id FROM subtasks WHERE id = ?"
UPDATE_SUBTASK_SQL = """UPDATE subtasks SET status = ?, notes = ?, token_count = ?, updated_at = ?
    WHERE id = ?"""
# Grouped by goal (goal-less first), in order: the order of the index.
SUBTASKS_SQL = f"SELECT {SUBTASK_COLUMNS} FROM subtasks WHERE session_id = ? ORDER BY goal_id, id"
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


TOOL_COLUMNS = (
    "id, session_id, goal_id, tool_name, arguments, success, result_summary, error_message, "
    "token_count, created_at"
)
_TOOL_ROWS = _RowModels(ToolExecution, TOOL_COLUMNS, None, json_columns=("arguments",))
INSERT_TOOL_SQL = """INSERT INTO tool_executions
    (session_id, goal_id, tool_name, arguments, success, result_summary, error_message,
     token_count, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"""
TOOLS_SQL = f"SELECT {TOOL_COLUMNS} FROM tool_executions WHERE session_id = ? ORDER BY goal_id, id"
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


FILE_COLUMNS = "id, session_id, path, modified, seq, token_count, created_at, updated_at"
_FILE_ROWS = _RowModels(TrackedFile, FILE_COLUMNS, None)
# A touch moves the file to the front; once modified, it stays modified.
TRACK_FILE_SQL = """INSERT INTO tracked_files
    (session_id, path, modified, seq, token_count, created_at, updated_at)
    VALUES (?1, ?2, ?3, (SELECT coalesce(max(seq), 0) + 1 FROM tracked_files WHERE session_id = ?1),
        ?4, ?5, ?5)
    ON CONFLICT (session_id, path) DO UPDATE SET modified = max(modified, excluded.modified),
        seq = excluded.seq, updated_at = excluded.updated_at"""
GET_FILE_SQL = f"SELECT {FILE_COLUMNS} FROM tracked_files WHERE session_id = ? AND path = ?"
# Modified files first, then the others; newest touch first within each.
FILES_SQL = f"""SELECT {FILE_COLUMNS} FROM tracked_files WHERE session_id = ?
    ORDER BY modified DESC, seq DESC"""


def track_file(
    conn: sqlite3.Connection, session_id: str, path: str, modified: bool, tokens: int, now: str
) -> TrackedFile:
    conn.execute(TRACK_FILE_SQL, (session_id, path, int(modified), tokens, now))
    return _FILE_ROWS.build(conn.execute(GET_FILE_SQL, (session_id, path)).fetchone())


def tracked_files(conn: sqlite3.Connection, session_id: str) -> list[TrackedFile]:
    return [_FILE_ROWS.build(row) for row in conn.execute(FILES_SQL, (session_id,))]


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


FACTS_COLUMNS = "id, session_id, data, text, source, created_at"
_FACTS_ROWS = _RowModels(SummaryFacts, FACTS_COLUMNS, None, json_columns=("data",))
INSERT_FACTS_SQL = """INSERT INTO summary_facts (id, session_id, data, text, source, created_at)
    VALUES (?, ?, ?, ?, ?, ?)"""
FACTS_SQL = f"SELECT {FACTS_COLUMNS} FROM summary_facts WHERE session_id = ? ORDER BY id"


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


# How many messages are not covered by a level-1 summary, and their tokens.
UNCOVERED_TOKENS_SQL = """SELECT count(*), coalesce(sum(token_count), 0) FROM messages
    WHERE session_id = ? AND id > ?"""


def uncovered_tokens(conn: sqlite3.Connection, session_id: str, after_id: int) -> tuple[int, int]:
    """(messages, their stored tokens) after message ``after_id``."""
    count, tokens = conn.execute(UNCOVERED_TOKENS_SQL, (session_id, after_id)).fetchone()
    return count, tokens


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


# --- admin: retention, backup, stats ---------------------------------------------
#
# The file as a whole (``localmem.admin``): which sessions a retention rule
# removes, counts for ``stats``, the integrity checks ``doctor`` runs, the
# online backup and what ``vacuum`` runs. None of this is on the hot path;
# the counts read whole tables (indexes where they can).

# Sessions whose last activity (as Session.updated_at reports it) is before ?.
STALE_SESSIONS_SQL = f"""SELECT s.id FROM sessions s WHERE {_LAST_ACTIVITY} < ?
    ORDER BY s.id"""


def stale_sessions(conn: sqlite3.Connection, before: str) -> list[str]:
    """Ids of the sessions last active before ``before`` (ISO-8601 UTC text)."""
    return [row[0] for row in conn.execute(STALE_SESSIONS_SQL, (before,))]


# (group, key, rows): how the rows of the counted tables split.
STATS_COUNTS_SQL = """SELECT 'sessions', NULL, count(*) FROM sessions
UNION ALL SELECT 'messages', NULL, count(*) FROM messages
UNION ALL SELECT 'checkpoints', NULL, count(*) FROM checkpoints
UNION ALL SELECT 'summaries_by_level', level, count(*) FROM summaries GROUP BY level
UNION ALL SELECT 'summaries_by_source', source, count(*) FROM summaries GROUP BY source
UNION ALL SELECT 'pins_by_kind', kind, count(*) FROM semantic_pins GROUP BY kind
UNION ALL SELECT 'goals_by_status', status, count(*) FROM goals GROUP BY status"""
PAGE_SIZE_SQL = "PRAGMA page_size"
PAGE_COUNT_SQL = "PRAGMA page_count"
USER_VERSION_SQL = "PRAGMA user_version"
APPLICATION_ID_SQL = "PRAGMA application_id"


def stats_counts(conn: sqlite3.Connection) -> dict[str, Any]:
    """Row counts: ``sessions``, ``messages``, ``checkpoints`` (ints) and the
    ``*_by_*`` splits (dicts, key -> rows). Call in one read transaction."""
    counts: dict[str, Any] = {
        "summaries_by_level": {},
        "summaries_by_source": {},
        "pins_by_kind": {},
        "goals_by_status": {},
    }
    for group, key, rows in conn.execute(STATS_COUNTS_SQL):
        if key is None and group not in counts:
            counts[group] = rows
        else:
            counts[group][key] = rows
    return counts


def file_pragmas(conn: sqlite3.Connection) -> tuple[int, int, int, int]:
    """(page_size, page_count, user_version, application_id) of the open file."""
    return (
        conn.execute(PAGE_SIZE_SQL).fetchone()[0],
        conn.execute(PAGE_COUNT_SQL).fetchone()[0],
        conn.execute(USER_VERSION_SQL).fetchone()[0],
        conn.execute(APPLICATION_ID_SQL).fetchone()[0],
    )


QUICK_CHECK_SQL = "PRAGMA quick_check"
INTEGRITY_CHECK_SQL = "PRAGMA integrity_check"
FOREIGN_KEY_CHECK_SQL = "PRAGMA foreign_key_check"


def integrity_problems(conn: sqlite3.Connection, *, thorough: bool = False) -> list[str]:
    """What SQLite finds wrong with the file ([] when nothing): ``quick_check``
    (``integrity_check`` when ``thorough``: it also compares indexes with
    their tables) and ``foreign_key_check`` (rows whose parent is missing)."""
    check = INTEGRITY_CHECK_SQL if thorough else QUICK_CHECK_SQL
    problems = [row[0] for row in conn.execute(check) if row[0] != "ok"]
    problems += [
        f"{table} row {rowid} refers to a missing {parent} row"
        for table, rowid, parent, _fk in conn.execute(FOREIGN_KEY_CHECK_SQL)
    ]
    return problems


FTS_OPTIMIZE_SQL = tuple(_INDEX_SQL[table][3] for table in SEARCH_TABLES)
VACUUM_SQL = "VACUUM"
# Returns (busy, log frames, frames checkpointed); busy 1: another connection
# holds a transaction that needs the log, so it could not be emptied.
CHECKPOINT_TRUNCATE_SQL = "PRAGMA wal_checkpoint(TRUNCATE)"
SET_BUSY_TIMEOUT_SQL = "PRAGMA busy_timeout = {:d}"


def checkpoint_truncate(conn: sqlite3.Connection) -> bool:
    """Copy the write-ahead log into the file and empty it; False if another
    connection's transaction prevented it (nothing is lost either way)."""
    return conn.execute(CHECKPOINT_TRUNCATE_SQL).fetchone()[0] == 0


@contextlib.contextmanager
def no_waiting(conn: sqlite3.Connection, busy_timeout: float) -> Iterator[None]:
    """Fail at once on a lock another connection holds, instead of waiting
    (``busy_timeout`` seconds, restored afterwards)."""
    conn.execute(SET_BUSY_TIMEOUT_SQL.format(0))
    try:
        yield
    finally:
        conn.execute(SET_BUSY_TIMEOUT_SQL.format(round(busy_timeout * 1000)))


def vacuum(conn: sqlite3.Connection) -> None:
    """Merge each full-text index into one segment (FTS5 'optimize', one
    transaction), then rebuild the file (``VACUUM``). Not in a transaction."""
    with transaction(conn):
        for sql in FTS_OPTIMIZE_SQL:
            conn.execute(sql)
    conn.execute(VACUUM_SQL)


def create_new_file(path: Path) -> None:
    """Create ``path`` empty and readable by its owner alone, like the main
    file; ``FileExistsError`` if something is there, :class:`DatabaseError`
    if it cannot be created."""
    _create_private_file(path, exclusive=True)


@contextlib.contextmanager
def reader(path: str | Path, busy_timeout: float) -> Iterator[sqlite3.Connection]:
    """A second connection to an open localmem file, to read it beside the store's."""
    conn = sqlite3.connect(str(path), timeout=busy_timeout, isolation_level=None)
    try:
        yield conn
    finally:
        conn.close()


# Any read starts the snapshot a backup copies.
SNAPSHOT_SQL = "SELECT 1 FROM sqlite_master LIMIT 1"


def backup(source: sqlite3.Connection, target: Path, *, pages: int) -> None:
    """Copy the database of ``source`` into the new, empty file ``target``,
    ``pages`` pages per step, from one snapshot.

    ``source`` must not be in a transaction. It holds one read transaction
    for the whole copy: in WAL mode that never blocks a writer, and the copy
    is the file as of its start (without it, a commit by another connection
    would restart the copy, and a busy writer could starve it).
    ``target`` must have been made by :func:`create_new_file`.
    """
    dest = sqlite3.connect(str(target), isolation_level=None)
    try:
        source.execute(BEGIN_READ_SQL)
        try:
            source.execute(SNAPSHOT_SQL).fetchone()
            source.backup(dest, pages=pages, sleep=0)
        finally:
            source.execute(COMMIT_SQL)
    finally:
        dest.close()


def verify_copy(path: Path) -> str | None:
    """Why the file at ``path`` is not a sound localmem file, or None if it is
    (``integrity_check``, foreign keys, application_id, schema version)."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        _size, _pages, version, app_id = file_pragmas(conn)
        if app_id != APPLICATION_ID or version != SCHEMA_VERSION:
            return f"application_id {app_id}, schema version {version}"
        problems = integrity_problems(conn, thorough=True)
        return "; ".join(problems[:5]) if problems else None
    finally:
        conn.close()


# --- recall: scoped candidates and stored embeddings ----------------------------
#
# The query-aware context ranks a session's older messages itself
# (``localmem.rank``) with that session's own statistics: these statements
# give it the ids of the session's messages holding each query word (the
# session's key and the word each matched in their own column, so that text
# can never pass for a key), the session's size, and the candidates' rows.

# The key in its own column and the word in the text: a message whose text
# holds another session's key token is not in that session.
SCOPED_TERM_MATCH = 'session_key : {key} AND text : {term}'
TERM_HOLDERS_SQL = """SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?
    ORDER BY rowid DESC LIMIT ?"""
TERM_HOLDERS_COUNT_SQL = "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?"
SCOPE_STATS_SQL = """SELECT count(*), coalesce(avg(token_count), 0.0)
    FROM messages WHERE session_id = ?"""
MESSAGES_BY_IDS_SQL = f"""SELECT {MESSAGE_COLUMNS} FROM messages
    WHERE id IN (SELECT value FROM json_each(?1)) AND session_id = ?2"""
NEXT_MESSAGE_SQL = f"""SELECT {MESSAGE_COLUMNS} FROM messages
    WHERE session_id = ? AND id > ? ORDER BY id LIMIT 1"""
PREVIOUS_MESSAGE_SQL = f"""SELECT {MESSAGE_COLUMNS} FROM messages
    WHERE session_id = ? AND id < ? ORDER BY id DESC LIMIT 1"""


def term_holders(conn: sqlite3.Connection, match: str, cap: int) -> tuple[list[int], int]:
    """The ids (newest first, at most ``cap``) of the messages matching ``match``, and
    how many match in all (counted only when there are more than ``cap``)."""
    ids = [row[0] for row in conn.execute(TERM_HOLDERS_SQL, (match, cap))]
    if len(ids) < cap:
        return ids, len(ids)
    return ids, conn.execute(TERM_HOLDERS_COUNT_SQL, (match,)).fetchone()[0]


def scope_stats(conn: sqlite3.Connection, session_id: str) -> tuple[int, float]:
    """The session's number of messages and their mean token count."""
    count, mean = conn.execute(SCOPE_STATS_SQL, (session_id,)).fetchone()
    return count, mean


def messages_by_ids(conn: sqlite3.Connection, session_id: str, ids: Sequence[int]) -> list[Message]:
    """The session's messages among ``ids``, in no particular order."""
    rows = conn.execute(MESSAGES_BY_IDS_SQL, (json.dumps(list(ids)), session_id))
    return [_MESSAGE_ROWS(row) for row in rows]


def neighbour(conn: sqlite3.Connection, session_id: str, message_id: int, after: bool) -> Message | None:
    """The session's message just after (or before) ``message_id``, if any."""
    sql = NEXT_MESSAGE_SQL if after else PREVIOUS_MESSAGE_SQL
    row = conn.execute(sql, (session_id, message_id)).fetchone()
    return None if row is None else _MESSAGE_ROWS(row)


# Embeddings (migration m009_embeddings): one unit vector per row and model,
# float32 little-endian. Written off the write path, in bulk, by
# ``store.embed_pending`` (and before a query-aware context); deleted with
# their row by triggers, so a forgotten message leaves no vector behind.
PENDING_MESSAGES_SQL = """SELECT m.id, m.session_id, m.text FROM messages m
    WHERE (?1 IS NULL OR m.session_id = ?1) AND m.id > ?3 AND NOT EXISTS
        (SELECT 1 FROM embeddings e WHERE e.model = ?2 AND e.kind = 'message' AND e.row_id = m.id)
    ORDER BY m.id LIMIT ?4"""
# Only rows still there (and unchanged) get a vector: a message deleted or
# rewritten while the model was embedding it is left out.
INSERT_EMBEDDING_SQL = """INSERT OR REPLACE INTO embeddings
    (model, kind, row_id, session_id, vector, created_at)
    SELECT ?1, 'message', m.id, m.session_id, ?4, ?5 FROM messages m
    WHERE m.id = ?2 AND m.text = ?3"""
SESSION_VECTORS_SQL = """SELECT row_id, vector FROM embeddings
    WHERE session_id = ? AND model = ? AND kind = 'message' AND row_id < ?"""
DELETE_MODEL_VECTORS_SQL = "DELETE FROM embeddings WHERE model = ?"
COUNT_VECTORS_SQL = "SELECT model, count(*) FROM embeddings GROUP BY model ORDER BY model"

PendingRow = tuple[int, str, str]
"""A message without a vector: (id, session_id, text)."""


def pending_messages(
    conn: sqlite3.Connection, session_id: str | None, model: str, after_id: int, limit: int
) -> list[PendingRow]:
    """Messages (of one session, or all) with no vector of ``model``, above ``after_id``."""
    return conn.execute(PENDING_MESSAGES_SQL, (session_id, model, after_id, limit)).fetchall()


def insert_embeddings(
    conn: sqlite3.Connection, model: str, rows: Sequence[tuple[int, str, bytes]], now: str
) -> int:
    """Store (message id, the text embedded, vector) rows; return how many were stored."""
    stored = 0
    for message_id, text, vector in rows:
        stored += conn.execute(INSERT_EMBEDDING_SQL, (model, message_id, text, vector, now)).rowcount
    return stored


def session_vectors(
    conn: sqlite3.Connection, session_id: str, model: str, before_id: int
) -> list[tuple[int, bytes]]:
    """The session's message vectors of ``model`` for messages older than ``before_id``."""
    return conn.execute(SESSION_VECTORS_SQL, (session_id, model, before_id)).fetchall()


def delete_model_vectors(conn: sqlite3.Connection, model: str) -> int:
    return conn.execute(DELETE_MODEL_VECTORS_SQL, (model,)).rowcount


def vector_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """How many vectors each model has in the file."""
    return dict(conn.execute(COUNT_VECTORS_SQL).fetchall())
