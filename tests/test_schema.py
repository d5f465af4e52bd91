"""The file itself: schema, migrations, pragmas, permissions, indexes, and
files that are not ours."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import stat
import subprocess
from pathlib import Path

import pytest

from localmem import MemoryStore, db
from localmem.errors import NotALocalMemDatabase, SchemaTooNew
from localmem.migrations import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from tests.old_files import file_at_version

ROOT = Path(__file__).resolve().parents[1]


def test_schema_sql_is_the_schema_of_a_fresh_file(store: MemoryStore) -> None:
    assert (ROOT / "schema.sql").read_text() == store.schema(), (
        "schema.sql drifted from the migrations: run `localmem schema --db /tmp/x.db > schema.sql`"
    )


def test_pragmas_of_a_fresh_file(store: MemoryStore, db_path: Path) -> None:
    conn = store._db.conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 30_000
    raw = sqlite3.connect(db_path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"sessions", "messages", "summaries", "semantic_pins"} <= tables


def test_file_and_its_wal_are_private(store: MemoryStore, session, db_path: Path) -> None:
    store.add_message(session.id, "user", "a private conversation")
    for suffix in ("", "-wal", "-shm"):
        path = Path(str(db_path) + suffix)
        assert path.exists(), path
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_an_empty_file_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.touch()
    with MemoryStore(path) as store:
        assert store.create_session().id


def test_an_older_file_is_migrated_in_place(tmp_path: Path) -> None:
    # A file at version 0 with our application id: an interrupted first open.
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.close()
    with MemoryStore(path) as store:
        store.create_session()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def _snapshot(path: Path) -> bytes:
    return path.read_bytes()


def test_files_that_are_not_ours_are_refused_and_untouched(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("just some notes\n" * 100)
    other = tmp_path / "other-app.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
    conn.execute("INSERT INTO photos (path) VALUES ('a.jpg')")
    conn.commit()
    conn.close()
    for path in (text, other):
        before = _snapshot(path)
        with pytest.raises(NotALocalMemDatabase, match="left untouched"):
            MemoryStore(path)
        assert _snapshot(path) == before
        assert not Path(str(path) + "-wal").exists()


def test_a_newer_file_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    MemoryStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    before = _snapshot(path)
    with pytest.raises(SchemaTooNew, match="upgrade localmem"):
        MemoryStore(path)
    assert _snapshot(path) == before


HOT_QUERIES = [
    (db.RECENT_MESSAGES_SQL, ("s", 8)),
    (db.MESSAGES_AFTER_SQL, ("s", 0, 10)),
    (db.TOP_PINS_SQL, ("s", 5)),
    (db.OWN_PINS_SQL, ("s",)),
    (db.PINNED_SESSIONS_SQL, ()),
    (db.RECENT_SUMMARIES_SQL, ("s", 1, 3)),
    (db.CONTEXT_SUMMARIES_SQL, ("s", 3)),
    (db.SESSION_PROFILE_SQL, ("s",)),
    (db.MODEL_RATIO_SQL, ("m",)),
    (db.LAST_COVERED_SQL, ("s", 1)),
    (db.SUMMARIES_AFTER_SQL, ("s", 1, 0)),
    (db.OVERLAP_SQL, ("s", 1, 1, 15)),
    (db.RANGE_MESSAGES_SQL, ("s", 1, 15)),  # m011: a summary's range is all still there
    (db.GET_CACHED_SUMMARY_SQL, ("k",)),
    (db.GET_SESSION_SQL, ("s",)),
    (db.TOUCH_SESSION_SQL, ("t", "s")),
    (db.MESSAGE_SESSION_SQL, (1,)),
    (db.PIN_SCOPE_SQL, (1,)),
    (db.SESSION_PINS_SQL, ("s",)),
    (db.SUPERSEDE_PIN_SQL, ("t", "slot", 1)),
    # m008_auto_pins
    (db.INSERT_AUTO_PIN_SQL, ("s", "c", "k", None, 0.6, 3, "t", "s")),
    (db.KIND_PINS_SQL, ("s", "auto")),
    (db.GET_PIN_SQL, (1,)),
    (db.KEYED_PIN_SQL, ("s", "k", "auto", 0)),
    (db.DELETE_AUTO_KEYED_PINS_SQL, ("s", "k")),
    (db.UPDATE_PIN_SQL, ("c", "k", 0.5, 3, 1)),
    ("DELETE FROM messages WHERE id = ?", (1,)),  # the pin cascade (ON DELETE SET NULL)
    (db.ITEMS_AFTER_SQL, ("s", "k", 0)),
    (db.NEWEST_ITEMS_SQL, ("s", "k", 0, 20)),
    (db.DELETE_MESSAGE_SQL, (1,)),
    # forgetting
    (db.COVERING_SUMMARY_SQL, ("s", 15)),
    (db.ROLLUPS_FROM_SQL, ("s", 15)),
    (db.DELETE_CHECKPOINTS_FROM_SQL, ("s", 15)),
    (db.DELETE_SOURCED_AUTO_PINS_SQL, (15,)),
    (db.DELETE_SESSION_SOURCED_AUTO_PINS_SQL, ("s",)),
    (db.SESSION_LOWEST_IDS_SQL, ("s",)),
    (db.REWRITE_SUMMARY_SQL, ("t", 1, 15, 15, "fallback", 3, 1)),
    (db.REWRITE_FACTS_SQL, ("{}", "t", "rules", 1)),
    (db.CLEAR_MESSAGES_SQL, ("s",)),
    (db.CLEAR_SUMMARIES_SQL, ("s",)),
    (db.TERM_DOCS_SQL, ('"code"', 1001)),
    (db.TERM_DOCS_ALL_SQL, ('"code"', 1001)),
    (db.TERM_HOLDERS_SQL, ('session_id : "s730" AND - session_id : "code"', 100)),
    (db.TERM_HOLDERS_AFTER_SQL, ('session_id : "s730" AND - session_id : "code"', 100)),
    (db.TERM_FILE_HOLDERS_AFTER_SQL, ('"code"', 100)),
    (db.SCOPE_STATS_SQL, ("s", 0)),
    (db.MESSAGES_BY_IDS_SQL, ("[1, 2]", "s")),
    (db.NEIGHBOURS_SQL, ("[5, -5]",)),
    (db.SESSION_NAMES_SQL, ('["s", "t"]',)),
    (db.PENDING_MESSAGES_SQL, ("s", "m", 0, 32)),
    (db.SESSION_VECTORS_SQL, ("s", "m", 100)),
    (db.SEARCH_MESSAGES_SQL, ('"code"', "[", "]", "…", 24, 10, None, 20000)),
    (db.SEARCH_SUMMARIES_SQL, ('"code"', "[", "]", "…", 24, 10, None, 20000)),
    (db.SEARCH_PINS_SQL, ('session_id : ("s730" OR "u0") AND - session_id : ("code")', "[", "]", "…", 24, 10, "s", 20000)),
    ("DELETE FROM summaries WHERE id = ?", (1,)),  # the search index's delete triggers
    ("DELETE FROM semantic_pins WHERE id = ?", (1,)),
    # m005_session_state
    (db.SESSION_STATE_SQL, ("s", 10, 5, 10, 20, 5)),
    (db.ACTIVE_GOAL_SQL, ("s",)),
    (db.GOALS_SQL, ("s",)),
    (db.END_GOAL_SQL, ("completed", "{}", 1, "t", 1)),
    (db.GOAL_SUBTASKS_SQL, ("s", 1)),
    (db.GET_SUBTASK_SQL, (1,)),
    (db.SUBTASK_SESSION_SQL, (1,)),
    (db.UPDATE_SUBTASK_SQL, ("completed", None, 1, "t", 1)),
    (db.SUBTASKS_SQL, ("s",)),
    (db.GOAL_TOOLS_SQL, ("s", 1)),
    (db.TOOLS_SQL, ("s",)),
    (db.TRACK_FILE_SQL, ("s", "a.py", 0, 3, "t")),
    (db.GET_FILE_SQL, ("s", "a.py")),
    (db.FILES_SQL, ("s",)),
    (db.CHECKPOINTS_SQL, ("s", 1)),
    (db.PRUNE_CHECKPOINTS_SQL, ("s", 10)),
    (db.CLEAR_CHECKPOINTS_SQL, ("s",)),
    (db.FACTS_SQL, ("s",)),
    (db.UNCOVERED_TOKENS_SQL, ("s", 0)),
    (db.SEARCH_FACTS_SQL, ('"code"', "[", "]", "…", 24, 10, None, 20000)),
    ("DELETE FROM goals WHERE id = ?", (1,)),  # the subtask and tool cascades
    ("DELETE FROM summary_facts WHERE id = ?", (1,)),  # the facts index's delete trigger
    ("DELETE FROM sessions WHERE id = ?", ("s",)),  # every cascade of a session
    # m007_views, as a person reads them (whole views: test_admin.py)
    ("SELECT * FROM session_overview WHERE id = ?", ("s",)),
    ("SELECT * FROM messages_with_summary WHERE session_id = ? ORDER BY id", ("s",)),
    ("SELECT * FROM messages_with_summary WHERE id = ?", (1,)),
    # export / import (SESSION_IDS_SQL reads every session by design: not here)
    (db.SESSION_ROW_SQL, ("s",)),
    (db.SESSION_ITEMS_SQL, ("s",)),
    (db.IMPORT_GOAL_SQL, ("s", "g", "completed", 1, "{}", 1, "t", "t")),
    (db.IMPORT_SUBTASK_SQL, ("s", None, "n", "pending", "[]", None, 1, "t", "t")),
    (db.IMPORT_FILE_SQL, ("s", "a.py", 0, 1, 1, "t", "t")),
]


@pytest.mark.parametrize(("sql", "params"), HOT_QUERIES, ids=[q[0][:50] for q in HOT_QUERIES])
def test_hot_queries_use_an_index(store: MemoryStore, sql: str, params: tuple) -> None:
    plan = store._db.conn.execute("EXPLAIN QUERY PLAN " + sql, params).fetchall()
    details = [row[3] for row in plan]
    # "SCAN (subquery-1)" reads a bounded co-routine; a SCAN of a table reads it all.
    scans = [d for d in details if re.match(r"SCAN (?!\(|CONSTANT ROW)", d) and "INDEX" not in d]
    assert not scans, details
    # A full-text index always shows as "SCAN x VIRTUAL TABLE INDEX n:idxStr". It
    # reads its index only when idxStr holds a MATCH (M) or a rowid lookup (=);
    # with neither, it reads every row, so that is a scan too.
    # json_each reads the JSON array it is given (a list of ids), nothing of the file.
    virtual = [re.match(r"SCAN (?!json_each )\S+ VIRTUAL TABLE INDEX \d+:(\S*)", d) for d in details]
    assert not [m.group(0) for m in virtual if m and not re.search("[M=]", m.group(1))], details
    assert not any("USE TEMP B-TREE" in d for d in details), details


@pytest.mark.parametrize(
    ("sql", "params"),
    [(db.SCOPE_IDS_SQL, ("s", 0)), (db.SCOPE_STATS_SQL, ("s", 0))],
    ids=["scope_ids", "scope_stats"],
)
def test_a_sessions_statistics_are_read_from_its_index_alone(
    store: MemoryStore, sql: str, params: tuple
) -> None:
    """m016_scope_index: a session's count, tokens and ids read no message row (a
    covering index), what a session's first query-aware context reads for BM25."""
    plan = [row[3] for row in store._db.conn.execute("EXPLAIN QUERY PLAN " + sql, params)]
    assert plan == ["SEARCH messages USING COVERING INDEX messages_session_tokens (session_id=? AND id>?)"]


