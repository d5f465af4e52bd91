"""Full-text search and the query-aware context: hostile queries, ranking, sessions,
freshness across connections and processes, deletes, the budget, auto_query, the CLI."""

from __future__ import annotations

import contextlib

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from localmem import (
    MemoryConfig,
    MemoryContext,
    MemoryStore,
    SearchHit,
    SessionNotFound,
)
from localmem import db
from localmem import search as fts
from localmem.cli import cli
from localmem.context import MEMORY_PREAMBLE, RELEVANT_HEADER
from localmem.errors import InvalidInput
from localmem.migrations import (
    APPLICATION_ID,
    M001_INITIAL,
    M002_SUMMARIZER,
    M003_ITEMS,
)
from localmem.models import ROLES

QUESTION = "What was the school pickup code again?"
FACT = "The school pickup code is 4417."


def chat(store: MemoryStore, session_id: str, n: int, topic: str = "the garden") -> list:
    return store.add_messages(
        session_id,
        [
            {"role": "user" if i % 2 == 0 else "assistant", "text": f"Turn {i} about {topic}."}
            for i in range(n)
        ],
    )


def ids(hits: list[SearchHit]) -> list[tuple[str, int]]:
    return [(h.kind, h.id) for h in hits]


def index_is_exact(store: MemoryStore) -> None:
    """FTS5's own check: the index holds exactly the rows of its tables, no more."""
    store.search("anything")  # catches the index up first
    for table in ("messages", "summaries", "semantic_pins"):
        store._db.conn.execute(f"INSERT INTO {table}_fts ({table}_fts) VALUES ('integrity-check')")


# --- queries ----------------------------------------------------------------------


def test_a_natural_question_finds_the_old_message(store, session) -> None:
    fact = store.add_message(session.id, "user", FACT)
    chat(store, session.id, 30)
    hits = store.search(QUESTION)
    assert hits[0].kind == "message" and hits[0].id == fact.id
    assert hits[0].session_id == session.id and hits[0].text == FACT
    assert hits[0].snippet == "The [school] [pickup] [code] is 4417."
    assert hits[0].score > 0


@pytest.mark.parametrize(
    ("query", "words"),
    [
        (QUESTION, ["school", "pickup", "code"]),
        ('"quoted" AND (NEAR(a b) OR *^)', ["quoted", "near"]),
        ("text:secret session_key:s730", ["text", "secret", "session", "key", "s730"]),
        ("Don't forget Rosa's 3 pills!", ["forget", "rosa", "3", "pills"]),
        ("the and of", []),
        ("Café CAFÉ café", ["café"]),
    ],
)
def test_query_terms(query: str, words: list[str]) -> None:
    assert fts.query_terms(query) == words


def test_choose_terms_keeps_the_rarest_and_drops_the_common() -> None:
    docs = {"code": 5000, "pickup": 3, "school": 40, "absent": 0}
    def count(term: str) -> int:
        return min(docs[term], 1001)

    assert fts.choose_terms(["school", "pickup", "code", "absent"], count) == ["pickup", "school"]
    assert fts.choose_terms(["code", "absent"], count) == []
    assert fts.choose_terms(["code", "absent"], count, fallback=True) == ["code"]


def test_the_session_key_is_the_schemas(store) -> None:
    for sid in ("demo", "user-42", "a\x00b", "日本", "🙂", "x" * 300):
        (sql_key,) = store._db.conn.execute("SELECT lower('s' || hex(?) || '0')", (sid,)).fetchone()
        assert fts.session_key(sid) == sql_key


HOSTILE = [
    "",
    " ",
    '"',
    '"unbalanced',
    "(",
    ")",
    "((a) OR",
    "AND",
    "OR OR",
    "NOT",
    "a NOT b",
    "NEAR(a b, 2)",
    "NEAR(",
    "*",
    "pick*",
    "^start",
    "-minus",
    "+plus",
    "text:code",
    "{text session_key}: code",
    "session_key:x",
    "messages_fts:x",
    "rank:1",
    "a\x00b",
    "\ud800 pickup",
    "<|endoftext|>",
    "x" * 100_000,
    "word " * 5000,
    "🙂 日本語 مرحبا",
    "e\u0301te",
]


@pytest.mark.parametrize("query", HOSTILE, ids=[repr(q[:20]) for q in HOSTILE])
def test_hostile_queries_never_raise(store, session, query: str) -> None:
    store.add_message(session.id, "user", FACT)
    chat(store, session.id, 10)
    assert isinstance(store.search(query), list)
    assert isinstance(store.search(query, session_id=session.id, limit=3), list)
    assert isinstance(store.build_context(session.id, query=query), MemoryContext)


any_text = st.text(alphabet=st.characters(codec=None, categories=None), max_size=200)
fts_syntax = st.lists(
    st.sampled_from(
        ['"', "(", ")", "AND", "OR", "NOT", "NEAR", "NEAR(", "*", "^", ":", "text:", "{", "}",
         "+", "-", ",", "pickup", "code", "4417", " ", "\x00", "\ud800"]
    ),
    max_size=12,
).map("".join)


@pytest.fixture(scope="module")
def hostile_store(tmp_path_factory):
    with MemoryStore(tmp_path_factory.mktemp("search") / "hostile.db") as store:
        sid = store.create_session().id
        store.add_message(sid, "user", FACT)
        chat(store, sid, 12)
        store.pin(sid, "The pickup is at the side gate.")
        yield store, sid


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=st.one_of(any_text, fts_syntax))
def test_any_text_is_a_valid_query(hostile_store, query: str) -> None:
    store, sid = hostile_store
    for hit in store.search(query) + store.search(query, session_id=sid):
        assert hit.session_id == sid
    ctx = store.build_context(sid, query=query, max_tokens=500)
    assert ctx.total_tokens <= 500


