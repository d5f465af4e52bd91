"""m017_verdict_kinds: a model earns trust per kind of answer (issue 21 points 1 and 4).

With ``MemoryConfig.model_trust="earned"`` (the default) what a model wrote reaches the
context only once the model has earned trust for that kind of answer on this file
(``localmem.trust``, ``localmem.verdicts``): its summaries, its checkpoint items, its facts
and pins, each on its own record. ``model_verdicts`` gains the answer's ``kind``
(``summary``, ``checkpoint``, ``facts``); the rows m015 wrote judged summaries, so they are
``summary``. Still no text and no session: a model's name, a kind, a time and a yes/no.
"""

from __future__ import annotations

M017_VERDICT_KINDS = (
    """ALTER TABLE model_verdicts ADD COLUMN kind TEXT NOT NULL DEFAULT 'summary'
    CHECK (kind IN ('summary', 'checkpoint', 'facts'))""",
    "DROP INDEX idx_model_verdicts_model",
    # a model's newest verdicts of a kind are read before each of its answers is stored
    "CREATE INDEX idx_model_verdicts_kind ON model_verdicts(model, kind, id)",
)
