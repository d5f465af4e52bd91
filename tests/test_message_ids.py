"""Message ids are never handed out twice, and a summary only covers messages that exist.

Every marker localmem keeps is a message id: a summary's range, a checkpoint's
``through_message_id``, a compaction's. Were an id handed out again after a
delete (the newest message popped, a conversation cleared, a session deleted
and created again under its id), a new message would fall behind a marker
that was about other text: counted as summarized by a summary of the old
conversation, or never read by the next checkpoint.
"""

from __future__ import annotations

import datetime
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from localmem import MemoryStore
from tests.old_files import file_at_version
from tests.ollama_server import FakeOllama

SECRET = "the old plan: a kayak trip down the river"
KIND = "openai-agents"


def old_conversation() -> list[dict[str, str]]:
    return [
        {"role": "user" if i % 2 == 0 else "assistant", "text": f"{SECRET.capitalize()} ({i})"}
        for i in range(15)
    ]


def new_conversation() -> list[dict[str, str]]:
    return [
        {"role": "user" if i % 2 == 0 else "assistant", "text": f"Let us plan the garden beds ({i})"}
        for i in range(15)
    ]


def store_pins_hold_none_of_it(store: MemoryStore, session_id: str) -> bool:
    """The old conversation left no pin (so only a summary could bring it back)."""
    return not any("kayak" in p.content for p in store.get_pins(session_id))


def summarize_in_background(path: Path, session_id: str) -> tuple[threading.Thread, list]:
    """Another connection (the assistant's background job) summarizing the session."""
    result: list = []

    def run() -> None:
        with MemoryStore(path) as worker:
            result.append(worker.summarize(session_id))

    thread = threading.Thread(target=run)
    thread.start()
    return thread, result


def wait_for_chat(server: FakeOllama) -> None:
    deadline = time.monotonic() + 30
    while not any(path == "/api/chat" for _m, path, _b in server.requests):
        assert time.monotonic() < deadline, "the summary never reached the model"
        time.sleep(0.01)


@pytest.mark.parametrize("how", ["clear", "delete and create again"])
def test_a_summary_of_a_cleared_conversation_is_not_stored(
    db_path: Path, fake_ollama: FakeOllama, how: str
) -> None:
    fake_ollama.delay = 0.5  # the model is thinking while the user clears the conversation
    with MemoryStore(db_path) as app:
        sid = app.create_session(model="llama3.2", session_id="demo").id
        app.add_messages(sid, old_conversation())
        thread, result = summarize_in_background(db_path, sid)
        wait_for_chat(fake_ollama)
        if how == "clear":
            app.clear_conversation(sid)
        else:  # what the adapters and `localmem demo` do
            app.delete_session(sid)
            app.create_session(model="llama3.2", session_id=sid)
        fresh = app.add_messages(sid, new_conversation())
        thread.join(30)
        assert result == [None]  # the range it summarized is gone: nothing stored
        assert app.get_summaries(sid) == []
        assert app.needs_summarization(sid)  # the new messages are not "already summarized"
        ctx = app.build_context(sid, max_tokens=100_000)
        assert store_pins_hold_none_of_it(app, sid)
        assert "kayak" not in str(ctx.to_messages())  # the cleared conversation stays gone
        assert min(m.id for m in fresh) > 15  # no id of the old conversation handed out again


def test_a_popped_item_s_id_is_not_handed_out_again(store: MemoryStore) -> None:
    """The Agents SDK adapter's pop_item deletes the newest message; a checkpoint
    taken before must still read the message that replaces it."""
    sid = store.create_session().id
    store.add_items(sid, KIND, [({"role": "user", "text": f"turn {i}"}, "{}") for i in range(3)])
    taken = store.checkpoint(sid)
    store.pop_item(sid, KIND)
    new = store.add_message(sid, "user", "I prefer tea over coffee from now on")
    assert new.id > taken.through_message_id
    assert any("tea" in p for p in store.checkpoint(sid).data.user_preferences)


def test_a_compacted_session_picked_up_again_after_a_pop_is_in_full_detail(db_path: Path) -> None:
    now = [datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)]
    with MemoryStore(db_path, clock=lambda: now[0]) as store:
        sid = store.create_session().id
        store.add_items(sid, KIND, [({"role": "user", "text": f"turn {i}"}, "{}") for i in range(20)])
        now[0] += datetime.timedelta(days=10)
        (done,) = store.maintain().compacted
        assert done.level == 2
        store.pop_item(sid, KIND)
        new = store.add_message(sid, "user", "back again")
        assert new.id > done.through_message_id  # newer than the compaction: its level ends
        now[0] += datetime.timedelta(days=10)
        (again,) = store.maintain().compacted  # before: still "level 2", so left as it was
        assert again.previous_level == 0 and again.through_message_id == new.id


def test_ids_are_never_reused_across_processes_deleting_the_newest(db_path: Path) -> None:
    with MemoryStore(db_path) as a, MemoryStore(db_path) as b:
        sid = a.create_session().id
        seen = set()
        for i in range(20):
            message = (a if i % 2 else b).add_message(sid, "user", f"message {i}")
            assert message.id not in seen
            seen.add(message.id)
            (b if i % 2 else a).pop_item(sid, KIND)  # no item: nothing popped
            if i % 3 == 0:
                (b if i % 2 else a).clear_messages(sid)


def test_an_older_file_hands_out_ids_past_every_marker(tmp_path: Path) -> None:
    message = (
        "INSERT INTO messages (id, session_id, role, text, model_id, token_count,"
        " importance_score, created_at) VALUES (?, 's', 'user', ?, NULL, 3, 0.5, 't')"
    )
    path = file_at_version(
        tmp_path / "v9.db",
        9,
        [
            ("INSERT INTO sessions VALUES ('s', NULL, NULL, 't', 't')", ()),
            *[(message, (i, f"message {i} about tulips")) for i in (1, 2, 3, 5)],
            ("INSERT INTO items VALUES (3, 's', 'k', '{}')", ()),
            (
                "INSERT INTO semantic_pins (session_id, content, source_message_id,"
                " importance_score, kind, token_count, created_at, content_key)"
                " VALUES ('s', 'likes tulips', 2, 0.8, 'manual', 2, 't', 'likes tulips')",
                (),
            ),
            # A summary left by the bug: its range reaches ids 6-9 that no message has yet.
            (
                "INSERT INTO summaries (session_id, text, start_message_id, end_message_id,"
                " message_count, level, source, token_count, created_at)"
                " VALUES ('s', 'old text', 1, 9, 9, 1, 'offline', 2, 't')",
                (),
            ),
        ],
    )
    with MemoryStore(path) as store:
        assert [m.id for m in store.get_messages("s")] == [1, 2, 3, 5]
        assert [i.message_id for i in store.get_items("s", "k")] == [3]
        assert store.get_pins("s")[0].source_message_id == 2
        assert {h.id for h in store.search("tulips", "s") if h.kind == "message"} == {1, 2, 3, 5}
        new = store.add_message("s", "user", "a new message")
        assert new.id == 10  # past the stale summary's range, not 6
        store.pop_item("s", "k")  # deletes message 3 (and the stale summary covering it)
        assert [m.id for m in store.get_messages("s")] == [1, 2, 5, 10]
        store.clear_messages("s")
        assert store.add_message("s", "user", "after the clear").id == 11
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA foreign_key_check").fetchall() == []
    assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    raw.close()
