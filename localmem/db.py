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
import os
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

from .errors import DatabaseError, NotALocalMemDatabase, SchemaTooNew
from .migrations import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from .models import Message, Pin, Session, Summary

SQLITE_HEADER = b"SQLite format 3\x00"
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


def _create_private_file(path: Path) -> None:
    """Create the database file readable by its owner alone, if it is missing.

    SQLite gives the ``-wal`` and ``-shm`` files the database file's mode.
    """
    if path.exists():
        if path.is_dir():
            raise DatabaseError(f"{path} is a directory, not a database file")
        _check_header(path)
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        return  # another process created it first
    except OSError as exc:
        raise DatabaseError(f"cannot create {path}: {exc.strerror or exc}") from None
    os.close(fd)


def _check_header(path: Path) -> None:
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise DatabaseError(f"cannot read {path}: {exc.strerror or exc}") from None
    if head and head != SQLITE_HEADER:
        raise NotALocalMemDatabase(f"{path} is not an SQLite database; it was left untouched")


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
    with transaction(conn):
        # Read again inside the write lock: another process may have migrated first.
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        for _name, statements in MIGRATIONS[version:]:
            for statement in statements:
                conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return SCHEMA_VERSION


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction: ``BEGIN IMMEDIATE`` ... ``COMMIT``, or rollback on error.

    IMMEDIATE takes the write lock up front, so a busy file makes the
    writer wait (up to the busy timeout) instead of failing mid-way.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


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


# --- sessions ----------------------------------------------------------------

SESSION_COLUMNS = "id, title, model, created_at, updated_at"
_SESSION_FIELDS = tuple(SESSION_COLUMNS.split(", "))
INSERT_SESSION_SQL = (
    "INSERT INTO sessions (id, title, model, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"
)
GET_SESSION_SQL = f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id = ?"
LIST_SESSIONS_SQL = f"SELECT {SESSION_COLUMNS} FROM sessions ORDER BY updated_at DESC, id"
TOUCH_SESSION_SQL = "UPDATE sessions SET updated_at = ? WHERE id = ?"
DELETE_SESSION_SQL = "DELETE FROM sessions WHERE id = ?"


def _session(row: tuple) -> Session:
    return Session.model_validate(dict(zip(_SESSION_FIELDS, row)))


def insert_session(
    conn: sqlite3.Connection, session_id: str, title: str | None, model: str | None, now: str
) -> Session:
    conn.execute(INSERT_SESSION_SQL, (session_id, title, model, now, now))
    return _session((session_id, title, model, now, now))


def get_session(conn: sqlite3.Connection, session_id: str) -> Session | None:
    row = conn.execute(GET_SESSION_SQL, (session_id,)).fetchone()
    return _session(row) if row else None


def list_sessions(conn: sqlite3.Connection) -> list[Session]:
    return [_session(row) for row in conn.execute(LIST_SESSIONS_SQL)]


def touch_session(conn: sqlite3.Connection, session_id: str, now: str) -> bool:
    """Mark a session as updated; False if it does not exist."""
    return conn.execute(TOUCH_SESSION_SQL, (now, session_id)).rowcount == 1


def delete_session(conn: sqlite3.Connection, session_id: str) -> bool:
    """Delete a session; its messages, summaries and pins go with it (ON DELETE CASCADE)."""
    return conn.execute(DELETE_SESSION_SQL, (session_id,)).rowcount == 1


# --- messages ----------------------------------------------------------------

MESSAGE_COLUMNS = "id, session_id, role, text, model_id, token_count, importance_score, created_at"
_MESSAGE_FIELDS = tuple(MESSAGE_COLUMNS.split(", "))
INSERT_MESSAGE_SQL = """INSERT INTO messages
    (session_id, role, text, model_id, token_count, importance_score, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)"""
RECENT_MESSAGES_SQL = (
    f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE session_id = ? ORDER BY id DESC LIMIT ?"
)
MESSAGES_AFTER_SQL = (
    f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND id > ? ORDER BY id LIMIT ?"
)

MessageRow = tuple[str, str, str, "str | None", int, float, str]


def _message(row: tuple) -> Message:
    return Message.model_validate(dict(zip(_MESSAGE_FIELDS, row)))


