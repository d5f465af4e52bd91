"""The command line, through click's CliRunner, on real files."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from localmem import MemoryStore
from localmem.cli import cli


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_demo_uses_the_default_database(isolated_env: Path) -> None:
    code, out = run("demo")
    assert code == 0, out
    assert "pinned 1 fact by hand and 4 automatically" in out
    assert "she is allergic to penicillin" in out and "Tokens counted with cl100k_base" in out
    assert "of 3000 tokens" in out
    with MemoryStore(isolated_env / "default.db") as store:
        assert len(store.get_messages("demo")) == 20
        assert len(store.get_pins("demo", kind="manual")) == 1
        # The allergy, the medication, the pharmacist and the appointment the user stated.
        assert len(store.get_pins("demo", kind="auto")) == 4
    code, _ = run("demo")  # runs again cleanly: the demo session is replaced
    assert code == 0
    with MemoryStore(isolated_env / "default.db") as store:
        assert len(store.get_messages("demo")) == 20


def test_new_add_pin_messages_context(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    code, sid = run("new", "--model", "llama3.2", "--title", "t", "--db", db)
    sid = sid.strip()
    assert code == 0 and sid
    code, out = run("add", sid, "user", "How do I fix this error?", "--db", db)
    assert code == 0 and "tokens=7" in out and "importance=0.8" in out
    code, out = run("pin", sid, "Allergic to penicillin", "--importance", "0.9", "--db", db)
    assert code == 0 and "importance=0.9" in out
    code, out = run("messages", sid, "--db", db)
    assert "How do I fix this error?" in out
    code, out = run("context", sid, "--db", db, "--max-tokens", "500")
    assert code == 0 and "[Pinned facts]" in out and "of 500 tokens" in out
    code, out = run("context", sid, "--db", db, "--json")
    data = json.loads(out)
    assert data["messages"][-1] == {"role": "user", "content": "How do I fix this error?"}
    assert data["total_tokens"] == sum(data["breakdown"].values())
    code, out = run("sessions", "--db", db, "--json")
    assert json.loads(out)[0]["id"] == sid
    code, out = run("schema", "--db", db)
    assert "CREATE TABLE messages" in out


def test_errors_are_one_clean_line(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    run("new", "--db", db)
    result = CliRunner().invoke(cli, ["context", "missing", "--db", db])
    assert result.exit_code == 1
    assert result.output.strip() == "Error: no session with id 'missing'"
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database")
    result = CliRunner().invoke(cli, ["sessions", "--db", str(notes)])
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert "not an SQLite database" in result.output


def test_python_dash_m_works(tmp_path: Path) -> None:
    import subprocess
    import sys

    for command in ("new", "sessions"):
        out = subprocess.run(
            [sys.executable, "-m", "localmem", command, "--db", str(tmp_path / "m.db")],
            capture_output=True,
            text=True,
        )
        assert out.returncode == 0, out.stderr


def test_summarize_and_summaries(tmp_path: Path, dead_ollama_host: str, monkeypatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", dead_ollama_host)
    db = str(tmp_path / "cli.db")
    code, out = run("demo", "--db", db)
    assert "Messages 1-15 summarized offline" in out
    assert "[Earlier in this conversation, summarized]" in out
    code, out = run("summarize", "demo", "--db", db)
    assert code == 0 and "Nothing to summarize" in out
    for i in range(10):
        run("add", "demo", "user", f"follow-up question {i}?", "--db", db)
    code, out = run("summarize", "demo", "--db", db)
    assert code == 0 and "level 1 messages 16-30 (15) source=offline" in out
    code, out = run("summaries", "demo", "--db", db, "--json")
    assert [(s["start_message_id"], s["end_message_id"]) for s in json.loads(out)] == [(1, 15), (16, 30)]


def test_context_with_a_query_carries_the_old_message_that_answers_it(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    with MemoryStore(db) as store:
        sid = store.create_session(session_id="s").id
        store.add_message(sid, "user", "The school pickup code is 4417, keep it handy.")
        store.add_messages(
            sid, [{"role": "user", "text": f"Let's plan dinner number {i} this week."} for i in range(20)]
        )
        fact = store.get_messages(sid, limit=1)[0]
    code, out = run("context", sid, "--db", str(db), "--query", "What was the school pickup code again?", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert [m["id"] for m in data["relevant_messages"]] == [fact.id]
    assert data["query"] == "What was the school pickup code again?"
    code, out = run("context", sid, "--db", str(db), "--json")
    assert json.loads(out)["relevant_messages"] == []


# --- every command: --help, --db, --json ------------------------------------------------

PRINTS_NO_DATA = {"demo", "schema", "export", "mcp", "ui", "replicate"}  # walkthrough; SQL, JSON Lines, MCP; a page; Litestream


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    found = []
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            found += _commands(command, (*prefix, name))
        else:
            found.append(((*prefix, name), command))
    return found


COMMANDS = _commands(cli)


@pytest.mark.parametrize(("words", "command"), COMMANDS, ids=[" ".join(w) for w, _ in COMMANDS])
def test_every_command_has_help_db_and_json(words: tuple[str, ...], command: click.Command) -> None:
    code, out = run(*words, "--help")
    assert code == 0, out
    flat = " ".join(out.split())
    first_line = (command.help or "").strip().split("\n")[0]
    assert first_line and " ".join(first_line.split()) in flat
    options = {opt for param in command.params for opt in getattr(param, "opts", [])}
    assert "--db" in options and "--db FILE Database file" in flat
    if words[-1] not in PRINTS_NO_DATA:
        assert "--json" in options and "--json Print JSON." in flat


def test_the_walk_sees_the_new_commands() -> None:
    names = {" ".join(words) for words, _ in COMMANDS}
    assert {"forget", "vacuum", "backup", "stats", "doctor", "path", "checkpoint clear"} <= names


def test_json_of_new_add_pin_and_usage(tmp_path: Path) -> None:
    db = str(tmp_path / "j.db")
    code, out = run("new", "--model", "llama3.2", "--title", "t", "--db", db, "--json")
    session = json.loads(out)
    assert code == 0 and (session["model"], session["title"]) == ("llama3.2", "t")
    code, out = run("add", session["id"], "user", "How do I fix this error?", "--db", db, "--json")
    message = json.loads(out)
    assert (message["id"], message["token_count"], message["importance_score"]) == (1, 7, 0.8)
    code, out = run("pin", session["id"], "Allergic to penicillin", "--db", db, "--json")
    assert json.loads(out)["content"] == "Allergic to penicillin"
    code, out = run("usage", session["id"], "--db", db, "--json")
    usage = json.loads(out)
    assert code == 0 and usage["uncovered_messages"] == 1 and usage["used_tokens"] == 7


def test_path_follows_db_and_the_environment(tmp_path: Path, isolated_env: Path) -> None:
    assert run("path") == (0, f"{isolated_env / 'default.db'}\n")
    target = tmp_path / "elsewhere.db"
    assert run("path", "--db", str(target)) == (0, f"{target}\n")
    assert json.loads(run("path", "--db", str(target), "--json")[1]) == {"path": str(target)}
    assert not target.exists()  # printed, not opened


# --- forget, vacuum, backup, stats, doctor ------------------------------------------------


def _sessions(db: str) -> set[str]:
    return {s["id"] for s in json.loads(run("sessions", "--db", db, "--json")[1])}


def test_forget_by_id(tmp_path: Path) -> None:
    db = str(tmp_path / "f.db")
    a, b, c = (run("new", "--db", db)[1].strip() for _ in range(3))
    code, out = run("forget", a, b, "--db", db, "--dry-run")
    assert code == 0 and out == f"Would delete session {a}\nWould delete session {b}\n"
    assert _sessions(db) == {a, b, c}
    code, out = run("forget", a, b, "--db", db, "--json", "--yes")
    assert json.loads(out) == {"sessions": [a, b], "dry_run": False}
    assert _sessions(db) == {c}
    result = CliRunner().invoke(cli, ["forget", c, "missing", "--db", db, "--yes"])
    assert result.exit_code == 1 and result.output == "Error: no session with id 'missing'\n"
    assert _sessions(db) == {c}  # nothing deleted when one id is wrong


def test_forget_older_than(db_path: Path) -> None:
    with MemoryStore(db_path, clock=lambda: datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)) as store:
        old = store.create_session().id
    with MemoryStore(db_path) as store:
        new = store.create_session().id
    db = str(db_path)
    code, out = run("forget", "--older-than", "30d", "--db", db, "--dry-run", "--json")
    assert json.loads(out) == {"sessions": [old], "dry_run": True}
    code, out = run("forget", "--older-than", "2w", "--db", db, "--yes")
    assert code == 0 and out == f"Deleted session {old}\n"
    assert _sessions(db) == {new}
    assert run("forget", "--older-than", "12h", "--db", db)[1] == "No session is idle for that long.\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "--older-than or --message: one of them"),
        (("some-id", "--older-than", "30d"), "--older-than or --message: one of them"),
        (("--older-than", "30 days"), "is not an age like 30d"),
        (("--older-than", "-3d"), "is not an age like 30d"),
        (("--older-than", "99999999999w"), "longest timedelta"),
    ],
    ids=["neither", "both", "bad-unit", "negative", "huge"],
)
def test_forget_refuses_unclear_requests(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    db = str(tmp_path / "f.db")
    sid = run("new", "--db", db)[1].strip()
    result = CliRunner().invoke(cli, ["forget", *args, "--db", db])
    assert result.exit_code == 2 and message in result.output
    assert _sessions(db) == {sid}


def test_vacuum_backup_and_stats(tmp_path: Path) -> None:
    db = str(tmp_path / "v.db")
    run("demo", "--db", db)
    scratch = run("new", "--db", db)[1].strip()
    with MemoryStore(db) as store:
        store.add_messages(scratch, [{"role": "user", "text": f"scratch {i} " * 50} for i in range(600)])  # far more than the schema
    run("forget", scratch, "--db", db, "--yes")
    code, out = run("vacuum", "--db", db, "--json")
    sizes = json.loads(out)
    assert code == 0 and sizes["bytes_after"] < sizes["bytes_before"] / 2 and sizes["log_bytes"] == 0
    copy = tmp_path / "copy.db"
    code, out = run("backup", str(copy), "--db", db)
    assert code == 0 and out.startswith(f"Backed up {db} to {copy} (")
    result = CliRunner().invoke(cli, ["backup", str(copy), "--db", db])
    assert result.exit_code == 1 and "already exists" in result.output
    code, out = run("stats", "--db", str(copy), "--json")
    data = json.loads(out)
    assert (data["sessions"], data["messages"], data["pins_by_kind"]) == (1, 20, {"auto": 4, "manual": 1})
    assert data["summaries_by_level"] == {"1": 1} and data["tokenizer"] == "cl100k_base"
    code, out = run("stats", "--db", str(copy))
    assert code == 0 and "Sessions: 1, messages: 20" in out and "Tokenizer: cl100k_base" in out


def test_doctor_exit_codes(tmp_path: Path, fake_ollama, monkeypatch, dead_ollama_host: str) -> None:
    db = str(tmp_path / "d.db")
    sid = run("new", "--model", "llama3.2", "--db", db)[1].strip()
    code, out = run("doctor", "--session", sid, "--db", db)
    assert code == 0, out
    assert "[ok] context window: llama3.2: 8192 tokens (Ollama /api/show)" in out
    monkeypatch.setenv("OLLAMA_HOST", dead_ollama_host)
    result = CliRunner().invoke(cli, ["doctor", "--db", db, "--json"], catch_exceptions=False)
    code, checks = result.exit_code, {c["name"]: c["ok"] for c in json.loads(result.stdout)}
    assert result.stderr == (  # the JSON on stdout; what it waited for on stderr
        f"Waiting up to 3 s for Ollama to list its models at {dead_ollama_host} "
        "(--offline skips the local model)...\n"
    )
    # No local model: not broken, offline (exit 3), told apart from broken (exit 1).
    assert code == 3 and checks == {
        "file": True, "schema": True, "tokenizer": True, "search": True, "ollama": False, "models": False,
        "semantic recall": True,  # lexical, which works: embedding_model="auto" found none
        "model trust": True,  # a record, never a fault
    }
    code, out = run("doctor", "--db", db)
    assert "[ok] semantic recall: lexical: the Ollama server did not answer" in out
    assert code == 3 and "[offline] ollama: " in out and "localmem works offline" in out
    fake_ollama.mode_paths = frozenset({"/api/tags"})
    fake_ollama.mode = "error500"  # a server that answers, wrongly: broken
    monkeypatch.setenv("OLLAMA_HOST", fake_ollama.host)
    code, out = run("doctor", "--db", db)
    assert code == 1 and "[FAIL] ollama: " in out
    result = CliRunner().invoke(cli, ["doctor", "--session", "missing", "--db", db])
    assert result.exit_code == 1 and result.output == "Error: no session with id 'missing'\n"
