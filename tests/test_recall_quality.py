"""Recall's second round (issue 22, 21.6), through the public API: dates, neighbours,
spread, the query widened once, and sections that earn their tokens."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from localmem import MemoryConfig, MemoryStore
from localmem.models import Message
from localmem.periods import find
from localmem.rank import asks_for_many, said_by, without_words
from localmem.reranking import REPEAT_TOKENS, repeats_last


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clocked(db_path):
    clock = Clock(datetime(2022, 3, 1, 9, tzinfo=timezone.utc))
    with MemoryStore(db_path, config=MemoryConfig(cache_ttl=0), clock=clock) as store:
        yield store, clock


def say(store, clock, session_id, day: datetime, texts: list[str]) -> list:
    clock.now = day
    out = []
    for i, text in enumerate(texts):
        clock.now = day + timedelta(minutes=i)
        out.append(store.add_message(session_id, "user" if i % 2 == 0 else "assistant", text))
    return out


def filler(n: int, word: str = "garden") -> list[str]:
    return [f"Turn {i} about the {word} and the weather." for i in range(n)]


# --- dates -------------------------------------------------------------------------------


def test_a_question_naming_a_day_prefers_that_days_messages(clocked) -> None:
    store, clock = clocked
    s = store.create_session()
    day = datetime(2022, 3, 16, 10, tzinfo=timezone.utc)
    for n in range(12):  # a move a week, the same words each time
        when = day + timedelta(days=7 * (n - 6))
        say(store, clock, s.id, when, [f"We moved the piano to room {n} today.", "Nice!"])
    say(store, clock, s.id, day + timedelta(days=90), filler(30))
    ctx = store.build_context(
        s.id, max_tokens=220, query="Which room did we move the piano to on March 16, 2022?"
    )
    shown = [m.text for m in ctx.relevant_messages]
    assert "We moved the piano to room 6 today." in shown
    assert ctx.dates == ("March 16, 2022 = 2022-03-16",)
    assert "(dates in the question, read as: March 16, 2022 = 2022-03-16)" in ctx.memory_text()


def test_a_story_told_the_next_day_counts_for_the_day_it_tells(clocked) -> None:
    store, clock = clocked
    s = store.create_session()
    base = datetime(2022, 5, 2, 18, tzinfo=timezone.utc)
    for n in range(10):
        say(store, clock, s.id, base + timedelta(days=n), [f"Yesterday I baked bread number {n}."])
    say(store, clock, s.id, base + timedelta(days=40), filler(30))
    ctx = store.build_context(s.id, max_tokens=200, query="What bread did I bake on May 5, 2022?")
    # told on May 6 about the day before
    assert "Yesterday I baked bread number 4." in [m.text for m in ctx.relevant_messages]


def test_relative_periods_are_read_against_the_stores_clock(clocked) -> None:
    store, clock = clocked
    s = store.create_session()
    now = datetime(2022, 6, 15, 12, tzinfo=timezone.utc)  # a Wednesday
    for n in range(30):
        say(store, clock, s.id, now - timedelta(days=30 - n), [f"I watered the ferns, round {n}."])
    say(store, clock, s.id, now, filler(30))
    clock.now = now + timedelta(hours=1)
    ctx = store.build_context(s.id, max_tokens=200, query="How were the ferns last week?")
    days = {m.created_at[:10] for m in ctx.relevant_messages}
    assert days and days <= {f"2022-06-{d:02d}" for d in range(6, 13)}
    assert ctx.dates == ("last week = 2022-06-06..2022-06-12",)
    clock.now = now + timedelta(days=1)  # a day later, "yesterday" is another day
    ctx = store.build_context(s.id, max_tokens=200, query="ferns yesterday?")
    assert ctx.dates == ("yesterday = 2022-06-15",)


@pytest.mark.parametrize(
    ("question", "label"),
    [
        ("in May 2023", "May 2023 = 2023-05-01..2023-05-31"),
        ("on 16 March 2022", "16 March 2022 = 2022-03-16"),
        ("2 weeks ago", "2 weeks ago = 2024-05-27..2024-06-02"),
        ("last Tuesday", "last Tuesday = 2024-06-11"),
        ("in 2023", "in 2023 = 2023-01-01..2023-12-31"),
        ("anything in May?", "in May = 2024-05-01..2024-05-31"),
        ("What is the cafe we liked in May?", "in May = 2024-05-01..2024-05-31"),
        ("Where was Gabe going in April?", "in April = 2024-04-01..2024-04-30"),
        ("this month", "this month = 2024-06-01..2024-06-30"),
    ],
)
def test_periods_read(question: str, label: str) -> None:
    now = datetime(2024, 6, 12, 15, tzinfo=timezone.utc)  # a Wednesday
    assert [p.label for p in find(question, now)] == [label]


@pytest.mark.parametrize(
    "words",
    ["may I ask", "February 31, 2022", "room 2023", "call me maybe",
     "Where is Gabe going in April?", "Where is Sam actually traveling in September?",
     "What will we plan for August?"],
)
def test_what_is_no_date_stays_words(words: str) -> None:
    assert find(words, datetime(2024, 6, 12, tzinfo=timezone.utc)) == []


def test_a_month_ahead_is_a_topic_not_when_it_was_said(clocked) -> None:
    store, clock = clocked
    s = store.create_session()
    say(store, clock, s.id, datetime(2022, 2, 3, 9, tzinfo=timezone.utc),
        ["Gabe: Booked flights to Vietnam for April, so excited!"])
    for day in range(1, 29):  # April's own talk of trips crowds a small context
        say(store, clock, s.id, datetime(2022, 4, day, 9, tzinfo=timezone.utc),
            [f"Gabe: Going to the trip planning meeting number {day} at work."])
    clock.now = datetime(2022, 5, 2, 9, tzinfo=timezone.utc)
    say(store, clock, s.id, clock.now, filler(10))
    ctx = store.build_context(s.id, max_tokens=300, query="Where is Gabe going in April?")
    assert ctx.dates == ()
    assert "Gabe: Booked flights to Vietnam for April, so excited!" in [
        m.text for m in ctx.relevant_messages
    ]
    past = store.build_context(s.id, max_tokens=300, query="Where did Gabe go in April?")
    assert past.dates == ("in April = 2022-04-01..2022-04-30",)


@pytest.mark.parametrize(
    ("question", "label"),
    [
        # What the patterns match without regard to case (\u017f is a long s, \u0131 a
        # dotless i) is read as its plain letters, never raised on.
        ("on \u017fep 3, 2022", "\u017fep 3, 2022 = 2022-09-03"),
        ("last Fr\u0131day", "last Fr\u0131day = 2024-06-07"),
        ("\u017fix days ago", "\u017fix days ago = 2024-06-06"),
    ],
)
def test_periods_read_as_the_patterns_match(question: str, label: str) -> None:
    now = datetime(2024, 6, 12, 15, tzinfo=timezone.utc)
    assert [p.label for p in find(question, now)] == [label]


def test_a_query_naming_an_odd_spelled_month_builds_a_context(store, session) -> None:
    store.add_message(session.id, "user", "The harbour trip is booked for September 3.")
    ctx = store.build_context(session.id, query="What happened on \u017fep 3?")
    assert ctx.query == "What happened on \u017fep 3?"


@pytest.mark.parametrize(
    "question", ["What did you say about the python database?", "", "Any news from Ana?"]
)
def test_a_question_without_a_date_word_names_no_period(question: str) -> None:
    from localmem.periods import may_name_a_period

    assert not may_name_a_period(question)
    assert find(question, datetime(2024, 6, 12, tzinfo=timezone.utc)) == []


# --- neighbours --------------------------------------------------------------------------


def test_a_question_asked_mid_turn_brings_its_reply(store, session) -> None:
    store.add_message(
        session.id, "user",
        "Did you end up running the harbour half marathon? [image: runners at a start line]",
    )
    reply = store.add_message(session.id, "assistant", "Yep, finished in one hour fifty-two!")
    store.add_messages(session.id, [{"role": "user", "text": t} for t in filler(20)])
    ctx = store.build_context(session.id, query="How long did the harbour half marathon take?")
    assert reply.id in [m.id for m in ctx.relevant_messages]


def test_a_short_reply_brings_the_question_it_answers(store, session) -> None:
    asked = store.add_message(
        session.id, "user", "Was the vet visit on the Tuesday? I could not remember."
    )
    store.add_message(session.id, "assistant", "Yes, the vet said all is fine.")
    store.add_messages(session.id, [{"role": "user", "text": t} for t in filler(20)])
    ctx = store.build_context(session.id, query="What did the vet say?")
    assert asked.id in [m.id for m in ctx.relevant_messages]


# --- spread ------------------------------------------------------------------------------


def test_near_copies_from_one_day_do_not_crowd_out_another_days_answer(clocked) -> None:
    store, clock = clocked
    s = store.create_session()
    day = datetime(2022, 4, 1, 9, tzinfo=timezone.utc)
    other = say(store, clock, s.id, day, ["In Lisbon we ate grilled sardines by the river."])[0]
    copies = [f"In Lisbon we ate grilled sardines by the river again, day {n}." for n in range(8)]
    say(store, clock, s.id, day + timedelta(days=20), copies)
    say(store, clock, s.id, day + timedelta(days=40), filler(30))
    ctx = store.build_context(
        s.id, max_tokens=260, query="What did we eat in Lisbon by the river? grilled sardines"
    )
    shown = [m.id for m in ctx.relevant_messages]
    assert other.id in shown
    assert len([m for m in ctx.relevant_messages if m.created_at.startswith("2022-04-21")]) <= 4


def test_chatter_said_again_on_other_days_waits_behind_answers(clocked) -> None:
    store, clock = clocked
    s = store.create_session()
    day = datetime(2022, 4, 1, 9, tzinfo=timezone.utc)
    chatter = []
    for n in range(10):  # the same garden line, said again every few days
        line = "Haha the garden again, Mira!" if n % 2 else "The garden again!"
        chatter += say(store, clock, s.id, day + timedelta(days=3 * n), [line])
    answers = [
        say(store, clock, s.id, day + timedelta(days=40), ["We planted the garden with tomatoes."])[0],
        say(store, clock, s.id, day + timedelta(days=50), ["The garden got 7 rows of beans."])[0],
        say(store, clock, s.id, day + timedelta(days=60), ["The garden got 9 rows of beans."])[0],
    ]
    say(store, clock, s.id, day + timedelta(days=90), filler(12, "weather"))
    query = "What did we grow in the garden?"
    ctx = store.build_context(s.id, max_tokens=240, query=query)
    assert {a.id for a in answers} <= {m.id for m in ctx.relevant_messages}  # 9 rows is news
    said = [m.text for m in ctx.relevant_messages if m.id in {c.id for c in chatter}]
    assert len(said) == len(set(said))  # each line once, not five times
    roomy = store.build_context(s.id, max_tokens=3000, query=query)
    assert {c.id for c in chatter} <= {m.id for m in roomy.relevant_messages}  # only later


def _hit(n: int, text: str, tokens: int = 8) -> Message:
    return Message(id=n, session_id="s", role="user", text=text, model_id=None,
                   token_count=tokens, importance_score=0.5, created_at=f"2022-04-{n:02d}T09:00:00Z")


@pytest.mark.parametrize(
    ("texts", "repeats"),
    [
        (["Same here, Priya.", "Same here!", "So same here!"], ["Same here!"]),  # a subset
        (["Talk soon!", "I made ratatouille", "talk SOON"], ["talk SOON"]),  # case, punctuation
        (["Gate 4 tonight", "Gate 7 tonight"], []),  # a number of its own is news
        (["I did", "We did"], []),  # so is a short word
        (["the red car", "a blue car", "the blue car"], []),  # words of two hits are not one's
        # chatter put together again: each sentence said by an earlier hit
        (["Haha, I bet.", "Any trips planned, Gabe?", "Haha, I bet. Any trips planned?"],
         ["Haha, I bet. Any trips planned?"]),
        (["Haha, I bet.", "Haha, I bet. We went to Lisbon!"], []),  # a sentence of its own
        (["Haha. I bet.", "Haha, I bet."], []),  # one sentence holding two is not theirs
    ],
)
def test_a_short_hit_whose_sentences_earlier_hits_said_goes_last(texts, repeats) -> None:
    ranking = [_hit(n + 1, t) for n, t in enumerate(texts)]
    out = repeats_last(ranking)
    assert sorted(m.id for m in out) == [m.id for m in ranking]  # nothing dropped
    assert [m.text for m in out[len(out) - len(repeats):]] == repeats if repeats else out == ranking


def test_past_the_hits_a_context_shows_the_ranking_keeps_its_order() -> None:
    ranking = [_hit(1, "Same here, Priya."), _hit(2, "Same here!"), _hit(3, "Gate 4"),
               _hit(4, "Same here")]
    assert [m.id for m in repeats_last(ranking, most=2)] == [1, 3, 2, 4]
    assert [m.id for m in repeats_last(ranking, most=1)] == [1, 2, 3, 4]


def test_long_hits_are_neither_checked_for_repeats_nor_held() -> None:
    long = "Same here, Priya, the garden again and again. " * 3
    ranking = [_hit(1, long, REPEAT_TOKENS + 1), _hit(2, "Same here!"), _hit(3, long, REPEAT_TOKENS + 1)]
    assert repeats_last(ranking) == ranking


def test_the_best_hits_words_widen_a_query_that_finds_little(store, session) -> None:
    store.add_message(session.id, "user", "My sister Ines moved to Porto, she teaches violin.")
    store.add_message(session.id, "assistant", "Porto is lovely.")
    cousin = store.add_message(session.id, "user", "Her violin students in Porto gave a concert.")
    store.add_messages(session.id, [{"role": "user", "text": t} for t in filler(40)])
    ctx = store.build_context(session.id, query="Where does Ines live now?")
    assert cousin.id in [m.id for m in ctx.relevant_messages]


# --- sections earn their tokens (issue 21.6) ---------------------------------------------


def test_with_a_query_unrelated_pins_give_their_budget_to_recalled_messages(store, session) -> None:
    lasting = store.pin(session.id, "I am allergic to penicillin.")
    unrelated = [store.pin(session.id, f"The spare key {n} hangs in the shed, hook {n}.")
                 for n in range(4)]  # five pins are read: all of them
    fact = store.add_message(session.id, "user", "The school pickup code is 4417.")
    store.add_messages(session.id, [{"role": "user", "text": t} for t in filler(30)])
    budget = 170
    ctx = store.build_context(session.id, max_tokens=budget, query="What is the pickup code?")
    assert fact.id in [m.id for m in ctx.relevant_messages]
    assert lasting.id in [p.id for p in ctx.pins]  # the user's lasting fact keeps its place
    plain = store.build_context(session.id, max_tokens=budget)
    assert {p.id for p in unrelated} & {p.id for p in plain.pins}  # without a query: as before
    assert ctx.total_tokens <= budget


def test_pins_that_answer_keep_their_place_and_the_rest_fill_what_is_left(store, session) -> None:
    answer = store.pin(session.id, "The pickup code changed to 5521 in May.")
    others = [store.pin(session.id, f"Shed key {n} hangs on hook {n}.") for n in range(3)]
    store.add_message(session.id, "user", "The school pickup code is 4417.")
    store.add_messages(session.id, [{"role": "user", "text": t} for t in filler(5)])
    ctx = store.build_context(session.id, max_tokens=3000, query="What is the pickup code?")
    assert {answer.id, *(p.id for p in others)} <= {p.id for p in ctx.pins}  # room for all
    assert [p.id for p in ctx.pins] == [
        p.id for p in store.build_context(session.id, max_tokens=3000).pins
    ]  # in their usual order


# --- the messages recall keeps read (SessionMemo.messages) ------------------------------


def test_a_message_recall_read_before_is_not_recalled_once_deleted(db_path) -> None:
    with MemoryStore(db_path, config={"cache_ttl": 0, "recent_messages": 2}) as store:
        s = store.create_session()
        first = store.add_message(s.id, "user", "The heron sketch is in the blue notebook.")
        second = store.add_message(s.id, "user", "Another heron sketch went to the framer.")
        store.add_messages(s.id, [{"role": "user", "text": t} for t in filler(6)])
        shown = [m.id for m in store.build_context(s.id, query="heron sketch").relevant_messages]
        assert first.id in shown and second.id in shown  # both read, and kept read
        store.delete_message(first.id)
        shown = [m.id for m in store.build_context(s.id, query="heron sketch").relevant_messages]
        assert first.id not in shown and second.id in shown


# --- which messages hold each word, kept read (SessionMemo.postings) --------------------


def heron_note(store: MemoryStore) -> tuple[str, Message]:
    """A session (its id) whose first message says where the heron sketch is, six filler
    turns after it, and that message."""
    s = store.create_session()
    note = store.add_message(s.id, "user", "The heron sketch is in the blue notebook.")
    store.add_messages(s.id, [{"role": "user", "text": t} for t in filler(6)])
    return s.id, note


def test_a_word_s_holders_kept_read_take_in_the_messages_written_since(db_path) -> None:
    with MemoryStore(db_path, config={"cache_ttl": 0, "recent_messages": 2}) as store:
        sid, first = heron_note(store)
        shown = [m.id for m in store.build_context(sid, query="heron sketch").relevant_messages]
        assert shown == [first.id]  # "heron" and "sketch" read: one holder each
        later = store.add_message(sid, "user", "Another heron sketch went to the framer.")
        store.add_messages(sid, [{"role": "user", "text": t} for t in filler(6)])
        shown = [m.id for m in store.build_context(sid, query="heron sketch").relevant_messages]
        assert set(shown) == {first.id, later.id}


@pytest.mark.parametrize("scope", ["session", "user"])
def test_what_recall_keeps_read_across_writes_ranks_as_a_fresh_reading_does(db_path, scope) -> None:
    # The session's statistics (its messages, their mean length) and each word's
    # holders are kept read and brought up to date after the store's writes
    # (SessionMemo.scopes, .postings): the contexts must be those of a store that
    # reads everything afresh, as the words' weights and the lengths shift.
    import random

    rng = random.Random(5)
    vocabulary = ["heron", "sketch", "pond", "notebook", "framer", "blue", "reed", "marsh"]

    def turns(n: int, length: tuple[int, int]) -> list[dict[str, str]]:
        return [
            {"role": "user", "text": " ".join(rng.choices(vocabulary, k=rng.randint(*length)))}
            for _ in range(n)
        ]

    config = {"cache_ttl": 0, "recent_messages": 2, "recall_scope": scope}
    query, budget = "heron sketch by the pond", 400
    with MemoryStore(db_path, config=config) as store:
        a, b = store.create_session(), store.create_session()
        store.add_messages(a.id, turns(40, (3, 12)))
        store.add_messages(b.id, turns(20, (3, 12)))
        seen = []
        def contexts(of: MemoryStore) -> list:
            return [of.build_context(sid, max_tokens=budget, query=query) for sid in (a.id, b.id)]

        writes = ((a.id, turns(30, (20, 40))), (b.id, turns(5, (1, 2))), (a.id, turns(3, (1, 3))))
        for sid, more in writes:
            contexts(store)  # read, and kept read
            store.add_messages(sid, more)
            seen.append(contexts(store))
            with MemoryStore(db_path, config=config) as fresh:
                assert seen[-1] == contexts(fresh)
        assert seen[0] != seen[1] != seen[2]  # the writes changed what is recalled


def test_a_word_s_holders_kept_read_lose_the_deleted_ones(db_path) -> None:
    # Another chat's 300 messages holding both words fill every lexical candidate's
    # place (recall.LEXICAL_CANDIDATES) ahead of the one holding a word: were they
    # still counted as holders once deleted, they would keep it out.
    config = {"cache_ttl": 0, "recent_messages": 2, "recall_scope": "user"}
    with MemoryStore(db_path, config=config) as store:
        other, s = store.create_session(), store.create_session()
        both = [{"role": "user", "text": f"Heron sketch number {n}."} for n in range(300)]
        store.add_messages(other.id, both)
        one = store.add_message(s.id, "user", "The heron was by the pond this morning.")
        store.add_messages(s.id, [{"role": "user", "text": t} for t in filler(700)])
        shown = [m.id for m in store.build_context(s.id, query="heron sketch").relevant_messages]
        assert one.id not in shown and shown
        store.delete_session(other.id)
        shown = [m.id for m in store.build_context(s.id, query="heron sketch").relevant_messages]
        assert shown == [one.id]


def test_a_message_another_program_edits_is_recalled_as_it_reads_now(db_path) -> None:
    import sqlite3

    with MemoryStore(db_path, config={"cache_ttl": 0, "recent_messages": 2}) as store:
        sid, fact = heron_note(store)
        texts = [m.text for m in store.build_context(sid, query="heron sketch").relevant_messages]
        assert "The heron sketch is in the blue notebook." in texts
        other = sqlite3.connect(db_path)  # sqlite-utils, Datasette: any tool may edit the file
        other.execute("UPDATE messages SET text = ? WHERE id = ?",
                      ("The heron sketch is in the red notebook.", fact.id))
        other.commit()
        other.close()
        texts = [m.text for m in store.build_context(sid, query="heron sketch").relevant_messages]
        assert "The heron sketch is in the red notebook." in texts
        assert "The heron sketch is in the blue notebook." not in texts


# --- questions asking for a list ----------------------------------------------------------


class Meaning:
    """A host's embedder that knows trips: a city visited, the question about them, other
    talk, and chatter about making lists; cosine ranks the visits first, the filler next,
    the chatter last (as a real model ranks "I made a list of places ..." far from
    "Which places has ... traveled to?")."""

    model = "meaning-v1"
    CITIES = ("lisbon", "kyoto", "oslo")

    def vector(self, text: str) -> list[float]:
        low = text.lower()
        if any(c in low for c in self.CITIES) or low.startswith(("which places", "did i go")):
            return [1.0, 0.0, 0.1]
        if "list" in low:
            return [0.0, 1.0, 0.1]
        return [0.3, 0.0, 1.0]

    def embed_documents(self, texts):
        return [self.vector(t) for t in texts]

    def embed_query(self, text):
        return self.vector(text)


VISITS = ["Greetings from Lisbon, the trams are lovely!", "Back from Kyoto, what a week.",
          "Oslo was freezing but so pretty."]


def told_of_visits_among_chatter(db_path):
    """A store whose visits share no word with "Which places ... traveled to?" and whose
    chatter holds every word of it; at most three recalled turns shown."""
    clock = Clock(datetime(2022, 3, 1, 9, tzinfo=timezone.utc))
    store = MemoryStore(db_path, config=MemoryConfig(cache_ttl=0, relevant_messages=3),
                        clock=clock, embedder=Meaning())
    s = store.create_session()
    day = datetime(2022, 3, 1, 10, tzinfo=timezone.utc)
    for n, visit in enumerate(VISITS):
        say(store, clock, s.id, day + timedelta(days=30 * n), [visit])
        chatter = [f"I made a list of places I have traveled to in dreams, {n}{k} so far."
                   for k in range(2)]
        say(store, clock, s.id, day + timedelta(days=30 * n + 1), chatter)
    say(store, clock, s.id, day + timedelta(days=120), filler(30))
    return store, s


def test_a_question_asking_for_a_list_weighs_the_meaning_above_its_words(db_path) -> None:
    store, s = told_of_visits_among_chatter(db_path)
    with store:
        ctx = store.build_context(s.id, query="Which places have I traveled to?")
    assert [m.text for m in ctx.relevant_messages] == VISITS  # the chatter holds the words


def test_a_question_asking_for_one_thing_keeps_its_words_weight(db_path) -> None:
    store, s = told_of_visits_among_chatter(db_path)
    with store:
        ctx = store.build_context(s.id, query="Did I go to the places I traveled to in dreams?")
    assert any("list of places" in m.text for m in ctx.relevant_messages)


@pytest.mark.parametrize(
    ("question", "many"),
    [
        ("Which cities has Gabe lived in?", True),
        ("Which new activities has Priya tried?", True),  # one word between
        ("What books have I read this year?", True),
        ("What are all the places Ingrid has lived?", True),
        ("Where all have we been?", True),
        ("Name the employers Nate has mentioned.", True),
        ("list every book I read", True),
        ("What does Hannah do for work?", False),  # "does": a stop word
        ("What has Gabe learned to cook?", False),
        ("What class is she taking?", False),  # "ss" is no plural
        ("What was his name?", False),  # "name" asks for a list only first
        ("When did Nadia adopt her dog?", False),
        ("Which is better, tea or coffee?", False),
    ],
)
def test_asks_for_many(question: str, many: bool) -> None:
    assert asks_for_many(question) is many


@pytest.mark.parametrize(
    ("text", "dropped", "left"),
    [
        ("Which new activities has Priya tried?", {"priya"}, "Which new activities has tried?"),
        ("What is PRIYA's job, and Priya\u2019s town?", {"priya"}, "What is job, and town?"),
        ("Did Priyanka call Priya?", {"priya"}, "Did Priyanka call ?"),  # whole words only
        ("Which activities has Priya tried?", {"hannah"}, "Which activities has Priya tried?"),
        ("Which  new\tactivities?", set(), "Which new activities?"),
    ],
)
def test_without_words(text: str, dropped: set[str], left: str) -> None:
    assert without_words(text, dropped) == left


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Priya: I took up knitting.", True),
        ("Dr Priya Rao: the results are in.", True),
        ("Hannah: Thanks, Priya!", False),  # said to her, not by her
        ("Priya said hello today.", False),  # no label
        ("Note: Priya called.", False),
    ],
)
def test_said_by(text: str, said: bool) -> None:
    assert said_by(text, {"priya"}) is said


# --- a long turn shown cut to what answers, kept (SessionMemo.excerpts) ------------------

LONG_TURN = (
    "We spent the morning at the market and bought far too much fruit for two people. "
    "Then the heron sketch went to the framer on Elm Street, who says it is ready Friday. "
    "After lunch we walked along the river for an hour and watched the rowing crews. "
    "The evening was quiet, with soup, bread and an early night for everyone in the house."
)


def test_a_long_turns_excerpt_is_kept_by_its_id_and_the_querys_stems() -> None:
    from localmem.excerpt import ELLIPSIS, Answers
    from localmem.tokens import Tokenizer

    counted: list[str] = []

    def count(text: str) -> int:
        counted.append(text)
        return Tokenizer().count(text)

    message = Message(id=7, session_id="s", role="user", text=LONG_TURN, model_id=None,
                      token_count=Tokenizer().count(LONG_TURN), importance_score=0.5,
                      created_at="2026-03-14T09:00:00.000Z")
    kept: dict = {}
    shown = Answers(["heron", "sketch"], count, kept).shorten(message)
    assert shown.text.startswith(ELLIPSIS) and "heron sketch" in shown.text and len(counted) == 1
    again = Answers(["sketches", "heron"], count, kept).shorten(message)  # the same stems
    assert again is shown and len(counted) == 1  # neither cut nor counted again
    other = Answers(["river"], count, kept).shorten(message)
    assert "rowing crews" in other.text and "heron" not in other.text and len(counted) == 2
    assert Answers(["zebra"], count, kept).shorten(message) is message  # nothing to cut: whole
    assert len(kept) == 3
    huge = message.model_copy(
        update={"id": 8, "text": LONG_TURN * 20, "token_count": 20 * message.token_count}
    )
    assert "heron" in Answers(["heron"], count, kept).shorten(huge).text
    assert len(kept) == 3  # a text this long is cut afresh each time, not kept


def test_the_excerpts_kept_go_with_a_deleted_message(db_path) -> None:
    with MemoryStore(db_path, config={"cache_ttl": 0, "recent_messages": 2}) as store:
        s = store.create_session()
        long = store.add_message(s.id, "user", LONG_TURN)
        store.add_messages(s.id, [{"role": "user", "text": t} for t in filler(4)])
        (shown,) = store.build_context(s.id, query="the heron sketch").relevant_messages
        assert shown.id == long.id and shown.text != LONG_TURN  # cut to what answers
        assert store._db.memo.excerpts  # kept for the next turn
        store.delete_message(long.id)
        assert not store._db.memo.excerpts  # its text is nowhere in memory
        assert store.build_context(s.id, query="the heron sketch").relevant_messages == ()


def test_a_question_with_no_reply_yet_brings_its_reply_once_written(db_path) -> None:
    # The neighbours of the best hits are kept (SessionMemo.neighbours): a turn's
    # neighbour stays its neighbour, but none after it is not kept: a reply may come.
    config = {"cache_ttl": 0, "recent_messages": 2, "recall_scope": "user"}
    with MemoryStore(db_path, config=config) as store:
        here, there = store.create_session(), store.create_session()
        store.add_messages(there.id, [{"role": "user", "text": t} for t in filler(3)])
        asked = store.add_message(there.id, "user", "When will the heron sketch be framed?")
        store.add_messages(here.id, [{"role": "user", "text": t} for t in filler(4)])
        query = "When is the heron sketch framed?"
        shown = [m.id for m in store.build_context(here.id, query=query).relevant_messages]
        assert shown == [asked.id]  # no reply yet
        reply = store.add_message(there.id, "assistant", "Friday, said the shop.")
        shown = [m.id for m in store.build_context(here.id, query=query).relevant_messages]
        assert shown == [asked.id, reply.id]
        assert [m.id for m in store.build_context(here.id, query=query).relevant_messages] == shown


def test_a_question_s_reply_is_the_next_turn_of_its_own_session(db_path) -> None:
    # In one session's scope the neighbours are found among the session's own ids
    # (read with its statistics, then only the new ones): another session's turn
    # written in between is never the reply, before or after the ids were first read.
    with MemoryStore(db_path, config={"cache_ttl": 0, "recent_messages": 2}) as store:
        s, other = store.create_session(), store.create_session()
        asked = store.add_message(s.id, "user", "When will the heron sketch be framed?")
        store.add_message(other.id, "assistant", "Lunch is at noon.")
        after = store.add_messages(s.id, [{"role": "user", "text": t} for t in filler(4)])
        query = "When is the heron sketch framed?"
        shown = [m.id for m in store.build_context(s.id, query=query).relevant_messages]
        assert shown[:2] == [asked.id, after[0].id]
        asked = store.add_message(s.id, "user", "Which wall will hold the otter watercolour?")
        store.add_message(other.id, "assistant", "Lunch moved to one.")
        reply = store.add_message(s.id, "assistant", "In the hall, by the door.")
        store.add_messages(s.id, [{"role": "user", "text": t} for t in filler(4)])
        query = "Which wall holds the otter watercolour?"
        shown = [m.id for m in store.build_context(s.id, query=query).relevant_messages]
        assert shown[:2] == [asked.id, reply.id]


def test_a_question_whose_reply_is_deleted_brings_the_turn_after_it_now(db_path) -> None:
    with MemoryStore(db_path, config={"cache_ttl": 0, "recent_messages": 2}) as store:
        s = store.create_session()
        asked = store.add_message(s.id, "user", "When will the heron sketch be framed?")
        first = store.add_message(s.id, "assistant", "Thursday, I think.")
        second = store.add_message(s.id, "assistant", "Friday, said the shop.")
        store.add_messages(s.id, [{"role": "user", "text": t} for t in filler(4)])
        query = "When is the heron sketch framed?"
        shown = [m.id for m in store.build_context(s.id, query=query).relevant_messages]
        assert shown[:2] == [asked.id, first.id]
        store.delete_message(first.id)
        shown = [m.id for m in store.build_context(s.id, query=query).relevant_messages]
        assert shown[:2] == [asked.id, second.id]


def test_whether_a_text_answers_is_kept_by_the_querys_words_and_the_text() -> None:
    from localmem import excerpt
    from localmem.tokens import Tokenizer

    count = Tokenizer().count
    pin = "The user is allergic to penicillin."
    excerpt._memo_holds.cache_clear()
    Answers = excerpt.Answers
    assert Answers(["penicillin"], count).answers(pin)
    assert not Answers(["heron"], count).answers(pin)  # other words: judged apart
    assert Answers(["penicillin"], count).answers(pin)  # a later context: kept
    assert excerpt._memo_holds.cache_info().hits == 1
    assert not Answers([], count).answers(pin)  # no words: nothing answers
    long_text = "penicillin " * 1000  # past ANSWERS_MEMO_MAX_CHARS: judged, not kept
    assert Answers(["penicillin"], count).answers(long_text)
    assert excerpt._memo_holds.cache_info().currsize == 2


def test_the_words_of_a_query_are_given_as_a_list_of_the_callers_own(db_path) -> None:
    with MemoryStore(db_path, config={"embedding_model": None}) as store:
        terms = store._recall.terms("Which heron sketch went to the framer?")
        assert terms == ["heron", "sketch", "went", "framer"]
        terms.append("changed")  # the caller's list: what is kept stays
        assert store._recall.terms("Which heron sketch went to the framer?") == [
            "heron", "sketch", "went", "framer"]
