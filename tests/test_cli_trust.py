"""A CLI people trust with their data (issue 15), point by point, through click's
runner on real files; the interruptions and the terminal are in test_cli_processes.py."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from localmem import MemoryStore
from localmem.cli import cli
from localmem.demo import DEMO_CONVERSATION
from tests.ollama_server import FakeOllama


def run(*args: str, input: str | bytes | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.output


def filled(db: Path, sessions: int = 3, messages: int = 4) -> list[str]:
    with MemoryStore(db) as store:
        ids = []
        for n in range(sessions):
            sid = store.create_session(title=f"s{n}", model="llama3.2").id
            store.add_messages(sid, [{"role": "user", "text": f"s{n} m{i}"} for i in range(messages)])
            ids.append(sid)
            time.sleep(0.002)  # timestamps have milliseconds: each session is newer than the last
    return ids


def rows(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT count(*) FROM messages").fetchone()[0]
    finally:
        conn.close()


# --- 1. files: never a partial export, never over the database or an existing file -----------


def test_export_never_overwrites_unless_forced_and_the_file_is_private(db_path: Path, tmp_path: Path) -> None:
    filled(db_path)
    out = tmp_path / "all.jsonl"
    out.write_text("my notes\n")
    out.chmod(0o644)
    code, text = run("export", "-o", str(out), "--db", str(db_path))
    assert code == 1 and "already exists" in text and "--force" in text
    assert out.read_text() == "my notes\n"
    code, text = run("export", "-o", str(out), "--force", "--db", str(db_path))
    assert code == 0, text
    assert json.loads(out.read_text().splitlines()[-1])["type"] == "end"
    assert stat.S_IMODE(out.stat().st_mode) == 0o600  # replaced: not the old 0644
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_export_refuses_the_database_and_its_log_files(db_path: Path, suffix: str) -> None:
    filled(db_path)
    with MemoryStore(db_path):  # open: the -wal and -shm files exist
        before = rows(db_path)
        target = Path(f"{db_path}{suffix}")
        for spelling in (str(target), str(target.parent / "." / target.name)):
            for extra in ((), ("--force",)):
                code, text = run("export", "-o", spelling, *extra, "--db", str(db_path))
                assert code == 1 and "it would be destroyed" in text, text
    assert rows(db_path) == before
    with MemoryStore(db_path) as store:
        assert store.check_file() == []


def test_export_never_follows_a_symbolic_link(db_path: Path, tmp_path: Path) -> None:
    filled(db_path)
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    link = tmp_path / "export.jsonl"
    link.symlink_to(precious)
    for extra in ((), ("--force",)):
        code, text = run("export", "-o", str(link), *extra, "--db", str(db_path))
        assert code == 1 and "symbolic link" in text
    assert precious.read_text() == "keep me" and link.is_symlink()
    db_link = tmp_path / "db-link.jsonl"  # a link to the database: refused as a link first
    db_link.symlink_to(db_path)
    assert run("export", "-o", str(db_link), "--force", "--db", str(db_path))[0] == 1


def test_a_failed_export_leaves_no_file(db_path: Path, tmp_path: Path) -> None:
    filled(db_path)
    out = tmp_path / "out.jsonl"
    code, text = run("export", "nope", "-o", str(out), "--db", str(db_path))
    assert code == 1 and text == "Error: no session with id 'nope'\n"
    assert list(tmp_path.iterdir()) == [db_path] or not out.exists()
    code, text = run("export", "-o", str(tmp_path / "no" / "such" / "dir.jsonl"), "--db", str(db_path))
    assert code == 1 and "does not exist" in text


def test_backup_never_overwrites_unless_forced_and_never_the_database(db_path: Path, tmp_path: Path) -> None:
    filled(db_path)
    copy = tmp_path / "copy.db"
    assert run("backup", str(copy), "--db", str(db_path))[0] == 0
    code, text = run("backup", str(copy), "--db", str(db_path))
    assert code == 1 and "already exists" in text
    code, text = run("backup", str(copy), "--force", "--db", str(db_path))
    assert code == 0 and stat.S_IMODE(copy.stat().st_mode) == 0o600
    for target in (db_path, Path(f"{db_path}-wal")):
        code, text = run("backup", str(target), "--force", "--db", str(db_path))
        assert code == 1 and "it would be destroyed" in text
    assert rows(db_path) == 12


# --- 2. reading never creates --------------------------------------------------------------

READERS = [
    ("sessions",), ("messages", "s"), ("pins", "s"), ("context", "s"), ("search", "q"),
    ("summaries", "s"), ("goals", "s"), ("usage", "s"), ("checkpoint", "show", "s"), ("stats",),
    ("schema",), ("doctor", "--offline"), ("export",), ("vacuum",), ("maintain", "--offline"),
    ("resummarize", "--offline"), ("summarize", "s", "--offline"), ("forget", "s"),
    ("backup", "copy.db"), ("add", "s", "user", "hi"), ("pin", "s", "a fact"),
]


@pytest.mark.parametrize("words", READERS, ids=[" ".join(w) for w in READERS])
def test_a_missing_file_is_refused_and_nothing_is_created(tmp_path: Path, words: tuple[str, ...]) -> None:
    typo = tmp_path / "typo" / "memroy.db"
    code, text = run(*words, "--db", str(typo))
    assert code == 1 and text == (
        f"Error: no database at {typo}: check --db or $LOCALMEM_DB "
        "(`localmem new`, `import`, `demo` and `mcp` create one)\n"
    )
    assert not (tmp_path / "typo").exists()


def test_the_default_file_is_not_created_by_reading(isolated_env: Path) -> None:
    assert run("sessions")[0] == 1 and not (isolated_env / "default.db").exists()
    assert run("new")[0] == 0 and (isolated_env / "default.db").exists()


# --- 3. an interrupted import is resumed --------------------------------------------------------


def test_import_skip_existing_and_replace(db_path: Path, tmp_path: Path) -> None:
    ids = filled(db_path)
    export = tmp_path / "all.jsonl"
    run("export", "-o", str(export), "--db", str(db_path))
    lines = export.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:8]) + "\n")  # the first session whole, the second cut
    target = tmp_path / "target.db"
    code, text = run("import", str(cut), "--unverified", "--db", str(target))
    assert code == 0 and "unverified" in text
    code, text = run("import", str(export), "--db", str(target))
    assert code == 1 and "already exists" in text and "--skip-existing" in text
    code, text = run("import", str(export), "--skip-existing", "--db", str(target))
    assert code == 0, text
    assert text.splitlines() == [
        f"Imported session {ids[2]}",
        f"Skipped session {ids[0]}: this file has it already",
        f"Skipped session {ids[1]}: this file has it already",
        "1 sessions: message 4; 2 skipped",
    ]
    with MemoryStore(target) as store:
        assert len(store.get_messages(ids[1])) == 1  # the cut session, as the user insisted
    code, text = run("import", str(export), "--replace", "--json", "--db", str(target))
    assert code == 0 and json.loads(text)["replaced"] == ids
    with MemoryStore(target) as store:
        assert [len(store.get_messages(sid)) for sid in ids] == [4, 4, 4]
    code, text = run("import", str(export), "--replace", "--rename", "--db", str(target))
    assert code == 2 and "give one of" in text


def test_a_cut_file_is_refused_before_anything_is_written_or_created(db_path: Path, tmp_path: Path) -> None:
    filled(db_path)
    export = tmp_path / "all.jsonl"
    run("export", "-o", str(export), "--db", str(db_path))
    data = export.read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(data[: len(data) * 2 // 3])
    target = tmp_path / "target.db"
    code, text = run("import", str(cut), "--db", str(target))
    assert code == 1 and "the export was cut short" in text and "--unverified" in text
    assert not target.exists()
    code, text = run("import", "-", "--db", str(target), input=data[: len(data) * 2 // 3])
    assert code == 1 and "cut short" in text  # a pipe: what was whole stays, the cut one is not written
    with MemoryStore(target) as store:
        assert all(len(store.get_messages(s.id)) == 4 for s in store.list_sessions())


# --- 4. destructive commands ask; the demo touches only its own ------------------------------


def test_the_demo_never_touches_a_session_it_did_not_write(db_path: Path) -> None:
    with MemoryStore(db_path) as store:
        mine = store.create_session(session_id="demo", title="my own demo notes").id
        store.add_message(mine, "user", "do not lose this")
    code, out = run("demo", "--offline", "--db", str(db_path))
    assert code == 0 and "Session 'demo' is not the demo's: left untouched." in out
    assert "in session 'demo-2'" in out
    code, out = run("demo", "--offline", "--db", str(db_path))  # again: replaces its own demo-2
    assert code == 0 and "in session 'demo-2'" in out
    with MemoryStore(db_path) as store:
        assert [m.text for m in store.get_messages("demo")] == ["do not lose this"]
        assert len(store.get_messages("demo-2")) == len(DEMO_CONVERSATION)
        assert {s.id for s in store.list_sessions()} == {"demo", "demo-2"}
        store.add_message("demo-2", "user", "now it is mine too")
    code, out = run("demo", "--offline", "--db", str(db_path))
    assert "in session 'demo-3'" in out


def test_forget_without_a_terminal_refuses_unless_yes(db_path: Path) -> None:
    a, b, c = filled(db_path)
    code, out = run("forget", a, "--db", str(db_path))  # a script: nothing to ask on
    assert code == 1 and out == "Error: refusing to delete without a terminal to confirm on: pass --yes to go ahead\n"
    code, out = run("forget", a, "--yes", "--db", str(db_path))
    assert code == 0 and out == f"Deleted session {a}\n"
    code, out = run("forget", "--older-than", "0s", "--yes", "--db", str(db_path))
    assert code == 0 and sorted(out.splitlines()) == sorted([f"Deleted session {b}", f"Deleted session {c}"])


# --- 5. waits: --offline and --timeout -----------------------------------------------------


def test_offline_sends_nothing_and_timeout_bounds_a_hung_model(
    db_path: Path, fake_ollama: FakeOllama
) -> None:
    (sid, *_rest) = filled(db_path, sessions=1, messages=15)
    code, out = run("summarize", sid, "--offline", "--db", str(db_path))
    assert code == 0 and "source=offline" in out
    assert fake_ollama.requests == []
    with MemoryStore(db_path) as store:
        store.add_messages(sid, [{"role": "user", "text": f"more {i}"} for i in range(15)])
    fake_ollama.delay = 30  # hung
    started = time.monotonic()
    code, out = run("summarize", sid, "--timeout", "0.5", "--db", str(db_path))
    assert code == 0 and "messages 16-30 (15) source=offline" in out
    assert time.monotonic() - started < 10  # not the default 60 s per call
    started = time.monotonic()
    code, out = run("doctor", "--timeout", "0.5", "--db", str(db_path))
    # hung, not merely absent: broken (1), where a missing server is offline (3)
    assert code == 1 and "did not answer within 0.5 s: the server is hung" in out
    assert time.monotonic() - started < 10


# --- 7. browsing like llm logs ---------------------------------------------------------------


def test_messages_newest_latest_and_prefixes(db_path: Path) -> None:
    ids = filled(db_path, sessions=2, messages=6)
    newest = ids[-1]
    code, out = run("messages", newest[:6], "-n", "2", "--db", str(db_path))
    assert code == 0 and out.splitlines()[0].endswith("s1 m4") and out.splitlines()[1].endswith("s1 m5")
    assert run("messages", "--latest", "-n", "1", "--db", str(db_path))[1].strip().endswith("s1 m5")
    code, out = run("messages", newest[:3], "--db", str(db_path))  # too short to stand for it
    assert code == 1 and f"no session with id '{newest[:3]}'" in out
    with MemoryStore(db_path) as store:  # two ids with one prefix
        for suffix in ("0" * 28, "1" * 28):
            store.create_session(session_id="abcd" + suffix)
        store.create_session(session_id="demo-2")
    code, out = run("messages", "abcd", "--db", str(db_path))
    assert code == 1 and "begins several session ids" in out
    code, out = run("messages", "demo", "--db", str(db_path))  # a chosen id is never completed
    assert code == 1 and "no session with id 'demo'" in out
    code, out = run("messages", newest, "--latest", "--db", str(db_path))
    assert code == 2 and "not both" in out


def test_sessions_count_and_every_row_format(db_path: Path) -> None:
    ids = filled(db_path, sessions=3, messages=2)
    code, out = run("sessions", "-n", "2", "--db", str(db_path))
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2 and lines[0].startswith(ids[-1]) and "\t2 messages\t" in lines[0]
    data = json.loads(run("sessions", "--json", "--db", str(db_path))[1])
    assert [s["message_count"] for s in data] == [2, 2, 2] and data[0]["id"] == ids[-1]
    nl = [json.loads(line) for line in run("sessions", "--nl", "--db", str(db_path))[1].splitlines()]
    assert nl == data
    csv_lines = run("sessions", "--csv", "--db", str(db_path))[1].splitlines()
    assert csv_lines[0].startswith("id,title,model,created_at,last_activity,message_count") and len(csv_lines) == 4
    table = run("messages", ids[0], "-t", "--db", str(db_path))[1].splitlines()
    assert table[0].split() == ["id", "role", "token_count", "importance_score", "created_at", "text"]
    assert set(table[1]) <= {"-", " "} and table[2].split()[1] == "user"
    assert run("pins", ids[0], "--nl", "--db", str(db_path)) == (0, "")


def test_dash_h_is_help_everywhere() -> None:
    for words in (("-h",), ("messages", "-h"), ("checkpoint", "clear", "-h")):
        code, out = run(*words)
        assert code == 0 and "Show this message and exit." in out


# --- 8. pipes ------------------------------------------------------------------------------------


def test_add_reads_standard_input_and_jsonl_in_one_transaction(db_path: Path) -> None:
    (sid,) = filled(db_path, sessions=1, messages=0)
    code, out = run("add", sid, "user", "-", "--db", str(db_path), input="My son is allergic to peanuts.\n")
    assert code == 0 and "importance=0.6" in out
    lines = [{"role": "user", "text": f"line {i}"} for i in range(3)]
    jsonl = "\n".join(json.dumps(x) for x in lines) + "\n\n"
    code, out = run("add", sid, "--jsonl", "-", "--db", str(db_path), input=jsonl)
    assert code == 0 and out == f"Added 3 messages (#2-#4) to {sid}\n"
    bad = jsonl + json.dumps({"role": "robot", "text": "no"}) + "\n"
    code, out = run("add", sid, "--jsonl", "-", "--db", str(db_path), input=bad)
    assert code == 1 and out.count("\n") == 1
    code, out = run("add", sid, "--jsonl", "-", "--db", str(db_path), input="{not json\n")
    assert code == 1 and "line 1: not JSON" in out
    with MemoryStore(db_path) as store:
        assert [m.text for m in store.get_messages(sid)] == [
            "My son is allergic to peanuts.", "line 0", "line 1", "line 2",
        ]  # the bad batch wrote nothing


def test_files_are_created_private_even_under_a_lax_umask(db_path: Path, tmp_path: Path) -> None:
    filled(db_path)
    old = os.umask(0)
    try:
        assert run("export", "-o", str(tmp_path / "e.jsonl"), "--db", str(db_path))[0] == 0
        assert run("backup", str(tmp_path / "b.db"), "--db", str(db_path))[0] == 0
    finally:
        os.umask(old)
    for name in ("e.jsonl", "b.db"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600
