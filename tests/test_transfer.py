"""Export and import of sessions as JSON Lines: round trips, refusals, the CLI."""

from __future__ import annotations

import bisect
import json
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from localmem import MemoryStore
from localmem.cli import cli
from localmem.errors import ImportRefused, InvalidInput, SessionNotFound
from localmem.jsonl import (
    DERIVED_COLUMNS,
    NOT_EXPORTED,
    RECORD_ONLY_FIELDS,
    PROGRESS_LINES,
    TABLES,
    SessionBatch,
    SessionRecord,
    record_type,
)
from tests.ollama_server import FakeOllama

CONFIG = {
    "summary_threshold": 4, "recent_summaries": 2, "structured_min_tokens": 0,
    "user_auto_pins": False,  # the session's own pins; the user's: tests/test_scopes.py
}
KIND = "openai-agents"
WHEN = "2026-01-01T00:00:00.000Z"
TEXTS = [
    "Rosa is allergic to penicillin 💊. What should I give her instead?",
    "Multi-line\nanswer with\ttabs,\r\nCRLF and trailing spaces   ",
    "Ünïcödé: 日本語, emoji 👩‍👩‍👧 and the separators \u2028, \u2029 and \x85 inside one line",
    "```python\ndef dose(kg):\n    return kg * 10  # mg\n```",
    'Quotes "double" and \'single\', a backslash \\ and {"json": [1, 2]} in text',
    "I prefer metric units. Let's use amoxicillin. TODO: check notes/itinerary.md",
]


def build_rich_session(store: MemoryStore) -> str:
    """A session with a row in every table, written through the public API."""
    sid = store.create_session(model="llama3.2", title="Trip ✈ planning").id
    store.add_messages(
        sid, [{"role": "user" if i % 2 == 0 else "assistant", "text": f"{TEXTS[i % len(TEXTS)]} #{i}"}
              for i in range(14)]
    )
    early = store.add_message(sid, "tool", "tool output: 3 flights found", model_id="llama3.2")
    store.pin(sid, "Rosa is allergic to penicillin", source_message_id=early.id - 14, importance=0.95)
    store.pin(sid, "Prefers metric units", source_message_id=early.id, importance=0.6, kind="auto")
    store.pin(sid, "No source, equal importance", importance=0.6)
    store.add_subtask(sid, "Renew the passport")  # before any goal
    store.set_goal(sid, "Plan the trip to Tokyo")
    flights = store.add_subtask(sid, "Book flights")
    hotel = store.add_subtask(sid, "Book the hotel", [flights.id])
    store.update_subtask(flights.id, "completed", notes="done ✈")
    store.record_tool(sid, "search", {"q": "vols Paris→Tokyo", "n": 3}, result_summary="3 found")
    store.record_tool(sid, "book", {"id": 7}, success=False, error_message="TimeoutError: no answer")
    store.complete_goal(sid)
    store.set_goal(sid, "Pack")
    store.add_subtask(sid, "Buy an adapter", [hotel.id])
    store.complete_goal(sid, success=False)
    store.set_goal(sid, "Write the itinerary")
    store.add_subtask(sid, "Day by day plan", [flights.id, hotel.id])
    store.record_tool(sid, "write_file", {"path": "notes/itinerary.md"})
    store.track_file(sid, "notes/itinerary.md")
    store.track_file(sid, "src/app.py", modified=True)
    store.track_file(sid, "notes/itinerary.md")  # touched again: a new seq
    store.add_messages(sid, [{"role": "user", "text": f"more about day {i} 🗾"} for i in range(6)])
    while store.summarize(sid) is not None:  # level-1 summaries with facts, a rollup, checkpoints
        pass
    store.add_items(sid, KIND, [({"role": "assistant", "text": "from the agent"}, '{"id": "i1"}')])
    store.add_items(sid, KIND, [({"role": "user", "text": "popped"}, '{"id": "i2"}')])
    store.checkpoint(sid)  # through the newest message, which is deleted next
    store.pop_item(sid, KIND)
    return sid


