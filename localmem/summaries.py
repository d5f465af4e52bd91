"""The store's summaries: which range is due, who writes it, where it is kept.

:class:`Summaries` holds the store's summary methods. The model call, validation and fallbacks are the summarizer's
(``localmem.summarizer``); this module decides the ranges (message ids,
``summary_threshold`` at a time, or fewer when the window-share trigger
fires), rolls level-1 summaries into level 2, and stores each result with
what its call taught the store (cache entry, token ratio, structured facts)
in one transaction. The facts stored beside a summary are made by
``localmem.span_facts``. Model failures never raise from here.
"""

from __future__ import annotations

import dataclasses
import logging
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Literal

from . import db
from . import extract as rules
from .args import check_id
from .drafts import Draft, pin_sources
from .errors import SessionNotFound
from .facts import facts_row
from .models import LineSource, Message, Session, Summary, SummaryFacts
from .outcome import FALLBACK, OFFLINE, Outcome
from .scoring import SUMMARY_IMPORTANCE
from .sources import Sources, checkpoint_items, facts_items, rows
from .summarizer.background import BackgroundSummarizer
from .summarizer.fallback import keyword_summary, offline_summary
from .summarizer.warned import said_in
from .tokens import plausible_ratio

if TYPE_CHECKING:  # what it is given (the handle, capabilities): for the type checker only
    from .checkpoints import Checkpoints
    from .handle import Handle
    from .localmodel import LocalModel
    from .pins import Pins
    from .span_facts import SpanFacts
    from .verdicts import Verdicts

logger = logging.getLogger("localmem")

STALE_SHARE = 0.6
"""Share of a model's fact's content words an ended pin must hold for the fact to restate
it (``updates.MODEL_MATCH``'s measure)."""