@pytest.mark.parametrize("bad", [None, 3, b"code", ["code"]])
def test_a_query_must_be_text(store, session, bad) -> None:
    with pytest.raises(InvalidInput):
        store.search(bad)  # type: ignore[arg-type]
    if bad is not None:
        with pytest.raises(InvalidInput):
            store.build_context(session.id, query=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True])
def test_bad_limits_are_rejected(store, bad) -> None:
    with pytest.raises(InvalidInput):
        store.search("code", limit=bad)


# --- ranking -------------------------------------------------------------------------


def test_ranking(store, session) -> None:
    code = store.add_message(session.id, "user", "The code for the shed is somewhere.")
    both = store.add_message(session.id, "user", "The pickup code is 4417.")
    long = store.add_message(
        session.id, "user", "pickup " + "and then many other words about other things " * 20
    )
    short = store.add_message(session.id, "user", "Pickup at four.")
    chat(store, session.id, 10)
    hits = store.search("pickup code")
    assert ids(hits)[0] == ("message", both.id)  # both words beat one word
    assert {h.id for h in hits} == {code.id, both.id, long.id, short.id}
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    rank = [h.id for h in hits]
    assert rank.index(short.id) < rank.index(long.id)  # the same word in a shorter text
    # a rare word outweighs a commoner one: "shed" is in one message, "pickup" in three
    assert [h.id for h in store.search("pickup shed")][:2] == [code.id, short.id]
    assert len(store.search("pickup code", limit=1)) == 1
    assert store.search("pickup code", limit=0) == []


def test_search_covers_summaries_and_pins(store, session) -> None:
    ms = chat(store, session.id, 20)
    pin = store.pin(session.id, "Rosa is allergic to penicillin.")
    store._db.conn.execute(
        "INSERT INTO summaries (session_id, text, start_message_id, end_message_id, message_count,"
        " source, token_count, created_at) VALUES (?, 'Talked about penicillin doses.', ?, ?, 15,"
        " 'fallback', 6, '2026-01-01T00:00:00.000Z')",
        (session.id, ms[0].id, ms[14].id),
    )
    hits = store.search("penicillin")
    assert {(h.kind, h.id) for h in hits} >= {("pin", pin.id)}
    assert sorted(h.kind for h in hits) == ["pin", "summary"]
    assert next(h for h in hits if h.kind == "pin").snippet == "Rosa is allergic to [penicillin]."


def test_stop_words_alone_still_search(store, session) -> None:
    m = store.add_message(session.id, "user", "The Who played here.")
    assert ids(store.search("the who")) == [("message", m.id)]


def test_stems_match(store, session) -> None:
    m = store.add_message(session.id, "user", "Both pickups are at noon; the café opens later.")
    assert ids(store.search("pickup")) == [("message", m.id)]
    assert ids(store.search("cafe")) == [("message", m.id)]


def test_no_query_word_is_dropped_from_the_context(store, session) -> None:
    fact = store.add_message(session.id, "user", "My garden gate code is 4417.")
    chat(store, session.id, 20, topic="the garden")  # "garden" in 21 messages
    store.add_message(session.id, "user", "What is the gate code?")
    ctx = store.build_context(session.id, query="What is the gate code for the garden?")
    assert fact in ctx.relevant_messages
    # ... and a common word alone still recalls what holds it
    ctx = store.build_context(session.id, query="garden?")
    assert fact in ctx.relevant_messages and len(ctx.relevant_messages) > 1
    assert store.search("garden")


def test_statistics_are_the_sessions_own(db_path) -> None:
    """A speaker's name, rare in the file but in every turn of its own conversation,
    weighs nothing there: the turn that answers outranks "Thanks, Melanie!"."""
    with MemoryStore(db_path, config={"relevant_messages": 1}) as store:
        for n in range(30):  # other conversations: "melanie" is rare in the file, "paint" common
            other = store.create_session()
            turns = [{"role": "user", "text": f"We paint the fence, coat {n}."}] * 10
            store.add_messages(other.id, turns)
        s = store.create_session()
        thanks = [{"role": "user", "text": f"Thanks, Melanie! Lovely chat {i}."} for i in range(30)]
        store.add_messages(s.id, thanks)
        answer = store.add_message(s.id, "assistant", "I painted a lake at sunrise last week.")
        store.add_messages(s.id, thanks[:10])
        ctx = store.build_context(s.id, query="What did Melanie paint?")
        assert ctx.relevant_messages == (answer,)


# --- sessions -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "sids", [("a", "b"), ("user-42", "user_42"), ("a\x00b", "a b"), ("🙂", "日本")]
)
def test_a_search_within_a_session_sees_only_that_session(store, sids) -> None:
    first, second = (store.create_session(session_id=sid) for sid in sids)
    mine = store.add_message(first.id, "user", FACT)
    store.add_message(second.id, "user", FACT)
    store.pin(second.id, "The pickup code is also 1234.")
    assert {h.session_id for h in store.search(QUESTION)} == {first.id, second.id}
    hits = store.search(QUESTION, session_id=first.id)
    assert ids(hits) == [("message", mine.id)]


def test_a_search_of_a_missing_session_raises(store) -> None:
    with pytest.raises(SessionNotFound):
        store.search("code", session_id="nope")