def snapshot(store: MemoryStore, sid: str) -> dict[str, Any]:
    """Everything the public API shows of a session, ids replaced by what they mean:
    a row's rank in its table, a message's position, a range or a checkpoint's
    through id by the messages up to it."""
    messages = store.get_messages(sid)
    ids = [m.id for m in messages]
    position = {m.id: i for i, m in enumerate(messages)}

    def upto(message_id: int) -> int:
        return bisect.bisect_right(ids, message_id)

    def rank(rows: list) -> dict[int | None, int | None]:
        return {None: None, **{r.id: i for i, r in enumerate(sorted(rows, key=lambda r: r.id))}}

    def plain(model: Any, **mapped: Any) -> dict[str, Any]:
        return {**model.model_dump(exclude={"id", "session_id"}), **mapped}

    summaries = store.get_summaries(sid)
    goals = store.get_goals(sid)
    subtasks = store.get_subtasks(sid)
    s_rank, g_rank, t_rank = rank(summaries), rank(goals), rank(subtasks)
    pins = store.get_pins(sid)
    return {
        "session": plain(store.get_session(sid)),
        "messages": [plain(m) for m in messages],
        "items": [plain(i, message_id=position[i.message_id]) for i in store.get_items(sid, KIND)],
        "pins": [
            plain(p, source_message_id=None if p.source_message_id is None
                  else position[p.source_message_id])
            for p in pins
        ],
        "summaries": [
            plain(s, start_message_id=upto(s.start_message_id - 1), end_message_id=upto(s.end_message_id))
            for s in summaries
        ],
        "facts": [plain(f, summary=s_rank[f.id]) for f in store.get_summary_facts(sid)],
        "goals": [plain(g, rank=g_rank[g.id]) for g in goals],
        "subtasks": [
            plain(t, goal_id=g_rank[t.goal_id], rank=t_rank[t.id],
                  dependencies=[t_rank[d] for d in t.dependencies])
            for t in subtasks
        ],
        "tools": [plain(x, goal_id=g_rank[x.goal_id]) for x in store.get_tool_executions(sid)],
        "files": [plain(f) for f in store.get_tracked_files(sid)],
        "checkpoints": [
            plain(c, through_message_id=upto(c.through_message_id)) for c in store.get_checkpoints(sid)
        ],
    }


def raw_json_columns(path: Path, sid: str) -> list[tuple]:
    """The JSON columns and the stored session row, as the file holds them."""
    conn = sqlite3.connect(path)
    try:
        return [
            *conn.execute("SELECT title, model, created_at, updated_at FROM sessions WHERE id = ?", (sid,)),
            *conn.execute("SELECT archive FROM goals WHERE session_id = ? ORDER BY id", (sid,)),
            *conn.execute("SELECT arguments FROM tool_executions WHERE session_id = ? ORDER BY id", (sid,)),
            *conn.execute("SELECT data, lines FROM checkpoints WHERE session_id = ? ORDER BY id", (sid,)),
            *conn.execute("SELECT data, text FROM summary_facts WHERE session_id = ? ORDER BY id", (sid,)),
        ]
    finally:
        conn.close()


def context_of(store: MemoryStore, sid: str, query: str | None = None) -> tuple:
    ctx = store.build_context(sid, query=query)
    return ctx.to_messages(), ctx.total_tokens, ctx.breakdown


@pytest.fixture
def rich(tmp_path: Path, fake_ollama: FakeOllama) -> tuple[Path, str, dict[str, Any]]:
    path = tmp_path / "original.db"
    with MemoryStore(path, config=CONFIG) as store:
        sid = build_rich_session(store)
        shown = snapshot(store, sid)
    return path, sid, shown


def test_the_rich_session_has_a_row_in_every_table(rich) -> None:
    _path, _sid, shown = rich
    assert all(shown[key] for key in shown), [k for k in shown if not shown[k]]
    assert {s["level"] for s in shown["summaries"]} == {1, 2}
    assert {g["status"] for g in shown["goals"]} == {"completed", "failed", "active"}
    assert any(t["dependencies"] for t in shown["subtasks"])
    assert any(p["kind"] == "auto" and p["source_message_id"] is not None for p in shown["pins"])
    # The newest checkpoint read a message that was deleted after it.
    newest = shown["checkpoints"][0]
    assert newest["through_message_id"] == len(shown["messages"])


# The snapshot's keys for the records of TABLES, in the same order. The public API shows
# no pin's links (its sources, the message that ended it): tests/test_transfer_links.py
# checks them by what forgetting does after an import. It shows the lines' sources of the
# latest checkpoint only: tests/test_line_sources.py checks their round trip.
LINKS = ("pin_sources", "pin_endings", "fact_sources", "checkpoint_sources")
_SNAPSHOT_KEYS = [(field, record) for _table, field, record in TABLES if field not in LINKS]


