"""Importance, exactly as the origin scores it."""

from __future__ import annotations

import pytest

from localmem.scoring import score_importance


@pytest.mark.parametrize(
    ("role", "text", "score"),
    [
        ("user", "Thanks!", 0.5),
        ("assistant", "Thanks!", 0.55),
        ("user", "Can you explain how authentication works?", 0.7),
        ("user", "what time is it", 0.7),
        ("user", "How are you", 0.7),
        ("user", "Why not", 0.7),
        ("user", "Here is my function", 0.65),
        ("user", "see ```x = 1```", 0.65),
        ("user", "a class of its own", 0.65),
        ("user", "I have a problem", 0.6),
        ("user", "there is an Issue", 0.6),
        ("user", "ERROR in the log", 0.6),
        ("user", "x" * 201, 0.6),
        ("user", "x" * 200, 0.5),
        ("assistant", "How do I fix this error in my function? " + "x" * 200, 1.0),
        ("user", "How do I fix this error in my function?", 0.95),
    ],
)
def test_origin_weights(role: str, text: str, score: float) -> None:
    assert score_importance(role, text) == pytest.approx(score)


def test_capped_and_bounded() -> None:
    assert score_importance("assistant", "why? ``` error " + "y" * 300) == 1.0
    assert score_importance("tool", "") == 0.5
