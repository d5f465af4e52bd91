"""What a model's facts must be by their structure before they are kept (issue 21, point 4;
the checks that make ``facts_apart`` safer): a key fact or a pin is more than a measure
("50 minutes": of what?); a decision is an act chosen, not a reaction ("Love it"); a line
the user wrote as a draft is no fact about them; an update is about the same thing as what
it replaces. Each rule with a case it refuses and one it keeps; conversations written for
these tests; the model is the fake Ollama server over a real socket."""

from __future__ import annotations

from pathlib import Path

from localmem import MemoryStore
from localmem.entities import a_measure
from localmem.facts import ModelFacts
from localmem.remember import model_updates, must_remember
from localmem.testimony import user_evidence
from tests.test_checkpoint import JsonFake, fake  # noqa: F401 - the fixture

COMMUTE = [
    ("user", "My interview is at 14:00. The bus takes about 40 minutes, so I'll leave at 13:00."),
    ("assistant", "Good plan. Bring a printed copy of your CV."),
    ("user", "Love it. I'll print two copies of the CV tonight."),
    ("assistant", "Great. Change of plan on your side?"),
    ("user", "Change of plan: I'll take the tram instead of the bus."),
    ("assistant", "The tram is more reliable at that hour."),
    ("user", "I really like the tram anyway."),
    ("assistant", "Good luck!"),
]


def test_a_measure_alone_is_no_fact() -> None:
    assert a_measure("40 minutes") and a_measure("two hours") and a_measure("75 mg")
    assert not a_measure("40 minutes by bus")  # what lasts it is said
    assert not a_measure("24 species") and not a_measure("4 avocados")  # what is counted
    assert not a_measure("Postgres 14") and not a_measure("The bus takes about 40 minutes")


def test_a_measure_and_a_reaction_are_refused_through_the_store(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    fake.reply = "The user's interview is at 14:00; they take the tram and print two copies of the CV tonight."
    fake.json_reply = {
        "key_facts": ["40 minutes", "The bus takes about 40 minutes"],
        "decisions": ["Love it", "Change of plan", "I really like the tram", "print two copies of the CV tonight",
                      "take the tram instead of the bus"],
    }
    with MemoryStore(db_path, config={"summary_threshold": 8, "structured_min_tokens": 0, "model_trust": "checked"}) as store:
        s = store.create_session(model="llama3.2").id
        store.add_messages(s, [{"role": r, "text": t} for r, t in COMMUTE])
        store.summarize(s)
        (facts,) = store.get_summary_facts(s)
    assert "40 minutes" not in facts.data.key_facts
    assert "The bus takes about 40 minutes" in facts.data.key_facts
    assert not {"Love it", "Change of plan", "I really like the tram"} & set(facts.data.decisions)
    assert {"print two copies of the CV tonight", "take the tram instead of the bus"} <= set(facts.data.decisions)


POEM = [
    ("user", "I'm writing a poem for my grandfather. He kept bees for forty years."),
    ("assistant", "A lovely subject. Do you have an opening line?"),
    ("user", "Here's my first line: 'He kept the hives where the clover grows.'"),
    ("assistant", "That scans well."),
]


def test_a_line_the_user_drafted_is_no_pin() -> None:
    answer = ModelFacts(must_remember=["He kept the hives where the clover grows.", "grandfather kept bees for forty years"])
    assert must_remember(answer, user_evidence(POEM)) == ["grandfather kept bees for forty years"]


ROUTER = [
    ("user", "Our wifi password is bluefox77 and the router sits in the hall."),
    ("assistant", "Noted."),
    ("user", "We moved the router to the study. I also changed it: the new wifi password is amberlake42."),
    ("user", "The printer still needs the new password."),
]


def test_an_update_is_about_what_it_replaces() -> None:
    answer = ModelFacts(updates=[
        {"new": "amberlake42", "old": "bluefox77"},  # one value for another, both the wifi password's
        {"new": "router in the study", "old": "the router sits in the hall"},  # a word in common
        {"new": "amberlake42", "old": "hall"},  # two things
        {"new": "The printer still needs the new password", "old": "router in the hall"},  # two things
    ])
    assert model_updates(answer, user_evidence(ROUTER)) == [
        ("amberlake42", "bluefox77"), ("router in the study", "the router sits in the hall"),
    ]


HOME = [
    ("user", "I live in Bristol, near the harbour."),
    ("assistant", "Noted."),
    ("user", "Some news: we're settled in Leeds since March. I bought a rail pass for the Dales trip."),
]


def test_one_named_thing_for_another_is_an_update() -> None:
    answer = ModelFacts(updates=[
        {"new": "settled in Leeds since March", "old": "I live in Bristol"},  # one place for another
        {"new": "bought a rail pass for the Dales trip", "old": "near the harbour"},  # no name on the old side
    ])
    assert model_updates(answer, user_evidence(HOME)) == [("settled in Leeds since March", "I live in Bristol")]
