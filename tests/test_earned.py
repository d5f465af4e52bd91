"""``MemoryConfig.model_trust``: a model's summary is shown as its own once the model
has earned trust on this file (issue 21 point 2). Through ``MemoryStore``, the real
ollama client over a real loopback socket to the fake server (tests/ollama_server.py)."""

from __future__ import annotations

import json
import logging
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from localmem import MemoryStore
from localmem.doctor import check_trust
from localmem.summarizer import FALLBACK
from localmem.trust import MIN_VERDICTS, TRUST_WINDOW, earned
from tests.ollama_server import FakeOllama

MODEL = "llama3.2:latest"
TURNS = [
    "How do I add an index to the franchisees table in the database?",
    "Use CREATE INDEX on the columns you filter by, for example region and opened_at.",
    "The query still takes four seconds, what else could be wrong?",
    "Check EXPLAIN QUERY PLAN to see whether the index is used at all.",
    "It says SCAN franchisees. Why would it ignore the index?",
]
LOSES_ONE = (
    "The user asked how to add an index to the franchisees table. The query still takes four seconds. "
    "EXPLAIN QUERY PLAN says SCAN franchisees. The user decided to rewrite the database in Rust."
)
"""Three sentences the turns support and a fourth none does: the checks drop it, keep the rest."""


def conversation(n: int, start: int = 0) -> list[dict[str, str]]:
    return [
        {"role": "user" if i % 2 == 0 else "assistant", "text": f"Turn {i}: {TURNS[i % len(TURNS)]}"}
        for i in range(start, start + n)
    ]


def filled(store: MemoryStore, ranges: int) -> str:
    s = store.create_session(model="llama3.2", title="indexes")
    store.add_messages(s.id, conversation(15 * ranges))
    return s.id


def summary_record(store: MemoryStore) -> list:
    """The model's records for its summaries (``model_trust`` lists every kind)."""
    return [r for r in store.model_trust() if r.kind == "summary"]


def sources(store: MemoryStore, sid: str, ranges: int) -> list[str]:
    return [store.summarize(sid).source for _ in range(ranges)]


def test_the_record_rule() -> None:
    assert not earned([True] * (MIN_VERDICTS - 1))  # too few to say anything
    assert earned([True] * MIN_VERDICTS)
    assert not earned([True, False, True])  # 2 of 3
    assert earned([False] * 5 + [True] * TRUST_WINDOW)  # judged on the newest ten
    assert not earned([True] * 20 + [False] * 3)  # 7 of the newest 10
    assert earned([True] * 8 + [False] * 2)  # 8 of 10


def test_a_faithful_model_earns_trust_after_three_answers(db_path, fake_ollama: FakeOllama, caplog) -> None:
    with caplog.at_level(logging.INFO, logger="localmem"), MemoryStore(
        db_path, config={"recent_summaries": 0}
    ) as store:
        sid = filled(store, 5)
        got = sources(store, sid, 5)
        assert got == [FALLBACK] * MIN_VERDICTS + [MODEL, MODEL]
        first = store.get_summaries(sid)[0]
        assert first.text.startswith("15 messages") or "database" in first.text  # the store's own
        (record,) = summary_record(store)
        assert (record.model, record.answered, record.whole, record.earned) == (MODEL, 5, 5, True)
        assert "earned" in check_trust(store).detail
    assert caplog.text.count("has earned trust for its summaries on this file") == 1


def test_the_facts_beside_an_unearned_summary_are_asked_as_before(db_path, fake_ollama: FakeOllama) -> None:
    config = {"structured_min_tokens": 0, "recent_summaries": 0}
    with MemoryStore(db_path, config=config) as store:
        sid = filled(store, 1)
        assert store.summarize(sid).source == FALLBACK
    facts_calls = [b for _, path, b in fake_ollama.requests if path == "/api/chat" and b.get("format")]
    assert len(facts_calls) >= 2  # the checkpoint's, then the summary's facts


def test_a_model_whose_answers_lose_sentences_never_earns_it(db_path, fake_ollama: FakeOllama, caplog) -> None:
    fake_ollama.reply = LOSES_ONE
    with caplog.at_level(logging.INFO, logger="localmem"), MemoryStore(
        db_path, config={"recent_summaries": 0}
    ) as store:
        sid = filled(store, 5)
        assert sources(store, sid, 5) == [FALLBACK] * 5
        (record,) = summary_record(store)
        assert (record.answered, record.whole, record.earned) == (5, 0, False)
        assert "not earned" in check_trust(store).detail
    assert "dropped" in caplog.text and "has earned trust" not in caplog.text


