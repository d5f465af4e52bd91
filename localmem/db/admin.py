"""The file as a whole (``localmem.admin``): which sessions a retention rule
removes, counts for ``stats``, the integrity checks ``doctor`` runs, the
online backup and what ``vacuum`` runs. None of this is on the hot path;
the counts read whole tables (indexes where they can).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..migrations import APPLICATION_ID, SCHEMA_VERSION
from .cipher import open_file
from .connection import BEGIN_READ_SQL, COMMIT_SQL, transaction
from .rows import OPTIMIZE_SQL, _LAST_ACTIVITY

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


FTS_OPTIMIZE_SQL = tuple(OPTIMIZE_SQL.values())
VACUUM_SQL = "VACUUM"
# Returns (busy, log frames, frames checkpointed); busy 1: another connection
# holds a transaction that needs the log, so it could not be emptied.
CHECKPOINT_TRUNCATE_SQL = "PRAGMA wal_checkpoint(TRUNCATE)"
# Copies what no reader still needs, waits for nobody; never restarts the log.
CHECKPOINT_PASSIVE_SQL = "PRAGMA wal_checkpoint(PASSIVE)"
SET_BUSY_TIMEOUT_SQL = "PRAGMA busy_timeout = {:d}"
# Litestream creates this table in a file it replicates (and leaves it there).
REPLICATED_SQL = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_litestream_seq'"


def checkpoint_truncate(conn: sqlite3.Connection) -> bool:
    """Copy the write-ahead log into the file and empty it; False if another
    connection's transaction prevented it (nothing is lost either way)."""
    return conn.execute(CHECKPOINT_TRUNCATE_SQL).fetchone()[0] == 0


def checkpoint_passive(conn: sqlite3.Connection) -> None:
    """Copy into the file the part of the log no other connection's read needs."""
    conn.execute(CHECKPOINT_PASSIVE_SQL).fetchone()


def replicated(conn: sqlite3.Connection) -> bool:
    """Whether Litestream has replicated this file (its ``_litestream_seq`` table is there)."""
    return conn.execute(REPLICATED_SQL).fetchone() is not None


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
    """Rebuild the file (``VACUUM``); first merge its full-text indexes
    (``fulltext.optimize_indexes``), so the rebuild packs them too. Not in a
    transaction."""
    conn.execute(VACUUM_SQL)


@contextlib.contextmanager
def reader(
    path: str | Path, busy_timeout: float, key: str | None = None
) -> Iterator[sqlite3.Connection]:
    """A second connection to an open localmem file (encrypted with ``key``, if
    given), to read it beside the store's."""
    conn = open_file(path, key=key, timeout=busy_timeout, isolation_level=None)
    try:
        yield conn
    finally:
        conn.close()


# Any read starts the snapshot a backup copies.
SNAPSHOT_SQL = "SELECT 1 FROM sqlite_master LIMIT 1"


def backup(
    source: sqlite3.Connection,
    target: Path,
    *,
    pages: int,
    progress: Callable[[int, int], None] | None = None,
    key: str | None = None,
) -> None:
    """Copy the database of ``source`` into the new, empty file ``target``,
    ``pages`` pages per step, from one snapshot; ``progress(copied, total)``
    (in pages) after each step.

    ``source`` must not be in a transaction. It holds one read transaction
    for the whole copy: in WAL mode that never blocks a writer, and the copy
    is the file as of its start (without it, a commit by another connection
    would restart the copy, and a busy writer could starve it).
    ``target`` must be a new, empty file (``localmem.files.temporary_beside``).
    An encrypted ``source`` needs its ``key``: the copy is encrypted with it
    (SQLCipher's backup copies pages between files of one key).
    """
    dest = open_file(target, key=key, isolation_level=None)
    steps = None if progress is None else (lambda _status, left, total: progress(total - left, total))
    try:
        source.execute(BEGIN_READ_SQL)
        try:
            source.execute(SNAPSHOT_SQL).fetchone()
            source.backup(dest, pages=pages, progress=steps, sleep=0)
        finally:
            source.execute(COMMIT_SQL)
    finally:
        dest.close()


def verify_copy(path: Path, key: str | None = None) -> str | None:
    """Why the file at ``path`` (encrypted with ``key``, if given) is not a sound
    localmem file, or None if it is (``integrity_check``, foreign keys,
    application_id, schema version)."""
    conn = open_file(path, key=key, isolation_level=None)
    try:
        _size, _pages, version, app_id = file_pragmas(conn)
        if app_id != APPLICATION_ID or version != SCHEMA_VERSION:
            return f"application_id {app_id}, schema version {version}"
        problems = integrity_problems(conn, thorough=True)
        return "; ".join(problems[:5]) if problems else None
    finally:
        conn.close()


# Copying a file into or out of encryption (localmem.encryption), through SQLCipher.
EXPORT_SCHEMA = "localmem_export"
ATTACH_SQL = f"ATTACH DATABASE ? AS {EXPORT_SCHEMA} KEY ?"
EXPORT_SQL = f"SELECT sqlcipher_export('{EXPORT_SCHEMA}')"
DETACH_SQL = f"DETACH DATABASE {EXPORT_SCHEMA}"
# sqlcipher_export copies tables, indexes and rows, not the header's two numbers.
EXPORT_HEADER_SQL = (
    f"PRAGMA {EXPORT_SCHEMA}.application_id = {{app_id:d}}",
    f"PRAGMA {EXPORT_SCHEMA}.user_version = {{version:d}}",
)


def export(conn: sqlite3.Connection, target: Path, *, key: str | None) -> None:
    """Copy the whole database of ``conn`` (plain or encrypted) into the new, empty
    file ``target``, encrypted with ``key`` (None or "": a plain SQLite file), with
    localmem's application id and schema version.

    ``conn`` must be a SQLCipher connection (``cipher.open_file`` with a key, or
    ``cipher.plain_cipher`` for a plain file) and not in a transaction; the copy
    reads one snapshot, written through SQLCipher's ``sqlcipher_export``.
    """
    conn.execute(ATTACH_SQL, (str(target), key or ""))
    try:
        with transaction(conn):
            conn.execute(EXPORT_SQL).fetchone()
            for sql in EXPORT_HEADER_SQL:
                conn.execute(sql.format(app_id=APPLICATION_ID, version=SCHEMA_VERSION))
    finally:
        conn.execute(DETACH_SQL)