def test_round_trip_into_a_fresh_file(rich, tmp_path: Path) -> None:
    path, sid, shown = rich
    with MemoryStore(path, config=CONFIG) as original:
        lines = list(original.export_sessions())
        before = context_of(original, sid), context_of(original, sid, "penicillin allergy")
    # One record a line, even for str.splitlines: U+2028, U+2029 and NEL are escaped.
    assert "\n".join(lines).splitlines() == lines
    assert any("\\u2028" in line for line in lines)
    copy_path = tmp_path / "copy.db"
    with MemoryStore(copy_path, config=CONFIG) as copy:
        report = copy.import_sessions(lines)
        assert report.sessions == [(sid, sid)]
        assert snapshot(copy, sid) == shown
        assert (context_of(copy, sid), context_of(copy, sid, "penicillin allergy")) == before
        hits = copy.search("amoxicillin", session_id=sid)  # the index catches up by itself
        assert hits and all(h.session_id == sid for h in hits)
        assert copy.search("itinerary adapter")  # goals are not searched, but messages are
    assert raw_json_columns(copy_path, sid) == raw_json_columns(path, sid)
    links = {record_type(r) for _table, field, r in TABLES if field in LINKS}
    assert {kind: n for kind, n in report.counts.items() if kind not in links} == {
        "session": 1,
        **{record_type(r): len(shown[key]) for key, r in _SNAPSHOT_KEYS},
    }


def test_round_trip_into_the_same_file_with_rename(rich) -> None:
    path, sid, shown = rich
    with MemoryStore(path, config=CONFIG) as store:
        lines = list(store.export_sessions([sid]))
        with pytest.raises(InvalidInput, match=f"line 2: a session with id '{sid}' already exists"):
            store.import_sessions(lines)
        assert len(store.list_sessions()) == 1
        report = store.import_sessions(lines, rename=True)
        [(old, new)] = report.sessions
        assert old == sid and new != sid
        renamed = snapshot(store, new)
        assert renamed == shown
        assert context_of(store, new) == context_of(store, sid)
        assert context_of(store, new, "penicillin") == context_of(store, sid, "penicillin")
        found = {h.session_id for h in store.search("amoxicillin")}
        assert found == {sid, new}
        # The copy is a session of its own: writing to it leaves the original alone.
        store.add_message(new, "user", "only in the copy")
        assert snapshot(store, sid) == shown


def test_a_second_export_is_the_first_with_the_new_ids(rich, tmp_path: Path) -> None:
    path, _sid, _shown = rich
    with MemoryStore(path) as store:
        first = list(store.export_sessions())
    with MemoryStore(tmp_path / "copy.db") as copy:
        copy.import_sessions(first)
        second = list(copy.export_sessions())
    # Same lines but for the header's time and ids; as many of each type, same texts.
    assert len(first) == len(second)
    strip = {"id", "message_id", "source_message_id", "start_message_id", "end_message_id",
             "goal_id", "dependencies", "through_message_id", "exported_at", "sha256"}

    def without_ids(line: str) -> dict:
        return {k: v for k, v in json.loads(line).items() if k not in strip}

    assert [without_ids(a) for a in first] == [without_ids(b) for b in second]


def test_the_format_covers_every_column_of_every_session_table(store: MemoryStore) -> None:
    conn = store._db.conn

    def columns(table: str) -> set[str]:
        return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}

    # Stored tables only: the search indexes (virtual, rootpage 0) repeat their tables' columns.
    stored = "SELECT name FROM sqlite_master WHERE type = 'table' AND rootpage != 0"
    tables = [row[0] for row in conn.execute(stored)]
    per_session = {t for t in tables if "session_id" in columns(t)} - set(NOT_EXPORTED)
    # and what links a pin to its session's messages (its sources, the update that ended it)
    per_session |= {t for t in tables if "pin_id" in columns(t)}
    # and what links a checkpoint's or facts' line to its messages
    per_session |= {t for t in tables if {"checkpoint_id", "summary_id"} & columns(t)}
    assert per_session == {table for table, _field, _record in TABLES}
    for table, _field, record in TABLES:
        exported = columns(table) - {"session_id"} - DERIVED_COLUMNS.get(table, frozenset())
        fields = set(record.model_fields) - {"type"} - RECORD_ONLY_FIELDS.get(table, frozenset())
        assert exported == fields, table
    assert columns("sessions") == set(SessionRecord.model_fields) - {"type"}


