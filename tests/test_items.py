"""Items: a framework's own records kept verbatim beside the messages that carry
their text (the primitives the framework integrations stand on)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from localmem import MemoryStore
from localmem.errors import InvalidInput, SessionNotFound
from localmem.migrations import APPLICATION_ID, M001_INITIAL, M002_SUMMARIZER, SCHEMA_VERSION


def entry(text: str, role: str = "user") -> tuple[dict, str]:
    return ({"role": role, "text": text}, f'{{"says": "{text}"}}')


def test_items_are_stored_with_their_messages_in_one_transaction(store: MemoryStore) -> None:
    stored = store.add_items("s", "k", [entry("a"), entry("b", "assistant")], create_session=True)
    assert [m.text for m in stored] == ["a", "b"] == [m.text for m in store.get_messages("s")]
    items = store.get_items("s", "k")
    assert [i.data for i in items] == ['{"says": "a"}', '{"says": "b"}']
    assert [i.message_id for i in items] == [m.id for m in stored]
    assert store.get_session("s").model is None


def test_a_missing_session_is_created_only_when_asked(store: MemoryStore) -> None:
    with pytest.raises(SessionNotFound):
        store.add_items("nope", "k", [entry("a")])
    assert store.list_sessions() == []
    assert store.get_items("nope", "k") == []  # no session: no items, not an error
    assert store.pop_item("nope", "k") is None


@pytest.mark.parametrize(
    "items",
    [
        "not a list",
        [entry("ok"), ("only the message",)],
        [entry("ok"), ({"role": "robot", "text": "x"}, "{}")],
        [entry("ok"), ({"role": "user", "text": "x"}, b"{}")],
        [entry("ok"), ({"role": "user", "text": "x"}, "\ud800")],
    ],
)
def test_a_bad_entry_writes_nothing(store: MemoryStore, session, items) -> None:
    with pytest.raises(InvalidInput):
        store.add_items(session.id, "k", items)
    assert store.get_messages(session.id) == []


def test_kind_separates_frameworks_and_must_be_named(store: MemoryStore, session) -> None:
    store.add_items(session.id, "one", [entry("a")])
    store.add_items(session.id, "two", [entry("b")])
    assert [i.data for i in store.get_items(session.id, "one")] == ['{"says": "a"}']
    with pytest.raises(InvalidInput, match="kind"):
        store.get_items(session.id, "")


def test_newest_and_after_id(store: MemoryStore, session) -> None:
    stored = store.add_items(session.id, "k", [entry(str(i)) for i in range(6)])
    says = lambda items: [i.data[10] for i in items]  # noqa: E731
    assert says(store.get_items(session.id, "k", newest=2)) == ["4", "5"]
    assert says(store.get_items(session.id, "k", after_id=stored[3].id)) == ["4", "5"]
    assert says(store.get_items(session.id, "k", after_id=stored[0].id, newest=10)) == list("12345")
    assert store.get_items(session.id, "k", newest=0) == []


def test_pop_deletes_the_newest_item_and_its_message(store: MemoryStore, session) -> None:
    store.add_items(session.id, "k", [entry("a"), entry("b")])
    store.add_message(session.id, "user", "a plain message is not an item")
    popped = store.pop_item(session.id, "k")
    assert popped is not None and popped.data == '{"says": "b"}'
    texts = [m.text for m in store.get_messages(session.id)]
    assert texts == ["a", "a plain message is not an item"]


def test_clear_messages(store: MemoryStore, session) -> None:
    store.add_items(session.id, "k", [entry("a")])
    store.add_message(session.id, "user", "b")
    pin = store.pin(session.id, "a fact", source_message_id=store.get_messages(session.id)[0].id)
    assert store.clear_messages(session.id) == 2
    assert store.get_messages(session.id) == [] and store.get_items(session.id, "k") == []
    assert store.get_pins(session.id)[0].id == pin.id
    with pytest.raises(SessionNotFound):
        store.clear_messages("missing")


def test_deleting_a_session_deletes_its_items(store: MemoryStore, session, db_path: Path) -> None:
    store.add_items(session.id, "k", [entry("a")])
    store.delete_session(session.id)
    assert sqlite3.connect(db_path).execute("SELECT count(*) FROM items").fetchone() == (0,)


def test_a_version_2_file_gains_the_items_table(tmp_path: Path) -> None:
    path = tmp_path / "v2.db"
    conn = sqlite3.connect(path)
    for statement in M001_INITIAL + M002_SUMMARIZER:
        conn.execute(statement)
    conn.execute("INSERT INTO sessions VALUES ('s', NULL, NULL, 't', 't')")
    conn.execute("INSERT INTO messages VALUES (1, 's', 'user', 'kept', NULL, 1, 0.5, 't')")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()
    with MemoryStore(path) as store:
        assert [m.text for m in store.get_messages("s")] == ["kept"]
        assert [h.id for h in store.search("kept")] == [1]  # a migrated file is searchable too
        store.add_items("s", "k", [entry("new")])
        assert len(store.get_items("s", "k")) == 1
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