def test_the_scope_index_replaces_the_older_one_in_a_migrated_file(tmp_path: Path) -> None:
    """A file made before m016 keeps one index of a session's messages, the covering one,
    and its statistics are the same read either way."""
    before = [name for name, _ in MIGRATIONS].index("m016_scope_index")
    path = file_at_version(tmp_path / "old.db", before, [
        ("INSERT INTO sessions (id, title, model, created_at, updated_at) VALUES ('s', NULL, NULL, "
         "'2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')", ()),
        *[("INSERT INTO messages (id, session_id, role, text, token_count, importance_score, created_at) "
           "VALUES (?, 's', 'user', ?, 7, 0.5, '2026-01-01T00:00:00.000Z')", (n + 1, f"note number {n} about the garden"))
          for n in range(5)],
    ])
    with sqlite3.connect(path) as raw:
        assert {r[0] for r in raw.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages'"
        )} >= {"messages_session_id"}
    with MemoryStore(path) as store:
        conn = store._db.conn
        names = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages'"
        )}
        assert names == {"messages_session_tokens"}
        assert db.scope_ids(conn, "s", 0, 100) == (5, 35, 5, [1, 2, 3, 4, 5])


def test_sqlite3_tool_and_sqlite_utils_read_the_file(store: MemoryStore, session, db_path: Path) -> None:
    store.add_message(session.id, "user", "readable by anyone with the file")
    import sqlite_utils

    sdb = sqlite_utils.Database(db_path)
    assert {"sessions", "messages", "summaries", "semantic_pins"} <= set(sdb.table_names())
    assert list(sdb["messages"].rows)[0]["text"] == "readable by anyone with the file"
    sqlite3_tool = shutil.which("sqlite3")
    if sqlite3_tool is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install Debian's sqlite3 tool (.ci/run does)")
        pytest.skip("the sqlite3 command-line tool is not installed")
    out = subprocess.run(
        [sqlite3_tool, str(db_path), "SELECT role, text, token_count FROM messages"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip() == "user|readable by anyone with the file|7"
