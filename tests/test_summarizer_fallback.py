"""Deterministic fallback and offline summaries."""

from __future__ import annotations

import timeit
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from localmem.summarizer.fallback import (
    NO_MESSAGES_SUMMARY,
    extract_topics,
    keyword_summary,
    offline_summary,
)

Messages = list[tuple[str, str]]
Summarize = Callable[[Messages], str]

TECH_CHAT: Messages = [
    ("user" if i % 2 == 0 else "assistant", text)
    for i, text in enumerate(
        [
            "How do I write a function that reads the orders table?",
            "Use a SELECT with a WHERE clause.",
            "The SQL query throws an error on the date column.",
            "Cast the column to DATE first.",
            "Now the code runs, but there's a bug with time zones.",
            "Store timestamps in UTC.",
            "Can I fix it in the database itself?",
            "Yes, with a migration.",
            "What about the API endpoint that returns orders?",
            "Convert to local time there.",
            "Should the request carry the user's time zone?",
            "Yes, as a header.",
            "Great, I'll build that.",
            "Good luck.",
            "Thanks, this helps a lot.",
        ]
    )
]
PLAIN_CHAT: Messages = [
    ("user", "Good morning! My grandmother needs reminders every day for her pills."),
    ("assistant", "A phone alarm at 8am works well."),
    ("user", "Thanks, she will love that"),
]
STRANGE_TEXTS = [
    "",
    "   \n\t  ",
    "x" * 200_000,
    " " * 200_000 + "late start",
    "line one\nline two\r\nline three",
    "\U0001f48a\U0001f475\U0001f3fd pills for grandma \u2764\ufe0f",
    "\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627",
    "e\u0301" * 100,
    "\ud800 lone surrogate \udfff",
    "\x00\x01\x1b[31m control",
    "\"quoted\" 'text' with \\ backslashes",
]


@pytest.mark.parametrize(
    ("text", "topics"),
    [
        ("How do I fix this SQL error in my code?", ["programming", "database", "troubleshooting"]),
        ("Write a POEM about a song", ["poetry", "music"]),
        ("Tell me a story about a dragon character", ["creative writing"]),
        ("Can you help me explain why the sky is blue?", ["help/explanation", "Q&A"]),
        ("My debugging of the MySQL table", ["database", "troubleshooting"]),
        ("the therapist chopped vegetables rapidly", []),
        ("", []),
    ],
)
def test_extract_topics_uses_the_origin_table(text: str, topics: list[str]) -> None:
    assert extract_topics(text) == topics


@pytest.mark.parametrize(("limit", "expected"), [(0, []), (1, ["programming"]), (5, 4)])
def test_extract_topics_respects_the_limit(limit: int, expected: list[str] | int) -> None:
    text = "code, a sql table, an api request, a bug"
    topics = extract_topics(text, limit=limit)
    assert topics == expected if isinstance(expected, list) else len(topics) == expected


def test_keyword_summary_with_topics_has_the_origin_wording() -> None:
    assert keyword_summary(TECH_CHAT) == (
        "Conversation with 15 messages (8 user, 7 assistant) about: "
        "programming, database, API."
    )


def test_keyword_summary_without_topics_quotes_first_and_last_user_messages() -> None:
    assert keyword_summary(PLAIN_CHAT) == (
        'Conversation with 3 messages. Started with: "Good morning! My grandmother n..."'
        ' Recent topic: "Thanks, she will love that"'
    )


def test_offline_summary_gives_count_topics_and_samples() -> None:
    summary = offline_summary(TECH_CHAT)
    assert summary.startswith("Offline summary: 15 messages about: programming, database, API.")
    assert 'Started: "How do I write a function that reads the orders ta..."' in summary
    assert 'Recent: "Thanks, this helps a lot."' in summary


def test_offline_summary_without_topics() -> None:
    assert offline_summary(PLAIN_CHAT) == (
        'Offline summary: 3 messages. Started: "Good morning! My grandmother needs reminders '
        'every..." Recent: "Thanks, she will love that"'
    )


@pytest.mark.parametrize("summarize", [keyword_summary, offline_summary])
def test_the_same_messages_give_the_same_summary(summarize: Summarize) -> None:
    assert summarize(TECH_CHAT) == summarize(list(TECH_CHAT)) == summarize(tuple(TECH_CHAT))
    assert summarize(PLAIN_CHAT) == summarize([tuple(m) for m in PLAIN_CHAT])


@pytest.mark.parametrize("summarize", [keyword_summary, offline_summary])
def test_no_messages(summarize: Summarize) -> None:
    assert summarize([]) == NO_MESSAGES_SUMMARY


@pytest.mark.parametrize("summarize", [keyword_summary, offline_summary])
@pytest.mark.parametrize("text", STRANGE_TEXTS)
@pytest.mark.parametrize("role", ["user", "assistant", "", "TOOL"])
def test_strange_input_gives_a_short_single_line_summary(
    summarize: Summarize, text: str, role: str
) -> None:
    summary = summarize([(role, text), ("user", text)])
    _assert_storable(summary)


@given(
    st.lists(
        st.tuples(st.sampled_from(["user", "assistant", "system", "tool", "x"]), st.text()),
        max_size=20,
    )
)
def test_any_messages_give_a_storable_deterministic_summary(messages: Messages) -> None:
    for summarize in (keyword_summary, offline_summary):
        summary = summarize(messages)
        _assert_storable(summary)
        assert summarize(messages) == summary


@pytest.mark.parametrize("summarize", [keyword_summary, offline_summary])
def test_fallback_is_fast(summarize: Summarize) -> None:
    runs = 200
    best = min(timeit.repeat(lambda: summarize(TECH_CHAT), number=runs, repeat=5))
    assert best / runs < 0.001


def _assert_storable(summary: str) -> None:
    assert 0 < len(summary) < 300
    assert "\n" not in summary
    summary.encode("utf-8")  # no lone surrogates: SQLite would refuse them
