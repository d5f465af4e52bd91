"""A span's facts are asked for and judged apart from its summary with ``facts_apart`` (issue 21,
points 2 and 4): a summary the checks reject does not take the span's true facts with it, a
fact is kept or refused on its own grounds whatever became of the summary beside it, and the
model is not asked for facts when the summary call reached no model. Without it (the default),
a rejected summary's span keeps the rules' facts only. Conversations written for these
tests; the model is the fake Ollama server over a real socket."""

from __future__ import annotations

import threading
from pathlib import Path

from localmem import MemoryStore
from localmem.facts import FACTS_SYSTEM_PROMPT, MUST_REMEMBER_FACTS_SYSTEM_PROMPT
from tests.test_checkpoint import JsonFake, fake  # noqa: F401 - the fixture

BOILER = [
    ("user", "Our boiler is a Vaillant ecoTEC and the engineer serviced it in March."),
    ("assistant", "Thanks. Does the pressure gauge read between 1 and 1.5 bar?"),
    ("user", "It reads 0.8 bar this morning, and the radiators upstairs stay cold."),
    ("assistant", "Low pressure often leaves upstairs radiators cold. You can top it up with the filling loop."),
    ("user", "I'm not allergic to penicillin, by the way; my brother is. The GP asked twice."),
    ("assistant", "Noted. Open the filling loop slowly until the gauge shows 1.2 bar, then close it."),
    ("user", "Done, it shows 1.2 bar now and the radiators are warming up."),
    ("assistant", "Good. Check the gauge again tomorrow morning."),
]
REJECTED = "Dr. Okafor prescribed ibuprofen to Priya at St Mary's on Tuesday."
"""A summary no turn of BOILER supports: the checks reject it whole (the keyword summary is kept)."""
GROUNDED = "The boiler pressure was 0.8 bar; the user topped it up to 1.2 bar with the filling loop."
FACTS = {
    "key_facts": [
        "The boiler is a Vaillant ecoTEC serviced in March",
        "The user is allergic to penicillin",  # the user said the opposite
    ],
    "decisions": [],
    "entities": ["Vaillant ecoTEC"],
    "open_questions": [],
    "must_remember": [
        "The user's boiler is a Vaillant ecoTEC",
        "I am allergic to penicillin",  # negated by the user's own words
    ],
    "updates": [],
}
# these tests hold the checks: every summary that passes them is the model's (what a
# context shows by default, model_trust="earned": tests/test_earned.py)
CONFIG = {"summary_threshold": len(BOILER), "structured_min_tokens": 0, "facts_apart": True, "model_trust": "checked"}


def facts_requests(fake: JsonFake) -> list[dict]:  # noqa: F811
    prompts = (FACTS_SYSTEM_PROMPT, MUST_REMEMBER_FACTS_SYSTEM_PROMPT)
    return [b for b in fake.json_requests() if b["messages"][0]["content"] in prompts]


def summarize(
    db_path: Path, reply: str, fake: JsonFake, **config: object  # noqa: F811
) -> tuple[str, list[str], list[str]]:
    """The summary's source, its facts' key facts and the auto pins it added."""
    fake.reply = reply
    fake.json_reply = FACTS
    with MemoryStore(db_path, config={**CONFIG, **config}) as store:
        s = store.create_session(model="llama3.2").id
        store.add_messages(s, [{"role": r, "text": t} for r, t in BOILER])
        before = {p.content for p in store.get_pins(s)}
        source = store.summarize(s).source
        facts = store.get_summary_facts(s)
        pins = [p.content for p in store.get_pins(s) if p.content not in before]
    return source, [f for f in facts[0].data.key_facts] if facts else [], pins


def test_a_rejected_summary_keeps_its_spans_true_facts(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    source, key_facts, pins = summarize(db_path, REJECTED, fake)
    assert source == "fallback"  # the summary was rejected ...
    assert len(facts_requests(fake)) == 1  # ... and the facts were asked all the same
    assert "The boiler is a Vaillant ecoTEC serviced in March" in key_facts
    assert "The user's boiler is a Vaillant ecoTEC" in pins


def test_without_facts_apart_a_rejected_summary_asks_no_facts(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    source, key_facts, pins = summarize(db_path, REJECTED, fake, facts_apart=False)
    assert source == "fallback"
    assert facts_requests(fake) == []
    assert "The boiler is a Vaillant ecoTEC serviced in March" not in key_facts
    assert pins == []


def test_a_fact_the_span_negates_is_refused_whatever_became_of_the_summary(
    db_path: Path, tmp_path: Path, fake: JsonFake  # noqa: F811
) -> None:
    for n, reply in enumerate((REJECTED, GROUNDED)):
        source, key_facts, pins = summarize(tmp_path / f"{n}.db", reply, fake)
        assert source == ("fallback" if reply == REJECTED else "llama3.2:latest")
        assert not any("allergic" in f for f in key_facts)
        assert not any("allergic" in p for p in pins)
        assert "The user's boiler is a Vaillant ecoTEC" in pins  # the true one beside it stays


def test_no_facts_call_when_the_summary_call_reached_no_model(db_path: Path, tmp_path: Path, fake: JsonFake) -> None:  # noqa: F811
    # the connection drops (an unreachable server: the offline summary), the server fails
    # (an HTTP error: the keyword summary): the model never answered, so it is not asked again
    for n, (mode, expected) in enumerate((("close_mid", "offline"), ("error500", "fallback"))):
        fake.mode = mode
        fake.requests.clear()
        source, key_facts, pins = summarize(tmp_path / f"{n}.db", REJECTED, fake)
        assert source == expected
        assert facts_requests(fake) == []
        assert "The boiler is a Vaillant ecoTEC serviced in March" not in key_facts
        assert pins == []


def test_no_facts_call_beside_a_summary_from_the_cache(db_path: Path, tmp_path: Path, fake: JsonFake) -> None:  # noqa: F811
    # the span's facts were asked when its summary was first stored; the cache spares the call
    fake.reply = GROUNDED
    fake.json_reply = FACTS
    with MemoryStore(db_path, config=CONFIG) as store:
        for _ in range(2):
            s = store.create_session(model="llama3.2").id
            store.add_messages(s, [{"role": r, "text": t} for r, t in BOILER])
            assert store.summarize(s).source == "llama3.2:latest"
    assert len(facts_requests(fake)) == 1


def test_a_forget_while_the_facts_are_asked_beside_a_rejected_summary_is_final(
    db_path: Path, fake: JsonFake  # noqa: F811
) -> None:
    fake.reply = REJECTED
    fake.json_reply = FACTS
    fake.gate = threading.Event()
    fake.gate_when = lambda body: body.get("messages", [{}])[0].get("content") == MUST_REMEMBER_FACTS_SYSTEM_PROMPT
    with MemoryStore(db_path, config=CONFIG) as store:
        s = store.create_session(model="llama3.2").id
        ids = [m.id for m in store.add_messages(s, [{"role": r, "text": t} for r, t in BOILER])]
        done: list[object] = []
        worker = threading.Thread(target=lambda: done.append(store.summarize(s)))
        worker.start()
        assert fake.held.wait(30)  # the model is writing the span's facts
        store.delete_message(ids[0])  # the boiler's message
        fake.gate.set()
        worker.join(30)
        assert done == [None]  # nothing computed from it is stored
        assert store.get_summary_facts(s) == []
        assert not any("Vaillant" in p.content for p in store.get_pins(s))
