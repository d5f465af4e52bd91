"""The prefilters of the offline summary's rules: a literal checked before a slower pattern.

Each must never skip a text the pattern matches (the summaries, facts and topics stay the
same, only faster): every string Hypothesis generates holding a match of the pattern holds
one of its literals, in the text as ``words.lowered`` sees it.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from localmem import extract
from localmem.summarizer import fallback, salient
from localmem.words import lowered

RULES = [
    (extract._PREFERENCE, extract.PREFERENCE_LITERALS),
    (extract._DECISION, extract.DECISION_LITERALS),
    (extract._TASK, extract.TASK_LITERALS),
    (extract._GOAL, extract.GOAL_LITERALS),
]
TOPICS = [
    (pattern, literal)
    for _topic, name, keywords in fallback._SAID_PATTERNS
    for literal, pattern in (name, *keywords)
]


@pytest.mark.parametrize(("pattern", "literals"), RULES, ids=["preference", "decision", "task", "goal"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_an_extract_rule_never_skips_a_sentence_it_matches(pattern: re.Pattern, literals, data) -> None:
    text = data.draw(st.from_regex(pattern))
    assert any(literal in lowered(text) for literal in literals), text


@pytest.mark.parametrize(("pattern", "literal"), TOPICS, ids=[p.pattern for p, _ in TOPICS])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_topic_keyword_is_searched_wherever_it_can_match(pattern: re.Pattern, literal: str, data) -> None:
    text = data.draw(st.from_regex(pattern))
    assert literal in lowered(text), text


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_file_name_is_looked_for_wherever_one_can_be(data) -> None:
    text = data.draw(st.from_regex(salient._REFERENCES[0][1]))
    assert salient._FILE_END.search(text), text


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_rules_look_for_a_file_name_wherever_one_can_be(data) -> None:
    text = data.draw(st.from_regex(extract._FILE))
    assert extract._FILE_END.search(text), text


@pytest.mark.parametrize(
    ("text", "topics"),
    [
        ("Help me with codıng this function", ["programming"]),  # dotless i
        ("Please explaın how to do it", ["help/explanation"]),
        ("A ſtory with a narrative", ["creative writing"]),  # long s
        ("WHY is the SQL TABLE empty", ["database"]),
    ],
)
def test_topics_are_found_in_letters_that_only_match_case_insensitively(text: str, topics: list[str]) -> None:
    # "ı" and "ſ" match "i" and "s" in a case-insensitive pattern but are kept by str.lower.
    assert fallback.said_topics(text) == topics


def test_the_extract_rules_read_sentences_in_any_case() -> None:
    found = extract.extract([("user", "I PREFER metric units. WE DECIDED to use Postgres. TODO: write the tests.")])
    assert found.preferences == ["I PREFER metric units."]
    assert found.decisions == ["WE DECIDED to use Postgres."]
    assert found.tasks == ["write the tests."]
