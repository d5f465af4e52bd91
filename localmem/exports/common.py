"""What a conversation of another assistant's export becomes before it is stored.

:class:`Conversation` and :class:`Turn` hold what the readers (``chatgpt``,
``claude``) took from an export, already checked (``batch.session_batch`` turns
one into the records an import of a localmem export writes). An error names the conversation (its position in the
export and its id) and the field: ``conversation 3 ('6f1…'):
mapping['a1'].message.author: missing``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from ..clock import iso, parse_time
from ..errors import InvalidInput

ROLES = ("user", "assistant", "system", "tool")
MAX_NAME_CHARS = 80
"""A file's name in a marker is cut to this many characters."""


@dataclass(frozen=True)
class Turn:
    """One message as it will be stored: role, text, ``created_at`` (as the file
    stores times) and the model that wrote it, if the export says."""

    role: str
    text: str
    created_at: str
    model_id: str | None = None


@dataclass(frozen=True)
class Conversation:
    """One conversation of an export: the session it becomes and its turns, in order."""

    id: str
    title: str | None
    model: str | None
    created_at: str
    updated_at: str
    turns: tuple[Turn, ...]


class Where:
    """Names a conversation in errors: its position in the export, and its id once known."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.id: str | None = None

    def __str__(self) -> str:
        return f"conversation {self.index}" + ("" if self.id is None else f" ({self.id!r})")

    def error(self, field: str, problem: str) -> InvalidInput:
        return InvalidInput(f"{self}: {field}: {problem}")


def a(value: object) -> str:
    """What a value is, for an error: ``a list``, ``None``, ``the number 3``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    return f"a {'list' if isinstance(value, list) else 'object' if isinstance(value, dict) else type(value).__name__}"


def need(where: Where, obj: dict[str, Any], key: str, kind: type | tuple[type, ...], field: str) -> Any:
    """``obj[key]``, which must be of ``kind``; an error naming ``field`` otherwise."""
    if key not in obj or obj[key] is None:
        raise where.error(field, "missing")
    value = obj[key]
    if not isinstance(value, kind) or isinstance(value, bool) and bool not in _kinds(kind):
        raise where.error(field, f"{a(value)}, not {_kind_name(kind)}")
    return value


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "text", dict: "an object", list: "a list", int: "a number", float: "a number"}
    return " or ".join(dict.fromkeys(names.get(k, k.__name__) for k in _kinds(kind)))


def optional_text(where: Where, obj: dict[str, Any], key: str, field: str) -> str | None:
    """``obj[key]`` when it is text, None when absent or null; an error otherwise."""
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise where.error(field, f"{a(value)}, not text")
    return value or None


def epoch_time(where: Where, value: object, field: str) -> str:
    """Seconds since 1970 (ChatGPT's times) as the file stores times."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise where.error(field, f"{a(value)}, not a time in seconds")
    try:
        return iso(datetime.fromtimestamp(value, timezone.utc))
    except (OverflowError, OSError, ValueError):
        raise where.error(field, f"{value} is not a time") from None


def text_time(where: Where, value: object, field: str) -> str:
    """An ISO-8601 time (Claude's times) as the file stores times."""
    moment = parse_time(value)
    if moment is None:
        raise where.error(field, f"{a(value)}, not an ISO-8601 time")
    try:
        return iso(moment)
    except OverflowError:
        raise where.error(field, f"{value!r} is not a time") from None


def marker(kind: str, name: object = None) -> str:
    """What stands for a part that is not text: ``[image]``, ``[file: report.pdf]``."""
    if isinstance(name, str) and name.strip():
        name = " ".join(name.split())
        if len(name) > MAX_NAME_CHARS:
            name = name[: MAX_NAME_CHARS - 1] + "…"
        return f"[{kind}: {name}]"
    return f"[{kind}]"


def joined(pieces: Sequence[str]) -> str:
    """Text parts joined as one message: blank ones dropped, one newline between."""
    return "\n".join(p for p in pieces if p.strip())
