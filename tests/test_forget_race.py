"""A forget is final (issue 21, point 5): what the model computed from forgotten text is
discarded when it would be stored.

Each path that stores a model's output (summarize, which checkpoints first; checkpoint;
resummarize; maintain; the auto_summarize worker) runs in a thread against the fake
Ollama server over a real loopback socket, which holds the model's answer (``gate``)
until the test has forgotten a message of the span in the main thread. The model then
answers with text quoting the forgotten word everywhere it can (the summary, the
checkpoint's items, the must-remember facts); none of it may reach a row, a context,
the file's bytes or a backup.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from localmem import MemoryStore
from tests.ollama_server import FakeOllama
from tests.test_forget import holds, new_marker, traces

JOIN_SECONDS = 30


class QuotingFake(FakeOllama):
    """A model that quotes ``word`` in its JSON answers (the checkpoint's items, the
    facts) and summarizes with the request's own words (so it quotes the word when
    its input held it)."""

    word = ""

    def reply_text(self, request: dict[str, Any]) -> str:
        w = self.word
        if request.get("format") == "json":
            return json.dumps({
                "user_preferences": [f"prefers {w} tea in the morning"],
                "pending_tasks": [f"buy {w} tea"],
                "key_facts": [f"allergic to {w} pollen since 2019"],
                "must_remember": [f"allergic to {w} pollen since 2019"],
            })
        asked = json.dumps(request.get("messages"))
        if "Summaries to combine" in asked:  # a rollup: the summaries it was given, shortened
            given = request["messages"][-1]["content"].split("\n")[1:-2]
            words = list(dict.fromkeys(w for w in " ".join(given).split() if len(w) > 4))
            return f"Over both parts the user mentioned {' and '.join(words[:8])}."
        return super().reply_text(request)  # a valid summary made of the request's words


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[QuotingFake]:
    with QuotingFake() as server:
        monkeypatch.setenv("OLLAMA_HOST", server.host)
        yield server


# these tests hold the checks: every summary that passes them is the model's (what a
# context shows by default, model_trust="earned": tests/test_earned.py)
CONFIG = {"summary_threshold": 4, "structured_min_tokens": 0, "recent_summaries": 1, "model_trust": "checked"}


def filler(i: int) -> dict[str, str]:
    role = "user" if i % 2 == 0 else "assistant"
    return {"role": role, "text": f"Turn {i}: the garden needs watering and the fence painting soon."}


def told(store: MemoryStore, session_id: str, word: str) -> int:
    """The message holding ``word`` (an item, so pop_item can take it), then fillers."""
    [said] = store.add_items(session_id, "k", [(
        {"role": "user", "text": f"I'm allergic to {word} pollen since 2019. I prefer {word} tea in the morning."},
        "{}",
    )])
    store.add_messages(session_id, [filler(i) for i in range(1, 4)])
    return said.id


def nowhere(store: MemoryStore, path: Path, session_id: str | None, word: str) -> None:
    """``word`` is in no row the store shows, no context, no byte of the file or its log,
    and no backup."""
    if session_id is not None and session_id in {s.id for s in store.list_sessions()}:
        shown = [
            *(m.text for m in store.get_messages(session_id)),
            *(s.text for s in store.get_summaries(session_id)),
            *(f.text for f in store.get_summary_facts(session_id)),
            *(c.data.model_dump_json() for c in store.get_checkpoints(session_id)),
            *(p.content for p in store.get_pins(session_id, history=True)),
            json.dumps(store.build_context(session_id).to_messages()),
        ]
        assert not [t for t in shown if holds(t, word)]
    assert not holds(store.memory_report().model_dump_json(), word)
    store.backup(path.parent / "after.db")
    assert traces(path.parent / "after.db", word) == []
    store.close()
    assert traces(path, word) == []


def race(fake: FakeOllama, call: Callable[[], object], forget: Callable[[], object]) -> list[object]:
    """Run ``call`` in a thread until the model is asked, ``forget`` meanwhile, then let
    the model answer; return what ``call`` returned (or raised)."""
    out: list[object] = []
    fake.gate = threading.Event()
    fake.held.clear()

    def run() -> None:
        try:
            out.append(call())
        except Exception as exc:  # noqa: BLE001 - the test reads it
            out.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    assert fake.held.wait(JOIN_SECONDS), "the model was never asked"
    forget()
    fake.gate.set()
    worker.join(JOIN_SECONDS)
    assert not worker.is_alive()
    return out


FORGETS: dict[str, Callable[[MemoryStore, str, int], object]] = {
    "delete_message": lambda store, sid, mid: store.delete_message(mid),
    "pop_item": lambda store, sid, mid: store.pop_item(sid, "k"),
    "clear_messages": lambda store, sid, mid: store.clear_messages(sid),
    "delete_session": lambda store, sid, mid: store.delete_session(sid),
}


@pytest.mark.parametrize("forget", list(FORGETS))
@pytest.mark.parametrize("path_name", ["summarize", "checkpoint"])
def test_a_forget_during_a_model_call_is_final(
    tmp_path: Path, fake: QuotingFake, path_name: str, forget: str
) -> None:
    word = fake.word = new_marker()
    path = tmp_path / "memory.db"
    store = MemoryStore(path, config=CONFIG)
    sid = store.create_session(model="llama3.2").id
    mid = told(store, sid, word)
    call = {"summarize": lambda: store.summarize(sid), "checkpoint": lambda: store.checkpoint(sid)}
    [result] = race(fake, call[path_name], lambda: FORGETS[forget](store, sid, mid))
    if forget == "delete_session":
        assert result is None or type(result).__name__ == "SessionNotFound"
    elif path_name == "checkpoint":
        assert word not in result.data.model_dump_json()  # the rules' checkpoint of what is left
    else:
        assert result is None  # discarded; the next summarize recomputes
    nowhere(store, path, sid, word)


def test_the_next_summary_is_made_from_what_is_left(tmp_path: Path, fake: QuotingFake) -> None:
    word = fake.word = new_marker()
    store = MemoryStore(tmp_path / "memory.db", config=CONFIG)
    sid = store.create_session(model="llama3.2").id
    mid = told(store, sid, word)
    store.add_message(sid, "user", "Turn 4: and the shed roof leaks.")
    [result] = race(fake, lambda: store.summarize(sid), lambda: store.delete_message(mid))
    assert result is None
    fake.word = "heather"
    summary = store.summarize(sid)
    assert summary is not None and word not in summary.text
    assert summary.start_message_id > mid
    store.close()


def offline_summaries(store: MemoryStore, fake: FakeOllama, sid: str) -> None:
    """Summaries written while the model failed (``fallback``): resummarize redoes them."""
    fake.mode = "error500"
    assert store.summarize(sid).source in ("fallback", "offline")
    fake.mode = "ok"


@pytest.mark.parametrize("path_name", ["resummarize", "maintain"])
def test_a_forget_during_resummarize_or_maintain_is_final(
    tmp_path: Path, fake: QuotingFake, path_name: str
) -> None:
    word = fake.word = new_marker()
    path = tmp_path / "memory.db"
    store = MemoryStore(path, config=CONFIG)
    sid = store.create_session(model="llama3.2").id
    store.add_messages(sid, [filler(i) for i in range(10, 14)])
    offline_summaries(store, fake, sid)
    mid = told(store, sid, word)  # a second range: its summary is redone too
    offline_summaries(store, fake, sid)
    store.add_messages(sid, [filler(i) for i in range(20, 24)])
    offline_summaries(store, fake, sid)
    assert any(holds(s.text, word) for s in store.get_summaries(sid))  # the keyword summary quotes it
    call = {"resummarize": lambda: store.resummarize(sid), "maintain": store.maintain}
    # Forget the word's message while the model redoes a range: what the run
    # stores after the forget may not quote the forgotten text.
    fake.gate_when = lambda body: word in json.dumps(body)
    [result] = race(fake, call[path_name], lambda: store.delete_message(mid))
    assert not isinstance(result, Exception), result
    nowhere(store, path, sid, word)


def test_a_forget_during_the_background_worker_is_final(tmp_path: Path, fake: QuotingFake) -> None:
    word = fake.word = new_marker()
    path = tmp_path / "memory.db"
    store = MemoryStore(path, config={**CONFIG, "auto_summarize": True})
    sid = store.create_session(model="llama3.2").id
    fake.gate = threading.Event()
    mid = told(store, sid, word)  # the fourth message makes a range due: the worker starts
    assert fake.held.wait(JOIN_SECONDS)
    store.delete_message(mid)
    fake.gate.set()
    store.close()  # waits for the worker
    store = MemoryStore(path, config=CONFIG)
    nowhere(store, path, sid, word)


def test_a_forget_during_a_rollup_is_final(tmp_path: Path, fake: QuotingFake) -> None:
    """The rollup's inputs are summaries; a forget rewrites the one quoting the word in
    place (same id) while the model rolls them up: the rollup is discarded."""
    word = fake.word = new_marker()
    path = tmp_path / "memory.db"
    store = MemoryStore(path, config=CONFIG)
    sid = store.create_session(model="llama3.2").id
    mid = told(store, sid, word)
    assert holds(store.summarize(sid).text, word)
    store.add_messages(sid, [filler(i) for i in range(10, 14)])
    fake.gate_when = lambda body: "Combine the summaries" in json.dumps(body)
    [result] = race(fake, lambda: store.summarize(sid), lambda: store.delete_message(mid))
    assert result is not None  # the level-1 summary of the second range is kept
    nowhere(store, path, sid, word)
