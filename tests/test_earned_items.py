"""``MemoryConfig.model_trust``: a model's checkpoint items and its facts reach the file only
once the model has earned trust for that kind on this file (issue 21 points 1 and 4), each
kind on its own record. Through ``MemoryStore``, the real ollama client over a real loopback
socket to the fake server (tests/ollama_server.py)."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from localmem import MemoryStore
from localmem.checkpoint import RULES
from localmem.cli import cli
from localmem.cli.base import with_store
from localmem.doctor import check_trust
from localmem.remember import model_updates
from localmem.facts import ModelFacts
from localmem.testimony import user_evidence
from localmem.trust import MIN_VERDICTS, kept_whole
from tests.old_files import file_at_version
from tests.test_checkpoint import CHECKPOINT_ANSWER, TALK, JsonFake, fake  # noqa: F401 - the fixture
from tests.test_facts_apart import BOILER, FACTS, GROUNDED

MODEL = "llama3.2:latest"
WHOLE = {**CHECKPOINT_ANSWER, "user_preferences": {"style": "short answers"}}
"""Items every one of which TALK supports: the checks keep the answer whole."""
INVENTS = CHECKPOINT_ANSWER
"""The same, and "I love Haskell", which no message says: the checks drop it."""
TRUE_FACTS = {**FACTS, "key_facts": FACTS["key_facts"][:1], "must_remember": FACTS["must_remember"][:1]}
"""The boiler's facts alone: the user said them all."""


def test_an_answer_is_whole_only_when_the_checks_dropped_none_of_its_items() -> None:
    assert kept_whole([None, None])
    assert not kept_whole([None, "not supported by any one message"])  # a claim
    assert not kept_whole(["names no action or object"])  # junk counts too
    assert kept_whole([])  # nothing proposed: the caller records no verdict


def test_model_updates_report_why_each_was_dropped() -> None:
    said = user_evidence([
        ("user", "I live in Bristol, near the harbour."),
        ("user", "Some news: we're settled in Leeds since March."),
    ])
    answer = ModelFacts(updates=[
        {"new": "settled in Leeds since March", "old": "I live in Bristol"},  # one place for another
        {"new": "I moved to Lisbon", "old": "I live in Bristol"},  # the user never said it
    ])
    verdicts: list = []
    kept = model_updates(answer, said, verdicts=verdicts)
    assert kept == [("settled in Leeds since March", "I live in Bristol")]
    assert verdicts == [
        ("updates", "settled in Leeds since March <- I live in Bristol", None),
        ("updates", "I moved to Lisbon <- I live in Bristol", "not supported by the user's messages"),
    ]


def test_an_older_files_verdicts_are_its_summaries(db_path: Path) -> None:
    file_at_version(db_path, 15, [(
        "INSERT INTO model_verdicts (model, created_at, kept_whole) VALUES (?, ?, ?)",
        (MODEL, "2026-01-01T00:00:00Z", 1),
    )])
    with MemoryStore(db_path) as store:
        assert [(r.model, r.kind, r.answered) for r in store.model_trust()] == [(MODEL, "summary", 1)]


def record(store: MemoryStore, kind: str) -> list:
    return [r for r in store.model_trust() if r.kind == kind]


def checkpoints(store: MemoryStore, rounds: int) -> list:
    """A checkpoint of TALK in a new session each round: one model answer each."""
    taken = []
    for _ in range(rounds):
        s = store.create_session(model="llama3.2")
        store.add_messages(s.id, TALK)
        taken.append(store.checkpoint(s.id))
    return taken


def test_a_model_whose_checkpoints_are_kept_whole_is_overlaid_from_its_fourth_answer(
    db_path: Path, fake: JsonFake, caplog  # noqa: F811
) -> None:
    fake.json_reply = WHOLE
    with caplog.at_level(logging.INFO, logger="localmem"), MemoryStore(db_path) as store:
        taken = checkpoints(store, MIN_VERDICTS + 2)
        assert [c.source for c in taken] == [RULES] * MIN_VERDICTS + [MODEL, MODEL]
        assert all("Ship the reporting feature" not in c.data.active_goals for c in taken[:MIN_VERDICTS])
        assert taken[-1].data.active_goals == ["Ship the reporting feature"]
        assert "style: short answers" in taken[-1].data.user_preferences
        (mine,) = record(store, "checkpoint")
        assert (mine.model, mine.answered, mine.whole, mine.earned) == (MODEL, 5, 5, True)
        assert f"{MODEL} checkpoint: 5 of 5" in check_trust(store).detail
    assert caplog.text.count("has earned trust for its checkpoints on this file") == 1
    assert "has not earned trust for its checkpoints on this file yet" in caplog.text