# --- refusals -------------------------------------------------------------------------------


def two_sessions(store: MemoryStore) -> tuple[str, str, list[str]]:
    """Two small sessions and their export; the second cites its messages everywhere."""
    first = store.create_session(title="first").id
    store.add_messages(first, [{"role": "user", "text": "kept whatever follows"}])
    second = store.create_session(title="second").id
    messages = store.add_messages(
        second, [{"role": "user", "text": f"second session {i}"} for i in range(3)]
    )
    store.pin(second, "a pin", source_message_id=messages[1].id)
    store.set_goal(second, "a goal")
    task = store.add_subtask(second, "a task")
    store.add_subtask(second, "another", [task.id])
    return first, second, list(store.export_sessions([first, second]))


def _edit(kind: str, change: Callable[[dict], None]) -> Callable[[list[str]], int]:
    """Change the last line of ``kind``; return its line number."""

    def apply(lines: list[str]) -> int:
        index = max(i for i, line in enumerate(lines) if json.loads(line)["type"] == kind)
        data = json.loads(lines[index])
        change(data)
        lines[index] = json.dumps(data)
        return index + 1

    return apply


def _replace(kind: str, text: Callable[[str], str]) -> Callable[[list[str]], int]:
    def apply(lines: list[str]) -> int:
        index = max(i for i, line in enumerate(lines) if json.loads(line)["type"] == kind)
        lines[index] = text(lines[index])
        return index + 1

    return apply


def _message_first(lines: list[str]) -> int:
    lines.insert(1, lines[-2])  # the second session's last record, before any session
    return 2


MALFORMED = {
    "bad JSON": (_replace("pin", lambda line: line[:-2]), "Invalid JSON"),
    "unknown type": (_replace("pin", lambda line: line.replace('"pin"', '"pinned"')), "'pinned'"),
    "extra field": (_edit("message", lambda d: d.update(colour="red")), "Extra inputs"),
    "missing field": (_edit("message", lambda d: d.pop("token_count")), "token_count: Field required"),
    "wrong field type": (_edit("message", lambda d: d.update(token_count="7")), "valid integer"),
    "NaN": (_replace("message", lambda line: line.replace('"importance_score":0.5', '"importance_score":NaN')),
            "finite number"),
    "dangling pin source": (_edit("pin", lambda d: d.update(source_message_id=10**6)),
                            "source_message_id 1000000 is not an earlier message"),
    "dangling dependency": (_edit("subtask", lambda d: d.update(dependencies=[d["id"] + 5])),
                            "is not an earlier subtask"),
    "dangling goal": (_edit("subtask", lambda d: d.update(goal_id=99)), "goal_id 99 is not an earlier goal"),
    "record before any session": (_message_first, "record before any session record"),
    "lone surrogate": (_replace("message", lambda line: line.replace("second session", "\\ud800")),
                       "Invalid JSON"),
}


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_a_malformed_line_is_refused_with_its_number(store: MemoryStore, tmp_path: Path, case: str) -> None:
    first, second, lines = two_sessions(store)
    corrupt, expected = MALFORMED[case]
    number = corrupt(lines)
    with MemoryStore(tmp_path / "target.db") as target:
        with pytest.raises(ImportRefused) as refused:
            target.import_sessions(lines)
        message = str(refused.value)
        assert message.startswith(f"line {number}: ") and expected in message, message
        sessions = [s.id for s in target.list_sessions()]
        if case == "record before any session":
            assert sessions == [] and refused.value.report.sessions == []
        else:
            # The first session stays imported (and the error says so); nothing of the second.
            assert f"nothing of session '{second}' was written" in message
            assert "the 1 session(s) before it stay imported" in message
            assert sessions == [first] and refused.value.report.sessions == [(first, first)]
            assert [m.text for m in target.get_messages(first)] == ["kept whatever follows"]
        conn = target._db.conn
        for table in ("messages", "semantic_pins", "goals", "subtasks"):
            leftover = conn.execute(f"SELECT count(*) FROM {table} WHERE session_id = ?", (second,))
            assert leftover.fetchone()[0] == 0, table


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ({"type": "header", "format": "localmem-export", "version": 5, "exported_at": "t"},
         "version 5 cannot be read"),
        ({"type": "header", "format": "other-export", "version": 1, "exported_at": "t"},
         "not a localmem export"),
        ({"type": "session", "id": "s"}, "not a localmem export"),
        ({"type": "header", "format": "localmem-export", "version": 1}, "exported_at: Field required"),
    ],
    ids=["newer version", "other format", "no header", "incomplete header"],
)
def test_a_wrong_header_is_refused_before_anything_is_written(
    store: MemoryStore, tmp_path: Path, header: dict, expected: str
) -> None:
    _first, _second, lines = two_sessions(store)
    lines[0] = json.dumps(header)
    with MemoryStore(tmp_path / "target.db") as target:
        with pytest.raises(InvalidInput, match=f"^line 1: .*{expected}"):
            target.import_sessions(lines)
        assert target.list_sessions() == []


