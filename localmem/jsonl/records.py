"""The export format's records and its writing side: one pydantic model per line
type, the tables a session's records come from (:data:`TABLES`), the lines of a
session, and the :class:`Tally` behind the end record (see ``localmem.jsonl``)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from datetime import timedelta
from typing import Annotated, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from ..args import MAX_SQLITE_INTEGER, describe
from ..clock import iso, parse_time
from ..models import (
    CheckpointData,
    FactsData,
    GoalArchive,
    GoalStatus,
    PinKind,
    Role,
    SessionRows,
    SubtaskStatus,
)

FORMAT = "localmem-export"
FORMAT_VERSION = 4
READABLE_VERSIONS = (1, 2, 3, 4)
"""Versions an import reads: 1 had no end record (it is read only ``unverified``); 2 had
no ``pin_source`` nor ``pin_ending`` records; 3 no ``fact_source`` nor
``checkpoint_source`` records."""
PROGRESS_LINES = 1000
"""An import reports its progress every this many lines (and at the end)."""
LONG_LINE_CHARS = 1 << 20
"""A line longer than this is hashed (the end record's SHA-256) in slices of this many
characters, not joined to the others: no copy of a huge line is made."""

CLOCK_SKEW = timedelta(days=1)
"""How far past the importing machine's clock an imported timestamp may be (another
machine's clock may run ahead); later than that is refused."""

Id = Annotated[int, Field(ge=0, le=MAX_SQLITE_INTEGER)]
Count = Annotated[int, Field(ge=0, le=MAX_SQLITE_INTEGER)]


def _timestamp(value: str, info: ValidationInfo) -> str:
    """An ISO-8601 timestamp, stored as the file stores its own (``iso``): SQL compares
    them as text (retention, idle time), so ``zzz``, ``''`` or a date in year 9999
    would make a session immortal or doomed. The reader passes ``latest`` in the context."""
    moment = parse_time(value)
    try:
        normal = None if moment is None else iso(moment)
    except OverflowError:  # year 1 in a time zone east of UTC
        normal = None
    if moment is None or normal is None:
        raise ValueError(f"{value[:40]!r} is not an ISO-8601 timestamp")
    latest = (info.context or {}).get("latest")
    if latest is not None and moment > latest:
        raise ValueError(f"{value[:40]!r} is in the future")
    return normal


Timestamp = Annotated[str, AfterValidator(_timestamp)]


# --- records ----------------------------------------------------------------------------


class _Line(BaseModel):
    # Strict: a line says what it means ("1" is not 1, 1 is not true); no NaN.
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class Header(_Line):
    """The first line of an export."""

    type: Literal["header"]
    format: str
    version: int
    exported_at: Timestamp


class EndRecord(_Line):
    """The last line of an export: what came before it (see the module)."""

    type: Literal["end"]
    lines: Count
    records: dict[str, Count]
    sha256: Annotated[str, Field(pattern="^[0-9a-f]{64}$")]


class SessionRecord(_Line):
    type: Literal["session"]
    id: Annotated[str, Field(min_length=1)]
    title: str | None
    model: str | None
    created_at: Timestamp
    updated_at: Timestamp


class MessageRecord(_Line):
    type: Literal["message"]
    id: Id
    role: Role
    text: str
    model_id: str | None
    token_count: Count
    importance_score: float
    created_at: Timestamp


class ItemRecord(_Line):
    type: Literal["item"]
    message_id: Id
    kind: Annotated[str, Field(min_length=1)]
    data: str


class PinRecord(_Line):
    type: Literal["pin"]
    id: Id
    content: str
    source_message_id: Id | None
    importance_score: Annotated[float, Field(ge=0, le=1)]
    kind: PinKind
    token_count: Count
    created_at: Timestamp
    slot: str | None = None
    superseded_at: Timestamp | None = None
    scope: Literal["session", "user"] = "session"


class PinSourceRecord(_Line):
    """A message a pin was built from; a pin built from several messages has one record
    for each (``pin_sources``: forgetting any of them deletes the pin)."""

    type: Literal["pin_source"]
    pin_id: Id
    message_id: Id


class PinEndingRecord(_Line):
    """The message whose update ended a pin (``pin_endings``: forgetting it makes the
    pin current again)."""

    type: Literal["pin_ending"]
    pin_id: Id
    message_id: Id


class SummaryRecord(_Line):
    type: Literal["summary"]
    id: Id
    text: str
    start_message_id: Id
    end_message_id: Id
    message_count: Count
    level: Literal[1, 2]
    source: str
    importance_score: float
    token_count: Count
    created_at: Timestamp

    @model_validator(mode="after")
    def _range(self) -> SummaryRecord:
        if self.start_message_id > self.end_message_id:
            raise ValueError("start_message_id is after end_message_id")
        return self


class SummaryFactsRecord(_Line):
    type: Literal["summary_facts"]
    id: Id
    data: FactsData
    text: str
    source: str
    created_at: Timestamp


class FactSourceRecord(_Line):
    """A message a line of a summary's facts rests on (``fact_sources``; ``item``: the
    line's JSON path in the facts' ``data``)."""

    type: Literal["fact_source"]
    summary_id: Id
    item: Annotated[str, Field(min_length=1)]
    message_id: Id


class GoalRecord(_Line):
    type: Literal["goal"]
    id: Id
    text: str
    status: GoalStatus
    token_count: Count
    archive: dict | None
    archive_tokens: Count | None
    created_at: Timestamp
    ended_at: Timestamp | None

    @field_validator("archive")
    @classmethod
    def _archive(cls, archive: dict | None) -> dict | None:
        # Kept as exported, once the model the context renders it with accepts it.
        if archive is not None:
            try:
                GoalArchive.model_validate(archive)
            except ValidationError as exc:
                raise ValueError(describe(exc)) from None
        return archive


class SubtaskRecord(_Line):
    type: Literal["subtask"]
    id: Id
    goal_id: Id | None
    name: str
    status: SubtaskStatus
    dependencies: list[Id]
    notes: str | None
    token_count: Count
    created_at: Timestamp
    updated_at: Timestamp


class ToolExecutionRecord(_Line):
    type: Literal["tool_execution"]
    id: Id
    goal_id: Id | None
    tool_name: str
    arguments: dict
    success: bool
    result_summary: str | None
    error_message: str | None
    token_count: Count
    created_at: Timestamp


class TrackedFileRecord(_Line):
    type: Literal["tracked_file"]
    id: Id
    path: str
    modified: bool
    seq: Count
    token_count: Count
    created_at: Timestamp
    updated_at: Timestamp


class CheckpointRecord(_Line):
    type: Literal["checkpoint"]
    id: Id
    data: CheckpointData
    source: str
    through_message_id: Id
    token_count: Count
    lines: list[tuple[str, Count, bool]]
    created_at: Timestamp


class CheckpointSourceRecord(_Line):
    """A message a line of a checkpoint rests on (``checkpoint_sources``; ``item``: the
    line's JSON path in the checkpoint's ``data``)."""

    type: Literal["checkpoint_source"]
    checkpoint_id: Id
    item: Annotated[str, Field(min_length=1)]
    message_id: Id


TABLES: tuple[tuple[str, str, type[_Line]], ...] = (
    ("messages", "messages", MessageRecord),
    ("items", "items", ItemRecord),
    ("semantic_pins", "pins", PinRecord),
    ("pin_sources", "pin_sources", PinSourceRecord),
    ("pin_endings", "pin_endings", PinEndingRecord),
    ("summaries", "summaries", SummaryRecord),
    ("summary_facts", "facts", SummaryFactsRecord),
    ("fact_sources", "fact_sources", FactSourceRecord),
    ("goals", "goals", GoalRecord),
    ("subtasks", "subtasks", SubtaskRecord),
    ("tool_executions", "tools", ToolExecutionRecord),
    ("tracked_files", "files", TrackedFileRecord),
    ("checkpoints", "checkpoints", CheckpointRecord),
    ("checkpoint_sources", "checkpoint_sources", CheckpointSourceRecord),
)
"""(table, ``SessionRows`` field, record) of a session's rows, in export order."""

DERIVED_COLUMNS = {"semantic_pins": frozenset({"content_key"})}
"""Columns an import computes again rather than reads (a pin's de-duplication key is
``autopins.pin_key`` of its content)."""

RECORD_ONLY_FIELDS = {"semantic_pins": frozenset({"scope"})}
"""Fields a record carries that no column holds: a pin's scope is whether its
session_id is NULL. A session's export carries the user's pins learnt in it
(from one of its messages), ``scope="user"``; an import makes them the user's
again, unless the user already has the fact."""

NOT_EXPORTED = ("session_compaction", "embeddings")
"""Per-session tables that stay with their file: a compaction level is this file's
upkeep (``store.maintain``), counted in its message ids; an imported session starts in
full detail and ``maintain`` compacts it again by its own last activity; vectors are
derived from the text by this file's embedding model (its own choice) and made again."""

Record = Annotated[
    SessionRecord
    | MessageRecord
    | ItemRecord
    | PinRecord
    | PinSourceRecord
    | PinEndingRecord
    | SummaryRecord
    | SummaryFactsRecord
    | FactSourceRecord
    | GoalRecord
    | SubtaskRecord
    | ToolExecutionRecord
    | TrackedFileRecord
    | CheckpointRecord
    | CheckpointSourceRecord
    | EndRecord,
    Field(discriminator="type"),
]
_RECORD = TypeAdapter(Record)


def record_type(record: type[_Line]) -> str:
    """The ``type`` a record's lines carry."""
    return get_args(record.model_fields["type"].annotation)[0]


def _columns(record: type[_Line]) -> tuple[str, ...]:
    return tuple(name for name in record.model_fields if name != "type")


_FIELDS = {record: field for _table, field, record in TABLES}
_WRITERS = [(record_type(r), _columns(r)) for r in (SessionRecord, *(t[2] for t in TABLES))]
# json.dumps leaves these raw with ensure_ascii=False; str.splitlines (and some
# JSON readers) would break a line at them.
_LINE_BREAKS = (("\x85", "\\u0085"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))


# --- writing ------------------------------------------------------------------------------


def _dump(data: dict) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if not text.isascii():
        for char, escaped in _LINE_BREAKS:
            if char in text:  # str.translate would cost more than the dump
                text = text.replace(char, escaped)
    return text


class Tally:
    """The figures of an end record, kept as the lines are written or read."""

    def __init__(self) -> None:
        self.lines = 0
        self.records: Counter[str] = Counter()
        self._digest = hashlib.sha256()

    def add(self, lines: Sequence[str]) -> None:
        """Count and hash ``lines`` (without their line breaks)."""
        if lines:
            block = "\n".join(lines) + "\n"
            self._digest.update(block.encode("utf-8", "surrogatepass"))
            self.lines += len(lines)

    def add_long(self, line: str) -> None:
        """Count and hash one line (its line break left out, as ``add`` does), in slices:
        a line of hundreds of megabytes is never copied whole."""
        end = len(line)
        while end and line[end - 1] in "\r\n":
            end -= 1
        for start in range(0, end, LONG_LINE_CHARS):
            piece = line[start : min(end, start + LONG_LINE_CHARS)]
            self._digest.update(piece.encode("utf-8", "surrogatepass"))
        self._digest.update(b"\n")
        self.lines += 1

    def end_line(self) -> str:
        records = dict(sorted(self.records.items()))
        return _dump({"type": "end", "lines": self.lines, "records": records, "sha256": self.sha256})

    @property
    def sha256(self) -> str:
        return self._digest.hexdigest()

    def mismatch(self, end: EndRecord, *, counts: bool = True) -> str | None:
        """How ``end`` differs from what was counted (its record counts too, with
        ``counts``), or None if it does not."""
        if end.lines != self.lines:
            return f"it counts {end.lines} lines before it, {self.lines} were read"
        if not counts:
            return None if end.sha256 == self.sha256 else "the lines' SHA-256 differs"
        counted = {kind: n for kind, n in self.records.items() if n}
        expected = {kind: n for kind, n in end.records.items() if n}
        if counted != expected:
            kinds = sorted(set(counted) | set(expected))
            differ = [
                f"{kind}: {expected.get(kind, 0)} written, {counted.get(kind, 0)} read"
                for kind in kinds
                if counted.get(kind, 0) != expected.get(kind, 0)
            ]
            return "; ".join(differ)
        if end.sha256 != self.sha256:
            return "the lines' SHA-256 differs"
        return None


def header_line(now: str) -> str:
    return _dump({"type": "header", "format": FORMAT, "version": FORMAT_VERSION, "exported_at": now})


def session_lines(rows: SessionRows, tally: Tally | None = None) -> list[str]:
    """A session's lines: its record, then its rows table by table (counted and
    hashed into ``tally``, if given)."""
    models: list[Sequence[BaseModel]] = [[rows.session]]
    models += [getattr(rows, field) for _table, field, _record in TABLES]
    lines: list[str] = []
    for (kind, columns), group in zip(_WRITERS, models):
        if tally is not None and group:
            tally.records[kind] += len(group)
        for model in group:
            data: dict = {"type": kind}
            for column in columns:
                value = getattr(model, column)
                data[column] = value.model_dump() if isinstance(value, BaseModel) else value
            lines.append(_dump(data))
    if tally is not None:
        tally.add(lines)
    return lines
