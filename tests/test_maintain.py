"""Progressive compression by age: ``store.maintain()`` and ``localmem maintain``.

A session idle for 1, 7 or 30 days is compacted more and more tightly (its
summaries, its state in the context); nothing raw is deleted, a second run
does nothing, and a new message brings the full detail back. The clock is
the store's injectable one; the summaries are the offline fallback (the
autouse fixture points OLLAMA_HOST at a dead port).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from localmem import MemoryConfig, MemoryStore
from localmem.cli import cli
from localmem.context import ACTIVE_FILES_HEADING, MODIFIED_FILES_HEADING, TOOLS_HEADING
from localmem.errors import InvalidInput
from localmem.maintain import idle_days, level_for

START = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
MESSAGES = 100
TOOLS = 8
ACTIVE_FILES = 12
MODIFIED_FILES = 25
RAW_TABLES = ("messages", "goals", "subtasks", "tool_executions", "tracked_files", "semantic_pins")


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, days: float) -> None:
        self.now += timedelta(days=days)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def busy(db_path: Path, clock: Clock):
    """A store and a session with a goal, tool calls, files, a pin and 100 messages."""
    with MemoryStore(db_path, clock=clock) as store:
        sid = store.create_session(model="llama3.2", session_id="busy").id
        store.set_goal(sid, "Migrate the billing service to Postgres")
        store.add_subtask(sid, "Port the invoices table")
        for i in range(TOOLS):
            store.record_tool(sid, "run_sql", {"step": i}, result_summary=f"step {i} ok")
        for i in range(ACTIVE_FILES):
            store.track_file(sid, f"src/read_{i}.py")
        for i in range(MODIFIED_FILES):
            store.track_file(sid, f"src/changed_{i}.py", modified=True)
        store.pin(sid, "The production database is read-only on Fridays.")
        store.add_messages(
            sid,
            [
                {"role": "user" if i % 2 == 0 else "assistant", "text": f"Step {i}: moved table t{i} to Postgres."}
                for i in range(MESSAGES)
            ],
        )
        yield store, sid


def section(state: tuple[str, ...], heading: str) -> list[str]:
    """The ``- `` lines under ``heading`` in a context's state lines."""
    if heading not in state:
        return []
    lines = []
    for line in state[state.index(heading) + 1 :]:
        if not line.startswith("- "):
            break
        lines.append(line)
    return lines


def raw_counts(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as conn:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in RAW_TABLES}


@pytest.mark.parametrize(
    ("days", "level"), [(0, 0), (0.99, 0), (1, 1), (6.9, 1), (7, 2), (29, 2), (30, 3), (400, 3)]
)
def test_level_for_idle_days(days: float, level: int) -> None:
    assert level_for(days, (1, 7, 30)) == level


@pytest.mark.parametrize(
    ("stamp", "days"),
    [
        ("2026-01-04T09:00:00.000Z", 1.0),
        ("2026-01-04T10:00:00.000+01:00", 1.0),
        ("2026-01-04T09:00:00", 1.0),  # no zone: UTC, as localmem writes
        ("2026-02-01T00:00:00.000Z", 0.0),  # the future: not idle
        ("yesterday", None),
        ("", None),
    ],
)
def test_idle_days_reads_timestamps(stamp: str, days: float | None) -> None:
    assert idle_days(stamp, START) == days


def test_a_session_whose_timestamps_are_not_timestamps_is_left_alone(
    busy, db_path: Path, clock: Clock
) -> None:
    store, sid = busy
    with sqlite3.connect(db_path) as conn:  # as another program might have written them
        conn.execute("UPDATE sessions SET updated_at = 'last tuesday'")
        conn.execute("UPDATE messages SET created_at = 'last tuesday'")
    clock.advance(40)
    report = store.maintain()
    assert report.checked == 1 and report.compacted == []


def test_a_session_in_use_is_left_alone(busy) -> None:
    store, sid = busy
    before = store.build_context(sid)
    report = store.maintain()
    assert report.checked == 1 and report.compacted == []
    assert store.get_summaries(sid) == []
    assert store.build_context(sid).state == before.state


