"""Argument checks shared by the store and its capabilities.

Each returns the checked value or raises :class:`~localmem.errors.InvalidInput`
before anything is written. Text must be encodable as UTF-8 (a lone surrogate
is refused: no reader of the file could show it); integers must fit SQLite's.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import ValidationError

from .errors import InvalidInput

MAX_SQLITE_INTEGER = 2**63 - 1


def check_text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string, not {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            f"{name} is not valid Unicode: a lone surrogate at position {exc.start} "
            "(decode text with errors='replace' or 'surrogateescape' before storing it)"
        ) from None
    return value


def query_text(query: object) -> str:
    """A query must be a string; any string will do (it is only read, never stored),
    so a lone surrogate becomes U+FFFD instead of an error."""
    if not isinstance(query, str):
        raise InvalidInput(f"query must be a string, not {type(query).__name__}")
    try:
        query.encode("utf-8")
    except UnicodeEncodeError:
        return query.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return query


def check_path(path: object) -> Path:
    """A database path: text or an ``os.PathLike`` (bytes are decoded as the OS does)."""
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    try:
        checked = Path(path).expanduser()  # type: ignore[arg-type]
    except TypeError:
        raise InvalidInput(f"path must be a str or a path, not {type(path).__name__}") from None
    if "\x00" in str(checked):
        raise InvalidInput("path must not contain a NUL character")
    return checked


def check_id(session_id: object) -> str:
    return check_text("session_id", session_id)


def check_kind(kind: object) -> str:
    text = check_text("kind", kind)
    if not text:
        raise InvalidInput("kind must not be empty")
    return text


def check_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name} must be an integer, not {type(value).__name__}")
    if not 0 <= value <= MAX_SQLITE_INTEGER:
        raise InvalidInput(f"{name} must be between 0 and {MAX_SQLITE_INTEGER}, got {value}")
    return value


def check_importance(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput(f"importance must be a number, not {type(value).__name__}")
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise InvalidInput(f"importance must be between 0 and 1, got {value}")
    return float(value)


def as_list(values: object, message: str) -> list:
    """A list of the items of ``values``, which must be iterable but not text or a mapping."""
    if isinstance(values, (str, bytes, Mapping)):
        raise InvalidInput(message)
    try:
        return list(values)  # type: ignore[call-overload]
    except TypeError:
        raise InvalidInput(message) from None


def describe(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(part) for part in err["loc"])
    return f"{where}: {err['msg']}" if where else err["msg"]
