"""The file as a whole: retention, vacuum, backup, stats, integrity and the SQL
views, on real files (and the real ``sqlite3`` tool for the views)."""

from __future__ import annotations

import datetime
import json
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from localmem import MemoryStore, Session
from localmem.errors import DatabaseError, InvalidInput, SessionNotFound
from localmem.migrations import SCHEMA_VERSION
from localmem.store import iso
from localmem.tokens import ESTIMATE_NAME, Tokenizer
from tests.old_files import file_at_version

ROOT = Path(__file__).resolve().parents[1]
T0 = datetime.datetime(2026, 1, 1, 12, 0, tzinfo=datetime.timezone.utc)
DAY = datetime.timedelta(days=1)


class Clock:
    """A store clock the test moves by hand."""

    def __init__(self, now: datetime.datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime.datetime:
        return self.now


def sqlite3_json(path: Path, sql: str) -> list[dict]:
    """Rows of ``sql`` as the real ``sqlite3`` tool prints them with ``-json``."""
    tool = shutil.which("sqlite3")
    if tool is None:
        pytest.fail("the sqlite3 command-line tool is missing: install it (CI does)")
    out = subprocess.run(
        [tool, "-json", str(path), sql], capture_output=True, text=True, check=True
    ).stdout
    return json.loads(out) if out.strip() else []


def fill(store: MemoryStore, messages: int = 20, title: str = "busy") -> Session:
    """A session with ``messages`` messages, the first 15 summarized (offline), a pin,
    a finished and an active goal and a checkpoint."""
    s = store.create_session(model="llama3.2", title=title)
    store.add_messages(
        s.id, [{"role": "user", "text": f"message {i} about the garden"} for i in range(messages)]
    )
    store.summarize(s.id)
    store.pin(s.id, "The user grows tomatoes", importance=0.9)
    store.set_goal(s.id, "plan the beds")
    store.complete_goal(s.id)
    store.set_goal(s.id, "order seeds")
    store.checkpoint(s.id)
    return s


@pytest.fixture
def offline(dead_ollama_host: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", dead_ollama_host)


# --- views -----------------------------------------------------------------------


def test_session_overview_in_sqlite3_matches_the_api(
    store: MemoryStore, db_path: Path, offline: None
) -> None:
    busy = fill(store)
    empty = store.create_session(title="nothing yet")
    rows = {r["id"]: r for r in sqlite3_json(db_path, "SELECT * FROM session_overview")}
    assert set(rows) == {busy.id, empty.id}
    for session in store.list_sessions():
        messages = store.get_messages(session.id)
        goal = [g.text for g in store.get_goals(session.id) if g.status == "active"]
        checkpoint = store.latest_checkpoint(session.id)
        assert rows[session.id] == {
            "id": session.id,
            "title": session.title,
            "model": session.model,
            "created_at": session.created_at,
            "last_activity": session.updated_at,
            "message_count": len(messages),
            "token_count": sum(m.token_count for m in messages),
            "summary_count": len(store.get_summaries(session.id)),
            "pin_count": len(store.get_pins(session.id)),
            "active_goal": goal[0] if goal else None,
            "latest_checkpoint_at": checkpoint.created_at if checkpoint else None,
        }
    assert rows[busy.id]["message_count"] == 20 and rows[busy.id]["active_goal"] == "order seeds"
    assert rows[empty.id]["message_count"] == 0 and rows[empty.id]["token_count"] == 0


def test_messages_with_summary_in_sqlite3_matches_the_api(
    store: MemoryStore, db_path: Path, offline: None
) -> None:
    s = fill(store, messages=33)  # 1-15 and 16-30 summarized, 31-33 not yet
    store.summarize(s.id)
    other = fill(store, messages=3, title="other")  # no summary at all
    summaries = store.get_summaries(s.id)
    assert [(u.start_message_id, u.end_message_id) for u in summaries] == [(1, 15), (16, 30)]
    rows = sqlite3_json(
        db_path, f"SELECT * FROM messages_with_summary WHERE session_id = '{s.id}' ORDER BY id"
    )
    messages = store.get_messages(s.id)
    assert len(rows) == len(messages) == 33
    for row, message in zip(rows, messages):
        covering = [u for u in summaries if u.start_message_id <= message.id <= u.end_message_id]
        expected = (covering[0].id, 1, covering[0].text) if covering else (None, None, None)
        assert row == {
            **message.model_dump(),
            "summary_id": expected[0],
            "summary_level": expected[1],
            "summary_text": expected[2],
        }
    others = sqlite3_json(db_path, f"SELECT * FROM messages_with_summary WHERE session_id = '{other.id}'")
    assert [r["summary_id"] for r in others] == [None, None, None]


VIEW_QUERIES = [
    "SELECT * FROM session_overview",
    "SELECT * FROM messages_with_summary",
    "SELECT * FROM messages_with_summary WHERE id > 100 ORDER BY id LIMIT 50",
]


@pytest.mark.parametrize("sql", VIEW_QUERIES)
def test_views_read_each_row_through_indexes(store: MemoryStore, sql: str) -> None:
    """A whole view reads its driving table once; every other table by index
    (the filtered forms are in test_schema's HOT_QUERIES)."""
    plan = [row[3] for row in store._db.conn.execute("EXPLAIN QUERY PLAN " + sql)]
    scans = [d for d in plan if re.match(r"SCAN ", d)]
    assert scans in (["SCAN s"], ["SCAN m"]) or not scans, plan
    assert not any("TEMP B-TREE" in d for d in plan), plan
    assert all(d.startswith(("SEARCH", "CORRELATED", "SCAN")) for d in plan), plan


# --- retention ---------------------------------------------------------------------


def test_prune_deletes_sessions_idle_too_long(db_path: Path) -> None:
    clock = Clock()
    with MemoryStore(db_path, clock=clock) as store:
        old = store.create_session(title="old")
        store.add_message(old.id, "user", "hello from January")
        store.pin(old.id, "a fact")
        store.set_goal(old.id, "a goal")
        store.checkpoint(old.id)
        revived = store.create_session(title="revived")
        touched = store.create_session(title="pinned later")
        clock.now = T0 + 40 * DAY
        store.add_message(revived.id, "user", "back again")  # a message is activity
        store.pin(touched.id, "a later fact")  # so is a pin (it updates the session)
        fresh = store.create_session(title="fresh")
        store.build_context(old.id)  # cached, and its session memoized
        clock.now = T0 + 45 * DAY

        assert store.prune(datetime.timedelta(days=30), dry_run=True) == [old.id]
        assert len(store.list_sessions()) == 4  # a dry run deletes nothing
        assert store.prune(datetime.timedelta(days=30)) == [old.id]

        assert {s.id for s in store.list_sessions()} == {revived.id, touched.id, fresh.id}
        with pytest.raises(SessionNotFound):
            store.build_context(old.id)  # neither the cache nor the memo kept it
        assert store.prune(datetime.timedelta(days=30)) == []
    raw = sqlite3.connect(db_path)
    for table in ("messages", "semantic_pins", "goals", "checkpoints"):
        assert raw.execute(f"SELECT count(*) FROM {table} WHERE session_id = ?", (old.id,)).fetchone() == (0,)
    assert raw.execute("PRAGMA foreign_key_check").fetchall() == []


def test_prune_with_zero_keeps_nothing_idle_and_a_huge_age_keeps_everything(db_path: Path) -> None:
    clock = Clock()
    with MemoryStore(db_path, clock=clock) as store:
        a = store.create_session()
        assert store.prune(datetime.timedelta.max) == []
        assert store.prune(datetime.timedelta(0)) == []  # last active exactly now: not older
        clock.now += datetime.timedelta(milliseconds=1)
        assert store.prune(datetime.timedelta(0)) == [a.id]


@pytest.mark.parametrize(
    "bad", [-DAY, 30, "30d", None, True, 30.0], ids=["negative", "int", "str", "None", "bool", "float"]
)
def test_prune_refuses_bad_ages_and_deletes_nothing(store: MemoryStore, session, bad: object) -> None:
    with pytest.raises(InvalidInput, match="older_than"):
        store.prune(bad)  # type: ignore[arg-type]
    assert [s.id for s in store.list_sessions()] == [session.id]


# --- vacuum ------------------------------------------------------------------------


def _file_bytes(path: Path) -> int:
    return sum(os.stat(p).st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def test_vacuum_gives_deleted_space_back(store: MemoryStore, db_path: Path) -> None:
    doomed = store.create_session()
    kept = store.create_session()
    store.add_messages(doomed.id, [{"role": "user", "text": "lorem ipsum " * 200}] * 300)
    store.add_messages(kept.id, [{"role": "user", "text": "the cellar key is under the pot"}])
    assert store.search("cellar")  # the search index exists, then is optimized
    store.delete_session(doomed.id)
    before = _file_bytes(db_path)

    result = store.vacuum()

    assert result["bytes_before"] == before
    assert result["bytes_after"] == _file_bytes(db_path) < before / 4
    assert result["log_bytes"] == 0 and os.stat(f"{db_path}-wal").st_size == 0
    assert [h.text for h in store.search("cellar")] == ["the cellar key is under the pot"]
    assert store.check_file() == []
    assert store._db.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 30_000  # restored


@pytest.mark.parametrize("begin", ["BEGIN IMMEDIATE", "BEGIN"], ids=["writer", "reader"])
def test_vacuum_refuses_while_another_connection_holds_a_transaction(
    store: MemoryStore, session, db_path: Path, begin: str
) -> None:
    store.add_message(session.id, "user", "still here")
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute(begin)
    other.execute("SELECT count(*) FROM messages").fetchone()
    started = time.monotonic()
    with pytest.raises(DatabaseError, match="another connection holds a transaction"):
        store.vacuum()
    assert time.monotonic() - started < 5  # refused at once, not after the busy timeout
    other.execute("COMMIT")
    other.close()
    assert store.get_messages(session.id)[0].text == "still here"
    assert store.vacuum()["log_bytes"] == 0  # fine once the other one is done


# --- backup ------------------------------------------------------------------------


def test_backup_is_a_private_verified_copy(
    store: MemoryStore, db_path: Path, tmp_path: Path, offline: None
) -> None:
    s = fill(store)
    target = tmp_path / "backups" / "copy.db"  # a missing directory is created

    assert store.backup(target) == target

    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    with MemoryStore(target) as copy:
        assert copy.list_sessions() == store.list_sessions()
        assert copy.get_messages(s.id) == store.get_messages(s.id)
        assert copy.get_summaries(s.id) == store.get_summaries(s.id)
        assert copy.latest_checkpoint(s.id) == store.latest_checkpoint(s.id)
        assert copy.check_file() == []


@pytest.mark.parametrize("bad", ["", ":memory:", 42, None], ids=["empty", "memory", "int", "None"])
def test_backup_refuses_what_is_not_a_path(store: MemoryStore, bad: object) -> None:
    with pytest.raises(InvalidInput, match="a backup needs a file path"):
        store.backup(bad)  # type: ignore[arg-type]


def test_backup_never_overwrites(store: MemoryStore, session, tmp_path: Path) -> None:
    existing = tmp_path / "precious.db"
    existing.write_bytes(b"do not touch")
    with pytest.raises(InvalidInput, match="already exists"):
        store.backup(existing)
    assert existing.read_bytes() == b"do not touch"
    with pytest.raises(InvalidInput, match="pages"):
        store.backup(tmp_path / "new.db", pages=0)
    assert not (tmp_path / "new.db").exists()


def test_backup_of_an_in_memory_store(tmp_path: Path) -> None:
    with MemoryStore(":memory:") as store:
        s = store.create_session(title="ram")
        store.add_message(s.id, "user", "only in memory")
        target = store.backup(tmp_path / "ram.db")
    with MemoryStore(target) as copy:
        assert copy.get_messages(s.id)[0].text == "only in memory"


def test_backup_while_another_process_writes(store: MemoryStore, db_path: Path, tmp_path: Path) -> None:
    bulk = store.create_session(title="bulk")
    store.add_messages(bulk.id, [{"role": "user", "text": "x" * 2000}] * 1000)  # ~500 pages
    live = store.create_session(title="live")
    writer = subprocess.Popen(
        [sys.executable, "-m", "tests.stress_worker", "writer", str(db_path), live.id, "1000000"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        deadline = time.monotonic() + 30
        while not store.get_messages(live.id, limit=20) or len(store.get_messages(live.id)) < 20:
            assert time.monotonic() < deadline and writer.poll() is None, "the writer did not start"
            time.sleep(0.01)
        before = len(store.get_messages(live.id))
        started = iso(datetime.datetime.now(datetime.timezone.utc))
        copy_path = store.backup(tmp_path / "live.db", pages=1)
        ended = iso(datetime.datetime.now(datetime.timezone.utc))
        written = store.get_messages(live.id)
    finally:
        writer.kill()
        writer.wait()
    # The writer was never blocked: it committed while the backup ran.
    assert any(started < m.created_at < ended for m in written)
    with MemoryStore(copy_path) as copy:
        texts = [m.text for m in copy.get_messages(live.id)]
        assert len(copy.get_messages(bulk.id)) == 1000
    # One snapshot: a prefix of what the writer committed, in order, with no hole.
    assert before <= len(texts) <= len(written)
    assert texts == [f"{live.id}:{i}" for i in range(len(texts))]


# --- stats and integrity -------------------------------------------------------------


def test_stats_count_what_the_file_holds(store: MemoryStore, db_path: Path, offline: None) -> None:
    s = fill(store)
    store.create_session()
    store.pin(s.id, "an automatic fact", kind="auto")
    store.build_context(s.id)
    store.build_context(s.id)

    stats = store.stats()

    assert stats.model_dump() == {
        "path": str(db_path),
        "sessions": 2,
        "messages": 20,
        "summaries_by_level": {1: 1},
        "summaries_by_source": {"offline": 1},
        "pins_by_kind": {"manual": 1, "auto": 1},
        "goals_by_status": {"active": 1, "completed": 1},
        "checkpoints": len(store.get_checkpoints(s.id)),
        "file_bytes": _file_bytes(db_path),
        "page_size": 4096,
        "page_count": stats.page_count,
        "schema_version": SCHEMA_VERSION,
        "tokenizer": "cl100k_base",
        "tokenizer_exact": True,
        "cache_hits": 1,
        "cache_misses": 1,
        "cache_hit_rate": 0.5,
    }
    assert stats.page_count > 0


def test_stats_of_an_empty_store_with_the_estimate_tokenizer(tmp_path: Path) -> None:
    with MemoryStore(tmp_path / "e.db", tokenizer=Tokenizer("no-such-encoding")) as store:
        stats = store.stats()
    assert (stats.sessions, stats.messages, stats.summaries_by_source) == (0, 0, {})
    assert (stats.tokenizer, stats.tokenizer_exact) == (ESTIMATE_NAME, False)
    assert stats.cache_hit_rate is None


def test_check_file_reports_broken_references(store: MemoryStore, session, db_path: Path) -> None:
    store.add_message(session.id, "user", "hello")
    assert store.check_file() == []
    raw = sqlite3.connect(db_path, isolation_level=None)  # foreign keys off, as sqlite3 has them
    raw.execute(
        "INSERT INTO messages (session_id, role, text, token_count, importance_score, created_at)"
        " VALUES ('ghost', 'user', 'orphan', 1, 0.5, 'x')"
    )
    raw.close()
    assert store.check_file() == ["messages row 2 refers to a missing sessions row"]


def test_a_version_5_file_gains_the_views(tmp_path: Path) -> None:
    path = file_at_version(
        tmp_path / "v5.db", 5, [("INSERT INTO sessions VALUES ('s', 'old', NULL, 't0', 't1')", ())]
    )
    MemoryStore(path).close()
    assert sqlite3_json(path, "SELECT id, title, last_activity, message_count FROM session_overview") == [
        {"id": "s", "title": "old", "last_activity": "t1", "message_count": 0}
    ]
