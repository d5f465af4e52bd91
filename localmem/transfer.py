"""The store's side of export and import: :class:`TransferMixin`.

The format (records, the header, parsing, validation, id mapping) is
``localmem.jsonl``'s and pure; this module reads a session's rows for an
export and writes an import's, one transaction per session.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence

from . import db
from .args import as_list, check_id
from .autopins import pin_key
from .errors import ImportRefused, InvalidInput, SessionNotFound
from .jsonl import Reader, SessionBatch, header_line, session_lines
from .mixin import StoreBase
from .models import ImportReport
from .state import archive_line, file_line, goal_line, subtask_line, tool_line

# --- the store's methods ------------------------------------------------------------------


class TransferMixin(StoreBase):
    """Export and import; mixed into :class:`~localmem.MemoryStore`."""

    def export_sessions(self, session_ids: Sequence[str] | None = None) -> Iterator[str]:
        """The sessions as JSON lines (no trailing newline): a header, then each session.

        All sessions, oldest first, when ``session_ids`` is None (one deleted
        while the export runs is left out). Raises :class:`SessionNotFound` for
        an unknown id now, before any line; one deleted afterwards raises it
        when its turn comes. Read-only. Each session is read in one read
        transaction (a consistent snapshot, held in memory one session at a
        time), and the lock is released between sessions: the store stays
        usable while the lines are consumed.
        """
        strict = session_ids is not None
        with self._locked() as conn:
            if session_ids is None:
                ids = db.session_ids(conn)
            else:
                ids = as_list(session_ids, "session_ids must be a list of session ids")
                ids = list(dict.fromkeys(check_id(i) for i in ids))  # exported twice: no import
                for session_id in ids:
                    if not db.session_exists(conn, session_id):
                        raise SessionNotFound(session_id)
        return self._export(ids, header_line(self._now()), strict)

    def _export(self, ids: list[str], header: str, strict: bool) -> Iterator[str]:
        yield header
        for session_id in ids:
            with self._locked() as conn:
                conn.execute(db.BEGIN_READ_SQL)
                try:
                    rows = db.session_rows(conn, session_id)
                finally:
                    conn.execute(db.COMMIT_SQL)
            if rows is None:
                if strict:
                    raise SessionNotFound(session_id)
                continue
            yield from session_lines(rows)

    def import_sessions(
        self,
        lines: Iterable[str],
        *,
        on_progress: Callable[[int], None] | None = None,
        rename: bool = False,
    ) -> ImportReport:
        """Import an export's sessions (``lines``: the export's lines, as ``open(path)`` gives them).

        Each session is one transaction, written once all its lines are read
        and checked; every row gets a new id and references follow (see the
        module). A session whose id this file already has is refused unless
        ``rename``, which gives it a new random id (the report says which).

        Raises :class:`~localmem.errors.ImportRefused` (an :class:`InvalidInput`)
        for a header of another format or version, or at the first malformed
        line ("line N: ..."): bad JSON, an unknown type, a missing or extra
        field, a reference to no earlier record of its session, a record
        before any session. Nothing of the session that line belongs to is
        written; **the sessions before it stay imported** (the error says how
        many, its ``report`` which). ``on_progress(n)`` is called as lines are
        read, ``n`` lines at a time.
        """
        if isinstance(lines, (str, bytes)):
            raise InvalidInput("lines must be the export's lines (an open file, a list), not one string")
        try:
            lines = iter(lines)  # read lazily: an export may be larger than memory
        except TypeError:
            raise InvalidInput(
                f"lines must be the export's lines (an open file, a list), not {type(lines).__name__}"
            ) from None
        if not isinstance(rename, bool):
            raise InvalidInput(f"rename must be True or False, not {type(rename).__name__}")
        reader = Reader(lines, on_progress, self._clock())
        done: list[tuple[str, str]] = []
        counts: Counter[str] = Counter()
        try:
            for batch in reader:
                done.append((batch.session.id, self._import_session(batch, rename)))
                counts += batch.counts
        except InvalidInput as exc:
            report = ImportReport(sessions=done, counts=dict(counts))
            message = str(exc)
            if reader.session is not None:  # the session being read or written
                message += f"; nothing of session {reader.session!r} was written"
            if done:
                message += f"; the {len(done)} session(s) before it stay imported"
            raise ImportRefused(message, report) from None
        return ImportReport(sessions=done, counts=dict(counts))

    def _import_session(self, batch: SessionBatch, rename: bool) -> str:
        """Write one session's batch in one transaction; return its id in this file."""
        s = batch.session
        fresh = uuid.uuid4().hex
        tokens = _recount(batch, self.tokenizer.count)  # before the write lock is taken
        with self._write(s.id) as conn:
            session_id = s.id
            if db.session_exists(conn, session_id):
                if not rename:
                    raise InvalidInput(
                        f"line {batch.line}: a session with id {s.id!r} already exists "
                        "(import with rename, --rename on the command line, to give it a new id)"
                    )
                session_id = fresh
            self._memo.forget(session_id)
            db.import_session(conn, (session_id, s.title, s.model, s.created_at, s.updated_at))
            _write_rows(conn, batch, session_id, tokens)
        return session_id


