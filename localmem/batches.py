"""An import's batch as this store takes it (pure): what an import does with a
session the file already has (:data:`Existing`), and the token counts of a batch's
rows by this store's tokenizer (:func:`recount`). Both importers use them: the
export format's (``transfer``) and the chat apps' (``history``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, get_args

from .state_lines import archive_line, file_line, goal_line, subtask_line, tool_line

if TYPE_CHECKING:  # a batch is read by jsonl; here it is only counted
    from .jsonl import SessionBatch

Existing = Literal["refuse", "rename", "skip", "replace"]
"""What an import does with a session whose id the file already has."""
EXISTING: tuple[str, ...] = get_args(Existing)


def recount(batch: SessionBatch, count: Callable[[str], int]) -> dict[str, list]:
    """The token counts of a batch's rows, by this store's tokenizer, as its own
    writes count them (the text, or the line the context renders).

    An export's counts are not trusted: a count of 0 would let any text into
    every budget, 2**63-1 overflow every ``SUM()``, and another file may have
    counted with another encoding. Checkpoints: each line's count, then their sum.
    """
    r = batch.records
    lines = [[(t, count(t), live) for t, _n, live in c.lines] for c in r["checkpoints"]]
    return {
        "messages": [count(m.text) for m in r["messages"]],
        "pins": [count(p.content) for p in r["pins"]],
        "summaries": [count(s.text) for s in r["summaries"]],
        "goals": [
            (
                count(goal_line(g.text)),
                None if g.archive is None else count(archive_line(g.text, g.status, g.archive)),
            )
            for g in r["goals"]
        ],
        "subtasks": [count(subtask_line(t.status, t.name, t.notes)) for t in r["subtasks"]],
        "tools": [
            count(tool_line(x.tool_name, x.success, x.result_summary, x.error_message))
            for x in r["tools"]
        ],
        "files": [count(file_line(f.path)) for f in r["files"]],
        "checkpoints": [(c, sum(n for _t, n, _live in c)) for c in lines],
    }
