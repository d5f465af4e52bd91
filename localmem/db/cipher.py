"""Encrypted files: SQLCipher connections, checking a key, and the driver for
copying a file into (or out of) encryption (``db.admin.export``).

SQLCipher (``sqlcipher3-binary``, the ``encrypt`` extra) is SQLite with every
page encrypted (AES-256, HMAC per page, PBKDF2 from the key). It is imported
only when a key is used; without it, :class:`MissingExtra` names the extra.

Three things SQLCipher does that localmem must not let through:

- a missing or wrong key fails only on the first statement, as "file is not
  a database": :func:`open_file` reads ``sqlite_master`` right after ``PRAGMA
  key`` and raises :class:`WrongKey`, before anything could write (no ``-wal``,
  no migration: the file is left byte for byte);
- it writes "hmac check failed" lines to stderr from C: ``cipher_log_level``
  is set to ``NONE`` (a process-wide setting of SQLCipher's) before the key;
- its exceptions are its own classes, not ``sqlite3``'s, while the store
  catches ``sqlite3.Error``: :func:`_bridge_errors` adds ``sqlite3``'s
  matching class as a base of each of SQLCipher's (same DB-API hierarchy, same
  C origin), so every ``except sqlite3.X`` holds for both drivers.
"""

from __future__ import annotations

import functools
import sqlite3
from pathlib import Path
from types import ModuleType
from typing import Any

from ..errors import MissingExtra, WrongKey

EXTRA = "localmem[encrypt]"
KEY_CHECK_SQL = "SELECT count(*) FROM sqlite_master"
QUIET_SQL = "PRAGMA cipher_log_level = NONE"
_ERRORS = (
    "InterfaceError",
    "DatabaseError",
    "InternalError",
    "OperationalError",
    "ProgrammingError",
    "IntegrityError",
    "DataError",
    "NotSupportedError",
)


@functools.cache
def driver() -> ModuleType:
    """``sqlcipher3.dbapi2``, its errors bridged; :class:`MissingExtra` without it."""
    try:
        from sqlcipher3 import dbapi2
    except ImportError:
        raise MissingExtra(
            f"an encrypted memory file needs SQLCipher: pip install '{EXTRA}'"
        ) from None
    _bridge_errors(dbapi2)
    return dbapi2


def _bridge_errors(dbapi2: ModuleType) -> None:
    """Make each SQLCipher error class also the ``sqlite3`` class of its name.

    SQLCipher's ``Error`` cannot take ``sqlite3.Error`` as a base (their C
    layouts differ from ``Exception``'s); its subclasses can, and every error
    SQLCipher raises is one of them.
    """
    for name in _ERRORS:
        cls, twin = getattr(dbapi2, name), getattr(sqlite3, name)
        if not issubclass(cls, twin):
            cls.__bases__ = (*cls.__bases__, twin)


def quote(key: str) -> str:
    """``key`` as an SQL string literal (``PRAGMA key`` takes no parameters)."""
    return "'" + key.replace("'", "''") + "'"


def open_file(path: str | Path, *, key: str | None, **options: Any) -> sqlite3.Connection:
    """A connection to ``path``: ``sqlite3``'s without a key, SQLCipher's with one,
    the key checked before it is returned.

    ``options`` are ``connect``'s (timeout, isolation_level, ...). Raises
    :class:`WrongKey` when the key does not open the file (it was not changed),
    :class:`MissingExtra` without SQLCipher, ``sqlite3.Error`` otherwise.
    """
    if key is None:
        return sqlite3.connect(str(path), **options)
    conn = driver().connect(str(path), **options)
    try:
        conn.execute(QUIET_SQL)
        conn.execute(f"PRAGMA key = {quote(key)}")
        conn.execute(KEY_CHECK_SQL).fetchone()
    except sqlite3.DatabaseError as exc:
        conn.close()
        if "not a database" not in str(exc):
            raise
        raise WrongKey(
            f"{path}: the key is wrong, or the file is not an encrypted memory file; "
            "it was left untouched"
        ) from None
    except BaseException:
        conn.close()
        raise
    return conn


def plain_cipher(path: str | Path, **options: Any) -> sqlite3.Connection:
    """A SQLCipher connection to the plain (unencrypted) file ``path``: what
    ``db.admin.export`` needs to write an encrypted copy of it."""
    conn = driver().connect(str(path), **options)
    conn.execute(QUIET_SQL)
    return conn
