"""Memory that follows the user across chats and stays current (issue 13, points 1-4):
facts of the user's seen by every session, recall across sessions, facts superseded by
newer ones and kept in history, and the report of what is remembered."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from localmem import MemoryStore
from localmem.cli import cli
from localmem.errors import InvalidInput, NotFound
from localmem.updates import ended, find_update
from tests.test_checkpoint import JsonFake, fake  # noqa: F401  (the JSON-mode fake server)

PEANUTS = "My son Leo is allergic to peanuts."


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.output


# --- scopes ------------------------------------------------------------------------------


def test_a_lasting_fact_told_on_monday_is_known_on_tuesday(store: MemoryStore) -> None:
    monday = store.create_session(title="Monday")
    said = store.add_message(monday.id, "user", f"{PEANUTS} Any ideas for his party?")
    tuesday = store.create_session(title="Tuesday")
    (fact,) = store.get_pins(tuesday.id)
    assert fact.content == PEANUTS and fact.scope == "user" and fact.source_message_id == said.id
    system = store.build_context(tuesday.id).to_messages()[0]["content"]
    assert PEANUTS in system
    assert store.get_pins(None) == [fact]  # the user's facts alone


def test_session_bound_facts_stay_in_their_session(store: MemoryStore) -> None:
    trip = store.create_session()
    store.add_message(trip.id, "user", "Our flight is on March 3rd at 9am.")
    other = store.create_session()
    assert [p.scope for p in store.get_pins(trip.id)] == ["session"]
    assert store.get_pins(other.id) == []


def test_the_config_can_keep_lasting_facts_per_session(db_path: Path) -> None:
    with MemoryStore(db_path, config={"user_auto_pins": False}) as store:
        a, b = store.create_session(), store.create_session()
        store.add_message(a.id, "user", PEANUTS)
        assert [p.scope for p in store.get_pins(a.id)] == ["session"]
        assert store.get_pins(b.id) == []


def test_pin_none_or_scope_user_and_every_context_sees_it(store: MemoryStore) -> None:
    a, b = store.create_session(), store.create_session()
    store.build_context(a.id)
    store.build_context(b.id)  # both cached: a fact of the user's must reach both
    mine = store.pin(None, "Call me Sam.", importance=0.9)
    also = store.pin(a.id, "I live in Leeds.", scope="user")
    local = store.pin(a.id, "This chat is about the car.")
    assert mine.session_id is None and also.session_id is None and local.session_id == a.id
    assert store.get_pins(b.id) == [mine, also]
    assert "Call me Sam." in store.build_context(b.id).to_messages()[0]["content"]
    assert [p.id for p in store.get_pins(a.id)] == [mine.id, local.id, also.id]
    store.unpin(mine.id)
    assert "Call me Sam." not in str(store.build_context(b.id).to_messages())
    store.update_pin(also.id, content="I live in York.")
    assert "I live in York." in store.build_context(b.id).to_messages()[0]["content"]
    with pytest.raises(InvalidInput, match="needs a session"):
        store.pin(None, "x", scope="session")
    with pytest.raises(InvalidInput, match="scope"):
        store.pin(a.id, "x", scope="everyone")
    with pytest.raises(NotFound):
        store.unpin(10_000)


def test_duplicates_are_caught_across_scopes(store: MemoryStore) -> None:
    a, b = store.create_session(), store.create_session()
    store.add_message(a.id, "user", PEANUTS)
    store.add_message(b.id, "user", PEANUTS)  # the user has it already: not again
    store.add_message(a.id, "user", PEANUTS.upper())
    assert [p.content for p in store.get_pins(b.id)] == [PEANUTS]
    manual = store.pin(b.id, PEANUTS.lower())  # pinned by hand: it replaces the automatic one
    assert store.get_pins(a.id) == [] and store.get_pins(b.id) == [manual]


def test_migration_moves_nothing(tmp_path: Path) -> None:
    from tests.old_files import file_at_version

    stamp = "2026-01-01T00:00:00.000Z"
    path = file_at_version(
        tmp_path / "old.db",
        7,  # before automatic pins and scopes: a pin is a session's
        [
            ("INSERT INTO sessions VALUES ('s', 't', NULL, ?, ?)", (stamp, stamp)),
            (
                "INSERT INTO semantic_pins (session_id, content, source_message_id, "
                "importance_score, kind, token_count, created_at) "
                "VALUES ('s', 'I am allergic to cats', NULL, 0.6, 'auto', 6, ?)",
                (stamp,),
            ),
        ],
    )
    with MemoryStore(path) as store:
        (pin,) = store.get_pins("s")
        assert pin.session_id == "s" and pin.content == "I am allergic to cats"
        other = store.create_session()
        assert store.get_pins(other.id) == []
        assert [h.id for h in store.search("cats", session_id="s")] == [pin.id]


def test_a_fact_pinned_by_one_process_is_in_the_next_context_of_another(db_path: Path) -> None:
    with MemoryStore(db_path, config={"cache_ttl": 60}) as app:
        chat = app.create_session()
        assert app.build_context(chat.id).pins == ()
        other_process = (
            "import sys; from localmem import MemoryStore\n"
            "with MemoryStore(sys.argv[1]) as st:\n"
            "    s = st.create_session()\n"
            "    st.add_message(s.id, 'user', sys.argv[2])\n"
        )
        subprocess.run([sys.executable, "-c", other_process, str(db_path), PEANUTS], check=True)
        assert [p.content for p in app.build_context(chat.id).pins] == [PEANUTS]


# --- recall across sessions ---------------------------------------------------------------


def landlord_history(store: MemoryStore) -> tuple[str, str]:
    old = store.create_session(title="Flat troubles")
    fact = store.add_message(old.id, "user", "The landlord said the boiler gets fixed by the 14th.")
    store.add_messages(old.id, [{"role": "assistant", "text": f"Noted {i}."} for i in range(10)])
    new = store.create_session(title="New week")
    store.add_messages(new.id, [{"role": "user", "text": f"Hello again {i}"} for i in range(10)])
    return new.id, fact.text


def test_recall_across_sessions_is_off_by_default(store: MemoryStore) -> None:
    new, fact = landlord_history(store)
    ctx = store.build_context(new, query="What did I tell you about the landlord?")
    assert fact not in str(ctx.to_messages())


def test_recall_across_sessions_marks_where_and_when(db_path: Path) -> None:
    with MemoryStore(db_path, config={"recall_scope": "user"}) as store:
        new, fact = landlord_history(store)
        ctx = store.build_context(new, query="What did I tell you last week about the landlord?")
        (found,) = [m for m in ctx.relevant_messages if m.text == fact]
        assert found.session_id != new
        system = ctx.to_messages()[0]["content"]
        assert f'{found.created_at[:10]}, chat "Flat troubles":\nuser: {fact}' in system
        assert ctx.total_tokens <= ctx.max_tokens
        assert sum(store.count_tokens(m["content"]) for m in ctx.to_messages()) <= ctx.max_tokens


def test_recall_across_sessions_names_an_untitled_chat_by_when_it_began(db_path: Path) -> None:
    with MemoryStore(db_path, config={"recall_scope": "user"}) as store:
        current, fact = landlord_history(store)
        untitled = store.create_session()
        other = store.add_message(untitled.id, "user", "The landlord also wants the spare key back.")
        ctx = store.build_context(current, query="What did the landlord say about the boiler and key?")
        system = ctx.to_messages()[0]["content"]
        begun = untitled.created_at[:10]
        assert f'{begun}, chat "untitled, begun {begun}":\nuser: {other.text}' in system
        assert ctx.session_titles[untitled.id] == f"untitled, begun {begun}"
        assert fact in system and '"Flat troubles"' in system  # the titled one keeps its title


# --- facts stay current ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "update", "slot"),
    [
        ("Remember that the wifi password at home is heron-42.", "My new wifi password is heron-77.",
         "wifi password"),
        ("Remember that I live in Bristol.", "We moved to Leeds last month.", "home"),
        ("She takes lisinopril 10 mg every morning.", "She no longer takes lisinopril.", "lisinopril"),
        ("She takes ibuprofen 200 mg every day.", "She doesn't take ibuprofen anymore.", "ibuprofen"),
        ("Remember that my dog gets half an aspirin on bad days.", "OK, no more aspirin.", "aspirin"),
        ("Remember that she is on prednisone for her ear.", "She was on prednisone, finished it last week.", "prednisone"),
        ("Remember that he takes amoxicillin twice a day.", "We finished the amoxicillin today.", "amoxicillin"),
    ],
)
def test_an_update_supersedes_the_old_fact(store: MemoryStore, first, update, slot) -> None:
    s = store.create_session()
    store.add_message(s.id, "user", first)
    (old,) = store.get_pins(s.id)
    store.add_message(s.id, "user", update)
    current = store.get_pins(s.id)
    assert [p.content for p in current] == [update]
    assert current[0].slot == slot
    chain = [p for p in store.get_pins(s.id, history=True) if p.slot == slot]
    assert [p.content for p in chain] == [first, update]
    assert chain[0].superseded_at is not None and chain[1].superseded_at is None
    system = store.build_context(s.id).to_messages()[0]["content"]
    assert update in system and first not in system.split("[Pinned facts]")[1]


@pytest.mark.parametrize(
    "sentence",
    [
        "What if we moved to Leeds?",
        "My sister moved to Leeds.",
        "I love my new bike.",
        "If my new wifi password is long, will it work?",
        "I don't eat gluten.",  # a constraint, not a change
        "There's no more milk in the fridge.",  # ran out: nobody stopped it
        "No more than two tablets a day.",  # a limit
        "Just finished my first 5k!",  # finished, but no medicine
        "I finished work early today.",
        "I finished it.",  # nothing named
        "My laptop stopped working.",  # stopped, but no medicine
        "He got the car, then stopped it.",
    ],
)
def test_not_every_change_is_an_update(sentence: str) -> None:
    assert find_update(sentence) is None


def test_pins_history_in_the_cli(tmp_path: Path) -> None:
    db = str(tmp_path / "h.db")
    with MemoryStore(db) as store:
        s = store.create_session(session_id="s")
        store.add_message(s.id, "user", "Remember that I live in Bristol.")
        store.add_message(s.id, "user", "We moved to Leeds last month.")
    code, out = run("pins", "s", "--db", db)
    assert code == 0 and "Leeds" in out and "Bristol" not in out
    code, out = run("pins", "s", "--history", "--db", db)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2
    assert "Bristol" in lines[0] and "no longer holds since" in lines[0] and "Leeds" in lines[1]


# --- what is remembered ------------------------------------------------------------------------


def test_the_memory_report_says_what_and_where_from(tmp_path: Path) -> None:
    db = str(tmp_path / "r.db")
    with MemoryStore(db) as store:
        monday = store.create_session(title="Monday")
        said = store.add_message(monday.id, "user", PEANUTS)
        store.add_message(monday.id, "user", "Remember that I live in Bristol.")
        store.add_message(monday.id, "user", "We moved to Leeds last month.")
        manual = store.pin(monday.id, "Answer briefly.")
        report = store.memory_report()
    (peanuts,) = [f for f in report.user_facts if f.pin.content == PEANUTS]
    assert peanuts.status == "current" and peanuts.pin.kind == "auto"
    assert (peanuts.source_session_id, peanuts.source_session_title) == (monday.id, "Monday")
    assert peanuts.said_at == said.created_at
    statuses = {f.pin.content: f.status for f in report.user_facts}
    assert statuses["We moved to Leeds last month."] == "current"
    (chat,) = report.sessions
    facts = {f.pin.content: f for f in chat.facts}
    assert facts["Answer briefly."].pin == manual
    assert facts["Remember that I live in Bristol."].status == "superseded"
    text = report.to_text()
    assert PEANUTS in text and "caught automatically from a message of" in text
    assert "'Monday'" in text and "no longer holds since" in text and "pinned by hand" in text
    code, out = run("memory", "--db", db)
    assert code == 0 and out.splitlines()[1:] == text.splitlines()[1:]  # the time aside
    code, out = run("memory", "--json", "--db", db)
    data = json.loads(out)
    assert code == 0 and PEANUTS in [f["pin"]["content"] for f in data["user_facts"]]


@pytest.mark.parametrize(
    ("item", "later", "is_ended"),
    [
        ("Biscuit gets half a baby aspirin on bad days", ["He gets aspirin.", "OK, no more aspirin."], True),
        ("Biscuit is on prednisone", ["He was on prednisone, finished it last week. Wait 5 days after the prednisone."], True),
        ("She takes metformin", ["She stopped taking metformin in May."], True),
        ("Biscuit no longer gets aspirin", ["OK, no more aspirin."], False),  # the item tells it
        ("Biscuit was on prednisone for an ear infection", ["He finished the prednisone."], False),
        ("Biscuit takes carprofen 75 mg", ["OK, no more aspirin."], False),  # another medicine
        ("Biscuit gets aspirin", ["No more aspirin.", "The vet put him back on aspirin."], False),  # going on again
        ("I drink coffee at 4pm", ["There's no more coffee in the house."], False),
    ],
)
def test_a_thing_the_user_stopped_is_no_current_fact(item: str, later: list[str], is_ended: bool) -> None:
    assert ended(item, later) is is_ended


FILLER = [
    {"role": "user" if i % 2 == 0 else "assistant", "text": f"Step {i}: nothing much happened."}
    for i in range(13)
]
"""Turns that fill a span up to a summary's size."""