# --- never stale ------------------------------------------------------------------------


def test_a_write_is_in_the_index_when_it_commits(store, session, db_path) -> None:
    m = store.add_message(session.id, "user", FACT)
    batch = store.add_messages(session.id, [{"role": "user", "text": "another pickup"}])
    # Read by a plain connection that never ran localmem's search.
    with contextlib.closing(sqlite3.connect(db_path)) as plain:
        found = plain.execute(
            "SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'pickup' ORDER BY rowid"
        ).fetchall()
    assert [r[0] for r in found] == [m.id, batch[0].id]


def test_a_search_sees_what_committed_while_another_program_holds_the_write_lock(
    db_path,
) -> None:
    with MemoryStore(db_path) as app:
        s = app.create_session()
        m = app.add_message(s.id, "user", FACT)
        with contextlib.closing(sqlite3.connect(db_path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")  # the sqlite3 shell, mid-transaction
            try:
                assert ids(app.search(QUESTION)) == [("message", m.id)]
                ctx = app.build_context(s.id, query=QUESTION, max_tokens=3000)
                assert FACT in [x.text for x in ctx.recent_messages + ctx.relevant_messages]
            finally:
                other.execute("ROLLBACK")


def test_a_search_sees_another_connections_writes(db_path) -> None:
    with MemoryStore(db_path) as app, MemoryStore(db_path) as other:
        s = app.create_session()
        assert app.search("pickup") == []
        m = other.add_message(s.id, "user", FACT)
        p = other.pin(s.id, "Pickup is at the side gate.")
        assert set(ids(app.search("pickup"))) == {("message", m.id), ("pin", p.id)}


def test_a_search_sees_another_processs_writes(db_path: Path) -> None:
    with MemoryStore(db_path) as app:
        s = app.create_session()
        chat(app, s.id, 5)
        assert app.search("pickup") == []
        code = (
            "import sys; from localmem import MemoryStore\n"
            "with MemoryStore(sys.argv[1]) as st:\n"
            f"    print(st.add_message(sys.argv[2], 'user', {FACT!r}).id)\n"
        )
        out = subprocess.run(
            [sys.executable, "-c", code, str(db_path), s.id],
            capture_output=True, text=True, check=True,
        ).stdout
        assert ids(app.search(QUESTION)) == [("message", int(out))]


def test_a_context_sees_another_connections_writes_at_once(db_path) -> None:
    config = {"cache_ttl": 60}
    with MemoryStore(db_path, config=config) as app, MemoryStore(db_path) as other:
        s = app.create_session()
        chat(app, s.id, 10)
        assert app.build_context(s.id, query=QUESTION).relevant_messages == ()
        fact = other.add_messages(s.id, [{"role": "user", "text": FACT}])[0]
        chat(other, s.id, 10)
        assert [m.id for m in app.build_context(s.id, query=QUESTION).relevant_messages] == [
            fact.id
        ]


# --- deletes --------------------------------------------------------------------------------


def test_deleting_a_session_leaves_no_hits(store, session) -> None:
    other = store.create_session()
    chat(store, session.id, 5, topic="pickup")
    store.pin(session.id, "pickup at four")
    store.add_message(other.id, "user", "pickup here")
    store.search("pickup")  # indexed
    chat(store, session.id, 3, topic="pickup")  # and some not yet
    store.delete_session(session.id)
    assert {h.session_id for h in store.search("pickup")} == {other.id}
    index_is_exact(store)


def test_clear_messages_leaves_no_hits(store, session) -> None:
    ms = chat(store, session.id, 20, topic="pickup")
    pin = store.pin(session.id, "pickup at four", source_message_id=ms[0].id)
    store.search("pickup")
    store.clear_messages(session.id)
    assert ids(store.search("pickup")) == [("pin", pin.id)]
    index_is_exact(store)


def test_unpin_leaves_no_hits(store, session) -> None:
    pin = store.pin(session.id, "pickup at four")
    assert ids(store.search("pickup")) == [("pin", pin.id)]
    store.unpin(pin.id)
    assert store.search("pickup") == []
    index_is_exact(store)


def test_popping_the_newest_message_then_writing_another(store, session) -> None:
    """The popped newest id is not handed out again (m011); the new row is indexed."""
    chat(store, session.id, 3)
    old = store.add_items(session.id, "k", [({"role": "user", "text": "pickup at four"}, "{}")])
    assert ids(store.search("pickup")) == [("message", old[0].id)]
    store.pop_item(session.id, "k")
    new = store.add_message(session.id, "user", "dentist at noon")
    assert new.id == old[0].id + 1  # was old[0].id: the freed id handed out again
    assert store.search("pickup") == []
    assert ids(store.search("dentist")) == [("message", new.id)]
    index_is_exact(store)


def test_a_deleted_summary_leaves_no_hits(store, session) -> None:
    ms = store.add_items(
        session.id, "k", [({"role": "user", "text": f"turn {i}"}, "{}") for i in range(20)]
    )
    store._db.conn.execute(
        "INSERT INTO summaries (session_id, text, start_message_id, end_message_id, message_count,"
        " source, token_count, created_at) VALUES (?, 'About the pickup.', ?, ?, 20, 'fallback',"
        " 4, '2026-01-01T00:00:00.000Z')",
        (session.id, ms[0].id, ms[-1].id),
    )
    assert [h.kind for h in store.search("pickup")] == ["summary"]
    store.pop_item(session.id, "k")  # its message was in the summary's range
    assert store.search("pickup") == []
    index_is_exact(store)


def test_rows_deleted_or_edited_by_another_tool(store, session, db_path) -> None:
    m = store.add_message(session.id, "user", "pickup at four")
    pin = store.pin(session.id, "the pickup is at the gate")
    store.search("pickup")
    raw = sqlite3.connect(db_path)
    raw.execute("PRAGMA foreign_keys = ON")
    raw.execute("DELETE FROM messages WHERE id = ?", (m.id,))
    raw.execute("UPDATE semantic_pins SET content = 'dentist at noon' WHERE id = ?", (pin.id,))
    raw.commit()
    raw.close()
    assert store.search("pickup") == []
    assert ids(store.search("dentist")) == [("pin", pin.id)]
    index_is_exact(store)


def test_an_older_file_is_indexed_on_its_first_search(tmp_path: Path) -> None:
    path = tmp_path / "v3.db"
    conn = sqlite3.connect(path)
    for statement in M001_INITIAL + M002_SUMMARIZER + M003_ITEMS:
        conn.execute(statement)
    conn.execute("INSERT INTO sessions VALUES ('s', NULL, NULL, 't', 't')")
    conn.execute("INSERT INTO messages VALUES (1, 's', 'user', ?, NULL, 8, 0.5, 't')", (FACT,))
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 3")
    conn.commit()
    conn.close()
    with MemoryStore(path) as store:
        assert ids(store.search(QUESTION)) == [("message", 1)]
        index_is_exact(store)


# --- the query-aware context --------------------------------------------------------------


def test_the_context_carries_the_relevant_older_message(store, session) -> None:
    fact = store.add_message(session.id, "user", FACT)
    store.add_message(session.id, "assistant", "Noted.")
    chat(store, session.id, 40)
    store.add_message(session.id, "user", QUESTION)
    plain = store.build_context(session.id)
    assert plain.relevant_messages == () and plain.breakdown["relevant"] == 0
    ctx = store.build_context(session.id, query=QUESTION)
    assert [m.id for m in ctx.relevant_messages] == [fact.id]
    assert ctx.query == QUESTION
    assert ctx.recent_messages == plain.recent_messages  # room enough for both
    assert ctx.breakdown["relevant"] > fact.token_count
    assert sum(ctx.breakdown.values()) == ctx.total_tokens
    system = ctx.to_messages()[0]
    assert system["role"] == "system"
    fact = ctx.relevant_messages[0]
    assert system["content"] == (
        f"{MEMORY_PREAMBLE}\n\n{RELEVANT_HEADER}\n{fact.created_at[:10]}:\nuser: {FACT}"
    )
    assert store.count_tokens(system["content"]) <= ctx.breakdown["relevant"] + ctx.breakdown["framing"]


def test_relevant_messages_come_from_outside_the_recent_window(store, session) -> None:
    chat(store, session.id, 20)
    recent = store.add_message(session.id, "user", FACT)  # the newest: already in the context
    ctx = store.build_context(session.id, query=QUESTION)
    assert ctx.relevant_messages == () and recent in ctx.recent_messages


def test_at_most_relevant_messages_best_first_shown_oldest_first(db_path) -> None:
    with MemoryStore(db_path, config={"relevant_messages": 2}) as store:
        s = store.create_session()
        a = store.add_message(s.id, "user", "The pickup code is 4417, at the school gate.")
        b = store.add_message(s.id, "user", "The school is closed on Friday.")
        c = store.add_message(s.id, "user", "The pickup code changed: school pickup is 5521 now.")
        chat(store, s.id, 20)
        ctx = store.build_context(s.id, query=QUESTION)
        assert [m.id for m in ctx.relevant_messages] == [a.id, c.id]
        content = ctx.to_messages()[0]["content"]
        assert content.index("4417") < content.index("5521") and b.text not in content
    with MemoryStore(db_path, config={"relevant_messages": 0}) as store:
        assert store.build_context(s.id, query=QUESTION).relevant_messages == ()


def test_the_relevant_section_takes_what_the_recent_turns_leave(store, session) -> None:
    fact = store.add_message(session.id, "user", FACT)
    ms = chat(store, session.id, 20, topic="a long walk in the hills " * 3)
    pin = store.pin(session.id, "Pinned fact " * 10)
    store.build_context(session.id)
    costs = store._contexts.costs
    date = store.count_tokens(f"{fact.created_at[:10]}:")
    needed = costs.relevant_header + date + costs.item + store.count_tokens("user: ") + fact.token_count
    # the newest 3 and the pin; then the 4th and 5th newest turns take at most half of
    # what is left, and the relevant message fits in the rest
    base = sum(m.token_count for m in ms[-3:]) + costs.preamble + pin.token_count + costs.pins_header
    turns = ms[-5].token_count + ms[-4].token_count
    budget = base + max(2 * turns, turns + needed)
    plain = store.build_context(session.id, max_tokens=budget)
    ctx = store.build_context(session.id, max_tokens=budget, query=QUESTION)
    assert [m.id for m in ctx.relevant_messages] == [fact.id]
    assert [m.id for m in ctx.recent_messages] == [m.id for m in ms[-5:]]
    assert len(plain.recent_messages) > 5  # without a query the older turns take it all
    assert ctx.pins == (pin,)
    content = ctx.to_messages()[0]["content"]
    assert content.index("[Pinned facts]") < content.index(RELEVANT_HEADER)
    assert ctx.to_messages()[1]["content"] == ms[-5].text  # then the turns


def costs_of_a_line(store: MemoryStore) -> int:
    return store._contexts.costs.item + store.count_tokens("user: ")


def test_the_relevant_section_fills_the_budget_left(store, session) -> None:
    facts = [
        store.add_message(session.id, "user", f"The school pickup code was {1000 + i} in week {i}.")
        for i in range(90)  # more than fit: one speaker's run pays its label once
    ]
    chat(store, session.id, 20)
    ctx = store.build_context(session.id, max_tokens=1000, query=QUESTION)
    assert len(ctx.relevant_messages) > 20  # not a fixed three
    assert set(ctx.relevant_messages) <= set(facts)
    left_over = ctx.max_tokens - ctx.total_tokens
    smallest = min(m.token_count for m in facts if m not in ctx.relevant_messages)
    # what is left could not hold one more message (its line break and "user: " label)
    assert left_over < smallest + costs_of_a_line(store)


def test_a_long_relevant_message_does_not_crowd_out_the_budget(store, session) -> None:
    long = store.add_message(session.id, "user", FACT + " And more." * 400)
    short = store.add_message(session.id, "user", "Pickup is at the side gate.")
    chat(store, session.id, 20)
    ctx = store.build_context(session.id, max_tokens=1000, query=QUESTION)
    assert long.token_count > 1000
    # the long turn shows only its sentence that answers, the cut marked
    shown = {m.id: m for m in ctx.relevant_messages}
    assert set(shown) == {long.id, short.id}
    assert shown[long.id].text == FACT + " …"
    assert shown[long.id].token_count < 30
    assert shown[short.id].text == short.text
    assert "And more" not in ctx.memory_text()
    assert ctx.total_tokens <= 1000


def test_a_short_sentence_that_matched_keeps_the_sentence_that_says_what_it_announces(
    store, session
) -> None:
    trip = store.add_message(
        session.id, "user",
        "Greetings from Mexico City! We took a cooking class and loved it. "
        + "The weather was mild and the streets were busy all day long. " * 4,
    )
    chat(store, session.id, 20)
    ctx = store.build_context(session.id, max_tokens=1000, query="What did we do in Mexico City?")
    shown = {m.id: m.text for m in ctx.relevant_messages}
    assert shown[trip.id] == "Greetings from Mexico City! We took a cooking class and loved it. …"


def test_a_long_turn_with_no_sentence_to_cut_stays_whole_or_out(store, session) -> None:
    long = store.add_message(session.id, "user", (FACT[:-1] + " and more, ") * 200 + ".")
    short = store.add_message(session.id, "user", "Pickup is at the side gate.")
    chat(store, session.id, 20)
    ctx = store.build_context(session.id, max_tokens=1000, query=QUESTION)
    assert [m.id for m in ctx.relevant_messages] == [short.id]
    assert long.token_count > 1000 and ctx.total_tokens <= 1000


words = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=300)
vocab = st.sampled_from(
    ["pickup", "code", "school", "4417", "gate", "the", "what", "again", "yesterday", "in May 2023"]
)
vocab_text = st.lists(vocab, min_size=1, max_size=12).map(" ".join)
# Mostly words that match, so that the relevant section is often there to be checked.
sentences = st.one_of(vocab_text, vocab_text, st.text(max_size=80))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    texts=st.lists(st.tuples(st.sampled_from(ROLES), sentences), max_size=30),
    pins=st.lists(words.filter(str.strip), max_size=2),
    query=st.one_of(vocab_text, vocab_text, words),
    budget=st.integers(0, 800),
    relevant=st.integers(1, 4),  # 0 turns the section off: test_at_most_relevant_messages_...
    recent=st.integers(1, 8),
    older=st.integers(0, 30),
    rnd=st.randoms(use_true_random=False),
)
def test_the_query_aware_budget_is_a_hard_ceiling(
    db_path, texts, pins, query, budget, relevant, recent, older, rnd
) -> None:
    config = {"relevant_messages": relevant, "recent_messages": recent, "cache_ttl": 0}
    words_ = ["pickup", "code", "school", "4417", "gate", "the", "what", "again", "x" * 40]
    # Older messages drawn from the query's vocabulary, so the section often has
    # candidates, in sentences, so that long ones may be shown cut to those that answer.
    def older_text() -> str:
        drawn = rnd.choices(words_, k=rnd.randint(1, 40))
        return "".join(w + rnd.choice([" ", " ", " ", ". ", "? ", "\n"]) for w in drawn)

    texts = [(rnd.choice(["user", "assistant"]), older_text()) for _ in range(older)] + texts
    with MemoryStore(db_path, config=config) as store:
        s = store.create_session()
        if texts:
            store.add_messages(s.id, [{"role": r, "text": t} for r, t in texts])
        for content in pins:
            store.pin(s.id, content)
        ctx = store.build_context(s.id, max_tokens=budget, query=query)
        assert ctx.total_tokens <= budget
        assert sum(ctx.breakdown.values()) == ctx.total_tokens
        assert sum(store.count_tokens(m["content"]) for m in ctx.to_messages()) <= budget
        assert all(m.token_count == store.count_tokens(m.text) for m in ctx.relevant_messages)
        assert len(ctx.relevant_messages) <= relevant
        found = [m.id for m in ctx.relevant_messages]
        assert found == sorted(set(found))
        stored = [m.id for m in store.get_messages(s.id)]
        assert not set(found) & set(stored[-store.config.recent_messages:])
        assert all(m.session_id == s.id for m in ctx.relevant_messages)
        turns = [m.id for m in ctx.recent_messages]
        assert turns == stored[len(stored) - len(turns):]  # still the newest, contiguous


