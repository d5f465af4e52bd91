"""Decide whether a local model's answer may be stored as a summary.

Small local models asked to summarize a conversation about poems or stories often write a poem
or a story instead, or wrap the summary in a chatty preamble, a title or a list. The origin
caught these with a handful of heuristics; :func:`validate_summary` keeps them and adds the
shapes our users met since. It returns ``None`` when the answer may be stored, else a short
human reason (``"longer than 300 characters"``) that the caller logs (without the text) before
falling back to a deterministic summary.

Checks, in order (the first that fails gives the reason):

1. empty or whitespace only;
2. longer than :data:`DEFAULT_MAX_SUMMARY_CHARS` (300) characters;
3. longer than :data:`DEFAULT_MAX_SUMMARY_RATIO` (30%) of the conversation's length. As in
   the origin this applies to every conversation, however short: a "summary" that does not
   compress is not one, and the keyword fallback covers short conversations well;
4. shapes a summary never has: helper preambles ("Sure", "Here's", "As an AI", "I'd be
   happy"...), titles ("Title:", a first line in quotes or bold), story and song openings
   ("Once upon a time", "In a world", "Chapter 1", "[Chorus]"), code fences, reasoning tags,
   markdown headings and bold, numbered or bulleted lists, script-style speaker lines
   ("User:", "ROMEO:", several "Name:" lines);
5. poem shape: four or more short lines, or a rhyming couplet of short lines;
6. under :data:`DEFAULT_MIN_WORD_OVERLAP` (10%) of the summary's content words appear in the
   conversation. Content words are case-folded words of four letters or more that are neither
   stop words nor the vocabulary every summary uses ("user", "discussed"...); a word counts
   when it, or its stem without a plain suffix ("-s", "-ed", "-ing"...), occurs in the
   conversation (a substring test, as in the origin). Runs of CJK characters, written without
   spaces, count as character pairs.

Surrounding whitespace of ``summary`` is ignored: the caller stores ``summary.strip()``.
``conversation`` is the text the model was given, as rendered by
:func:`localmem.summarizer.prompts.format_conversation` (or ``format_summaries`` for a
rollup). The function is pure, deterministic and fast: every regex is compiled at import and
the conversation is scanned with substring tests only, never tokenized.
"""

from __future__ import annotations

import re
from typing import Final

DEFAULT_MAX_SUMMARY_CHARS: Final = 300
DEFAULT_MAX_SUMMARY_RATIO: Final = 0.3
DEFAULT_MIN_WORD_OVERLAP: Final = 0.1

POEM_MIN_LINES: Final = 4
"""This many non-empty lines, short on average, make a poem."""
POEM_MAX_LINE_CHARS: Final = 60
"""A line this long or shorter is a "short line" (verse), longer is prose."""
MIN_CONTENT_WORD_CHARS: Final = 4
"""The origin counted words longer than three characters."""

_M = re.MULTILINE
_I = re.IGNORECASE
_APOSTROPHE = "['\u2019]"

# (pattern, reason). Patterns anchored with \A look at the start of the (stripped) answer;
# patterns anchored with ^ and re.MULTILINE look at every line.
_SHAPE_CHECKS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"```|~~~"), "contains a code block"),
    (re.compile(r"</?think(?:ing)?>", _I), "contains the model's reasoning"),
    (
        re.compile(
            r"\A[\W_]*(?:sure\b|certainly\b|of course\b|absolutely\b|okay\b|ok\b|great[!,]"
            rf"|here{_APOSTROPHE}s\b|here (?:is|are)\b|let me\b|let{_APOSTROPHE}s\b"
            rf"|i{_APOSTROPHE}(?:ll|d|m|ve)\b|i (?:will|would|can|am|have|cannot)\b"
            r"|as an ai\b|as a language model\b|happy to\b|glad to\b)",
            _I,
        ),
        "starts like an assistant reply",
    ),
    (re.compile(r"^\s*title\s*:", _I | _M), "has a title"),
    (
        re.compile(
            r"\A\s*(?:\"[^\"\n]+\"|\u201c[^\u201d\n]+\u201d|\*\*?[^*\n]+\*\*?|__?[^_\n]+__?)"
            r"\s*:?[ \t]*\n"
        ),
        "has a title line",
    ),
    # Asterisks only: "__init__" is a Python name far more often than bold text.
    (re.compile(r"\*\*[^*\s][^*\n]*\*\*"), "contains bold markdown"),
    (
        re.compile(
            r"\A[\W_]*(?:once upon\b|in a (?:world|land|kingdom|galaxy|village)\b"
            r"|in fields where\b|long,? (?:long )?ago\b|there once (?:was|were|lived)\b"
            r"|there (?:was|lived) once\b|it was a (?:dark|cold|bright|quiet)\b)",
            _I,
        ),
        "starts like a story",
    ),
    (
        re.compile(
            r"^\s*(?:chapter|scene|act|stanza|verse)\s+"
            r"(?:\d+|[ivxlc]+|one|two|three|four|five|six|seven|eight|nine|ten)\b",
            _I | _M,
        ),
        "has story or song structure",
    ),
    (
        re.compile(
            r"^\s*\[?(?:verse|chorus|bridge|refrain|intro|outro|pre-chorus)(?:\s+\d+)?\]?"
            r"\s*:?\s*$",
            _I | _M,
        ),
        "has song structure",
    ),
    (re.compile(r"^\s{0,3}#{1,6}(?:\s|$)", _M), "contains a markdown heading"),
    (re.compile(r"^\s*\d+[.)](?:\s|$)", _M), "contains a numbered list"),
    (re.compile(r"^\s*[-*+\u2022\u25e6\u25aa\u2013\u2014](?:\s|$)", _M), "contains a list"),
    (
        re.compile(r"^\s*(?:user|assistant|system|human|ai|bot|narrator|tool)\s*:", _I | _M),
        "is written as a script",
    ),
    (
        re.compile(r"^\s*(?!SUMMARY\b)[A-Z][A-Z0-9.'\u2019-]+(?: [A-Z][A-Z0-9.'\u2019-]+)?:", _M),
        "is written as a script",
    ),
)

