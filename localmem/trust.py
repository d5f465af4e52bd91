"""Whether a model has earned trust on this file: its record of answers (pure).

``MemoryConfig.model_summaries="earned"`` shows a model's summary as the model's only
once the model has earned it here; until then the store keeps its own summary of the
range. A model's record is one verdict per level-1 summary it answered in this file
(``model_verdicts``): whether the checks kept that summary whole
(``Outcome.kept_whole``: kept, no sentence dropped as unsupported). A rejected answer
is a verdict too (not whole).

Why whole answers: a model whose answers the checks keep whole writes what the
conversation supports; one whose answers lose sentences to the checks also writes what
they miss (on the recorded real-model answers, the checks kept 5 of 24 and 7 of 18 bad
summaries of the small models on sets their authors had not read, and those models
never reach the threshold below: benchmarks/results/real_models.md).
"""

from __future__ import annotations

from collections.abc import Sequence

MIN_VERDICTS = 3
"""Earlier answers a model needs in this file before its record says anything: one or two
whole answers are luck, not a record (the measured candidate (e) asked for 3)."""
TRUST_WINDOW = 10
"""How many of its newest answers a record is judged on: a model that got worse (a new
version under the same name, a harder kind of conversation) loses trust within ten."""
TRUST_SHARE = 0.8
"""The share of those the checks must have kept whole. 0.5 let 2 bad summaries through on
the sets its author had not read at their unseen-time commits; 0.8 let none
(benchmarks/answer_trust.py, candidate (e))."""


def earned(verdicts: Sequence[bool]) -> bool:
    """Whether a record (a model's verdicts in this file, oldest first: kept whole or not)
    earns trust: at least :data:`MIN_VERDICTS` of them, and at least :data:`TRUST_SHARE`
    of the newest :data:`TRUST_WINDOW` kept whole."""
    if len(verdicts) < MIN_VERDICTS:
        return False
    newest = verdicts[-TRUST_WINDOW:]
    return sum(newest) >= TRUST_SHARE * len(newest)
