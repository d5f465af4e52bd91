"""The issue's proof: a long agent session walked through three goals, compacted
as it goes, still has its active goal, pending tasks, the user's preferences and
the files it works on in a 3,000-token context; each finished goal's archive
has the right counts.

Run with ``-s`` to see how many tokens the state takes with and without compaction.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from localmem import MemoryStore
from localmem.context import CHECKPOINT_HEADER, STATE_HEADER

PREFERENCES = ["I prefer metric units in every answer.", "Please always cite the clause number."]
FILES = ["building.json", "fire_code.pdf", "report.md"]

# (goal, [(tool, success, error)], [(subtask, final status)])
GOALS = [
    (
        "Count the doors in building.json",
        [("load_building_data", False, "FileNotFoundError: building.json"),
         ("load_building_data", True, None),
         *[("query_elements", True, None)] * 4,
         ("query_elements", False, "KeyError: 'door_type'")],
        [("Load the building model", "completed"), ("Query the door elements", "completed"),
         ("Export a door schedule", "cancelled")],
    ),
    (
        "Check the exits against fire_code.pdf",
        [("read_pdf", True, None), *[("measure_exit", True, None)] * 4, ("compare_clause", True, None)],
        [("Read the exit clauses", "completed"), ("Measure every exit", "completed"),
         ("Compare widths with clause 4.2", "completed"), ("List the failing exits", "completed")],
    ),
    (
        "Write the compliance report to report.md",
        [("write_file", True, None), ("read_pdf", True, None), ("write_file", False, "PermissionError: report.md")],
        [("Outline the report", "completed"), ("Draft the findings section", "in_progress"),
         ("Add the exit width table", "pending")],
    ),
]
MESSAGES_PER_GOAL = 100


def turn(goal: int, i: int) -> dict[str, str]:
    if goal == 0 and i == 0:
        return {"role": "user", "text": " ".join(PREFERENCES) + " The model is in building.json."}
    if goal == 1 and i == 0:
        return {"role": "user", "text": "The rules are in fire_code.pdf; check the doors table too."}
    if goal == 2 and i == 0:
        return {"role": "user", "text": "Write everything to report.md when we are done."}
    if i % 2:
        return {"role": "assistant", "text": f"Result {goal}.{i}: element {i * 7} checked, width {800 + i} mm, no issue found in this part of the plan."}
    return {"role": "user", "text": f"Continue with the next batch of elements, batch {goal}.{i}, and tell me what you found."}


def walk(path: Path, compact: bool) -> tuple[MemoryStore, str, list[dict[str, int]]]:
    store = MemoryStore(path)
    sid = store.create_session(model="llama3.2", session_id="proof").id
    before: list[dict[str, int]] = []
    for g, (text, tools, subtasks) in enumerate(GOALS):
        store.set_goal(sid, text)
        store.track_file(sid, FILES[g], modified=g == 2)
        tasks = [store.add_subtask(sid, name) for name, _ in subtasks]
        for i in range(MESSAGES_PER_GOAL):
            store.add_message(sid, **turn(g, i))
            if i < len(tools):
                name, ok, error = tools[i]
                store.record_tool(sid, name, {"step": i}, success=ok,
                                  result_summary="done" if ok else None, error_message=error)
            if i == MESSAGES_PER_GOAL // 2:
                for task, (_, status) in zip(tasks, subtasks):
                    store.update_subtask(task.id, status)
            if compact and store.needs_summarization(sid):
                before.append(dict(store.build_context(sid, max_tokens=3000).breakdown))
                store.summarize(sid)
        if g < 2:
            store.complete_goal(sid, success=True)
    return store, sid, before


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, dead_ollama_host: str) -> None:
    monkeypatch.setenv("OLLAMA_HOST", dead_ollama_host)


def test_three_goals_survive_compaction(tmp_path: Path, offline: None) -> None:
    store, sid, before = walk(tmp_path / "compacted.db", compact=True)
    with store:
        ctx = store.build_context(sid, max_tokens=3000)
        assert ctx.total_tokens <= 3000
        messages = store.get_messages(sid)
        assert len(messages) == 3 * MESSAGES_PER_GOAL
        assert len(store.get_summaries(sid)) >= 19  # compacted all along the way
        assert messages[0].id not in {m.id for m in ctx.recent_messages}
        # the active goal and its pending tasks
        assert ctx.state[0] == "Goal: Write the compliance report to report.md"
        assert "- [in_progress] Draft the findings section" in ctx.state
        assert "- [pending] Add the exit width table" in ctx.state
        # the preferences and references, stated 300 messages ago
        for preference in PREFERENCES:
            assert f"Preference: {preference}" in ctx.checkpoint
        files = next(line for line in ctx.checkpoint if line.startswith("Files: "))
        assert all(name in files for name in FILES)
        assert any(line.startswith("Tables: ") and "doors" in line for line in ctx.checkpoint)
        system = ctx.to_messages()[0]["content"]
        assert CHECKPOINT_HEADER in system and STATE_HEADER in system
        # each finished goal's archive
        goals = store.get_goals(sid)
        assert [g.status for g in goals] == ["completed", "completed", "active"]
        for goal, (_, tools, subtasks) in zip(goals[:2], GOALS):
            archive = goal.archive
            assert archive["tools"]["total"] == len(tools)
            assert archive["tools"]["succeeded"] == sum(ok for _, ok, _ in tools)
            usage: dict[str, int] = {}
            for name, _, _ in tools:
                usage[name] = usage.get(name, 0) + 1
            assert archive["tools"]["usage"] == usage
            errors: dict[str, int] = {}
            for _, _, error in tools:
                if error:
                    errors[error.split(":")[0]] = errors.get(error.split(":")[0], 0) + 1
            assert archive["tools"]["error_patterns"] == errors
            statuses: dict[str, int] = {}
            for _, status in subtasks:
                statuses[status] = statuses.get(status, 0) + 1
            assert archive["subtasks"]["total"] == len(subtasks)
            assert archive["subtasks"]["by_status"] == statuses
        archives = list(ctx.state[ctx.state.index("Finished goals, newest first:") + 1 :])
        assert archives == [
            "- completed: Check the exits against fire_code.pdf — 6 tool calls, 100% ok "
            "(measure_exit 4, read_pdf 1, compare_clause 1); 4 subtasks (4 completed)",
            "- completed: Count the doors in building.json — 7 tool calls, 71% ok "
            "(query_elements 5, load_building_data 2); 3 subtasks (2 completed, 1 cancelled)",
        ]
        after = ctx.breakdown
        detail = sum(
            row.token_count
            for rows in (store.get_subtasks(sid), store.get_tool_executions(sid), store.get_tracked_files(sid))
            for row in rows
        ) + sum(g.token_count for g in goals)
    plain, plain_sid, _ = walk(tmp_path / "plain.db", compact=False)
    with plain:
        uncompacted = plain.build_context(plain_sid, max_tokens=3000).breakdown
    print(
        f"\nstate tokens at 3,000, end of the walk: uncompacted state {uncompacted['state']} "
        f"(+checkpoint {uncompacted['checkpoint']}); compacted state {after['state']} "
        f"+ checkpoint {after['checkpoint']}; before the first compaction: state "
        f"{before[0]['state']} + checkpoint {before[0]['checkpoint']}; before the last: state "
        f"{before[-1]['state']} + checkpoint {before[-1]['checkpoint']}; every state row in "
        f"full: {detail}; summaries {after['summaries']}, messages {after['messages']}, "
        f"total {sum(after.values())} ({len(before)} compactions)"
    )
    assert uncompacted["checkpoint"] == 0 and after["checkpoint"] > 0
    assert after["state"] == uncompacted["state"]  # the live state does not depend on compaction