def insert_message(conn: sqlite3.Connection, row: MessageRow) -> Message | None:
    """Insert one message row (session_id, role, text, model_id, tokens, importance, created_at).

    Returns None when the session does not exist (the foreign key refused the row).
    """
    try:
        cur = conn.execute(INSERT_MESSAGE_SQL, row)
    except sqlite3.IntegrityError as exc:
        if "FOREIGN KEY" in str(exc):
            return None
        raise
    return _message((cur.lastrowid, *row))


def insert_messages(conn: sqlite3.Connection, rows: Sequence[MessageRow]) -> list[Message]:
    """Insert rows in order; ids are consecutive because the caller holds the write lock."""
    if not rows:
        return []
    # executemany is several times faster than one execute per row; with the
    # write lock held (BEGIN IMMEDIATE) and no deletes in between, INTEGER
    # PRIMARY KEY ids are assigned as max(id)+1, +2, ... in order.
    first = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM messages").fetchone()[0]
    conn.executemany(INSERT_MESSAGE_SQL, rows)
    return [_message((first + i, *row)) for i, row in enumerate(rows)]


def recent_messages(conn: sqlite3.Connection, session_id: str, limit: int) -> list[Message]:
    """The newest ``limit`` messages, newest first."""
    return [_message(row) for row in conn.execute(RECENT_MESSAGES_SQL, (session_id, limit))]


def messages_after(
    conn: sqlite3.Connection, session_id: str, after_id: int, limit: int
) -> list[Message]:
    """Messages with id > ``after_id``, oldest first; ``limit`` -1 means all."""
    return [
        _message(row) for row in conn.execute(MESSAGES_AFTER_SQL, (session_id, after_id, limit))
    ]


# --- pins --------------------------------------------------------------------

PIN_COLUMNS = (
    "id, session_id, content, source_message_id, importance_score, kind, token_count, created_at"
)
_PIN_FIELDS = tuple(PIN_COLUMNS.split(", "))
INSERT_PIN_SQL = """INSERT INTO semantic_pins
    (session_id, content, source_message_id, importance_score, kind, token_count, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)"""
TOP_PINS_SQL = f"""SELECT {PIN_COLUMNS} FROM semantic_pins WHERE session_id = ?
    ORDER BY importance_score DESC, id DESC LIMIT ?"""
DELETE_PIN_SQL = "DELETE FROM semantic_pins WHERE id = ?"
MESSAGE_SESSION_SQL = "SELECT session_id FROM messages WHERE id = ?"
PIN_SESSION_SQL = "SELECT session_id FROM semantic_pins WHERE id = ?"


def _pin(row: tuple) -> Pin:
    return Pin.model_validate(dict(zip(_PIN_FIELDS, row)))


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
    row = (session_id, content, source_message_id, importance, kind, token_count, now)
    cur = conn.execute(INSERT_PIN_SQL, row)
    return _pin((cur.lastrowid, *row))


def top_pins(conn: sqlite3.Connection, session_id: str, limit: int) -> list[Pin]:
    """Pins by importance, newest first on ties; ``limit`` -1 means all."""
    return [_pin(row) for row in conn.execute(TOP_PINS_SQL, (session_id, limit))]


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
_SUMMARY_FIELDS = tuple(SUMMARY_COLUMNS.split(", "))
RECENT_SUMMARIES_SQL = f"""SELECT {SUMMARY_COLUMNS} FROM summaries
    WHERE session_id = ? AND level = ? ORDER BY end_message_id DESC LIMIT ?"""


def _summary(row: tuple) -> Summary:
    return Summary.model_validate(dict(zip(_SUMMARY_FIELDS, row)))


def recent_summaries(
    conn: sqlite3.Connection, session_id: str, limit: int, level: int = 1
) -> list[Summary]:
    """The summaries of one level covering the newest ranges, newest first."""
    return [_summary(row) for row in conn.execute(RECENT_SUMMARIES_SQL, (session_id, level, limit))]


@contextlib.contextmanager
def read_snapshot(conn: sqlite3.Connection) -> Iterator[None]:
    """Several reads that see one consistent state of the file."""
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.execute("COMMIT")
