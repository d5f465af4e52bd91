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
3. longer than the conversation allows (:func:`summary_limit`): :data:`DEFAULT_MAX_SUMMARY_RATIO`
   (30%) of its length, as in the origin, except that a terse conversation (15 messages of a
   few words) may have up to :data:`TERSE_FLOOR_CHARS` characters, never more than
   :data:`TERSE_MAX_SHARE` of its length: a "summary" that does not compress is not one, but
   the origin's 30% rejected a good 168-character summary of a 560-character chat;
4. shapes a summary never has: helper preambles ("Sure", "Here's", "As an AI", "I'd be
   happy"...), titles ("Title:", a first line in quotes or bold), story and song openings
   ("Once upon a time", "In a world", "Chapter 1", "[Chorus]"), code fences, reasoning tags,
   markdown headings and bold, numbered or bulleted lists, script-style speaker lines
   ("User:", "ROMEO:", several "Name:" lines);
5. poem shape: four or more short lines, or a rhyming couplet of short lines;
6. under :data:`DEFAULT_MIN_WORD_OVERLAP` (50%; the origin's 10% let unrelated text
   through) of the summary's content words appear in the
   conversation. Content words are case-folded words of four letters or more that are neither
   stop words nor the vocabulary every summary uses ("user", "discussed"...); a word counts
   when it is a whole word of the conversation or has the stem of one that is not a stop
   word (``words.stem``: "medications" ~ "medication"; the origin's substring test let
   "free" match "freedom" and "them" match "theme"). Runs of CJK characters, written without
   spaces, count as character pairs;
7. a number the conversation does not state (an invented detail: "a sonnet with 15 lines"),
   or a run of words said again (:data:`REPEATS`: a model running in circles);
8. a copy, not a summary: :data:`COPY_SHARE` of its words or more, and
   :data:`COPY_MIN_WORDS` at least, lie in runs of :data:`COPY_RUN_WORDS` words that the
   conversation holds in the same order (a passage lifted from one turn), or it repeats a
   run of that many words of the prompt's own instructions (``INSTRUCTION_TEXTS``: a model
   echoing its task).

:func:`accept_summary` is what the summarizer calls with a model's answer: the shape and poem
checks read the whole answer; a sentence said twice word for word is said once (three times
is a loop, refused by the repeat check); an answer longer than the limit, or cut by ``num_predict``, is
then trimmed to its whole sentences within the limit (:func:`trim_to_sentences`) and the
rest of the checks read what is kept. The prompt asks for that length
(``prompts.summary_words``) and ``num_predict`` leaves room for it, so a summary the model
finishes normally fits.

