"""Concurrent writers, killed writers, full and read-only disks, bad files.

The long versions are marked ``slow``; ``.ci/run`` runs them with the counts
below. Every process here is a real process on a real file.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections import defaultdict
from pathlib import Path

import pytest

from localmem import MemoryStore
from localmem.errors import NotALocalMemDatabase

ROOT = Path(__file__).resolve().parents[1]


def worker(*args: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.stress_worker", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def integrity(path: Path) -> str:
    return sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone()[0]


@pytest.mark.parametrize(
    "writers,count",
    [pytest.param(4, 200, id="4x200"), pytest.param(4, 2500, id="4x2500", marks=pytest.mark.slow)],
)
def test_concurrent_writers_and_a_reader(db_path: Path, writers: int, count: int) -> None:
    with MemoryStore(db_path) as store:
        sessions = [store.create_session(session_id=f"w{n}").id for n in range(writers)]
    procs = [worker("writer", str(db_path), s, str(count)) for s in sessions]
    reader = worker("reader", str(db_path), "1.0", *sessions)
    for p in [*procs, reader]:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err  # no "database is locked" ever reached a caller
    assert int(out) > 0
    with MemoryStore(db_path) as store:
        for s in sessions:
            texts = [m.text for m in store.get_messages(s)]
            assert texts == [f"{s}:{i}" for i in range(count)]  # all there, in send order
    assert integrity(db_path) == "ok"


@pytest.mark.parametrize(
    "kills", [pytest.param(3, id="3-kills"), pytest.param(30, id="30-kills", marks=pytest.mark.slow)]
)
def test_a_killed_writer_loses_no_batch_and_corrupts_nothing(
    db_path: Path, dead_ollama_host: str, monkeypatch, kills: int
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", dead_ollama_host)
    with MemoryStore(db_path) as store:
        session = store.create_session(model="llama3.2").id
    rng = random.Random(7)
    for _ in range(kills):
        p = worker("batches", str(db_path), session)
        assert p.stdout.readline().strip() == "writing", p.stderr.read()
        time.sleep(rng.uniform(0.0, 0.3))
        p.send_signal(signal.SIGKILL)
        p.wait()
        assert integrity(db_path) == "ok"
    conn = sqlite3.connect(db_path)
    batches: dict[str, list[int]] = defaultdict(list)
    for (text,) in conn.execute("SELECT text FROM messages ORDER BY id"):
        tag, i = text.split(":")
        batches[tag].append(int(i))
    assert batches and all(items == list(range(50)) for items in batches.values())
    ids = {row[0] for row in conn.execute("SELECT id FROM messages")}
    for start, end, count, level in conn.execute(
        "SELECT start_message_id, end_message_id, message_count, level FROM summaries"
    ):
        assert start in ids and end in ids
        if level == 1:
            assert count == sum(1 for i in ids if start <= i <= end) == 15


@pytest.mark.parametrize(
    "processes,rounds",
    [pytest.param(6, 20, id="6x20"), pytest.param(8, 60, id="8x60", marks=pytest.mark.slow)],
)
def test_processes_opening_a_brand_new_file_at_once(tmp_path: Path, processes: int, rounds: int) -> None:
    """Each round, every process opens the same new file at the same moment: one of them
    migrates it, the others must wait for it, never take it for another application's
    file or give up with "database is locked"."""
    procs = [
        worker("opener", str(tmp_path), str(processes), str(rounds), str(me))
        for me in range(processes)
    ]
    failures = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
        failures += [line for line in out.splitlines() if line]
    assert failures == []
    for n in range(rounds):
        with MemoryStore(tmp_path / f"{n}.db") as store:
            assert sorted(s.id for s in store.list_sessions()) == [f"p{me}" for me in range(processes)]
        assert integrity(tmp_path / f"{n}.db") == "ok"


def test_two_processes_summarizing_one_session_never_overlap(db_path: Path, fake_ollama) -> None:
    fake_ollama.delay = 0.1  # both processes ask the model about the same range at once
    with MemoryStore(db_path) as store:
        s = store.create_session(model="llama3.2").id
        store.add_messages(s, [{"role": "user", "text": f"question {i} about the schema?"} for i in range(90)])
    procs = [worker("summarizer", str(db_path), s) for _ in range(2)]
    stored = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        stored.append(int(out))
    with MemoryStore(db_path) as store:
        ranges = [(x.start_message_id, x.end_message_id) for x in store.get_summaries(s) if x.level == 1]
    assert sum(stored) == len(ranges) == 6  # every range stored once, by one of the two
    assert sorted(ranges) == ranges and all(a[1] < b[0] for a, b in zip(ranges, ranges[1:]))
    assert {x for r in ranges for x in r} >= {1, 90}


def test_a_truncated_copy_is_refused_and_untouched(tmp_path: Path, store: MemoryStore, session) -> None:
    store.add_messages(session.id, [{"role": "user", "text": "x" * 2000} for _ in range(200)])
    store._db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    copy = tmp_path / "copy.db"
    data = Path(store.path).read_bytes()
    copy.write_bytes(data[: len(data) // 2])
    before = copy.read_bytes()
    with pytest.raises(NotALocalMemDatabase, match="truncated"):
        MemoryStore(copy)
    assert copy.read_bytes() == before


FULL_DISK_SCRIPT = textwrap.dedent(
    """
    import os, sqlite3, subprocess, sys
    from localmem import MemoryStore
    from localmem.errors import DatabaseError
    mnt = sys.argv[1]
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", mnt], check=True)
    path = os.path.join(mnt, "memory.db")
    store = MemoryStore(path)
    s = store.create_session().id
    batches = 0
    try:
        while True:
            store.add_messages(s, [{"role": "user", "text": f"{batches}:{i} " + "x" * 500} for i in range(20)])
            batches += 1
    except DatabaseError as exc:
        print("error:", exc)
    store.close()
    conn = sqlite3.connect(path)
    print("integrity:", conn.execute("PRAGMA integrity_check").fetchone()[0])
    print("complete:", conn.execute("SELECT count(*) FROM messages").fetchone()[0] == 20 * batches)
    conn.close()
    subprocess.run(["mount", "-o", "remount,ro", mnt], check=True)
    try:
        MemoryStore(path).add_message(s, "user", "on a read-only disk")
    except DatabaseError as exc:
        print("readonly:", exc)
    """
)


def _can_mount() -> bool:
    unshare = shutil.which("unshare")
    if not unshare or os.geteuid() != 0:
        return False
    probe = subprocess.run([unshare, "-m", "mount", "-t", "tmpfs", "tmpfs", "/mnt"], capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _can_mount(), reason="needs root and mount namespaces for a tiny tmpfs")
def test_a_full_disk_and_a_read_only_disk_give_clear_errors(tmp_path: Path) -> None:
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    out = subprocess.run(
        ["unshare", "-m", sys.executable, "-c", FULL_DISK_SCRIPT, str(mnt)],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert any(line.startswith("error:") and "full" in line for line in lines), lines
    assert "integrity: ok" in lines and "complete: True" in lines
    assert any(line.startswith("readonly:") and "readonly" in line.replace("-", "") for line in lines), lines


@pytest.mark.parametrize("mode", ["ok", "poem", "error500", "hang"])
def test_logs_never_carry_message_text(db_path: Path, fake_ollama, caplog, mode) -> None:
    import logging

    fake_ollama.mode = mode
    secret = "Rosa's bank PIN is 4921"
    with caplog.at_level(logging.INFO, logger="localmem"):
        with MemoryStore(db_path, config={"ollama_timeout": 0.5}) as store:
            s = store.create_session(model="llama3.2")
            store.add_messages(s.id, [{"role": "user", "text": f"{secret} ({i})"} for i in range(15)])
            store.pin(s.id, secret)
            store.summarize(s.id)
            store.build_context(s.id)
    assert caplog.records  # something was logged at INFO or above...
    assert all("4921" not in r.getMessage() for r in caplog.records)  # ...but never the text
