"""A session that keeps nothing (issue 13, point 6): ``create_session(..., persist=False)``.

Its messages, pins, summaries, state and contexts live in memory only, for the
store's life: a unique word written through every call that takes a session
never reaches the file, its ``-wal`` or ``-shm``; no fact learnt from it
reaches another session; it is gone once deleted or once the store closes;
and every method that takes a session id behaves for it exactly as for a
session kept in the file.
"""

from __future__ import annotations

import datetime
import inspect
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from localmem import MemoryStore
from localmem.errors import InvalidInput, NotFound, SessionNotFound
from localmem.incognito import FIRST_ID
from tests.ollama_server import FakeOllama
from tests.test_forget import filler, new_marker, traces

T0 = datetime.datetime(2026, 5, 4, 10, 30, tzinfo=datetime.timezone.utc)


def test_nothing_of_it_reaches_the_file(db_path: Path, fake_ollama: FakeOllama) -> None:
    fake_ollama.models.append("nomic-embed-text:latest")
    hidden, kept = new_marker(), new_marker()
    config = {"summary_threshold": 4, "recent_summaries": 1, "embedding_model": "nomic-embed-text", "model_trust": "checked"}
    with MemoryStore(db_path, config=config) as store:
        s = store.create_session(model="llama3.2", title=f"about {hidden}", persist=False)
        assert s.persist is False and store.get_session(s.id).persist is False
        k = store.create_session(model="llama3.2", title=f"about {kept}")
        for sid, word in ((s.id, hidden), (k.id, kept)):
            store.add_message(sid, "user", f"I'm allergic to {word} pollen since 2019.")
            store.add_messages(sid, [filler(i) for i in range(1, 12)])
            store.add_items(sid, "k", [({"role": "user", "text": f"I prefer {word} tea."}, f'"{word}"')])
            store.pin(sid, f"The code word is {word}.")
            store.set_goal(sid, f"Find {word}")
            store.add_subtask(sid, f"Look for {word}")
            store.record_tool(sid, "search", {"q": word}, result_summary=f"found {word}")
            store.track_file(sid, f"notes/{word}.md", modified=True)
            while store.summarize(sid) is not None:
                pass
            store.checkpoint(sid)
            store.embed_pending(sid)
            ctx = store.build_context(sid, query=f"what about {word}?")
            assert word in json.dumps(ctx.to_messages())
            assert store.search(word, session_id=sid)
        summaries = store.get_summaries(s.id)
        assert {x.level for x in summaries} == {1, 2} and summaries[0].source == "llama3.2:latest"
        assert [p.kind for p in store.get_pins(s.id)] == ["manual", "auto"]
        assert all(m.id >= FIRST_ID for m in store.get_messages(s.id))
        assert store.search(hidden) == []  # a search of the whole file does not see it
        # The kept session's word is in the file (so the search below means something).
        assert traces(db_path, kept)
        assert traces(db_path, hidden) == []
        with MemoryStore(db_path) as second:  # another app instance on the same file
            assert {x.id for x in second.list_sessions()} == {k.id}
            with pytest.raises(SessionNotFound):
                second.get_messages(s.id)
        out = subprocess.run(
            [sys.executable, "-m", "localmem", "sessions", "--json", "--db", str(db_path)],
            capture_output=True, text=True, check=True,
        ).stdout
        assert [x["id"] for x in json.loads(out)] == [k.id]
    assert traces(db_path, hidden) == []
    with MemoryStore(db_path) as store:
        with pytest.raises(SessionNotFound):
            store.get_session(s.id)


