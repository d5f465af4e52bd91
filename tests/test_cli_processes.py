"""The CLI in real processes: Ctrl-C (SIGINT) and SIGKILL mid-export, mid-import and
mid-backup, and what a person sees on a real terminal (a pseudo-terminal): progress
bars with totals, and the question ``forget`` asks.

The file is large enough (20,000 messages, a 10 MB export) that each signal lands
while the work is under way: the test waits for the work's own traces (the hidden
temporary file, the first imported session) before it signals.
"""

from __future__ import annotations

import json
import os
import queue
import select
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from localmem import MemoryStore
from tests.ollama_server import GENERATION_PATHS, FakeOllama

SESSIONS = 200
MESSAGES = 100
FILLER = "We compared three routes for the trip and noted which trains leave early. " * 3


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file of 200 sessions of 100 messages (built once for the module)."""
    path = tmp_path_factory.mktemp("big") / "big.db"
    with MemoryStore(path) as store:
        for n in range(SESSIONS):
            sid = store.create_session(title=f"session {n}").id
            store.add_messages(
                sid,
                [{"role": ("user", "assistant")[i % 2], "text": f"s{n} m{i}. {FILLER}"} for i in range(MESSAGES)],
            )
    return path


@pytest.fixture(scope="module")
def big_export(big: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export") / "all.jsonl"
    assert localmem("export", "-o", str(out), "--db", str(big)).returncode == 0
    return out


def localmem(*args: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "localmem", *args], capture_output=True, text=True, timeout=timeout, **kwargs
    )


def start(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "localmem", *args], **kwargs)


def wait_for(condition: Callable[[], bool], proc: subprocess.Popen, timeout: float = 60) -> bool:
    """Poll until ``condition()`` (True) or the process ended first (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.001)
    raise AssertionError("the work never began")


def temporaries(directory: Path) -> list[Path]:
    return [p for p in directory.iterdir() if p.name.startswith(".") and p.name.endswith(".tmp")]


def sessions_in(path: Path) -> dict[str, int]:
    """Each session's message count, read by another connection (as sqlite3 would)."""
    if not path.exists():
        return {}
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return dict(conn.execute(
            "SELECT s.id, (SELECT count(*) FROM messages m WHERE m.session_id = s.id) FROM sessions s"
        ))
    except sqlite3.OperationalError:
        return {}  # not made yet
    finally:
        conn.close()


# --- export ----------------------------------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_an_interrupted_export_leaves_no_file_under_its_name(big: Path, tmp_path: Path, sig: int) -> None:
    out = tmp_path / "all.jsonl"
    proc = start("export", "-o", str(out), "--db", str(big), stderr=subprocess.PIPE)
    landed = wait_for(lambda: any(p.stat().st_size > 0 for p in temporaries(tmp_path)), proc)
    assert landed, "the export ended before the signal"
    proc.send_signal(sig)
    proc.wait(timeout=60)
    assert proc.returncode != 0
    assert not out.exists()  # never a partial export under the final name
    if sig == signal.SIGINT:
        assert temporaries(tmp_path) == []  # Ctrl-C cleans up after itself
    # Running it again just works: nothing is in the way.
    assert localmem("export", "-o", str(out), "--db", str(big)).returncode == 0
    assert json.loads(out.read_text().splitlines()[-1])["records"]["message"] == SESSIONS * MESSAGES


def test_an_export_cut_in_a_pipe_is_refused_by_import(big: Path, tmp_path: Path) -> None:
    # The reproduction of the issue: `localmem export > all.jsonl`, Ctrl-C.
    out = tmp_path / "all.jsonl"
    with out.open("wb") as sink:
        proc = start("export", "--db", str(big), stdout=sink, stderr=subprocess.DEVNULL)
        assert wait_for(lambda: out.stat().st_size > 1_000_000, proc), "the export ended first"
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    target = tmp_path / "target.db"
    refused = localmem("import", str(out), "--db", str(target))
    assert refused.returncode == 1 and "cut short" in refused.stderr
    assert not target.exists()  # refused before anything was written
    piped = subprocess.run(  # through a pipe: the sessions before the cut, never the cut one
        [sys.executable, "-m", "localmem", "import", "-", "--db", str(target)],
        input=out.read_bytes(), capture_output=True, timeout=120,
    )
    assert piped.returncode == 1 and b"cut short" in piped.stderr
    imported = sessions_in(target)
    assert imported and set(imported.values()) == {MESSAGES}


