"""Sessions, messages and pins through the public API, on a real file."""

from __future__ import annotations

import sqlite3

import pytest

from localmem import MemoryStore, Message, Pin, Session, SessionNotFound
from localmem.errors import DatabaseError, InvalidInput, LocalMemError, NotFound


def test_create_get_list_sessions(store: MemoryStore) -> None:
    a = store.create_session(model="llama3.2", title="Grandma's meds")
    b = store.create_session(session_id="chosen-id")
    assert isinstance(a, Session) and a.model == "llama3.2" and a.title == "Grandma's meds"
    assert b.id == "chosen-id" and b.model is None
    assert store.get_session(a.id) == a
    assert {s.id for s in store.list_sessions()} == {a.id, "chosen-id"}
    assert a.created_at.endswith("Z") and "T" in a.created_at


def test_duplicate_session_id_is_refused(store: MemoryStore) -> None:
    store.create_session(session_id="x")
    with pytest.raises(InvalidInput, match="already exists"):
        store.create_session(session_id="x")


def test_unknown_session(store: MemoryStore) -> None:
    for call in (
        lambda: store.get_session("nope"),
        lambda: store.add_message("nope", "user", "hi"),
        lambda: store.add_messages("nope", [{"role": "user", "text": "hi"}]),
        lambda: store.get_messages("nope"),
        lambda: store.pin("nope", "fact"),
        lambda: store.get_pins("nope"),
        lambda: store.build_context("nope"),
        lambda: store.delete_session("nope"),
    ):
        with pytest.raises(SessionNotFound):
            call()


def test_messages_keep_order_tokens_and_scores(store: MemoryStore, session: Session) -> None:
    m1 = store.add_message(session.id, "user", "How do I fix this error?")
    m2 = store.add_message(session.id, "assistant", "Thanks!", model_id="llama3.2")
    assert isinstance(m1, Message) and m2.id > m1.id
    assert m1.token_count == store.count_tokens("How do I fix this error?") == 7
    assert m1.importance_score == pytest.approx(0.8)  # question + error
    assert m2.importance_score == pytest.approx(0.55) and m2.model_id == "llama3.2"
    assert store.get_messages(session.id) == [m1, m2]


def test_messages_with_equal_timestamps_keep_insertion_order(db_path) -> None:
    from datetime import datetime, timezone

    frozen = datetime(2026, 1, 1, tzinfo=timezone.utc)
    with MemoryStore(db_path, clock=lambda: frozen) as store:
        s = store.create_session()
        texts = [f"message {i}" for i in range(20)]
        for text in texts:
            store.add_message(s.id, "user", text)
        assert [m.text for m in store.get_messages(s.id)] == texts
        assert [m.text for m in store.build_context(s.id).recent_messages] == texts[-8:]


def test_get_messages_after_and_limit(store: MemoryStore, session: Session) -> None:
    ms = store.add_messages(session.id, [{"role": "user", "text": f"m{i}"} for i in range(10)])
    assert [m.id for m in ms] == list(range(ms[0].id, ms[0].id + 10))
    assert store.get_messages(session.id, after_id=ms[4].id, limit=3) == ms[5:8]
    assert store.get_messages(session.id, limit=0) == []


def test_add_messages_is_all_or_nothing(store: MemoryStore, session: Session) -> None:
    store.add_message(session.id, "user", "before")
    bad = [{"role": "user", "text": "ok"}, {"role": "wizard", "text": "bad role"}]
    with pytest.raises(InvalidInput, match="role"):
        store.add_messages(session.id, bad)
    assert [m.text for m in store.get_messages(session.id)] == ["before"]


