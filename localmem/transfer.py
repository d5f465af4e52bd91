"""The store's side of export and import: :class:`Transfer`.

The format (records, the header, parsing, validation, id mapping) is
``localmem.jsonl``'s and pure; this module reads a session's rows for an
export and writes an import's, one transaction per session.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

from . import db
from .args import as_list, check_id
from .autopins import pin_key
from .batches import EXISTING, Existing, recount
from .errors import ImportRefused, InvalidInput, SessionNotFound
from .jsonl import Reader, SessionBatch, Tally, check_end, header_line, session_lines
from .models import PIN_KINDS, ImportReport

if TYPE_CHECKING:  # what it is given: for the type checker only
    from .db import Forgotten
    from .forget import Forgetting
    from .handle import Handle


class Written(NamedTuple):
    """One session an import wrote (``Transfer.write_session``)."""

    session_id: str
    """Its id in this file."""
    replaced: bool
    """Whether it replaced a session of this file."""
    first: int
    """The id of its first message (the others follow)."""
    kept: list[int]
    """The pins the export marked as the user's, kept in the session instead."""
    removed: int
    """The automatic pins left out because the user removed their fact here."""
    left_out: Counter[str]
    """By record type, the records read but not written (a pin left out, and its links)."""
    ended_elsewhere: int
    """Superseded pins written whose update the export does not carry (``ImportReport``)."""


# --- the store's methods ------------------------------------------------------------------


