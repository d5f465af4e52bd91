"""The pins a context shows are its session's own and the user's, by importance, newest
first on ties; the user's (and which sessions have their own) are read once for every
session (``SessionMemo.shared_pins``) and read again after any pin is written, by this
store or by another connection to the file."""

from __future__ import annotations

from localmem import MemoryStore

CONFIG = {"top_pins": 4, "embedding_model": None, "cache_ttl": 0}
QUESTION = "Which bus goes to the harbour?"


def pin_ids(store: MemoryStore, sid: str, query: str | None = None) -> list[int]:
    return [p.id for p in store.build_context(sid, query=query).pins]


def test_a_sessions_own_pins_and_the_users_are_merged_by_importance(db_path) -> None:
    with MemoryStore(db_path, config=CONFIG) as store:
        a, b = store.create_session().id, store.create_session().id
        store.add_message(a, "user", "The bus timetable changed on Monday.")
        store.add_message(b, "user", "The bus timetable changed on Monday.")
        u1 = store.pin(None, "The user's name is Ines.", importance=0.9).id
        u2 = store.pin(None, "The user lives in Porto.", importance=0.5).id
        a1 = store.pin(a, "Session a is about the move.", importance=0.7).id
        a2 = store.pin(a, "The movers come on Friday.", importance=0.5).id  # ties u2: newer first
        b1 = store.pin(b, "Session b is about the garden.", importance=0.95).id
        assert pin_ids(store, a) == [u1, a1, a2, u2]
        assert pin_ids(store, b) == [b1, u1, u2]  # never another session's own pins
        fresh = store.create_session().id
        store.add_message(fresh, "user", "Hello.")
        assert pin_ids(store, fresh) == [u1, u2]  # a session with none of its own
        assert pin_ids(store, a, QUESTION) == [u1, a1, a2, u2]


def test_a_lasting_pin_past_the_top_is_found_among_the_users_and_the_sessions(db_path) -> None:
    with MemoryStore(db_path, config=CONFIG) as store:
        s = store.create_session().id
        store.add_message(s, "user", "The bus timetable changed on Monday.")
        busy = [store.pin(None if n % 2 else s, f"Project {n} ships on the {n + 4}th.",
                          importance=0.9).id for n in range(5)]
        allergy = store.pin(s, "I am allergic to penicillin.", importance=0.1).id
        plain = store.pin(None, "The harbour office opens at nine.", importance=0.1).id
        with_query = pin_ids(store, s, QUESTION)
        assert with_query[:4] == busy[::-1][:4]
        assert allergy in with_query and plain not in with_query  # lasting: health
        assert allergy not in pin_ids(store, s)  # without a query: the top pins alone


def test_a_pin_written_by_another_connection_is_seen_by_every_session(db_path) -> None:
    with MemoryStore(db_path, config=CONFIG) as store, MemoryStore(db_path, config=CONFIG) as other:
        a, b = store.create_session().id, store.create_session().id
        for sid in (a, b):
            store.add_message(sid, "user", "The bus timetable changed on Monday.")
        assert pin_ids(store, a) == pin_ids(store, b) == []  # read, and kept
        users = other.pin(None, "The user's name is Ines.").id
        assert pin_ids(store, a) == pin_ids(store, b) == [users]
        own = other.pin(b, "Session b is about the garden.", importance=0.9).id
        assert pin_ids(store, b) == [own, users] and pin_ids(store, a) == [users]
        other.unpin(users)
        assert pin_ids(store, a) == [] and pin_ids(store, b) == [own]


def test_a_pin_written_or_removed_by_the_store_is_seen_by_every_session(db_path) -> None:
    with MemoryStore(db_path, config=CONFIG) as store:
        a, b = store.create_session().id, store.create_session().id
        for sid in (a, b):
            store.add_message(sid, "user", "The bus timetable changed on Monday.")
        users = store.pin(None, "The user's name is Ines.").id
        assert pin_ids(store, a) == pin_ids(store, b) == [users]
        own = store.pin(a, "Session a is about the move.", importance=0.9).id
        assert pin_ids(store, a) == [own, users] and pin_ids(store, b) == [users]
        store.unpin(users)
        assert pin_ids(store, a) == [own] and pin_ids(store, b) == []
        store.unpin(own)
        assert pin_ids(store, a) == []
