"""Offline summaries are temporary: written while no model answered, redone by the
model once one does (store.resummarize, maintain, the CLI); a rollup made offline
is never a summary of summaries. The real ollama client talks to the fake server
over loopback, or to a port nothing listens on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from localmem import MemoryStore
from localmem.cli import cli
from localmem.errors import SessionNotFound
from localmem.summarizer import FALLBACK, OFFLINE
from tests.ollama_server import FakeOllama
from tests.test_summarize import conversation

# Small ranges and few level-1 summaries in the context: rollups come quickly.
# these tests hold the checks: every summary that passes them is the model's (what a
# context shows by default, model_trust="earned": tests/test_earned.py)
CONFIG = {"summary_threshold": 4, "recent_summaries": 2, "structured_min_tokens": 0, "model_trust": "checked"}
# A reply that passes validation for every range of conversation() and for a rollup
# of such replies (the fake server's own guess at a rollup shares too few words).
GOOD_REPLY = "Discussed the index on the franchisees table in the database."


def offline_session(db_path: Path, host: str, monkeypatch, messages: int = 16) -> str:
    """A session summarized with no server answering: offline summaries and rollups."""
    monkeypatch.setenv("OLLAMA_HOST", host)
    with MemoryStore(db_path, config=CONFIG) as store:
        sid = store.create_session(model="llama3.2").id
        store.add_messages(sid, conversation(messages))
        while store.summarize(sid) is not None:
            pass
        summaries = store.get_summaries(sid)
    assert {s.source for s in summaries} == {OFFLINE} and {s.level for s in summaries} == {1, 2}
    return sid


@pytest.fixture
def answering(db_path: Path, dead_ollama_host: str, monkeypatch, fake_ollama: FakeOllama) -> str:
    """An offline session, then a model that answers well."""
    sid = offline_session(db_path, dead_ollama_host, monkeypatch)
    monkeypatch.setenv("OLLAMA_HOST", fake_ollama.host)
    fake_ollama.reply = GOOD_REPLY
    return sid


def test_an_offline_rollup_summarizes_messages_not_summaries(
    db_path: Path, dead_ollama_host: str, monkeypatch
) -> None:
    sid = offline_session(db_path, dead_ollama_host, monkeypatch)
    with MemoryStore(db_path, config=CONFIG) as store:
        rollups = [s for s in store.get_summaries(sid) if s.level == 2]
        for rollup in rollups:
            assert rollup.text.count("Offline summary") == 1, rollup.text
            # It reaches back to the session's start: all the messages up to its end.
            assert rollup.text.startswith(f"Offline summary: {rollup.end_message_id} messages")
            assert '"Turn 0: How do I add an index' in rollup.text
        ctx = store.build_context(sid)
        context = "\n".join(m["content"] for m in ctx.to_messages())
        assert context.count("Offline summary") == len(ctx.summaries) > 0  # one each, not nested


def test_resummarize_redoes_every_offline_summary_once_a_model_answers(
    db_path: Path, answering: str, fake_ollama: FakeOllama
) -> None:
    sid = answering
    with MemoryStore(db_path, config=CONFIG) as store:
        before = store.get_summaries(sid)
        steps: list[tuple[int, int]] = []
        report = store.resummarize(on_progress=lambda done, total: steps.append((done, total)))
        after = store.get_summaries(sid)
        assert (report.found, len(report.redone), report.left, report.reason) == (len(before), len(before), 0, None)
        assert steps[-1] == (len(before), len(before))
        # Same ranges and levels, now the model's, each in place of the old one.
        assert [(s.level, s.start_message_id, s.end_message_id, s.message_count) for s in after] == [
            (s.level, s.start_message_id, s.end_message_id, s.message_count) for s in before
        ]
        assert {s.source for s in after} == {"llama3.2:latest"}
        assert all(s.text == GOOD_REPLY for s in after)
        assert len(store.get_summary_facts(sid)) == sum(s.level == 1 for s in after)
        hits = store.search(after[0].text.split()[0], session_id=sid)
        assert any(h.kind == "summary" and h.id == after[0].id for h in hits)  # indexed
        # Nothing left to redo: a second run finds nothing and sends nothing.
        sent = len(fake_ollama.requests)
        assert store.resummarize().found == 0
        assert len(fake_ollama.requests) == sent


def test_without_a_model_nothing_changes_and_the_run_stops_at_once(
    db_path: Path, dead_ollama_host: str, monkeypatch
) -> None:
    sid = offline_session(db_path, dead_ollama_host, monkeypatch)
    with MemoryStore(db_path, config=CONFIG) as store:
        other = store.create_session(model="llama3.2").id
        store.add_messages(other, conversation(4))
        store.summarize(other)
        before = {s: store.get_summaries(s) for s in (sid, other)}
        report = store.resummarize()
        assert report.redone == [] and report.left == report.found > 0
        assert report.reason.startswith("unreachable")
        assert {s: store.get_summaries(s) for s in (sid, other)} == before


def test_a_model_that_fails_leaves_the_summary_as_it_was(
    db_path: Path, dead_ollama_host: str, monkeypatch, fake_ollama: FakeOllama
) -> None:
    sid = offline_session(db_path, dead_ollama_host, monkeypatch)
    monkeypatch.setenv("OLLAMA_HOST", fake_ollama.host)
    fake_ollama.reply = "Once upon a time, in a land of indexes, there lived a query. " * 8  # a story
    with MemoryStore(db_path, config=CONFIG) as store:
        before = store.get_summaries(sid)
        report = store.resummarize(sid)
        assert report.redone == [] and "did not summarize messages" in report.reason
        assert FALLBACK in report.reason
        assert store.get_summaries(sid) == before
        fake_ollama.reply = GOOD_REPLY  # the model behaves again
        assert store.resummarize(sid).left == 0


def test_a_session_without_a_local_model_is_left_and_says_why(
    db_path: Path, dead_ollama_host: str, monkeypatch, fake_ollama: FakeOllama
) -> None:
    offline_session(db_path, dead_ollama_host, monkeypatch)
    monkeypatch.setenv("OLLAMA_HOST", fake_ollama.host)
    fake_ollama.models = ["qwen2.5:0.5b"]
    with MemoryStore(db_path, config=CONFIG) as store:
        report = store.resummarize()
        assert report.redone == [] and "no local model for session" in report.reason
        with pytest.raises(SessionNotFound):
            store.resummarize("missing")


def test_maintain_resummarizes_too(db_path: Path, answering: str) -> None:
    sid = answering
    with MemoryStore(db_path, config=CONFIG) as store:
        report = store.maintain()
        assert report.resummarized is not None and report.resummarized.left == 0
        assert {s.source for s in store.get_summaries(sid)} == {"llama3.2:latest"}


def test_cli_resummarize_with_and_without_the_model(
    db_path: Path, dead_ollama_host: str, monkeypatch, fake_ollama: FakeOllama
) -> None:
    sid = offline_session(db_path, dead_ollama_host, monkeypatch)
    runner = CliRunner()
    result = runner.invoke(cli, ["resummarize", "--db", str(db_path), "--offline"])
    assert result.exit_code == 0, result.output
    assert "offline mode" in result.output and "0 of" in result.output
    monkeypatch.setenv("OLLAMA_HOST", fake_ollama.host)
    fake_ollama.reply = GOOD_REPLY
    # the CLI's default, model_trust="earned": the first run builds the model's record
    # (three answers kept whole earn it), the second stores what it left, from the cache
    result = runner.invoke(cli, ["resummarize", sid, "--db", str(db_path), "--json"])
    assert result.exit_code == 0, result.output
    first = json.loads(result.stdout)  # stderr says what it waited for
    assert first["left"] > 0 and "earned trust" in first["reason"]
    result = runner.invoke(cli, ["resummarize", sid, "--db", str(db_path), "--json"])
    data = json.loads(result.stdout)
    assert data["left"] == 0 and len(data["redone"]) == data["found"] > 0
