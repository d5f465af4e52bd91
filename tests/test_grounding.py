"""localmem.grounding: a model's checkpoint item is stored only when the conversation supports it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from localmem.grounding import Evidence, check, check_name, content_words, holds_word, negated_words

CAREGIVER = [
    "Warfarin 5 mg every evening, metoprolol 25 mg twice a day.",
    "Let's put warfarin at 6 pm every day. Does she have any allergies?",
    "Yes, she's allergic to penicillin.",
    "Her knee hurts a lot. Can she take ibuprofen for the pain?",
    "Please don't give her ibuprofen while she is on warfarin: they raise the risk of bleeding.",
    "Don't forget the evening dose. Use acetaminophen instead of ibuprofen for pain.",
    "Her INR check is on Tuesday March 12 at 10:30 with Dr. Patel.",
]
EVIDENCE = Evidence(CAREGIVER, conversation=CAREGIVER)


@pytest.mark.parametrize(
    "item",
    [
        "Put warfarin at 6 pm every day",
        "INR check on Tuesday March 12 at 10:30",
        "Use acetaminophen instead of ibuprofen",  # the substitution, the right way round
        "Never give ibuprofen with warfarin",  # a warning stays a warning
        "Avoid ibuprofen",
        "Remember the evening dose",  # "don't forget" negates nothing
        "She is allergic to penicillin",
    ],
)
def test_supported_items_are_kept(item: str) -> None:
    assert EVIDENCE.check(item) is None


@pytest.mark.parametrize(
    ("item", "reason"),
    [
        ("Take ibuprofen instead of penicillin", "warns against"),  # issue 17, the 1.5B's
        ("take ibuprofen for it", "warns against"),  # issue 17, the 0.5B's; only a question asked it
        ("Use ibuprofen instead of acetaminophen", "warns against"),  # the substitution reversed
        ("Give penicillin for infections", "warns against"),
        ("I love writing folk songs", "not supported"),  # invented
        ("Schedule a colonoscopy with Dr. Patel next Friday", "not supported"),  # one shared word
        ("id: 3", "no content words"),
        ("Do it now", "no content words"),
    ],
)
def test_unsupported_or_flipped_items_are_dropped(item: str, reason: str) -> None:
    found = EVIDENCE.check(item)
    assert found is not None and reason in found


def test_most_content_words_must_be_in_one_message() -> None:
    """Words scattered over several messages do not support an item."""
    evidence = Evidence(["The report goes to Anna.", "Deploy on Friday."])
    assert evidence.check("Deploy the report to Anna on Friday") is not None
    assert evidence.check("Report goes to Anna") is None


def test_a_question_supports_nothing() -> None:
    evidence = Evidence(["Should we migrate the billing database this weekend?"])
    assert evidence.check("Migrate the billing database this weekend") is not None
    answered = Evidence(["Should we migrate it? Yes: migrate the billing database this weekend."])
    assert answered.check("Migrate the billing database this weekend") is None


def test_a_negation_flipped_against_its_source_is_dropped() -> None:
    evidence = Evidence(["Keep the retries, never disable the cache in production."])
    assert evidence.check("Never disable the cache in production") is None
    assert "flipped" in str(evidence.check("Disable the cache in production"))


def test_a_carrier_verb_is_not_a_warning_by_itself() -> None:
    """ "never give her ibuprofen" warns against ibuprofen, not against giving anything."""
    evidence = Evidence(["Never give her ibuprofen.", "Give her the warfarin at 6 pm."])
    assert evidence.check("Give warfarin at 6 pm") is None
    assert evidence.check("Give her ibuprofen") is not None


@pytest.mark.parametrize(
    ("name", "kept"),
    [("tests/test_cache.py", True), ("_last_good", True), ("id: 3", False), ("3", False),
     ("x", False), ("cache_v2.py", False)],
)
def test_a_reference_must_appear_verbatim(name: str, kept: bool) -> None:
    evidence = Evidence(["Add a test in tests/test_cache.py and delete _last_good."])
    assert (check_name(name, evidence) is None) is kept


def test_words_and_negations() -> None:
    assert content_words("Take 5 mg of Warfarin, not ibuprofen!") == ["take", "5", "warfarin", "ibuprofen"]
    assert negated_words("Don't give her ibuprofen and take acetaminophen.") == ["ibuprofen"]
    assert negated_words("Never give ibuprofen or aspirin with warfarin.") == ["ibuprofen", "aspirin"]
    assert negated_words("Avoid grapefruit juice with atorvastatin.") == ["grapefruit", "juice"]
    assert negated_words("Mia is allergic to peanuts and tree nuts.") == ["peanuts", "tree", "nuts"]
    assert negated_words("She has a penicillin allergy.") == ["penicillin"]
    assert negated_words("Use tabs rather than spaces.") == ["spaces"]


def test_a_negation_reaches_the_examples_of_its_object() -> None:
    """"avoid NSAIDs like ibuprofen" warns against ibuprofen too (issue 21's live run: a
    summary said she "may take ibuprofen")."""
    assert negated_words("She should avoid NSAIDs like ibuprofen.") == ["nsaids", "ibuprofen"]
    assert negated_words("No NSAIDs, such as ibuprofen or naproxen.") == ["nsaids"]  # a comma ends it
    assert negated_words("Skip NSAIDs such as ibuprofen or naproxen.") == ["nsaids", "ibuprofen", "naproxen"]
    assert negated_words("Avoid dairy including cheese.") == ["dairy", "cheese"]
    assert negated_words("I like ibuprofen for headaches.") == []  # no negation to reach it
    assert negated_words("Avoid sugar; like I said, fruit is fine.") == ["sugar"]


@given(st.text(max_size=200), st.lists(st.text(max_size=200), max_size=5))
def test_any_text_gets_an_answer(item: str, sources: list[str]) -> None:
    evidence = Evidence(sources, conversation=sources)
    first = check(item, evidence)
    assert first is None or isinstance(first, str)
    assert check(item, evidence) == first
    assert check_name(item, evidence) in (None, "no content words", "not in any message")


@pytest.mark.parametrize(
    ("forms", "form", "held"),
    [({"deposit"}, "deposit", True), ({"deposits"}, "deposit", True), ({"rent", "split"}, "deposit", False), (set(), "rent", False)],
)
def test_forms_hold_a_word_as_itself_or_another_form_of_it(forms: set[str], form: str, held: bool) -> None:
    assert holds_word(forms, form) is held