def test_no_fact_learnt_from_it_reaches_another_session(store: MemoryStore) -> None:
    s = store.create_session(persist=False)
    other = store.create_session(persist=False)
    kept = store.create_session()
    store.add_message(s.id, "user", "I'm allergic to penicillin.")
    [pin] = store.get_pins(s.id)
    assert pin.kind == "auto" and pin.session_id == s.id
    assert store.get_pins(other.id) == [] and store.get_pins(kept.id) == []
    for sid in (other.id, kept.id):
        store.add_message(sid, "user", "What should I take for a sore throat?")
        assert "penicillin" not in json.dumps(store.build_context(sid).to_messages())
    assert store.search("penicillin") == []
    assert "penicillin" not in store.memory_report().model_dump_json()  # "what do you remember?"
    # Nor does it draw on the user's memory, like a temporary chat: the user's facts
    # are in every kept session's context, not in its.
    store.add_message(kept.id, "user", "I'm allergic to latex.")
    assert "latex" in json.dumps(store.build_context(kept.id).to_messages())
    assert "latex" not in json.dumps(store.build_context(s.id).to_messages())


def test_listed_with_a_flag_gone_when_deleted_or_closed(db_path: Path) -> None:
    clock = iter(T0 + datetime.timedelta(seconds=i) for i in range(100))
    with MemoryStore(db_path, clock=lambda: next(clock)) as store:
        a = store.create_session(title="kept, older")
        b = store.create_session(title="kept nowhere", persist=False)
        c = store.create_session(title="kept, newer")
        d = store.create_session(title="kept nowhere either", persist=False)
        listed = store.list_sessions()
        assert [(x.id, x.persist) for x in listed] == [
            (d.id, False), (c.id, True), (b.id, False), (a.id, True),
        ]
        store.add_message(b.id, "user", "hello")
        assert store.list_sessions()[0].id == b.id  # most recently updated first
        store.delete_session(b.id)
        with pytest.raises(SessionNotFound):
            store.get_session(b.id)
        with pytest.raises(SessionNotFound):
            store.add_message(b.id, "user", "again")
        assert [x.id for x in store.list_sessions()] == [d.id, c.id, a.id]
        with pytest.raises(SessionNotFound):
            store.delete_session(b.id)
    with MemoryStore(db_path) as store:
        assert [x.id for x in store.list_sessions()] == [c.id, a.id]


def test_ids_are_the_callers_to_choose_and_never_shared(store: MemoryStore) -> None:
    kept = store.create_session(session_id="chat-1")
    with pytest.raises(InvalidInput, match="already exists"):
        store.create_session(session_id="chat-1", persist=False)
    store.create_session(session_id="chat-2", persist=False)
    with pytest.raises(InvalidInput, match="already exists"):
        store.create_session(session_id="chat-2")
    with pytest.raises(InvalidInput, match="already exists"):
        store.create_session(session_id="chat-2", persist=False)
    with pytest.raises(InvalidInput):
        store.create_session(persist="no")  # type: ignore[arg-type]
    # A row id names one store's row: the file's message 1 is not the private store's.
    m = store.add_message(kept.id, "user", "kept")
    n = store.add_message("chat-2", "user", "kept nowhere")
    assert m.id < FIRST_ID <= n.id
    store.delete_message(n.id)
    assert [x.text for x in store.get_messages(kept.id)] == ["kept"]
    with pytest.raises(NotFound):
        store.delete_message(n.id)
    with pytest.raises(NotFound):
        store.unpin(FIRST_ID + 5)


def test_export_refuses_it(store: MemoryStore) -> None:
    s = store.create_session(persist=False)
    kept = store.create_session()
    with pytest.raises(InvalidInput, match="keeps nothing"):
        store.export_sessions([kept.id, s.id])
    lines = list(store.export_sessions())
    assert s.id not in "\n".join(lines) and kept.id in "\n".join(lines)


# --- every method that takes a session id behaves the same ----------------------------


