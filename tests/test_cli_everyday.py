"""The CLI as a script or a pipe meets it: real ``localmem`` processes whose stdin
is not a terminal (issue 24, part 2)."""

from __future__ import annotations

import os
import stat
import sqlite3
import subprocess
import sys
from pathlib import Path

from localmem import MemoryStore

DEAD_OLLAMA = "http://127.0.0.1:9"


def localmem(*args: str, stdin: bytes = b"", env: dict | None = None) -> subprocess.CompletedProcess:
    """``localmem ARGS`` in a fresh process, stdin a pipe (never a terminal)."""
    return subprocess.run(
        [sys.executable, "-m", "localmem", *args],
        input=stdin, capture_output=True, timeout=120,
        env={**os.environ, "OLLAMA_HOST": DEAD_OLLAMA, **(env or {})},
    )


def test_forget_one_message_and_refuse_without_yes(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with MemoryStore(db) as store:
        s = store.create_session(session_id="s")
        keep = store.add_message("s", "user", "keep this one")
        drop = store.add_message("s", "user", "my secret is swordfish")
    done = localmem("forget", "--message", str(drop.id), "--db", str(db))
    assert done.returncode == 1
    assert done.stderr.decode() == (
        "Error: refusing to delete without a terminal to confirm on: pass --yes to go ahead\n"
    )
    with MemoryStore(db) as store:
        assert [m.id for m in store.get_messages(s.id)] == [keep.id, drop.id]
    done = localmem("forget", "--message", str(drop.id), "--yes", "--db", str(db))
    assert done.returncode == 0 and done.stdout.decode() == f"Deleted message {drop.id}\n"
    with MemoryStore(db) as store:
        assert [m.id for m in store.get_messages(s.id)] == [keep.id]
        assert store.search("swordfish") == []
    done = localmem("forget", "--message", "999", "--yes", "--db", str(db))
    assert done.returncode == 1 and done.stderr.decode().startswith("Error: ")
    assert len(done.stderr.decode().splitlines()) == 1


def test_db_before_or_after_the_command(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    sid = localmem("--db", str(db), "new").stdout.decode().strip()
    assert localmem("--db", str(db), "sessions", "--json").returncode == 0
    listed = localmem("sessions", "--json", "--db", str(db)).stdout.decode()
    assert sid in listed
    assert localmem("--db", str(db), "path").stdout.decode().strip() == str(db)
    assert "--db" in localmem("--help").stdout.decode()


def test_another_programs_file_is_refused_with_its_mode_untouched(tmp_path: Path) -> None:
    other = tmp_path / "other_app.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (t TEXT)")
    os.chmod(other, 0o644)
    before = other.read_bytes()
    done = localmem("sessions", "--db", str(other))
    assert done.returncode == 1 and "left untouched" in done.stderr.decode()
    assert stat.S_IMODE(other.stat().st_mode) == 0o644
    assert other.read_bytes() == before


def test_an_empty_message_is_refused_as_the_mcp_tool_refuses_it(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with MemoryStore(db) as store:
        store.create_session(session_id="s")
    done = localmem("add", "s", "user", "", "--db", str(db))
    assert done.returncode == 2 and "TEXT is empty" in done.stderr.decode()
    with MemoryStore(db) as store:
        assert store.get_messages("s") == []


def test_a_refused_import_from_stdin_leaves_no_database(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    done = localmem("import", "-", "--db", str(db), stdin=b'{"not": "an export"}\n')
    assert done.returncode == 1 and done.stderr.decode().startswith("Error: ")
    assert not db.exists() and list(tmp_path.iterdir()) == []
