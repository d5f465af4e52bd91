"""The strict local prompts the summarizer sends to a local Ollama model.

Small local models asked to "summarize" a conversation about poems tend to write a poem. The
origin's answer, kept here, is a strict task prompt: say only what was discussed, in a few
sentences of at most as many words as the summary may hold (:func:`summary_words`), keeping
the stated facts, and create nothing new (no poems, stories, titles or lists). Unlike the
origin's, the prompt carries no example answer: small models returned it word for word. The model's output is
then checked by :mod:`localmem.summarizer.validation` against the same conversation text that
:func:`format_conversation` renders, so the prompt and the check always agree on what "the
conversation" was.

Everything here is a pure function of its input: no I/O, no model, no clock.

- :func:`format_conversation` renders ``(role, text)`` pairs as ``role: text`` lines.
- :func:`build_summary_messages` gives the chat messages for a level-1 summary (messages).
- :func:`format_summaries` and :func:`build_rollup_messages` do the same for a level-2 summary
  (several level-1 summaries rolled into one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

DEFAULT_MAX_SUMMARY_CHARS: Final = 300
"""The longest summary stored (``validation`` holds every answer to it)."""

SUMMARY_SYSTEM_PROMPT = """\
TASK: Create a brief summary of the conversation below. Focus ONLY on what was discussed, \
not generating new content.

FORMAT: 1-3 plain sentences in the third person, describing the key topics and outcomes. \
Keep the concrete facts that were stated: names, numbers, dates, medicines, allergies, \
warnings and decisions.

DO NOT: Create new poems, stories, titles, lists or any other content. Only summarize what \
was already discussed."""

SUMMARY_INPUT_PROMPT = """\
Conversation to summarize:
{conversation}

Provide only the summary, at most {words} words:"""

ROLLUP_SYSTEM_PROMPT = """\
TASK: Combine the summaries below, oldest first, into one brief summary of the whole \
conversation. Focus ONLY on what was discussed, not generating new content.

FORMAT: 1-3 plain sentences in the third person, describing the key topics and outcomes. \
Keep the concrete facts that were stated: names, numbers, dates, medicines, allergies, \
warnings and decisions.

DO NOT: Create new poems, stories, titles, lists or any other content. Only summarize what \
was already discussed."""

ROLLUP_INPUT_PROMPT = """\
Summaries to combine (oldest first):
{summaries}

Provide only the combined summary, at most {words} words:"""

INSTRUCTION_TEXTS = (
    SUMMARY_SYSTEM_PROMPT,
    SUMMARY_INPUT_PROMPT,
    ROLLUP_SYSTEM_PROMPT,
    ROLLUP_INPUT_PROMPT,
)
"""What localmem itself writes in a summary request: a model that repeats it has not
summarized anything (validation checks for it). The prompts hold no example a model could
copy as its answer (the origin's "User asked about poetry types, ..." was returned as the
summary of conversations it had nothing to do with)."""

CHARS_PER_WORD = 6
"""English averages a little under six characters per word, the space included."""


def format_conversation(messages: Sequence[tuple[str, str]]) -> str:
    """Render ``(role, text)`` pairs as ``role: text`` lines, oldest first.

    This is the conversation text the model sees and the text validation compares its answer
    against. An empty sequence gives an empty string.
    """
    return "\n".join(f"{role}: {text}" for role, text in messages)


def format_summaries(summaries: Sequence[str]) -> str:
    """Render level-1 summaries one per line, oldest first (the rollup's "conversation")."""
    return "\n".join(summaries)


def summary_words(limit: int) -> int:
    """The word count to ask for so that the summary fits ``limit`` characters."""
    return max(5, limit // CHARS_PER_WORD)


def build_summary_messages(
    messages: Sequence[tuple[str, str]], limit: int = DEFAULT_MAX_SUMMARY_CHARS
) -> list[dict[str, str]]:
    """The ``/api/chat`` messages asking for a level-1 summary of ``messages`` that fits
    ``limit`` characters (``validation.summary_limit``)."""
    return _chat_messages(
        SUMMARY_SYSTEM_PROMPT,
        SUMMARY_INPUT_PROMPT.format(
            conversation=format_conversation(messages), words=summary_words(limit)
        ),
    )


def build_rollup_messages(summaries: Sequence[str], limit: int = DEFAULT_MAX_SUMMARY_CHARS) -> list[dict[str, str]]:
    """The ``/api/chat`` messages asking to roll several level-1 summaries into one."""
    return _chat_messages(
        ROLLUP_SYSTEM_PROMPT,
        ROLLUP_INPUT_PROMPT.format(summaries=format_summaries(summaries), words=summary_words(limit)),
    )


def _chat_messages(system: str, user: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]