# --- auto_query and the cache ----------------------------------------------------------------


def test_auto_query_uses_the_newest_user_message(db_path) -> None:
    with MemoryStore(db_path, config=MemoryConfig(auto_query=True)) as store:
        s = store.create_session()
        fact = store.add_message(s.id, "user", FACT)
        chat(store, s.id, 20)
        store.add_message(s.id, "user", QUESTION)
        store.add_message(s.id, "assistant", "Let me look.")
        ctx = store.build_context(s.id)
        assert ctx.query == QUESTION
        assert [m.id for m in ctx.relevant_messages] == [fact.id]
        # an explicit query wins
        assert store.build_context(s.id, query="the garden").query == "the garden"
    with MemoryStore(db_path) as store:  # auto_query off: no query, no section
        ctx = store.build_context(s.id)
        assert ctx.query is None and ctx.relevant_messages == ()


def test_query_contexts_are_cached_and_dropped_on_writes(store, session) -> None:
    store.add_message(session.id, "user", FACT)
    chat(store, session.id, 20)
    first = store.build_context(session.id, query=QUESTION)
    assert store.build_context(session.id, query=QUESTION) is first
    assert store.build_context(session.id) is not first
    store.add_message(session.id, "user", "Another pickup code: 9999.")
    fresh = store.build_context(session.id, query=QUESTION)
    assert fresh is not first


