"""The file as a whole: retention, vacuum, an online backup, statistics and integrity.

:class:`Admin` holds what a user or a host application does to the whole file
rather than to one conversation:

- **retention** (``prune``): delete the sessions nobody has touched for a
  while, each with everything that belongs to it, in one transaction;
- **vacuum**: give the space of deleted rows back to the disk;
- **backup**: a verified copy made with SQLite's online backup API, safe
  while the assistant (this process or another) keeps writing;
- **stats** and **check_file**: what the file holds and whether SQLite finds
  it sound (``localmem doctor`` reports the latter, ``localmem.doctor``).

``store.maintain()`` (routine upkeep) is not here. The SQL is ``localmem.db``'s
(its "admin" section).
"""

from __future__ import annotations

import datetime
import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from . import db, files
from .errors import DatabaseError, InvalidInput
from .reports import Stats

if TYPE_CHECKING:  # what it is given (the handle, capabilities): for the type checker only
    from .contexts import Contexts
    from .forget import Forgetting
    from .handle import Handle

logger = logging.getLogger("localmem")

DEFAULT_BACKUP_PAGES = 1024
"""Pages a backup copies per step (4 MiB at the default page size)."""


class Admin:
    """Retention (through ``forgetting``), vacuum, backup, stats (with ``contexts``'
    cache figures) and integrity."""

    def __init__(self, handle: Handle, forgetting: Forgetting, contexts: Contexts) -> None:
        self._db = handle
        self._forget = forgetting
        self._contexts = contexts

    # --- retention -------------------------------------------------------------

    def prune(self, older_than: datetime.timedelta, *, dry_run: bool = False) -> list[str]:
        """Delete every session last active more than ``older_than`` ago; return their ids.

        A session's last activity is the later of its record's update and its
        newest message (``Session.updated_at``); "now" is the store's clock.
        Each session goes with everything that belongs to it, all of them in
        one transaction. With ``dry_run``, nothing is deleted: the ids are
        those that would go. Raises :class:`InvalidInput` (nothing deleted)
        unless ``older_than`` is a ``datetime.timedelta`` of zero or more.
        """
        if not isinstance(older_than, datetime.timedelta):
            raise InvalidInput(
                f"older_than must be a datetime.timedelta, not {type(older_than).__name__}"
            )
        if older_than < datetime.timedelta(0):
            raise InvalidInput(f"older_than must not be negative, got {older_than}")
        try:
            cutoff = self._db.ago(older_than)
        except OverflowError:  # further back than year 1: nothing is that old
            return []
        if dry_run:
            with self._db.locked() as conn:
                return db.stale_sessions(conn, cutoff)
        with self._forget.forgetting() as gone:  # no session id: every cached context is dropped
            stale = db.stale_sessions(gone.conn, cutoff)
            for session_id in stale:
                self._forget.forget_session(gone, session_id)
        if stale:
            logger.info("pruned %d sessions last active before %s", len(stale), cutoff)
        return stale

    # --- the file ----------------------------------------------------------------

    def _file_bytes(self) -> tuple[int, int]:
        """(main file, write-ahead log) sizes in bytes; 0 for what does not exist."""
        if self._db.path == db.MEMORY:
            return 0, 0
        sizes = []
        for name in (str(self._db.path), f"{self._db.path}-wal"):
            try:
                sizes.append(os.stat(name).st_size)
            except FileNotFoundError:
                sizes.append(0)
        return sizes[0], sizes[1]

    def vacuum(self) -> dict[str, int]:
        """Compact the file: merge the search indexes, ``VACUUM``, empty the log.

        Returns ``bytes_before`` and ``bytes_after`` (main file plus
        write-ahead log) and ``log_bytes`` (the log left afterwards: not 0
        when another connection began reading meanwhile and still needs it).
        The contents do not change. Raises :class:`DatabaseError`, having
        changed nothing, when another connection holds a transaction (a
        reader or a writer: ``VACUUM`` would wait for it, or the log could not
        be emptied); this store's connection never waits for another one here.
        Rewrites the whole file: it can take seconds on a large one.
        """
        main, log = self._file_bytes()
        with self._db.locked() as conn, db.no_waiting(conn, self._db.config.busy_timeout):
            busy = f"cannot vacuum {self._db.path}: another connection holds a transaction on it"
            if not db.checkpoint_truncate(conn):
                raise DatabaseError(f"{busy}; close it (or let it finish) and try again")
            try:
                with db.transaction(conn):
                    db.optimize_indexes(conn)
                db.vacuum(conn)
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    raise DatabaseError(f"{busy}; close it (or let it finish) and try again") from None
                raise
            db.checkpoint_truncate(conn)
        after_main, after_log = self._file_bytes()
        return {
            "bytes_before": main + log,
            "bytes_after": after_main + after_log,
            "log_bytes": after_log,
        }

    def backup(
        self,
        path: str | Path,
        *,
        pages: int = DEFAULT_BACKUP_PAGES,
        force: bool = False,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> Path:
        """Copy the whole file to ``path`` and return its absolute path.

        SQLite's online backup API copies ``pages`` pages per step from one
        snapshot: writers (this store's threads, other processes) go on
        writing meanwhile, and the copy holds everything committed when it
        began. The copy is written to a temporary file beside ``path``
        (readable by its owner alone), checked (``integrity_check``, foreign
        keys, localmem's application id and schema version) and only then
        renamed to ``path`` (``localmem.files``): an interrupted backup never
        leaves a partial database under that name, and retrying works. A copy
        that fails its check is deleted and :class:`DatabaseError` raised.
        Raises :class:`InvalidInput`, writing nothing, if ``path`` is not a
        path, is this database or one of its ``-wal``/``-shm`` files, is a
        symbolic link, or exists (unless ``force``, which replaces it).
        ``on_progress(copied, total)`` is called after each step, in pages.
        The copy of an encrypted file is encrypted with the same key.
        """
        if not isinstance(path, (str, Path)) or str(path) in ("", db.MEMORY):
            raise InvalidInput(f"a backup needs a file path, not {path!r}")
        if isinstance(pages, bool) or not isinstance(pages, int) or pages < 1:
            raise InvalidInput(f"pages must be a positive integer, not {pages!r}")
        if not isinstance(force, bool):
            raise InvalidInput(f"force must be True or False, not {type(force).__name__}")
        target = files.check_target(path, database=self._db.path, force=force, parents=True)
        with files.temporary_beside(target) as (temporary, fd):
            os.close(fd)  # SQLite opens it by name; empty, it is an empty database
            try:
                if self._db.path == db.MEMORY:
                    # The only connection to an in-memory database: hold the lock.
                    with self._db.locked() as conn:
                        db.backup(conn, temporary, pages=pages, progress=on_progress)
                else:
                    # Its own connection: this store's threads are not held up meanwhile.
                    handle = self._db
                    with db.reader(handle.path, handle.config.busy_timeout, handle.key) as source:
                        db.backup(
                            source, temporary, pages=pages, progress=on_progress, key=self._db.key
                        )
                problem = db.verify_copy(temporary, self._db.key)
                if problem is not None:
                    raise DatabaseError(
                        f"backup of {self._db.path} to {target} failed its check: {problem}"
                    )
                files.publish(temporary, target, force=force)
            except sqlite3.Error as exc:
                raise DatabaseError(f"backup of {self._db.path} to {target} failed: {exc}") from None
            finally:
                files.remove_database(temporary)  # gone once published; else the failed copy
        logger.info("backed up %s to %s", self._db.path, target)
        return target

    # --- inspection ----------------------------------------------------------------

    def stats(self) -> Stats:
        """Counts, sizes, tokenizer and this store's cache figures. Read-only.

        The counts come from one snapshot; they read whole tables (through
        their smallest index), so they take milliseconds per million rows.
        """
        with self._db.locked(), self._db.snapshot() as conn:
            counts = db.stats_counts(conn)
            page_size, page_count, version, _app_id = db.file_pragmas(conn)
        cache = self._contexts.cache_stats()
        lookups = cache["hits"] + cache["misses"]
        return Stats(
            path=str(self._db.path),
            **counts,
            file_bytes=sum(self._file_bytes()),
            page_size=page_size,
            page_count=page_count,
            schema_version=version,
            tokenizer=self._db.tokenizer.name,
            tokenizer_exact=self._db.tokenizer.exact,
            cache_hits=cache["hits"],
            cache_misses=cache["misses"],
            cache_hit_rate=round(cache["hits"] / lookups, 4) if lookups else None,
        )

    def check_file(self) -> list[str]:
        """What SQLite finds wrong with the file: ``quick_check`` and
        ``foreign_key_check`` findings, [] when it is sound. Read-only."""
        with self._db.locked() as conn:
            return db.integrity_problems(conn)

