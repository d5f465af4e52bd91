"""Whether a model has earned trust on this file: its record of answers (pure).

``MemoryConfig.model_trust="earned"`` shows what a model wrote (a summary, checkpoint
items, facts and pins) only once the model has earned trust for that kind of answer here;
until then the store keeps its own (the store's summary of the range, the rules'
checkpoint, the rules' facts). A model's record per kind is one verdict per answer it gave
in this file (``model_verdicts``): whether the checks kept that answer whole (a summary:
``Outcome.kept_whole``, kept with no sentence dropped as unsupported; items:
:func:`kept_whole`). A rejected answer is a verdict too (not whole).

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


def earned(
    verdicts: Sequence[bool], least: int = MIN_VERDICTS, share: float = TRUST_SHARE, window: int = TRUST_WINDOW
) -> bool:
    """Whether a record (a model's verdicts in this file, oldest first: kept whole or not)
    earns trust: at least ``least`` (:data:`MIN_VERDICTS`) of them, and at least ``share``
    (:data:`TRUST_SHARE`) of the newest ``window`` (:data:`TRUST_WINDOW`) kept whole. The
    store uses the defaults; benchmarks/file_trust.py measures stricter ones beside them."""
    if len(verdicts) < least:
        return False
    newest = verdicts[-window:]
    return sum(newest) >= share * len(newest)


def kept_whole(reasons: Sequence[str | None]) -> bool:
    """Whether the checks kept an answer's items whole: ``reasons`` holds, for each item the
    model proposed (a checkpoint's items, a span's facts, must-remember items and updates),
    why the checks dropped it, or None when kept. Every reason counts: a claim the messages do
    not support (invented, the wrong status, polarity or party) and junk (a question, a lone
    word, a copied line, no name) alike. On the recorded small models the two readings give
    the same answer: neither earns trust on any set (benchmarks/file_trust.py), and junk
    proposed as a goal or a step is what a model that reads the conversation does not write.
    An answer with no item says nothing (no verdict: the caller does not record one)."""
    return all(r is None for r in reasons)