class Transfer:
    """Export and import, one read (or write) transaction per session; a session an
    import replaces is deleted as ``forgetting`` deletes one."""

    def __init__(self, handle: Handle, forgetting: Forgetting) -> None:
        self._db = handle
        self._forget = forgetting

    def importing(self, session_id: str | None = None) -> contextlib.AbstractContextManager[Forgotten]:
        """An import's transaction: a forget's (``Forgetting.forgetting``), so that a
        session it replaces leaves as a forgotten one does (its text merged out of the
        indexes, the summary cache emptied, the forget mark raised, the log emptied)."""
        return self._forget.forgetting(session_id)

    def export_sessions(self, session_ids: Sequence[str] | None = None) -> Iterator[str]:
        """The sessions as JSON lines (no trailing newline): a header, each session,
        and the end record that lets an import check it read them all
        (``localmem.jsonl``).

        All sessions, oldest first, when ``session_ids`` is None (one deleted
        while the export runs is left out). Raises :class:`SessionNotFound` for
        an unknown id now, before any line; one deleted afterwards raises it
        when its turn comes. Read-only. Each session is read in one read
        transaction (a consistent snapshot, held in memory one session at a
        time), and the lock is released between sessions: the store stays
        usable while the lines are consumed.
        """
        strict = session_ids is not None
        with self._db.locked() as conn:
            if session_ids is None:
                ids = db.session_ids(conn)
            else:
                ids = as_list(session_ids, "session_ids must be a list of session ids")
                ids = list(dict.fromkeys(check_id(i) for i in ids))  # exported twice: no import
                for session_id in ids:
                    if not db.session_exists(conn, session_id):
                        raise SessionNotFound(session_id)
        return self._export(ids, header_line(self._db.now()), strict)

    def _export(self, ids: list[str], header: str, strict: bool) -> Iterator[str]:
        tally = Tally()
        tally.add([header])
        yield header
        for session_id in ids:
            with self._db.locked(), self._db.snapshot() as conn:
                rows = db.session_rows(conn, session_id)
            if rows is None:
                if strict:
                    raise SessionNotFound(session_id)
                continue
            yield from session_lines(rows, tally)
        yield tally.end_line()

    def import_sessions(
        self,
        lines: Iterable[str],
        *,
        on_progress: Callable[[int], None] | None = None,
        rename: bool = False,
        existing: Existing = "refuse",
        unverified: bool = False,
    ) -> ImportReport:
        """Import an export's sessions (``lines``: the export's lines, as ``open(path)`` gives them).

        Each session is one transaction, written once all its lines are read
        and checked; every row gets a new id and references follow (see the
        module). The last session is written only once the end record is read
        and matches every line before it (counts and SHA-256): an export cut
        short never arrives as if whole. A session whose id this file already
        has is, by ``existing``: refused (``"refuse"``, the default), given a new
        random id (``"rename"``, or ``rename=True``; the report says which),
        left as it is (``"skip"``: re-running an interrupted import resumes
        it) or deleted and imported anew in the same transaction
        (``"replace"``).

        Raises :class:`~localmem.errors.ImportRefused` (an :class:`InvalidInput`)
        for a header of another format or version, or at the first malformed
        line ("line N: ..."): bad JSON, an unknown type, a missing or extra
        field, a reference to no earlier record of its session, a record
        before any session, an end record that does not match; and at the end
        of an input without an end record (cut short, or a version-1 export),
        unless ``unverified``, which imports its last session as far as it
        goes. Nothing of the session being read is written; **the sessions
        before it stay imported** (the error says how many, its ``report``
        which): import again with ``existing="skip"`` to resume. ``lines``
        that can be rewound (an open file) are first checked for their end
        record in one quick pass (``jsonl.check_end``), so a cut or altered
        file is refused before anything is written.
        ``on_progress(n)`` is called as lines are read, ``n`` lines at a time.
        """
        if isinstance(lines, (str, bytes)):
            raise InvalidInput("lines must be the export's lines (an open file, a list), not one string")
        try:
            lines = iter(lines)  # read lazily: an export may be larger than memory
        except TypeError:
            raise InvalidInput(
                f"lines must be the export's lines (an open file, a list), not {type(lines).__name__}"
            ) from None
        for name, flag in (("rename", rename), ("unverified", unverified)):
            if not isinstance(flag, bool):
                raise InvalidInput(f"{name} must be True or False, not {type(flag).__name__}")
        if existing not in EXISTING:
            raise InvalidInput(f"existing must be one of {', '.join(EXISTING)}, not {existing!r}")
        if rename:
            if existing not in ("refuse", "rename"):
                raise InvalidInput(f"rename=True and existing={existing!r} contradict each other")
            existing = "rename"
        if not unverified and _rewindable(lines):
            start = lines.tell()  # type: ignore[attr-defined]
            try:
                check_end(lines)
            except InvalidInput as exc:
                raise ImportRefused(str(exc), ImportReport(sessions=[], counts={})) from None
            lines.seek(start)  # type: ignore[attr-defined]
        reader = Reader(lines, on_progress, unverified=unverified, now=self._db.clock())
        done: list[tuple[str, str]] = []
        skipped: list[str] = []
        replaced: list[str] = []
        kept: list[int] = []
        removed = 0
        ended_elsewhere = 0
        counts: Counter[str] = Counter()

        def report() -> ImportReport:
            return ImportReport(
                sessions=done,
                counts=dict(counts),
                skipped=skipped,
                replaced=replaced,
                kept_in_session=kept,
                removed=removed,
                ended_elsewhere=ended_elsewhere,
                verified=reader.verified,
            )

        try:
            for batch in reader:
                written = self._import_session(batch, existing)
                if written is None:
                    skipped.append(batch.session.id)
                    continue
                done.append((batch.session.id, written.session_id))
                if written.replaced:
                    replaced.append(batch.session.id)
                kept += written.kept
                removed += written.removed
                ended_elsewhere += written.ended_elsewhere
                counts += batch.counts
                counts -= written.left_out  # a report says what landed
        except InvalidInput as exc:
            message = str(exc)
            if reader.session is not None:  # the session being read or written
                message += f"; nothing of session {reader.session!r} was written"
            if done:
                message += f"; the {len(done)} session(s) before it stay imported"
            raise ImportRefused(message, report()) from None
        return report()

    def _import_session(self, batch: SessionBatch, existing: str) -> Written | None:
        """Write one session's batch in one transaction (None when it was skipped)."""
        tokens = recount(batch, self._db.tokenizer.count)  # before the write lock is taken
        with self.importing(batch.session.id) as gone:
            return self.write_session(gone, batch, existing, tokens)

    def write_session(
        self,
        gone: Forgotten,
        batch: SessionBatch,
        existing: str,
        tokens: dict[str, list],
        where: str | None = None,
    ) -> Written | None:
        """Write one session's batch inside the caller's transaction (None when it was
        skipped), the transaction ``importing``'s. ``where`` names it in an error
        (default: its line)."""
        conn = gone.conn
        s = batch.session
        session_id = s.id
        replaced = False
        if db.session_exists(conn, session_id):
            if existing == "skip":
                return None
            if existing == "replace":
                moved, sourced = _replacing(gone, batch, session_id)
                self._forget.forget_replaced(gone, session_id)
                replaced = True
            elif existing == "rename":
                session_id = uuid.uuid4().hex
            else:
                raise InvalidInput(
                    f"{where or f'line {batch.line}'}: a session with id {s.id!r} already exists "
                    "(to import it anyway: existing='skip', 'replace' or 'rename'; on the "
                    "command line --skip-existing, --replace or --rename)"
                )
        self._db.memo.forget(session_id)
        db.import_session(conn, (session_id, s.title, s.model, s.created_at, s.updated_at))
        first, kept, removed, left_out, ended_elsewhere = _write_rows(conn, batch, session_id, tokens)
        if replaced:
            db.repoint_pins(conn, {old: first + k for old, k in moved.items()}, sourced)
        return Written(session_id, replaced, first, kept, removed, left_out, ended_elsewhere)


