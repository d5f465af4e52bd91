"""The file holds private conversations: it, its -wal and -shm, and the directories
localmem creates for it are the owner's alone, however the path and the umask came."""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from localmem import MemoryStore


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def with_logs(path: Path) -> list[Path]:
    """The database file and whichever of its -wal and -shm exist."""
    return [p for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists()]


def use(path: Path) -> MemoryStore:
    """Open, write, and leave the file open while the caller looks (the -wal and -shm exist)."""
    store = MemoryStore(path)
    session = store.create_session()
    store.add_message(session.id, "user", "my new bank PIN is 8812")
    return store


@pytest.fixture
def umask_000() -> Iterator[None]:
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


def test_a_dangling_symlink_gets_a_private_file(tmp_path: Path) -> None:
    target = tmp_path / "synced" / "memory.db"
    target.parent.mkdir()
    link = tmp_path / "memory.db"
    link.symlink_to(target)  # dangling: the target does not exist yet
    store = use(link)
    try:
        files = with_logs(target) + with_logs(link)[1:]
        assert target in files and len(files) == 3, files  # the db, its -wal and -shm
        assert {p: mode(p) for p in files} == {p: 0o600 for p in files}
        assert link.is_symlink()  # followed, not replaced
    finally:
        store.close()


def test_an_existing_file_others_may_read_is_tightened_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "memory.db"
    use(path).close()
    conn = sqlite3.connect(path)  # a reader that leaves its -wal and -shm behind
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("SELECT count(*) FROM messages").fetchone()
    for p in with_logs(path):
        os.chmod(p, 0o644)  # a copy, an unzip, an editor: anybody's umask
    loose = with_logs(path)
    with caplog.at_level(logging.WARNING, logger="localmem"):
        store = MemoryStore(path)
    try:
        assert {p: mode(p) for p in loose} == {p: 0o600 for p in loose}
        warned = [r.getMessage() for r in caplog.records]
        assert any(str(path) in m and "0644" in m and "0600" in m for m in warned), warned
    finally:
        store.close()
        conn.close()


def test_under_umask_000_new_directories_and_files_are_private(tmp_path: Path, umask_000) -> None:
    path = tmp_path / "a" / "b" / "c" / "memory.db"
    store = use(path)
    try:
        for folder in (tmp_path / "a", tmp_path / "a" / "b", tmp_path / "a" / "b" / "c"):
            assert mode(folder) == 0o700, folder
        files = with_logs(path)
        assert len(files) == 3 and {p: mode(p) for p in files} == {p: 0o600 for p in files}
    finally:
        store.close()
