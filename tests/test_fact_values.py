"""A model's fact, decision or pin states its values as one sentence of the chat binds them
(issue 21, point 4): the dose with the period its sentence gives it, never a value said
nowhere nor values of two sentences stitched into one claim. Conversations written for these
tests."""

from __future__ import annotations

from localmem.claims import statements_of, values_apart, widens
from localmem.facts import ModelFacts
from localmem.remember import must_remember
from localmem.testimony import user_evidence
from localmem.statements import by_sentence

DOSE = [
    ("user", "The vet called back: we start on Tuesday. She set the dose at 50 mg once a day for "
             "the first week, then twice a day."),
    ("assistant", "Noted: start Tuesday with 50 mg once a day for the first week, then 50 mg twice a day."),
    ("user", "How much is the refill?"),
    ("assistant", "40 dollars."),
]


def test_values_said_together_stand() -> None:
    stated = statements_of(DOSE)
    assert not values_apart("start Tuesday with 50 mg once a day", stated)
    assert not values_apart("then 50 mg twice a day", stated)
    assert not values_apart("the refill is 40 dollars", stated)  # the value and the question it answers
    assert not values_apart("the dose was set by the vet", stated)  # no value: nothing to bind


def test_a_value_said_nowhere_or_bound_elsewhere_is_apart() -> None:
    stated = statements_of(DOSE)
    assert values_apart("50 mg twice a day for the third week", stated)  # "third": said nowhere
    assert values_apart("start Tuesday with 40 mg once a day", stated)  # 40 is the refill's price
    # one value said anywhere stands: which thing it is of is revisions' and grounding's
    assert not values_apart("the refill is 50 dollars", stated)


def test_a_decision_with_values_stitched_from_two_sentences_is_not_kept() -> None:
    answer = ModelFacts(
        decisions=["start Tuesday with 50 mg once a day for the first week",
                   "start Tuesday with 50 mg twice a day for the second week"],
        key_facts=["the vet set the dose at 50 mg once a day", "the vet set the dose at 50 mg three times a day"],
    )
    data = answer.grounded(DOSE)
    assert data.decisions == ["start Tuesday with 50 mg once a day for the first week"]
    assert data.key_facts == ["the vet set the dose at 50 mg once a day"]


def test_a_pin_with_a_value_its_sentences_do_not_give_is_not_kept() -> None:
    said = [("user", "I take metformin 500 mg twice a day."), ("user", "My next refill is on Friday.")]
    answer = ModelFacts(must_remember=["metformin 500 mg twice a day", "metformin 500 mg on Friday"])
    assert must_remember(answer, user_evidence(said)) == ["metformin 500 mg twice a day"]


PARTY = [
    ("user", "The birthday party is for 12 guests, on Saturday."),
    ("assistant", "Lovely. Do you need a bigger cake?"),
    ("user", "Actually 15 guests now, her cousins are coming."),
]


def test_a_value_a_later_message_replaced_is_no_fact_nor_pin() -> None:
    """A model's fact or pin stating a value the chat replaced later (``staleness.stale``) is
    not kept; the new value, and a value nothing replaced, are."""
    answer = ModelFacts(
        key_facts=["The birthday party is for 12 guests", "The birthday party is for 15 guests",
                   "The birthday party is on Saturday"],
        must_remember=["birthday party for 12 guests", "birthday party for 15 guests"],
    )
    assert answer.grounded(PARTY).key_facts == [
        "The birthday party is for 15 guests", "The birthday party is on Saturday",
    ]
    assert must_remember(answer, user_evidence(PARTY)) == ["birthday party for 15 guests"]


REPORTS = [
    ("user", "The export test hardcodes /tmp/reports, so two workers clash there. All other tests pass."),
    ("assistant", "Use a temporary directory per test."),
    ("user", "I back up every report to the NAS every night."),
]


def test_a_claim_of_every_case_needs_a_sentence_that_says_every() -> None:
    """"all tests write to /tmp/reports" of "the export test hardcodes /tmp/reports": a claim
    widened from one case to all is not kept, as a pin or a fact; one its sentence says of
    all stands."""
    answer = ModelFacts(
        key_facts=["all tests write to /tmp/reports", "the export test hardcodes /tmp/reports"],
        must_remember=["all tests write to /tmp/reports", "backs up every report to the NAS every night"],
    )
    assert answer.grounded(REPORTS).key_facts == ["the export test hardcodes /tmp/reports"]
    assert must_remember(answer, user_evidence(REPORTS)) == ["backs up every report to the NAS every night"]
    assert widens("all tests hardcode /tmp/reports", by_sentence([REPORTS[0][1]]))
    assert not widens("every report is backed up to the NAS", by_sentence([REPORTS[2][1]]))
    assert not widens("the export test hardcodes /tmp/reports", by_sentence([REPORTS[0][1]]))  # no "all": nothing widened


WEEKEND = [
    ("assistant", "Any plans for the weekend?"),
    ("user", "The flea market on Saturday morning, then maybe a film."),
    ("user", "I booked the dentist for Friday at 10."),
    ("user", "The vet called. They want to see him again tomorrow at 9 am."),
    ("user", "I walk the dog every morning."),
]


def test_the_users_own_plan_for_a_day_is_no_pin() -> None:
    """Issue 21, point 4: a weekend plan is a next step, not a fact shown in every chat; a
    booking, a date someone else set and a routine are kept."""
    answer = ModelFacts(must_remember=[
        "The flea market on Saturday morning", "dentist booked for Friday at 10",
        "they want to see him again tomorrow at 9 am", "walks the dog every morning",
    ])
    assert must_remember(answer, user_evidence(WEEKEND)) == [
        "dentist booked for Friday at 10", "they want to see him again tomorrow at 9 am",
        "walks the dog every morning",
    ]
    own = [("user", "I'm visiting my aunt Rosa on Sunday."), ("user", "My uncle's knee surgery is on Monday.")]
    answer = ModelFacts(must_remember=["visiting aunt Rosa on Sunday", "uncle's knee surgery is on Monday"])
    assert must_remember(answer, user_evidence(own)) == ["uncle's knee surgery is on Monday"]  # a date, not a plan of theirs
