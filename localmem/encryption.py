"""Turning a plain memory file into an encrypted one, and writing a plain copy
of an encrypted one (``localmem encrypt`` / ``localmem decrypt``).

- :func:`encrypt_file` builds the encrypted copy in a hidden temporary file
  beside the database (``localmem.files``), checks it, syncs it to the disk and
  renames it over the plain file: an interruption at any point leaves the plain
  file with every row, and never a plaintext copy beside it. The plain file's
  old blocks are then overwritten with zeros (best effort: an SSD or a
  copy-on-write file system may keep older copies of any file's blocks).
  It needs the file to itself: another program holding it open is refused.
- :func:`decrypt_file` writes a plain copy to a new file (mode 0600, never over
  an existing file), checked before it takes its name.

The key comes from ``localmem.keys`` (the argument, ``$LOCALMEM_KEY``,
``$LOCALMEM_KEY_FILE``, the keyring). The SQL is ``localmem.db.cipher``'s.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

from . import db, files
from .autopins import pin_key
from .config import DEFAULT_BUSY_TIMEOUT
from .errors import DatabaseError, InvalidInput, WrongKey
from .keys import KEY_ENV_VAR, KEY_FILE_ENV_VAR, given_key, keyring_key, needs_key

logger = logging.getLogger("localmem")

EXCLUSIVE_SQL = "PRAGMA locking_mode = EXCLUSIVE"
"""In WAL mode, the first read then needs the file to itself ("database is locked"
while any other connection has it open, idle or not) and keeps it until the
connection closes: nobody writes to the plain file between the copy and the rename."""
LEAVE_WAL_SQL = "PRAGMA journal_mode = DELETE"
"""Empties the log into the file and deletes it: no plaintext ``-wal`` stays beside."""
EXCLUSIVE_TIMEOUT = 2.0
"""Seconds to wait for another connection to let go of the file before refusing."""
ZEROS = bytes(1 << 20)


def _key_for(path: Path, key: str | None) -> str:
    found = given_key(key) or keyring_key(path)
    if found is None:
        raise WrongKey(
            f"no key for {path}: set ${KEY_ENV_VAR} or ${KEY_FILE_ENV_VAR} (or the keyring's "
            "entry for the file); nothing was changed"
        )
    return found


def _existing(path: str | Path) -> Path:
    if not isinstance(path, (str, Path)) or not str(path) or str(path) == db.MEMORY:
        raise InvalidInput(f"a database file path is needed, not {path!r}")
    found = Path(os.path.realpath(Path(path).expanduser()))
    if not found.is_file():
        raise InvalidInput(f"no database at {path}")
    return found


def encrypt_file(path: str | Path, key: str | None = None) -> Path:
    """Encrypt the plain memory file ``path`` in place with ``key`` (else the
    environment's or the keyring's); return its absolute path.

    Every row is kept (the copy passes ``integrity_check`` before it replaces
    the file). Raises :class:`WrongKey` without a key, :class:`InvalidInput`
    for a missing or already encrypted file, :class:`DatabaseError` when
    another program has it open; the file is unchanged in each case.
    """
    target = _existing(path)
    if needs_key(target):
        raise InvalidInput(f"{path} is already encrypted (or is not an SQLite file)")
    key = _key_for(target, key)
    # Checks it is a localmem file (refused untouched otherwise) and brings it up to date.
    db.connect(target, busy_timeout=DEFAULT_BUSY_TIMEOUT, synchronous="FULL", content_key=pin_key).close()
    # The guard is Python's sqlite3, the library the host's stores use: SQLCipher's own
    # copy of SQLite would not see their locks in this process (POSIX locks are per process).
    guard = sqlite3.connect(str(target), timeout=EXCLUSIVE_TIMEOUT, isolation_level=None)
    try:
        _take(guard, path)
        counter = _change_counter(target)
        source = db.plain_cipher(target, isolation_level=None)
        try:
            with files.temporary_beside(target) as (temporary, fd):
                os.close(fd)
                try:
                    db.export(source, temporary, key=key)
                    _check_copy(temporary, key, f"the encrypted copy of {path}")
                    if _change_counter(target) != counter:
                        raise DatabaseError(
                            f"{path} changed while it was being encrypted: close the programs "
                            "that use it and try again; nothing was changed"
                        )
                    old = os.open(target, os.O_WRONLY)
                    try:
                        files.publish(temporary, target, force=True)
                        _overwrite(old)
                    finally:
                        os.close(old)
                finally:
                    files.remove_database(temporary)
        finally:
            source.close()  # after the rename: closing drops this process's locks on the file
    finally:
        guard.close()
    logger.info("encrypted %s", target)
    return target


def _take(guard: sqlite3.Connection, path: str | Path) -> None:
    """Hold the file alone through ``guard`` and leave WAL; :class:`DatabaseError` if
    another connection (this process's or another's) has it open."""
    try:
        guard.execute(EXCLUSIVE_SQL)
        guard.execute(db.SCHEMA_SQL).fetchall()  # takes the file, held until close
        mode = guard.execute(LEAVE_WAL_SQL).fetchone()[0]
    except sqlite3.OperationalError:
        mode = "locked"
    if mode != "delete":
        raise DatabaseError(f"cannot encrypt {path}: another program has it open; close it and try again")


def _change_counter(path: Path) -> bytes:
    """The header's file change counter: SQLite adds one at every commit in rollback mode."""
    with path.open("rb") as f:
        return f.read(28)[24:28]


def decrypt_file(
    path: str | Path, output: str | Path, key: str | None = None
) -> Path:
    """Write a plain copy of the encrypted memory file ``path`` to ``output`` (a new
    file, mode 0600); return its absolute path.

    Raises :class:`WrongKey` for a missing or wrong key, :class:`InvalidInput`
    for a plain file or an ``output`` that exists, is the database or a link;
    nothing is written then. ``path`` itself is only read.
    """
    source_path = _existing(path)
    if not needs_key(source_path):
        raise InvalidInput(f"{path} is not encrypted: it is a plain SQLite file already")
    key = _key_for(source_path, key)
    target = files.check_target(output, database=source_path, force=False)
    source = db.open_file(source_path, key=key, timeout=DEFAULT_BUSY_TIMEOUT, isolation_level=None)
    try:
        with files.temporary_beside(target) as (temporary, fd):
            os.close(fd)
            try:
                db.export(source, temporary, key=None)
                _check_copy(temporary, None, f"the plain copy of {path}")
                files.publish(temporary, target, force=False)
            finally:
                files.remove_database(temporary)
    finally:
        source.close()
    logger.info("wrote a plain copy of %s to %s", source_path, target)
    return target


def _check_copy(path: Path, key: str | None, what: str) -> None:
    """Raise :class:`DatabaseError` unless ``path`` is a sound localmem file; sync it."""
    problem = db.verify_copy(path, key)
    if problem is not None:
        raise DatabaseError(f"{what} failed its check: {problem}; nothing was changed")
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _overwrite(fd: int) -> None:
    """Zero the whole file behind ``fd`` (the old plain file, now without a name)."""
    try:
        if os.fstat(fd).st_nlink > 0:
            return  # another name still holds it (a hard link): not ours to wipe
        remaining = os.fstat(fd).st_size
        os.lseek(fd, 0, os.SEEK_SET)
        while remaining > 0:
            remaining -= os.write(fd, ZEROS[: min(remaining, len(ZEROS))])
        os.fsync(fd)
    except OSError as exc:
        logger.warning("could not overwrite the old plain file's blocks: %s", exc.strerror or exc)


