"""Summaries, checkpoints and facts against what real small models answered (issues 17, 21).

Replayed through the fake Ollama server (its ``reply``, ``done_reason`` and streaming knobs)
to the real ``ollama`` client and the real store, so these tests stay fast and offline:

- ``tests/data/smollm2_135m_outputs.json``: every summary, checkpoint and facts answer
  SmolLM2-135M wrote for the conversations of benchmarks/real_conversations.py
  (benchmarks/real_models.py);
- every ``tests/data/*_outputs.json`` (``tests.real_replay``: SmolLM2-135M,
  Qwen2.5-Coder-0.5B and 1.5B), replayed whole through ``MemoryStore.summarize`` and judged
  against the labels written by reading them (benchmarks/real_models_labels.json);
- ``ISSUE_OUTPUTS``: outputs of the 0.5B and 1.5B models quoted in issue 17;
- ``FAITHFUL``: summaries written for this test as a good model writes them (marked so).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from localmem import MemoryConfig, MemoryStore
from localmem.checkpoint import RULES, StateSnapshot
from localmem.checkpoint import floor as rules_floor
from localmem.extract import extract
from localmem.facts import rule_facts
from localmem.summarizer import FALLBACK, OFFLINE
from localmem.summarizer.fallback import keyword_summary, offline_summary
from localmem.summarizer.prompts import (
    SUMMARY_INPUT_PROMPT,
    SUMMARY_SYSTEM_PROMPT,
    format_conversation,
    summary_words,
)
from localmem.summarizer.validation import summary_limit
from tests.real_replay import (
    HELD_OUT,
    HELD_OUT_FILES,
    LABELS,
    RECORDINGS,
    Replay,
    checkpoint_items,
    facts_items,
    item_label,
    label_key,
    pin_labels,
    proposed,
    replay,
)

RECORDED = json.loads((Path(__file__).parent / "data" / "smollm2_135m_outputs.json").read_text())
MODEL = RECORDED["model"]
CONVERSATIONS: dict[str, list[tuple[str, str]]] = {
    name: [(role, text) for role, text in run["messages"]]
    for name, run in RECORDED["conversations"].items()
}

# Why localmem rejects each recorded SmolLM2-135M summary (the first check that fails).
SMOLLM_REJECTIONS = {
    "caregiver": "script",  # the transcript, copied
    "bug_hunt": "poem",  # one-line paragraphs, looping on an invented "every 100ms"
    "trip": "script",
    "poetry": "number",  # "a sonnet with 15 lines": invented
    "birthday_cake": "script",
    "song_lyrics": "script",
    "terse": "script",
    "moving_budget": "script",
    "dog_chocolate": "script",
    "interview": "script",
    "migration": "script",
    "meal_plan": "script",
}

ISSUE_OUTPUTS = {
    # Qwen2.5-Coder-0.5B returned the origin prompt's example as its summary.
    "example_echo": (
        "User asked about poetry types, discussed sonnets and free verse, then collaborated "
        "on writing original poems with simple themes."
    ),
    # An accepted 1.5B summary that dropped the allergy, the ibuprofen warning and the visit.
    "inr_monitor": (
        "The user set up a medication schedule for her mother Rosa, with warfarin in the "
        "evening and an INR monitor for her blood pressure."
    ),
}

# Written for these tests as a faithful model summary reads (no real model wrote them here).
FAITHFUL = {
    "caregiver": (
        "Rosa, 82, takes warfarin 5 mg at 6 pm, metoprolol 25 mg at 8 am and 8 pm and "
        "atorvastatin 20 mg at 10 pm. She is allergic to penicillin, must not take ibuprofen "
        "with warfarin, and has an INR check on Tuesday March 12 at 10:30 with Dr. Patel."
    ),
    "bug_hunt": (
        "Stale prices in the Flask cache came from a race: the refresher cleared the dict while "
        "readers fell back to _last_good. The fix builds a new dict and swaps it in, removes "
        "_last_good, and adds a threaded test in tests/test_cache.py."
    ),
    "birthday_cake": (
        "Leo turns 7 on Saturday, June 8, and gets a chocolate cake for 12 kids. Mia is "
        "allergic to peanuts and tree nuts and Tom cannot have eggs, so the cake is an "
        "egg-free wacky cake with no hazelnuts."
    ),
    "terse": "Pizza from Luigi's at 7pm tonight, pepperoni and a veggie half; one picks it up.",
    "moving_budget": (
        "The move from Chicago to Denver on August 15 costs about 8,450 dollars: Swift Move at "
        "3,600, the apartment at 4,200, travel 350 and 300 to break the lease. With 9,000 "
        "saved, 550 remain; they will book Swift Move."
    ),
}

# these tests hold the checks: every summary that passes them is the model's (what a
# context shows by default, model_trust="earned": tests/test_earned.py)
CHECKED = {"model_trust": "checked"}


@pytest.fixture
def store(db_path: Path) -> Iterator[MemoryStore]:
    """The store of these tests: ``model_trust="checked"`` (see ``CHECKED``)."""
    with MemoryStore(db_path, config=CHECKED) as s:
        yield s


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[Replay]:
    with Replay(models=[MODEL]) as fake:
        monkeypatch.setenv("OLLAMA_HOST", fake.host)
        yield fake


def _session(store: MemoryStore, conversation: str) -> str:
    session = store.create_session(model=MODEL, title=conversation)
    store.add_messages(session.id, [{"role": r, "text": t} for r, t in CONVERSATIONS[conversation]])
    return session.id


# --- summaries -------------------------------------------------------------------------------


@pytest.mark.parametrize("conversation", sorted(SMOLLM_REJECTIONS))
def test_every_recorded_smollm_summary_is_rejected_for_the_fallback(
    store: MemoryStore, server: Replay, conversation: str, caplog: pytest.LogCaptureFixture
) -> None:
    recorded = RECORDED["conversations"][conversation]["summary"]
    server.reply, server.done_reason = recorded["raw"], recorded["done_reason"]
    session = _session(store, conversation)
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = store.summarize(session)
    assert summary is not None and summary.source == FALLBACK
    assert summary.text == keyword_summary(CONVERSATIONS[conversation])
    assert SMOLLM_REJECTIONS[conversation] in caplog.text


def test_the_fallback_in_its_place_holds_the_caregivers_facts(store, server: Replay) -> None:
    server.reply = RECORDED["conversations"]["caregiver"]["summary"]["raw"]
    summary = store.summarize(_session(store, "caregiver"))
    assert summary.source == FALLBACK and len(summary.text) <= 300
    for fact in ("allergic to penicillin", "ibuprofen", "Tuesday March 12 at 10:30"):
        assert fact in summary.text


@pytest.mark.parametrize("conversation", sorted(FAITHFUL))
def test_a_faithful_summary_is_kept_as_written(store, server: Replay, conversation: str) -> None:
    server.reply = FAITHFUL[conversation]
    summary = store.summarize(_session(store, conversation))
    assert (summary.source, summary.text) == (MODEL, FAITHFUL[conversation])


def test_the_prompt_asks_for_what_is_accepted_and_holds_no_example(store, server: Replay) -> None:
    server.reply = FAITHFUL["caregiver"]
    store.summarize(_session(store, "caregiver"))
    (request,) = server.chats()
    assert request["options"]["num_predict"] == 100  # 300 characters, with room
    assert request["messages"][-1]["content"].endswith("at most 50 words:")
    assert "EXAMPLE" not in SUMMARY_SYSTEM_PROMPT
    assert "poetry types" not in SUMMARY_SYSTEM_PROMPT + SUMMARY_INPUT_PROMPT


def test_a_terse_chat_is_asked_for_a_shorter_summary(store, server: Replay) -> None:
    server.reply = FAITHFUL["terse"]
    summary = store.summarize(_session(store, "terse"))
    (request,) = server.chats()
    limit = summary_limit(format_conversation(CONVERSATIONS["terse"]))
    assert summary.source == MODEL and limit < 300
    assert request["options"]["num_predict"] == -(-limit // 3) < 100
    assert request["messages"][-1]["content"].endswith(f"at most {summary_words(limit)} words:")


def test_an_answer_cut_by_num_predict_keeps_its_whole_sentences(store, server: Replay) -> None:
    """Issue 17: a 1.5B model's 4-5 faithful sentences were cut at 400-500 characters by
    num_predict, then rejected whole for being over 300."""
    whole = FAITHFUL["caregiver"]
    server.reply = whole + " Acetaminophen is the safer painkiller for her, and grapefruit ju"
    server.done_reason = "length"
    summary = store.summarize(_session(store, "caregiver"))
    assert (summary.source, summary.text) == (MODEL, whole)


@pytest.mark.parametrize("conversation", ["birthday_cake", "song_lyrics", "moving_budget"])
def test_the_origin_prompts_example_is_no_summary_of_another_conversation(
    store, server: Replay, conversation: str, caplog
) -> None:
    server.reply = ISSUE_OUTPUTS["example_echo"]
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = store.summarize(_session(store, conversation))
    assert summary.source == FALLBACK
    assert "shares under 50% of its words" in caplog.text


def test_a_passage_copied_from_one_turn_is_not_a_summary(store, server: Replay, caplog) -> None:
    turn = CONVERSATIONS["dog_chocolate"][3][1]  # the assistant's warning, word for word
    server.reply = turn[:300].rsplit(".", 1)[0] + "."
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = store.summarize(_session(store, "dog_chocolate"))
    assert summary.source == FALLBACK and "copies a passage" in caplog.text


def test_the_issues_summary_with_an_invented_clause_is_replaced(store, server: Replay, caplog) -> None:
    """Issue 21: "an INR monitor for her blood pressure" joins words of two turns (the INR
    check, a blood test); its one sentence is unsupported, so no summary is left of it."""
    server.reply = ISSUE_OUTPUTS["inr_monitor"]
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = store.summarize(_session(store, "caregiver"))
    assert summary.source == FALLBACK
    assert "sentence 1 of 1 dropped: not supported by any one message" in caplog.text
    assert "blood pressure" not in caplog.text  # which sentence and why, never its words


def test_the_issues_summary_without_the_allergy_warning_and_visit_is_completed(
    store, server: Replay
) -> None:
    supported = ISSUE_OUTPUTS["inr_monitor"].split(" and an INR")[0] + "."  # its true part
    server.reply = supported
    summary = store.summarize(_session(store, "caregiver"))
    assert summary.source == MODEL
    assert summary.text == (
        supported + " She's allergic to penicillin. Please don't give her "
        "ibuprofen while she is on warfarin. Tuesday March 12 at 10:30 at Dr. Patel's clinic."
    )


def test_a_summary_whose_missing_warnings_do_not_fit_keeps_them_in_pins(store, server: Replay) -> None:
    """Issue 21: a faithful summary is not thrown away for a warning a pin keeps anyway.
    The penicillin allergy, the ibuprofen warning and the INR visit do not all fit within
    300 characters; the visit (no pin holds it) is appended, the two warnings are pinned,
    each with its message as source."""
    reply = (
        "Rosa, 82, is home from the hospital, and her medication schedule is printed for the "
        "fridge: warfarin, metoprolol and atorvastatin every day, with a steady "
        "vitamin K intake from spinach and kale every week."
    )
    server.reply = reply
    session = _session(store, "caregiver")
    summary = store.summarize(session)
    assert summary.source == MODEL
    assert summary.text == f"{reply} Tuesday March 12 at 10:30 at Dr. Patel's clinic."
    pins = {p.content: p for p in store.get_pins(session)}
    texts = {m.id: m.text for m in store.get_messages(session)}
    for warning in ("Yes, she's allergic to penicillin.", "Please don't give her ibuprofen while she is on warfarin."):
        assert warning.rstrip(".") in texts[pins[warning].source_message_id]
    assert "penicillin" not in summary.text and "ibuprofen" not in summary.text


def test_a_summary_dropping_one_safety_fact_is_completed(store, server: Replay) -> None:
    dropped_allergy = (
        "Leo turns 7 on Saturday, June 8, and gets a chocolate cake for 12 kids, made without "
        "eggs and without hazelnuts."
    )
    server.reply = dropped_allergy
    summary = store.summarize(_session(store, "birthday_cake"))
    assert summary.source == MODEL
    assert summary.text.startswith(dropped_allergy)
    assert "Mia is allergic to peanuts and tree nuts" in summary.text
    assert len(summary.text) <= 300


# --- checkpoints -----------------------------------------------------------------------------


def test_the_issues_false_checkpoint_items_are_not_stored(store, server: Replay, caplog) -> None:
    server.json_reply = json.dumps(
        {
            "key_decisions": ["Take ibuprofen instead of penicillin"],  # the 1.5B's decision
            "workflow_state": {"current_step": "take ibuprofen for it"},  # the 0.5B's step
            "user_preferences": ["I love writing folk songs"],  # invented
            "context_references": {"identifiers": ["id: 3"]},  # no real word
        }
    )
    with caplog.at_level(logging.INFO, logger="localmem"):
        taken = store.checkpoint(_session(store, "caregiver"))
    text = json.dumps(taken.data.model_dump()).casefold()
    assert "ibuprofen" not in text and "folk" not in text and "id: 3" not in text
    assert taken.source == RULES  # no model item survived: the model gets no credit
    assert "dropped" in caplog.text and "warns against" in caplog.text


def test_supported_model_items_are_kept_and_credit_the_model(store, server: Replay) -> None:
    server.json_reply = json.dumps(
        {
            "key_decisions": ["Give warfarin at 6 pm every day", "Never give her ibuprofen"],
            "pending_tasks": ["Bring her medication list to the INR check", "Print the schedule for the fridge"],
            "user_preferences": ["Print the schedule for the fridge"],  # a plan, not a taste
            "context_references": {"identifiers": ["INR"]},
        }
    )
    taken = store.checkpoint(_session(store, "caregiver"))
    data = taken.data
    assert taken.source == MODEL
    assert "Give warfarin at 6 pm every day" in data.key_decisions
    assert "Never give her ibuprofen" in data.key_decisions  # a warning kept as a warning
    assert "Bring her medication list to the INR check" in data.pending_tasks
    assert "Print the schedule for the fridge" in data.pending_tasks  # "I'll print the schedule"
    assert data.user_preferences == []  # issue 21: a preference needs the user's stance
    assert data.context_references.identifiers == ["INR"]


def test_the_recorded_smollm_checkpoint_question_is_dropped(store, server: Replay) -> None:
    recorded = RECORDED["conversations"]["birthday_cake"]["checkpoint"]
    server.json_reply = recorded["raw"]  # {"pending_tasks": ["Which allergies do we need ..."]}
    taken = store.checkpoint(_session(store, "birthday_cake"))
    floor = rules_floor(None, StateSnapshot(), CONVERSATIONS["birthday_cake"])
    assert taken.source == RULES and taken.data == floor  # nothing of the model's


@pytest.mark.parametrize("conversation", ["caregiver", "migration", "song_lyrics"])
def test_a_recorded_looping_json_answer_is_dropped_early(
    store, server: Replay, conversation: str, caplog
) -> None:
    """SmolLM2-135M looped in JSON mode ("id": "1000000..., the same list item again and
    again) until the guard hung up; replayed here with the loop running on to 2,400
    characters, as the model would have gone on to ``num_predict``."""
    recorded = RECORDED["conversations"][conversation]["checkpoint"]["raw"]
    server.json_reply = _run_on(recorded, 2400)
    server.token_delay = 0.002
    with caplog.at_level(logging.INFO, logger="localmem"):
        taken = store.checkpoint(_session(store, conversation))
    assert taken.source == RULES
    sent, whole = server.wait_for_streams(1)[-1]
    assert sent < whole / 2  # hung up long before the end
    assert "repeats itself" in caplog.text


def _run_on(text: str, size: int) -> str:
    """``text`` continued by repeating its looping tail until ``size`` characters."""
    from localmem.summarizer.guards import looping

    for period in range(1, 400):
        tail = text[-period:]
        if looping(text) and text.endswith(tail * 3):
            break
    else:  # pragma: no cover - every recorded answer ends in a loop
        raise AssertionError("the recorded answer does not loop")
    while len(text) < size:
        text += tail
    return text


# --- time ------------------------------------------------------------------------------------


def test_timeouts_scale_with_the_request(db_path, server: Replay) -> None:
    """A summary-sized request gets ``ollama_timeout``; a checkpoint (512 tokens to write)
    about twice as long: the same slow model times out on one and answers the other."""
    server.delay, server.delay_paths = 1.5, frozenset({"/api/chat"})
    server.json_reply = json.dumps({"pending_tasks": ["Bring her medication list"]})
    config = MemoryConfig(**CHECKED, ollama_timeout=1.0, structured_min_tokens=0)
    with MemoryStore(db_path, config=config) as store:
        session = _session(store, "caregiver")
        taken = store.checkpoint(session)
        summary = store.summarize(session)
    assert taken.source == MODEL and "Bring her medication list" in taken.data.pending_tasks
    assert summary.source == OFFLINE


def test_checkpoints_and_summaries_run_in_the_background_worker(db_path, server: Replay) -> None:
    server.reply = FAITHFUL["caregiver"]
    server.json_reply = json.dumps({"pending_tasks": ["Bring her medication list"]})
    server.delay, server.delay_paths = 1.0, frozenset({"/api/chat"})
    config = MemoryConfig(**CHECKED, auto_summarize=True, structured_min_tokens=0)
    store = MemoryStore(db_path, config=config)
    session = _session(store, "caregiver")  # returns at once: the worker waits on the model
    assert store.latest_checkpoint(session) is None and store.get_summaries(session) == []
    store.add_message(session, "user", "One more thing: she walks every morning.")
    store.close()  # drains the worker
    with MemoryStore(db_path, config=CHECKED) as reopened:
        (summary,) = reopened.get_summaries(session)
        checkpoint = reopened.latest_checkpoint(session)
    assert summary.source == MODEL and checkpoint is not None and checkpoint.source == MODEL


# --- every recorded model, judged by the labels ----------------------------------------------

CASES = [
    (model, conversation)
    for model, data in sorted(RECORDINGS.items())
    for conversation, recorded in data["conversations"].items()
    if "facts" in recorded  # recorded whole (checkpoint, summary, facts) by real_models.py
]

# What today's code still gets wrong on the recorded outputs (issue 21): (check, model,
# conversation) -> the label's reason (the store's own summaries: ("keyword summary" or
# "offline summary", "store", conversation)). Each entry is a failing case the parametrization
# below expects to fail (strict xfail): fixing one fails the suite until its entry is deleted.
OPEN_IN_ISSUE_21: dict[tuple[str, str, str], str] = {
    # The fourth held-out set (HELD_OUT_4: recorded and labelled in real_models_labels_heldout4.json
    # before this replay, by a writer who read none of the checks), on main's checks of 172117d.
    ('facts', 'qwen2.5-coder:1.5b', 'chore_rota'):
        "false facts kept: common words as entities that cl100k cuts in pieces and the chat never writes after "
        "'a' ('hoovering', 'limescale spray'); the everyday words and the key facts naming no fact are gone since "
        "facts7 and facts8",
    # The sixth held-out set (HELD_OUT_6: written, recorded and labelled in
    # real_models_labels_heldout6.json before this replay, by a writer who read none of the checks),
    # on main's checks of c97cb62.
    ('summary', 'qwen2.5-coder:0.5b', 'grandad_bp_grapefruit'):
        "unfaithful summary kept: 'dizziness and falls' (no fall happened) and 'Marion orders an Omron one' "
        "(the user ordered it); nothing of felodipine, the stop-grapefruit warning or the dose halved to 2.5 mg",
    ('summary', 'qwen2.5-coder:0.5b', 'cottage_split'):
        "unfaithful summary kept: 'Four cottage owners rent a cottage' (four friends rent it from an owner); "
        "nothing of Marco dropping out and Femi taking his place, no cliff warning",
    ('summary', 'qwen2.5-coder:0.5b', 'five_a_side'):
        "unfaithful summary kept: 'Liam's ankle is a proper signing' (Jess is the signing) and 'The next game "
        "is at 8' (moved to Thursday at 9)",
    ('summary', 'qwen2.5-coder:1.5b', 'cottage_split'):
        "unfaithful summary kept: 'with Marco paying the balance' (Ben pays it, Marco pays nothing after "
        "dropping out) and 'They split the deposit' (Ben paid it); no cliff warning",
    ('summary', 'qwen2.5-coder:1.5b', 'five_a_side'):
        "unfaithful summary kept: 'lost 7-3 to their five-a-side team' (Real Ale Madrid is the team) and "
        "'The team was led by Kofi, who used to play' (Kofi used to play in goal, nobody leads)",
    # The seventh held-out set (HELD_OUT_7: written, recorded and labelled in
    # real_models_labels_heldout7.json before this replay, by a writer who read none of the checks),
    # on main's checks of 1981372.
    ('summary', 'qwen2.5-coder:1.5b', 'scilly_ferry_rail'):
        "unfaithful summary kept: 'the ferry there on Thursday 24th', when that sailing was cancelled and they "
        "were moved to Friday 25th",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'adhd_cold_remedy'):
        "false items kept: 'keep Noah's cold at bay' (he has the cold) as a goal; 'keep a sleep diary for the "
        "next 14 days' as a task and a next step (the diary runs until the review on the 14th)",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'scilly_ferry_rail'):
        "false items kept: 'Check if they take dogs' as a completed step (the assistant told it; the goal and "
        "the next step are dropped since rules10's progress.checked); the assistant's ferry warning as a decision",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'js_date_off_by_one'):
        "false items kept: 'testing the CSV export' as a task and a next step (what is left is fixing it)",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'terse_fuse'):
        "false items kept: a step already done as a task and a next step ('plug things back one at a time'; "
        "'turn on every breaker on that side' and 'bin the kettle' are read as reported done since truth14); "
        "'the rcd tripped' as a decision",
    # The eighth held-out set (HELD_OUT_8: written, recorded and labelled in
    # real_models_labels_heldout8.json before this replay, by a writer who read none of the checks),
    # on main's checks of 120aef1.
    ('summary', 'qwen2.5-coder:0.5b', 'lost_luggage_complaint'):
        "unfaithful summary kept: 'the case was resolved through a repair quote' (the quote is Saturday's plan, "
        "nothing is resolved) and 'not resolved within 7 days' (7 days was the damage-claim deadline)",
    ('summary', 'qwen2.5-coder:0.5b', 'terse_car_battery'):
        "unfaithful summary kept: 'The car won't start' (it started first go after the jump), the assistant's "
        "question copied, no word of the jump-start warning",
    ('summary', 'qwen2.5-coder:0.5b', 'allotment_agm'):
        "unfaithful summary kept: 'Bernie's plot is shared with Ruth' (the user shares plot 14 with her sister "
        "Ruth); 'the best part' was Mrs Okafor's win, not Keith's fuming",
    ('checkpoint', 'qwen2.5-coder:0.5b', 'statin_red_yeast_rice'):
        "'Boots on Friday' kept as a completed step: a fragment naming no act, and the pharmacist visit is "
        "Friday's plan",
    ('checkpoint', 'qwen2.5-coder:0.5b', 'fortieth_speech'):
        "the user's correction of the Paris story ('it was me who got us lost') kept as an active goal and as a "
        "pending task (the task was the rules' floor's identical line until rules10, not counted beyond it)",
    ('checkpoint', 'qwen2.5-coder:0.5b', 'lost_luggage_complaint'):
        "'I need to write a formal complaint' kept as a decision and a preference: the complaint was written "
        "and sent (as a goal it is dropped since rules10: a piece of writing sent on is written)",
    ('checkpoint', 'qwen2.5-coder:0.5b', 'allotment_agm'):
        "small talk kept as steps: Keith repainting his shed as a completed step, Mrs Okafor's past win as a "
        "next step",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'passport_fast_track'):
        "'Find an appointment for a new passport' kept as a pending task: the Durham appointment is booked",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'fortieth_speech'):
        "a line of the assistant's draft of the speech ('\"At fifteen, ... I decided I knew the Metro ...') kept as a "
        "decision. Not new in the context: the rules' floor made the same false line until rules9 (the floor "
        "reads no quoted draft since), so the model's identical item was not counted as beyond the floor",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'ci_src_layout_import'):
        "'add pythonpath to pytest config' kept as a pending task: the alternative not chosen (pip install .)",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'energy_bill_split'):
        "'Split the bill for October and November' kept as a next step: the split was worked out",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'lost_luggage_complaint'):
        "'I need to write a formal complaint' kept as a goal, a decision and a preference: the complaint was "
        "written and sent",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'terse_car_battery'):
        "done steps kept as open ('start car' as a goal: it started; 'wait for 3 minutes' as a task) and "
        "'drive 30 minutes' as a next step, which the user said he can't",
    ('facts', 'qwen2.5-coder:0.5b', 'passport_fast_track'):
        "'long hair and a big beard' kept as a key fact (the old photo; the user has neither now), who Pauline "
        "is kept as a decision and as an entity",
    ('facts', 'qwen2.5-coder:0.5b', 'lost_luggage_complaint'):
        "'€100 excess' kept as a key fact and an entity: the excess is £100, and it states no fact",
    # The ninth held-out set (HELD_OUT_9: written, recorded and labelled in
    # real_models_labels_heldout9.json before this replay, by a writer who read neither the checks nor
    # the rules of the store's own context), on main's checks of 979b0dc.
    ('summary', 'qwen2.5-coder:0.5b', 'git_rebase_lost_commits'):
        "unfaithful summary kept: the rebase 'left seven commits' (it left two of seven), 'the Excel export code "
        "was removed' (recovered from the reflog), 'reset to the new one' (reset to the branch before the rebase)",
    ('summary', 'qwen2.5-coder:0.5b', 'boiler_replacement_quote'):
        "unfaithful summary kept: Dave 'has a heat pump' (a heat pump was declined) and 'the boiler is in the "
        "middle of the room' (it is in the hall cupboard), both invented",
    ('checkpoint', 'qwen2.5-coder:0.5b', 'pub_quiz_team'):
        "plans as done: 'Dev's raffle' and 'Mick's bringing the buzzers' in completed_steps (both for the "
        "charity night on 11 April)",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'ruby_anniversary_captions'):
        "'draft captions for the slideshow' as a goal and a next step: done, all 20 sent to Callum",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'boiler_replacement_quote'):
        "'Get a second quote for the combi' as a goal, a task and the current step (not taken up: Heatwise "
        "booked, deposit paid), a second quote 'for the flue work' nobody suggested, and the guarantee's 30 "
        "days as a decision",
    ('facts', 'qwen2.5-coder:0.5b', 'git_rebase_lost_commits'):
        "an update 'git rebase main <- git fetch and git reset --hard ...': two steps of the plan, neither "
        "replaces the other",
    ('facts', 'qwen2.5-coder:1.5b', 'eczema_steroid_cream'):
        "misattributed: the teacher 'books the nurse review' (the parent does), as a key fact and a decision; "
        "'teacher' as an entity",
    ('facts', 'qwen2.5-coder:1.5b', 'boiler_replacement_quote'):
        "'The guarantee starts from the day it's fitted' (said: the 30 days to register it start then), the "
        "CO alarm bought and where it is as decisions, 'CO alarm' as an entity",
    # The tenth held-out set (HELD_OUT_10: written, recorded and labelled in
    # real_models_labels_heldout10.json before this replay, by a writer who read neither the checks nor
    # the rules of the store's own context), on main's checks of bf4dace.
    ('summary', 'qwen2.5-coder:0.5b', 'apixaban_dentist'):
        "unfaithful summary kept: the atrial fibrillation 'causing pain' (invented) and the dentist wanting 'to "
        "stop the fish oil and paracetamol tablets' (Frank stopped the fish oil himself; paracetamol is the one "
        "to use); no NSAID warning",
    ('summary', 'qwen2.5-coder:0.5b', 'neighbour_ladder_chat'):
        "unfaithful summary kept: 'Gwen gave Gwen a ladder back' and Gwen found the tennis ball and the nest "
        "(the user did both)",
    ('summary', 'qwen2.5-coder:1.5b', 'bristol_flat_offer'):
        "unfaithful summary kept: 'a holding deposit of £450', corrected to £259.61 (the legal cap) before it "
        "was paid",
    ('summary', 'qwen2.5-coder:1.5b', 'wedding_seating_plan'):
        "unfaithful summary kept: '74 guests ... at 8 tables with 10 seats each', the first plan: the venue's "
        "tables seat 8 (10 tables) and 73 are coming",
    ('checkpoint', 'qwen2.5-coder:0.5b', 'apixaban_dentist'):
        "'set up his dosette box for the week too' as a pending task and a next step: the user reported it done",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'pip_pydantic_conflict'):
        "'upgrade FastAPI to 0.109.2 and pydantic to 2.5.3' as an active goal: done, 46 passed and CI green",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'neighbour_ladder_chat'):
        "'find a tennis ball and half a bird's nest' as a pending task (found already, by chance) and 'talk to "
        "the cafe on the corner' as a task and a next step (nobody is to)",
    ('facts', 'qwen2.5-coder:0.5b', 'apixaban_dentist'):
        "the assistant's advice about the ibuprofen gel ('it', unnamed) kept as a decision",
    ('facts', 'qwen2.5-coder:0.5b', 'neighbour_ladder_chat'):
        "'The ladder was borrowed for three weeks' kept as a decision",
    ('facts', 'qwen2.5-coder:1.5b', 'bristol_flat_offer'):
        "'£450 holding deposit' after it was corrected to £259.61, '5 weeks term' (the deposit is 5 weeks, the "
        "term 12 months), '£1,125 before signing', the cancelled 'Bishopston third viewing', two pieces of advice "
        "as decisions and two common nouns as entities",
    # The eleventh held-out set (HELD_OUT_11: written, recorded and labelled in
    # real_models_labels_heldout11.json before this replay, by a writer who read neither the checks nor
    # the rules of the store's own context), on main's checks of 93b7a6f.
    ('summary', 'qwen2.5-coder:1.5b', 'amoxicillin_school_nurse'):
        "unfaithful summary kept: 'the school needs to give the doses at home' and the 999 advice given to the "
        "school nurse (it was the assistant's); no ibuprofen warning",
    ('summary', 'qwen2.5-coder:1.5b', 'alembic_ci_failure'):
        "unfaithful summary kept: the overdue report 'failed in CI due to a mismatch between the test database "
        "and the CI database' (that was test_create_invoice's failure)",
    ('summary', 'qwen2.5-coder:1.5b', 'mum_seventieth_party'):
        "unfaithful summary kept: 'The venue is the Fox & Hounds' (turned down) and 'Alan's neighbour's house' "
        "(Alan is Rob's neighbour)",
    ('checkpoint', 'qwen2.5-coder:0.5b', 'alembic_ci_failure'):
        "'Run pytest -q', CI's command, as a pending task and a next step: CI is already running it",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'amoxicillin_school_nurse'):
        "'ring the GP this morning' pending and next after the GP saw him; the course 'carry on with the "
        "amoxicillin' as completed; three pieces of the assistant's advice (syringe, shake, fridge) as decisions",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'alembic_ci_failure'):
        "the assistant's suggestion 'Add a test that names the case ...' as a pending task and a next step "
        "(nobody took it up)",
    ('checkpoint', 'qwen2.5-coder:1.5b', 'private_car_sale'):
        "'Replace the tyre and get it valeted' as a goal, a task, a decision and a next step: the tyre is done "
        "and the valet dropped",
    ('facts', 'qwen2.5-coder:1.5b', 'alembic_ci_failure'):
        "the user's first turn ('CI is red ...') and test_create_invoice's failure after both were fixed, the "
        "assistant's wrong first fix and two pieces of advice as decisions, 'CI' and 'PR' as entities",
}


def _open(key: tuple[str, str, str], first: str, conversation: str) -> Any:
    """The case ``(first, conversation)``; expected to fail, strictly, when ``key`` is still
    open in issue 21: a listed case that passes fails the suite until its entry is deleted."""
    return pytest.param(
        first, conversation, id=f"{first}-{conversation}",
        marks=[pytest.mark.xfail(reason=OPEN_IN_ISSUE_21[key], strict=True)] if key in OPEN_IN_ISSUE_21 else [],
    )


def _cases(check: str) -> list[Any]:
    """Every recorded case for ``check``, those still open in issue 21 expected to fail."""
    return [_open((check, model, conversation), model, conversation) for model, conversation in CASES]


@pytest.mark.parametrize(("model", "conversation"), _cases("summary"))
def test_a_real_models_summary_is_kept_only_when_faithful(db_path, model: str, conversation: str) -> None:
    kept = replay(db_path, model, conversation)
    if kept.summary.source == FALLBACK:
        assert kept.summary.text == keyword_summary(kept.pairs)
        return
    assert kept.summary.source == model
    label = LABELS["summaries"].get(label_key(kept.summary.text))
    assert label is not None, f"unlabelled kept summary: {kept.summary.text!r}"
    assert label["label"] == "faithful", f"{label['label']} summary kept: {label['why']}"


@pytest.mark.parametrize(("model", "conversation"), _cases("checkpoint"))
def test_a_real_models_checkpoint_items_are_kept_only_when_true(
    db_path, model: str, conversation: str
) -> None:
    kept = replay(db_path, model, conversation)
    floor = checkpoint_items(rules_floor(None, StateSnapshot(), kept.pairs))
    mine = [item for item in checkpoint_items(kept.checkpoint.data) if item not in floor]
    labels = {item: item_label("items", conversation, *item) for item in mine}
    assert None not in labels.values(), f"unlabelled kept items: {labels}"
    false = [item for item, true in labels.items() if not true]
    assert not false, f"false checkpoint items kept: {false}"
    assert (kept.checkpoint.source == model) is bool(mine)  # credit only for kept items


@pytest.mark.parametrize(("model", "conversation"), _cases("facts"))
def test_a_real_models_facts_and_pins_are_kept_only_when_true(
    db_path, model: str, conversation: str
) -> None:
    kept = replay(db_path, model, conversation)
    rules = facts_items(rule_facts(extract(kept.pairs), [text for _, text in kept.pairs]))
    mine = [item for item in facts_items(kept.facts.data) if item not in rules]
    labels = {item: item_label("facts", conversation, *item) for item in mine}
    for pin in kept.new_pins:  # the model's must-remember items and updates' new sides
        found = pin_labels(model, conversation, pin)
        labels[("pin", pin)] = all(found) if found else None
    assert None not in labels.values(), f"unlabelled kept facts: {labels}"
    false = [item for item, true in labels.items() if not true]
    assert not false, f"false facts or pins kept: {false}"


@pytest.mark.parametrize(("model", "conversation"), [(m, c) for m, c in CASES if c in HELD_OUT])
def test_every_held_out_answer_was_labelled_in_its_own_file(model: str, conversation: str) -> None:
    """The held-out conversations' raw answers (the summary, every checkpoint and facts item
    proposed) are labelled in their set's file (real_models_labels_heldout.json,
    real_models_labels_heldout2.json, real_models_labels_heldout3.json,
    real_models_labels_heldout4.json, real_models_labels_heldout5.json,
    real_models_labels_heldout6.json, real_models_labels_heldout7.json,
    real_models_labels_heldout8.json, real_models_labels_heldout9.json,
    real_models_labels_heldout10.json, real_models_labels_heldout11.json), written before the replay: what the checks keep of
    them is judged, never chosen by the labels."""
    held = json.loads(HELD_OUT_FILES[conversation].read_text())
    recorded = RECORDINGS[model]["conversations"][conversation]
    missing = [] if label_key(recorded["summary"]["raw"]) in held["summaries"] else [("summary", "", "raw")]
    missing += [
        (kind, field, text)
        for kind, field, text in proposed(recorded)
        if label_key(f"{conversation}|{field}|{text}") not in held[kind]
    ]
    assert not missing, f"unlabelled held-out answers: {missing}"


@pytest.mark.parametrize(("model", "conversation"), [(m, c) for m, c in CASES if c == "knee_ibuprofen"])
def test_the_warning_a_real_models_kept_summary_lacks_is_pinned(db_path, model: str, conversation: str) -> None:
    """Issue 21: the knee summaries the store keeps (the fallback) lack the ibuprofen warning;
    it is pinned with its message as source."""
    kept = replay(db_path, model, conversation)
    assert "ibuprofen" not in kept.summary.text.casefold()
    assert any("ibuprofen" in pin and "warfarin" in pin for pin in kept.warning_pins), kept.warning_pins


def test_a_warning_the_kept_summary_lacks_is_pinned_and_reaches_every_context(store, server: Replay) -> None:
    """Issue 21: the faithful caregiver summary says the ibuprofen warning, so nothing is
    appended to it, but not "Avoid grapefruit juice with atorvastatin.": that warning is
    pinned in the session, its message the pin's source, and forgetting the message
    forgets it."""
    server.reply = FAITHFUL["caregiver"]
    session = _session(store, "caregiver")
    summary = store.summarize(session)
    assert (summary.source, summary.text) == (MODEL, FAITHFUL["caregiver"])
    (pin,) = [p for p in store.get_pins(session) if "grapefruit" in p.content]
    source = next(m for m in store.get_messages(session) if m.id == pin.source_message_id)
    assert pin.content == "Avoid grapefruit juice with atorvastatin." and pin.session_id == session
    assert pin.content in source.text and source.role == "assistant"
    context = store.build_context(session)
    assert pin.content in [p.content for p in context.pins]
    assert any(pin.content in m["content"] for m in context.to_messages())
    store.delete_message(source.id)
    assert not any("grapefruit" in p.content for p in store.build_context(session).pins)


FALLBACK_CASES = sorted({c for data in RECORDINGS.values() for c in data["conversations"]})


OWN_SUMMARIES = {"keyword": keyword_summary, "offline": offline_summary}


def _own_cases() -> list[Any]:
    """Every recorded conversation with each of the store's own summaries; those still open
    in issue 21 (``(f"{kind} summary", "store", conversation)``) expected to fail, strictly."""
    return [
        _open((f"{kind} summary", "store", conversation), kind, conversation)
        for conversation in FALLBACK_CASES
        for kind in OWN_SUMMARIES
    ]


@pytest.mark.parametrize(("kind", "conversation"), _own_cases())
def test_the_stores_own_summaries_of_every_recorded_conversation_are_faithful(kind: str, conversation: str) -> None:
    """Issue 21, point 3: the keyword and the offline summary of every recorded conversation
    name no topic the range does not say and quote no fact falsely (labelled by reading)."""
    recorded = next(d["conversations"][conversation] for d in RECORDINGS.values() if conversation in d["conversations"])
    pairs = [(role, text) for role, text in recorded["messages"]]
    text = OWN_SUMMARIES[kind](pairs)
    label = LABELS["summaries"].get(label_key(text))
    assert label is not None, f"unlabelled {kind} summary: {text!r}"
    assert label["label"] == "faithful", f"{kind} summary: {label['why']}"