def test_empty_input_is_not_an_export(store: MemoryStore) -> None:
    with pytest.raises(InvalidInput, match="line 1: the input ends before the header"):
        store.import_sessions([])
    with pytest.raises(InvalidInput, match="line 3: the input ends before the header"):
        store.import_sessions(["", "\n"])


def test_blank_lines_and_a_bom_are_read_but_one_string_is_refused(
    store: MemoryStore, tmp_path: Path
) -> None:
    first, second, lines = two_sessions(store)
    text = "\ufeff" + "\n\n".join(lines) + "\n\n"
    with MemoryStore(tmp_path / "copy.db") as copy:
        report = copy.import_sessions(text.splitlines(keepends=True))
        assert report.sessions == [(first, first), (second, second)]
        with pytest.raises(InvalidInput, match="not one string"):
            copy.import_sessions(text)


def test_summary_ranges_and_checkpoints_map_through_deleted_messages() -> None:
    batch = SessionBatch(SessionRecord(type="session", id="s", title=None, model=None,
                                       created_at=WHEN, updated_at=WHEN), 2)
    for message_id in (2, 3, 7, 9):  # 1, 4-6 and 8 were deleted
        batch.add(_record("message", id=message_id, role="user", text="x", model_id=None,
                          token_count=1, importance_score=0.5, created_at=WHEN))
    summary = _record("summary", id=1, text="s", start_message_id=1, end_message_id=5, message_count=4,
                      level=1, source="offline", importance_score=0.7, token_count=1, created_at=WHEN)
    batch.add(summary)
    assert batch.new_range(summary, first=100) == (100, 101)  # messages 2 and 3
    with pytest.raises(InvalidInput, match="overlaps another level-1 summary"):
        batch.add(summary.model_copy(update={"id": 2, "start_message_id": 3, "end_message_id": 7}))
    with pytest.raises(InvalidInput, match="covers messages 4-6, none of which"):
        batch.add(summary.model_copy(update={"id": 3, "start_message_id": 4, "end_message_id": 6}))
    assert batch.new_through(8, first=100) == 102  # the newest message at or before 8 is 7
    assert batch.new_through(9, first=100) == 103
    assert batch.new_through(1, first=100) == 0  # before every message: all are newer
    with pytest.raises(InvalidInput, match="message ids must increase: 5 after 9"):
        batch.add(_record("message", id=5, role="user", text="x", model_id=None, token_count=1,
                          importance_score=0.5, created_at=WHEN))


def _record(kind: str, **fields: Any) -> Any:
    record = next(r for _t, _f, r in TABLES if record_type(r) == kind)
    return record.model_validate({"type": kind, **fields})


def test_progress_is_reported_in_steps_of_lines(store: MemoryStore, tmp_path: Path) -> None:
    sid = store.create_session().id
    store.add_messages(sid, [{"role": "user", "text": f"m{i}"} for i in range(2 * PROGRESS_LINES)])
    lines = list(store.export_sessions())
    steps: list[int] = []
    with MemoryStore(tmp_path / "copy.db") as copy:
        copy.import_sessions(lines, on_progress=steps.append)
        assert len(copy.get_messages(sid)) == 2 * PROGRESS_LINES
    assert steps == [PROGRESS_LINES, PROGRESS_LINES, 3] and sum(steps) == len(lines)


# --- export ---------------------------------------------------------------------------------


def test_exporting_an_unknown_session_raises_before_any_line(store: MemoryStore, session) -> None:
    with pytest.raises(SessionNotFound, match="'nope'"):
        store.export_sessions([session.id, "nope"])  # the call raises: nothing to iterate
    with pytest.raises(InvalidInput):
        store.export_sessions(session.id)  # a string is not a list of ids


