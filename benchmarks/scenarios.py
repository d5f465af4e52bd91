"""The scenarios: which calls each system makes, split into rounds for ``timer.interleave``.

- writes (``single_job``, ``batch_job``): one message per call, or batches of
  100 in one call, over the same messages for every system (the corpus in
  session order), converted to each system's native form before timing;
- reads (``read_calls``): the per-turn read over random sessions of a
  populated file, the same sessions in the same order for every system;
- ``decorate``: what makes a localmem session realistic to read (5 pins and
  3 summaries), used by the reference run and the scale sweep alike.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterable, Sequence

from corpus import SessionData
from systems import LocalMem, Opened
from timer import Call, Job

BATCH_SIZE = 100


def chunks(items: Sequence, size: int) -> list[Sequence]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def split_rounds(calls: Sequence[Call], warmup: int, n_rounds: int) -> list[Sequence[Call]]:
    """Round 0 holds the first ``warmup`` calls; the rest is split into ``n_rounds`` even rounds."""
    rest = calls[warmup:]
    per = len(rest) // n_rounds
    return [calls[:warmup]] + [rest[i * per : (i + 1) * per] for i in range(n_rounds)]


# --- writes ----------------------------------------------------------------------


def single_calls(sessions: Sequence[SessionData], limit: int) -> list[tuple[str, str, str]]:
    """The first ``limit`` messages of the corpus, session after session."""
    flat = [(s.id, role, text) for s in sessions for role, text in s.messages]
    if limit > len(flat):
        raise ValueError(f"the corpus has {len(flat)} messages, {limit} asked")
    return flat[:limit]


def batch_calls(sessions: Sequence[SessionData]) -> tuple[list, list]:
    """(full batches of exactly 100 messages, shorter tails), each ``(session_id, [(role, text)])``.

    Only full batches are timed; the tails are written afterwards, untimed,
    so that the file ends up holding the whole corpus for the reads.
    """
    full, tails = [], []
    for s in sessions:
        for part in chunks(s.messages, BATCH_SIZE):
            (full if len(part) == BATCH_SIZE else tails).append((s.id, list(part)))
    return full, tails


def single_job(
    opened: Opened, calls: Sequence[tuple[str, str, str]], warmup: int, rounds: int
) -> Job:
    system = opened.system
    native = [(sid, system.native(sid, role, text)) for sid, role, text in calls]
    return Job(system.add_one, split_rounds(native, warmup, rounds))


def batch_job(opened: Opened, batches: Sequence, warmup: int, rounds: int) -> Job:
    system = opened.system
    native = [(sid, [system.native(sid, r, t) for r, t in part]) for sid, part in batches]
    return Job(system.add_batch, split_rounds(native, warmup, rounds), weight=lambda c: len(c[1]))


def write_untimed(opened: Opened, batches: Sequence) -> None:
    system = opened.system
    for sid, part in batches:
        system.add_batch(sid, [system.native(sid, r, t) for r, t in part])


# --- reads -------------------------------------------------------------------------


def read_calls(
    session_ids: Sequence[str], seed: int, n_rounds: int, per_round: int
) -> list[list[Call]]:
    """Round 0 reads every session once (warming caches); then random sessions, seeded."""
    rng = random.Random(seed)
    warm = [(sid,) for sid in session_ids]
    return [warm] + [
        [(rng.choice(session_ids),) for _ in range(per_round)] for _ in range(n_rounds)
    ]


# --- localmem sessions worth reading -----------------------------------------------------

SUMMARY_RANGE = 15  # messages per summary, localmem's default summary_threshold
SUMMARY_INSERT_SQL = """INSERT INTO summaries
    (session_id, text, start_message_id, end_message_id, message_count, level, source,
     importance_score, token_count, created_at)
    VALUES (?, ?, ?, ?, ?, 1, 'offline', 0.7, ?, '2026-01-01T00:00:00.000Z')"""


def decorate(lm: LocalMem, sessions: Iterable[SessionData]) -> str:
    """Give each session its 5 pins (``store.pin``) and 3 summaries; return how summaries were made.

    With ``store.summarize`` (offline here: ``OLLAMA_HOST`` points at a dead
    loopback port, so it ends in its deterministic summary) the store writes
    them itself. Without it (the method did not exist yet when this suite was
    written) the rows go into ``summaries`` with plain SQL: the three oldest
    15-message ranges, offline source, token counts from ``store.count_tokens``.
    """
    store = lm.store
    sessions = list(sessions)
    for s in sessions:
        for i, fact in enumerate(s.pins):
            store.pin(s.id, fact, importance=round(0.95 - 0.1 * i, 2))
    summarize = getattr(store, "summarize", None)
    if summarize is not None:
        for s in sessions:
            for _ in s.summaries:
                summarize(s.id)
        return "store.summarize (offline fallback)"
    with sqlite3.connect(lm.path) as conn:
        for s in sessions:
            ids = [m.id for m in store.get_messages(s.id, limit=SUMMARY_RANGE * len(s.summaries))]
            for i, text in enumerate(s.summaries):
                part = ids[i * SUMMARY_RANGE : (i + 1) * SUMMARY_RANGE]
                if len(part) < SUMMARY_RANGE:
                    break
                conn.execute(
                    SUMMARY_INSERT_SQL,
                    (s.id, text, part[0], part[-1], len(part), store.count_tokens(text)),
                )
    return "SQL insert into summaries (store.summarize did not exist)"


def context_shape(lm: LocalMem, session_ids: Sequence[str]) -> dict[str, float]:
    """What the measured contexts carry on average (to show the reads are realistic)."""
    ctxs = [lm.store.build_context(sid) for sid in session_ids]
    n = len(ctxs)
    return {
        "messages": sum(len(c.recent_messages) for c in ctxs) / n,
        "pins": sum(len(c.pins) for c in ctxs) / n,
        "summaries": sum(len(c.summaries) for c in ctxs) / n,
        "tokens": sum(c.total_tokens for c in ctxs) / n,
    }
