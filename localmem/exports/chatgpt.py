"""A ChatGPT data export's ``conversations.json``, read into :class:`Conversation` s.

The file is a list of conversations. Each has an ``id`` (older exports:
``conversation_id``), a ``title``, ``create_time`` and ``update_time``
(seconds since 1970), a ``mapping`` from node ids to nodes, and
``current_node``, the node the conversation's shown branch ends at. A node
has a ``parent`` (None at the root), ``children`` and a ``message`` (None for
the placeholder root): ``author.role`` (user, assistant, system, tool),
``create_time``, ``content`` (``content_type`` and ``parts``, or ``text``, or
``result``) and ``metadata`` (``model_slug``, ``attachments``,
``is_visually_hidden_from_conversation``).

The turns are the current branch only: from ``current_node`` up through
``parent`` to the root, then in order; regenerated answers and edited
questions on other branches are left out. A message is skipped when the app
hides it (``is_visually_hidden_from_conversation``, the custom instructions'
``user_editable_context``, the model's memory context), when it is the model's
hidden reasoning (``thoughts``, ``reasoning_recap``), or when it holds no text
(an empty system message, an assistant turn that only called a tool). Text
parts are joined; an image, audio or another part that is not text becomes a
marker (``[image]``); a file attached to the message adds ``[file: name]``.
A message without a time takes the time of the one before it (the
conversation's start for the first).

Malformed input (``current_node`` naming no node, a parent naming no node,
parents in a loop, a message without an author or content, an unknown role)
raises :class:`~localmem.errors.InvalidInput` naming the conversation and
the field; no other branch is ever taken instead.
"""

from __future__ import annotations

from typing import Any

from ..errors import InvalidInput
from .common import (
    ROLES,
    Conversation,
    Turn,
    Where,
    a,
    epoch_time,
    joined,
    marker,
    need,
    optional_text,
)

HIDDEN_CONTENT = frozenset(
    {"thoughts", "reasoning_recap", "user_editable_context", "model_editable_context"}
)
"""Content the app does not show as a turn: the model's reasoning, the user's
custom instructions and the model's memory, sent as context."""

PART_MARKERS = {
    "image_asset_pointer": "image",
    "audio_asset_pointer": "audio",
    "real_time_user_audio_video_asset_pointer": "audio",
    "video_container_asset_pointer": "video",
}


def conversations(data: object) -> list[Conversation]:
    """Every conversation of the export, checked; :class:`InvalidInput` at the first bad one."""
    if not isinstance(data, list):
        raise InvalidInput(f"a ChatGPT export's conversations.json is a list of conversations, not {a(data)}")
    return [conversation(index, raw) for index, raw in enumerate(data)]


def conversation(index: int, raw: object) -> Conversation:
    """One conversation: its current branch's turns (see the module)."""
    where = Where(index)
    if not isinstance(raw, dict):
        raise where.error("conversation", f"{a(raw)}, not an object")
    key = "id" if raw.get("id") is not None else "conversation_id"
    where.id = need(where, raw, key, str, key)
    if not where.id:
        raise where.error(key, "empty")
    title = optional_text(where, raw, "title", "title")
    created = epoch_time(where, raw.get("create_time"), "create_time")
    mapping = need(where, raw, "mapping", dict, "mapping")
    current = need(where, raw, "current_node", str, "current_node")
    turns: list[Turn] = []
    when = created
    for node_id in branch(where, mapping, current):
        message = mapping[node_id].get("message")
        if message is None:
            continue  # the placeholder root
        turn = _turn(where, message, f"mapping[{node_id!r}].message", when)
        if turn is not None:
            turns.append(turn)
            when = turn.created_at
    updated = raw.get("update_time")
    updated_at = when if updated is None else epoch_time(where, updated, "update_time")
    models = [t.model_id for t in turns if t.model_id]
    model = optional_text(where, raw, "default_model_slug", "default_model_slug")
    return Conversation(
        id=where.id,
        title=title,
        model=model or (models[-1] if models else None),
        created_at=created,
        updated_at=max(updated_at, when),
        turns=tuple(turns),
    )


def branch(where: Where, mapping: dict[str, Any], current: str) -> list[str]:
    """The node ids from the root to ``current``, through each node's ``parent``."""
    if current not in mapping:
        raise where.error("current_node", f"{current!r} names no node of mapping")
    path: list[str] = []
    seen: set[str] = set()
    node_id: str | None = current
    while node_id is not None:
        if node_id in seen:
            raise where.error(f"mapping[{node_id!r}].parent", "the parents form a loop")
        seen.add(node_id)
        node = mapping[node_id]
        if not isinstance(node, dict):
            raise where.error(f"mapping[{node_id!r}]", f"{a(node)}, not a node")
        parent = node.get("parent")
        if parent is not None and (not isinstance(parent, str) or parent not in mapping):
            raise where.error(f"mapping[{node_id!r}].parent", f"{parent!r} names no node of mapping")
        path.append(node_id)
        node_id = parent
    path.reverse()
    return path


def _turn(where: Where, message: object, field: str, previous: str) -> Turn | None:
    """A message as a turn, or None when it is skipped (see the module)."""
    if not isinstance(message, dict):
        raise where.error(field, f"{a(message)}, not a message")
    author = need(where, message, "author", dict, f"{field}.author")
    role = need(where, author, "role", str, f"{field}.author.role")
    if role not in ROLES:
        raise where.error(f"{field}.author.role", f"{role!r} is not one of {', '.join(ROLES)}")
    content = need(where, message, "content", dict, f"{field}.content")
    metadata = message.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise where.error(f"{field}.metadata", f"{a(metadata)}, not an object")
    if metadata.get("is_visually_hidden_from_conversation") is True:
        return None
    if content.get("content_type") in HIDDEN_CONTENT:
        return None
    stamp = message.get("create_time")
    created = previous if stamp is None else epoch_time(where, stamp, f"{field}.create_time")
    text = joined([*_content_text(where, content, f"{field}.content"), *_attachments(metadata)])
    if not text:
        return None
    model = metadata.get("model_slug")
    return Turn(role, text, created, model if isinstance(model, str) and model else None)


def _content_text(where: Where, content: dict[str, Any], field: str) -> list[str]:
    """The text of a message's content: its parts (text, or a marker each), else its
    ``text`` or ``result``."""
    parts = content.get("parts")
    if isinstance(parts, list):
        return [_part(p) for p in parts]
    for key in ("text", "result"):
        if isinstance(content.get(key), str):
            return [content[key]]
    kind = content.get("content_type")
    if not isinstance(kind, str):
        raise where.error(f"{field}.content_type", "missing" if kind is None else f"{a(kind)}, not text")
    return [marker(kind)]


def _part(part: object) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, dict):
        kind = part.get("content_type")
        if kind == "audio_transcription" and isinstance(part.get("text"), str):
            return part["text"]
        if isinstance(part.get("text"), str) and kind in (None, "text"):
            return part["text"]
        return marker(PART_MARKERS.get(kind, kind if isinstance(kind, str) else "attachment"))
    return ""


def _attachments(metadata: dict[str, Any]) -> list[str]:
    """``[file: name]`` for each file attached to the message (images are their parts' markers)."""
    found = metadata.get("attachments")
    if not isinstance(found, list):
        return []
    return [
        marker("file", f.get("name"))
        for f in found
        if isinstance(f, dict) and not str(f.get("mime_type") or f.get("mimeType") or "").startswith("image/")
    ]
