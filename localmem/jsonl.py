"""Export and import of sessions as JSON Lines (format ``localmem-export``, version 1).

One JSON object per line, each with a ``type``. The first line is the header;
then each session: its ``session`` record, followed by its other records::

    {"type":"header","format":"localmem-export","version":1,"exported_at":"2026-…Z"}
    {"type":"session","id":"9f…","title":"Meds","model":"llama3.2","created_at":…,"updated_at":…}
    {"type":"message","id":41,"role":"user","text":"…","model_id":null,"token_count":7,…}
    {"type":"pin","id":3,"content":"…","source_message_id":41,…}

A record carries its table's columns (``localmem.models``) except
``session_id``: it belongs to the session record above it. An export lists a
session's records table by table (:data:`TABLES`), each in id order. Ids are
the exporting file's; a reference names an earlier record of the same session:
an item's ``message_id``, a pin's ``source_message_id``, a summary's message
range, facts' ``id`` (their summary's), a subtask's ``goal_id`` and
``dependencies``, a tool execution's ``goal_id``, a checkpoint's
``through_message_id``. JSON columns (a goal's ``archive``, a tool's
``arguments``, the ``data`` of facts and checkpoints, a checkpoint's ``lines``)
are JSON values, not text. A checkpoint's JSON holds no ids.

An import gives every row a new id and maps each reference to it. Message
ranges may outlive messages: a summary's range becomes the new ids of the
session's messages it contains (``message_count`` kept), a checkpoint's
``through_message_id`` the newest message at or before it (0 if none), so
"the messages after it" stay the same messages. Nothing is trusted that can
be checked: timestamps must be ISO-8601 and not in the future (stored as the
file stores its own, UTC with milliseconds), a goal's archive must have the
shape the context renders, an automatic pin may not repeat one, and the store
counts every token again (``TransferMixin``). Everything else is kept as
exported: scores, sources, levels, JSON.

The summary cache, the models' token statistics, the search index and the
sessions' compaction levels (:data:`NOT_EXPORTED`) are the file's own and are
not exported; a search indexes imported rows by itself.

Records, parsing, validation and id mapping here are pure;
:class:`~localmem.transfer.TransferMixin` is the store's side.
"""

from __future__ import annotations

import bisect
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal, get_args

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

