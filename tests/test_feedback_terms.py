"""Pseudo-relevance feedback's words do not depend on the process's hash seed.

``reranking.feedback_terms`` cuts its candidate words to ``most * 4`` before rating them:
taken in a set's order, the same question over the same file gave another context in
another process (one of 300 benchmark queries changed between PYTHONHASHSEED 1 and 3).
"""

from __future__ import annotations

import subprocess
import sys

PROBE = r"""
from localmem.models import Message
from localmem.reranking import feedback_terms
texts = [
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike",
    "november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu",
    "mike lima kilo juliet india hotel golf foxtrot echo delta charlie bravo alpha",
]
best = [Message(id=i + 1, session_id="s", role="user", text=t, model_id=None, token_count=10,
                importance_score=0.5, created_at="2024-01-01T00:00:00.000Z")
        for i, t in enumerate(texts)]
print(feedback_terms(best, ["mike"], str.split, lambda t: 1, 1000, 2))
"""


def test_the_same_hits_give_the_same_feedback_words_under_any_hash_seed() -> None:
    answers = {
        subprocess.run(
            [sys.executable, "-c", PROBE],
            env={"PYTHONHASHSEED": seed, "PATH": ""},
            capture_output=True, text=True, check=True,
        ).stdout
        for seed in ("0", "1", "2", "3", "11")
    }
    assert len(answers) == 1, answers
