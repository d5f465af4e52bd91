"""Bringing a history from another assistant: ChatGPT and Claude data exports.

:class:`History` holds :meth:`~History.import_file` (any export: localmem's JSON
Lines, a ChatGPT or Claude ``conversations.json`` or its .zip, told apart by content)
and :meth:`~History.import_conversations`. The exports are read by
``localmem.exports`` (pure) into the same :class:`~localmem.jsonl.SessionBatch`
records a localmem export gives, and written by the same path
(:meth:`Transfer.write_session <localmem.transfer.Transfer.write_session>`). What an
import adds to them is what a live conversation would have left in the file:

- each message is scored by the store's scorer, its tokens counted by the store's
  tokenizer;
- **facts are learnt as for new messages**: the auto-pin rules run on each user
  message (``Pins.auto_pins``) and their pins are written by the same code
  ``add_message`` runs (``Pins.add_auto_pins``), dated with the message (an allergy said in an old chat
  becomes one of the user's facts, with that message and date as its source);
- **long chats get their offline summaries**: every full ``summary_threshold``
  range of messages gets the deterministic summary and the rules' facts that
  ``summarize`` stores when no model answers (``source="offline"``;
  ``SpanFacts.offline_facts``), and the rollups its rule makes of them, so ``resummarize`` improves them once a model
  runs. No model is called during an import.

Conversations are written oldest first, in transactions of about
:data:`BATCH_MESSAGES` messages. Everything is read and checked before anything is
written: a malformed export, two conversations with one id, or (by default) a
conversation this file already has, raises and writes nothing.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

from . import db
from .checkpoint import RULES
from .batches import EXISTING, Existing, recount
from .errors import InvalidInput
from .exports import Conversation, peek, read_conversations, sniff
from .exports.batch import session_batch
from .facts import facts_row
from .sources import Sources, Span, facts_sources, rows
from .jsonl import SessionBatch
from .jsonl.records import CLOCK_SKEW
from .models import ImportReport
from .outcome import OFFLINE
from .scoring import SUMMARY_IMPORTANCE
from .summarizer.fallback import offline_summary

if TYPE_CHECKING:  # what it is given (the handle, capabilities): for the type checker only
    import sqlite3

    from .handle import Handle
    from .pins import Pins
    from .span_facts import SpanFacts
    from .transfer import Transfer

FORMATS = ("auto", "localmem", "chatgpt", "claude")
BATCH_MESSAGES = 5000
"""About this many messages are written per transaction: few commits, and the lock
is released between them (other writers, a search, a context go on meanwhile)."""


class Planned(NamedTuple):
    """A summary to write with an imported session: positions of its first and last
    message, how many it covers, its level, text and (level 1) its facts, with the
    positions of the messages each line of them rests on (``sources.facts_sources``)."""

    first: int
    last: int
    count: int
    level: int
    text: str
    tokens: int
    facts: tuple[str, str] | None
    sources: Sources | None = None


class History:
    """``import_file`` and ``import_conversations``: sessions written through
    ``transfer``, their facts learnt through ``pins``, their offline summaries' facts as
    ``facts`` makes them."""

    def __init__(self, handle: Handle, transfer: Transfer, pins: Pins, facts: SpanFacts) -> None:
        self._db = handle
        self._transfer = transfer
        self._pins = pins
        self._facts = facts

    def import_file(
        self,
        source: str | Path | BinaryIO,
        *,
        format: str = "auto",
        existing: Existing = "refuse",
        on_progress: Callable[[int], None] | None = None,
        unverified: bool = False,
    ) -> ImportReport:
        """Import an export: a file's path or a binary file object.

        ``format``: ``auto`` (told by content), ``localmem`` (``localmem export``'s
        JSON Lines: :meth:`~localmem.transfer.Transfer.import_sessions`, with
        ``unverified``), ``chatgpt`` or ``claude`` (a data export's
        ``conversations.json``, or the export's .zip: :meth:`import_conversations`).
        ``existing`` as for ``import_sessions``. ``on_progress(n)``: ``n`` more lines
        (localmem) or conversations (ChatGPT, Claude) done. Raises
        :class:`InvalidInput` for an unreadable or malformed export (nothing written).
        """
        if format not in FORMATS:
            raise InvalidInput(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
        with _opened(source) as file:
            if format == "localmem" or format == "auto" and sniff(peek(file)) == "localmem":
                lines = io.TextIOWrapper(file, encoding="utf-8", errors="surrogateescape", newline="")
                try:
                    return self._transfer.import_sessions(
                        lines, on_progress=on_progress, existing=existing, unverified=unverified
                    )
                finally:
                    lines.detach()  # the caller's file stays open
            _found, conversations = read_conversations(file, format)
        return self.import_conversations(conversations, existing=existing, on_progress=on_progress)

    def import_conversations(
        self,
        conversations: Sequence[Conversation],
        *,
        existing: Existing = "refuse",
        on_progress: Callable[[int], None] | None = None,
    ) -> ImportReport:
        """Store conversations read by ``localmem.exports`` as sessions (see the module).

        Each becomes the session of its id (a re-import finds it: ``existing``
        ``skip`` adds nothing, ``replace`` replaces it, ``rename`` imports it under a
        new id; ``refuse``, the default, raises before anything is written when this
        file has any of them). Every conversation is checked first; then they are
        written oldest first, about :data:`BATCH_MESSAGES` messages a transaction,
        and ``on_progress(n)`` is called after each. A database error stops the
        import with the transactions before it written: import again with
        ``existing="skip"`` to resume.
        """
        if existing not in EXISTING:
            raise InvalidInput(f"existing must be one of {', '.join(EXISTING)}, not {existing!r}")
        conversations = list(conversations)
        if not all(isinstance(c, Conversation) for c in conversations):
            raise InvalidInput("conversations must be localmem.exports.Conversation records")
        latest = self._db.clock() + CLOCK_SKEW
        order = sorted(range(len(conversations)), key=lambda i: conversations[i].created_at)
        batches = []
        for i in order:
            pins = [self._pins.auto_pins(t.role, t.text) for t in conversations[i].turns]
            importance = self._importance(conversations[i], pins)
            batches.append((i, session_batch(conversations[i], importance, index=i, latest=latest), pins))
        self._check_ids(batches, existing)
        done: list[tuple[str, str]] = []
        skipped: list[str] = []
        replaced: list[str] = []
        removed = 0
        counts: dict[str, int] = {}
        for chunk in _chunks(batches, BATCH_MESSAGES):
            prepared = [(i, b, *self._prepare(b), pins) for i, b, pins in chunk]  # outside the lock
            with self._transfer.importing() as gone:
                conn = gone.conn
                for i, batch, tokens, plan, pins in prepared:
                    written = self._transfer.write_session(gone, batch, existing, tokens, f"conversation {i}")
                    if written is None:
                        skipped.append(batch.session.id)
                        continue
                    session_id, was_there, first = written.session_id, written.replaced, written.first
                    messages = batch.records["messages"]
                    for k, found in enumerate(pins):
                        # a fact the user removed here: an old conversation does not say it again
                        kept = [p for p in found if db.buried_after(conn, session_id, p.key) is None]
                        removed += len(found) - len(kept)
                        if kept:  # dated as the message that said it
                            self._pins.add_auto_pins(conn, session_id, first + k, kept, messages[k].created_at)
                    for s in plan:
                        _write_summary(conn, session_id, first, s, messages[s.last].created_at)
                    done.append((batch.session.id, session_id))
                    if was_there:
                        replaced.append(batch.session.id)
                    for kind, n in (*batch.counts.items(), ("summary", len(plan))):
                        counts[kind] = counts.get(kind, 0) + n
            if on_progress is not None:
                on_progress(len(chunk))
        return ImportReport(
            sessions=done, counts={k: n for k, n in counts.items() if n}, skipped=skipped,
            replaced=replaced, removed=removed, verified=True,
        )

    def _importance(self, conversation: Conversation, pins: Sequence[list]) -> list[float]:
        """Each turn's importance as ``add_message`` scores it (at least an auto pin's
        when the rules found a fact in it)."""
        floor = self._db.config.auto_pin_importance
        scores = [self._db.score(t.role, t.text) for t in conversation.turns]
        return [max(score, floor) if found else score for score, found in zip(scores, pins)]

    def _check_ids(self, batches: list[tuple[int, SessionBatch, list]], existing: str) -> None:
        """Two conversations with one id, or (``refuse``) one this file has: InvalidInput."""
        seen: dict[str, int] = {}
        for i, b, _pins in batches:
            if b.session.id in seen:
                raise InvalidInput(
                    f"conversation {i} ({b.session.id!r}): id: the same as conversation {seen[b.session.id]}'s"
                )
            seen[b.session.id] = i
        if existing != "refuse":
            return
        with self._db.locked() as conn:
            for i, b, _pins in batches:
                if db.session_exists(conn, b.session.id):
                    raise InvalidInput(
                        f"conversation {i}: a session with id {b.session.id!r} already exists; nothing "
                        "was imported (to import anyway: existing='skip', 'replace' or 'rename'; on "
                        "the command line --skip-existing, --replace or --rename)"
                    )

    def _prepare(self, batch: SessionBatch) -> tuple[dict[str, list], list[Planned]]:
        """What a batch's write needs, computed before the lock: token counts and the
        offline summaries."""
        return recount(batch, self._db.tokenizer.count), self._offline_plan(batch.records["messages"])

    def _offline_plan(self, messages: Sequence) -> list[Planned]:
        """The summaries ``summarize`` stores offline, then its rollup: a level-1 summary
        of each full ``summary_threshold`` range; when more than ``recent_summaries``
        result, one level-2 rollup of all but the newest ``recent_summaries - 1``,
        whose text reaches back over every message from the first (as
        ``_rollup`` makes one of them all, ``_deterministic_rollup`` its text)."""
        size = self._db.config.summary_threshold
        keep = self._db.config.recent_summaries
        pairs = [(m.role, m.text) for m in messages]
        plan: list[Planned] = []
        for start in range(0, len(pairs) - size + 1, size):
            span = pairs[start : start + size]
            found = self._facts.offline_facts(span)
            sourced = facts_sources(found, Span(range(start, start + size), [t for _, t in span]))
            plan.append(self._planned_summary(
                start, start + size - 1, size, 1, offline_summary(span), facts_row(found), sourced
            ))
        if keep and len(plan) > keep:
            rolled = plan[: len(plan) - (keep - 1)]
            end = rolled[-1].last
            text = offline_summary(pairs[: end + 1])
            plan.append(self._planned_summary(0, end, sum(s.count for s in rolled), 2, text, None))
        return plan

    def _planned_summary(
        self, first: int, last: int, count: int, level: int, text: str, facts: tuple[str, str] | None,
        sources: Sources | None = None,
    ) -> Planned:
        return Planned(first, last, count, level, text, self._db.tokenizer.count(text), facts, sources)


def _write_summary(
    conn: sqlite3.Connection, session_id: str, first: int, s: Planned, created_at: str
) -> None:
    """Store a planned summary (and its facts) of messages numbered from ``first``."""
    made = db.insert_summary(conn, db.SummaryRow(
        session_id, s.text, first + s.first, first + s.last, s.count, s.level, OFFLINE,
        SUMMARY_IMPORTANCE, s.tokens, created_at,
    ))
    if made is not None and s.facts is not None:
        db.insert_facts(conn, made.id, session_id, s.facts[0], s.facts[1], RULES, created_at)
        at = {path: [first + k for k in ids] for path, ids in (s.sources or {}).items()}
        db.add_fact_sources(conn, rows(made.id, at))


def _chunks(
    batches: list[tuple[int, SessionBatch, list]], size: int
) -> Iterator[list[tuple[int, SessionBatch, list]]]:
    """The batches in runs of about ``size`` messages (at least one batch each)."""
    run: list[tuple[int, SessionBatch, list]] = []
    messages = 0
    for item in batches:
        run.append(item)
        messages += item[1].counts["message"]
        if messages >= size:
            yield run
            run, messages = [], 0
    if run:
        yield run


@contextlib.contextmanager
def _opened(source: str | Path | BinaryIO) -> Iterator[BinaryIO]:
    """A binary file: ``source`` itself, or the file at that path (closed afterwards)."""
    if isinstance(source, (str, os.PathLike)):
        try:
            file = open(source, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise InvalidInput(f"cannot read {source}: {exc.strerror or exc}") from None
        with file:
            yield file
        return
    if not hasattr(source, "read"):
        raise InvalidInput(f"source must be a path or a binary file, not {type(source).__name__}")
    yield source  # type: ignore[misc]
