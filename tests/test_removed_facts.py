"""A fact the user removed stays removed until the user says it again in a new message
(issue 21, point 4), also for a host's own automatic pins (``store.pin(kind="auto")``),
as for the model's (tests/test_fact_truth.py)."""

from __future__ import annotations

import pytest

from localmem import MemoryStore
from localmem.errors import FactRemoved, InvalidInput

FACT = "I'm allergic to penicillin."


def current(store: MemoryStore, session_id: str) -> list[str]:
    return [p.content for p in store.get_pins(session_id)]


@pytest.mark.parametrize("how", ["unpin", "forget the message"])
def test_a_hosts_auto_pin_does_not_bring_back_a_removed_fact(store: MemoryStore, how: str) -> None:
    s = store.create_session().id
    said = store.add_message(s, "user", FACT)
    store.add_message(s, "assistant", "Noted.")
    [fact] = store.get_pins(s)
    if how == "unpin":
        store.unpin(fact.id)
    else:
        store.delete_message(said.id)
    assert current(store, s) == []
    old = said.id if how == "unpin" else None  # a forgotten message is no source at all
    with pytest.raises(FactRemoved, match="the user removed this fact") as raised:
        store.pin(s, FACT, source_message_id=old, kind="auto")
    assert isinstance(raised.value, InvalidInput)
    with pytest.raises(FactRemoved):
        store.pin(None, FACT, kind="auto")  # as the user's fact, from no message
    assert current(store, s) == [] and current(store, store.create_session().id) == []
    # The user says it again: from that message, it may be pinned again.
    again = store.add_message(s, "user", "Yes, penicillin: I'm allergic to it.")
    pinned = store.pin(s, FACT, source_message_id=again.id, kind="auto")
    assert pinned.content == FACT and FACT in current(store, s)


def test_a_manual_pin_of_a_removed_fact_is_made(store: MemoryStore) -> None:
    """Pinning by hand is the user's own act: the fact is the user's again."""
    s = store.create_session().id
    store.add_message(s, "user", FACT)
    [fact] = store.get_pins(s)
    store.unpin(fact.id)
    assert store.pin(s, FACT).kind == "manual"
    assert current(store, s) == [FACT]


def test_an_auto_pin_of_a_fact_never_removed_is_made(store: MemoryStore) -> None:
    s = store.create_session().id
    assert store.pin(s, "The garden needs watering on Fridays.", kind="auto").kind == "auto"
