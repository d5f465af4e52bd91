"""Export and import of sessions as JSON Lines (format ``localmem-export``, version 3).

One JSON object per line, each with a ``type``. The first line is the header;
then each session: its ``session`` record, followed by its other records; the
last line is the end record::

    {"type":"header","format":"localmem-export","version":3,"exported_at":"2026-…Z"}
    {"type":"session","id":"9f…","title":"Meds","model":"llama3.2","created_at":…,"updated_at":…}
    {"type":"message","id":41,"role":"user","text":"…","model_id":null,"token_count":7,…}
    {"type":"pin","id":3,"content":"…","source_message_id":41,…}
    {"type":"end","lines":4,"records":{"message":1,"pin":1,"session":1},"sha256":"5e…"}

The end record is how an import knows it read the whole export: it counts the
lines before it and the records of each type, and carries the SHA-256 of those
lines (each as UTF-8 followed by ``\n``; blank lines are not lines). An export
cut short (interrupted, a full disk) has none, and is refused unless the
caller insists (``unverified``); one changed since it was written does not
match it. Version 1 (an older localmem) had no end record: it is read, but only
``unverified``; version 2 had no ``pin_source`` and ``pin_ending`` records (its pins
name their first source only).

A record carries its table's columns (``localmem.models``) except
``session_id``: it belongs to the session record above it. An export lists a
session's records table by table (:data:`TABLES`), each in id order. Ids are
the exporting file's; a reference names an earlier record of the same session:
an item's ``message_id``, a pin's ``source_message_id``, a ``pin_source``'s and a
``pin_ending``'s ``pin_id`` and ``message_id`` (every message a pin was built from; the
message whose update ended it: a link to another session's message is not exported), a summary's message
range, facts' ``id`` (their summary's), a subtask's ``goal_id`` and
``dependencies``, a tool execution's ``goal_id``, a checkpoint's
``through_message_id``. JSON columns (a goal's ``archive``, a tool's
``arguments``, the ``data`` of facts and checkpoints, a checkpoint's ``lines``)
are JSON values, not text. A checkpoint's JSON holds no ids.

An import gives every row a new id and maps each reference to it. Message
ranges may outlive messages: a summary's range becomes the new ids of the
session's messages it contains (``message_count`` kept), a checkpoint's
``through_message_id`` the newest message at or before it (0 if none), so
"the messages after it" stay the same messages. Everything else is kept as
exported: timestamps, token counts, scores, sources, levels, JSON.

The summary cache, the models' token statistics, the search index, the
embeddings and the sessions' compaction levels (:data:`NOT_EXPORTED`) are the
file's own and are not exported; a search indexes imported rows by itself, and
semantic recall embeds them with the model the importing file uses.

Records, parsing, validation and id mapping here are pure: ``records`` (the
lines and writing them), ``reading`` (checking and reading them);
:class:`~localmem.transfer.Transfer` is the store's side.
"""

from .reading import Reader, SessionBatch, check_end
from .records import (
    DERIVED_COLUMNS,
    FORMAT,
    FORMAT_VERSION,
    NOT_EXPORTED,
    PROGRESS_LINES,
    READABLE_VERSIONS,
    RECORD_ONLY_FIELDS,
    TABLES,
    CheckpointRecord,
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
    Record,
    SessionRecord,
    SubtaskRecord,
    SummaryFactsRecord,
    SummaryRecord,
    Tally,
    ToolExecutionRecord,
    TrackedFileRecord,
    header_line,
    record_type,
    session_lines,
)

__all__ = [
    "DERIVED_COLUMNS", "FORMAT", "FORMAT_VERSION", "NOT_EXPORTED", "PROGRESS_LINES",
    "READABLE_VERSIONS", "RECORD_ONLY_FIELDS", "TABLES", "CheckpointRecord", "CheckpointSourceRecord", "EndRecord",
    "FactSourceRecord", "GoalRecord", "Header",
    "ItemRecord", "MessageRecord", "PinEndingRecord", "PinRecord", "PinSourceRecord", "Reader",
    "Record", "SessionBatch",
    "SessionRecord", "SubtaskRecord", "SummaryFactsRecord", "SummaryRecord", "Tally",
    "ToolExecutionRecord", "TrackedFileRecord", "check_end", "header_line", "record_type",
    "session_lines",
]