def _replacing(
    gone: Forgotten, batch: SessionBatch, session_id: str
) -> tuple[dict[int, int], list[tuple[int, int]]]:
    """Before a session is replaced: what rests on its messages outside its own rows (the
    user's pins taken from them, pins' sources and endings) follows each message the
    import brings again at the same place (same role and text); what rests on the others
    goes as a forget of them would take it (the pins they ended current again, the pins
    taken from them deleted, in ``gone``). Return (old message id -> its position in the
    batch, the user's pins taken from the session's messages, with their source)."""
    conn = gone.conn
    old = db.replaced_messages(conn, session_id)
    new = batch.records["messages"]
    moved = {
        mid: k for k, (mid, role, text) in enumerate(old)
        if k < len(new) and (new[k].role, new[k].text) == (role, text)
    }
    left = [mid for mid, _, _ in old if mid not in moved]
    gone.pins_gone(db.delete_sourced_auto_pins(conn, left))
    gone.users |= db.restore_ended(conn, left) > 0
    return moved, db.user_pins_sourced(conn, session_id)


def _rewindable(lines: object) -> bool:
    """Whether ``lines`` is a file that can be read twice."""
    try:
        return bool(lines.seekable()) and lines.tell() >= 0  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return False


def _write_rows(
    conn: sqlite3.Connection, batch: SessionBatch, sid: str, tokens: dict[str, list]
) -> tuple[int, list[int], int, Counter[str], int]:
    """Insert a batch's rows under session ``sid``, table by table, references mapped,
    with the token counts of ``recount``. Return the id of its first message (the others
    follow), the ids of the pins the export marked as the user's that were kept in the
    session instead, how many automatic pins were left out because the user removed
    their fact in this file (:class:`ImportReport`), by record type the records not
    written (those pins, the ones the user has already, and their links), and how many
    superseded pins were written with no ending (their update is not in the export)."""
    r = batch.records
    first = db.import_messages(
        conn,
        [
            (sid, m.role, m.text, m.model_id, n, m.importance_score, m.created_at)
            for m, n in zip(r["messages"], tokens["messages"])
        ],
    )
    message = batch.message_map(first)
    db.import_items(conn, [(message[i.message_id], sid, i.kind, i.data) for i in r["items"]])
    kept: list[int] = []
    removed: list[int] = []
    pins: dict[int, int] = {}  # old id -> new, for the pins written
    for p, n in zip(r["pins"], tokens["pins"]):
        source = None if p.source_message_id is None else message[p.source_message_id]
        key = pin_key(p.content)
        # The user's facts come from the user's words: a record that says it is the
        # user's but names no message of its session stays with that session.
        owner = None if p.scope == "user" and source is not None else sid
        if owner is None and any(db.keyed_pin(conn, None, key, kind) for kind in PIN_KINDS):
            continue  # the user has this fact already
        if p.kind == "auto" and db.buried_after(conn, owner or db.EVERY_SESSION, key) is not None:
            removed.append(p.id)  # the user removed it here: an import does not say it again
            continue
        pin = db.insert_pin(conn, db.PinRow(
            owner, p.content, key, source, p.importance_score, p.kind,
            n, p.created_at, p.slot, p.superseded_at,
        ))
        pins[p.id] = pin.id
        if p.scope == "user" and owner is not None:
            kept.append(pin.id)
    # A pin left out (the user has the fact already) leaves its links out too.
    links = [
        [(pins[x.pin_id], message[x.message_id]) for x in r[field] if x.pin_id in pins]
        for field in ("pin_sources", "pin_endings")
    ]
    db.import_pin_links(conn, *links)
    left_out = Counter({
        "pin": len(r["pins"]) - len(pins),
        "pin_source": len(r["pin_sources"]) - len(links[0]),
        "pin_ending": len(r["pin_endings"]) - len(links[1]),
    })
    summaries: dict[int, int] = {}
    for s, n in zip(r["summaries"], tokens["summaries"]):
        start, end = batch.new_range(s, first)
        made = db.insert_summary(conn, db.SummaryRow(
            sid, s.text, start, end, s.message_count, s.level, s.source,
            s.importance_score, n, s.created_at,
        ))
        if made is None:  # SessionBatch refuses overlaps: never, but never half-written either
            raise InvalidInput(f"line {batch.line}+: summary {s.id} overlaps another")
        summaries[s.id] = made.id
    for f in r["facts"]:
        db.insert_facts(
            conn, summaries[f.id], sid, f.data.model_dump_json(), f.text, f.source, f.created_at
        )
    db.add_fact_sources(conn, [
        (summaries[x.summary_id], x.item, message[x.message_id]) for x in r["fact_sources"]
    ])
    goals: dict[int | None, int | None] = {None: None}
    for g, (n, archive_n) in zip(r["goals"], tokens["goals"]):
        archive = None if g.archive is None else json.dumps(g.archive, ensure_ascii=False)
        goals[g.id] = db.import_goal(
            conn, (sid, g.text, g.status, n, archive, archive_n, g.created_at, g.ended_at)
        )
    subtasks: dict[int, int] = {}
    for t, n in zip(r["subtasks"], tokens["subtasks"]):
        deps = json.dumps([subtasks[d] for d in t.dependencies])
        subtasks[t.id] = db.import_subtask(
            conn,
            (sid, goals[t.goal_id], t.name, t.status, deps, t.notes, n, t.created_at, t.updated_at),
        )
    for x, n in zip(r["tools"], tokens["tools"]):
        db.insert_tool(
            conn, sid, goals[x.goal_id], x.tool_name, json.dumps(x.arguments, ensure_ascii=False),
            x.success, x.result_summary, x.error_message, n, x.created_at,
        )
    for f, n in zip(r["files"], tokens["files"]):
        db.import_file(conn, (sid, f.path, int(f.modified), f.seq, n, f.created_at, f.updated_at))
    checkpoints: dict[int, int] = {}
    for c, (counted, n) in zip(r["checkpoints"], tokens["checkpoints"]):
        lines = json.dumps([list(line) for line in counted], ensure_ascii=False)
        checkpoints[c.id] = db.import_checkpoint(
            conn,
            (sid, c.data.model_dump_json(), c.source, batch.new_through(c.through_message_id, first),
             n, lines, c.created_at),
        )
    db.add_checkpoint_sources(conn, [
        (checkpoints[x.checkpoint_id], x.item, message[x.message_id]) for x in r["checkpoint_sources"]
    ])
    ended = {pin_id for pin_id, _ in links[1]}
    superseded = {pins[p.id] for p in r["pins"] if p.superseded_at is not None and p.id in pins}
    return first, kept, len(removed), +left_out, len(superseded - ended)
