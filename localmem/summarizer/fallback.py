"""Deterministic summaries for when no model summary can be stored.

Two situations, two wordings, both from the origin:

- :func:`keyword_summary` — a model answered but its output was rejected by validation, or the
  server answered with an HTTP error. The origin's keyword topic table names what the user's
  messages were about, a topic only when they say it (:func:`said_topics`: its name or two
  of its keywords, each said as a word, not only as a name: "not doing Poetry"; the origin named one for a single keyword, "about: database,
  troubleshooting, poetry" for a chat between friends) (``Conversation with 15 messages (8 user, 7 assistant) about:
  programming, database, troubleshooting.``); with no topic it quotes the first and the last
  user message (``Conversation with 15 messages. Started with: "How do I create a REST API..."
  Recent topic: "Can you explain JWT authent..."``).
- :func:`offline_summary` — no model is reachable (or none is installed): the message count,
  the topics if any, and samples of the first and last messages (``Offline summary: 15
  messages. Started: "..." Recent: "..."``). The origin's leading emoji is dropped: the stored
  ``source`` column already says ``offline``.

Both then carry the span's salient facts (:mod:`localmem.summarizer.salient`): the sentences
with allergies, medicines and warnings, appointments, decisions, dates, money, numbers and
names, best first, as many as fit in the 300 characters after the origin's wording, in
conversation order (``... about: programming. Facts: Mom takes warfarin 5 mg at 6 pm. She
is allergic to penicillin.``); a span without any keeps the origin's wording exactly.

Both are pure functions of their input: the same messages always give the same text, in well
under a millisecond for a 15-message range. They never raise on any ``str`` input (empty
lists, empty or huge strings, any unicode, lone surrogates included) and always return at most
:data:`~localmem.summarizer.prompts.DEFAULT_MAX_SUMMARY_CHARS` characters of valid UTF-8.

Differences from the origin, on purpose: keywords match at the start of a word (the origin's
plain substring test found "API" in "therapist" and "database" in "vegetables"); a sample
ends with "..." only when it was cut; "1 message" is singular; an empty range says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from localmem import words as vocab
from localmem.staleness import stale
from localmem.summarizer.salient import salient_facts
from localmem.summarizer.prompts import DEFAULT_MAX_SUMMARY_CHARS

DEFAULT_TOPIC_LIMIT: Final = 3
DEFAULT_SAMPLE_CHARS: Final = 30
"""Characters quoted from a user message in a keyword summary (the origin's 30)."""
DEFAULT_OFFLINE_SAMPLE_CHARS: Final = 50
"""Characters quoted from a message in an offline summary (the origin's 50)."""
NO_MESSAGES_SUMMARY: Final = "No messages to summarize."
ELLIPSIS: Final = "..."
FACTS_LABEL: Final = "Facts:"

TOPIC_KEYWORDS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    # Technical topics
    ("programming", (r"code", r"coding", r"programming", r"function")),
    ("database", (r"database", r"\w*sql", r"table")),
    ("API", (r"apis?(?![^\W\d_])", r"endpoint", r"request")),
    ("troubleshooting", (r"bug", r"debug", r"error", r"fix")),
    # Creative topics
    ("poetry", (r"poetry", r"poem", r"verse")),
    ("creative writing", (r"story", r"stories", r"narrative", r"character")),
    ("music", (r"song", r"lyrics", r"music")),
    # General topics
    ("help/explanation", (r"help", r"how to", r"explain")),
    ("project work", (r"project", r"build", r"create")),
    ("Q&A", (r"question", r"what is", r"why\b")),
)
"""The origin's keyword -> topic table, in its order (which is also the output order).
Each keyword is a regex matched case-insensitively at the start of a word."""

_TOPIC_PATTERNS: Final = tuple(
    (topic, re.compile(r"\b(?:" + "|".join(keywords) + ")", re.IGNORECASE))
    for topic, keywords in TOPIC_KEYWORDS
)
_NON_SPACE = re.compile(r"\S")
_LEADING_LITERAL = re.compile(r"(?:\\w\*)?([^\\()?*+\[{]+)([?*{]?)")