def test_checked_keeps_every_summary_that_passes_the_checks(db_path, fake_ollama: FakeOllama) -> None:
    fake_ollama.reply = LOSES_ONE
    with MemoryStore(db_path, config={"model_trust": "checked", "recent_summaries": 0}) as store:
        sid = filled(store, 2)
        kept = [store.summarize(sid) for _ in range(2)]
        assert [s.source for s in kept] == [MODEL, MODEL]
        assert all("Rust" not in s.text for s in kept)  # the checks dropped the sentence
        (record,) = summary_record(store)  # recorded either way
        assert (record.answered, record.whole) == (2, 0)


def test_the_record_survives_reopening_and_another_process_sees_it(db_path, fake_ollama: FakeOllama) -> None:
    with MemoryStore(db_path, config={"recent_summaries": 0}) as store:
        sid = filled(store, 4)
        assert sources(store, sid, 2) == [FALLBACK, FALLBACK]
    with MemoryStore(db_path, config={"recent_summaries": 0}) as store:
        assert store.summarize(sid).source == FALLBACK  # the third answer
        assert store.summarize(sid).source == MODEL  # three earlier ones, all whole
    code = (
        "import json, sys; from localmem import MemoryStore\n"
        "with MemoryStore(sys.argv[1]) as s: print(json.dumps([r.model_dump() for r in s.model_trust()]))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(db_path)], capture_output=True, text=True, check=True)
    (record,) = [r for r in json.loads(out.stdout) if r["kind"] == "summary"]
    assert record == {"model": MODEL, "kind": "summary", "answered": 4, "whole": 4, "recent": 4, "recent_whole": 4, "earned": True}


def test_the_record_holds_no_text(db_path, fake_ollama: FakeOllama) -> None:
    with MemoryStore(db_path) as store:
        sid = filled(store, 1)
        store.summarize(sid)
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute("SELECT * FROM model_verdicts").fetchall()
    assert [(r[1], r[3]) for r in rows] == [(MODEL, 1)]
    assert not any("franchisees" in str(v) or "Turn" in str(v) for r in rows for v in r)


@pytest.mark.parametrize("policy", ["earned", "checked"])
def test_a_forget_during_the_call_discards_the_summary_and_its_verdict(db_path, fake_ollama: FakeOllama, policy) -> None:
    with MemoryStore(db_path, config={"model_trust": policy}) as store:
        sid = filled(store, 1)
        store.checkpoint(sid)  # taken before the gate: only the summary's call waits
        fake_ollama.gate = threading.Event()
        fake_ollama.gate_when = lambda body: not body.get("format")
        result: list = []
        worker = threading.Thread(target=lambda: result.append(store.summarize(sid)))
        worker.start()
        assert fake_ollama.held.wait(10)
        store.delete_message(store.get_messages(sid)[3].id)
        fake_ollama.gate.set()
        worker.join(30)
        assert result == [None]
        assert store.get_summaries(sid) == [] and store.model_trust() == []


def test_resummarize_leaves_ranges_until_earned_then_redoes_them_without_asking(
    db_path, dead_ollama_host, fake_ollama: FakeOllama, monkeypatch
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", dead_ollama_host)
    config = {"recent_summaries": 0}
    with MemoryStore(db_path, config=config) as store:
        sid = filled(store, 2)
        sources(store, sid, 2)  # no server: offline summaries
    monkeypatch.setenv("OLLAMA_HOST", fake_ollama.host)
    with MemoryStore(db_path, config=config) as store:
        report = store.resummarize(sid)
        assert report.redone == [] and report.left == 2  # answered, not yet trusted
        assert "earned trust" in report.reason
        assert summary_record(store)[0].answered == 2
        store.add_messages(sid, conversation(15, start=30))
        assert store.summarize(sid).source == FALLBACK  # the third answer earns it
        asked = len(fake_ollama.requests)
        report = store.resummarize(sid)
        assert [s.source for s in report.redone] == [MODEL, MODEL, MODEL]
        # the two answers given before came from the cache: no call, no second verdict
        summary_calls = [b for _, p, b in fake_ollama.requests[asked:] if p == "/api/chat" and not b.get("format")]
        assert summary_calls == []  # each range's answer was cached when it was judged
        assert summary_record(store)[0].answered == 3  # each range counted once


@pytest.mark.parametrize("policy, shown", [("earned", FALLBACK), ("checked", MODEL)])
def test_a_rollup_is_the_models_only_when_trusted(db_path, fake_ollama: FakeOllama, policy, shown) -> None:
    # the rollup of the first two comes with the second: two answers are no record yet
    with MemoryStore(db_path, config={"model_trust": policy, "recent_summaries": 1}) as store:
        sid = filled(store, 2)
        sources(store, sid, 2)
        rollups = [s for s in store.get_summaries(sid) if s.level == 2]
        assert rollups and rollups[-1].source == shown