STOP_SPAN = [
    {"role": "user", "text": "He also gets half a baby aspirin on bad days."},
    {"role": "assistant", "text": "Please stop the aspirin once he is on carprofen."},
    {"role": "user", "text": "OK, no more aspirin. He starts carprofen 75 mg on Monday."},
    *FILLER,
]


def test_a_models_pin_of_a_medicine_stopped_later_is_not_kept(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    """The model pins the aspirin the user stopped two messages later; the carprofen that
    goes on is pinned."""
    fake.json_reply = {
        "must_remember": ["Biscuit gets half a baby aspirin on bad days", "He starts carprofen 75 mg on Monday"],
        "key_facts": ["He gets half a baby aspirin on bad days", "He starts carprofen 75 mg on Monday"],
    }
    with MemoryStore(db_path, config={"structured_min_tokens": 0, "model_trust": "checked"}) as store:
        s = store.create_session(model="llama3.2")
        store.add_messages(s.id, STOP_SPAN)
        assert store.summarize(s.id).source == "llama3.2:latest"
        current = [p.content for p in store.get_pins(s.id)]
        assert "He starts carprofen 75 mg on Monday" in current
        assert not [p for p in current if "aspirin" in p and "no more" not in p]
        (facts,) = store.get_summary_facts(s.id)
        assert "He starts carprofen 75 mg on Monday" in facts.data.key_facts
        assert "He gets half a baby aspirin on bad days" not in facts.data.key_facts


# --- export and import --------------------------------------------------------------------------


def test_the_users_facts_travel_with_the_session_they_were_learnt_in(tmp_path: Path) -> None:
    with MemoryStore(tmp_path / "a.db") as store:
        s = store.create_session()
        store.add_message(s.id, "user", PEANUTS)
        lines = list(store.export_sessions())
    with MemoryStore(tmp_path / "b.db") as copy:
        copy.import_sessions(lines)
        (fact,) = copy.get_pins(None)
        assert fact.content == PEANUTS and fact.source_message_id is not None
        copy.import_sessions(lines, rename=True)  # the user has it already: not twice
        assert len(copy.get_pins(None)) == 1


# --- the local model's updates (JSON mode, grounded in the user's words) ------------------------

MOVE_SPAN = [
    {"role": "user", "text": "Some news: the family is settled in Leeds since March."},
    {"role": "assistant", "text": "That's exciting! How is the new place?"},
    *FILLER,
]


def test_the_model_supersedes_what_the_rules_cannot_read(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    """No rule reads "the family is settled in Leeds" as a move; the model says it
    replaces "I live in Bristol", grounded in the user's own words."""
    fake.json_reply = {
        "updates": [
            {"new": "The family is settled in Leeds since March", "old": "I live in Bristol"},
            {"new": "The user moved to Paris", "old": "I live in Bristol"},  # never said
            {"new": "", "old": "anything"},
            "not an object",
        ]
    }
    with MemoryStore(db_path, config={"structured_min_tokens": 0, "model_trust": "checked"}) as store:
        s = store.create_session(model="llama3.2")
        store.add_message(s.id, "user", "Remember that I live in Bristol.")
        (bristol,) = store.get_pins(s.id)
        store.add_messages(s.id, MOVE_SPAN)
        assert store.summarize(s.id).source == "llama3.2:latest"
        assert [p.content for p in store.get_pins(s.id)] == ["The family is settled in Leeds since March"]
        history = {p.content: p for p in store.get_pins(s.id, history=True)}
        assert history[bristol.content].superseded_at is not None
        assert history[bristol.content].slot == history["The family is settled in Leeds since March"].slot
    assert '"updates"' in fake.json_requests()[-1]["messages"][0]["content"]


def test_a_model_update_matching_no_pin_supersedes_nothing(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    fake.json_reply = {"updates": [{"new": "The family is settled in Leeds", "old": "my old job"}]}
    with MemoryStore(db_path, config={"structured_min_tokens": 0}) as store:
        s = store.create_session(model="llama3.2")
        store.add_message(s.id, "user", "Remember that I live in Bristol.")
        store.add_messages(s.id, MOVE_SPAN)
        store.summarize(s.id)
        current = [p.content for p in store.get_pins(s.id)]
        assert "Remember that I live in Bristol." in current
