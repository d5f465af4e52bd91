"""OpenAI Agents SDK sessions kept in localmem's file.

Switch an agent's memory with one line::

    session = LocalMemSession("user-42", "chat.db")   # was: SQLiteSession("user-42", "chat.db")
    result = await Runner.run(agent, "Hello", session=session)

``LocalMemSession`` implements the SDK's ``Session`` protocol the way its own
``SQLiteSession`` behaves: ``get_items(limit=None)`` gives the newest
``limit`` items oldest first (the session settings' limit when none is
given; 0 gives none, a negative limit all), ``add_items`` appends in one
transaction, ``pop_item`` removes and returns the newest item, and
``clear_session`` forgets them all. Each item is kept verbatim as JSON (an
``Item`` of kind ``openai-agents``) and comes back exactly as it was stored,
whatever its shape. Beside it, a localmem message carries the item's readable
text, so the conversation is counted, scored, summarized, pinned and shown by
``localmem context`` like any other:

- a message item keeps its role (``developer`` becomes ``system``) and its
  text, from string content or from its text parts (an image part reads
  ``[image]``, a file ``[file name]``, a refusal its text);
- a function call is a ``tool`` message ``[tool call NAME] ARGUMENTS``; its
  output ``[tool result NAME] OUTPUT``; other calls and their outputs read
  likewise;
- a reasoning item is an ``assistant`` message ``[reasoning] SUMMARY``.

Sessions sharing one file never see each other's items. One session may be
used from several threads, each with its own event loop: the work runs in a
worker thread (the store's ``AsyncMemoryStore`` worker, in the order the
calls were made; the SDK uses ``asyncio.to_thread``) over the store, whose
lock serialises it; a write that has started finishes even if its caller is
cancelled. ``clear_session`` deletes the session's messages and summaries (and
the automatic pins taken from them) but keeps the localmem session and its
manual pins.

``compacting=True``: ``get_items()`` without a limit (what ``Runner`` calls
unless ``session_settings.limit`` is set) returns the memory instead of the
whole history: one ``system`` item holding the session's summaries and pins,
then the items of the newest messages that fit the store's
``context_token_limit`` (from the first self-contained one, so no tool output
is left without its call). A limit, given or from the settings, still returns
the newest items exactly; the SDK relies on that to check its own writes.
Summaries are written by ``store.summarize`` or ``MemoryConfig(auto_summarize=True)``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from collections.abc import Awaitable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from ..aio import AsyncMemoryStore
from ..config import MemoryConfig
from ..errors import InvalidInput, InvalidType, MissingExtra, SessionNotFound
from ..models import Item, Message
from ..store import MemoryStore
from ._common import StoreOwner, check_session_id, clean_text, open_store, to_json

try:
    from agents.memory.session_settings import SessionSettings
except ImportError as exc:  # pragma: no cover - exercised in a subprocess
    raise MissingExtra(
        "localmem.integrations.openai_agents needs the OpenAI Agents SDK: "
        "pip install 'localmem[openai-agents]'"
    ) from exc

__all__ = ["KIND", "LocalMemSession", "item_message"]

logger = logging.getLogger("localmem")

KIND = "openai-agents"
MEMORY = ":memory:"
ROLES = {
    "user": "user",
    "assistant": "assistant",
    "system": "system",
    "developer": "system",
    "tool": "tool",
}
GENERIC_TEXT_LIMIT = 1000  # characters of an unfamiliar item's readable text

T = TypeVar("T")


class LocalMemSession(StoreOwner):
    """An Agents SDK ``Session`` stored in a localmem file.

    ``db_path`` is the file (``":memory:"``, the default, keeps it in RAM like
    ``SQLiteSession``); or pass ``store``, a :class:`MemoryStore` shared with
    the rest of the app (then ``close()`` leaves it open). ``config`` (a
    :class:`MemoryConfig` or a dict) configures a store the session opens.
    ``session_settings`` is a ``SessionSettings`` or a dict of its fields;
    an unknown field raises :class:`InvalidInput`.
    """

    session_settings: SessionSettings | None = None

    def __init__(
        self,
        session_id: str,
        db_path: str | Path = MEMORY,
        session_settings: SessionSettings | Mapping[str, Any] | None = None,
        *,
        store: MemoryStore | None = None,
        config: MemoryConfig | Mapping[str, Any] | None = None,
        compacting: bool = False,
    ) -> None:
        self.session_id = check_session_id(session_id)
        self.session_settings = _coerce_settings(session_settings)
        self.compacting = bool(compacting)
        self.store, self._owns_store = open_store(db_path, store, config, default_path=MEMORY)
        self.db_path = self.store.path
        self._door = AsyncMemoryStore.of(self.store)
        self._closed = False

    def __repr__(self) -> str:
        return f"LocalMemSession({self.session_id!r}, {str(self.db_path)!r})"

    # --- the Session protocol ----------------------------------------------------

    async def get_items(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The session's items, oldest first: the newest ``limit`` of them.

        ``limit`` None uses the session settings' limit; None there too gives
        every item (or, when compacting, the memory: see the module's doc).
        Read-only.
        """
        self._check_open()
        if limit is None and self.session_settings is not None:
            limit = self.session_settings.limit
        if limit is None:
            return await self._off_loop(self._compacted if self.compacting else self._all)
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise InvalidInput(f"limit must be an integer or None, not {type(limit).__name__}")
        if limit < 0:  # SQLiteSession passes it to SQLite, where a negative LIMIT means none
            return await self._off_loop(self._all)
        return await self._off_loop(self._newest, limit)

    async def add_items(self, items: list[dict[str, Any]]) -> None:
        """Append items, in order, in one transaction (creating the session if needed).

        Raises :class:`InvalidInput` (an item that is not a JSON object)
        before anything is written.
        """
        self._check_open()
        if not items:
            return
        batch = list(items)
        await _complete(self._off_loop(self._add, batch))

    async def pop_item(self) -> dict[str, Any] | None:
        """Remove the newest item and return it; None when the session has none."""
        self._check_open()
        return await _complete(self._off_loop(self._pop))

    async def clear_session(self) -> None:
        """Forget every item: the session's messages and summaries go (and the automatic
        pins taken from them); it and its manual pins stay."""
        self._check_open()
        await _complete(self._off_loop(self._clear))



    # --- the work, in a worker thread --------------------------------------------


    def _all(self) -> list[dict[str, Any]]:
        return _decode(self.store.get_items(self.session_id, KIND))

    def _newest(self, limit: int) -> list[dict[str, Any]]:
        # A row that no longer decodes (edited by hand) is skipped, and the
        # window widened, so ``limit`` counts items, as SQLiteSession does.
        if limit == 0:
            return []
        window = limit
        while True:
            rows = self.store.get_items(self.session_id, KIND, newest=window)
            items = _decode(rows)
            if len(items) >= limit or len(rows) < window:
                return items[-limit:]
            window *= 2

    def _add(self, items: list[Any]) -> list[Message]:
        names: dict[str, str] = {}
        entries = []
        for index, item in enumerate(items):
            if not isinstance(item, Mapping):
                raise InvalidInput(
                    f"item {index} must be a dict (a TResponseInputItem), not {type(item).__name__}"
                )
            if _kind(item) in CALL_TYPES and isinstance(item.get("call_id"), str):
                names[item["call_id"]] = str(item.get("name") or item.get("type"))
            entries.append((item_message(item, names), to_json(item, f"item {index}")))
        return self.store.add_items(self.session_id, KIND, entries, create_session=True)

    def _pop(self) -> dict[str, Any] | None:
        while True:
            item = self.store.pop_item(self.session_id, KIND)
            if item is None:
                return None
            decoded = _decode([item])
            if decoded:
                return decoded[0]
            # Like SQLiteSession: a row that does not decode is dropped, and the next one popped.

    def _clear(self) -> None:
        try:
            self.store.clear_messages(self.session_id)
        except SessionNotFound:
            pass

    def _compacted(self) -> list[dict[str, Any]]:
        """The memory as items: summaries and pins, then the newest items that fit."""
        try:
            context = self.store.build_context(self.session_id)
        except SessionNotFound:
            return []
        recent = list(context.recent_messages)
        if context.clipped and recent:
            recent = recent[1:]  # an item cannot be clipped: leave out the one that was
        items: list[dict[str, Any]] = []
        if recent:
            stored = self.store.get_items(self.session_id, KIND, after_id=recent[0].id - 1)
            by_id = {item.message_id: item for item in stored}
            for message in recent:
                item = by_id.get(message.id)
                if item is not None:
                    items.extend(_decode([item]))
                elif message.role != "tool":  # a message the app stored itself
                    items.append({"role": message.role, "content": message.text})
        items = _self_contained(items)
        memory = context.memory_text()
        return ([{"role": "system", "content": memory}] if memory else []) + items