def _literal(keyword: str) -> str:
    """The letters every match of ``keyword`` (a :data:`TOPIC_KEYWORDS` regex) holds,
    lower-cased: ``\\w*sql`` -> ``sql``, ``apis?...`` -> ``api``, ``why\\b`` -> ``why``
    (none for a keyword that starts otherwise: its regex then always runs)."""
    match = _LEADING_LITERAL.match(keyword)
    literal, quantified = match.groups() if match else ("", "")
    return (literal[:-1] if quantified else literal).lower()


# Per topic: its name (a literal and its pattern) and its keywords (each a literal and a
# pattern). A pattern runs only where its literal is in the lowered text: a keyword not
# there cannot match, and most are not (45 regex scans of a range's text were a quarter of
# an offline summary's time).
_SAID_PATTERNS: Final = tuple(
    (
        topic,
        (topic.lower(), re.compile(rf"\b{re.escape(topic)}\b", re.IGNORECASE)),
        tuple((_literal(k), re.compile(rf"\b(?:{k})", re.IGNORECASE)) for k in keywords),
    )
    for topic, keywords in TOPIC_KEYWORDS
)


def extract_topics(text: str, limit: int = DEFAULT_TOPIC_LIMIT) -> list[str]:
    """Topics of :data:`TOPIC_KEYWORDS` that ``text`` mentions: at most ``limit``, table order."""
    topics: list[str] = []
    for topic, pattern in _TOPIC_PATTERNS:
        if len(topics) >= limit:
            break
        if pattern.search(text):
            topics.append(topic)
    return topics


def said_topics(text: str, limit: int = DEFAULT_TOPIC_LIMIT) -> list[str]:
    """Topics of :data:`TOPIC_KEYWORDS` that ``text`` says (at most ``limit``, table
    order): two different keywords of the topic, or the topic's own name ("poetry"). One
    keyword is not enough: friends setting a table, fixing dinner and quoting a verse
    are not talking about a database, troubleshooting and poetry. A word said only as a
    name (:func:`_said_as_word`: "we're not doing Poetry", a tool) names no topic: issue
    21 point 3, a topic word is named only when the range says it."""
    lowered = vocab.lowered(text)
    topics: list[str] = []
    for topic, (name, named), keywords in _SAID_PATTERNS:
        if len(topics) >= limit:
            break
        if name in lowered and _said_as_word(named, text):
            topics.append(topic)
            continue
        found = sum(1 for word, k in keywords if word in lowered and _said_as_word(k, text))
        if found >= 2:
            topics.append(topic)
    return topics


_WORD_REST = re.compile(r"\w*")
_SENTENCE_OPENERS: Final = frozenset(".!?:;\"'\u201c([*#>\u2022-")
"""What may stand before a sentence's first word (else nothing on its line): an end of
sentence, an opening quote or bracket, a list's mark."""


def _said_as_word(pattern: re.Pattern[str], text: str) -> bool:
    """Whether ``pattern`` (a topic's name or keyword) matches ``text`` somewhere as a common
    word: not inside a word written as a name, capitalised then lower-case in the middle of a
    sentence ("move the whole thing to Poetry", "we watched Toy Story"). A word in capitals
    ("API", "SQL"), with capitals inside ("PostgreSQL": a database named is a database) or
    opening a sentence ("Poetry is hard") is said as the word."""
    for m in pattern.finditer(text):
        rest = _WORD_REST.match(text, m.end())
        word = m.group() + (rest.group() if rest else "")
        if not (word[:1].isupper() and word[1:].islower()):
            return True
        before = text[text.rfind("\n", 0, m.start()) + 1 : m.start()].rstrip()
        if not before or before[-1] in _SENTENCE_OPENERS:
            return True
    return False


