"""What a local model answers in JSON mode, made into plain lists of statements.

Small models answer the same question in many shapes (a string, a list, a
list of objects); these helpers accept them all and keep what can be read,
for the checkpoint (``localmem.checkpoint``, ``localmem.model_checkpoint``) and
the summary facts (``localmem.facts``) alike; and the bounds every checkpoint
keeps, the rules' and the model's alike (:func:`clip_checkpoint`).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from . import extract as rules
from .models import CheckpointData, References, WorkflowState

MAX_REFERENCES = 15
"""How many references (files, tables, URLs, identifiers, a summary's entities)
a checkpoint or a summary's facts keep."""
MAX_STEPS = 5
"""How many workflow steps a checkpoint keeps each way (done, next)."""


class Answer(BaseModel):
    """A model's JSON answer: keys it was not asked for are ignored."""

    model_config = ConfigDict(extra="ignore")


def strings(value: Any) -> list[str]:
    """A model's list of items as strings: ``"x"``, ``["x", 3]``, ``{"topic": "x"}``
    (→ ``"topic: x"``) and ``[{"task": "x", "context": "y"}]`` (→ ``"x (y)"``)."""
    if value is None:
        return []
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return [str(value)]
    if isinstance(value, dict):
        if "task" in value:
            context = value.get("context")
            return [f"{value['task']} ({context})" if context else str(value["task"])]
        return [f"{k}: {v}" for k, v in value.items() if isinstance(v, (str, int, float))]
    if isinstance(value, list):
        return [item for entry in value if not isinstance(entry, list) for item in strings(entry)]
    raise ValueError(f"not a list of strings: {type(value).__name__}")


def merge_items(floor: list[str], extra: list[str], cap: int) -> list[str]:
    """``floor`` (kept whole) then the items of ``extra`` it neither holds nor restates."""
    out = list(floor)
    for item in extra:
        if not any(item.casefold() == o.casefold() or rules.restates(item, o) for o in out):
            out.append(item)
    return out[: max(cap, len(floor))]


def clip_checkpoint(data: CheckpointData) -> CheckpointData:
    """Every statement on one line within ``extract.ITEM_CHARS``; the workflow's steps
    at most ``MAX_STEPS`` each way (a model's list is taken whole, and 5,000 steps made
    one line too long for any context)."""

    def c(items: list[str]) -> list[str]:
        return [rules.clip(i, rules.ITEM_CHARS) for i in items]

    flow = data.workflow_state
    return CheckpointData(
        active_goals=c(data.active_goals),
        pending_tasks=c(data.pending_tasks),
        key_decisions=c(data.key_decisions),
        user_preferences=c(data.user_preferences),
        context_references=References(
            **{
                k: [rules.clip(n, rules.NAME_CHARS) for n in getattr(data.context_references, k)]
                for k in rules.REFERENCE_KINDS
            }
        ),
        workflow_state=WorkflowState(
            current_step=rules.clip(flow.current_step, rules.ITEM_CHARS) if flow.current_step else None,
            completed_steps=c(flow.completed_steps[-MAX_STEPS:]),
            next_steps=c(flow.next_steps[:MAX_STEPS]),
        ),
    )