# --- items as messages ------------------------------------------------------------

CALL_TYPES = frozenset({"function_call", "custom_tool_call"})
OUTPUT_TYPES = frozenset({"function_call_output", "custom_tool_call_output"})


def item_message(
    item: Mapping[str, Any], call_names: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The localmem message carrying an item's readable text: ``{"role", "text"}``.

    ``call_names`` maps call ids to tool names, so an output can name its tool.
    """
    kind = _kind(item)
    role = item.get("role")
    if isinstance(role, str) and kind in (None, "message"):
        text = _content_text(item.get("content"))
        mapped = ROLES.get(role)
        if mapped is None:
            mapped, text = "user", f"[{role}] {text}"
        return {"role": mapped, "text": clean_text(text)}
    if kind in CALL_TYPES:
        body = item.get("arguments") if kind == "function_call" else item.get("input")
        text = f"[tool call {item.get('name')}] {_plain(body)}"
        return {"role": "tool", "text": clean_text(text)}
    if kind in OUTPUT_TYPES:
        call_id = item.get("call_id")
        name = (call_names or {}).get(call_id, call_id) if isinstance(call_id, str) else call_id
        text = f"[tool result {name}] {_content_text(item.get('output'))}"
        return {"role": "tool", "text": clean_text(text)}
    if kind == "reasoning":
        parts = item.get("summary") or item.get("content") or []
        text = " ".join(["[reasoning]", _content_text(parts)]).rstrip()
        return {"role": "assistant", "text": clean_text(text)}
    return _generic_message(item)


def _kind(item: Mapping[str, Any]) -> str | None:
    """An item's ``type`` when it is text; anything else (a list, a number) is no known type."""
    kind = item.get("type")
    return kind if isinstance(kind, str) else None


def _call_id(item: Mapping[str, Any]) -> str | None:
    call_id = item.get("call_id")
    return call_id if isinstance(call_id, str) else None


def _generic_message(item: Mapping[str, Any]) -> dict[str, str]:
    """Any other item: ``[TYPE NAME] DETAIL``, a tool message when it is a call or its output."""
    kind = str(item.get("type") or "item")
    label = " ".join(str(x) for x in (kind, item.get("name")) if x)
    detail = ""
    for key in ("arguments", "input", "output", "action", "queries", "query", "result", "error"):
        if item.get(key) not in (None, "", [], {}):
            detail = _content_text(item[key])
            break
    if len(detail) > GENERIC_TEXT_LIMIT:
        detail = detail[:GENERIC_TEXT_LIMIT] + " …"
    role = "tool" if "call" in kind or kind.endswith("_output") else "assistant"
    return {"role": role, "text": clean_text(f"[{label}] {detail}".rstrip())}


def _content_text(content: Any) -> str:
    """The text of content: a string as it is, the text of each part on its own line."""
    if isinstance(content, str):
        return content
    if isinstance(content, Mapping):
        return _part_text(content)
    if isinstance(content, Iterable):
        return "\n".join(text for text in map(_part_text, content) if text)
    return "" if content is None else _plain(content)


def _part_text(part: Any) -> str:
    if isinstance(part, str):
        return part
    if not isinstance(part, Mapping):
        return _plain(part)
    kind = part.get("type")
    for key in ("text", "refusal"):
        if isinstance(part.get(key), str):
            return part[key]
    if kind in ("input_image", "image", "computer_screenshot"):
        return "[image]"
    if kind in ("input_file", "file"):
        name = part.get("filename")
        return f"[file {name}]" if name else "[file]"
    if kind == "input_audio":
        return "[audio]"
    return f"[{kind}]" if kind else _plain(part)


def _plain(value: Any) -> str:
    """A short readable form of a value: strings as they are, the rest as compact JSON."""
    if isinstance(value, str):
        return "[data]" if value.startswith("data:") else value
    if value is None:
        return ""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)
    except (TypeError, ValueError):
        return str(value)