def test_a_model_whose_checkpoint_items_get_rejected_never_is(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    fake.json_reply = INVENTS
    with MemoryStore(db_path) as store:
        taken = checkpoints(store, MIN_VERDICTS + 3)
        assert [c.source for c in taken] == [RULES] * (MIN_VERDICTS + 3)
        assert not any(c.data.active_goals for c in taken)
        (mine,) = record(store, "checkpoint")
        assert (mine.answered, mine.whole, mine.earned) == (MIN_VERDICTS + 3, 0, False)


def test_checked_overlays_what_passes_the_checks_at_once(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    fake.json_reply = INVENTS
    with MemoryStore(db_path, config={"model_trust": "checked"}) as store:
        (taken,) = checkpoints(store, 1)
        assert taken.source == MODEL and taken.data.active_goals == ["Ship the reporting feature"]
        assert not any("Haskell" in p for p in taken.data.user_preferences)
        (mine,) = record(store, "checkpoint")  # judged all the same
        assert (mine.answered, mine.whole) == (1, 0)


def test_an_answer_proposing_nothing_is_no_verdict(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    fake.json_reply = {"active_goals": [], "pending_tasks": []}
    with MemoryStore(db_path) as store:
        checkpoints(store, 2)
        assert record(store, "checkpoint") == []


def test_checkpoint_verdicts_survive_reopening_and_another_process_sees_them(
    db_path: Path, fake: JsonFake  # noqa: F811
) -> None:
    fake.json_reply = WHOLE
    with MemoryStore(db_path) as store:
        assert [c.source for c in checkpoints(store, 2)] == [RULES, RULES]
    with MemoryStore(db_path) as store:
        assert [c.source for c in checkpoints(store, 2)] == [RULES, MODEL]  # 3 earlier, all whole
    code = (
        "import json, sys; from localmem import MemoryStore\n"
        "with MemoryStore(sys.argv[1]) as s: print(json.dumps([r.model_dump() for r in s.model_trust()]))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(db_path)], capture_output=True, text=True, check=True)
    (mine,) = [r for r in json.loads(out.stdout) if r["kind"] == "checkpoint"]
    assert mine == {"model": MODEL, "kind": "checkpoint", "answered": 4, "whole": 4, "recent": 4,
                    "recent_whole": 4, "earned": True}


@pytest.mark.parametrize("policy", ["earned", "checked"])
def test_a_forget_during_the_call_discards_the_checkpoint_and_its_verdict(
    db_path: Path, fake: JsonFake, policy: str  # noqa: F811
) -> None:
    fake.json_reply = WHOLE
    with MemoryStore(db_path, config={"model_trust": policy}) as store:
        s = store.create_session(model="llama3.2")
        store.add_messages(s.id, TALK)
        fake.gate = threading.Event()
        result: list = []
        worker = threading.Thread(target=lambda: result.append(store.checkpoint(s.id)))
        worker.start()
        assert fake.held.wait(10)
        store.delete_message(store.get_messages(s.id)[0].id)
        fake.gate.set()
        worker.join(30)
        (taken,) = result
        assert taken.source == RULES  # the rules' checkpoint of what is left
        assert "reporting feature" not in taken.data.model_dump_json()
        assert record(store, "checkpoint") == []  # the answer's verdict went with it


# --- facts -----------------------------------------------------------------------------


def summarized(store: MemoryStore, rounds: int) -> list[tuple[list[str], list[str]]]:
    """BOILER summarized in a new session each round (a word apart, so no answer comes from
    the cache): each round's key facts and the pins it added."""
    out = []
    for n in range(rounds):
        s = store.create_session(model="llama3.2").id
        turns = [*BOILER[:-1], ("assistant", f"Good. Check the gauge again tomorrow morning, round {n}.")]
        store.add_messages(s, [{"role": r, "text": t} for r, t in turns])
        before = {p.content for p in store.get_pins(s)}
        store.summarize(s)
        (facts,) = store.get_summary_facts(s)
        out.append((facts.data.key_facts, [p.content for p in store.get_pins(s) if p.content not in before]))
    return out


FACTS_CONFIG = {"summary_threshold": len(BOILER), "structured_min_tokens": 0}


def test_a_model_whose_facts_are_kept_whole_has_them_kept_from_its_fourth_answer(
    db_path: Path, fake: JsonFake, caplog  # noqa: F811
) -> None:
    fake.reply = GROUNDED
    fake.json_reply = TRUE_FACTS
    with caplog.at_level(logging.INFO, logger="localmem"), MemoryStore(db_path, config=FACTS_CONFIG) as store:
        rounds = summarized(store, MIN_VERDICTS + 1)
        fact = "The boiler is a Vaillant ecoTEC serviced in March"
        pin = "The user's boiler is a Vaillant ecoTEC"
        assert [fact in key_facts for key_facts, _ in rounds] == [False] * MIN_VERDICTS + [True]
        assert [pin in pins for _, pins in rounds] == [False] * MIN_VERDICTS + [True]
        (mine,) = record(store, "facts")
        assert (mine.answered, mine.whole, mine.earned) == (MIN_VERDICTS + 1, MIN_VERDICTS + 1, True)
    assert caplog.text.count("has earned trust for its facts on this file") == 1


def test_a_model_whose_facts_get_rejected_never_has_them_kept(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    fake.reply = GROUNDED
    fake.json_reply = FACTS  # "The user is allergic to penicillin": the user said the opposite
    with MemoryStore(db_path, config=FACTS_CONFIG) as store:
        rounds = summarized(store, MIN_VERDICTS + 2)
        assert not any("Vaillant" in " ".join(key_facts) for key_facts, _ in rounds)
        assert all(pins == [] for _, pins in rounds)
        (mine,) = record(store, "facts")
        assert (mine.answered, mine.whole, mine.earned) == (MIN_VERDICTS + 2, 0, False)


def test_checked_keeps_the_facts_that_pass_the_checks_at_once(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    fake.reply = GROUNDED
    fake.json_reply = FACTS
    with MemoryStore(db_path, config={**FACTS_CONFIG, "model_trust": "checked"}) as store:
        ((key_facts, pins),) = summarized(store, 1)
        assert "The boiler is a Vaillant ecoTEC serviced in March" in key_facts
        assert "The user's boiler is a Vaillant ecoTEC" in pins
        assert not any("allergic" in f for f in key_facts + pins)


def test_each_kind_is_earned_on_its_own_record(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    # whole facts, but the same JSON read as a checkpoint proposes nothing: no checkpoint record
    fake.reply = GROUNDED
    fake.json_reply = TRUE_FACTS
    with MemoryStore(db_path, config=FACTS_CONFIG) as store:
        summarized(store, MIN_VERDICTS)
        kinds = {r.kind: r.answered for r in store.model_trust()}
        assert kinds.get("facts") == MIN_VERDICTS and "checkpoint" not in kinds


# --- the command line ----------------------------------------------------------------


@pytest.mark.parametrize("flags, policy", [([], "model_trust=earned"), (["--model-trust", "checked"], "model_trust=checked")])
def test_doctor_says_the_policy_the_cli_was_given(db_path: Path, flags: list[str], policy: str) -> None:
    with MemoryStore(db_path):
        pass
    out = CliRunner().invoke(cli, ["doctor", "--db", str(db_path), "--json", "--offline", *flags])
    (trust,) = [c for c in json.loads(out.stdout) if c["name"] == "model trust"]
    assert policy in trust["detail"]


@click.command()
@with_store(model=True)
def shown_config(store: MemoryStore) -> None:
    click.echo(f"{store.config.model_trust} {store.config.facts_apart}")


@pytest.mark.parametrize("flags, expected", [
    ([], "earned False"),
    (["--model-trust", "checked"], "checked False"),
    (["--facts-apart"], "earned True"),
    (["--model-trust", "earned", "--facts-apart"], "earned True"),
])
def test_every_command_that_calls_the_model_takes_both_settings(db_path: Path, flags: list[str], expected: str) -> None:
    with MemoryStore(db_path):
        pass
    out = CliRunner().invoke(shown_config, ["--db", str(db_path), *flags], catch_exceptions=False)
    assert out.output.strip() == expected
    assert CliRunner().invoke(shown_config, ["--db", str(db_path), "--model-trust", "always"]).exit_code == 2
