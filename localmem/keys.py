"""Finding the key of an encrypted memory file (SQLCipher, the ``encrypt`` extra).

A store's key is the first of:

1. the ``key`` argument (``MemoryStore(path, key="...")``);
2. ``$LOCALMEM_KEY``;
3. the contents of the file ``$LOCALMEM_KEY_FILE`` (one trailing newline dropped),
   refused unless its mode is 0600 or stricter: a key others can read protects nothing;
4. the OS keyring, for a file that needs a key (one that exists and is not plain
   SQLite), when the optional ``keyring`` package has a real backend (a headless
   machine has none): the password of service ``localmem``, user the file's
   absolute path (``keyring set localmem /path/to/memory.db``).

No key: the file is plain SQLite, as before. A key for a new file creates it
encrypted. What a key protects is the README's "Encryption at rest".

Records layer: it reads the environment and small files, never the database.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

from .errors import InvalidInput, WrongKey

KEY_ENV_VAR = "LOCALMEM_KEY"
KEY_FILE_ENV_VAR = "LOCALMEM_KEY_FILE"
KEYRING_SERVICE = "localmem"
SQLITE_HEADER = b"SQLite format 3\x00"
"""How every plain SQLite file begins; an encrypted one begins with random salt."""
MIN_PAGE_SIZE = 512
"""SQLite's smallest page: an encrypted file is whole pages, so its size is a multiple."""

logger = logging.getLogger("localmem")


def check_key(key: object, where: str = "key") -> str:
    """``key`` if it is usable: non-empty text without NUL characters (InvalidInput)."""
    if not isinstance(key, str):
        raise InvalidInput(f"{where} must be text, not {type(key).__name__}")
    if not key or "\x00" in key:
        raise InvalidInput(f"{where} must be non-empty text without NUL characters")
    return key


def given_key(key: str | None = None) -> str | None:
    """The key asked for without the keyring: ``key``, else ``$LOCALMEM_KEY``, else
    the contents of ``$LOCALMEM_KEY_FILE``; None when none is set.

    Raises :class:`WrongKey` for a key file others may read or that cannot be
    read, :class:`InvalidInput` for an empty key.
    """
    if key is not None:
        return check_key(key)
    if os.environ.get(KEY_ENV_VAR):
        return check_key(os.environ[KEY_ENV_VAR], f"${KEY_ENV_VAR}")
    if os.environ.get(KEY_FILE_ENV_VAR):
        return _read_key_file(Path(os.environ[KEY_FILE_ENV_VAR]).expanduser())
    return None


def _read_key_file(path: Path) -> str:
    try:
        with path.open("rb") as f:
            mode = stat.S_IMODE(os.fstat(f.fileno()).st_mode)
            if mode & 0o077:
                raise WrongKey(
                    f"key file {path} may be read by other users (mode {mode:04o}): "
                    f"chmod 600 {path}; the key was not used"
                )
            data = f.read()
    except OSError as exc:
        raise WrongKey(f"cannot read key file {path}: {exc.strerror or exc}") from None
    text = _decode(data, path)
    text = text[:-1] if text.endswith("\n") else text
    text = text[:-1] if text.endswith("\r") else text
    return check_key(text, f"key file {path}")


def _decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise WrongKey(f"key file {path} is not UTF-8 text") from None


def needs_key(path: str | Path) -> bool:
    """Whether ``path`` is an existing, non-empty file that is not plain SQLite
    and is whole pages long: an encrypted memory file, as far as its bytes can say."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_HEADER))
        size = os.stat(path).st_size
    except OSError:
        return False
    return bool(head) and head != SQLITE_HEADER and size % MIN_PAGE_SIZE == 0


def keyring_key(path: str | Path) -> str | None:
    """The keyring's key for the file ``path``, or None: no ``keyring`` package, no
    real backend (``NoKeyringError``), no entry, or a backend that fails (logged)."""
    try:
        import keyring
        from keyring.errors import KeyringError
    except ImportError:
        return None
    user = os.path.abspath(path)
    try:
        found = keyring.get_password(KEYRING_SERVICE, user)
    except KeyringError as exc:  # NoKeyringError: no backend on this machine
        logger.debug("keyring: no key for %s (%s)", user, exc)
        return None
    return None if found is None else check_key(found, f"the keyring's key for {user}")


def find_key(key: str | None, path: str | Path) -> str | None:
    """The key for the file ``path`` (see the module): :func:`given_key`, else the
    keyring's when the file :func:`needs_key`; None for a plain file."""
    found = given_key(key)
    if found is None and needs_key(path):
        found = keyring_key(path)
    return found
