"""What an import must not trust: token counts, archives, timestamps, repeated auto pins.

An export is a file anybody can edit; whatever it says, an import either
refuses it with the line's number (writing nothing of that session) or stores
what this store would have stored itself. Every check runs on a real file.
"""

from __future__ import annotations

import datetime
import json
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from localmem import MemoryStore
from localmem.errors import ImportRefused

ROOT = Path(__file__).resolve().parents[1]
WHEN = "2026-01-01T00:00:00.000Z"
TEXT = "The quarterly report is due on Friday; Rosa reviews section three first. "


def exported(store: MemoryStore) -> tuple[str, list[dict]]:
    """A session with long messages, a pin and a finished goal, as parsed export lines."""
    sid = store.create_session(title="report").id
    store.add_messages(sid, [{"role": "user", "text": TEXT * 60} for _ in range(40)])
    store.pin(sid, "Rosa reviews section three first")
    store.set_goal(sid, "Ship the report")
    store.record_tool(sid, "search", {"q": "report"}, result_summary="3 found")
    store.complete_goal(sid)
    return sid, edited(store.export_sessions([sid]))


def edited(lines: Iterable[str]) -> list[dict]:
    """An export's records, about to be edited by hand: its end record (the lines'
    SHA-256) is dropped, and the edited file is imported ``unverified``."""
    return [r for r in map(json.loads, lines) if r["type"] != "end"]


def import_into(path: Path, records: list[dict]) -> MemoryStore:
    store = MemoryStore(path)
    store.import_sessions([json.dumps(r) for r in records], unverified=True)
    return store


def edit(records: list[dict], kind: str, change: Callable[[dict], None], every: bool = False) -> int:
    """Change the last record of ``kind`` (``every``: each one); return the last one's line number."""
    last = max(i for i, r in enumerate(records) if r["type"] == kind)
    for r in records if every else [records[last]]:
        if r["type"] == kind:
            change(r)
    return last + 1


@pytest.mark.parametrize("forged", [0, 1, 2**63 - 1])
def test_imported_token_counts_are_recounted(tmp_path: Path, forged: int) -> None:
    with MemoryStore(tmp_path / "a.db") as source:
        sid, records = exported(source)
        real = {m.id: m.token_count for m in source.get_messages(sid)}
    for kind in ("message", "pin", "goal", "tool_execution"):
        edit(records, kind, lambda r: r.update(token_count=forged), every=True)
    edit(records, "goal", lambda r: r.update(archive_tokens=forged) if r["archive"] else None, True)
    with import_into(tmp_path / "b.db", records) as target:
        messages = target.get_messages(sid)
        assert [m.token_count for m in messages] == list(real.values())
        assert all(m.token_count == target.count_tokens(m.text) for m in messages)
        ctx = target.build_context(sid, max_tokens=100)
        # 40 messages of ~900 tokens: a count of 0 let all of them into a 100-token budget.
        assert ctx.total_tokens <= 100
        assert sum(target.count_tokens(m["content"]) for m in ctx.to_messages()) <= 100
        usage = target.context_usage(sid)  # 2**63-1 overflowed SUM() here, for good
        assert usage["used_tokens"] == sum(real.values())
        (goal,) = target.get_goals(sid)
        assert 0 < goal.token_count < 20 and 0 < goal.archive_tokens < 40


ODD_ARCHIVES = ["no usage", "usage not a tally", "a rate of 250%", "a list"]


def _odd_archive(case: str, real: dict) -> object:
    if case == "no usage":
        return {"tools": {"total": 3}}
    if case == "usage not a tally":
        return {**real, "tools": {**real["tools"], "usage": {"search": "many"}}}
    if case == "a rate of 250%":
        return {**real, "tools": {**real["tools"], "success_rate": 2.5}}
    return [real]


@pytest.mark.parametrize("case", ODD_ARCHIVES)
def test_an_archive_of_another_shape_is_refused_with_its_line(tmp_path: Path, case: str) -> None:
    with MemoryStore(tmp_path / "a.db") as source:
        sid, records = exported(source)
    real = next(r["archive"] for r in records if r["type"] == "goal" and r["archive"])
    line = edit(records, "goal", lambda r: r.update(archive=_odd_archive(case, real)))
    with MemoryStore(tmp_path / "b.db") as target:
        with pytest.raises(ImportRefused, match=f"^line {line}: goal.archive: "):
            target.import_sessions([json.dumps(r) for r in records], unverified=True)
        assert target.list_sessions() == []


def test_a_stored_archive_of_another_shape_does_not_break_contexts(tmp_path: Path) -> None:
    """A file an older localmem imported an odd archive into (or another program wrote)."""
    path = tmp_path / "a.db"
    with MemoryStore(path) as store:
        sid, _records = exported(store)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("""UPDATE goals SET archive = '{"tools": {"total": 3}}'""")
    conn.close()
    with MemoryStore(path) as store:
        ctx = store.build_context(sid)  # KeyError: 'usage' here, in every context, before
        assert "- completed: Ship the report — nothing recorded" in ctx.state