_NAME_LINE = re.compile(r"^\s*[A-Z][\w.'\u2019-]*(?: [A-Z][\w.'\u2019-]*)?\s*:", _M)
"""A "Name:" line; one is a label ("Summary: ..."), two or more are a script."""
_LAST_WORD = re.compile(r"([^\W\d_]+)[^\w]*\Z")
_SENTENCE_END = (".", "!", "?", ":", ";")
_WORD = re.compile(r"\w+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_SUFFIXES: Final = ("ing", "es", "ed", "ly", "s")

STOP_WORDS: Final = frozenset(
    """
    about above after again against also another because been before being below between
    both could did does doing down during each either even every from further have having
    here hers herself himself into itself just more most much must myself neither never
    once only other ought ours ourselves over same shall should some such than that their
    theirs them themselves then there these they this those through under until upon very
    were what when where which while whom whose with within without would your yours
    yourself yourselves will shall like well still many made make makes
    """.split()
)
"""English function words of four letters or more: they carry no topic."""

SUMMARY_WORDS: Final = frozenset(
    """
    user users assistant assistants conversation conversations discussion discussed
    discusses discussing asked asks asking explained explains explaining talked talks
    mentioned mentions provided provides requested requests described describes shared
    shares suggested suggests offered offers helped helps answered answers question
    questions topic topics chat summary summarized then later briefly including
    """.split()
)
"""Words any summary uses whatever was discussed; they prove nothing about overlap."""


def validate_summary(
    summary: str, conversation: str, max_ratio: float | None = DEFAULT_MAX_SUMMARY_RATIO
) -> str | None:
    """Return ``None`` if ``summary`` may be stored for ``conversation``, else the reason.

    ``max_ratio`` bounds the summary's length against the conversation's; a
    rollup of a few summaries (already short) passes None to keep only the
    300-character cap.
    """
    text = summary.strip()
    if not text:
        return "empty"
    reason = _check_length(text, conversation, max_ratio)
    if reason is not None:
        return reason
    for check in (_check_shape, _check_poem):
        reason = check(text, conversation)
        if reason is not None:
            return reason
    return _check_overlap(text, conversation)


def _check_length(text: str, conversation: str, max_ratio: float | None) -> str | None:
    if len(text) > DEFAULT_MAX_SUMMARY_CHARS:
        return f"longer than {DEFAULT_MAX_SUMMARY_CHARS} characters"
    if max_ratio is not None and len(text) > max_ratio * len(conversation):
        return f"longer than {max_ratio:.0%} of the conversation"
    return None


def _check_shape(text: str, conversation: str) -> str | None:
    for pattern, reason in _SHAPE_CHECKS:
        if pattern.search(text):
            return reason
    if len(_NAME_LINE.findall(text)) >= 2:
        return "is written as a script"
    return None


def _check_poem(text: str, conversation: str) -> str | None:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return None
    if (
        len(lines) >= POEM_MIN_LINES
        and sum(map(len, lines)) / len(lines) <= POEM_MAX_LINE_CHARS
    ):
        return "shaped like a poem (many short lines)"
    for first, second in zip(lines, lines[1:]):
        if _is_couplet(first, second):
            return "shaped like a poem (rhyming lines)"
    return None


def _is_couplet(first: str, second: str) -> bool:
    """Two short lines, the first running on (no sentence end), whose last words rhyme."""
    if len(first) > POEM_MAX_LINE_CHARS or len(second) > POEM_MAX_LINE_CHARS:
        return False
    if first.endswith(_SENTENCE_END):
        return False
    end_a, end_b = _LAST_WORD.search(first), _LAST_WORD.search(second)
    if end_a is None or end_b is None:
        return False
    word_a, word_b = end_a.group(1).casefold(), end_b.group(1).casefold()
    return word_a != word_b and min(len(word_a), len(word_b)) >= 2 and word_a[-2:] == word_b[-2:]


def _check_overlap(text: str, conversation: str) -> str | None:
    units = _content_units(text.casefold())
    if not units:
        return "has no content words"
    haystack = conversation.casefold()
    found = sum(1 for unit in units if _occurs(unit, haystack))
    if found / len(units) < DEFAULT_MIN_WORD_OVERLAP:
        return f"shares under {DEFAULT_MIN_WORD_OVERLAP:.0%} of its words with the conversation"
    return None


def _content_units(folded: str) -> list[str]:
    """Content words of a case-folded text; CJK runs become overlapping character pairs."""
    units: list[str] = []
    for word in _WORD.findall(folded):
        if _CJK.search(word):
            units.extend(_cjk_pairs(word))
        elif (
            len(word) >= MIN_CONTENT_WORD_CHARS
            and not word.isdigit()
            and word not in STOP_WORDS
            and word not in SUMMARY_WORDS
        ):
            units.append(word)
    return units


def _cjk_pairs(word: str) -> list[str]:
    if len(word) < 2:
        return [word]
    return [word[i : i + 2] for i in range(len(word) - 1)]


def _occurs(unit: str, haystack: str) -> bool:
    if unit in haystack:
        return True
    for suffix in _SUFFIXES:
        if unit.endswith(suffix):
            stem = unit[: -len(suffix)]
            if len(stem) >= MIN_CONTENT_WORD_CHARS and stem in haystack:
                return True
    return False
