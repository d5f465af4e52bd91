"""A user correcting what they just said (``localmem.corrections``): the corrected pin
stops asserting the wrong value in every context, the correction is kept in the user's
own words, forgetting either message undoes what it did, and no later path (a model's
facts read from the older messages) brings the wrong value back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from localmem import MemoryStore
from localmem.changes import CUE, TAKE_BACK
from localmem.corrections import CUE_WORDS, corrects, find_correction
from tests.test_checkpoint import JsonFake, fake  # noqa: F401 - the fixture


def current(store: MemoryStore, session_id: str | None) -> list[str]:
    return [p.content for p in store.get_pins(session_id)]


def context_text(store: MemoryStore, session_id: str, query: str | None = None) -> str:
    return json.dumps(store.build_context(session_id, query=query).to_messages())


@pytest.mark.parametrize(("text", "new", "old"), [
    ("Actually no, it's bluefox78.", {"bluefox78"}, set()),
    ("Sorry, typo. It's bluefox78.", {"bluefox78"}, set()),
    ("Sorry, I meant Tuesday.", {"tuesday"}, set()),
    ("I meant 20 mg, not 10 mg.", {"20"}, {"10"}),
    ("Correction: it's 20 mg, not 10.", {"20"}, {"10"}),
    ("No wait, not Monday, Tuesday.", {"tuesday"}, {"monday"}),
    ("Actually it's Ana, not Anna.", {"ana"}, {"anna"}),
    ("Oops, it should be 8:30.", {"8:30"}, set()),
    ("Sorry, make that 3 nights.", {"3"}, set()),
    ("Actually the dose is 20 mg.", {"20"}, set()),
])
def test_a_correction_is_read_with_its_new_and_old_values(text: str, new: set[str], old: set[str]) -> None:
    found = find_correction(text)
    assert found is not None
    assert {v for _, v in found.new} == new and {v for _, v in found.old} == old


@pytest.mark.parametrize("text", [
    "Actually, I have a question about Python.",  # no claim of a value
    "Sorry, it's late.",  # no value
    "Actually that's fine.",
    "Actually, is it Tuesday?",  # a question
    "I meant what I said.",
    "It's bluefox78.",  # no opening that says it corrects
    "Actually, that's the 3rd time this week I forgot to take it.",  # a new statement, not a value
    "Sorry for the late reply, it's been a busy week with 3 deadlines.",
])
def test_other_messages_correct_nothing(text: str) -> None:
    assert find_correction(text) is None


@pytest.mark.parametrize("words", TAKE_BACK.split("|"))
def test_the_words_that_take_back_what_was_said_open_a_correction_and_cue_a_change(words: str) -> None:
    text = f"{words.capitalize()}, it's 20 mg."
    found = find_correction(text)
    assert found is not None and found.new == {("number", "20")}
    assert words.split()[0] in CUE_WORDS  # the gate pins asks first lets it through
    assert CUE.search(text) is not None


def test_a_cue_of_change_that_takes_nothing_back_opens_no_correction() -> None:
    assert CUE.search("Now it's 20 mg.") is not None  # a value given in place of another
    assert find_correction("Now it's 20 mg.") is None  # but no slip owned up to


def test_a_correction_corrects_a_value_of_its_kind_or_the_value_it_names() -> None:
    day = find_correction("Sorry, I meant Tuesday.")
    assert day is not None
    assert corrects(day, "My appointment with Dr. Patel is on Monday at 10.")
    assert not corrects(day, "I'm allergic to penicillin.")
    assert not corrects(day, "My appointment is on Tuesday.")  # already says it
    dose = find_correction("I meant 20 mg, not 10 mg.")
    assert dose is not None
    assert corrects(dose, "I take lisinopril 10 mg every morning.")
    assert not corrects(dose, "I take metformin 500 mg twice a day.")


def test_a_corrected_fact_shows_the_correction_in_every_context(store: MemoryStore) -> None:
    s = store.create_session().id
    store.add_message(s, "user", "My wifi password is bluefox77.")
    store.add_message(s, "assistant", "Noted.")
    store.add_message(s, "user", "Actually no, it's bluefox78.")
    [pin] = store.get_pins(s)
    assert pin.content == 'My wifi password is bluefox77. (then corrected by the user: "Actually no, it\'s bluefox78.")'
    [old] = [p for p in store.get_pins(s, history=True) if p.superseded_at is not None]
    assert old.content == "My wifi password is bluefox77."
    assert "bluefox78" in context_text(store, s, query="what is my wifi password?")


@pytest.mark.parametrize("opening", ["Whoops", "My bad", "Oops", "My mistake", "Sorry", "No wait"])
def test_every_opening_a_correction_reads_corrects_a_pin_through_the_store(store: MemoryStore, opening: str) -> None:
    """The gate the store asks first (``CUE_WORDS``) lets every opening through that
    ``find_correction`` reads: "Whoops, it's 20 mg." and "My bad, ..." corrected nothing."""
    s = store.create_session().id
    store.add_message(s, "user", "I take lisinopril 10 mg every morning.")
    store.add_message(s, "user", f"{opening}, it's 20 mg.")
    [pin] = current(store, s)
    assert pin.startswith("I take lisinopril 10 mg every morning. (then corrected") and "20 mg" in pin


def test_a_bad_day_corrects_nothing(store: MemoryStore) -> None:
    s = store.create_session().id
    store.add_message(s, "user", "I take lisinopril 10 mg every morning.")
    store.add_message(s, "user", "Bad day, it's 20 degrees and raining.")  # no opening owns a slip
    assert current(store, s) == ["I take lisinopril 10 mg every morning."]


def test_a_correction_leaves_other_facts_of_the_message_alone(store: MemoryStore) -> None:
    s = store.create_session().id
    store.add_message(s, "user", "I'm allergic to penicillin. I take lisinopril 10 mg every morning.")
    store.add_message(s, "user", "Sorry, I meant 20 mg.")
    pins = current(store, s)
    assert "I'm allergic to penicillin." in pins
    assert any(p.startswith("I take lisinopril 10 mg every morning. (then corrected") for p in pins)


def test_a_message_that_is_no_correction_changes_no_pin(store: MemoryStore) -> None:
    s = store.create_session().id
    store.add_message(s, "user", "I take lisinopril 10 mg every morning.")
    store.add_message(s, "user", "Actually, that's the 3rd time this week I forgot to take it.")
    store.add_message(s, "user", "Sorry, I meant Tuesday.")  # no weekday in the pin
    assert current(store, s) == ["I take lisinopril 10 mg every morning."]


def test_forgetting_the_correction_restores_the_fact_and_forgetting_the_fact_removes_both(
    store: MemoryStore,
) -> None:
    s = store.create_session().id
    fact = store.add_message(s, "user", "My wifi password is bluefox77.")
    fix = store.add_message(s, "user", "Actually no, it's bluefox78.")
    store.delete_message(fix.id)
    assert current(store, s) == ["My wifi password is bluefox77."]
    fix = store.add_message(s, "user", "Actually no, it's bluefox78.")
    assert "bluefox78" in current(store, s)[0]
    store.delete_message(fact.id)
    assert current(store, s) == []
    assert "bluefox7" not in context_text(store, s).replace("Actually no, it's bluefox78.", "")


MODEL_CONFIG = {"summary_threshold": 4, "structured_min_tokens": 0, "model_trust": "checked"}  # the model's summary as the checks keep it (tests/test_earned.py: what "earned" shows)


def told_the_model(store: MemoryStore, *turns: tuple[str, str]) -> str:
    """A session of the fake local model holding ``turns`` (role, text): one range to summarize."""
    s = store.create_session(model="llama3.2").id
    store.add_messages(s, [{"role": role, "text": text} for role, text in turns])
    return s


@pytest.mark.parametrize("ending", [
    "Actually no, it's bluefox78. The door code is 4411.",
    "My new wifi password is bluefox78. The door code is 4411.",
])
def test_an_update_or_a_correction_holds_against_a_models_facts_read_from_older_messages(
    db_path: Path, fake: JsonFake, ending: str  # noqa: F811
) -> None:
    """The model summarizes a range holding both the old fact and what ended it, and names
    the old fact: it is not pinned again (only a later message saying it would), while
    its other facts are."""
    fake.json_reply = {"must_remember": ["My wifi password is bluefox77", "The door code is 4411"]}
    fake.reply = "The user's wifi password is bluefox78 and the door code is 4411."
    with MemoryStore(db_path, config=MODEL_CONFIG) as store:
        s = told_the_model(
            store, ("user", "My wifi password is bluefox77."), ("assistant", "Noted."),
            ("user", ending), ("assistant", "Got it."),
        )
        assert store.summarize(s).source == "llama3.2:latest"
        pins = current(store, s)
        assert "The door code is 4411" in pins
        assert [p for p in pins if "bluefox77" in p and "bluefox78" not in p] == []


def test_a_correction_while_the_model_is_thinking_holds(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    """The user corrects the value while the model summarizes the messages that gave it:
    the model's fact, read from before the correction, is refused when it would be stored
    (the check runs in the storing transaction)."""
    from tests.test_forget_race import race

    fake.json_reply = {"must_remember": ["My wifi password is bluefox77"]}
    fake.reply = "The wifi password is bluefox77."
    with MemoryStore(db_path, config=MODEL_CONFIG) as store:
        s = told_the_model(
            store, ("user", "My wifi password is bluefox77."),
            ("assistant", "Noted. Let me check the router."),
            ("tool", "router: online, firmware 2.1"), ("assistant", "Your router is online."),
        )
        [summary] = race(fake, lambda: store.summarize(s),
                         lambda: store.add_message(s, "user", "Actually no, it's bluefox78."))
        assert summary is not None and summary.source == "llama3.2:latest"
        [pin] = store.get_pins(s)
        assert pin.content.endswith('(then corrected by the user: "Actually no, it\'s bluefox78.")')
