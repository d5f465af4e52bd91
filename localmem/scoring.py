"""Importance scoring: a pure function, kept exactly as the origin scores it.

Base 0.5; a question +0.2; code or technical content +0.15; an error,
problem or issue +0.1; over 200 characters +0.1; an assistant message +0.05;
capped at 1.0. Pass another ``(role, text) -> float`` to
``MemoryStore(scorer=...)`` to change the policy.
"""

from __future__ import annotations

from collections.abc import Callable

Scorer = Callable[[str, str], float]

BASE_SCORE = 0.5
QUESTION_BONUS = 0.2
CODE_BONUS = 0.15
ERROR_BONUS = 0.1
LONG_BONUS = 0.1
ASSISTANT_BONUS = 0.05
LONG_MESSAGE_CHARS = 200
MAX_SCORE = 1.0

_QUESTION_STARTS = ("what", "how", "why")
_CODE_MARKERS = ("```", "function", "class")
_ERROR_MARKERS = ("error", "problem", "issue")


def score_importance(role: str, text: str) -> float:
    """Score a message's importance between 0.5 and 1.0."""
    lowered = text.lower()
    score = BASE_SCORE
    if "?" in lowered or lowered.startswith(_QUESTION_STARTS):
        score += QUESTION_BONUS
    if any(marker in lowered for marker in _CODE_MARKERS):
        score += CODE_BONUS
    if any(marker in lowered for marker in _ERROR_MARKERS):
        score += ERROR_BONUS
    if len(text) > LONG_MESSAGE_CHARS:
        score += LONG_BONUS
    if role == "assistant":
        score += ASSISTANT_BONUS
    # Rounded so sums such as 0.5 + 0.2 + 0.1 read as 0.8, not 0.8000000000000002.
    return round(min(score, MAX_SCORE), 4)