def _self_contained(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Drop what cannot stand at the start of a history cut short.

    The window starts at its first message item (a reasoning item or a call
    before it belongs to a turn that was cut); a tool output whose call is
    not in the window is left out too (the API refuses an output without
    its call).
    """
    start = next((i for i, item in enumerate(items) if "role" in item), len(items))
    kept = items[start:]
    calls = {_call_id(item) for item in kept if "output" not in (_kind(item) or "")}
    return [
        item
        for item in kept
        if not (_kind(item) or "").endswith("_output") or _call_id(item) in calls
    ]


def _decode(items: Iterable[Item]) -> list[dict[str, Any]]:
    out = []
    for item in items:
        try:
            data = json.loads(item.data)
        except (json.JSONDecodeError, TypeError, RecursionError):
            data = None
        if isinstance(data, dict):
            out.append(data)
        else:  # written by hand, or by another program: not an item the SDK can take
            logger.warning("skipped item of message %d: not a JSON object", item.message_id)
    return out


# --- settings and writes ------------------------------------------------------------


def _coerce_settings(value: SessionSettings | Mapping[str, Any] | None) -> SessionSettings:
    """A ``SessionSettings`` from one or from a dict of its fields, as the SDK coerces them."""
    if value is None:
        return SessionSettings()
    if isinstance(value, SessionSettings):
        return value
    if not isinstance(value, Mapping):
        raise InvalidType(
            f"session_settings must be a SessionSettings or a dict, not {type(value).__name__}"
        )
    known = {field.name for field in dataclasses.fields(SessionSettings) if field.init}
    unknown = sorted(str(name) for name in value if name not in known)
    if unknown:  # the SDK's own words and type (its tests match them)
        raise InvalidType(f"Unknown session settings: {', '.join(unknown)}")
    try:
        return SessionSettings(**value)
    except (TypeError, ValueError) as exc:  # pydantic's ValidationError is a ValueError
        raise InvalidInput(f"invalid session settings: {exc}") from None


async def _complete(work: Awaitable[T]) -> T:
    """Await a write to its end even if the caller is cancelled meanwhile.

    The write runs in a thread and cannot be stopped half-way; its caller
    learns how it ended, then the cancellation goes on (as the SDK's own
    sessions do).
    """
    task = asyncio.ensure_future(work)
    cancelled: asyncio.CancelledError | None = None
    while not task.done():
        try:
            await asyncio.wait({task})
        except asyncio.CancelledError as exc:
            cancelled = cancelled or exc
    if cancelled is not None:
        if not task.cancelled():
            task.exception()  # retrieved: the cancellation is what the caller sees
        raise cancelled
    return task.result()