Surrounding whitespace of ``summary`` is ignored: the caller stores ``summary.strip()``.
``conversation`` is the text the model was given, as rendered by
:func:`localmem.summarizer.prompts.format_conversation` (or ``format_summaries`` for a
rollup). The functions are pure, deterministic and fast: every regex is compiled at import,
the conversation is split into words once.
"""

from __future__ import annotations

import re
from typing import Final

from ..words import STOP_WORDS, is_number, stem, words
from . import faithful
from .prompts import DEFAULT_MAX_SUMMARY_CHARS, INSTRUCTION_TEXTS
from .wording import SUMMARY_WORDS, sentence_spans

DEFAULT_MAX_SUMMARY_RATIO: Final = 0.3
DEFAULT_MIN_WORD_OVERLAP: Final = 0.5
"""Half of a summary's content words must be the conversation's. The origin's 10% let a
0.5B model's copy of the prompt's example about poetry pass as the summary of a birthday
cake (issue 17); faithful summaries of real conversations share 75-100%."""
TERSE_FLOOR_CHARS: Final = 180
"""A terse conversation's summary may have this many characters even past 30% of it..."""
TERSE_MAX_SHARE: Final = 0.5
"""... but never more than this share of the conversation's length."""
COPY_RUN_WORDS: Final = faithful.COPY_RUN_WORDS
"""Words in a row, in the same order, that make a run copied from the source."""
REPEATS: Final = ((6, 2), (4, 3))
"""(words, times): a run of six words said twice, or of four words three times, is a loop."""
LOOP_SENTENCES: Final = 3
"""A sentence said this many times is a loop (the answer is refused); said twice, the
second is dropped (:func:`said_once`)."""
COPY_SHARE: Final = 0.6
"""Share of a summary's words inside copied runs that makes it a copy, not a summary..."""
COPY_MIN_WORDS: Final = 12
"""... when they are this many at least: a long passage, not a short restatement."""

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
    # A summary is read back as remembered data: one that addresses the assistant with
    # instructions ("ignore all previous instructions", "you must now ...") would carry
    # them into every later context.
    (
        re.compile(
            r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*"
            r"(?:previous|prior|earlier|above|system|safety|developer)?\s*"
            r"(?:instructions?|rules|prompts?|guidelines|directions)\b"
            r"|\b(?:you|assistant)\s*,?\s+(?:must|should|shall|will)\s+(?:now|always|never"
            r"|from now on)\b|\bfrom now on,?\s+(?:you|the assistant)\b"
            r"|\b(?:new|updated)\s+(?:system\s+)?instructions?\s*:"
            r"|\byou are now\b",
            _I,
        ),
        "addresses the assistant with instructions",
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

_FIRST_PERSON = re.compile(rf"(?<![\w'\u2019-])(?:I(?:{_APOSTROPHE}(?:m|ve|ll|d))?|[Mm]y|me|[Mm]ine|[Mm]yself)\b")
"""The writer's "I": the prompt asks for the third person; an answer that says "I need a
refill of my inhaler" repeats the user's turns (or answers as the assistant)."""
_QUOTED = re.compile(r"\"[^\"\n]*\"|\u201c[^\u201d\n]*\u201d|(?<!\w)'[^'\n]*'(?!\w)")
"""Quoted words: a summary may quote what someone said ("she said 'I'm fine'")."""
_NAME_LINE = re.compile(r"^\s*[A-Z][\w.'\u2019-]*(?: [A-Z][\w.'\u2019-]*)?\s*:", _M)
"""A "Name:" line; one is a label ("Summary: ..."), two or more are a script."""
_LAST_WORD = re.compile(r"([^\W\d_]+)[^\w]*\Z")
_SENTENCE_END = (".", "!", "?", ":", ";")
OUTCOME: Final = re.compile(
    r"\b(?:the (?:fix|cause|answer|solution|result|outcome|decision|problem|bug|culprit|error) (?:was|is)|fixed|solved"
    r"|resolved|decided|agreed|booked|chose|settled on|turned out|works again|now works|matches"
    r"|switched (?:it |him |her |them )?to|changed (?:it |him |her |them )?to|replaced (?:it )?with)\b",
    _I,
)
"""What a sentence carrying a conversation's outcome says: trimming keeps it."""
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")



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
    return _check_form(text) or _check_content(text, conversation)


def accept_summary(
    answer: str,
    conversation: str,
    max_ratio: float | None = DEFAULT_MAX_SUMMARY_RATIO,
    *,
    cut: bool = False,
) -> tuple[str | None, str | None]:
    """``(summary, None)`` to store from a model's ``answer``, or ``(None, reason)``.

    ``cut`` says ``num_predict`` stopped the answer (``done_reason == "length"``): its last,
    unfinished sentence is dropped. A sentence said again word for word is dropped
    (:func:`said_once`). An answer past :func:`summary_limit` keeps its whole sentences within
    the limit. The shape checks read the whole answer; the others what is kept.
    """
    text = answer.strip()
    if not text:
        return None, "empty"
    reason = _check_form(text)
    if reason is not None:
        return None, reason
    limit = summary_limit(conversation, max_ratio)
    text = whole = said_once(text)
    if cut or len(text) > limit:
        text = trim_to_sentences(text, limit)
        if not text:
            return None, f"no whole sentence within {limit} characters"
    reason = _check_length(text, conversation, max_ratio) or _check_content(text, conversation)
    if reason is None and text != whole:
        reason = _check_repeats(words(whole))  # a model running in circles past the cut
    return (None, reason) if reason is not None else (text, None)


def said_once(text: str) -> str:
    """``text`` without a whole sentence that says an earlier one again word for word (a
    slip, not a summary's fact twice); ``text`` itself when none does, or when a sentence
    comes :data:`LOOP_SENTENCES` times or more (a loop: :func:`_check_repeats` rejects it)."""
    spans = sentence_spans(text)
    seen: dict[tuple[str, ...], int] = {}
    for start, end in spans:
        key = tuple(words(text[start:end]))
        seen[key] = seen.get(key, 0) + 1
    if all(n == 1 for n in seen.values()) or max(seen.values()) >= LOOP_SENTENCES:
        return text
    kept: list[tuple[int, int]] = []
    said: set[tuple[str, ...]] = set()
    for start, end in spans:
        key = tuple(words(text[start:end]))
        if key not in said:
            said.add(key)
            kept.append((start, end))
    tail = text[spans[-1][1]:].strip()  # an unfinished last sentence stays
    return " ".join([*(text[s:e].strip() for s, e in kept), *([tail] if tail else [])])


def summary_limit(conversation: str, max_ratio: float | None = DEFAULT_MAX_SUMMARY_RATIO) -> int:
    """The most characters a summary of ``conversation`` may have (see the module docstring)."""
    if max_ratio is None:
        return DEFAULT_MAX_SUMMARY_CHARS
    size = len(conversation)
    allowed = max(int(max_ratio * size), min(TERSE_FLOOR_CHARS, int(TERSE_MAX_SHARE * size)))
    return max(1, min(DEFAULT_MAX_SUMMARY_CHARS, allowed))


def trim_to_sentences(text: str, limit: int) -> str:
    """``text``'s whole sentences within ``limit`` characters, in their order ("" if not
    even the first one fits): the longest run from its start, except that a sentence
    carrying the outcome ("the fix was ...", "solved", "decided", "booked": :data:`OUTCOME`)
    is kept in place of the ones before it that do not (from the last back). A sentence
    ends at ``.``, ``!`` or ``?`` (and closing quotes) before a space or the end, not after
    "Dr." or "e.g."."""
    spans = sentence_spans(text)
    kept = [span for span in spans if span[1] <= limit]
    outcomes = [span for span in spans[len(kept):] if OUTCOME.search(text, *span)]
    for span in outcomes:
        size = sum(e - s for s, e in kept) + (span[1] - span[0])
        plain = [k for k in kept[1:] if not OUTCOME.search(text, *k)]
        while size > limit and plain:
            dropped = plain.pop()
            kept.remove(dropped)
            size -= dropped[1] - dropped[0]
        if size <= limit:
            kept.append(span)
    return " ".join(text[s:e].strip() for s, e in kept)


def _check_form(text: str) -> str | None:
    return _check_shape(text) or _check_poem(text)


def _check_content(text: str, conversation: str) -> str | None:
    """The checks that read words: ``text``'s and the conversation's, split once; the
    checks that read turns (``faithful``) when the conversation has them."""
    said = words(conversation)
    vocabulary = _vocabulary(said)
    summary = words(text)
    pairs = faithful.turns(conversation)
    return (
        _check_overlap(summary, vocabulary, _stems(vocabulary))
        or _check_numbers(summary, vocabulary)
        or _check_repeats(summary)
        or (faithful.check_copy(summary, pairs) if pairs else _check_copy(summary, said, vocabulary))
        or _check_prompt(summary)
        or faithful.check_denied(text, pairs)
    )


def _check_numbers(words: list[str], vocabulary: set[str]) -> str | None:
    """A number the conversation never states is an invented detail."""
    if any(is_number(w) and w not in vocabulary for w in words):
        return "states a number the conversation does not"
    return None


def _check_repeats(words: list[str]) -> str | None:
    """A summary saying the same words again is a model running in circles."""
    for size, times in REPEATS:
        seen: dict[tuple[str, ...], int] = {}
        for i in range(len(words) - size + 1):
            run = tuple(words[i : i + size])
            seen[run] = seen.get(run, 0) + 1
            if seen[run] >= times:
                return "repeats itself"
    return None


def _check_length(text: str, conversation: str, max_ratio: float | None) -> str | None:
    if len(text) > DEFAULT_MAX_SUMMARY_CHARS:
        return f"longer than {DEFAULT_MAX_SUMMARY_CHARS} characters"
    limit = summary_limit(conversation, max_ratio)
    if len(text) > limit:
        return f"longer than {limit} characters, the limit for this conversation"
    return None


def _check_shape(text: str) -> str | None:
    for pattern, reason in _SHAPE_CHECKS:
        if pattern.search(text):
            return reason
    if len(_NAME_LINE.findall(text)) >= 2:
        return "is written as a script"
    if _FIRST_PERSON.search(_QUOTED.sub(" ", text)):
        return "speaks in the first person"
    return None


def _check_poem(text: str) -> str | None:
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


def _check_overlap(summary: list[str], vocabulary: set[str], stems: set[str]) -> str | None:
    """``summary``: its words; ``vocabulary``: the conversation's (:func:`_vocabulary`),
    ``stems``: its stems (:func:`_stems`)."""
    units = _content_units(summary)
    if not units:
        return "has no content words"
    found = sum(1 for unit in units if unit in vocabulary or stem(unit) in stems)
    if found / len(units) < DEFAULT_MIN_WORD_OVERLAP:
        return f"shares under {DEFAULT_MIN_WORD_OVERLAP:.0%} of its words with the conversation"
    return None


def _check_copy(words: list[str], conversation: list[str], vocabulary: set[str]) -> str | None:
    """``words``: the summary's, case-folded; ``conversation``: its words; ``vocabulary``:
    their set."""
    if len(words) < COPY_RUN_WORDS:
        return None
    copied = faithful.run_share(words, f" {' '.join(conversation)} ", vocabulary)
    if copied >= COPY_SHARE and copied * len(words) >= COPY_MIN_WORDS:
        return "copies a passage of the conversation"
    return None


def _check_prompt(words: list[str]) -> str | None:
    if len(words) >= COPY_RUN_WORDS and faithful.run_share(words, _PROMPT_TEXT, _PROMPT_VOCABULARY) > 0:
        return "repeats the prompt's instructions"
    return None


_PROMPT_TEXT: Final = "".join(f" {' '.join(words(t))} " for t in INSTRUCTION_TEXTS)
_PROMPT_VOCABULARY: Final = frozenset(_PROMPT_TEXT.split())


def _content_units(text_words: list[str]) -> list[str]:
    """Content words among a text's words; CJK runs become overlapping character pairs."""
    units: list[str] = []
    for word in text_words:
        if not word.isascii() and _CJK.search(word):
            units.extend(_cjk_pairs(word))
        elif (
            len(word) >= MIN_CONTENT_WORD_CHARS
            and not is_number(word)
            and word not in STOP_WORDS
            and word not in SUMMARY_WORDS
        ):
            units.append(word)
    return units


def _cjk_pairs(word: str) -> list[str]:
    if len(word) < 2:
        return [word]
    return [word[i : i + 2] for i in range(len(word) - 1)]


def _vocabulary(said: list[str]) -> set[str]:
    """The words of a text, and the character pairs of its CJK runs."""
    vocabulary = set(said)
    for word in [w for w in vocabulary if not w.isascii() and _CJK.search(w)]:
        vocabulary.update(_cjk_pairs(word))
    return vocabulary


def _stems(vocabulary: set[str]) -> set[str]:
    """The stems of a conversation's words, stop words left out ("themes" does not meet
    "them")."""
    return {stem(w) for w in vocabulary if w not in STOP_WORDS}