# --- import ----------------------------------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_an_interrupted_import_is_resumed_by_skip_existing(
    big_export: Path, tmp_path: Path, sig: int
) -> None:
    target = tmp_path / "target.db"
    proc = start("import", str(big_export), "--db", str(target),
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert wait_for(lambda: len(sessions_in(target)) >= 3, proc), "the import ended first"
    proc.send_signal(sig)
    proc.wait(timeout=60)
    assert proc.returncode != 0
    partial = sessions_in(target)
    assert 0 < len(partial) < SESSIONS
    assert set(partial.values()) == {MESSAGES}  # each session whole or absent
    conn = sqlite3.connect(target)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()
    resumed = localmem("import", str(big_export), "--skip-existing", "--db", str(target), "--json")
    assert resumed.returncode == 0, resumed.stderr
    report = json.loads(resumed.stdout)
    assert len(report["skipped"]) == len(partial) and report["verified"]
    done = sessions_in(target)
    assert len(done) == SESSIONS and set(done.values()) == {MESSAGES}


# --- backup ----------------------------------------------------------------------------------


def backup_killed_mid_way(big: Path, directory: Path, sig: int) -> bool:
    """Start a backup, signal it as soon as its temporary file exists; whether it
    was still under way. The target is then absent, or a whole, checked copy."""
    target = directory / "copy.db"
    proc = start("backup", str(target), "--db", str(big), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    landed = wait_for(lambda: bool(temporaries(directory)), proc)
    if landed:
        proc.send_signal(sig)
    proc.wait(timeout=60)
    if target.exists():  # finished before the signal: then whole
        conn = sqlite3.connect(target)
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT count(*) FROM messages").fetchone() == (SESSIONS * MESSAGES,)
        conn.close()
        return False
    return landed


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_an_interrupted_backup_leaves_no_partial_copy_and_the_retry_works(
    big: Path, tmp_path: Path, sig: int
) -> None:
    assert backup_killed_mid_way(big, tmp_path, sig), "the backup ended before the signal"
    target = tmp_path / "copy.db"
    assert not target.exists()
    if sig == signal.SIGINT:
        assert temporaries(tmp_path) == []
    retry = localmem("backup", str(target), "--db", str(big))
    assert retry.returncode == 0, retry.stderr  # not refused: nothing is under the name
    conn = sqlite3.connect(target)
    assert conn.execute("SELECT count(*) FROM messages").fetchone() == (SESSIONS * MESSAGES,)
    conn.close()


@pytest.mark.slow
def test_forty_killed_backups_never_leave_a_partial_copy(big: Path, tmp_path: Path) -> None:
    mid_way = 0
    for n in range(40):
        directory = tmp_path / str(n)
        directory.mkdir()
        mid_way += backup_killed_mid_way(big, directory, signal.SIGKILL)
    assert mid_way >= 20  # most kills landed while the copy was under way


# --- on a terminal ---------------------------------------------------------------------------


def in_terminal(args: list[str], answer: bytes | None = None, timeout: float = 120) -> tuple[int, bytes]:
    """Run ``localmem ARGS`` with a pseudo-terminal as its stdin, stdout and stderr;
    type ``answer`` once it asks; return its exit code and everything it wrote."""
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "localmem", *args], stdin=slave, stdout=slave, stderr=slave,
        env={**os.environ, "COLUMNS": "100"},
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the terminal closed: the process is done
                    break
                if not chunk:
                    break
                seen += chunk
                if answer is not None and b"[y/N]" in seen:
                    os.write(master, answer)
                    answer = None
            elif proc.poll() is not None:
                break
    finally:
        os.close(master)
    return proc.wait(timeout=timeout), seen


def test_progress_bars_have_totals_and_are_not_redrawn_endlessly(big: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.jsonl"
    code, seen = in_terminal(["export", "-o", str(out), "--db", str(big)])
    assert code == 0, seen
    assert f"{SESSIONS}/{SESSIONS}".encode() in seen  # a bar that fills
    assert len(seen) < 20_000  # redrawn at most ten times a second (it was 1.26 MB)
    code, seen = in_terminal(["import", str(out), "--db", str(tmp_path / "copy.db")])
    assert code == 0, seen
    lines = SESSIONS * (MESSAGES + 1) + 2  # the header, the sessions' lines, the end
    size = out.stat().st_size
    assert b"Checking the file" in seen and f"{size}/{size}".encode() in seen
    assert b"Importing lines" in seen and f"{lines}/{lines}".encode() in seen
    assert len(seen) < 40_000


def test_a_wait_for_the_model_says_what_it_waits_for(
    tmp_path: Path, dead_ollama_host: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "s.db"
    with MemoryStore(db) as store:
        store.add_messages(store.create_session(model="llama3.2").id,
                           [{"role": "user", "text": f"m{i}"} for i in range(30)])
    monkeypatch.setenv("OLLAMA_HOST", dead_ollama_host)
    code, seen = in_terminal(["summarize", "--latest", "--timeout", "5", "--db", str(db)])
    assert code == 0 and f"Summarizing (Ollama at {dead_ollama_host}, timeout 5 s".encode() in seen
    assert b"2/2" in seen
    code, seen = in_terminal(["doctor", "--db", str(db)])
    assert code == 3 and f"Waiting up to 3 s for Ollama to list its models at {dead_ollama_host}".encode() in seen


# --- a hung Ollama, through pipes ------------------------------------------------------------

GUARD = 20.0
"""Seconds a test waits for the CLI before failing: a third of the model timeout it sets."""


@pytest.fixture
def hung_ollama() -> Iterator[FakeOllama]:
    """A server that takes every connection and never answers (until the test ends)."""
    with FakeOllama(mode="hang") as server:
        server.mode_paths = GENERATION_PATHS | {"/api/tags", "/api/show", "/api/embed"}
        yield server


def with_messages(db: Path, offline_summaries: bool = False) -> None:
    with MemoryStore(db, config={"offline": True}) as store:
        sid = store.create_session(model="llama3.2").id
        store.add_messages(sid, [{"role": "user", "text": f"note {i} about the trip"} for i in range(30)])
        if offline_summaries:
            store.summarize(sid)


def first_stderr_line(proc: subprocess.Popen, timeout: float) -> str:
    """The first line the process writes on stderr, read while it runs (a thread reads the pipe)."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: lines.put(proc.stderr.readline()), daemon=True).start()
    try:
        return lines.get(timeout=timeout)
    except queue.Empty:
        raise AssertionError(f"nothing on stderr within {timeout} s") from None


@pytest.mark.parametrize(
    "args", [["demo"], ["summarize", "--latest"], ["resummarize"]], ids=lambda a: a[0]
)
def test_a_wait_for_a_hung_model_is_said_at_once_through_a_pipe(
    args: list[str], hung_ollama: FakeOllama, tmp_path: Path
) -> None:
    db = tmp_path / "s.db"
    with_messages(db, offline_summaries=args[0] == "resummarize")
    proc = start(
        *args, "--timeout", "60", "--db", str(db),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "OLLAMA_HOST": hung_ollama.host},
    )
    try:
        line = first_stderr_line(proc, GUARD)
        asked = wait_for(lambda: any(r[1] == "/api/tags" for r in hung_ollama.requests), proc, GUARD)
        waiting = proc.poll() is None  # the line came before the wait ended: it is still on
    finally:
        proc.kill()
        proc.communicate()
    assert line == (
        f"Waiting up to 60 s for Ollama to list its models at {hung_ollama.host} "
        "(--offline skips the local model)...\n"
    )
    assert asked and waiting


def test_doctor_reports_a_hung_server_without_waiting_the_model_timeout(
    hung_ollama: FakeOllama, tmp_path: Path
) -> None:
    db = tmp_path / "s.db"
    with_messages(db)
    with MemoryStore(db) as store:
        sid = store.list_sessions()[0].id
    done = localmem(
        "doctor", "--session", sid, "--timeout", "60", "--db", str(db),
        stdin=subprocess.DEVNULL, env={**os.environ, "OLLAMA_HOST": hung_ollama.host},
        timeout=GUARD,  # the model timeout is 60 s: ending before the guard proves doctor did not wait it
    )
    assert done.returncode == 1, done.stdout  # broken, not merely offline
    assert (
        f"[FAIL] ollama: {hung_ollama.host} took the connection but did not answer within 3 s: "
        "the server is hung" in done.stdout
    )
    assert f"Waiting up to 3 s for Ollama to list its models at {hung_ollama.host}" in done.stderr
    assert "[FAIL] context window: llama3.2: the Ollama server did not answer" in done.stdout


def test_forget_asks_on_a_terminal(tmp_path: Path) -> None:
    db = tmp_path / "f.db"
    with MemoryStore(db) as store:
        ids = [store.create_session().id for _ in range(2)]
    code, seen = in_terminal(["forget", "--older-than", "0s", "--db", str(db)], answer=b"n\n")
    assert code == 1 and b"Delete these 2 sessions" in seen and b"Aborted" in seen
    assert set(sessions_in(db)) == set(ids)
    code, seen = in_terminal(["forget", ids[0], "--db", str(db)], answer=b"y\n")
    assert code == 0 and f"Deleted session {ids[0]}".encode() in seen
    assert set(sessions_in(db)) == {ids[1]}
    code, seen = in_terminal(["forget", ids[1], "--yes", "--db", str(db)])
    assert code == 0 and b"[y/N]" not in seen and sessions_in(db) == {}
