"""Automatic pins: the phrase rules, de-duplication, the write paths, the model
path over the fake Ollama server, editing, the migration and the CLI."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from localmem import MemoryStore
from localmem.autopins import MAX_FACTS_PER_MESSAGE, MAX_SCAN_CHARS, pin_facts, pin_key
from localmem.cli import cli
from localmem.errors import InvalidInput, NotFound, SessionNotFound
from localmem.migrations import SCHEMA_VERSION
from tests.old_files import file_at_version
from tests.test_checkpoint import JsonFake, fake  # noqa: F401  (the fixture)

# --- the rules --------------------------------------------------------------------------

PINNED = [
    "I'm allergic to penicillin.",
    "i am severely allergic to peanuts and tree nuts",
    "My son is lactose intolerant.",
    "Important: she is allergic to penicillin, it gave her hives last year.",
    "Rosa is allergic to shellfish.",
    "I'm diabetic, so keep sugar low.",
    "My wife has type 2 diabetes.",
    "My peanut allergy is severe.",
    "She takes lisinopril 10 mg once a day.",
    "I'm on insulin.",
    "My name is Sam Carter.",
    "Please call me Jo.",
    "My daughter is called Emma.",
    "Our dog's name is Biscuit.",
    "Her pharmacist is Mr. Okafor at the Elm Street pharmacy.",
    "She has a cardiology appointment on December 3rd at 10:30 with Dr. Patel.",
    "The report is due Friday.",
    "My dentist appointment is on 2025-03-14.",
    "Our anniversary is June 12.",
    "Remember that my flight lands at 6am.",
    "Note that the garage code is 4711.",
    "Don't forget my mother visits every Sunday.",
    "Can you remember that I prefer the window seat?",
    "For the record, I work nights.",
    "I can't eat gluten.",
    "I don't drink alcohol.",
    "We must not use GPL code in this product.",
    "I'm vegan.",
    "My budget is 500 EUR a month.",
    "I cannot drive after dark.",
    "I'm not kidding, I'm allergic to cats.",  # a joke denied
    "My wifi password's bluefox77.",
]

NOT_PINNED = [
    "Is this allergic reaction normal?",  # a question, about no one
    "Can I take amoxicillin if I'm allergic to penicillin?",  # a question
    "People who are allergic to penicillin should avoid amoxicillin.",  # people in general
    "If I were allergic to cats, what pets would suit me?",  # a hypothetical
    "Imagine I'm vegan and plan a dinner.",  # a hypothetical
    "In my story, the hero is allergic to silver.",  # fiction
    "I'm allergic to cats lol jk",  # a joke
    "I'm allergic to Mondays, just kidding.",
    "For example, I can't eat gluten.",  # an example
    "My appointment is tomorrow.",  # a relative date goes stale
    "The meeting is at 3pm.",  # a time without a date
    "I can't get this to compile.",  # a problem, not a constraint
    "I can't work out why the test fails.",
    "I don't know what the error means.",
    "Due to the rain on Monday we stayed in.",  # "due to" is not a deadline
    "Do you remember the name of that film?",
    "I remember that trip to Lisbon.",  # a memory, not a request
    "error: value must not be null",  # a log line
    "Call me back on Monday.",
    "The function takes 10 ms per call.",  # no one takes it
    "How do I add an index to the franchisees table?",
    "What is my name?",
    "",
]


@pytest.mark.parametrize("text", PINNED)
def test_a_stated_fact_is_pinned_as_its_sentence(text: str) -> None:
    assert pin_facts("user", text) == [" ".join(text.split())]


@pytest.mark.parametrize("text", NOT_PINNED)
def test_what_is_not_a_stated_fact_is_not_pinned(text: str) -> None:
    assert pin_facts("user", text) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("My son is allergic to peanuts, which pastries are safe?", "My son is allergic to peanuts."),
        ("I'm diabetic; what dessert can I make?", "I'm diabetic."),
        ("She takes lisinopril 10 mg - can she drink grapefruit juice?", "She takes lisinopril 10 mg."),
    ],
)
def test_a_health_fact_stated_inside_a_question_is_pinned_as_its_clause(text: str, fact: str) -> None:
    assert pin_facts("user", text) == [fact]


@pytest.mark.parametrize(
    "text",
    [
        "Do you think my son is allergic to peanuts, or is it eggs?",  # asked, not stated
        "If my son is allergic to peanuts, which pastries are safe?",  # a hypothetical
        "People who are allergic to nuts, what do they eat?",  # no one in particular
        "Hi, what about Sintra?",
    ],
)
def test_a_question_that_states_no_fact_of_its_own_is_not_pinned(text: str) -> None:
    assert pin_facts("user", text) == []


@pytest.mark.parametrize("role", ["assistant", "system", "tool"])
def test_only_the_user_states_facts(role: str) -> None:
    assert pin_facts(role, "Noted: Rosa is allergic to penicillin. Remember that.") == []


def test_only_the_fact_sentences_of_a_message_are_kept_each_once() -> None:
    text = (
        "Hi there!  I'm allergic   to penicillin. Can you plan a week of dinners? "
        "i'm allergic to penicillin!\nMy name is Ana."
    )
    assert pin_facts("user", text) == ["I'm allergic to penicillin.", "My name is Ana."]
    curly = "I’m allergic to penicillin."
    assert pin_facts("user", curly) == ["I'm allergic to penicillin."]


def test_a_huge_message_is_read_only_up_to_the_scan_limit() -> None:
    filler = "Some words about the weather and nothing else. " * (MAX_SCAN_CHARS // 40)
    assert pin_facts("user", filler + "I'm allergic to penicillin.") == []
    huge = "I'm allergic to penicillin. " + filler * 200  # ~1 MB
    assert pin_facts("user", huge) == ["I'm allergic to penicillin."]


def test_one_message_yields_at_most_a_few_pins() -> None:
    text = " ".join(f"My name is Person{i}." for i in range(MAX_FACTS_PER_MESSAGE + 3))
    facts = pin_facts("user", text)
    assert facts == [f"My name is Person{i}." for i in range(MAX_FACTS_PER_MESSAGE)]


def test_a_long_sentence_is_clipped() -> None:
    (fact,) = pin_facts("user", "I'm allergic to " + "and ".join(["penicillin "] * 80) + ".")
    assert len(fact) <= 200 and fact.endswith("…")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("I'm allergic to penicillin.", "i'm  ALLERGIC to penicillin"),
        ("My name is Ana!", "my name is ana…"),
        ("Straße", "STRASSE"),
    ],
)
def test_the_key_ignores_case_spacing_and_trailing_punctuation(a: str, b: str) -> None:
    assert pin_key(a) == pin_key(b)


# --- the store ----------------------------------------------------------------------------


def test_a_user_message_pins_its_fact_with_it(store: MemoryStore, session) -> None:
    m = store.add_message(session.id, "user", "Hi! I'm allergic to penicillin. What can I take?")
    (p,) = store.get_pins(session.id)
    assert (p.content, p.kind, p.importance_score, p.source_message_id) == (
        "I'm allergic to penicillin.",
        "auto",
        0.6,
        m.id,
    )
    assert p.token_count == store.count_tokens(p.content)
    store.add_message(session.id, "assistant", "Noted: you are allergic to penicillin.")
    assert len(store.get_pins(session.id)) == 1


@pytest.mark.parametrize("query", [None, "What can I take for a headache?"])
def test_a_fact_pinned_with_its_message_is_in_the_next_context(db_path: Path, query) -> None:
    # The pins a context shows are kept read (SessionMemo.pins) across writes that add
    # messages alone; one that pins a fact with its message must show the pin next, in
    # every session when the fact is the user's (a health fact: ``user_auto_pins``).
    with MemoryStore(db_path, config={"cache_ttl": 0}) as store:
        s, other = store.create_session(), store.create_session()
        for sid in (s.id, other.id):
            notes = [{"role": "user", "text": f"Note {n} on the trip."} for n in range(12)]
            store.add_messages(sid, notes)
            assert store.build_context(sid, query=query).pins == ()
        store.add_message(s.id, "user", "How far is the coast from here?")  # no fact
        assert store.build_context(s.id, query=query).pins == ()
        store.add_message(s.id, "user", "I'm allergic to penicillin.")
        for sid in (s.id, other.id):
            shown = [p.content for p in store.build_context(sid, query=query).pins]
            assert shown == ["I'm allergic to penicillin."]
        store.add_messages(other.id, [{"role": "user", "text": "My flight number is BA 117."}])
        shown = [p.content for p in store.build_context(other.id, query=query).pins]
        assert "My flight number is BA 117." in shown


def test_a_stated_fact_scores_at_least_its_pins_importance(store: MemoryStore, session) -> None:
    # The origin's heuristics alone: the allergy 0.5 like "ok", a vague question 0.7.
    said = {
        text: store.add_message(session.id, "user", text).importance_score
        for text in ("ok", "What about Sintra?", "My son is allergic to peanuts.")
    }
    assert said == {"ok": 0.5, "What about Sintra?": 0.7, "My son is allergic to peanuts.": 0.6}
    asked = "My son is allergic to peanuts, which pastries are safe?"  # 0.7 already: kept
    assert store.add_message(session.id, "user", asked).importance_score == 0.7
    batch = store.add_messages(
        session.id, [{"role": "user", "text": "I'm vegan."}, {"role": "user", "text": "ok"}]
    )
    assert [m.importance_score for m in batch] == [0.6, 0.5]
    (item,) = store.add_items(session.id, "k", [({"role": "user", "text": "I'm on insulin."}, "{}")])
    assert item.importance_score == 0.6
    assert store.get_messages(session.id)[2].importance_score == 0.6  # as stored


def test_a_stated_fact_scores_the_configured_auto_pin_importance(db_path: Path) -> None:
    with MemoryStore(db_path, config={"auto_pin_importance": 0.9}) as store:
        s = store.create_session()
        assert store.add_message(s.id, "user", "I'm allergic to penicillin.").importance_score == 0.9
    with MemoryStore(db_path, config={"auto_pins": False}) as store:
        s = store.create_session()
        assert store.add_message(s.id, "user", "I'm allergic to penicillin.").importance_score == 0.5


def _issued(seen: list[str]) -> list[str]:
    """The statements localmem issued: the INSERTs' triggers (the search index, m012)
    are traced too, as FTS5's own "--" statements and the INSERT's text again as each
    trigger program runs."""
    out: list[str] = []
    for s in seen:
        if not s.startswith("--") and (not out or out[-1] != s):
            out.append(s)
    return [s.split()[0] for s in out]


def test_the_fast_path_stays_one_statement(store: MemoryStore, session) -> None:
    # FTS5 reads each index's config once per connection, at its first insert: on every
    # reopened file (before m017 too), and on a fresh one since m017 altered a table; a
    # connection's cost, not a message's, so each index is written once first
    store.add_message(session.id, "user", "Hello there.")
    store.add_message(session.id, "user", "I'm allergic to latex.")
    seen: list[str] = []
    store._db.conn.set_trace_callback(seen.append)
    store.add_message(session.id, "user", "How do I add an index to a table?")
    assert _issued(seen) == ["INSERT"]
    seen.clear()
    store.add_message(session.id, "user", "I'm allergic to penicillin.")
    assert _issued(seen) == ["BEGIN", "INSERT", "INSERT", "COMMIT"]
    store._db.conn.set_trace_callback(None)


def test_the_same_fact_is_pinned_once(store: MemoryStore, session) -> None:
    store.add_message(session.id, "user", "I'm allergic to penicillin.")
    store.add_messages(session.id, [{"role": "user", "text": "i'm allergic to penicillin!"}] * 2)
    store.add_items(session.id, "k", [({"role": "user", "text": "I'M ALLERGIC TO PENICILLIN"}, "{}")])
    (p,) = store.get_pins(session.id)
    assert p.content == "I'm allergic to penicillin."
    other = store.create_session()
    store.add_message(other.id, "user", "I'm allergic to penicillin.")
    assert len(store.get_pins(other.id)) == 1  # per session


def test_a_manual_pin_holds_the_fact_in_either_order(store: MemoryStore, session) -> None:
    manual = store.pin(session.id, "My name is Ana")
    store.add_message(session.id, "user", "My name is Ana.")
    assert store.get_pins(session.id) == [manual]
    store.add_message(session.id, "user", "My son is called Leo.")
    # pinned by hand afterwards: the manual pin replaces the auto one
    leo = store.pin(session.id, "my son is called Leo", importance=0.9)
    assert store.get_pins(session.id) == [leo, manual]
    assert store.pin(session.id, "My name is Ana.", kind="auto") == manual  # held already


def test_a_removed_auto_pin_stays_removed(store: MemoryStore, session) -> None:
    store.add_message(session.id, "user", "I'm allergic to penicillin.")
    (p,) = store.get_pins(session.id)
    store.unpin(p.id)
    store.add_messages(session.id, [{"role": "user", "text": "What about amoxicillin?"}])
    store.build_context(session.id)
    assert store.get_pins(session.id) == []
    store.add_message(session.id, "user", "Again: I'm allergic to penicillin.")
    assert [p.content for p in store.get_pins(session.id)] == ["Again: I'm allergic to penicillin."]


def test_the_context_shows_auto_pins_below_manual_ones(store: MemoryStore, session) -> None:
    store.add_message(session.id, "user", "My name is Ana.")
    store.pin(session.id, "Emergency contact: Luis, 555-0100.")
    ctx = store.build_context(session.id)
    assert [p.content for p in ctx.pins] == ["Emergency contact: Luis, 555-0100.", "My name is Ana."]
    system = ctx.to_messages()[0]["content"]
    assert system.index("Emergency contact") < system.index("My name is Ana.")


def test_a_failed_write_pins_nothing(store: MemoryStore, session) -> None:
    with pytest.raises(SessionNotFound):
        store.add_message("missing", "user", "I'm allergic to penicillin.")
    with pytest.raises(InvalidInput):
        store.add_messages(
            session.id, [{"role": "user", "text": "I'm allergic to penicillin."}, {"role": "x"}]
        )
    assert store.get_pins(session.id) == [] and store.get_messages(session.id) == []


def test_config_off_pins_nothing(db_path: Path) -> None:
    with MemoryStore(db_path, config={"auto_pins": False}) as store:
        s = store.create_session()
        store.add_message(s.id, "user", "I'm allergic to penicillin.")
        store.add_messages(s.id, [{"role": "user", "text": "My name is Ana."}])
        assert store.get_pins(s.id) == []


def test_auto_pin_importance_is_configurable(db_path: Path) -> None:
    with MemoryStore(db_path, config={"auto_pin_importance": 0.95}) as store:
        s = store.create_session()
        store.add_message(s.id, "user", "I'm allergic to penicillin.")
        assert store.get_pins(s.id)[0].importance_score == 0.95
    with pytest.raises(InvalidInput):
        MemoryStore(db_path, config={"auto_pin_importance": 1.5})


# --- listing and editing ----------------------------------------------------------------------


def test_list_by_kind_and_edit(store: MemoryStore, session) -> None:
    store.add_message(session.id, "user", "I'm allergic to penicillin.")
    manual = store.pin(session.id, "Prefers short answers.")
    (auto,) = store.get_pins(session.id, kind="auto")
    assert store.get_pins(session.id, kind="manual") == [manual]
    edited = store.update_pin(auto.id, content="Allergic to penicillin and amoxicillin.")
    assert edited.kind == "auto" and edited.importance_score == 0.6 and edited.id == auto.id
    assert edited.token_count == store.count_tokens(edited.content)
    assert store.get_pins(session.id, kind="auto") == [edited]
    assert store.update_pin(auto.id, importance=0.9).content == edited.content
    hits = store.search("amoxicillin", session_id=session.id)
    assert [(h.kind, h.id) for h in hits] == [("pin", auto.id)]
    # the fact as first stated is new again once its pin says something else
    store.add_message(session.id, "user", "I'm allergic to penicillin.")
    assert len(store.get_pins(session.id, kind="auto")) == 2


@pytest.mark.parametrize(
    ("pin_id", "changes", "error"),
    [
        (999, {"importance": 0.5}, NotFound),
        (None, {}, InvalidInput),
        (None, {"content": "  "}, InvalidInput),
        (None, {"importance": 1.5}, InvalidInput),
        (None, {"content": "My name is Ana"}, InvalidInput),  # another pin holds it
    ],
)
def test_bad_edits_change_nothing(store: MemoryStore, session, pin_id, changes, error) -> None:
    store.add_messages(
        session.id,
        [{"role": "user", "text": "I'm allergic to penicillin."}, {"role": "user", "text": "My name is Ana."}],
    )
    before = store.get_pins(session.id)
    target = next(p for p in before if p.content.startswith("I'm"))
    with pytest.raises(error):
        store.update_pin(target.id if pin_id is None else pin_id, **changes)
    assert store.get_pins(session.id) == before


def test_an_unknown_kind_is_refused(store: MemoryStore, session) -> None:
    with pytest.raises(InvalidInput):
        store.get_pins(session.id, kind="sticky")


# --- the local model ------------------------------------------------------------------------------

SPAN = [
    {"role": "user", "text": "We are planning Rosa's week; she lives with us now."},
    {"role": "assistant", "text": "Happy to help. Does she have any dietary needs?"},
    {"role": "user", "text": "She avoids shellfish, it makes her ill, and she walks with a cane."},
    *[
        {"role": "user" if i % 2 == 0 else "assistant", "text": f"Step {i}: nothing much happened."}
        for i in range(12)
    ],
]


def test_the_model_pins_what_must_be_remembered(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    fake.json_reply = {
        "key_facts": ["Rosa lives with the user"],
        "must_remember": [
            "Rosa avoids shellfish because it makes her ill",
            "Rosa walks with a cane",
            "Rosa is allergic to latex",  # never said: not grounded enough
            "The assistant offered to help",  # the assistant's words, not the user's
            42,
        ],
    }
    with MemoryStore(db_path, config={"structured_min_tokens": 0, "model_trust": "checked"}) as store:
        s = store.create_session(model="llama3.2")
        store.add_messages(s.id, SPAN)
        assert store.get_pins(s.id) == []  # no rule fires on this span
        summary = store.summarize(s.id)
        assert summary.source == "llama3.2:latest"
        pins = store.get_pins(s.id)
        named = store.get_messages(s.id)[0]  # "We are planning Rosa's week; ..."
        said = store.get_messages(s.id)[2]  # "She avoids shellfish, ... walks with a cane."
        assert sorted(p.content for p in pins) == [
            "Rosa avoids shellfish because it makes her ill",
            "Rosa walks with a cane",
        ]
        assert {(p.kind, p.importance_score) for p in pins} == {("auto", 0.6)}
        assert {p.source_message_id for p in pins} <= {named.id, said.id}
        facts_request = fake.json_requests()[-1]
        assert "must_remember" in facts_request["messages"][0]["content"]
        # Each pin is built from both user messages (Rosa's name, what she avoids)
        # and names both: forgetting either one forgets it.
        store.delete_message(named.id)
        assert store.get_pins(s.id) == []


def test_the_model_does_not_repeat_a_pinned_fact(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    fake.json_reply = {"must_remember": ["Rosa avoids shellfish, it makes her ill"]}
    with MemoryStore(db_path, config={"structured_min_tokens": 0}) as store:
        s = store.create_session(model="llama3.2")
        store.add_messages(s.id, SPAN)
        kept = store.pin(s.id, "Rosa avoids shellfish: it makes her ill.")
        store.summarize(s.id)
        assert store.get_pins(s.id) == [kept]


@pytest.mark.parametrize(
    "reply", [{"must_remember": "Rosa walks with a cane"}, {"must_remember": {"x": [1]}}, "nope"]
)
def test_a_faulty_answer_never_raises(db_path: Path, fake: JsonFake, reply) -> None:  # noqa: F811
    fake.json_reply = reply
    with MemoryStore(db_path, config={"structured_min_tokens": 0}) as store:
        s = store.create_session(model="llama3.2")
        store.add_messages(s.id, SPAN)
        assert store.summarize(s.id) is not None
        assert [p.content for p in store.get_pins(s.id)] in ([], ["Rosa walks with a cane"])


def test_config_off_asks_the_model_for_no_pins(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    fake.json_reply = {"must_remember": ["Rosa walks with a cane"]}
    with MemoryStore(db_path, config={"structured_min_tokens": 0, "auto_pins": False}) as store:
        s = store.create_session(model="llama3.2")
        store.add_messages(s.id, SPAN)
        store.summarize(s.id)
        assert store.get_pins(s.id) == []
    assert all("must_remember" not in r["messages"][0]["content"] for r in fake.json_requests())


# --- the migration ---------------------------------------------------------------------------------


def test_a_version_5_file_gains_keys_without_losing_a_pin(tmp_path: Path) -> None:
    insert_pin = (
        "INSERT INTO semantic_pins (session_id, content, importance_score, kind, token_count,"
        " created_at) VALUES ('s', ?, 0.6, ?, 5, 't')"
    )
    path = file_at_version(
        tmp_path / "v5.db",
        5,
        [
            ("INSERT INTO sessions VALUES ('s', NULL, NULL, 't', 't')", ()),
            (insert_pin, ("I'm allergic to penicillin.", "auto")),
            (insert_pin, ("i'm allergic  to penicillin", "auto")),  # the same fact: possible then
            (insert_pin, ("My name is Ana", "manual")),
        ],
    )
    with MemoryStore(path) as store:
        assert len(store.get_pins("s")) == 3
        store.add_message("s", "user", "My name is Ana. I'm allergic to penicillin!")
        assert len(store.get_pins("s")) == 3  # both facts were held already
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    keys = raw.execute("SELECT content_key FROM semantic_pins ORDER BY id").fetchall()
    assert keys == [("i'm allergic to penicillin",), (None,), ("my name is ana",)]
    with pytest.raises(sqlite3.IntegrityError):
        raw.execute(
            "INSERT INTO semantic_pins (session_id, content, content_key, importance_score, kind,"
            " token_count, created_at) VALUES ('s', 'x', 'i''m allergic to penicillin', 0.6,"
            " 'auto', 1, 't')"
        )


# --- the command line ------------------------------------------------------------------------------


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_cli_lists_edits_and_removes_pins(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    with MemoryStore(db) as store:
        s = store.create_session(session_id="s")
        store.add_message(s.id, "user", "I'm allergic to penicillin.")
        manual = store.pin(s.id, "Prefers short answers.")
        (auto,) = store.get_pins(s.id, kind="auto")
    code, out = run("pins", "s", "--db", db)
    assert code == 0
    assert out.splitlines() == [
        f"#{manual.id} manual (importance 0.8, {manual.token_count} tokens): Prefers short answers.",
        f"#{auto.id} user auto (importance 0.6, {auto.token_count} tokens): I'm allergic to penicillin.",
    ]  # a lasting health fact: the user's
    code, out = run("pins", "s", "--kind", "auto", "--json", "--db", db)
    assert [p["id"] for p in json.loads(out)] == [auto.id]
    code, out = run("edit-pin", str(auto.id), "--text", "Allergic to penicillin (hives).",
                    "--importance", "0.9", "--json", "--db", db)
    data = json.loads(out)
    assert code == 0 and data["content"] == "Allergic to penicillin (hives)."
    assert data["kind"] == "auto" and data["importance_score"] == 0.9
    code, out = run("unpin", str(manual.id), "--db", db)
    assert code == 0 and out.strip() == f"Removed pin #{manual.id}."
    code, out = run("pins", "s", "--kind", "manual", "--db", db)
    assert out == ""
    for args in (("unpin", str(manual.id)), ("edit-pin", str(auto.id)), ("pins", "missing")):
        result = CliRunner().invoke(cli, [*args, "--db", db])
        assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
        assert result.output.startswith("Error: ")
