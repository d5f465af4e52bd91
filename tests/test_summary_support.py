"""A model's summary is held to the conversation sentence by sentence (issue 21, point 2):
an unsupported sentence is dropped and logged (its number and why, never its words); a
summary with too little left is replaced by the deterministic one. Through the store, the
real ``ollama`` client and the fake server over loopback; the conversation and the summaries
are written for this test."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from localmem import MemoryConfig, MemoryStore
from localmem.summarizer import FALLBACK
from localmem.summarizer.fallback import keyword_summary
from localmem.summarizer.support import ground
from localmem.summarizer.warned import unsaid_warnings
from tests.ollama_server import FakeOllama

MODEL = "llama3.2:latest"
CHAT = [
    ("user", "I'm hosting dinner for six on Saturday, and my brother Paul is coming."),
    ("assistant", "Nice. Is anyone vegetarian or allergic to anything?"),
    ("user", "Paul is allergic to shellfish."),
    ("assistant", "Then skip the shrimp starter and make a mushroom risotto instead."),
    ("user", "Can I still serve shrimp to the others?"),
    ("assistant", "Better not: keep shellfish out of the kitchen, cross-contact is a real risk for him."),
    ("user", "Okay. I already bought the wine, a Rioja."),
    ("assistant", "Good pick. Do you have a dessert?"),
    ("user", "I'll bake a lemon tart on Friday evening and send you the recipe tomorrow."),
    ("assistant", "Great, I look forward to it."),
]
GOOD = (
    "Paul is allergic to shellfish, so no shrimp starter but a mushroom risotto. "
    "The user bought a Rioja and will bake a lemon tart on Friday."
)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOllama]:
    with FakeOllama() as fake:
        monkeypatch.setenv("OLLAMA_HOST", fake.host)
        yield fake


def summarize(db_path, server: FakeOllama, reply: str, pairs=CHAT):
    server.reply = reply
    with MemoryStore(db_path, config=MemoryConfig(summary_threshold=len(pairs))) as store:
        session = store.create_session(model="llama3.2").id
        store.add_messages(session, [{"role": r, "text": t} for r, t in pairs])
        return store.summarize(session)


def test_a_summary_the_turns_support_is_kept_whole(db_path, server: FakeOllama) -> None:
    summary = summarize(db_path, server, GOOD)
    assert (summary.source, summary.text) == (MODEL, GOOD)


def test_an_invented_combination_is_dropped_and_logged_without_its_words(
    db_path, server: FakeOllama, caplog: pytest.LogCaptureFixture
) -> None:
    invented = "Paul is hosting the wine for the kitchen."
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = summarize(db_path, server, f"{GOOD} {invented}")
    assert (summary.source, summary.text) == (MODEL, GOOD)
    assert "sentence 3 of 3 dropped: not supported by any one message" in caplog.text
    assert "kitchen" not in caplog.text


@pytest.mark.parametrize(
    ("sentence", "why"),
    [
        ("The user baked the lemon tart on Friday.", "states as done what was planned"),
        ("The user will buy a Rioja.", "states as planned what was done"),
        ("The user will send Paul the recipe.", "names someone else where its source says 'you'"),
        ("Paul is not allergic to shellfish.", "negation flipped"),
    ],
)
def test_a_sentence_that_changes_status_party_or_polarity_is_dropped(
    db_path, server: FakeOllama, caplog, sentence: str, why: str
) -> None:
    kept = "Dinner for six is on Saturday. The user already bought a Rioja."
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = summarize(db_path, server, f"{kept} {sentence}")
    assert summary.source == MODEL and summary.text.startswith(kept)
    assert sentence not in summary.text  # (the allergy the summary lacks is added to it)
    assert f"sentence 3 of 3 dropped: {why}" in caplog.text


def test_a_question_answered_better_not_is_no_source(db_path, server: FakeOllama, caplog) -> None:
    """"Can I still serve shrimp to the others?" "Better not": restating it is denied."""
    assert ground("The others may still get shrimp.", CHAT).text is None
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = summarize(db_path, server, "Dinner is on Saturday. The others may still get shrimp.")
    assert summary.source == FALLBACK and "answered no to" in caplog.text


def test_a_summary_with_most_sentences_unsupported_is_replaced(db_path, server: FakeOllama, caplog) -> None:
    reply = (
        "Paul is allergic to shellfish. Paul is hosting the wine for the kitchen. "
        "The user baked the lemon tart on Friday."
    )
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = summarize(db_path, server, reply)
    assert summary.source == FALLBACK and summary.text == keyword_summary(CHAT)
    assert "2 of its 3 sentences are not supported" in caplog.text


def test_a_terse_chat_supports_a_sentence_across_its_turns(db_path, server: FakeOllama) -> None:
    terse = [
        ("user", "pizza tonight?"), ("assistant", "sure"), ("user", "luigi's?"),
        ("assistant", "ok. what time"), ("user", "7pm"), ("assistant", "fine"),
        ("user", "pepperoni"), ("assistant", "and a veggie half"), ("user", "ok"),
        ("assistant", "can u pick it up"), ("user", "yes"), ("assistant", "k"),
    ]
    good = "Pizza from Luigi's at 7pm tonight, pepperoni and a veggie half; one picks it up."
    assert ground(good, terse).text == good
    # The same words in a relation no run of turns states: dropped, nothing left.
    assert ground("Luigi's delivers the veggie half.", terse).text is None


def test_a_clause_reporting_talk_may_rest_on_a_question() -> None:
    asked = [("user", "Can I freeze the lemon tart?"), ("user", "Also, how long does it keep?")]
    assert ground("The user asked about freezing the lemon tart.", asked).dropped == ()
    assert ground("The lemon tart freezes well.", asked).text is None  # a question states nothing


def test_the_warnings_a_summary_does_not_say() -> None:
    pairs = [
        ("user", "Dad takes warfarin. Can he take ibuprofen?"),
        ("assistant", "Never give him ibuprofen with warfarin: it raises the risk of bleeding."),
        ("tool", "pharmacy_lookup: Allergies: none recorded."),
        ("assistant", "Bring his medication list and ask about side effects."),
        ("user", "He is allergic to penicillin."),
    ]
    said = "Dad takes warfarin, must not take ibuprofen and is allergic to penicillin."
    assert unsaid_warnings(said, pairs) == []
    assert unsaid_warnings("Dad takes warfarin.", pairs) == [
        ("Never give him ibuprofen with warfarin: it raises the risk of bleeding.", 1),
        ("He is allergic to penicillin.", 4),
    ]  # not the tool's record, not advice about side effects, not the question