# --- the command line ----------------------------------------------------------------------


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_cli_search(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    with MemoryStore(db) as store:
        a = store.create_session(session_id="a")
        b = store.create_session(session_id="b")
        fact = store.add_message(a.id, "user", FACT)
        store.add_message(b.id, "user", "Pickup\nat four.")
    code, out = run("search", QUESTION, "--db", str(db))
    assert code == 0, out
    lines = out.splitlines()
    assert len(lines) == 2 and "[school] [pickup] [code]" in lines[0] and "\ta\t" in lines[0]
    assert "[Pickup] at four." in lines[1]  # one line per hit
    code, out = run("search", QUESTION, "--db", str(db), "--session", "a", "--json")
    data = json.loads(out)
    assert [(h["kind"], h["id"], h["session_id"]) for h in data] == [("message", fact.id, "a")]
    assert set(data[0]) == {"kind", "id", "session_id", "text", "score", "snippet", "created_at"}
    code, out = run("search", "pickup", "--db", str(db), "--limit", "1", "--json")
    assert len(json.loads(out)) == 1
    code, out = run("search", '"(NEAR AND *', "--db", str(db))
    assert code == 0 and out == ""
    code, out = run("search", "pickup", "--db", str(db), "--session", "nope")
    assert code == 1 and out.strip() == "Error: no session with id 'nope'"
    code, out = run("search", "--help")
    assert code == 0 and "--session" in out and "--limit" in out and "--json" in out


# --- hardening: huge texts, a held write lock, the session key in text ----------------------


def test_a_huge_pasted_log_gets_its_snippet_the_linear_way(store, session) -> None:
    """FTS5's snippet() is quadratic in a text's hits (a 1 MB log took 12 s, 4 MB 186 s,
    holding the store's lock): a text over SNIPPET_MAX_CHARS gets one cut around its
    first match instead (benchmarks/query.py times it)."""
    line = "ERROR disk quota exceeded on /var/lib/app retrying upload chunk\n"
    log = store.add_message(session.id, "tool", line * 16_000)  # 1 MB, 16,000 hits of each word
    assert len(log.text) > db.SNIPPET_MAX_CHARS
    (hit,) = store.search("disk quota", session_id=session.id)
    assert hit.id == log.id
    assert hit.snippet == fts.plain_snippet(
        log.text, ["disk", "quota"], "[", "]", "…", db.SNIPPET_TOKENS
    )
    assert hit.snippet.startswith("ERROR [disk] quota") and len(hit.snippet) < 400


def test_readers_read_while_another_program_holds_the_write_lock(db_path) -> None:
    with MemoryStore(db_path, config={"busy_timeout": 10}) as store:
        s = store.create_session()
        fact = store.add_message(s.id, "user", FACT)
        chat(store, s.id, 20)
        shell = sqlite3.connect(db_path, isolation_level=None)  # like the sqlite3 shell
        shell.execute("BEGIN IMMEDIATE")
        shell.execute("UPDATE sessions SET title = 'renamed in the shell'")
        try:
            started = time.monotonic()
            ctx = store.build_context(s.id, query=QUESTION)
            store.search("pickup code")
            assert time.monotonic() - started < 2  # not the 10 s busy timeout
            assert len(ctx.recent_messages) == store.config.recent_messages
        finally:
            shell.execute("ROLLBACK")
            shell.close()
        # the write lock gone, the index catches up and the fact is found
        assert fact in store.build_context(s.id, query=QUESTION + " ").relevant_messages
        assert [h.id for h in store.search("pickup code")] == [fact.id]


def test_text_holding_another_sessions_key_does_not_enter_its_scope(store) -> None:
    from localmem.search import session_key

    a, b = store.create_session(), store.create_session()
    mine = store.add_message(a.id, "user", "The pickup code is 4417.")
    spoof = f"pickup code {session_key(a.id)} pickup code pickup code"
    store.add_messages(b.id, [{"role": "user", "text": spoof}] * 12)  # more than a search's limit
    chat(store, a.id, 20)
    assert [h.id for h in store.search("pickup code", session_id=a.id)] == [mine.id]
    ctx = store.build_context(a.id, query=QUESTION)
    assert [m.id for m in ctx.relevant_messages] == [mine.id]


def test_relevant_messages_of_one_day_share_its_heading(store, session) -> None:
    first = store.add_message(session.id, "user", "The school pickup code is 4417.")
    second = store.add_message(session.id, "assistant", "Noted: pickup code 4417 at the gate.")
    chat(store, session.id, 20)
    ctx = store.build_context(session.id, query=QUESTION)
    assert {first.id, second.id} <= {m.id for m in ctx.relevant_messages}
    section = ctx.to_messages()[0]["content"].split(RELEVANT_HEADER + "\n")[1].splitlines()
    day = f"{first.created_at[:10]}:"
    assert section.count(day) == 1 and section[0] == day
    assert f"user: {first.text}" in section and f"assistant: {second.text}" in section
    assert sum(store.count_tokens(m["content"]) for m in ctx.to_messages()) <= ctx.total_tokens


def test_a_hit_carries_when_its_row_was_written(db_path: Path) -> None:
    from datetime import datetime, timezone

    said = datetime(2025, 3, 4, 5, 6, 7, tzinfo=timezone.utc)
    with MemoryStore(db_path, clock=lambda: said) as store:
        s = store.create_session()
        store.add_message(s.id, "user", "the boiler code is E119")
        store.pin(s.id, "boiler model Vaillant")
        hits = store.search("boiler")
    assert {h.kind for h in hits} == {"message", "pin"}
    assert {h.created_at for h in hits} == {"2025-03-04T05:06:07.000Z"}


@pytest.mark.parametrize("scope", ["session", "user"])
def test_a_query_word_that_stems_to_a_sessions_key_finds_no_message_by_it(db_path, scope) -> None:
    # The recall reads each query word without a column filter when it cannot stand
    # for a key token (search.message_holders); a word the Porter stemmer makes a
    # key ("<key>s" loses its s) keeps the filter, so it finds no message by its key.
    from localmem.search import session_key

    with MemoryStore(db_path, config=MemoryConfig(recall_scope=scope, cache_ttl=0)) as store:
        a = store.create_session(session_id="garden")  # a short key: a query word's length
        store.add_messages(a.id, [{"role": "user", "text": f"note {n} about the garden"} for n in range(30)])
        for word in (session_key(a.id), session_key(a.id) + "s", session_key(a.id).upper() + "ES"):
            ctx = store.build_context(a.id, query=f"what about {word}?")
            assert ctx.relevant_messages == (), word


def test_a_words_messages_are_those_of_the_filtered_expression(store) -> None:
    from localmem.search import any_of, message_holders, session_key

    a, b = store.create_session(session_id="a"), store.create_session(session_id="b-2")
    store.add_messages(a.id, [{"role": "user", "text": t} for t in (
        "the codes are 4417 and s0", "café crème at the station", "Running late, sorry",
        "sessions and keys", "u0 is a word here",
    )])
    store.add_message(b.id, "user", "the code is elsewhere, in another café")
    conn = store._db.conn
    words = ["code", "café", "run", "s0", "u0", "session", session_key(a.id), session_key(b.id) + "s"]
    for key in (None, session_key(a.id), session_key(b.id)):
        for word in words:
            sql = "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid"
            plain = [r[0] for r in conn.execute(sql, (message_holders(word, key),))]
            filtered = [r[0] for r in conn.execute(sql, (any_of([word], key),))]
            assert plain == filtered, (word, key)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(["code", "codes", "cod", "coding", "pickup", "pick", "dog", "run", "b12"]),
             min_size=1, max_size=4, unique=True),
    st.lists(st.sampled_from(["code", "Codes", "cod", "CODING", "pickup", "picked", "dogs", "running",
                              "b12", "xcode", "co", "-", ".", " ", "\n", "_", "1"]), max_size=30),
)
def test_the_finder_counts_each_terms_words_as_its_own_pattern_does(terms, parts) -> None:
    # rank.Finder finds every stem in one pass (str.find, the longest stem at each
    # word start, crediting the terms whose stems begin it); on plain text that is
    # what each term's own pattern (rank.occurrences) finds, word by word.
    from localmem.rank import Finder, occurrences

    text = "".join(parts)  # words run together too: "xcode" holds no word "code"
    finder = Finder(terms)
    expected = {t: n for t in terms if (n := len(occurrences(t).findall(text)))}
    assert finder.counts(text) == expected
    starts = sorted({m.start() for t in terms for m in occurrences(t).finditer(text)})
    assert finder.starts(text) == starts


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(["code", "codes", "cod", "pickup", "b12", "istanbul"]),
             min_size=1, max_size=3, unique=True),
    st.lists(st.lists(st.sampled_from(["code", "Codes", "cod", "pickup", "b12", "xcode", "İstanbul",
                                       "\0", "\0code", "co", " ", ".", "\n"]), max_size=12),
             max_size=6),
)
def test_the_finder_counts_texts_together_as_it_counts_each(terms, texts) -> None:
    # Finder.counts_of joins the texts (by a NUL) to look for each stem once: a word
    # at a text's start, a NUL inside a text, a text whose lowercase is longer
    # ("İ") must count as the text alone does. So must Finder.stem_counts, which
    # StemCounts uses to look for one stem in its own holders' texts only: a term's
    # count there is what counting every stem at once gives it ("cod" in "codes"
    # found as "code").
    from localmem.rank import Finder

    finder = Finder(terms)
    joined = ["".join(parts) for parts in texts]
    assert finder.counts_of(joined) == [finder.counts(text) for text in joined]
    lowered: dict[int, str] = {}
    for t in terms:
        found = finder.stem_counts(finder.stem_of[t], joined, range(len(joined)), lowered)
        assert found == [finder.counts(text).get(t, 0) for text in joined]


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.integers(1, 500), st.sampled_from([0.25, 0.5, 1.0, 1.5, 2.75, 3.0]),
                    max_size=80),
    st.integers(1, 60),
)
def test_the_best_k_are_the_first_k_of_the_whole_ranking(scores, k) -> None:
    # rank.best sorts only the ids at or above the k-th best score: with ties across
    # that score (newer first) the first k must be those of the whole ranking.
    from localmem.rank import best, ranked

    assert best(scores, k) == ranked(scores)[:k]


