"""Anything a user or a buggy host app can pass: only LocalMemError comes back,
and the file stays consistent."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localmem import LocalMemError, MemoryStore

# Any unicode, lone surrogates and NUL included.
any_text = st.text(alphabet=st.characters(codec=None, categories=None), max_size=300)
hostile_text = st.one_of(
    any_text,
    st.sampled_from(['"', "AND", "*", "(", "NEAR(", "a OR", "<|endoftext|>", "\x00", "\ud800", ""]),
)
anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    hostile_text,
    st.binary(max_size=20),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=3),
)

CALLS = [
    ("add_message", lambda store, sid, a, b: store.add_message(sid, a, b)),
    ("add_message_text", lambda store, sid, a, b: store.add_message(sid, "user", a)),
    ("add_messages", lambda store, sid, a, b: store.add_messages(sid, [{"role": "user", "text": a}, b])),
    ("pin", lambda store, sid, a, b: store.pin(sid, a, importance=b)),
    ("pin_kind", lambda store, sid, a, b: store.pin(sid, "fact", source_message_id=a, kind=b)),
    ("build_context", lambda store, sid, a, b: store.build_context(sid, max_tokens=a, query=b)),
    ("build_context_other", lambda store, sid, a, b: store.build_context(a)),
    ("get_messages", lambda store, sid, a, b: store.get_messages(sid, after_id=a, limit=b)),
    ("get_session", lambda store, sid, a, b: store.get_session(a)),
    ("create_session", lambda store, sid, a, b: store.create_session(model=a, title=b)),
    ("create_session_id", lambda store, sid, a, b: store.create_session(session_id=a)),
    ("unpin", lambda store, sid, a, b: store.unpin(a)),
    ("delete_session", lambda store, sid, a, b: store.delete_session(a)),
    ("count_tokens", lambda store, sid, a, b: store.count_tokens(a, model=b)),
    ("summarize", lambda store, sid, a, b: store.summarize(a)),
]


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    path = tmp_path_factory.mktemp("hostile") / "hostile.db"
    with MemoryStore(path, config={"ollama_host": "http://127.0.0.1:9"}) as store:
        sid = store.create_session(model="llama3.2").id
        store.add_messages(sid, [{"role": "user", "text": f"seed {i}"} for i in range(20)])
        yield store, sid, path


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=anything, b=anything)
def test_only_localmem_errors_escape(shared, name, call, a, b) -> None:
    store, sid, path = shared
    try:
        call(store, sid, a, b)
    except LocalMemError:
        pass
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        conn.close()


def test_the_file_is_consistent_after_the_onslaught(shared) -> None:
    store, sid, path = shared
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert store.get_session(sid).id == sid


def test_a_ten_megabyte_message(store: MemoryStore, session) -> None:
    text = "All work and no play makes Jack a dull boy. " * 240_000  # ~10.5 MB
    m = store.add_message(session.id, "user", text)
    assert m.token_count > 2_000_000
    assert store.get_messages(session.id)[0].text == text
    ctx = store.build_context(session.id)
    assert ctx.total_tokens <= 3000 and ctx.clipped