from .args import MAX_SQLITE_INTEGER, describe
from .autopins import pin_key
from .clock import iso, parse_time
from .errors import InvalidInput
from .models import (
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
FORMAT_VERSION = 1
PROGRESS_LINES = 1000
"""An import reports its progress every this many lines (and at the end)."""

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
    if normal is None:
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


TABLES: tuple[tuple[str, str, type[_Line]], ...] = (
    ("messages", "messages", MessageRecord),
    ("items", "items", ItemRecord),
    ("semantic_pins", "pins", PinRecord),
    ("summaries", "summaries", SummaryRecord),
    ("summary_facts", "facts", SummaryFactsRecord),
    ("goals", "goals", GoalRecord),
    ("subtasks", "subtasks", SubtaskRecord),
    ("tool_executions", "tools", ToolExecutionRecord),
    ("tracked_files", "files", TrackedFileRecord),
    ("checkpoints", "checkpoints", CheckpointRecord),
)
"""(table, ``SessionRows`` field, record) of a session's rows, in export order."""

DERIVED_COLUMNS = {"semantic_pins": frozenset({"content_key"})}
"""Columns an import computes again rather than reads (a pin's de-duplication key is
``autopins.pin_key`` of its content)."""

NOT_EXPORTED = ("session_compaction",)
"""Per-session tables that stay with their file: a compaction level is this file's
upkeep (``store.maintain``), counted in its message ids; an imported session starts in
full detail and ``maintain`` compacts it again by its own last activity."""

Record = Annotated[
    SessionRecord
    | MessageRecord
    | ItemRecord
    | PinRecord
    | SummaryRecord
    | SummaryFactsRecord
    | GoalRecord
    | SubtaskRecord
    | ToolExecutionRecord
    | TrackedFileRecord
    | CheckpointRecord,
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


def header_line(now: str) -> str:
    return _dump({"type": "header", "format": FORMAT, "version": FORMAT_VERSION, "exported_at": now})


def session_lines(rows: SessionRows) -> Iterator[str]:
    """A session's lines: its record, then its rows table by table."""
    models: list[Sequence[BaseModel]] = [[rows.session]]
    models += [getattr(rows, field) for _table, field, _record in TABLES]
    for (kind, columns), group in zip(_WRITERS, models):
        for model in group:
            data: dict = {"type": kind}
            for column in columns:
                value = getattr(model, column)
                data[column] = value.model_dump() if isinstance(value, BaseModel) else value
            yield _dump(data)


# --- reading ------------------------------------------------------------------------------


class SessionBatch:
    """One session's records as read, checked as they come: every reference names
    an earlier record of the session, ids are unique, message ids increase, ranges
    of one level do not overlap, at most one goal is active, paths are unique.

    ``add`` raises :class:`InvalidInput` (without the line number) for a bad record.
    """

    def __init__(self, session: SessionRecord, line: int) -> None:
        self.session = session
        self.line = line
        self.records: dict[str, list] = {field: [] for _table, field, _record in TABLES}
        self.counts: Counter[str] = Counter(session=1)
        self._message_ids: list[int] = []  # increasing
        self._ids: dict[str, set[int]] = {field: set() for _table, field, _record in TABLES}
        self._ranges: dict[int, list[tuple[int, int]]] = {1: [], 2: []}
        self._paths: set[str] = set()
        self._auto_pins: set[str] = set()
        self._active_goals = 0

    def add(self, record: _Line) -> None:
        kind = record.type  # type: ignore[attr-defined]
        field = _FIELDS[type(record)]
        key = record.message_id if isinstance(record, ItemRecord) else record.id  # type: ignore[attr-defined]
        if key in self._ids[field]:
            raise InvalidInput(f"a second {kind} with id {key}")
        check = getattr(self, "_check_" + field, None)
        if check is not None:
            check(record)
        self._ids[field].add(key)
        self.records[field].append(record)
        self.counts[kind] += 1

    def _need(self, field: str, kind: str, ref: int | None, what: str) -> None:
        if ref is not None and ref not in self._ids[field]:
            raise InvalidInput(f"{what} {ref} is not an earlier {kind} of session {self.session.id!r}")

    def _check_messages(self, m: MessageRecord) -> None:
        if self._message_ids and m.id <= self._message_ids[-1]:
            raise InvalidInput(f"message ids must increase: {m.id} after {self._message_ids[-1]}")
        self._message_ids.append(m.id)

    def _check_items(self, i: ItemRecord) -> None:
        self._need("messages", "message", i.message_id, "message_id")

    def _check_pins(self, p: PinRecord) -> None:
        self._need("messages", "message", p.source_message_id, "source_message_id")
        if p.kind == "auto":  # the file holds one automatic pin per fact (pin_key)
            key = pin_key(p.content)
            if key in self._auto_pins:
                raise InvalidInput(f"pin {p.id} repeats an earlier automatic pin of the session")
            self._auto_pins.add(key)

    def _check_summaries(self, s: SummaryRecord) -> None:
        first, last = self.positions(s.start_message_id, s.end_message_id)
        if first > last:
            raise InvalidInput(
                f"summary {s.id} covers messages {s.start_message_id}-{s.end_message_id}, "
                "none of which is a message of its session"
            )
        taken = self._ranges[s.level]
        if any(first <= b and a <= last for a, b in taken):
            raise InvalidInput(f"summary {s.id} overlaps another level-{s.level} summary")
        taken.append((first, last))

    def _check_facts(self, f: SummaryFactsRecord) -> None:
        self._need("summaries", "summary", f.id, "summary")

    def _check_goals(self, g: GoalRecord) -> None:
        if g.status == "active":
            if self._active_goals:
                raise InvalidInput(f"goal {g.id} is a second active goal")
            self._active_goals += 1

    def _check_subtasks(self, s: SubtaskRecord) -> None:
        self._need("goals", "goal", s.goal_id, "goal_id")
        for dep in s.dependencies:
            self._need("subtasks", "subtask", dep, "dependency")

    def _check_tools(self, t: ToolExecutionRecord) -> None:
        self._need("goals", "goal", t.goal_id, "goal_id")

    def _check_files(self, f: TrackedFileRecord) -> None:
        if f.path in self._paths:
            raise InvalidInput(f"file {f.path!r} is tracked twice")
        self._paths.add(f.path)

    # --- id mapping (the new ids of the messages are first, first + 1, ...) ---

    def positions(self, start: int, end: int) -> tuple[int, int]:
        """The positions of the first and last message with an id in start..end
        (first > last when there is none)."""
        ids = self._message_ids
        return bisect.bisect_left(ids, start), bisect.bisect_right(ids, end) - 1

    def message_map(self, first: int) -> dict[int, int]:
        """Old message id -> new, the messages inserted in order from id ``first``."""
        return {old: first + i for i, old in enumerate(self._message_ids)}

    def new_range(self, summary: SummaryRecord, first: int) -> tuple[int, int]:
        """A summary's range: the new ids of the messages it contains."""
        a, b = self.positions(summary.start_message_id, summary.end_message_id)
        return first + a, first + b

    def new_through(self, through: int, first: int) -> int:
        """A checkpoint's ``through_message_id``: the newest message at or before it, else 0."""
        at = bisect.bisect_right(self._message_ids, through) - 1
        return first + at if at >= 0 else 0


class Reader:
    """Reads an export, yielding each session's batch once all its lines are read
    and checked (at the next ``session`` record or the end).

    Raises :class:`InvalidInput` ("line N: ...") at the first bad line; a header
    of another format or version is refused. ``session`` is the id of the
    session being read (None before the first). Blank lines are skipped.
    """

    def __init__(
        self,
        lines: Iterable[str],
        on_progress: Callable[[int], None] | None,
        now: datetime | None = None,
    ) -> None:
        self._lines = lines
        self._on_progress = on_progress
        # Timestamps after now (give or take CLOCK_SKEW) are refused.
        self._context: dict[str, Any] = {"latest": None if now is None else now + CLOCK_SKEW}
        self._reported = 0
        self.session: str | None = None

    def __iter__(self) -> Iterator[SessionBatch]:
        batch: SessionBatch | None = None
        header = False
        number = 0
        for number, raw in enumerate(self._lines, 1):
            self._progress(number - 1)
            line = _text(raw, number)
            if not line or line.isspace():  # not strip(): a copy of a 200 MB line
                continue  # a blank line (a file's last newline, say) holds nothing
            record = None
            try:
                if not header:
                    _check_header(line.lstrip("\ufeff"), self._context)  # a BOM some editors add
                    header = True
                    continue
                record = _parse(line, self._context)
                raw = line = ""  # the record holds its text: let the line go before the write
                if not isinstance(record, SessionRecord):
                    if batch is None:
                        raise InvalidInput(f"a {record.type} record before any session record")
                    batch.add(record)
            except InvalidInput as exc:
                raise InvalidInput(f"line {number}: {exc}") from None
            if isinstance(record, SessionRecord):
                if batch is not None:
                    yield batch  # complete: the next session begins
                self.session = record.id
                batch = SessionBatch(record, number)
        if not header:
            raise InvalidInput(f"line {number + 1}: the input ends before the header")
        if batch is not None:
            yield batch
        self._progress(number, final=True)

    def _progress(self, done: int, final: bool = False) -> None:
        """Report the lines handled since the last report, every PROGRESS_LINES and at the end."""
        new = done - self._reported
        if self._on_progress is not None and new > 0 and (final or new >= PROGRESS_LINES):
            self._on_progress(new)
            self._reported = done


def _text(line: object, number: int) -> str:
    """A line as text: bytes (a file opened in binary mode) are read as UTF-8."""
    if isinstance(line, str):
        return line
    if isinstance(line, (bytes, bytearray)):
        # Undecodable bytes become lone surrogates, refused as "not valid UTF-8" below.
        return bytes(line).decode("utf-8", "surrogateescape")
    raise InvalidInput(f"line {number}: a {type(line).__name__}, not a line of text")


def _check_header(line: str, context: dict[str, Any]) -> None:
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        data = None
    if not isinstance(data, dict) or data.get("type") != "header" or data.get("format") != FORMAT:
        raise InvalidInput(f"not a localmem export: the first line is not a {FORMAT!r} header")
    if data.get("version") != FORMAT_VERSION:
        raise InvalidInput(
            f"{FORMAT} version {data.get('version')!r} cannot be read: this localmem reads "
            f"version {FORMAT_VERSION}"
        )
    try:
        Header.model_validate_json(line, context=context)
    except ValidationError as exc:
        raise InvalidInput(f"header: {describe(exc)}") from None


def _parse(line: str, context: dict[str, Any]) -> _Line:
    try:
        return _RECORD.validate_json(line, context=context)
    except ValidationError as exc:
        # A lone surrogate (what undecodable bytes become with errors="surrogateescape").
        if exc.errors(include_input=False)[0]["type"] == "string_unicode":
            raise InvalidInput("not valid UTF-8") from None
        raise InvalidInput(describe(exc)) from None