def _recount(batch: SessionBatch, count: Callable[[str], int]) -> dict[str, list]:
    """The token counts of a batch's rows, by this store's tokenizer, as its own
    writes count them (the text, or the line the context renders).

    An export's counts are not trusted: a count of 0 would let any text into
    every budget, 2**63-1 overflow every ``SUM()``, and another file may have
    counted with another encoding. Checkpoints: each line's count, then their sum.
    """
    r = batch.records
    lines = [[(t, count(t), live) for t, _n, live in c.lines] for c in r["checkpoints"]]
    return {
        "messages": [count(m.text) for m in r["messages"]],
        "pins": [count(p.content) for p in r["pins"]],
        "summaries": [count(s.text) for s in r["summaries"]],
        "goals": [
            (
                count(goal_line(g.text)),
                None if g.archive is None else count(archive_line(g.text, g.status, g.archive)),
            )
            for g in r["goals"]
        ],
        "subtasks": [count(subtask_line(t.status, t.name, t.notes)) for t in r["subtasks"]],
        "tools": [
            count(tool_line(x.tool_name, x.success, x.result_summary, x.error_message))
            for x in r["tools"]
        ],
        "files": [count(file_line(f.path)) for f in r["files"]],
        "checkpoints": [(c, sum(n for _t, n, _live in c)) for c in lines],
    }


def _write_rows(
    conn: sqlite3.Connection, batch: SessionBatch, sid: str, tokens: dict[str, list]
) -> None:
    """Insert a batch's rows under session ``sid``, table by table, references mapped,
    with the token counts of ``_recount``."""
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
    for p, n in zip(r["pins"], tokens["pins"]):
        source = None if p.source_message_id is None else message[p.source_message_id]
        db.insert_pin(
            conn, sid, p.content, pin_key(p.content), source, p.importance_score, p.kind,
            n, p.created_at,
        )
    summaries: dict[int, int] = {}
    for s, n in zip(r["summaries"], tokens["summaries"]):
        start, end = batch.new_range(s, first)
        made = db.insert_summary(
            conn, sid, s.text, start, end, s.message_count, s.level, s.source,
            s.importance_score, n, s.created_at,
        )
        if made is None:  # SessionBatch refuses overlaps: never, but never half-written either
            raise InvalidInput(f"line {batch.line}+: summary {s.id} overlaps another")
        summaries[s.id] = made.id
    for f in r["facts"]:
        db.insert_facts(
            conn, summaries[f.id], sid, f.data.model_dump_json(), f.text, f.source, f.created_at
        )
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
    for c, (counted, n) in zip(r["checkpoints"], tokens["checkpoints"]):
        lines = json.dumps([list(line) for line in counted], ensure_ascii=False)
        db.import_checkpoint(
            conn,
            (sid, c.data.model_dump_json(), c.source, batch.new_through(c.through_message_id, first),
             n, lines, c.created_at),
        )