def test_batch_failing_inside_the_transaction_leaves_nothing(store: MemoryStore, session: Session) -> None:
    # A scorer that fails on the second item runs before the transaction;
    # a database error inside it must roll the whole batch back too.
    store._db.conn.execute(
        "CREATE TRIGGER no_boom BEFORE INSERT ON messages WHEN NEW.text = 'boom' "
        "BEGIN SELECT RAISE(ABORT, 'boom refused'); END"
    )
    with pytest.raises(DatabaseError, match="boom refused"):
        store.add_messages(session.id, [{"role": "user", "text": "fine"}, {"role": "user", "text": "boom"}])
    assert store.get_messages(session.id) == []
    assert store.add_message(session.id, "user", "after").text == "after"


@pytest.mark.parametrize(
    ("role", "text", "match"),
    [
        ("wizard", "hi", "role"),
        ("user", 42, "text"),
        ("user", b"bytes", "text"),
        ("user", None, "text"),
        ("user", "lone \ud800 surrogate", "surrogate"),
    ],
)
def test_bad_messages_are_rejected(store: MemoryStore, session: Session, role, text, match) -> None:
    with pytest.raises(InvalidInput, match=match):
        store.add_message(session.id, role, text)
    assert store.get_messages(session.id) == []


def test_wrong_id_types(store: MemoryStore) -> None:
    for call in (
        lambda: store.get_session(1),
        lambda: store.add_message(None, "user", "x"),
        lambda: store.unpin("1"),
        lambda: store.build_context(b"id"),
    ):
        with pytest.raises(InvalidInput):
            call()


def test_unusual_text_round_trips(store: MemoryStore, session: Session) -> None:
    texts = ["", "nul\x00inside", "emoji 👩‍👩‍👧 and RTL שלום", "<|endoftext|> typed by a user", "x" * 100_000]
    for text in texts:
        store.add_message(session.id, "user", text)
    stored = store.get_messages(session.id)
    assert [m.text for m in stored] == texts
    assert stored[0].token_count == 0
    assert stored[3].token_count == store.count_tokens("<|endoftext|> typed by a user") > 1


def test_pins_order_isolation_and_unpin(store: MemoryStore) -> None:
    a = store.create_session()
    b = store.create_session()
    source = store.add_message(a.id, "user", "I'm allergic to penicillin")
    low = store.pin(a.id, "likes tea", importance=0.3)
    first = store.pin(a.id, "allergic to penicillin", source_message_id=source.id)
    second = store.pin(a.id, "appointment Dec 3", kind="auto")
    top = store.pin(a.id, "emergency contact: Ana", importance=1.0)
    other = store.pin(b.id, "b's secret")
    assert isinstance(first, Pin) and first.importance_score == 0.8 and first.kind == "manual"
    assert first.source_message_id == source.id and second.kind == "auto"
    # The user's message stated an allergy: it was pinned automatically, at 0.6, as a
    # fact of the user's (a lasting health fact): every session sees it.
    said = store.get_pins(a.id, kind="auto")[-1]
    assert (said.content, said.source_message_id) == ("I'm allergic to penicillin", source.id)
    assert said.session_id is None and said.scope == "user"
    # highest importance first, newest first on ties
    assert [p.id for p in store.get_pins(a.id)] == [top.id, second.id, first.id, said.id, low.id]
    assert store.get_pins(b.id) == [other, said]  # b's own pin and the user's, not a's
    assert "b's secret" not in str(store.build_context(a.id).to_messages())
    store.unpin(low.id)
    assert low.id not in [p.id for p in store.get_pins(a.id)]
    with pytest.raises(NotFound):
        store.unpin(low.id)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"importance": 1.5}, "between 0 and 1"),
        ({"importance": -0.1}, "between 0 and 1"),
        ({"importance": float("nan")}, "between 0 and 1"),
        ({"importance": "high"}, "number"),
        ({"kind": "magic"}, "kind"),
        ({"source_message_id": "3"}, "integer"),
    ],
)
def test_bad_pins_are_rejected(store: MemoryStore, session: Session, kwargs, match) -> None:
    with pytest.raises(InvalidInput, match=match):
        store.pin(session.id, "fact", **kwargs)
    assert store.get_pins(session.id) == []