def keyword_summary(messages: Sequence[tuple[str, str]]) -> str:
    """The origin's fallback summary (the topics the user's messages say, if any, else
    samples of the first and last user messages), then the span's salient facts in the
    room left."""
    if not messages:
        return NO_MESSAGES_SUMMARY
    user_texts = [text for role, text in messages if _is_role(role, "user")]
    assistant_count = sum(1 for role, _ in messages if _is_role(role, "assistant"))
    count = _count_phrase(len(messages))
    topics = said_topics("\n".join(user_texts))
    if topics:
        return _with_facts(
            f"Conversation with {count} ({len(user_texts)} user, {assistant_count} assistant)"
            f" about: {', '.join(topics)}.",
            messages,
        )
    sampled = user_texts or [text for _, text in messages]
    first, last = _first_and_last(sampled, DEFAULT_SAMPLE_CHARS)
    return _with_facts(
        f'Conversation with {count}. Started with: "{first}" Recent topic: "{last}"', messages
    )


def offline_summary(messages: Sequence[tuple[str, str]]) -> str:
    """Summary written when no model is reachable: count, topics, samples of the first and
    last messages, then the span's salient facts in the room left."""
    if not messages:
        return NO_MESSAGES_SUMMARY
    topics = said_topics("\n".join(text for role, text in messages if _is_role(role, "user")))
    about = f" about: {', '.join(topics)}" if topics else ""
    # A system prompt says how to talk, not what was talked about.
    turns = [text for role, text in messages if not _is_role(role, "system")]
    first, last = _first_and_last(turns or [text for _, text in messages], DEFAULT_OFFLINE_SAMPLE_CHARS)
    return _with_facts(
        f'Offline summary: {_count_phrase(len(messages))}{about}. Started: "{first}" Recent: "{last}"',
        messages,
    )


def _with_facts(head: str, messages: Sequence[tuple[str, str]]) -> str:
    """``head`` (the origin's wording), then ``Facts: ...`` with the span's salient facts
    that fit within the stored maximum."""
    budget = DEFAULT_MAX_SUMMARY_CHARS - len(head) - len(FACTS_LABEL) - 2
    facts = salient_facts(messages, budget, stale) if budget > 0 else []
    if not facts:
        return _clip(head)
    text = " ".join(facts).encode("utf-8", "replace").decode("utf-8")
    return _clip(f"{head} {FACTS_LABEL} {text}")


def _is_role(role: str, name: str) -> bool:
    return role.strip().casefold() == name


def _count_phrase(count: int) -> str:
    return f"{count} message" if count == 1 else f"{count} messages"


def _first_and_last(texts: Sequence[str], limit: int) -> tuple[str, str]:
    """Samples of the first and the last text that is not blank ("N/A" when none is)."""
    first = _first_sample(texts, limit)
    last = _first_sample(reversed(texts), limit)
    return first, last


def _first_sample(texts: Iterable[str], limit: int) -> str:
    for text in texts:
        sample = _sample(text, limit)
        if sample:
            return sample
    return "N/A"


def _sample(text: str, limit: int) -> str:
    """The first ``limit`` characters of ``text`` on one line, "..." appended when cut.

    Only a small window of ``text`` is read, so a huge message costs no more than a short one.
    Lone surrogates become "?" so the sample is always valid UTF-8.
    """
    start = _NON_SPACE.search(text)
    if start is None:
        return ""
    end = start.start() + 4 * limit
    words = " ".join(text[start.start() : end].split())
    cut = len(words) > limit or _NON_SPACE.search(text, end) is not None
    sample = words[:limit].rstrip() + ELLIPSIS if cut else words
    return sample.encode("utf-8", "replace").decode("utf-8")


def _clip(summary: str) -> str:
    """A last guard: summaries are built short, but never exceed the stored maximum."""
    if len(summary) <= DEFAULT_MAX_SUMMARY_CHARS:
        return summary
    return summary[: DEFAULT_MAX_SUMMARY_CHARS - len(ELLIPSIS)] + ELLIPSIS