def test_an_export_reads_each_session_as_one_snapshot(db_path: Path, tmp_path: Path) -> None:
    with MemoryStore(db_path) as store, MemoryStore(db_path) as writer:
        sid = store.create_session().id
        store.add_message(sid, "user", "before the export")
        wrote: list[int] = []

        def between_reads(statement: str) -> None:
            # After the export read the messages, before it reads the pins, another
            # connection commits a message and a pin citing it.
            if "FROM semantic_pins" in statement and not wrote:
                message = writer.add_message(sid, "user", "written during the export")
                writer.pin(sid, "cites the new message", source_message_id=message.id)
                wrote.append(message.id)

        store._db.conn.set_trace_callback(between_reads)
        try:
            during = list(store.export_sessions([sid]))
        finally:
            store._db.conn.set_trace_callback(None)
        assert wrote
        assert [json.loads(line)["type"] for line in during] == ["header", "session", "message", "end"]
        after = list(store.export_sessions([sid]))
        assert [json.loads(line)["type"] for line in after] == [
            "header", "session", "message", "message", "pin", "end"
        ]
    with MemoryStore(tmp_path / "copy.db") as copy:
        copy.import_sessions(during)
        copy.import_sessions(after, rename=True)


def test_the_store_is_usable_between_the_sessions_of_an_export(store: MemoryStore) -> None:
    ids = [store.create_session(title=f"s{i}").id for i in range(3)]
    lines = store.export_sessions()
    assert json.loads(next(lines))["type"] == "header"
    assert json.loads(next(lines))["id"] == ids[0]  # oldest first
    store.delete_session(ids[1])  # between two sessions: the export leaves it out
    assert [json.loads(line).get("id") for line in lines] == [ids[2], None]  # and the end


# --- the command line -----------------------------------------------------------------------


def run(*args: str, input: bytes | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.output


def test_cli_round_trip_through_files_and_pipes(rich, tmp_path: Path) -> None:
    path, sid, shown = rich
    out = tmp_path / "export.jsonl"
    code, text = run("export", "--db", str(path), "-o", str(out))
    assert code == 0 and text == f"Exported 1 sessions ({out.read_text().count(chr(10))} lines) to {out}\n"
    assert stat.S_IMODE(out.stat().st_mode) == 0o600  # it holds private conversations
    copy = tmp_path / "copy.db"
    code, text = run("import", str(out), "--db", str(copy))
    assert code == 0, text
    assert text.splitlines()[0] == f"Imported session {sid}"
    assert text.splitlines()[1].startswith(f"1 sessions: message {len(shown['messages'])}, item 1, ")
    with MemoryStore(copy) as store:
        assert snapshot(store, sid) == shown
    # stdout to stdin, into the same file, renamed; no progress bar in a pipe.
    code, exported = run("export", sid, "--db", str(path))
    # The same lines, but for the header's time and so the end record's checksum.
    assert code == 0 and exported.splitlines()[1:-1] == out.read_text().splitlines()[1:-1]
    code, text = run("import", "-", "--db", str(path), "--rename", "--json", input=exported.encode())
    assert code == 0, text
    report = json.loads(text)
    [[old, new]] = report["sessions"]
    assert old == sid and new != sid and report["counts"]["session"] == 1
    with MemoryStore(path, config=CONFIG) as store:
        assert snapshot(store, new) == shown


def test_cli_errors_are_one_line(store: MemoryStore, db_path: Path, tmp_path: Path) -> None:
    _first, second, lines = two_sessions(store)
    store.close()
    code, text = run("export", "nope", "--db", str(db_path))
    assert code == 1 and text == "Error: no session with id 'nope'\n"
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(("\n".join(lines[:-1]) + "\n").encode() + b'{"type":"subtask","name":"\xff"}\n')
    code, text = run("import", str(bad), "--db", str(tmp_path / "target.db"))
    assert code == 1 and text.count("\n") == 1  # refused whole: it has no end record
    assert text.startswith(f"Error: line {len(lines) + 1}: the input ends before its end record")
    code, text = run("import", str(bad), "--unverified", "--db", str(tmp_path / "target.db"))
    assert code == 1 and text.count("\n") == 1
    assert text.startswith(f"Error: line {len(lines)}: not valid UTF-8; nothing of session '{second}'")
    code, text = run("import", str(tmp_path / "missing.jsonl"), "--db", str(tmp_path / "t.db"))
    assert code == 2 and "No such file" in text