def test_pin_source_must_be_in_the_same_session(store: MemoryStore) -> None:
    a, b = store.create_session(), store.create_session()
    m = store.add_message(b.id, "user", "b's message")
    with pytest.raises(InvalidInput, match="not a message of session"):
        store.pin(a.id, "fact", source_message_id=m.id)
    with pytest.raises(InvalidInput, match="empty"):
        store.pin(a.id, "   ")


def test_delete_session_removes_everything(store: MemoryStore, db_path) -> None:
    keep = store.create_session()
    gone = store.create_session()
    for s in (keep, gone):
        m = store.add_message(s.id, "user", "hello")
        store.pin(s.id, "fact", source_message_id=m.id)
    store.delete_session(gone.id)
    with pytest.raises(SessionNotFound):
        store.get_session(gone.id)
    conn = sqlite3.connect(db_path)
    for table in ("messages", "semantic_pins", "summaries"):
        rows = conn.execute(f"SELECT count(*) FROM {table} WHERE session_id = ?", (gone.id,)).fetchone()
        assert rows[0] == 0
    assert conn.execute("SELECT count(*) FROM messages").fetchone()[0] == 1
    assert len(store.get_pins(keep.id)) == 1


def test_delete_message_drops_it_and_the_summaries_over_it(store: MemoryStore, session) -> None:
    ids = [store.add_message(session.id, "user", f"note {i} zebracorn{i}").id for i in range(18)]
    pin = store.pin(session.id, "a fact", source_message_id=ids[4])
    assert store.summarize(session.id) is not None  # covers the first 15
    store.delete_message(ids[4])
    assert [m.id for m in store.get_messages(session.id)] == ids[:4] + ids[5:]
    assert store.get_summaries(session.id) == []
    assert store.get_pins(session.id)[0].source_message_id is None
    assert store.get_pins(session.id)[0].id == pin.id
    assert store.search("zebracorn4") == []
    assert store.needs_summarization(session.id)
    with pytest.raises(NotFound, match="no message with id"):
        store.delete_message(ids[4])
    with pytest.raises(InvalidInput):
        store.delete_message(-1)
    assert len(store.get_messages(session.id)) == 17


def test_every_error_is_a_localmem_error() -> None:
    from localmem import errors

    classes = [c for c in vars(errors).values() if isinstance(c, type) and issubclass(c, Exception)]
    assert classes and all(issubclass(c, LocalMemError) for c in classes)


def test_config_rejects_unknown_and_bad_values(db_path) -> None:
    with pytest.raises(InvalidInput, match="context_token_limt"):
        MemoryStore(db_path, config={"context_token_limt": 10})
    with pytest.raises(InvalidInput, match="cache_ttl"):
        MemoryStore(db_path, config={"cache_ttl": -1})


def test_default_path_comes_from_environment(isolated_env) -> None:
    with MemoryStore() as store:
        assert store.path == isolated_env / "default.db"
        assert store.path.exists()


def test_threads_share_one_store(store: MemoryStore, session: Session) -> None:
    import threading

    def write(n: int) -> None:
        for i in range(100):
            store.add_message(session.id, "user", f"t{n}-{i}")
            store.build_context(session.id)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    texts = [m.text for m in store.get_messages(session.id)]
    assert len(texts) == 400
    for n in range(4):
        mine = [t for t in texts if t.startswith(f"t{n}-")]
        assert mine == [f"t{n}-{i}" for i in range(100)]


def test_get_message_reads_one_message_by_id(store: MemoryStore, session: Session) -> None:
    first = store.add_message(session.id, "user", "my sister is called Ana")
    store.add_message(session.id, "assistant", "noted")
    assert store.get_message(first.id) == first
    store.delete_message(first.id)
    with pytest.raises(NotFound, match=f"no message with id {first.id}"):
        store.get_message(first.id)
    with pytest.raises(InvalidInput):
        store.get_message("1")  # type: ignore[arg-type]
