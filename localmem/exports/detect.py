"""Which export a file is, told by its content, and its conversations read.

- a localmem export (JSON Lines) begins with its header line, an object
  (``{"type":"header","format":"localmem-export",...}``);
- a .zip (a ChatGPT or Claude data export as downloaded) holds a
  ``conversations.json``, read from it without unpacking anything else; or, as
  ChatGPT's larger exports since 2026 do, the same list split in numbered parts
  (``conversations-000.json``, ``conversations-001.json``, ...), read in order as one;
- a ``conversations.json`` is a JSON list: ChatGPT's conversations have a
  ``mapping``, Claude's ``chat_messages``.

The JSON is read whole (a list cannot be imported before it is checked whole).
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Callable, Iterable
from typing import Any, BinaryIO

from ..errors import InvalidInput
from . import chatgpt, claude
from .common import Conversation, a

FORMATS = ("localmem", "chatgpt", "claude")
NAMES = {"localmem": "a localmem export", "chatgpt": "a ChatGPT export", "claude": "a Claude export"}
CONVERSATIONS = "conversations.json"
PART = re.compile(r"conversations-(\d+)\.json")
"""A numbered part of a split ``conversations.json`` (its name, without its folder)."""
ZIP_MAGIC = b"PK\x03\x04"
HEAD_BYTES = 4096


def sniff(head: bytes) -> str:
    """What the first bytes of a file say it is: ``zip``; ``localmem`` (JSON Lines:
    its first line is an object, the header) or ``json`` (a ``conversations.json``
    is a list)."""
    if head.startswith(ZIP_MAGIC):
        return "zip"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return "localmem"
    return "json"


def load(file: BinaryIO, kind: str) -> Any:
    """The parsed ``conversations.json`` of a .zip (``kind`` ``zip``, ``file`` seekable;
    its numbered parts joined in order when it is split) or of the file itself.
    :class:`InvalidInput` if there is none or it is not JSON (naming the part)."""
    if kind != "zip":
        return _parsed(file.read(), CONVERSATIONS)
    try:
        with zipfile.ZipFile(file) as archive:
            names = archive.namelist()
            whole = _shallowest(n for n in names if n.rsplit("/", 1)[-1] == CONVERSATIONS)
            if whole is not None:
                return _parsed(archive.read(whole), whole)
            parts = {n: m for n in names if (m := PART.fullmatch(n.rsplit("/", 1)[-1])) and "__MACOSX" not in n}
            first = _shallowest(parts)
            if first is None:
                raise InvalidInput(
                    f"the .zip holds no {CONVERSATIONS} (nor its parts, conversations-000.json...): "
                    "is it a ChatGPT or Claude data export?"
                )
            # The parts of the folder nearest the top, by their numbers.
            ordered = sorted((int(m.group(1)), n) for n, m in parts.items() if _folder(n) == _folder(first))
            joined: list = []
            for _number, name in ordered:
                data = _parsed(archive.read(name), name)
                if not isinstance(data, list):
                    raise InvalidInput(f"{name} holds {a(data)}, not a list of conversations")
                joined += data
            return joined
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise InvalidInput(f"not a readable .zip: {exc}") from None


def _shallowest(names: Iterable[str]) -> str | None:
    """The name nearest the top of the .zip (the first by name among equals), or None."""
    return min(names, key=lambda n: (n.count("/"), n), default=None)


def _folder(name: str) -> str:
    return name.rsplit("/", 1)[0] if "/" in name else ""


def _parsed(raw: bytes, name: str) -> Any:
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{name} is not UTF-8 text (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{name} is not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise InvalidInput(f"{name} nests too deep to be an export") from None


def detect(data: Any) -> str | None:
    """``chatgpt`` or ``claude`` for a parsed ``conversations.json``; None for an empty
    list (nothing to import in either format). :class:`InvalidInput` for anything else."""
    if not isinstance(data, list):
        raise InvalidInput(
            f"not a ChatGPT or Claude export: its conversations.json holds {a(data)}, not a list of conversations"
        )
    for item in data:
        if isinstance(item, dict):
            if "mapping" in item:
                return "chatgpt"
            if "chat_messages" in item:
                return "claude"
        break
    if not data:
        return None
    raise InvalidInput(
        "not a ChatGPT or Claude export: its first conversation has neither a mapping (ChatGPT) "
        "nor chat_messages (Claude)"
    )


def peek(file: BinaryIO) -> bytes:
    """The first bytes of ``file``, leaving it where it was (a pipe is buffered)."""
    if hasattr(file, "peek"):
        return file.peek(HEAD_BYTES)[:HEAD_BYTES]
    start = file.tell()
    head = file.read(HEAD_BYTES)
    file.seek(start)
    return head


def seekable(file: BinaryIO) -> BinaryIO:
    """``file``, or its bytes in memory when it cannot seek (a .zip read from a pipe)."""
    try:
        if file.seekable():
            return file
    except (AttributeError, ValueError):
        pass
    return io.BytesIO(file.read())



def read_conversations(file: BinaryIO, format: str = "auto") -> tuple[str | None, list[Conversation]]:
    """The format (``chatgpt``, ``claude``; None for an export with no conversation)
    and the checked :class:`~localmem.exports.Conversation` s of a ChatGPT or Claude
    export: its ``conversations.json`` or its .zip. ``format`` is ``auto`` or the one
    it must be. :class:`InvalidInput` for anything else, or at the first malformed
    conversation (naming it and the field)."""
    kind = sniff(peek(file))
    if kind == "localmem":
        raise InvalidInput("this is a localmem export, not a ChatGPT or Claude one")
    data = load(seekable(file) if kind == "zip" else file, kind)
    found = detect(data)
    if format not in ("auto", found) and found is not None:
        raise InvalidInput(f"this is {NAMES[found]}, not {NAMES[format]} (format 'auto' reads either)")
    if found is None:
        return None, []
    return found, READERS[found](data)


READERS: dict[str, Callable[[object], list[Conversation]]] = {
    "chatgpt": chatgpt.conversations,
    "claude": claude.conversations,
}
