"""guesses: a claim resting on what a conversation said only as possible and denied later
is stale (issue 21, points 1 and 4: "a guess the assistant took back is not a fact")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from localmem.guesses import taken_back
from localmem.staleness import stale

DATES = [
    "My test expects 2024-03-10 but gets 2024-03-09 in CI.",
    "It might be daylight saving time shifting the date back by an hour.",
    "CI runs in America/Los_Angeles.",
    "Actually, daylight saving isn't involved: the string is parsed as UTC midnight, still the 9th in Los Angeles.",
]


@pytest.mark.parametrize(
    "claim",
    ["Daylight saving time shifts the date back by an hour.", "The date is shifted by daylight saving time."],
)
def test_a_claim_resting_on_a_guess_taken_back_is_stale(claim: str) -> None:
    assert taken_back(claim, DATES) is not None
    assert stale(claim, DATES) is not None


@pytest.mark.parametrize(
    ("texts", "claim"),
    [
        (DATES, "The string is parsed as UTC midnight."),  # what the conversation ended with
        (DATES, "Daylight saving is not involved."),  # the denial told
        (DATES[:3], "Daylight saving time shifts the date back by an hour."),  # never taken back
        (["It might be the float switch sticking.", "Yes, the float switch was sticking; cleaned it."],
         "The float switch was sticking."),  # confirmed, not denied
        (["How do I get to Varenna? Is there a train?",
          "You could probably take the train to Varenna from Milano Centrale.",
          "The train to Varenna isn't expensive, about 7 euros."],
         "Take the train to Varenna from Milano Centrale."),  # another thing denied of it
        (["Since the flight was cancelled, you may be owed compensation under EU rules.",
          "Haven't claimed the compensation yet."],
         "You may be owed compensation."),  # one shared word: another thing said of it
        (["Is it daylight saving time shifting the date?", "No, daylight saving isn't involved."],
         "Daylight saving time shifts the date."),  # asked, not guessed
    ],
)
def test_a_claim_not_resting_on_a_guess_taken_back_is_not_stale(texts: list[str], claim: str) -> None:
    assert taken_back(claim, texts) is None


@given(st.lists(st.text(max_size=80), max_size=5), st.text(max_size=80))
def test_taken_back_never_raises(texts: list[str], claim: str) -> None:
    taken_back(claim, texts)


def test_a_first_guess_the_speaker_says_was_wrong_is_taken_back() -> None:
    """Issue 21 (seventh set, seen after its run: js_date_off_by_one): "my first guess is
    daylight saving" and, later, "I was wrong about daylight saving: ..."."""
    texts = ["A user in Chicago sees every due date one day early.",
             "March 9 to 10 is when US clocks go forward, so my first guess is daylight saving: "
             "the date is crossing the DST change.",
             "I was wrong about daylight saving: July 15 fails the same way. The real cause is how the "
             "date-only string is parsed as midnight UTC."]
    assert taken_back("The date is crossing the DST change because of daylight saving.", texts) is not None
    assert taken_back("The date-only string is parsed as midnight UTC.", texts) is None
    assert taken_back("The date is crossing the DST change because of daylight saving.", texts[:2]) is None
