"""The export format's reading side: a session's records checked as they come
(:class:`SessionBatch`), the :class:`Reader` that yields whole sessions once their
lines (and, for the last, the end record) are read, and :func:`check_end`, one
quick pass over a whole input (see ``localmem.jsonl``)."""

from __future__ import annotations

import bisect
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from ..args import describe
from ..autopins import pin_key
from ..errors import InvalidInput
from .records import (
    _FIELDS,
    _RECORD,
    CLOCK_SKEW,
    FORMAT,
    LONG_LINE_CHARS,
    PROGRESS_LINES,
    READABLE_VERSIONS,
    TABLES,
    CheckpointSourceRecord,
    EndRecord,
    FactSourceRecord,
    GoalRecord,
    Header,
    ItemRecord,
    MessageRecord,
    PinEndingRecord,
    PinRecord,
    PinSourceRecord,
    SessionRecord,
    SubtaskRecord,
    SummaryFactsRecord,
    SummaryRecord,
    Tally,
    ToolExecutionRecord,
    TrackedFileRecord,
    _Line,
)


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
        key = _key(record)
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
        # A session holds one current automatic pin per fact (pin_key); the user's
        # pins that repeat one are skipped on import, superseded ones are history.
        if p.kind == "auto" and p.scope == "session" and p.superseded_at is None:
            key = pin_key(p.content)
            if key in self._auto_pins:
                raise InvalidInput(f"pin {p.id} repeats an earlier automatic pin of the session")
            self._auto_pins.add(key)

    def _check_pin_sources(self, link: PinSourceRecord) -> None:
        self._need("pins", "pin", link.pin_id, "pin_id")
        self._need("messages", "message", link.message_id, "message_id")

    def _check_pin_endings(self, link: PinEndingRecord) -> None:
        self._check_pin_sources(link)  # type: ignore[arg-type]

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

    def _check_fact_sources(self, link: FactSourceRecord) -> None:
        self._need("facts", "summary's facts", link.summary_id, "summary_id")
        self._need("messages", "message", link.message_id, "message_id")

    def _check_checkpoint_sources(self, link: CheckpointSourceRecord) -> None:
        self._need("checkpoints", "checkpoint", link.checkpoint_id, "checkpoint_id")
        self._need("messages", "message", link.message_id, "message_id")

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
    and checked: at the next ``session`` record, or, for the last session, once
    the end record is read and matches everything before it.

    Raises :class:`InvalidInput` ("line N: ...") at the first bad line; a header
    of another format or version is refused; so is an input without its end
    record (cut short, or version 1) unless ``unverified``, when the last
    session is yielded as far as it goes. ``session`` is the id of the session
    being read (None before the first); ``verified`` says whether an end record
    matched. Blank lines are skipped.
    """

    def __init__(
        self,
        lines: Iterable[str],
        on_progress: Callable[[int], None] | None,
        *,
        unverified: bool = False,
        now: datetime | None = None,
    ) -> None:
        self._lines = lines
        self._on_progress = on_progress
        self._unverified = unverified
        # Timestamps after now (give or take CLOCK_SKEW) are refused.
        self._context: dict[str, Any] = {"latest": None if now is None else now + CLOCK_SKEW}
        self._reported = 0
        self.session: str | None = None
        self.verified = False

    def __iter__(self) -> Iterator[SessionBatch]:
        batch: SessionBatch | None = None
        version: int | None = None
        tally = Tally()
        read: list[str] = []  # the lines since the last hashed, hashed in one go (cheaper)
        number = 0
        for number, raw in enumerate(self._lines, 1):
            self._progress(number - 1)
            line = _text(raw, number)
            if not line or line.isspace():  # not strip(): a copy of a 200 MB line
                continue  # a blank line (a file's last newline, say) holds nothing
            record = None
            try:
                if self.verified:
                    raise InvalidInput("a line after the end record")
                if version is None:
                    line = line.lstrip("\ufeff")  # a BOM some editors add
                    version = _check_header(line, self._context)
                    tally.add([line.rstrip("\r\n")])
                    continue
                record = _parse(line, self._context)
                if isinstance(record, EndRecord):
                    tally.add(read)
                    read.clear()
                    wrong = tally.mismatch(record)
                    if wrong is not None:
                        raise InvalidInput(
                            f"the end record does not match the lines before it ({wrong}): "
                            "the file was changed or damaged after it was written"
                        )
                    self.verified = True
                    continue
                if len(line) > LONG_LINE_CHARS:  # hashed now, in slices: never copied
                    tally.add(read)
                    read.clear()
                    _hash(tally, line)
                else:
                    read.append(line.rstrip("\r\n"))
                raw = line = ""  # the record holds its text: let the line go before the write
                tally.records[record.type] += 1  # type: ignore[attr-defined]
                if not isinstance(record, SessionRecord):
                    if batch is None:
                        raise InvalidInput(f"a {record.type} record before any session record")
                    batch.add(record)
            except InvalidInput as exc:
                raise InvalidInput(f"line {number}: {exc}") from None
            if isinstance(record, SessionRecord):
                tally.add(read)
                read.clear()
                if batch is not None:
                    yield batch  # complete: the next session begins
                self.session = record.id
                batch = SessionBatch(record, number)
        if version is None:
            raise InvalidInput(f"line {number + 1}: the input ends before the header")
        if not self.verified and not self._unverified:
            raise InvalidInput(f"line {number + 1}: {_no_end(version)}")
        if batch is not None:
            yield batch
        self._progress(number, final=True)

    def _progress(self, done: int, final: bool = False) -> None:
        """Report the lines handled since the last report, every PROGRESS_LINES and at the end."""
        new = done - self._reported
        if self._on_progress is not None and new > 0 and (final or new >= PROGRESS_LINES):
            self._on_progress(new)
            self._reported = done


def check_end(lines: Iterable[str]) -> EndRecord:
    """Check, without reading the records, that ``lines`` end with an end record that
    matches the lines before it (their number and SHA-256; the record counts are
    checked when they are read). Returns it; raises :class:`InvalidInput` ("line N:
    ...") as an import would: an input cut short, a version-1 export (no end record),
    a changed line. One pass, in constant memory: a file can then be imported
    knowing nothing of it will be refused for being incomplete.
    """
    tally = Tally()
    version: int | None = None
    previous: str | None = None  # the last non-blank line, not yet hashed
    number = last = 0
    for number, raw in enumerate(lines, 1):
        line = _text(raw, number)
        if not line or line.isspace():
            continue
        if version is None:
            line = line.lstrip("\ufeff")
            try:
                version = _check_header(line)
            except InvalidInput as exc:
                raise InvalidInput(f"line {number}: {exc}") from None
        if previous is not None:
            _hash(tally, previous)
        previous, last = line, number
    if version is None:
        raise InvalidInput(f"line {number + 1}: the input ends before the header")
    end = None
    if previous is not None and _record_type(previous) == "end":
        try:
            end = EndRecord.model_validate_json(previous)
        except ValidationError as exc:
            raise InvalidInput(f"line {last}: {describe(exc)}") from None
    if end is None:
        raise InvalidInput(f"line {number + 1}: {_no_end(version)}")
    if end.lines != tally.lines or end.sha256 != tally.sha256:
        wrong = tally.mismatch(end, counts=False)
        raise InvalidInput(
            f"line {last}: the end record does not match the lines before it ({wrong}): "
            "the file was changed or damaged after it was written"
        )
    return end


def _hash(tally: Tally, line: str) -> None:
    if len(line) > LONG_LINE_CHARS:
        tally.add_long(line)
    else:
        tally.add([line.rstrip("\r\n")])


def _record_type(line: str) -> object:
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return data.get("type") if isinstance(data, dict) else None


def _no_end(version: int) -> str:
    """Why an input without an end record is refused, and how to import it anyway."""
    insist = "import it anyway with unverified=True (--unverified on the command line)"
    if version == 1:
        return (
            "a version-1 export (from an older localmem) has no end record, so whether it is "
            f"complete cannot be checked; if you trust it, {insist}"
        )
    return (
        "the input ends before its end record: the export was cut short (interrupted, or "
        f"the disk was full); export again, or, to take what is there, {insist}: its last "
        "session may be incomplete"
    )


def _text(line: object, number: int) -> str:
    """A line as text: bytes (a file opened in binary mode) are read as UTF-8."""
    if isinstance(line, str):
        return line
    if isinstance(line, (bytes, bytearray)):
        # Undecodable bytes become lone surrogates, refused as "not valid UTF-8" below.
        return bytes(line).decode("utf-8", "surrogateescape")
    raise InvalidInput(f"line {number}: a {type(line).__name__}, not a line of text")


def _key(record: _Line) -> object:
    """What is unique to a record in its session: its id; an item's message; a pin's
    source, the pin and the message; a pin's ending, the pin (one ends it); a line's source,
    its owner, the line and the message."""
    if isinstance(record, ItemRecord):
        return record.message_id
    if isinstance(record, PinSourceRecord):
        return (record.pin_id, record.message_id)
    if isinstance(record, PinEndingRecord):
        return record.pin_id
    if isinstance(record, FactSourceRecord):
        return (record.summary_id, record.item, record.message_id)
    if isinstance(record, CheckpointSourceRecord):
        return (record.checkpoint_id, record.item, record.message_id)
    return record.id  # type: ignore[attr-defined]


def _check_header(line: str, context: dict[str, Any] | None = None) -> int:
    """The version of an export's header line; InvalidInput if it is not one."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
        data = None
    if not isinstance(data, dict) or data.get("type") != "header" or data.get("format") != FORMAT:
        raise InvalidInput(f"not a localmem export: the first line is not a {FORMAT!r} header")
    if data.get("version") not in READABLE_VERSIONS:
        raise InvalidInput(
            f"{FORMAT} version {data.get('version')!r} cannot be read: this localmem reads "
            f"versions {', '.join(map(str, READABLE_VERSIONS))}"
        )
    try:
        return Header.model_validate_json(line, context=context).version
    except ValidationError as exc:
        raise InvalidInput(f"header: {describe(exc)}") from None


def _parse(line: str, context: dict[str, Any] | None = None) -> _Line:
    try:
        return _RECORD.validate_json(line, context=context)
    except ValidationError as exc:
        # A lone surrogate (what undecodable bytes become with errors="surrogateescape").
        if exc.errors(include_input=False)[0]["type"] == "string_unicode":
            raise InvalidInput("not valid UTF-8") from None
        raise InvalidInput(describe(exc)) from None
