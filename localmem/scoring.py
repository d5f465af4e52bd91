"""Importance scoring: a pure function, kept exactly as the origin scores it.

Base 0.5; a question +0.2; code or technical content +0.15; an error,
problem or issue +0.1; over 200 characters +0.1; an assistant message +0.05;
capped at 1.0. Pass another ``(role, text) -> float`` to
``MemoryStore(scorer=...)`` to change the policy.
"""

from __future__ import annotations

from collections.abc import Callable

Scorer = Callable[[str, str], float]

# Weights in hundredths: integer sums, so 0.5 + 0.2 + 0.1 is exactly 0.8.
BASE_SCORE = 50
QUESTION_BONUS = 20
CODE_BONUS = 15
ERROR_BONUS = 10
LONG_BONUS = 10
ASSISTANT_BONUS = 5
MAX_SCORE = 100
LONG_MESSAGE_CHARS = 200
SUMMARY_IMPORTANCE = 0.7
"""The importance of every summary (the origin's fixed score)."""

_QUESTION_STARTS = ("what", "how", "why")


def score_importance(role: str, text: str) -> float:
    """Score a message's importance between 0.5 and 1.0."""
    lowered = text.lower()
    score = BASE_SCORE
    if "?" in lowered or lowered.startswith(_QUESTION_STARTS):
        score += QUESTION_BONUS
    # Substring tests on the lowercased text, as the origin does them.
    if "```" in lowered or "function" in lowered or "class" in lowered:
        score += CODE_BONUS
    if "error" in lowered or "problem" in lowered or "issue" in lowered:
        score += ERROR_BONUS
    if len(text) > LONG_MESSAGE_CHARS:
        score += LONG_BONUS
    if role == "assistant":
        score += ASSISTANT_BONUS
    return min(score, MAX_SCORE) / 100