@pytest.mark.parametrize(
    "when",
    ["9999-12-31T23:59:59.999Z", "zzz", "", "2026-13-01T00:00:00Z", "12:00"],
    ids=["year 9999", "zzz", "empty", "month 13", "no date"],
)
def test_timestamps_that_are_not_or_not_yet_are_refused(tmp_path: Path, when: str) -> None:
    with MemoryStore(tmp_path / "a.db") as source:
        _sid, records = exported(source)
    line = edit(records, "message", lambda r: r.update(created_at=when))
    with MemoryStore(tmp_path / "b.db") as target:
        with pytest.raises(ImportRefused, match=f"^line {line}: message.created_at: "):
            target.import_sessions([json.dumps(r) for r in records], unverified=True)
        assert target.list_sessions() == []


def test_timestamps_are_stored_in_the_files_own_shape(tmp_path: Path) -> None:
    """Retention compares timestamps as text: an offset or a missing "Z" would skew it."""
    with MemoryStore(tmp_path / "a.db") as source:
        sid, records = exported(source)
    for r in records:
        if r["type"] == "session":
            r.update(created_at="2020-01-01T02:00:00+02:00", updated_at="2020-01-01T02:00:00+02:00")
        if r["type"] == "message":
            r["created_at"] = "2020-01-01 00:00:00"  # no zone: UTC, like the file's own
    with import_into(tmp_path / "b.db", records) as target:
        session = target.get_session(sid)
        assert session.created_at == "2020-01-01T00:00:00.000Z"
        assert {m.created_at for m in target.get_messages(sid)} == {"2020-01-01T00:00:00.000Z"}
        assert target.prune(datetime.timedelta(days=365)) == [sid]  # old, and pruned as such


def test_a_repeated_automatic_pin_is_refused_with_its_line(tmp_path: Path) -> None:
    with MemoryStore(tmp_path / "a.db") as source:
        sid = source.create_session().id
        source.pin(sid, "Allergic to penicillin", kind="auto")
        records = edited(source.export_sessions([sid]))
    pin = next(r for r in records if r["type"] == "pin")
    records.append({**pin, "id": pin["id"] + 1, "content": "allergic to  PENICILLIN."})
    with MemoryStore(tmp_path / "b.db") as target:
        with pytest.raises(ImportRefused, match=f"^line {len(records)}: pin .* repeats"):
            target.import_sessions([json.dumps(r) for r in records], unverified=True)
        assert target.list_sessions() == []


PEAK_PROBE = textwrap.dedent(
    """
    import sys
    from localmem import MemoryStore

    def peak_kb():  # VmHWM: this process's own peak (ru_maxrss would carry its parent's over exec)
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))

    with MemoryStore(sys.argv[1]) as store:
        store.count_tokens("the encoder, loaded before the baseline")
        base = peak_kb()
        with open(sys.argv[2]) as lines:
            report = store.import_sessions(lines)
        peak = peak_kb()
        print((peak - base) * 1024, report.counts["message"], len(store.get_messages("big")[0].text))
    """
)


def test_a_one_line_import_lets_its_line_go_before_the_write(tmp_path: Path) -> None:
    """A 200 MB message on one line peaked at 828 MB (4.1x): the line was kept (and
    stripped, a copy) while SQLite took its own two copies of the text to write it.
    Reading a line and parsing it hold two copies, writing it three (the record's
    text, SQLite's bound copy and its row): the peak is that, not a copy more."""
    size = 40 * 1024 * 1024
    export = tmp_path / "big.jsonl"
    with MemoryStore(tmp_path / "source.db") as source:
        source.create_session(session_id="big")
        source.add_message("big", "user", "figures " * (size // 8))
        with export.open("w") as f:
            for line in source.export_sessions():  # with its end record: a verified import
                f.write(line + "\n")
    probe = [sys.executable, "-c", PEAK_PROBE, str(tmp_path / "big.db"), str(export)]
    out = subprocess.run(probe, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    grown, messages, length = map(int, out.stdout.split())
    assert (messages, length) == (1, size)
    # 3.96x before; then 3.01x or 3.69x from run to run (whether the allocator hands a
    # freed copy's pages back before SQLite's copies are made). Since m012 the search
    # index is written in the same transaction: the trigger hands FTS5 the text (one
    # copy more) and FTS5 holds its position list (5M positions here) until commit:
    # 4.18x to 4.68x measured on a loaded machine. The bound allows that index's own
    # cost, not the kept line the test is about (a whole copy more than that).
    assert grown < 5.0 * size, f"{grown / size:.2f}x the line"