class Summaries:
    """Which range is due, summarizing it (checkpoint first, ``checkpoints``), rolling up,
    storing with the facts beside it (``facts``) and the auto pins the model found
    (``pins``); in the background too."""

    def __init__(
        self, handle: Handle, model: LocalModel, pins: Pins, checkpoints: Checkpoints, verdicts: Verdicts,
        facts: SpanFacts,
    ) -> None:
        self._db = handle
        self._model = model
        self._pins = pins
        self._checkpoints = checkpoints
        self._verdicts = verdicts
        self._facts = facts
        self.background = (
            BackgroundSummarizer(self.summarize_due) if handle.config.auto_summarize else None
        )
        """The worker summarizing what ``add_message`` made due (``auto_summarize``)."""

    def get_summaries(self, session_id: str) -> list[Summary]:
        """A session's summaries: level 1 in range order, then its rollups (level 2)."""
        check_id(session_id)
        with self._db.locked() as conn:
            self._db.require_session(session_id)
            return [
                s
                for level in (1, 2)
                for s in reversed(db.recent_summaries(conn, session_id, -1, level))
            ]

    def needs_summarization(self, session_id: str) -> bool:
        """True once ``summary_threshold`` messages are not yet covered by a summary,
        or once those that are not fill ``context_share`` of the model's window
        (``context_usage``; the local server is asked only when they might)."""
        session, uncovered = self.uncovered(session_id)
        if len(uncovered) >= self._db.config.summary_threshold:
            return True
        return bool(self._model.window_span(session, uncovered))

    def get_summary_facts(self, session_id: str) -> list[SummaryFacts]:
        """The facts kept with the session's level-1 summaries, in summary order. Read-only."""
        return self._db.read_session(session_id, db.summary_facts)

    def line_sources(self, session_id: str) -> list[LineSource]:
        """Every line of the session's latest checkpoint and of its summaries' facts (the
        lines a context may show besides messages, pins and summaries), each with the
        messages it rests on (:class:`~localmem.models.LineSource`): those it was read
        or judged from, every one of them when it was built from several; a line carried
        forward keeps its earlier sources. Forgetting any one of them drops or rewrites
        the line (``localmem.forget``). A line of the session state no message says, and
        a line stored before sources were recorded, names none. Checkpoint lines first,
        then the facts in summary order. Read-only; raises :class:`SessionNotFound`."""

        def read(conn: sqlite3.Connection, sid: str) -> list[LineSource]:
            newest = db.checkpoints(conn, sid, 1)
            owners: list[tuple[Literal["checkpoint", "facts"], int, Iterable[tuple[str, str]], Sources]] = [
                ("checkpoint", c.id, checkpoint_items(c.data), db.checkpoint_sources(conn, c.id))
                for c in newest
            ]
            by_summary = db.fact_sources(conn, sid)
            owners += [
                ("facts", f.id, facts_items(f.data), by_summary.get(f.id, {}))
                for f in db.summary_facts(conn, sid)
            ]
            return [
                LineSource(kind=kind, owner_id=owner, item=path, text=text, message_ids=list(found.get(path, ())))
                for kind, owner, items, found in owners
                for path, text in items
            ]

        return self._db.read_session(session_id, read)

    def uncovered(self, session_id: str) -> tuple[Session, list]:
        """The session and its oldest messages not yet covered by a level-1
        summary, at most ``summary_threshold`` of them."""
        session, span, _mark = self.due(session_id)
        return session, span

    def due(self, session_id: str) -> tuple[Session, list[Message], int]:
        """:meth:`uncovered`, with the session's forget mark read before them: what
        a summary of them is checked against when it is stored (a forget since
        then discards it, ``Draft.mark``)."""
        check_id(session_id)
        with self._db.locked() as conn:
            mark = db.forget_mark(conn, session_id)
            session = db.get_session(conn, session_id)
            if session is None:
                raise SessionNotFound(session_id)
            after = db.last_covered(conn, session_id)
            span = db.messages_after(conn, session_id, after, self._db.config.summary_threshold)
        return session, span, mark

    def summarize(self, session_id: str) -> Summary | None:
        """Summarize the next ``summary_threshold`` uncovered messages, oldest first.

        Returns the new level-1 summary, or None when fewer messages are
        uncovered (or another process covered them first). Fewer may be
        summarized when the uncovered ones fill ``context_share`` of the
        model's window: all but the newest ``min_recent_messages``. A
        checkpoint is taken first (``checkpoint``), and the summary keeps its
        facts (``get_summary_facts``). The local model writes it when it can
        be trusted; otherwise a deterministic summary does, and
        ``Summary.source`` says which (``fallback``, ``offline``).
        Model failures never raise; an unknown session raises
        :class:`SessionNotFound`. Rolls older summaries into a level-2
        summary when more pile up than the context shows.
        """
        session, span, mark = self.due(session_id)
        if len(span) < self._db.config.summary_threshold:
            span = self._model.window_span(session, span)
            if not span:
                return None
        return self.summarize_span(session, span, mark)

    def summarize_span(
        self, session: Session, span: Sequence[Message], mark: int
    ) -> Summary | None:
        """Checkpoint, summarize ``span`` (uncovered messages, oldest first, read
        after the session's forget ``mark``), store, roll up."""
        session_id = session.id
        self._checkpoints.take(session, self._db.config.structured_min_tokens)
        pairs = [(m.role, m.text) for m in span]
        outcome = self._model.summarizer().summarize(
            pairs,
            session.model,
            ratio=self._model.model_ratio(session.model),
            lookup=self._model.cached_summary,
        )
        data, source, pins, updates, facts_verdict = self._facts.summary_facts(
            session, pairs, sum(m.token_count for m in span), outcome
        )
        shown = self.shown(outcome, lambda: keyword_summary(pairs))
        summary = self.store_summary(Draft(
            session_id,
            shown,
            span[0].id,
            span[-1].id,
            len(span),
            level=1,
            facts=(data, source),
            pins=pin_sources(pins, span),
            updates=updates,
            mark=mark,
            warnings=self._facts.warning_sources(shown.text, span),
            fact_sources=self._facts.fact_sources(data, span),
            answer=outcome,
            facts_verdict=facts_verdict,
        ))
        if summary is not None:
            self.rollup(session)
        return summary

    def summarize_due(self, session_id: str) -> None:
        """The background worker's job: every range of the session that is due,
        one at a time, until the store closes (the rest then stays due)."""
        worker = self.background
        try:
            while (
                (worker is None or not worker.stopping)
                and self.needs_summarization(session_id)
                and self.summarize(session_id)
            ):
                pass
        except SessionNotFound:
            pass  # deleted since it was queued

    def rollup(self, session: Session, leave: int | None = None) -> Summary | None:
        """Roll the oldest level-1 summaries into a level-2 one when too many are uncovered.

        The context shows ``recent_summaries`` level-1 summaries and the newest
        rollup; once more pile up, the oldest ones (all but the newest
        ``recent_summaries - 1``) are rolled, together with the previous
        rollup's text, so the newest rollup always reaches back to the start.
        Its range is the message ids of the summaries it rolled. With
        ``leave`` (``maintain``), all but the newest ``leave`` are rolled as
        soon as there are more.
        """
        keep = self._db.config.recent_summaries
        if leave is None:
            if keep == 0:
                return None
            leave = keep - 1
        else:
            keep = leave
        with self._db.locked() as conn:
            mark = db.forget_mark(conn, session.id)
            previous = db.recent_summaries(conn, session.id, 1, level=2)
            rolled_to = previous[0].end_message_id if previous else 0
            pending = db.summaries_after(conn, session.id, 1, rolled_to)
        if len(pending) <= keep:
            return None
        batch = pending[: len(pending) - leave]
        texts = [previous[0].text] if previous else []
        texts += [s.text for s in batch]
        if len(texts) < 2:
            return None  # one summary alone is its own rollup
        outcome = self._model.summarizer().rollup(
            texts,
            session.model,
            ratio=self._model.model_ratio(session.model),
            lookup=self._model.cached_summary,
        )
        shown = self.shown(outcome, lambda: "")
        if not shown.from_model:
            shown = self._deterministic_rollup(session.id, batch[-1].end_message_id, shown)
        return self.store_summary(Draft(
            session.id,
            shown,
            batch[0].start_message_id,
            batch[-1].end_message_id,
            sum(s.message_count for s in batch),
            level=2,
            rolled=[s.id for s in batch],
            mark=mark,
            answer=outcome,
        ))

    def shown(self, outcome: Outcome, own: Callable[[], str]) -> Outcome:
        """What is stored for a range the model just summarized: ``outcome`` itself, unless
        ``model_trust`` is ``"earned"`` and the model wrote it (it passed the checks)
        without having earned trust for its summaries on this file (``verdicts``); then the
        store's own summary of the range (``own()``; for a rollup, empty: the caller writes
        the deterministic rollup), with ``Summary.source`` ``fallback``, as when the checks
        reject it. The model's answer is still judged (``Draft.answer``): its verdict counts
        toward its record, and the facts beside it are asked as for any summary that passed
        the checks."""
        if not outcome.from_model or outcome.model is None or self._verdicts.shows(outcome.model, "summary"):
            return outcome
        logger.info("%s has not earned trust on this file yet: the store's own summary is stored", outcome.model)
        return dataclasses.replace(
            outcome, text=own(), source=FALLBACK, reason="the model has not earned trust on this file"
        )

    def store_summary(self, draft: Draft) -> Summary | None:
        """Store a summary, its facts, its auto pins and what its call taught us,
        in one transaction; with ``replaces``, in place of that summary (deleted
        in the same transaction; nothing is stored if it is gone or changed
        source meanwhile: another process redid it).

        Only while nothing was forgotten in the session since its input was read
        (its forget ``mark`` is still the session's: a forget is final, whatever
        the model was computing meanwhile), and what it summarized is all still
        there, checked in that transaction: the ``count`` messages of its range (level 1), or the
        level-1 summaries it rolled up (level 2: their ids, ``rolled``, are
        still those within its range). The model takes its time; meanwhile the
        user may have cleared the conversation or deleted the session and
        created it again under its id, and a summary of text that is gone must
        not cover the messages that come next. None when not stored (that, a
        range already covered, or no session).

        An auto pin (``pins``: the model's must-remember items, each with the
        messages it was built from, all recorded: forgetting any one forgets
        it) is skipped when a pin of the session already holds its fact, or
        restates it (``extract.restates``): the model often rephrases what a
        rule pinned; and when the user removed that fact (unpinned it, or
        forgot the message it came from) after the messages it was built from
        were written (``db.buried_after``): it stays removed until the user
        says it again.
        """
        (session_id, outcome, start, end, count, level, facts, pins, updates, replaces, rolled, mark,
         warnings, fact_sources, answer, facts_verdict) = draft
        answer = answer or outcome  # the model's answer: judged, cached, its tokens learnt
        tokens = self._db.tokenizer.count(outcome.text)
        updates = updates or {}
        counted = [(self._pins.planned(p, updates.get(p)), source) for p, source in pins]
        # A warning the summary lacks stays in the session (its source may be the assistant).
        warned = [(self._pins.planned(w)._replace(lasting=False), source) for w, source in warnings]
        with self._db.write(session_id) as conn:
            now = self._db.now()
            if not db.session_exists(conn, session_id):
                return None  # deleted while the model was thinking
            if db.forget_mark(conn, session_id) != mark:
                logger.info(
                    "summary of messages %d-%d discarded: something it was made from "
                    "was forgotten while the model was thinking", start, end,
                )
                return None
            if level == 1:
                intact = db.messages_in_range(conn, session_id, start, end) == count
            else:
                within = db.summaries_within(conn, session_id, 1, start, end)
                intact = [s.id for s in within] == list(rolled)
            if not intact:
                logger.info("summary of messages %d-%d not stored: some of them are gone", start, end)
                return None
            if replaces is not None and not db.delete_summary(conn, replaces.id, replaces.source):
                return None
            summary = db.insert_summary(conn, db.SummaryRow(
                session_id,
                outcome.text,
                start,
                end,
                count,
                level,
                outcome.source,
                SUMMARY_IMPORTANCE,
                tokens,
                now,
            ))
            if summary is not None and facts is not None:
                data, text = facts_row(facts[0])
                db.insert_facts(conn, summary.id, session_id, data, text, facts[1], now)
                db.add_fact_sources(conn, rows(summary.id, fact_sources or {}))
            if summary is not None and (counted or warned):
                held = [p.content for p in db.top_pins(conn, session_id, -1)]
                counted += [(p, s) for p, s in warned if not said_in(p.content, held)]
                ended = db.ended_pins(conn, session_id)
                changed = False
                for pin, sources in counted:
                    if not sources or any(rules.restates(pin.content, h) for h in held):
                        continue
                    removed = db.buried_after(conn, session_id, pin.key)
                    if removed is not None and max(sources) <= removed:
                        logger.info("a fact the user removed is not pinned again from old messages")
                        continue
                    if any(max(sources) < by and rules.grounded(pin.content, old.casefold(), STALE_SHARE)
                           for old, by in ended):
                        logger.info("a fact the user updated or corrected is not pinned again from old messages")
                        continue
                    changed |= self._pins.add_auto_pins(conn, session_id, sources[0], [pin], now, sources)
                    db.add_pin_sources(conn, session_id, pin.key, sources)
                if changed:
                    self._db.cache.clear()  # a fact of the user's: every session's context
            if summary is not None and level == 1 and self._pins.end_stale(conn, session_id, end, now):
                self._db.cache.clear()  # a fact of the user's ended: every session's context
            if summary is not None:
                self._judge(conn, answer, level, now)
                if facts_verdict is not None:
                    self._verdicts.record(conn, facts_verdict[0], "facts", facts_verdict[1], now)
            if answer.cache_key and answer.from_model and not answer.cached:
                db.cache_summary(conn, answer.cache_key, answer.source, answer.text, now)
            if (
                answer.model
                and answer.local_tokens
                and answer.model_tokens
                and plausible_ratio(answer.local_tokens, answer.model_tokens)
            ):
                db.record_tokens(
                    conn, answer.model, answer.local_tokens, answer.model_tokens, now
                )
                self._db.memo.ratios.clear()  # a model's ratio changed: every budget with it
                self._db.cache.clear()
        if summary is None:
            logger.info("summary of messages %d-%d skipped: already covered", start, end)
        return summary

    def judge(self, session_id: str, answer: Outcome, mark: int) -> None:
        """Record the verdict of a level-1 ``answer`` whose range keeps the summary it had
        (``resummarize`` leaving a range to the store's own summary: the model not yet
        trusted), and cache it: asked again, the same range costs no call and counts once.

        Only while the session's forget ``mark`` is still the one read before the model's
        input, checked in the transaction, as :meth:`store_summary` does: an answer made
        from text forgotten meanwhile is neither cached (it would quote it) nor counted."""
        with self._db.write(session_id, pins=False) as conn:
            if db.forget_mark(conn, session_id) != mark:
                logger.info("an answer made from what was forgotten meanwhile is discarded")
                return
            now = self._db.now()
            self._judge(conn, answer, 1, now)
            if answer.cache_key and answer.from_model and not answer.cached:
                db.cache_summary(conn, answer.cache_key, answer.source, answer.text, now)

    def _judge(self, conn: sqlite3.Connection, answer: Outcome, level: int, now: str) -> None:
        """A level-1 answer the model just gave (``Outcome.answered``) counts toward its
        record for summaries: kept whole or not (``Outcome.kept_whole``). A rollup does not
        (its sentences are not grounded: kept is all the checks can say), nor a summary
        from the cache (it was judged when first answered)."""
        if level != 1 or not answer.answered or answer.model is None:
            return
        self._verdicts.record(conn, answer.model, "summary", answer.kept_whole, now)

    def _deterministic_rollup(self, session_id: str, end: int, outcome: Outcome) -> Outcome:
        """A rollup no model wrote: the deterministic summary (offline or keyword, as
        ``outcome`` was) of the messages it reaches back over, from the session's
        first through ``end``; never a summary of summaries ("Offline summary: ...
        Offline summary: ..."). ``resummarize`` has a model redo it later."""
        with self._db.locked() as conn:
            pairs = [(m.role, m.text) for m in db.messages_between(conn, session_id, 0, end)]
        text = offline_summary(pairs) if outcome.source == OFFLINE else keyword_summary(pairs)
        return dataclasses.replace(outcome, text=text)
