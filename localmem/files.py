"""Files localmem writes for the user (exports, backups): whole or not at all, and never
over something it must not touch.

An export or a backup holds private conversations, and the name it is written to is
often typed by hand, so every such file is written the same way:

- **never under its name until complete**: it is written to a temporary file beside
  the target (same directory, so the rename is atomic; hidden: ``.NAME.XXXXXXXX.tmp``),
  flushed to the disk and only then renamed. Interrupted (Ctrl-C, a kill, a full
  disk), it leaves the target as it was: missing, or the previous file. A hard kill
  can leave the hidden temporary file, never a plausible-looking partial file;
- **never over an existing file** unless asked (``force``): without it, the rename is
  a hard link that fails if the name is taken, so a file that appears meanwhile is
  not replaced either;
- **never the database** it comes from, nor that database's ``-wal``, ``-shm`` or
  ``-journal`` file, under any spelling of the path (``force`` or not);
- **never through a symbolic link**: a target that is one is refused, not followed;
- **readable by its owner alone** (mode 0600), whatever was there before.

Pure file-system code: no SQL, no store.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from .errors import InvalidInput

PRIVATE_MODE = 0o600
DATABASE_SUFFIXES = ("", "-wal", "-shm", "-journal")
"""The database file and the files SQLite keeps beside it."""
TEMPORARY_SUFFIX = ".tmp"
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(
    os, "O_CLOEXEC", 0
)
_NO_LINKS = {errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS}
"""What ``os.link`` raises on a file system without hard links (FAT, some network shares)."""


def check_target(
    target: str | Path, *, database: str | Path | None, force: bool, parents: bool = False
) -> Path:
    """``target`` as an absolute path, once it is safe to write there.

    Raises :class:`InvalidInput` if it is the ``database`` (or one of its
    ``-wal``, ``-shm``, ``-journal`` files), a symbolic link, a directory, in a
    directory that does not exist (``parents``: which is then created, private),
    or (unless ``force``) an existing file. Nothing else is written.
    """
    if not isinstance(target, (str, Path)) or not str(target):
        raise InvalidInput(f"a file path is needed, not {target!r}")
    path = Path(os.path.abspath(Path(target).expanduser()))
    if path.is_symlink():
        raise InvalidInput(f"{target} is a symbolic link: it is not followed; nothing was written")
    if path.is_dir():
        raise InvalidInput(f"{target} is a directory")
    if database is not None and str(database) != ":memory:":
        for suffix in DATABASE_SUFFIXES:
            guarded = Path(f"{Path(database).expanduser()}{suffix}")
            if _same_file(path, guarded):
                what = "the database" if not suffix else f"the database's {suffix[1:]} file"
                raise InvalidInput(f"{target} is {what} ({guarded}): it would be destroyed; nothing was written")
    if not force and os.path.lexists(path):
        raise InvalidInput(f"{target} already exists (force=True, --force on the command line, replaces it)")
    if parents and not path.parent.exists():
        try:
            path.parent.mkdir(parents=True, mode=0o700)
        except OSError as exc:
            raise InvalidInput(f"cannot create {path.parent}: {exc.strerror or exc}") from None
    if not path.parent.is_dir():
        raise InvalidInput(f"cannot write {target}: directory {path.parent} does not exist")
    return path


def _same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file, by their resolved spelling or (both existing) by inode."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


@contextlib.contextmanager
def temporary_beside(target: Path) -> Iterator[tuple[Path, int]]:
    """A new, empty, private file beside ``target`` for the block: its path and an open
    descriptor. Deleted if the block raises, a Ctrl-C included wherever it lands, even
    as the file is being made (Python raises it when ``os.open`` returns, before its
    descriptor is stored: so the name is held before the file exists); the block
    publishes it otherwise (:func:`publish`).
    """
    temporary: Path | None = None
    try:
        while True:
            temporary = target.with_name(
                f".{target.name}.{secrets.token_hex(4)}{TEMPORARY_SUFFIX}"
            )
            try:
                fd = os.open(temporary, _NEW_FILE, PRIVATE_MODE)
            except FileExistsError:
                temporary = None  # another writer's: never ours to delete
                continue
            except OSError as exc:
                temporary = None
                raise InvalidInput(
                    f"cannot write in {target.parent}: {exc.strerror or exc}"
                ) from None
            break
        os.fchmod(fd, PRIVATE_MODE)  # whatever the umask
        yield temporary, fd
    except BaseException:
        if temporary is not None:
            remove(temporary)
        raise


def publish(temporary: Path, target: Path, *, force: bool) -> None:
    """Give the complete ``temporary`` file the name ``target``, atomically.

    Without ``force``, the name must still be free (:class:`InvalidInput`
    otherwise, ``temporary`` left for the caller to remove). The directory is
    synced, so the new name survives a power cut.
    """
    if force:
        os.replace(temporary, target)  # replaces a link itself, never what it points to
    else:
        try:
            os.link(temporary, target, follow_symlinks=False)
        except FileExistsError:
            raise InvalidInput(f"{target} already exists (it appeared while it was written)") from None
        except OSError as exc:
            if exc.errno not in _NO_LINKS:
                raise InvalidInput(f"cannot write {target}: {exc.strerror or exc}") from None
            if os.path.lexists(target):  # no hard links here: check, then rename
                raise InvalidInput(f"{target} already exists (it appeared while it was written)") from None
            os.replace(temporary, target)
        else:
            os.unlink(temporary)
    _sync_directory(target.parent)


def remove(path: Path) -> None:
    """Delete ``path`` if it is there."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def remove_database(path: Path) -> None:
    """Delete the database file ``path`` and the log files SQLite may have left beside it."""
    for suffix in DATABASE_SUFFIXES:
        remove(Path(f"{path}{suffix}"))


def _sync_directory(directory: Path) -> None:
    with contextlib.suppress(OSError):  # not every system can open a directory
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextlib.contextmanager
def private_file(target: str | Path, *, database: str | Path | None, force: bool) -> Iterator[BinaryIO]:
    """Write ``target`` safely (see the module): yields a binary file to write to.

    The target is checked first (:func:`check_target`); when the block ends
    normally the data is flushed to the disk and the file takes its name; when
    it raises (KeyboardInterrupt included) the temporary file is deleted and
    the target is left as it was.
    """
    path = check_target(target, database=database, force=force)
    with temporary_beside(path) as (temporary, fd), open(fd, "wb") as out:
        yield out
        out.flush()
        os.fsync(out.fileno())
        publish(temporary, path, force=force)