def script(store: MemoryStore, persist: bool) -> tuple[list[Any], set[str]]:
    """The same calls on one session; their results, and the methods called."""
    called: set[str] = set()
    results: list[Any] = []

    def call(name: str, *args: Any, **kwargs: Any) -> Any:
        called.add(name)
        result = getattr(store, name)(*args, **kwargs)
        results.append((name, result))
        return result

    s = call("create_session", "llama3.2", "t", "s1", persist=persist).id
    m = call("add_message", s, "user", "I'm allergic to penicillin. My daughter is called Emma.")
    call("add_messages", s, [filler(i) for i in range(1, 16)])
    call("add_items", s, "k", [({"role": "user", "text": "the item"}, '{"i": 1}')])
    call("get_items", s, "k")
    call("get_items", s, "k", newest=1)
    call("get_messages", s, after_id=m.id, limit=3)
    call("get_message", m.id)
    call("newest_messages", s, 3)
    call("due_ranges", s)
    pin = call("pin", s, "Answer briefly.", source_message_id=m.id)
    call("get_pins", s)
    call("get_pins", s, kind="auto")
    call("update_pin", pin.id, importance=0.9)
    call("set_goal", s, "Plan the trip to Leeds")
    sub = call("add_subtask", s, "Book the train")
    call("update_subtask", sub.id, "in_progress", notes="waiting")
    call("record_tool", s, "search", {"q": "trains"}, success=False, error_message="timeout")
    call("track_file", s, "notes.md", modified=True)
    for name in ("get_goals", "get_subtasks", "get_tool_executions", "get_tracked_files"):
        call(name, s)
    call("needs_summarization", s)
    call("context_usage", s)
    call("summarize", s)
    call("get_summaries", s)
    call("resummarize", s)  # no local model answers: it stops, saying so
    call("get_summary_facts", s)
    call("checkpoint", s)
    call("latest_checkpoint", s)
    call("get_checkpoints", s)
    call("line_sources", s)
    call("build_context", s)
    call("build_context", s, max_tokens=200, query="penicillin allergy")
    call("search", "penicillin", session_id=s)
    call("embed_pending", s)
    call("pop_item", s, "k")
    call("delete_message", m.id)
    call("unpin", pin.id)
    call("complete_goal", s, success=False)
    call("set_goal", s, "Another goal")
    call("cancel_goal", s)
    call("clear_checkpoints", s)
    call("clear_conversation", s)
    call("add_message", s, "user", "again")
    call("clear_messages", s)
    call("get_session", s)
    call("delete_session", s)
    with pytest.raises(SessionNotFound):
        store.get_session(s)
    with pytest.raises(SessionNotFound):
        store.add_message(s, "user", "gone")
    return results, called


def normal(value: Any) -> Any:
    """A result with the private store's row ids shifted to the file's (both start
    at the first id of an empty table) and without ``persist``."""
    if isinstance(value, BaseModel):
        value = value.model_dump()
    if isinstance(value, dict):
        return {k: normal(v) for k, v in value.items() if k != "persist"}
    if isinstance(value, (list, tuple)):
        return [normal(v) for v in value]
    if type(value) is int and value >= FIRST_ID:
        return value - FIRST_ID + 1
    return value


def session_methods() -> set[str]:
    """Every public method of the store that takes a session id or a row's id."""
    names = set()
    for name, func in inspect.getmembers(MemoryStore, inspect.isfunction):
        params = inspect.signature(func).parameters
        if not name.startswith("_") and {"session_id", "message_id", "pin_id", "subtask_id"} & set(params):
            names.add(name)
    return names


def test_every_method_taking_a_session_behaves_the_same(tmp_path: Path) -> None:
    """The one difference on purpose (a lasting fact told in a session that keeps
    nothing stays in it, instead of becoming the user's) is set aside: both stores
    keep automatic pins per session."""
    runs = {}
    config = {"user_auto_pins": False}
    for persist in (True, False):
        with MemoryStore(tmp_path / f"{persist}.db", config=config, clock=lambda: T0) as store:
            runs[persist] = script(store, persist)
    (kept, called), (nowhere, _) = runs[True], runs[False]
    assert [normal(r) for r in nowhere] == [normal(r) for r in kept]
    # Every such method is in the script, but the one that refuses (test_export_refuses_it).
    assert session_methods() - called == set()
    assert "export_sessions" not in session_methods()  # it takes session_ids: refused above


