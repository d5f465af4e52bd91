"""Offline summaries are temporary: ``store.resummarize()`` has the model redo them.

A range summarized while no local model answered (``source`` ``offline``) or
while its answers were unusable (``fallback``) holds a deterministic summary:
the message count, the topics, a first and a last sample. Once a model
answers, :meth:`Resummarizer.resummarize` summarizes each such range again
through the store's own summary path (the same model choice, prompt,
validation, facts and auto pins as ``summarize``) and, when the model's summary
is valid, stores it in place of the deterministic one in one transaction (same
range and level; a new id, so the search index takes it up). Level-1 summaries
go first, oldest first; then each deterministic rollup whose inputs (the
summaries it rolled, and the rollup before it) are now all the model's.

Bounded: the model is asked once per session whether it is there before any
range is sent; no server (or a timeout) ends the whole run at once, and the
first range the model fails on ends that session's turn. What is left stays as
it was, to be redone by a later run (``localmem maintain`` runs this too).

With ``model_trust="earned"`` a model that has not earned trust on this file leaves
each range its deterministic summary: its answer counts toward its record
(``Summaries.judge``) and is cached, so a later run, once the model has earned it,
stores it without asking again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from . import db
from .args import check_id
from .drafts import Draft, pin_sources
from .errors import SessionNotFound
from .models import Session, Summary
from .outcome import FALLBACK, OFFLINE, Outcome
from .reports import ResummarizeReport
from .summarizer.ollama_client import OllamaUnavailable

if TYPE_CHECKING:  # what it is given (the handle, capabilities), a record: type checker only
    from .handle import Handle
    from .localmodel import LocalModel
    from .span_facts import SpanFacts
    from .summaries import Summaries

logger = logging.getLogger("localmem")

DETERMINISTIC = (OFFLINE, FALLBACK)
"""The sources of the summaries no model wrote."""
UNEARNED = "the model has not earned trust on this file yet (model_trust='earned'): run again once it has"
"""Why ranges are left when the model answered them but is not yet trusted here."""


class Resummarizer:
    """``resummarize``: the model redoes the deterministic summaries, through the
    summary path of ``summaries`` (:class:`~localmem.summaries.Summaries`), with the
    facts beside them as ``facts`` makes them (:class:`~localmem.span_facts.SpanFacts`)."""

    def __init__(self, handle: Handle, model: LocalModel, summaries: Summaries, facts: SpanFacts) -> None:
        self._db = handle
        self._model = model
        self._summaries = summaries
        self._facts = facts

    def resummarize(
        self,
        session_id: str | None = None,
        *,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> ResummarizeReport:
        """Have the local model redo the deterministic summaries (``offline``,
        ``fallback``) of one session, or of every session; see the module.

        Returns what was redone and what is left (and why). Each replacement is
        one transaction. ``on_progress(done, total)`` is called after each
        deterministic summary tried. Model failures never raise; an unknown
        ``session_id`` raises :class:`SessionNotFound`.
        """
        with self._db.locked() as conn:
            if session_id is None:
                ids = db.source_sessions(conn, DETERMINISTIC)
            else:
                check_id(session_id)
                self._db.require_session(session_id)
                ids = [session_id]
            work = [(sid, db.source_summaries(conn, sid, DETERMINISTIC)) for sid in ids]
        total = sum(len(found) for _sid, found in work)
        redone: list[Summary] = []
        reason: str | None = None
        done = 0
        for sid, found in work:
            try:
                session = self._db.session(sid)
            except SessionNotFound:
                done += len(found)
                continue
            problem = self._model_there(session)
            if problem is None:
                problem = self._redo_session(session, found, redone, on_progress, done, total)
            done += len(found)
            if on_progress is not None:
                on_progress(done, total)
            if problem is not None:
                reason = problem
                if problem.startswith("unreachable"):
                    break  # no server: every other session would wait for it too
        left = total - len(redone)
        if left:
            logger.info("resummarize: %d redone, %d left (%s)", len(redone), left, reason)
        return ResummarizeReport(found=total, redone=redone, left=left, reason=reason if left else None)

    def _model_there(self, session: Session) -> str | None:
        """None if a local model can summarize the session now, else why not."""
        try:
            model = self._model.summarizer().choose_model(session.model)
        except OllamaUnavailable as exc:
            return f"unreachable: {exc}"
        except Exception as exc:  # noqa: BLE001 - a faulty server never reaches the caller
            return f"the Ollama server failed: {type(exc).__name__}: {exc}"[:300]
        if model is None:
            return f"no local model for session {session.id!r} (model {session.model!r})"
        return None

    def _redo_session(
        self,
        session: Session,
        found: list[Summary],
        redone: list[Summary],
        on_progress: Callable[[int, int], None] | None,
        done: int,
        total: int,
    ) -> str | None:
        """Redo one session's deterministic summaries, level 1 first; None, or why it
        stopped, or why ranges were left (:data:`UNEARNED`: the run goes on)."""
        left = None
        for n, old in enumerate(found):
            new = self._redo_one(session, old)
            if on_progress is not None:
                on_progress(done + n + 1, total)
            if new == UNEARNED:
                left = UNEARNED
            elif isinstance(new, str):
                return new
            elif new is not None:
                redone.append(new)
        return left

    def _redo_one(self, session: Session, old: Summary) -> Summary | str | None:
        """The model's summary stored in place of ``old``; None if it is left
        (its messages are gone, or a rollup's inputs are not all the model's
        yet); :data:`UNEARNED` if the model is not yet trusted here; why, if the model failed."""
        if old.level == 2:
            return self._redo_rollup(session, old)
        with self._db.locked() as conn:
            mark = db.forget_mark(conn, session.id)
            span = db.messages_between(conn, session.id, old.start_message_id, old.end_message_id)
        if not span:
            return None
        pairs = [(m.role, m.text) for m in span]
        outcome = self._model.summarizer().summarize(
            pairs, session.model, ratio=self._model.model_ratio(session.model), lookup=self._model.cached_summary
        )
        if not outcome.from_model:
            return _failed(old, outcome)
        if self._summaries.shown(outcome, lambda: old.text) is not outcome:
            # not yet trusted on this file: the range keeps the store's own summary it has;
            # the answer counts toward the model's record, and is cached for a later run
            self._summaries.judge(session.id, outcome, mark)
            return UNEARNED
        data, source, pins, updates, facts_verdict = self._facts.summary_facts(
            session, pairs, sum(m.token_count for m in span), outcome
        )
        return self._summaries.store_summary(Draft(
            session.id,
            outcome,
            old.start_message_id,
            old.end_message_id,
            len(span),
            level=1,
            facts=(data, source),
            pins=pin_sources(pins, span),
            updates=updates,
            replaces=old,
            mark=mark,
            warnings=self._facts.warning_sources(outcome.text, span),
            fact_sources=self._facts.fact_sources(data, span),
            facts_verdict=facts_verdict,
        ))

    def _redo_rollup(self, session: Session, old: Summary) -> Summary | str | None:
        """A rollup again from what it rolled: the rollup before it, then the
        level-1 summaries within its range; left while one of them is deterministic."""
        with self._db.locked() as conn:
            mark = db.forget_mark(conn, session.id)
            earlier = db.summaries_within(conn, session.id, 2, 0, old.start_message_id - 1)
            inputs = earlier[-1:] + db.summaries_within(
                conn, session.id, 1, old.start_message_id, old.end_message_id
            )
        if not inputs or any(s.source in DETERMINISTIC for s in inputs):
            return None
        outcome = self._model.summarizer().rollup(
            [s.text for s in inputs],
            session.model,
            ratio=self._model.model_ratio(session.model),
            lookup=self._model.cached_summary,
        )
        if not outcome.from_model:
            return _failed(old, outcome)
        if self._summaries.shown(outcome, lambda: old.text) is not outcome:
            return UNEARNED  # the deterministic rollup stays
        return self._summaries.store_summary(Draft(
            session.id,
            outcome,
            old.start_message_id,
            old.end_message_id,
            old.message_count,
            level=2,
            replaces=old,
            rolled=[s.id for s in inputs if s.level == 1],
            mark=mark,
        ))


def _failed(old: Summary, outcome: Outcome) -> str:
    return (
        f"the model did not summarize messages {old.start_message_id}-{old.end_message_id} "
        f"({outcome.source}: {outcome.reason})"
    )
