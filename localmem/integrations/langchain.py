"""LangChain chat message history kept in localmem's file.

Switch a chain's memory with one line::

    get_history = lambda session_id: LocalMemChatMessageHistory(session_id, "chat.db")
    chain = RunnableWithMessageHistory(prompt | model, get_history, ...)

``LocalMemChatMessageHistory`` implements langchain-core's
``BaseChatMessageHistory``: ``messages`` (oldest first), ``add_messages``
(one transaction), ``clear``, and their async forms ``aget_messages``,
``aadd_messages`` and ``aclear`` (the same work in a worker thread). Each
message is kept verbatim as ``messages_to_dict`` gives it (an ``Item`` of kind
``langchain``) and read back with ``messages_from_dict``: every message type
comes back equal to what was added, tool calls, ``additional_kwargs``,
``response_metadata``, ids and names included. Beside it, a localmem message
carries its readable text (human → ``user``, ai → ``assistant``, system →
``system``, tool and function → ``tool``; an AI message's tool calls read
``[tool call NAME] ARGS``, a tool message ``[tool result NAME] TEXT``), so the
conversation is counted, scored, summarized and shown by ``localmem context``.

``clear`` deletes the session's messages and summaries (and the automatic pins
taken from them); the localmem session and its manual pins stay. Histories of different session ids sharing one file never
see each other's messages.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..aio import AsyncMemoryStore
from ..config import MemoryConfig
from ..errors import InvalidInput, MissingExtra, SessionNotFound
from ..store import MemoryStore
from ._common import StoreOwner, check_session_id, clean_text, open_store, to_json

try:
    from langchain_core.chat_history import BaseChatMessageHistory
    from langchain_core.messages import BaseMessage, message_to_dict, messages_from_dict
except ImportError as exc:  # pragma: no cover - exercised in a subprocess
    raise MissingExtra(
        "localmem.integrations.langchain needs langchain-core: pip install 'localmem[langchain]'"
    ) from exc

__all__ = ["KIND", "LocalMemChatMessageHistory", "message_text"]

logger = logging.getLogger("localmem")

KIND = "langchain"
ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool", "function": "tool"}
CHAT_ROLES = {  # ChatMessage.role is free text
    **{role: role for role in ("user", "assistant", "system", "tool")},
    "human": "user",
    "ai": "assistant",
    "developer": "system",
    "function": "tool",
}


class LocalMemChatMessageHistory(StoreOwner, BaseChatMessageHistory):
    """A LangChain chat history stored in a localmem file.

    ``db_path`` is the file (None: ``$LOCALMEM_DB``, else the user data
    directory's ``memory.db``; ``":memory:"`` for RAM only); or pass
    ``store``, a :class:`MemoryStore` shared with the rest of the app (then
    ``close()`` leaves it open). ``config`` configures a store the history opens.
    """

    def __init__(
        self,
        session_id: str,
        db_path: str | Path | None = None,
        *,
        store: MemoryStore | None = None,
        config: MemoryConfig | Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.session_id = check_session_id(session_id)
        self.store, self._owns_store = open_store(db_path, store, config, default_path=None)
        self.db_path = self.store.path
        self._door = AsyncMemoryStore.of(self.store)
        self._closed = False

    def __repr__(self) -> str:
        return f"LocalMemChatMessageHistory({self.session_id!r}, {str(self.db_path)!r})"

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        """The session's messages, oldest first. Read-only."""
        self._check_open()
        out = []
        for item in self.store.get_items(self.session_id, KIND):
            try:
                out += messages_from_dict([json.loads(item.data)])
            except (ValueError, KeyError, TypeError, RecursionError):  # ValueError: bad JSON too
                # Written by hand or by another program: not a message LangChain can read.
                logger.warning("skipped item of message %d: not a LangChain message", item.message_id)
        return out

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Append messages, in order, in one transaction (creating the session if needed).

        Raises :class:`InvalidInput` (not a message, or not JSON-serializable)
        before anything is written.
        """
        self._check_open()
        batch = list(messages)
        if not batch:
            return
        entries = []
        for index, message in enumerate(batch):
            if not isinstance(message, BaseMessage):
                raise InvalidInput(
                    f"message {index} must be a BaseMessage, not {type(message).__name__}"
                )
            entries.append(
                (message_text(message), to_json(message_to_dict(message), f"message {index}"))
            )
        self.store.add_items(self.session_id, KIND, entries, create_session=True)

    def clear(self) -> None:
        """Forget every message: the session's messages and summaries go (and the automatic
        pins taken from them); it and its manual pins stay."""
        self._check_open()
        try:
            self.store.clear_messages(self.session_id)
        except SessionNotFound:
            pass

    async def aget_messages(self) -> list[BaseMessage]:
        """``messages``, read in a worker thread."""
        return await self._off_loop(lambda: self.messages)

    async def aadd_messages(self, messages: Sequence[BaseMessage]) -> None:
        """``add_messages``, written in a worker thread."""
        await self._off_loop(self.add_messages, list(messages))

    async def aclear(self) -> None:
        """``clear``, in a worker thread."""
        await self._off_loop(self.clear)





def message_text(message: BaseMessage) -> dict[str, str]:
    """The localmem message carrying a LangChain message's readable text: ``{"role", "text"}``."""
    kind = message.type.removesuffix("MessageChunk").lower()  # "AIMessageChunk" is an "ai"
    if kind == "chat":
        role = CHAT_ROLES.get(str(getattr(message, "role", "")), "user")
    else:
        role = ROLES.get(kind, "system")
    text = message.text
    if not isinstance(text, str):  # langchain-core < 1.0: a method
        text = text()
    text = str(text)
    if kind in ("tool", "function"):
        name = message.name or getattr(message, "tool_call_id", None) or kind
        text = f"[tool result {name}] {text}"
    for call in getattr(message, "tool_calls", None) or []:
        args = json.dumps(call.get("args", {}), ensure_ascii=False, default=str)
        text = "\n".join(part for part in (text, f"[tool call {call.get('name')}] {args}") if part)
    return {"role": role, "text": clean_text(text)}
