"""What a pin rests on survives an export and an import (issue 21, point 4): a pin the
model built from several messages still names all of them, and an update still names
the message that ended the fact it replaced, so forgetting any of them in the importing
file does what it would have done in the exporting one. The local model is the fake
Ollama server over a real socket; everything else is the public API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from localmem import MemoryStore
from localmem.errors import InvalidInput
from tests.test_checkpoint import JsonFake, fake  # noqa: F401 - the fixture

CONFIG = {"summary_threshold": 4, "structured_min_tokens": 0, "model_trust": "checked"}  # the model's summary as the checks keep it (tests/test_earned.py: what "earned" shows)
FACT = "Rosa takes warfarin and is allergic to penicillin"


def current(store: MemoryStore, session_id: str | None) -> list[str]:
    return [p.content for p in store.get_pins(session_id)]


def moved(source: MemoryStore, target: Path, session_id: str) -> MemoryStore:
    """``target`` opened with ``session_id`` imported from ``source``'s export."""
    lines = list(source.export_sessions([session_id]))
    store = MemoryStore(target, config=CONFIG)
    store.import_sessions(lines)
    return store


def two_source_pin(store: MemoryStore) -> str:
    s = store.create_session(model="llama3.2").id
    store.add_messages(s, [
        {"role": "user", "text": "My mother Rosa takes warfarin every evening."},
        {"role": "assistant", "text": "Noted, warfarin in the evening."},
        {"role": "user", "text": "She is also allergic to penicillin."},
        {"role": "assistant", "text": "Noted: a penicillin allergy."},
    ])
    assert store.summarize(s).source == "llama3.2:latest"  # the model wrote it
    assert FACT in current(store, s)  # a fact of the session, from both messages
    return s


@pytest.mark.parametrize("forgotten", [0, 2], ids=["first source", "second source"])
def test_a_pin_built_from_two_messages_names_both_after_an_import(
    tmp_path: Path, fake: JsonFake, forgotten: int  # noqa: F811
) -> None:
    fake.json_reply = {"must_remember": [FACT]}
    with MemoryStore(tmp_path / "a.db", config=CONFIG) as a:
        s = two_source_pin(a)
        with moved(a, tmp_path / "b.db", s) as b:
            assert FACT in current(b, s)
            b.delete_message(b.get_messages(s)[forgotten].id)
            assert FACT not in current(b, s)  # whichever message it was built from
            assert FACT not in json.dumps(b.build_context(s).to_messages())


def test_an_update_names_the_message_that_ended_a_fact_after_an_import(tmp_path: Path) -> None:
    with MemoryStore(tmp_path / "a.db", config=CONFIG) as a:
        s = a.create_session().id
        a.add_message(s, "user", "I take lisinopril 10 mg every morning.")
        a.add_message(s, "user", "I no longer take lisinopril.")
        assert current(a, None) == ["I no longer take lisinopril."]
        with moved(a, tmp_path / "b.db", s) as b:
            assert current(b, None) == ["I no longer take lisinopril."]
            b.delete_message(b.get_messages(s)[1].id)
            assert current(b, None) == ["I take lisinopril 10 mg every morning."]


def test_the_export_carries_each_link_once_and_an_import_checks_them(tmp_path: Path, fake: JsonFake) -> None:  # noqa: F811
    fake.json_reply = {"must_remember": [FACT]}
    with MemoryStore(tmp_path / "a.db", config=CONFIG) as a:
        s = two_source_pin(a)
        records = [json.loads(line) for line in a.export_sessions([s])]
        sources = [r for r in records if r["type"] == "pin_source"]
        [pin] = [r for r in records if r["type"] == "pin" and r["content"] == FACT]
        messages = [r["id"] for r in records if r["type"] == "message"]
        assert [(x["pin_id"], x["message_id"]) for x in sources] == [
            (pin["id"], messages[0]), (pin["id"], messages[2])
        ]
        assert records[-1]["records"]["pin_source"] == 2
        # A link to no message of its session is refused, with its line, nothing written.
        forged = [json.dumps({**r, "message_id": 10**6} if r["type"] == "pin_source" else r)
                  for r in records if r["type"] != "end"]
        a.delete_session(s)
        with pytest.raises(InvalidInput, match=r"line \d+: message_id 1000000 is not an earlier message"):
            a.import_sessions(forged, unverified=True)
        assert a.list_sessions() == []
