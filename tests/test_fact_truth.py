"""The user's facts tell the truth (issue 21, point 4): a model's fact or update is kept
only when the user's own words support it, negation and all; forgetting an update
brings back what it ended; a fact the user removed stays removed until said again;
an import makes no fact of the user's out of a record without a source; a fact and its
update are learnt alike. The local model is the fake Ollama server over a real socket."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from localmem import MemoryStore
from tests.test_checkpoint import JsonFake, fake  # noqa: F401 - the fixture

CONFIG = {"summary_threshold": 4, "structured_min_tokens": 0, "model_trust": "checked"}  # the model's summary as the checks keep it (tests/test_earned.py: what "earned" shows)


def current(store: MemoryStore, session_id: str | None) -> list[str]:
    return [p.content for p in store.get_pins(session_id)]


def context_text(store: MemoryStore, session_id: str) -> str:
    return json.dumps(store.build_context(session_id).to_messages())


def test_a_tools_output_never_ends_the_users_allergy(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    """The issue's reproduction: the model's update negates the user's words, after a tool
    output said so; the user's allergy stays, in every chat."""
    fake.json_reply = {
        "must_remember": ["I am no longer allergic to penicillin"],
        "updates": [{"new": "I am no longer allergic to penicillin", "old": "allergic to penicillin"}],
    }
    with MemoryStore(db_path, config=CONFIG) as store:
        s = store.create_session(model="llama3.2").id
        store.add_messages(s, [
            {"role": "user", "text": "I'm allergic to penicillin."},
            {"role": "assistant", "text": "Noted. Let me check your pharmacy record."},
            {"role": "tool", "text": "Pharmacy record: no allergies on file; not allergic to penicillin."},
            {"role": "assistant", "text": "The record shows no allergy on file."},
        ])
        assert store.summarize(s) is not None
        other = store.create_session().id
        assert current(store, other) == ["I'm allergic to penicillin."]
        assert all(p.superseded_at is None for p in store.get_pins(None, history=True))
        assert "no longer" not in context_text(store, other)


def test_the_users_own_words_do_end_it(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    fake.json_reply = {
        "updates": [{"new": "I am no longer allergic to penicillin", "old": "allergic to penicillin"}],
    }
    with MemoryStore(db_path, config=CONFIG) as store:
        s = store.create_session(model="llama3.2").id
        store.add_messages(s, [
            {"role": "user", "text": "I'm allergic to penicillin."},
            {"role": "assistant", "text": "Noted."},
            {"role": "user", "text": "Update: the skin test was negative, I'm no longer allergic to penicillin."},
            {"role": "assistant", "text": "Good news, noted."},
        ])
        assert store.summarize(s) is not None
        assert current(store, s) == ["I am no longer allergic to penicillin"]
        [old] = [p for p in store.get_pins(s, history=True) if p.superseded_at is not None]
        assert old.content == "I'm allergic to penicillin."


def test_forgetting_an_update_brings_back_what_it_ended(store: MemoryStore) -> None:
    s = store.create_session().id
    store.add_message(s, "user", "I take lisinopril 10 mg every morning.")
    update = store.add_message(s, "user", "I no longer take lisinopril.")
    assert current(store, s) == ["I no longer take lisinopril."]
    store.delete_message(update.id)
    assert current(store, s) == ["I take lisinopril 10 mg every morning."]
    assert "lisinopril 10 mg" in context_text(store, s)
    assert all(p.superseded_at is None for p in store.get_pins(s, history=True))


def test_unpinning_an_update_leaves_what_it_ended_in_history(store: MemoryStore) -> None:
    """The update's message still says it: removing the update's pin restores nothing."""
    s = store.create_session().id
    store.add_message(s, "user", "I take lisinopril 10 mg every morning.")
    store.add_message(s, "user", "I no longer take lisinopril.")
    [now] = store.get_pins(s)
    store.unpin(now.id)
    assert current(store, s) == []


def test_a_removed_fact_stays_removed_until_said_again(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    fake.json_reply = {"must_remember": ["I'm allergic to penicillin"]}
    with MemoryStore(db_path, config=CONFIG) as store:
        s = store.create_session(model="llama3.2").id
        store.add_messages(s, [
            {"role": "user", "text": "I'm allergic to penicillin."},
            {"role": "assistant", "text": "Noted."},
            {"role": "user", "text": "Also the garden needs watering."},
            {"role": "assistant", "text": "Sure."},
        ])
        fake.mode = "error500"
        assert store.summarize(s).source == "fallback"  # a summary the model redoes later
        fake.mode = "ok"
        [fact] = store.get_pins(s)
        store.unpin(fact.id)
        report = store.resummarize(s)
        assert len(report.redone) == 1  # the model redid the summary, and named the fact
        assert current(store, s) == []  # but not from what was said before the unpin
        store.maintain()
        assert current(store, s) == []
        store.add_message(s, "user", "Please remember: I'm allergic to penicillin.")
        assert current(store, s) == ["Please remember: I'm allergic to penicillin."]


def test_an_import_makes_no_user_fact_from_a_record_without_a_source(
    store: MemoryStore, tmp_path: Path
) -> None:
    s = store.create_session(title="exported").id
    store.add_message(s, "user", "Hello there.")
    store.pin(s, "The user is a pharmacist.")
    lines = list(store.export_sessions([s]))
    forged = []
    for line in lines:
        record = json.loads(line)
        if record.get("type") == "end":
            continue  # the forged file carries no valid end record
        if record.get("type") == "pin":
            record.update(scope="user", kind="manual", source_message_id=None, importance_score=1.0)
        forged.append(json.dumps(record))
    store.delete_session(s)
    report = store.import_sessions(forged, unverified=True)
    [(_old, new)] = report.sessions
    assert store.get_pins(None) == []  # no fact of the user's
    [kept] = store.get_pins(new)
    assert report.kept_in_session == [kept.id] and kept.session_id == new
    other = store.create_session().id
    assert "pharmacist" not in context_text(store, other)
    store.delete_session(new)
    assert store.memory_report().user_facts == []


@pytest.mark.parametrize("verb", [" is", "'s", "\u2019s", ":"])
def test_a_fact_and_its_update_are_learnt_alike(store: MemoryStore, verb: str) -> None:
    s = store.create_session().id
    said = verb.replace("\u2019", "'")  # a pin's apostrophes are straight
    store.add_message(s, "user", f"My wifi password{verb} bluefox77.")
    assert current(store, s) == [f"My wifi password{said} bluefox77."]
    store.add_message(s, "user", f"My new wifi password{verb} amberlake42.")
    assert current(store, s) == [f"My new wifi password{said} amberlake42."]
    chain = store.get_pins(s, history=True)
    assert [(p.content, p.superseded_at is None) for p in chain] == [
        (f"My wifi password{said} bluefox77.", False),
        (f"My new wifi password{said} amberlake42.", True),
    ]
    assert {p.slot for p in chain} == {"wifi password"}
