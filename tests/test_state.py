"""Session state: goals, subtasks, tool executions, tracked files, their archives,
and the session-state section of the context."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localmem import MemoryStore
from localmem.context import (
    ARCHIVES_HEADING,
    CHECKPOINT_HEADER,
    PINS_HEADER,
    STATE_HEADER,
    SUBTASKS_HEADING,
    SUMMARIES_HEADER,
)
from localmem.errors import InvalidInput, NotFound, SessionNotFound
from localmem.migrations import SCHEMA_VERSION
from localmem.packing import ARCHIVE_SHARE, STATE_SHARE
from tests.old_files import file_at_version


def rendered_tokens(store: MemoryStore, ctx) -> int:
    return sum(store.count_tokens(m["content"]) for m in ctx.to_messages())


# --- goals ------------------------------------------------------------------------


def test_goal_lifecycle(store: MemoryStore, session) -> None:
    first = store.set_goal(session.id, "How many doors?")
    assert first.status == "active" and first.archive is None
    second = store.set_goal(session.id, "Check fire compliance")  # archives the first
    goals = store.get_goals(session.id)
    assert [(g.id, g.status) for g in goals] == [(first.id, "completed"), (second.id, "active")]
    assert goals[0].archive is not None and goals[0].ended_at is not None
    ended = store.complete_goal(session.id, success=False)
    assert ended is not None and ended.id == second.id and ended.status == "failed"
    assert store.complete_goal(session.id) is None  # nothing active
    third = store.set_goal(session.id, "Write the report")
    assert store.cancel_goal(session.id).status == "cancelled"
    statuses = [g.status for g in store.get_goals(session.id)]
    assert statuses == ["completed", "failed", "cancelled"]
    assert third.id == store.get_goals(session.id)[-1].id


def test_one_active_goal_per_session_is_enforced_by_the_file(store, session) -> None:
    store.set_goal(session.id, "a")
    with pytest.raises(sqlite3.IntegrityError):
        store._db.conn.execute(
            "INSERT INTO goals (session_id, text, status, token_count, created_at)"
            " VALUES (?, 'b', 'active', 1, 't')",
            (session.id,),
        )


def test_archive_statistics_are_json_sqlite_can_query(store, session, db_path) -> None:
    store.set_goal(session.id, "Count the doors")
    load = store.add_subtask(session.id, "Load building data")
    store.add_subtask(session.id, "Load door schedule")
    check = store.add_subtask(session.id, "Check widths", dependencies=[load.id])
    store.update_subtask(load.id, "completed")
    store.update_subtask(check.id, "blocked", notes="waiting for the schedule")
    for ok, error in [(True, None), (True, None), (False, "FileNotFoundError: doors.csv"),
                      (False, "FileNotFoundError: x"), (False, "timed out")]:
        store.record_tool(session.id, "load_data" if ok else "read_file", {"n": 1},
                          success=ok, result_summary="ok" if ok else None, error_message=error)
    store.record_tool(session.id, "query_elements", {"type": "door"}, result_summary="23 doors")
    goal = store.complete_goal(session.id)
    tools = goal.archive["tools"]
    assert (tools["total"], tools["succeeded"], tools["success_rate"]) == (6, 3, 0.5)
    assert tools["usage"] == {"read_file": 3, "load_data": 2, "query_elements": 1}
    assert tools["error_patterns"] == {"FileNotFoundError": 2, "timed out": 1}
    assert tools["first"] <= tools["last"]
    subtasks = goal.archive["subtasks"]
    assert subtasks["total"] == 3
    assert subtasks["by_status"] == {"completed": 1, "pending": 1, "blocked": 1}
    assert subtasks["themes"] == {"Load": 2, "Check": 1}
    raw = sqlite3.connect(db_path)
    row = raw.execute(
        "SELECT json_extract(archive, '$.tools.total'), json_extract(archive, '$.tools.usage.read_file'),"
        " json_extract(archive, '$.subtasks.by_status.completed') FROM goals WHERE id = ?",
        (goal.id,),
    ).fetchone()
    assert row == (6, 3, 1)
    # nothing is lost: the detailed rows stay in the file
    assert len(store.get_tool_executions(session.id)) == 6
    assert raw.execute("SELECT count(*) FROM tool_executions WHERE json_valid(arguments)").fetchone() == (6,)


def test_subtasks_and_tools_belong_to_the_goal_active_at_the_time(store, session) -> None:
    loose = store.add_subtask(session.id, "before any goal")
    g1 = store.set_goal(session.id, "one")
    a = store.add_subtask(session.id, "a")
    ta = store.record_tool(session.id, "grep")
    g2 = store.set_goal(session.id, "two")
    b = store.add_subtask(session.id, "b")
    assert (loose.goal_id, a.goal_id, ta.goal_id, b.goal_id) == (None, g1.id, g1.id, g2.id)
    assert [s.id for s in store.get_subtasks(session.id)] == [loose.id, a.id, b.id]


def test_bad_input_is_refused_before_anything_is_written(store, session, db_path) -> None:
    other = store.create_session()
    theirs = store.add_subtask(other.id, "theirs")
    calls = [
        lambda: store.set_goal(session.id, "  "),
        lambda: store.set_goal(session.id, 3),
        lambda: store.complete_goal(session.id, success="yes"),
        lambda: store.add_subtask(session.id, ""),
        lambda: store.add_subtask(session.id, "x", dependencies=[theirs.id]),
        lambda: store.add_subtask(session.id, "x", dependencies="1"),
        lambda: store.add_subtask(session.id, "x", dependencies=[True]),
        lambda: store.update_subtask(theirs.id, "done"),
        lambda: store.update_subtask(theirs.id, "completed", notes=b"x"),
        lambda: store.record_tool(session.id, "t", arguments={"x": float("nan")}),
        lambda: store.record_tool(session.id, "t", arguments={"x": b"bytes"}),
        lambda: store.record_tool(session.id, "t", arguments=["not", "a", "dict"]),
        lambda: store.record_tool(session.id, "t", arguments={"x": "\ud800"}),
        lambda: store.record_tool(session.id, "t", success=1),
        lambda: store.record_tool(session.id, ""),
        lambda: store.track_file(session.id, ""),
        lambda: store.track_file(session.id, "a.py", modified="yes"),
    ]
    for call in calls:
        with pytest.raises(InvalidInput):
            call()
    raw = sqlite3.connect(db_path)
    for table in ("goals", "tool_executions", "tracked_files"):
        assert raw.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,), table
    assert raw.execute("SELECT count(*) FROM subtasks").fetchone() == (1,)
    with pytest.raises(NotFound):
        store.update_subtask(10**9, "completed")
    for call in (
        lambda: store.set_goal("missing", "x"),
        lambda: store.add_subtask("missing", "x"),
        lambda: store.record_tool("missing", "x"),
        lambda: store.track_file("missing", "x"),
        lambda: store.get_goals("missing"),
        lambda: store.context_usage("missing"),
    ):
        with pytest.raises(SessionNotFound):
            call()


def test_update_subtask_keeps_notes_unless_given(store, session) -> None:
    task = store.add_subtask(session.id, "deploy")
    blocked = store.update_subtask(task.id, "blocked", notes="no credentials")
    assert blocked.notes == "no credentials"
    resumed = store.update_subtask(task.id, "in_progress")
    assert resumed.notes == "no credentials" and resumed.status == "in_progress"
    assert resumed.token_count == store.count_tokens("- [in_progress] deploy (no credentials)")


# --- files ------------------------------------------------------------------------


def test_track_file_moves_to_front_and_stays_modified(store, session) -> None:
    store.track_file(session.id, "a.py")
    store.track_file(session.id, "b.py", modified=True)
    again = store.track_file(session.id, "b.py")  # read again: still modified
    assert again.modified
    store.track_file(session.id, "a.py")
    files = store.get_tracked_files(session.id)
    assert [(f.path, f.modified) for f in files] == [("b.py", True), ("a.py", False)]
    assert files[1].seq > files[0].seq


def test_the_context_shows_the_newest_10_active_and_20_modified_files(store, session) -> None:
    for i in range(14):
        store.track_file(session.id, f"read_{i:02}.py")
    for i in range(25):
        store.track_file(session.id, f"edit_{i:02}.py", modified=True)
    state = list(store.build_context(session.id, max_tokens=3000).state)
    active = state[state.index("Active files:") + 1 : state.index("Modified files:")]
    modified = state[state.index("Modified files:") + 1 :]
    assert active == [f"- read_{i:02}.py" for i in range(13, 3, -1)] + ["- … and 4 older"]
    assert modified == [f"- edit_{i:02}.py" for i in range(24, 4, -1)] + ["- … and 5 older"]


# --- the context --------------------------------------------------------------------


def test_state_section_order_and_rendering(store, session) -> None:
    store.set_goal(session.id, "Count the doors")
    store.record_tool(session.id, "load", result_summary="1,250 elements")
    store.complete_goal(session.id)
    store.set_goal(session.id, "Check fire compliance")
    done = store.add_subtask(session.id, "Load fire rules")
    store.update_subtask(done.id, "completed")
    store.add_subtask(session.id, "Check exit widths")
    store.record_tool(session.id, "query", {"q": "exits"}, success=False, error_message="KeyError: 'exits'")
    store.track_file(session.id, "rules.pdf")
    store.pin(session.id, "Units are metric.")
    store.add_message(session.id, "user", "go on")
    ctx = store.build_context(session.id)
    assert ctx.state == (
        "Goal: Check fire compliance",
        SUBTASKS_HEADING,
        "- [pending] Check exit widths",
        "Recent tool calls, newest first:",
        "- query: failed, KeyError: 'exits'",
        "Active files:",
        "- rules.pdf",
        ARCHIVES_HEADING,
        "- completed: Count the doors — 1 tool call, 100% ok (load 1)",
    )
    system = ctx.to_messages()[0]["content"]
    assert system.index(PINS_HEADER) < system.index(STATE_HEADER)
    assert system.endswith("\n".join(ctx.state))
    assert ctx.breakdown["state"] > 0 and sum(ctx.breakdown.values()) == ctx.total_tokens
    assert rendered_tokens(store, ctx) <= ctx.total_tokens


def test_state_goes_after_pins_and_before_summaries(store, session) -> None:
    ms = store.add_messages(session.id, [{"role": "user", "text": f"turn {i}"} for i in range(20)])
    store._db.conn.execute(
        "INSERT INTO summaries (session_id, text, start_message_id, end_message_id, message_count,"
        " source, token_count, created_at) VALUES (?, ?, ?, ?, 15, 'fallback', ?, 't')",
        (session.id, "Talked about turns " * 20, ms[0].id, ms[14].id, store.count_tokens("Talked about turns " * 20)),
    )
    store.set_goal(session.id, "Finish the turns")
    pin = store.pin(session.id, "A pinned fact.")
    summary_tokens = store.count_tokens("Talked about turns " * 20)
    # room for the 3 newest, the pin and the goal (within its share), not for the summary
    ctx = store.build_context(session.id, max_tokens=summary_tokens)
    assert ctx.pins == (pin,) and ctx.state == ("Goal: Finish the turns",) and ctx.summaries == ()
    roomy = store.build_context(session.id, max_tokens=3000)
    assert roomy.summaries and roomy.state
    system = roomy.to_messages()[0]["content"]
    assert system.index(SUMMARIES_HEADER) < system.index(PINS_HEADER) < system.index(STATE_HEADER)


def test_finished_goals_are_capped(store, session) -> None:
    for i in range(5):
        store.set_goal(session.id, f"goal number {i} " + "with a long description " * 12)
        store.record_tool(session.id, "tool", result_summary="done")
    store.complete_goal(session.id)
    budget = 1000
    ctx = store.build_context(session.id, max_tokens=budget)
    archives = ctx.state[ctx.state.index(ARCHIVES_HEADING) + 1 :]
    assert 0 < len(archives) < 5  # newest first, as many as the cap allows
    assert archives[0].startswith("- completed: goal number 4")
    archive_tokens = sum(store.count_tokens(line) + 1 for line in archives) + store.count_tokens(ARCHIVES_HEADING)
    assert archive_tokens <= budget * ARCHIVE_SHARE + 2
    assert ctx.breakdown["state"] <= budget * STATE_SHARE


def test_a_session_without_state_has_empty_sections(store, session) -> None:
    store.add_message(session.id, "user", "hello")
    ctx = store.build_context(session.id)
    assert ctx.state == () and ctx.checkpoint == ()
    assert ctx.breakdown["state"] == ctx.breakdown["checkpoint"] == 0
    assert STATE_HEADER not in json.dumps(ctx.to_messages())


def test_state_written_after_a_context_is_seen_at_once(store, session, db_path) -> None:
    store.add_message(session.id, "user", "hello")
    assert store.build_context(session.id).state == ()  # remembered as stateless
    store.track_file(session.id, "a.py")
    assert store.build_context(session.id).state == ("Active files:", "- a.py")
    other = store.create_session()
    assert store.build_context(other.id).state == ()
    with MemoryStore(db_path) as elsewhere:  # another connection: the file changed
        elsewhere.set_goal(other.id, "from another process")
    assert store.build_context(other.id).state == ("Goal: from another process",)
    task = store.add_subtask(other.id, "closed at once")
    store.update_subtask(task.id, "completed")
    third = store.create_session()
    assert store.build_context(third.id).state == ()
    loose = store.add_subtask(third.id, "goal-less")
    store.update_subtask(loose.id, "completed")
    assert store.build_context(third.id).state == ()
    store.update_subtask(loose.id, "pending")  # open again: shown again
    assert store.build_context(third.id).state == (SUBTASKS_HEADING, "- [pending] goal-less")


text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=200)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    messages=st.lists(text, max_size=10),
    goals=st.lists(text.filter(str.strip), max_size=4),
    subtasks=st.lists(st.tuples(text.filter(str.strip), st.sampled_from(["pending", "in_progress", "blocked", "completed"])), max_size=6),
    tools=st.lists(st.tuples(text.filter(str.strip), st.booleans(), st.none() | text), max_size=6),
    files=st.lists(st.tuples(text.filter(str.strip), st.booleans()), max_size=8),
    checkpoint=st.booleans(),
    budget=st.integers(0, 800),
)
def test_budget_is_a_hard_ceiling_with_state(
    store: MemoryStore, messages, goals, subtasks, tools, files, checkpoint, budget
) -> None:
    s = store.create_session()
    if messages:
        store.add_messages(s.id, [{"role": "user", "text": t} for t in messages])
    for goal in goals:
        store.set_goal(s.id, goal)
        for name, status in subtasks:
            task = store.add_subtask(s.id, name)
            store.update_subtask(task.id, status)
        for name, ok, detail in tools:
            store.record_tool(s.id, name, success=ok, result_summary=detail, error_message=detail)
    for path, modified in files:
        store.track_file(s.id, path, modified=modified)
    if checkpoint:
        store.checkpoint(s.id)
    ctx = store.build_context(s.id, max_tokens=budget)
    assert ctx.total_tokens <= budget
    assert sum(ctx.breakdown.values()) == ctx.total_tokens
    assert rendered_tokens(store, ctx) <= budget
    assert ctx.breakdown["state"] <= budget * STATE_SHARE


# --- reset, delete, resume, migrate ---------------------------------------------------


def test_clear_conversation_keeps_goals_pins_and_checkpoints(store, session) -> None:
    store.add_messages(session.id, [{"role": "user", "text": f"I prefer tabs {i}. Look at app.py"} for i in range(20)])
    store.set_goal(session.id, "Refactor app.py")
    store.add_subtask(session.id, "Split the module")
    store.record_tool(session.id, "edit")
    store.track_file(session.id, "app.py", modified=True)
    store.pin(session.id, "Tabs, not spaces.")
    store.summarize(session.id)
    assert store.get_summaries(session.id) and store.latest_checkpoint(session.id)
    assert store.clear_conversation(session.id) == 20
    assert store.get_messages(session.id) == [] and store.get_summaries(session.id) == []
    assert store.get_summary_facts(session.id) == []
    assert store.get_goals(session.id) and store.get_pins(session.id)
    assert store.latest_checkpoint(session.id) is not None
    ctx = store.build_context(session.id)
    assert ctx.recent_messages == () and ctx.state[0] == "Goal: Refactor app.py"
    assert ctx.checkpoint and ctx.pins


def test_delete_session_drops_all_state(store, session, db_path) -> None:
    store.add_messages(session.id, [{"role": "user", "text": f"m {i}"} for i in range(15)])
    store.set_goal(session.id, "g")
    store.add_subtask(session.id, "s")
    store.record_tool(session.id, "t")
    store.track_file(session.id, "f.py")
    store.summarize(session.id)
    store.complete_goal(session.id)
    store.delete_session(session.id)
    raw = sqlite3.connect(db_path)
    for table in ("goals", "subtasks", "tool_executions", "tracked_files", "checkpoints", "summary_facts"):
        assert raw.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,), table
    assert raw.execute("PRAGMA foreign_key_check").fetchall() == []


RESUME = """
import json, sys
from localmem import MemoryStore
with MemoryStore(sys.argv[1]) as store:
    ctx = store.build_context("work", max_tokens=3000)
    print(json.dumps({"state": ctx.state, "checkpoint": ctx.checkpoint,
                      "summaries": [s.text for s in ctx.summaries], "system": ctx.to_messages()[0]["content"]}))
