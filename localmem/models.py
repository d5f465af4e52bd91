"""The records localmem stores, as pydantic models.

Field names are the table columns (``Message.text``, ``Pin.content``,
``Summary.source`` ...). Rows read from the file become these models in
``localmem.db``; they are frozen snapshots: changing one changes nothing in
the database. ``NewMessage`` validates what a caller asks to write. An
``Item`` is an agent framework's own record of a message, stored beside it.
A ``SearchHit`` is one result of a full-text search.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, StrictStr

Role = Literal["system", "user", "assistant", "tool"]
PinKind = Literal["manual", "auto"]
HitKind = Literal["message", "summary", "pin"]
ROLES: tuple[str, ...] = ("system", "user", "assistant", "tool")
PIN_KINDS: tuple[str, ...] = ("manual", "auto")


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Session(_Record):
    """A conversation. ``model`` is the chat model the assistant uses for it."""

    id: str
    title: str | None
    model: str | None
    created_at: str
    updated_at: str


class Message(_Record):
    """One stored turn; ``id`` orders a session's messages."""

    id: int
    session_id: str
    role: Role
    text: str
    model_id: str | None
    token_count: int
    importance_score: float
    created_at: str


class Summary(_Record):
    """A summary of the messages ``start_message_id``..``end_message_id`` (inclusive).

    ``level`` 1 summarizes messages, 2 summarizes level-1 summaries.
    ``source`` is the model that wrote it, or ``fallback`` / ``offline``
    when the deterministic keyword summary took its place.
    """

    id: int
    session_id: str
    text: str
    start_message_id: int
    end_message_id: int
    message_count: int
    level: int
    source: str
    importance_score: float
    token_count: int
    created_at: str


class Pin(_Record):
    """A fact kept in every context of its session, by importance."""

    id: int
    session_id: str
    content: str
    source_message_id: int | None
    importance_score: float
    kind: PinKind
    token_count: int
    created_at: str


class Item(_Record):
    """A framework's own record of one message, kept verbatim as JSON text.

    ``message_id`` is the message that carries the item's readable text (and
    orders a session's items); ``kind`` names the framework that wrote it
    (``openai-agents``, ``langchain``).
    """

    message_id: int
    session_id: str
    kind: str
    data: str


class SearchHit(_Record):
    """A message, summary or pin that matched a search.

    ``id`` is the row's id in its own table (``kind`` says which); ``text`` is
    the whole text (a pin's ``content``); ``snippet`` is the best passage,
    matched words between ``[`` and ``]``. ``score`` is BM25's (higher is
    better); it orders one search's hits and means nothing across searches.
    """

    kind: HitKind
    id: int
    session_id: str
    text: str
    score: float
    snippet: str


class NewMessage(BaseModel):
    """A message a caller asks to store; validated before anything is written."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    role: Role
    text: StrictStr
    model_id: StrictStr | None = None