@pytest.mark.parametrize(
    ("days", "level", "tools", "active", "modified"),
    [(1.5, 1, 3, 5, 10), (8, 2, 1, 3, 5), (31, 3, 0, 0, 0)],
)
def test_idle_sessions_are_compacted_more_tightly_with_age(
    busy, clock: Clock, days: float, level: int, tools: int, active: int, modified: int
) -> None:
    store, sid = busy
    full = store.build_context(sid)
    assert len(section(full.state, TOOLS_HEADING)) == 5
    clock.advance(days)

    report = store.maintain()

    [done] = report.compacted
    assert (done.session_id, done.level, done.previous_level) == (sid, level, 0)
    assert done.idle_days == pytest.approx(days, abs=0.01)
    messages = store.get_messages(sid)
    assert done.through_message_id == messages[-1].id
    summaries = store.get_summaries(sid)
    assert done.summaries == sum(s.level == 1 for s in summaries) > 0
    assert done.rollups == sum(s.level == 2 for s in summaries)
    covered = max(s.end_message_id for s in summaries)
    if level == 1:  # the due ranges, 15 messages each
        assert covered == messages[MESSAGES // 15 * 15 - 1].id
    else:  # all but the newest min_recent_messages
        assert covered == messages[-store.config.min_recent_messages - 1].id

    ctx = store.build_context(sid)
    assert len(section(ctx.state, TOOLS_HEADING)) == tools
    # beyond the limit, files are folded into a count ("- … and N older")
    shown_active = section(ctx.state, ACTIVE_FILES_HEADING)
    shown_modified = section(ctx.state, MODIFIED_FILES_HEADING)
    assert len(shown_active) == active + 1 and shown_active[-1] == f"- … and {ACTIVE_FILES - active} older"
    assert shown_modified[-1] == f"- … and {MODIFIED_FILES - modified} older"
    assert ctx.state[0] == "Goal: Migrate the billing service to Postgres"
    assert "- [pending] Port the invoices table" in ctx.state
    assert [p.content for p in ctx.pins] == ["The production database is read-only on Fridays."]
    level_1 = [s for s in summaries if s.level == 1]
    if level == 3:  # the history is one rollup, which has rolled every level-1 summary
        assert [(s.level, s.end_message_id) for s in ctx.summaries] == [(2, covered)]
    if level == 2:  # the rollup, then the newest level-1 summary
        assert [(s.level, s.end_message_id) for s in ctx.summaries] == [
            (2, level_1[-2].end_message_id),
            (1, covered),
        ]


def test_nothing_raw_is_deleted(busy, db_path: Path, clock: Clock) -> None:
    store, sid = busy
    counts = raw_counts(db_path)
    messages = store.get_messages(sid)
    clock.advance(45)
    store.maintain()
    assert raw_counts(db_path) == counts
    assert store.get_messages(sid) == messages
    assert len(store.get_goals(sid)) == 1


def test_maintenance_is_idempotent_and_steps_up_with_age(busy, db_path: Path, clock: Clock) -> None:
    store, sid = busy
    clock.advance(2)
    assert [c.level for c in store.maintain().compacted] == [1]
    summaries = store.get_summaries(sid)
    with sqlite3.connect(db_path) as conn:
        recorded = conn.execute("SELECT * FROM session_compaction").fetchall()

    again = store.maintain()
    assert again.checked == 1 and again.compacted == []
    assert store.get_summaries(sid) == summaries
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT * FROM session_compaction").fetchall() == recorded

    clock.advance(6)  # 8 days idle: heavy
    [done] = store.maintain().compacted
    assert (done.previous_level, done.level, done.summaries) == (1, 2, 1)  # the tail
    clock.advance(30)
    [done] = store.maintain().compacted
    assert (done.previous_level, done.level, done.summaries) == (2, 3, 0)
    assert store.maintain().compacted == []


def test_a_new_message_brings_the_detail_back(busy, clock: Clock) -> None:
    store, sid = busy
    clock.advance(40)
    store.maintain()
    assert section(store.build_context(sid).state, TOOLS_HEADING) == []

    store.add_message(sid, "user", "I'm back: where were we with the invoices?")

    ctx = store.build_context(sid)
    assert len(section(ctx.state, TOOLS_HEADING)) == 5
    assert len(section(ctx.state, MODIFIED_FILES_HEADING)) == 21
    assert store.maintain().compacted == []  # in use again
    clock.advance(1)
    [done] = store.maintain().compacted
    assert (done.previous_level, done.level) == (0, 1)


def test_another_process_sees_the_compaction(busy, db_path: Path, clock: Clock) -> None:
    store, sid = busy
    with MemoryStore(db_path) as other:
        assert len(section(other.build_context(sid).state, TOOLS_HEADING)) == 5
        clock.advance(31)
        store.maintain()
        assert section(other.build_context(sid).state, TOOLS_HEADING) == []
        other.add_message(sid, "user", "Back again.")
        assert len(section(store.build_context(sid).state, TOOLS_HEADING)) == 5


def test_sessions_are_compacted_each_by_its_own_age(db_path: Path, clock: Clock) -> None:
    with MemoryStore(db_path, clock=clock) as store:
        old = store.create_session(session_id="old").id
        store.add_messages(old, [{"role": "user", "text": f"old {i}"} for i in range(20)])
        clock.advance(10)
        new = store.create_session(session_id="new").id
        store.add_messages(new, [{"role": "user", "text": f"new {i}"} for i in range(20)])
        empty = store.create_session(session_id="empty").id
        clock.advance(2)
        report = store.maintain()
        assert report.checked == 3
        assert {(c.session_id, c.level) for c in report.compacted} == {(old, 2), (new, 1), (empty, 1)}


def test_compaction_ages_are_configurable(db_path: Path, clock: Clock) -> None:
    config = MemoryConfig(compaction_ages=(0.5, 1, 2))
    with MemoryStore(db_path, config, clock=clock) as store:
        store.create_session(session_id="s")
        clock.advance(1.5)
        assert [c.level for c in store.maintain().compacted] == [2]


@pytest.mark.parametrize("ages", [(7, 1, 30), (1, 1, 30), (-1, 7, 30), (1, 7, float("inf")), (1, 7)])
def test_compaction_ages_must_increase(ages: tuple) -> None:
    with pytest.raises(InvalidInput, match="compaction_ages"):
        MemoryStore(":memory:", {"compaction_ages": ages})


def test_cli_maintain(db_path: Path) -> None:
    a_month_ago = datetime.now(timezone.utc) - timedelta(days=31)
    with MemoryStore(db_path, clock=lambda: a_month_ago) as store:
        store.create_session(session_id="old")
        store.add_messages("old", [{"role": "user", "text": f"message {i}"} for i in range(40)])
    runner = CliRunner()

    first = runner.invoke(cli, ["maintain", "--db", str(db_path), "--json"])
    assert first.exit_code == 0, first.output
    data = json.loads(first.output)
    assert data["checked"] == 1
    [done] = data["compacted"]
    assert (done["session_id"], done["level"], done["summaries"]) == ("old", 3, 3)

    second = runner.invoke(cli, ["maintain", "--db", str(db_path)])
    # Nothing new to compact; the offline summaries wait for a model (the session has none).
    assert second.exit_code == 0 and second.output == (
        "Compacted 0 of 1 sessions.\n"
        "Redid 0 of 4 offline or fallback summaries with the local model; 4 left: "
        "no local model for session 'old' (model None)\n"
    )


def test_maintenance_merges_the_search_indexes_into_one_segment(db_path: Path) -> None:
    # Written at commit, an index gathers segments (each read of a word looks in
    # every one); maintain() leaves one per index, finding what it found before.
    with MemoryStore(db_path, config=MemoryConfig(cache_ttl=0)) as store:
        sid = store.create_session().id
        for i in range(40):  # one transaction each: a segment each, before FTS5 merges some
            store.add_message(sid, "user", f"note {i}: the boiler code is E{i:03d}")
        store.add_messages(sid, [{"role": "assistant", "text": f"filler {i}"} for i in range(10)])

        def segments() -> int:
            with sqlite3.connect(db_path) as conn:
                return conn.execute("SELECT count(DISTINCT segid) FROM messages_fts_idx").fetchone()[0]

        before = segments()
        hits = [h.id for h in store.search("boiler code E007", session_id=sid)]
        relevant = store.build_context(sid, query="What is the boiler code E007?").relevant_messages
        store.maintain()
        assert before > 1 and segments() == 1
        assert [h.id for h in store.search("boiler code E007", session_id=sid)] == hits
        assert store.build_context(sid, query="What is the boiler code E007?").relevant_messages == relevant