WORDS_OF_TEXTS = ["code", "Codes", "cod", "CODING", "pickup", "picked", "dogs", "running",
                  "b12", "xcode", "İstanbul", "café", "-", ".", " ", "\n"]
TERMS_ASKED = ["code", "codes", "cod", "coding", "pickup", "pick", "dog", "run", "b12", "istanbul"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.lists(st.sampled_from(WORDS_OF_TEXTS), max_size=20), min_size=1, max_size=6),
    st.lists(st.lists(st.sampled_from(TERMS_ASKED), min_size=1, max_size=4, unique=True),
             min_size=1, max_size=4),
)
def test_bm25_with_the_counts_kept_scores_as_counting_afresh(texts, asked) -> None:
    # rank.bm25 keeps each stem's count in each message (by id) in the dict it is
    # given, across queries with other terms: a term's count must not depend on them.
    from localmem.rank import Scope, StemCounts, bm25

    docs = {n: ("".join(words), len(words)) for n, words in enumerate(texts)}
    counted = StemCounts()
    scope = Scope(len(docs) + 5, 7.0)
    for terms in asked:
        holders = {t: list(docs) for t in terms}
        frequencies = {t: len(docs) for t in terms}
        kept = bm25(terms, holders, frequencies, scope, docs, counted)
        assert kept == bm25(terms, holders, frequencies, scope, docs)


