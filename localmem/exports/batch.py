"""One conversation of another assistant's export as the records an import writes:
:func:`session_batch` makes it a :class:`~localmem.jsonl.SessionBatch`, the batch a
localmem export's reader yields, so one write path stores every format.

Apart from the readers (``common``, ``chatgpt``, ``claude``, ``detect``), which need
no ``jsonl``: only the store's import (``localmem.history``) makes batches.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import ValidationError

from ..args import describe
from ..errors import InvalidInput
from ..jsonl.reading import SessionBatch
from ..jsonl.records import MessageRecord, SessionRecord
from .common import Conversation, Where


def session_batch(
    conversation: Conversation,
    importance: Sequence[float],
    *,
    index: int = 0,
    latest: datetime | None = None,
) -> SessionBatch:
    """The records of one conversation: its session and its messages (ids 1, 2, ...,
    ``importance`` scoring each turn, token counts left for the store to count).

    The records are checked as a localmem export's are (``localmem.jsonl``):
    a time after ``latest`` is refused. Raises :class:`InvalidInput` naming the
    conversation (``index`` is its position in the export).
    """
    where = Where(index)
    where.id = conversation.id
    context = {"latest": latest}
    c = conversation
    try:
        session = SessionRecord.model_validate(
            {
                "type": "session", "id": c.id, "title": c.title, "model": c.model,
                "created_at": c.created_at, "updated_at": c.updated_at,
            },
            context=context,
        )
    except ValidationError as exc:
        raise InvalidInput(f"{where}: {describe(exc)}") from None
    batch = SessionBatch(session, index)
    for number, (turn, score) in enumerate(zip(conversation.turns, importance, strict=True), 1):
        try:
            record = MessageRecord.model_validate(
                {
                    "type": "message", "id": number, "role": turn.role, "text": turn.text,
                    "model_id": turn.model_id, "token_count": 0, "importance_score": float(score),
                    "created_at": turn.created_at,
                },
                context=context,
            )
        except ValidationError as exc:
            raise InvalidInput(f"{where}: message {number}: {describe(exc)}") from None
        batch.add(record)
    return batch
