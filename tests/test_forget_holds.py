"""A forget, an unpin or a correction holds against every path that writes later
(issue 21, points 4 and 5; the review of review11).

Each test is an attack through the public API: the races with real threads and the
loopback fake Ollama server that answers only when the test says so (``race``), the
rest in sequence. Each one failed before the fix it came with.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from localmem import MemoryStore
from tests.test_forget import holds, new_marker
from tests.test_forget_race import CONFIG, QuotingFake, filler, fake, nowhere, offline_summaries, race, told

__all__ = ["fake"]  # the fixture, shared


@pytest.mark.parametrize("path_name", ["resummarize", "maintain"])
def test_an_untrusted_models_answer_racing_a_forget_leaves_nothing(
    tmp_path: Path, fake: QuotingFake, path_name: str
) -> None:
    """Under the default (``model_trust="earned"``), a model not yet trusted that redoes a
    range is only judged and its answer cached (``Summaries.judge``): a forget while it
    answered must discard that too, or the forgotten text is in the summary cache, in
    the file's bytes and every backup after the forget returned (and the answer counts
    toward the model's record)."""
    word = fake.word = new_marker()
    path = tmp_path / "memory.db"
    store = MemoryStore(path, config={**CONFIG, "model_trust": "earned"})
    sid = store.create_session(model="llama3.2").id
    mid = told(store, sid, word)
    offline_summaries(store, fake, sid)
    store.add_messages(sid, [filler(i) for i in range(20, 24)])
    offline_summaries(store, fake, sid)
    assert any(holds(s.text, word) for s in store.get_summaries(sid))
    call = {"resummarize": lambda: store.resummarize(sid), "maintain": store.maintain}
    fake.gate_when = lambda body: word in json.dumps(body)
    [result] = race(fake, call[path_name], lambda: store.delete_message(mid))
    assert not isinstance(result, Exception), result
    # the second range, redone after the forget, counts; the raced first one does not
    assert [t.answered for t in store.model_trust() if t.kind == "summary"] == [1]
    nowhere(store, path, sid, word)


TAKES = "I take lisinopril 10 mg every morning."
STOPPED = "I no longer take lisinopril."


def current(store: MemoryStore, session_id: str) -> list[str]:
    return [p.content for p in store.get_pins(session_id)]


@pytest.mark.parametrize("forget", ["delete_message", "delete_session", "clear_messages"])
def test_forgetting_an_update_brings_back_no_fact_the_user_removed_since(
    store: MemoryStore, forget: str
) -> None:
    """Forgetting an update makes what it superseded current again (point 4), but not a
    fact the user removed after it: said again, then unpinned, it stays removed. The
    fact, the update and the removal are each in a session of their own (the user's
    facts are every session's)."""
    said = store.create_session().id
    store.add_message(said, "user", TAKES)
    changed = store.create_session().id
    update = store.add_message(changed, "user", STOPPED)
    assert current(store, said) == [STOPPED]
    other = store.create_session().id
    store.add_message(other, "user", TAKES)
    [again] = [p for p in store.get_pins(other) if p.content == TAKES]
    store.unpin(again.id)
    {
        "delete_message": lambda: store.delete_message(update.id),
        "delete_session": lambda: store.delete_session(changed),
        "clear_messages": lambda: store.clear_messages(changed),
    }[forget]()
    assert current(store, said) == [] and current(store, other) == []


def test_forgetting_an_update_restores_the_fact_it_ended(store: MemoryStore) -> None:
    """The negative case: nothing was removed meanwhile, the old fact is current again."""
    s = store.create_session().id
    store.add_message(s, "user", TAKES)
    update = store.add_message(s, "user", STOPPED)
    store.delete_message(update.id)
    assert current(store, s) == [TAKES]


def test_forgetting_an_update_adds_no_second_pin_of_a_fact_pinned_by_hand(store: MemoryStore) -> None:
    s = store.create_session().id
    store.add_message(s, "user", TAKES)
    update = store.add_message(s, "user", STOPPED)
    store.pin(s, TAKES)  # the user's own act, meanwhile
    store.delete_message(update.id)
    assert [(p.content, p.kind) for p in store.get_pins(s)] == [(TAKES, "manual")]
