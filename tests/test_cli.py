"""The command line, through click's CliRunner, on real files."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from localmem import MemoryStore
from localmem.cli import cli


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_demo_uses_the_default_database(isolated_env: Path) -> None:
    code, out = run("demo")
    assert code == 0, out
    assert "Rosa is allergic to penicillin" in out and "Tokens counted with cl100k_base" in out
    assert "of 3000 tokens" in out
    with MemoryStore(isolated_env / "default.db") as store:
        assert len(store.get_messages("demo")) == 20
        assert len(store.get_pins("demo", kind="manual")) == 3
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

    out = subprocess.run(
        [sys.executable, "-m", "localmem", "sessions", "--db", str(tmp_path / "m.db")],
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
