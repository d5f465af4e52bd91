"""What localmem asks a local model for a checkpoint: the prompts, and the request
built from the floor (the rules' checkpoint), the session state and the newest
messages that fit :data:`JSON_PROMPT_TOKENS`. Pure; the model's answer is read by
``localmem.model_checkpoint`` (``ModelCheckpoint``) and the call is made by
``localmem.checkpoints``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .models import CheckpointData, Message

if TYPE_CHECKING:
    from .checkpoint import StateSnapshot

JSON_PROMPT_TOKENS = 4000
"""Tokens of messages at most in a checkpoint request to the model (newest first)."""

CHECKPOINT_SYSTEM_PROMPT = """\
TASK: Update the checkpoint of a working session: what the user and the assistant are in the \
middle of, so that the work can resume after older messages are summarized away.

Return ONLY a JSON object with these keys, and omit what is unknown:
"active_goals": [strings], "pending_tasks": [strings], "key_decisions": [strings],
"user_preferences": [strings, in the user's own words],
"context_references": {"files": [...], "tables": [...], "urls": [...], "identifiers": [...]},
"workflow_state": {"current_step": string, "completed_steps": [strings], "next_steps": [strings]}

DO NOT invent anything: take every item from the checkpoint, the state or the messages below. \
Keep what the current checkpoint holds unless the new messages change it."""

CHECKPOINT_INPUT_PROMPT = """\
Current checkpoint:
{checkpoint}

Session state:
{state}

New messages:
{conversation}

Return the updated checkpoint as JSON only:"""


def checkpoint_messages(
    floor: CheckpointData, state: StateSnapshot, messages: Sequence[Message]
) -> list[dict[str, str]]:
    """The JSON-mode request: the floor, the state and the newest messages that fit."""
    kept: list[Message] = []
    budget = JSON_PROMPT_TOKENS
    for message in reversed(messages):
        if message.token_count <= budget:
            kept.append(message)
            budget -= message.token_count
    conversation = "\n".join(f"{m.role}: {m.text}" for m in reversed(kept))
    user = CHECKPOINT_INPUT_PROMPT.format(
        checkpoint=floor.model_dump_json(exclude_defaults=True),
        state="\n".join(state.lines()) or "(none)",
        conversation=conversation or "(none)",
    )
    return [{"role": "system", "content": CHECKPOINT_SYSTEM_PROMPT}, {"role": "user", "content": user}]
