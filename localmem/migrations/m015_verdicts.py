"""m015_verdicts: each model answer's verdict, kept in the file (issue 21 point 2).

With ``MemoryConfig.model_trust="earned"`` (the default) a model's summary reaches
the context as the model's only once that model has earned it on this file
(``localmem.trust``): its record is one row per level-1 summary it answered here, the
model's name, when, and whether the checks kept that summary whole (``Outcome.kept_whole``).
The row is written in the same transaction as the summary it judged.

No message text, no summary text and no session: only the model's name, a time and a
yes/no, so a forget has nothing to delete here and leaves no byte of what it forgot
(the record is the model's, across the file's sessions). Plain to read in ``sqlite3`` or
Datasette: ``SELECT model, count(*), sum(kept_whole) FROM model_verdicts GROUP BY model``.
"""

from __future__ import annotations

M015_VERDICTS = (
    """CREATE TABLE model_verdicts (
    id INTEGER PRIMARY KEY,
    model TEXT NOT NULL,
    created_at TEXT NOT NULL,
    kept_whole INTEGER NOT NULL CHECK (kept_whole IN (0, 1))
)""",
    # a model's newest verdicts are read before each of its summaries is stored
    "CREATE INDEX idx_model_verdicts_model ON model_verdicts(model, id)",
)