"""


def test_a_new_process_resumes_the_session(db_path, dead_ollama_host, monkeypatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", dead_ollama_host)
    with MemoryStore(db_path) as store:
        store.create_session(model="llama3.2", session_id="work")
        store.set_goal("work", "Migrate the users table")
        store.add_subtask("work", "Write the migration")
        store.add_messages("work", [
            {"role": "user", "text": "I prefer small commits. The schema is in schema.sql."},
            *({"role": "assistant", "text": f"step {i}"} for i in range(15)),
        ])
        store.summarize("work")
    out = subprocess.run(
        [sys.executable, "-c", RESUME, str(db_path)], capture_output=True, text=True, check=True
    ).stdout
    data = json.loads(out)
    assert data["state"][0] == "Goal: Migrate the users table"
    assert "- [pending] Write the migration" in data["state"]
    assert "Preference: I prefer small commits." in data["checkpoint"]
    assert data["summaries"]
    assert CHECKPOINT_HEADER in data["system"] and STATE_HEADER in data["system"]


def test_a_version_4_file_gains_the_state_tables(tmp_path: Path) -> None:
    path = file_at_version(
        tmp_path / "v4.db", 4, [("INSERT INTO sessions VALUES ('s', NULL, NULL, 't', 't')", ())]
    )
    with MemoryStore(path) as store:
        store.set_goal("s", "resume an old file")
        assert store.build_context("s").state == ("Goal: resume an old file",)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


# --- hostile input ----------------------------------------------------------------------

any_text = st.text(alphabet=st.characters(codec=None, categories=None), max_size=120)
anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    any_text,
    st.sampled_from(["\ud800", "", "completed", "active", "\x00"]),
    st.binary(max_size=10),
    st.lists(st.integers(min_value=-(2**70), max_value=2**70), max_size=3),
    st.dictionaries(any_text, st.one_of(any_text, st.floats(), st.binary(max_size=3)), max_size=3),
)
STATE_CALLS = [
    ("set_goal", lambda store, sid, a, b: store.set_goal(a, b)),
    ("set_goal_text", lambda store, sid, a, b: store.set_goal(sid, a)),
    ("complete_goal", lambda store, sid, a, b: store.complete_goal(sid, success=a)),
    ("add_subtask", lambda store, sid, a, b: store.add_subtask(sid, a, dependencies=b)),
    ("update_subtask", lambda store, sid, a, b: store.update_subtask(a, b)),
    ("update_subtask_notes", lambda store, sid, a, b: store.update_subtask(1, "blocked", notes=a)),
    ("record_tool", lambda store, sid, a, b: store.record_tool(sid, a, arguments=b)),
    ("record_tool_result", lambda store, sid, a, b: store.record_tool(sid, "t", success=a, result_summary=b)),
    ("track_file", lambda store, sid, a, b: store.track_file(sid, a, modified=b)),
    ("checkpoint", lambda store, sid, a, b: store.checkpoint(a)),
    ("latest_checkpoint", lambda store, sid, a, b: store.latest_checkpoint(a)),
    ("clear_checkpoints", lambda store, sid, a, b: store.clear_checkpoints(a)),
    ("context_usage", lambda store, sid, a, b: store.context_usage(a)),
    ("clear_conversation", lambda store, sid, a, b: store.clear_conversation(a)),
]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    path = tmp_path_factory.mktemp("hostile-state") / "hostile.db"
    with MemoryStore(path, config={"ollama_host": "http://127.0.0.1:9"}) as store:
        sid = store.create_session(model="llama3.2").id
        store.set_goal(sid, "survive")
        store.add_subtask(sid, "seed")
        yield store, sid, path


@pytest.mark.parametrize("name,call", STATE_CALLS, ids=[c[0] for c in STATE_CALLS])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=anything, b=anything)
def test_only_localmem_errors_escape_the_state_calls(hostile, name, call, a, b) -> None:
    from localmem import LocalMemError

    store, sid, path = hostile
    try:
        call(store, sid, a, b)
    except LocalMemError:
        pass
    store.build_context(sid, max_tokens=500)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        conn.close()


def test_state_written_elsewhere_or_cleared_is_never_served_stale(tmp_path) -> None:
    from localmem import MemoryStore

    with MemoryStore(tmp_path / "m.db") as app, MemoryStore(tmp_path / "m.db") as other:
        s = app.create_session()
        app.add_message(s.id, "user", "I prefer short answers with examples.")
        app.set_goal(s.id, "first goal")
        app.checkpoint(s.id)
        assert app.build_context(s.id).breakdown["checkpoint"] > 0
        other.set_goal(s.id, "second goal, set by another process")
        assert "second goal" in app.build_context(s.id).to_messages()[0]["content"]
        app.clear_checkpoints(s.id)
        assert app.build_context(s.id).breakdown["checkpoint"] == 0
