"""A Claude.ai data export's ``conversations.json``, read into :class:`Conversation` s.

The file is a list of conversations. Each has a ``uuid``, a ``name`` (its
title), ``created_at`` and ``updated_at`` (ISO-8601), sometimes the ``model``,
and ``chat_messages`` in order: each with a ``uuid``, a ``sender`` (``human``
or ``assistant``), ``created_at``, the rendered ``text`` and its ``content``
blocks (``text``, ``thinking``, ``tool_use``, ``tool_result``, ...),
``attachments`` (pasted or uploaded files: ``file_name``,
``extracted_content``) and ``files`` (``file_name``). Where an export names the
conversation's ``current_leaf_message_uuid`` and each message's
``parent_message_uuid``, the turns are the branch ending at that leaf (up
through the parents while they are messages of the conversation); otherwise
all messages, in order.

A message's text is its ``text`` blocks joined (``text`` when it has no
blocks); the model's hidden reasoning (``thinking``) is left out; a tool call
or result becomes ``[tool use: name]`` / ``[tool result: name]``, another
block ``[its type]``; each attached file adds ``[file: name]``. A message with
no text at all is skipped.

Malformed input (a message without a sender or date, an unknown sender, a
``current_leaf_message_uuid`` naming no message) raises
:class:`~localmem.errors.InvalidInput` naming the conversation and the field.
"""

from __future__ import annotations

from typing import Any

from ..errors import InvalidInput
from .common import Conversation, Turn, Where, a, joined, marker, need, optional_text, text_time

SENDERS = {"human": "user", "user": "user", "assistant": "assistant"}
HIDDEN_BLOCKS = frozenset({"thinking", "redacted_thinking"})


def conversations(data: object) -> list[Conversation]:
    """Every conversation of the export, checked; :class:`InvalidInput` at the first bad one."""
    if not isinstance(data, list):
        raise InvalidInput(f"a Claude export's conversations.json is a list of conversations, not {a(data)}")
    return [conversation(index, raw) for index, raw in enumerate(data)]


def conversation(index: int, raw: object) -> Conversation:
    """One conversation and its turns (see the module)."""
    where = Where(index)
    if not isinstance(raw, dict):
        raise where.error("conversation", f"{a(raw)}, not an object")
    where.id = need(where, raw, "uuid", str, "uuid")
    if not where.id:
        raise where.error("uuid", "empty")
    created = text_time(where, raw.get("created_at"), "created_at")
    messages = need(where, raw, "chat_messages", list, "chat_messages")
    turns: list[Turn] = []
    for position in _branch(where, raw, messages):
        turn = _turn(where, messages[position], f"chat_messages[{position}]")
        if turn is not None:
            turns.append(turn)
    updated = raw.get("updated_at")
    updated_at = created if updated is None else text_time(where, updated, "updated_at")
    last = turns[-1].created_at if turns else created
    return Conversation(
        id=where.id,
        title=optional_text(where, raw, "name", "name"),
        model=optional_text(where, raw, "model", "model"),
        created_at=created,
        updated_at=max(updated_at, last),
        turns=tuple(turns),
    )


def _branch(where: Where, raw: dict[str, Any], messages: list[Any]) -> list[int]:
    """The positions of the messages to import, in order."""
    leaf = raw.get("current_leaf_message_uuid")
    if leaf is None:
        return list(range(len(messages)))
    if not isinstance(leaf, str):
        raise where.error("current_leaf_message_uuid", f"{a(leaf)}, not text")
    positions = {
        m.get("uuid"): i for i, m in enumerate(messages) if isinstance(m, dict) and isinstance(m.get("uuid"), str)
    }
    if leaf not in positions:
        raise where.error("current_leaf_message_uuid", f"{leaf!r} names no message of chat_messages")
    path: list[int] = []
    seen: set[str] = set()
    at: object = leaf
    while isinstance(at, str) and at in positions:  # the root's parent is no message of it
        if at in seen:
            raise where.error(f"chat_messages[{positions[at]}].parent_message_uuid", "the parents form a loop")
        seen.add(at)
        path.append(positions[at])
        at = messages[positions[at]].get("parent_message_uuid")
    path.reverse()
    return path


def _turn(where: Where, message: object, field: str) -> Turn | None:
    if not isinstance(message, dict):
        raise where.error(field, f"{a(message)}, not a message")
    sender = need(where, message, "sender", str, f"{field}.sender")
    if sender not in SENDERS:
        raise where.error(f"{field}.sender", f"{sender!r} is not human or assistant")
    created = text_time(where, message.get("created_at"), f"{field}.created_at")
    blocks = message.get("content")
    if isinstance(blocks, list) and blocks:
        pieces = [_block(b) for b in blocks]
    else:
        pieces = [optional_text(where, message, "text", f"{field}.text") or ""]
    names: list[str] = []
    for key in ("attachments", "files"):
        found = message.get(key)
        if isinstance(found, list):
            names += [marker("file", f.get("file_name")) for f in found if isinstance(f, dict)]
    text = joined([*pieces, *dict.fromkeys(names)])  # a file in both lists is marked once
    return Turn(SENDERS[sender], text, created) if text else None


def _block(block: object) -> str:
    if not isinstance(block, dict):
        return ""
    kind = block.get("type")
    if kind == "text":
        return block.get("text") if isinstance(block.get("text"), str) else ""
    if kind in HIDDEN_BLOCKS:
        return ""
    if kind in ("tool_use", "tool_result"):
        return marker(kind.replace("_", " "), block.get("name"))
    return marker(kind if isinstance(kind, str) else "content")
