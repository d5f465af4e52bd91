"""build_context: priorities, the hard ceiling, clipping, rendering, the cache."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localmem import MemoryConfig, MemoryContext, MemoryStore, Session
from localmem.context import CL100K_COSTS, CLIP_MARKER, MEMORY_PREAMBLE, PINS_HEADER, SUMMARIES_HEADER
from localmem.errors import InvalidInput


def fill(store: MemoryStore, session: Session, n: int, words: int = 30) -> list:
    return store.add_messages(
        session.id,
        [
            {"role": "user" if i % 2 == 0 else "assistant", "text": f"turn {i} " + "word " * words}
            for i in range(n)
        ],
    )


def rendered_tokens(store: MemoryStore, ctx: MemoryContext) -> int:
    return sum(store.count_tokens(m["content"]) for m in ctx.to_messages())


def test_defaults_follow_the_origin() -> None:
    cfg = MemoryConfig()
    assert (cfg.context_token_limit, cfg.recent_messages, cfg.top_pins, cfg.recent_summaries) == (
        3000,
        8,
        5,
        3,
    )
    assert (cfg.min_recent_messages, cfg.summary_threshold, cfg.cache_ttl) == (3, 15, 5.0)


def test_recent_messages_include_the_newest_in_natural_order(store, session) -> None:
    ms = fill(store, session, 20, words=5)
    ctx = store.build_context(session.id)
    assert [m.id for m in ctx.recent_messages] == [m.id for m in ms[-8:]]
    sent = ctx.to_messages()
    assert sent[-1] == {"role": "user" if (19 % 2 == 0) else "assistant", "content": ms[-1].text}
    assert all(set(m) == {"role", "content"} for m in sent)
    json.dumps(sent)  # ready for ollama.chat / an OpenAI-style API as it is


def test_breakdown_adds_up_and_counts_what_is_sent(store, session) -> None:
    fill(store, session, 10)
    store.pin(session.id, "The user's name is Ana.", importance=0.9)
    store.pin(session.id, "Allergic to penicillin.")
    ctx = store.build_context(session.id)
    assert set(ctx.breakdown) >= {"messages", "pins", "summaries"}
    assert sum(ctx.breakdown.values()) == ctx.total_tokens <= ctx.max_tokens == 3000
    assert ctx.breakdown["messages"] == sum(m.token_count for m in ctx.recent_messages)
    assert rendered_tokens(store, ctx) <= ctx.total_tokens
    system = ctx.to_messages()[0]
    assert system["role"] == "system"
    assert system["content"].startswith(MEMORY_PREAMBLE + "\n\n" + PINS_HEADER)
    assert system["content"].index("Ana") < system["content"].index("penicillin")


def test_priority_newest_three_then_pins_then_the_rest(store, session) -> None:
    ms = fill(store, session, 8, words=40)  # ~45 tokens each
    pin = store.pin(session.id, "fact " * 40)
    per = ms[0].token_count
    budget = 3 * per + CL100K_COSTS.preamble + pin.token_count + 10
    ctx = store.build_context(session.id, max_tokens=budget)
    assert [m.id for m in ctx.recent_messages] == [m.id for m in ms[-3:]]
    assert ctx.pins == (pin,)
    # a little more room brings back the fourth newest, not a pin-less context
    ctx = store.build_context(session.id, max_tokens=budget + per)
    assert [m.id for m in ctx.recent_messages] == [m.id for m in ms[-4:]]


def test_summaries_come_after_pins_and_render_first(store, session) -> None:
    ms = fill(store, session, 20, words=5)
    _insert_summary(store, session, ms[0].id, ms[14].id, "Discussed medication schedules.")
    store.pin(session.id, "Allergic to penicillin.")
    ctx = store.build_context(session.id)
    assert [s.text for s in ctx.summaries] == ["Discussed medication schedules."]
    content = ctx.to_messages()[0]["content"]
    assert content.index(SUMMARIES_HEADER) < content.index(PINS_HEADER)
    assert ctx.breakdown["summaries"] > 0


def _insert_summary(store, session, start, end, text, level=1):
    store._db.conn.execute(
        "INSERT INTO summaries (session_id, text, start_message_id, end_message_id, message_count,"
        " level, source, token_count, created_at) VALUES (?, ?, ?, ?, ?, ?, 'fallback', ?, '2026-01-01T00:00:00.000Z')",
        (session.id, text, start, end, end - start + 1, level, store.count_tokens(text)),
    )


def test_oldest_kept_message_is_clipped_not_the_budget_exceeded(store, session) -> None:
    long = store.add_message(session.id, "user", "BEGIN " + "lorem ipsum dolor " * 200 + "END")
    store.add_message(session.id, "assistant", "short answer")
    ctx = store.build_context(session.id, max_tokens=60)
    assert ctx.total_tokens <= 60 and ctx.clipped
    first = ctx.recent_messages[0]
    assert first.id == long.id and first.text.startswith(CLIP_MARKER)
    assert first.text.endswith("END") and "BEGIN" not in first.text
    assert store.count_tokens(first.text) == first.token_count
    assert ctx.recent_messages[-1].text == "short answer"
    assert rendered_tokens(store, ctx) <= 60
    # nothing stored changed
    assert store.get_messages(session.id)[0].text == long.text


def test_zero_budget_gives_an_empty_context(store, session) -> None:
    fill(store, session, 3)
    ctx = store.build_context(session.id, max_tokens=0)
    assert ctx.total_tokens == 0 and ctx.recent_messages == () and ctx.to_messages() == []


@pytest.mark.parametrize("bad", [-1, 1.5, float("nan"), "100", True])
def test_bad_budgets_are_rejected(store, session, bad) -> None:
    with pytest.raises(InvalidInput):
        store.build_context(session.id, max_tokens=bad)


def test_empty_session_context(store, session) -> None:
    ctx = store.build_context(session.id)
    assert ctx.total_tokens == 0 and ctx.to_messages() == []


words = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=400)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    texts=st.lists(words, min_size=0, max_size=14),
    pins=st.lists(st.tuples(words.filter(str.strip), st.floats(0, 1)), max_size=6),
    budget=st.integers(0, 600),
)
def test_budget_is_a_hard_ceiling(store: MemoryStore, texts, pins, budget) -> None:
    s = store.create_session()
    if texts:
        store.add_messages(s.id, [{"role": "user", "text": t} for t in texts])
    for content, importance in pins:
        store.pin(s.id, content, importance=importance)
    ctx = store.build_context(s.id, max_tokens=budget)
    assert ctx.total_tokens <= budget
    assert sum(ctx.breakdown.values()) == ctx.total_tokens
    assert rendered_tokens(store, ctx) <= budget
    ids = [m.id for m in ctx.recent_messages]
    assert ids == sorted(ids)  # natural order, contiguous newest window
    if texts:
        stored = [m.id for m in store.get_messages(s.id)]
        assert ids == stored[len(stored) - len(ids):]


# --- the cache ------------------------------------------------------------------


def test_cache_serves_repeated_calls_and_drops_on_own_writes(store, session) -> None:
    fill(store, session, 3)
    first = store.build_context(session.id)
    assert store.build_context(session.id) is first
    store.add_message(session.id, "user", "new message")
    fresh = store.build_context(session.id)
    assert fresh is not first and fresh.recent_messages[-1].text == "new message"
    store.pin(session.id, "pinned")
    assert store.build_context(session.id).pins[0].content == "pinned"
    stats = store.cache_stats()
    assert stats["hits"] == 1 and stats["misses"] == 3


@pytest.mark.parametrize("added", [1, 3, 8, 20])
def test_the_recent_messages_kept_read_follow_every_write(db_path, added) -> None:
    # The newest messages are kept read (SessionMemo.recent) and only those written
    # since are read: one, a few, as many as the window or more (then all anew).
    config = {"cache_ttl": 0, "recent_messages": 8}
    with MemoryStore(db_path, config=config) as store:
        s = store.create_session()
        said = store.add_messages(s.id, [{"role": "user", "text": f"turn {n}"} for n in range(10)])
        store.build_context(s.id)
        said += store.add_messages(s.id, [{"role": "user", "text": f"new {n}"} for n in range(added)])
        assert store.build_context(s.id).recent_messages == tuple(said[-8:])
        store.delete_message(said[-1].id)
        assert store.build_context(s.id).recent_messages == tuple(said[-9:-1])
        store.build_context(s.id)
        store.pin(s.id, "A write that adds no message.")
        assert store.build_context(s.id).recent_messages == tuple(said[-9:-1])


def test_cache_never_serves_stale_after_another_connection_commits(db_path) -> None:
    with MemoryStore(db_path) as app, MemoryStore(db_path) as cli:
        s = app.create_session()
        app.add_message(s.id, "user", "one")
        before = app.build_context(s.id)
        cli.add_message(s.id, "user", "two, from another process")
        after = app.build_context(s.id)
        assert after is not before
        assert after.recent_messages[-1].text == "two, from another process"


def test_cache_ttl_expiry_and_bound() -> None:
    from localmem.cache import TTLCache

    now = [0.0]
    cache: TTLCache[str] = TTLCache(ttl=5.0, max_entries=2, clock=lambda: now[0])
    assert cache.get(("a",), 1) is None
    cache.put(("a",), 1, "A")
    cache.put(("b",), 1, "B")
    assert cache.get(("a",), 1) == "A"
    cache.put(("c",), 1, "C")  # evicts the least recently used: b
    assert cache.get(("b",), 1) is None and len(cache) == 2
    now[0] = 5.1
    assert cache.get(("a",), 1) is None
    cache.put(("a",), 1, "A")
    assert cache.get(("a",), 2) is None  # a new data_version empties it


def test_cache_can_be_disabled(db_path) -> None:
    with MemoryStore(db_path, config=MemoryConfig(cache_ttl=0)) as store:
        s = store.create_session()
        assert store.build_context(s.id) is not store.build_context(s.id)


def test_a_session_deleted_by_another_connection_is_gone(db_path) -> None:
    from localmem import SessionNotFound

    with MemoryStore(db_path) as app, MemoryStore(db_path) as cli:
        s = app.create_session()
        app.add_message(s.id, "user", "hello")
        app.build_context(s.id)
        cli.delete_session(s.id)
        with pytest.raises(SessionNotFound):
            app.build_context(s.id)