def test_bm25_s_counts_kept_start_again_when_full(monkeypatch) -> None:
    from localmem import rank

    monkeypatch.setattr(rank, "COUNTED_SIZE", 3)
    docs = {1: ("the code, the codes", 5), 2: ("a dog", 2), 3: ("a dog and its code", 5)}
    counted = rank.StemCounts()
    scope = rank.Scope(10, 4.0)
    first = rank.bm25(["code"], {"code": [1]}, {"code": 1}, scope, docs, counted)
    assert len(counted) == 1  # only the message holding the term is counted
    asked = (["code", "dog"], {"code": [1, 3], "dog": [2, 3]}, {"code": 1, "dog": 2}, scope, docs)
    both = rank.bm25(*asked, counted)
    # 1 + 3 more (code in 3, dog in 2 and 3) > 3: emptied, then each stem counted in its holders
    assert len(counted) == 4
    assert both[1] == first[1] and both == rank.bm25(*asked)
    assert rank.bm25(*asked, counted) == both and len(counted) == 4  # read back, nothing added


def test_bm25_adds_a_message_s_parts_in_the_order_of_the_terms() -> None:
    # Term by term, a message's score must be the sum scoring it message by message
    # gives, the same floats added in the same order: contexts stay byte-identical.
    from localmem import rank

    docs = {7: ("Python, python and the project deadline", 9), 9: ("the project", 3)}
    terms = ["python", "database", "project", "deadline"]
    holders = {"python": [7], "project": [9, 7], "deadline": [7], "database": []}
    frequencies = {"python": 3, "database": 0, "project": 5, "deadline": 2}
    scope = rank.Scope(40, 6.0)
    scores = rank.bm25(terms, holders, frequencies, scope, docs)
    expected = 0.0
    norm = rank.K1 * (1 - rank.B + rank.B * 9 / 6.0)
    for t, tf in (("python", 2), ("project", 1), ("deadline", 1)):
        expected += rank.idf(40, frequencies[t]) * tf * (rank.K1 + 1) / (tf + norm)
    assert scores[7] == expected and set(scores) == {7, 9}


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.integers(1, 500), st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.75]), max_size=80))
def test_ranked_puts_the_higher_score_first_and_on_a_tie_the_newer_message(scores) -> None:
    from localmem.rank import ranked

    order = ranked(scores)
    assert order == sorted(scores, key=lambda i: (-scores[i], -i))
    for a, b in zip(order, order[1:]):  # never a lower score ahead, nor an older tie
        assert scores[a] > scores[b] or (scores[a] == scores[b] and a > b)


@settings(max_examples=300, deadline=None)
@given(st.frozensets(st.sampled_from("abcdefgh")), st.frozensets(st.sampled_from("abcdefgh")))
def test_word_overlap_is_the_shared_words_over_all_the_words(a, b) -> None:
    from localmem.reranking import _jaccard

    expected = len(a & b) / len(a | b) if a and b else 0.0
    assert _jaccard(a, b) == expected


def test_a_stem_is_counted_only_at_a_words_start() -> None:
    from localmem.rank import Finder

    finder = Finder(["code", "coding"])
    texts = ["code codes xcode", "decode", "Coding, CODE-code_code"]
    # "xcode" and "decode" hold no word "code"; "-" and "_" end a word, as in the index
    assert finder.stem_counts("code", texts, [1, 2, 3], {}) == [2, 0, 3]
    assert finder.stem_counts("cod", texts, [1, 2, 3], {}) == [2, 0, 4]
