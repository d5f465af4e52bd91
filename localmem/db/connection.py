"""Opening a localmem file, and what every other module of the package shares.

Functions in ``localmem.db`` take an open ``sqlite3.Connection`` and turn rows
into the pydantic models of ``localmem.models``; no other module writes SQL
(the DDL lives in ``localmem.migrations``). Transactions are the caller's: the
store wraps each logical write in ``transaction()``.

Opening a file (``connect``) checks what it is before changing anything: a
text file, another application's SQLite file or a file from a newer
localmem is refused and left byte-for-byte as it was.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import DatabaseError, NotALocalMemDatabase, SchemaTooNew, WrongKey
from ..keys import KEY_ENV_VAR, SQLITE_HEADER, needs_key
from ..migrations import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from .cipher import open_file

MEMORY = ":memory:"
PRIVATE_FILE_MODE = 0o600
PRIVATE_DIR_MODE = 0o700

logger = logging.getLogger("localmem")

# --- opening -----------------------------------------------------------------


def connect(
    path: str | Path,
    *,
    busy_timeout: float,
    synchronous: str,
    content_key: Callable[[str], str],
    key: str | None = None,
) -> sqlite3.Connection:
    """Open (creating with mode 0600 if needed) and migrate a localmem file.

    ``content_key`` is the pins' de-duplication key (``autopins.pin_key``),
    which a migration may need (see :func:`migrate`). With ``key`` the file is
    SQLCipher-encrypted (created so when new; ``localmem.db.cipher``). Raises
    :class:`NotALocalMemDatabase`, :class:`SchemaTooNew`, :class:`WrongKey` or
    :class:`DatabaseError`; in each case the file is not modified.
    """
    if str(path) != MEMORY:
        _create_private_file(Path(path), encrypted=key is not None)
    try:
        conn = open_file(
            path,
            key=key,
            timeout=busy_timeout,
            isolation_level=None,  # we issue BEGIN IMMEDIATE / COMMIT ourselves
            check_same_thread=False,  # the store serialises access with a lock
            cached_statements=512,
        )
    except sqlite3.Error as exc:
        raise DatabaseError(f"cannot open {path}: {exc}") from None
    try:
        version = _identify(conn, path)
        if str(path) != MEMORY:  # ours: now its mode may change, never before
            real = os.path.realpath(path)
            for name in (real, f"{real}-wal", f"{real}-shm"):
                _keep_private(name)
        conn.execute("PRAGMA foreign_keys = ON")
        # Deleted text is overwritten with zeros, not left in free pages (localmem.forget).
        conn.execute("PRAGMA secure_delete = ON")
        if str(path) != MEMORY:
            _use_wal(conn, busy_timeout)
        conn.execute(f"PRAGMA synchronous = {synchronous}")
        if version < SCHEMA_VERSION:
            migrate(conn, content_key)
    except sqlite3.Error as exc:
        conn.close()
        raise DatabaseError(f"cannot use {path}: {exc}") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _create_private_file(path: Path, *, exclusive: bool = False, encrypted: bool = False) -> None:
    """Make sure the database file is readable by its owner alone.

    A missing file is created with mode 0600, in directories created 0700
    (whatever the umask); a symbolic link is followed to the file it names,
    created there if missing (SQLite would give it mode 0644). An existing
    file is only checked here: ``connect`` tightens it (and its ``-wal`` and
    ``-shm``, which SQLite gives the database file's mode) to the owner's
    bits, with a warning in the log, once it knows the file is localmem's;
    a file it refuses keeps its mode. ``exclusive``: the
    file must be new, and a link is not followed (``FileExistsError``).
    ``encrypted``: a key will open it (:func:`_check_header` then checks it is
    not plain SQLite; SQLCipher checks the rest).
    """
    if not exclusive and path.is_symlink():
        path = Path(os.path.realpath(path))
    if path.exists() and not exclusive:
        if path.is_dir():
            raise DatabaseError(f"{path} is a directory, not a database file")
        _check_header(path, encrypted=encrypted)
        return  # made private once it is known to be localmem's (``connect``)
    try:
        _make_private_dirs(path.parent)
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE_FILE_MODE)
    except FileExistsError:
        if exclusive:
            raise
        return  # another process created it first
    except OSError as exc:
        raise DatabaseError(f"cannot create {path}: {exc.strerror or exc}") from None
    os.close(fd)


def _make_private_dirs(folder: Path) -> None:
    """Create ``folder`` and its missing parents, each 0700 (``Path.mkdir`` gives the
    parents the umask's mode: 0777 under umask 000)."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for created in reversed(missing):
        try:
            os.mkdir(created, PRIVATE_DIR_MODE)
        except FileExistsError:
            continue  # another process made it first
        os.chmod(created, PRIVATE_DIR_MODE)  # whatever the umask took away or left


def _keep_private(name: str) -> None:
    """Take group and other permissions off an existing file; log that it had them."""
    try:
        mode = stat.S_IMODE(os.stat(name).st_mode)
    except FileNotFoundError:
        return
    except OSError as exc:
        logger.warning("cannot check who may read %s: %s", name, exc.strerror or exc)
        return
    if not mode & 0o077:
        return
    try:
        os.chmod(name, mode & 0o700)
    except OSError as exc:
        logger.warning(
            "%s may be read by other users (mode %04o) and its mode cannot be changed (%s): "
            "it holds private conversations",
            name,
            mode,
            exc.strerror or exc,
        )
        return
    logger.warning(
        "%s could be read by other users (mode %04o); it is now %04o", name, mode, mode & 0o700
    )


def _check_header(path: Path, *, encrypted: bool = False) -> None:
    """Refuse, before SQLite touches it, a file that is not SQLite or is cut short;
    with ``encrypted``, a plain SQLite file (a key would not open it)."""
    if encrypted:
        if path.stat().st_size and not needs_key(path):
            raise WrongKey(
                f"{path} is not encrypted, so a key does not open it: open it without one "
                f"(unset ${KEY_ENV_VAR}), or encrypt it (`localmem encrypt`); it was left untouched"
            )
        return
    if needs_key(path):
        raise WrongKey(
            f"{path} is not plain SQLite: if it is an encrypted memory file, its key is "
            f"missing (key=..., ${KEY_ENV_VAR}, $LOCALMEM_KEY_FILE or the keyring); "
            "it was left untouched"
        )
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


# One statement, so one snapshot: read one by one, the three values could
# straddle another process's first migration (an id of 0 with its tables).
IDENTIFY_SQL = """SELECT (SELECT application_id FROM pragma_application_id),
    (SELECT user_version FROM pragma_user_version),
    EXISTS (SELECT 1 FROM sqlite_master WHERE name NOT LIKE 'sqlite_%')"""
USE_WAL_SQL = "PRAGMA journal_mode = WAL"
WAL_RETRY_PAUSE = 0.005
"""Seconds between two attempts at the switch to WAL (doubling, at most 0.1)."""


def _identify(conn: sqlite3.Connection, path: str | Path) -> int:
    """Return the file's schema version, refusing files that are not ours."""
    app_id, version, has_tables = conn.execute(IDENTIFY_SQL).fetchone()
    if app_id == 0 and version == 0:
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


def _use_wal(conn: sqlite3.Connection, busy_timeout: float) -> None:
    """Switch the file to WAL (a no-op once it is), waiting up to ``busy_timeout``.

    The switch needs the file to itself, and SQLite reports "database is
    locked" at once, without its busy handler, while another process that
    opens the same new file holds it for a moment: try again until the timeout.
    """
    deadline = time.monotonic() + busy_timeout
    pause = WAL_RETRY_PAUSE
    while True:
        try:
            conn.execute(USE_WAL_SQL)
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def migrate(conn: sqlite3.Connection, content_key: Callable[[str], str]) -> int:
    """Apply the migrations a file lacks, all in one transaction; return the new version.

    ``content_key``: the key new pins get, which m008_auto_pins back-fills
    (registered as the SQL function ``pin_key``).
    """
    conn.create_function("pin_key", 1, content_key, deterministic=True)
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
