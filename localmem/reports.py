"""What the store reports back, as pydantic models (frozen, like the records).

What is remembered and where it came from (:class:`MemoryReport`, for
``MemoryStore.memory_report``); what maintenance did (:class:`MaintenanceReport`,
:class:`SessionCompaction`, :class:`ResummarizeReport`); what a file holds
(:class:`Stats`); one check of ``localmem doctor`` (:class:`Check`). ``localmem.models``
holds the rows these are built from (and ``ImportReport``, which ``localmem.errors`` names).
"""

from __future__ import annotations

from typing import Literal


from .models import Pin, Record, Session, Summary


class RememberedFact(Record):
    """One pin as :meth:`~localmem.MemoryStore.memory_report` shows it: the pin, and
    where it came from (the message it was taken from, that message's session and
    time; all None for a fact pinned by hand without a message)."""

    pin: Pin
    status: Literal["current", "superseded"]
    source_session_id: str | None
    source_session_title: str | None
    said_at: str | None


class SessionMemory(Record):
    """A session and its own pins, in the memory report."""

    session: Session
    facts: list[RememberedFact]


class MemoryReport(Record):
    """What localmem remembers: every fact of the user's (shown in every session), then
    every session's own, each with its provenance, current and superseded. ``to_text()``
    renders it for a person; ``model_dump()`` is its JSON."""

    generated_at: str
    user_facts: list[RememberedFact]
    sessions: list[SessionMemory]

    def to_text(self) -> str:
        lines = [f"What is remembered (as of {self.generated_at[:16].replace('T', ' ')} UTC)", ""]
        lines.append(f"About you, in every chat ({len(self.user_facts)}):")
        lines += [_fact_line(f) for f in self.user_facts] or ["  (nothing)"]
        for memory in self.sessions:
            title = memory.session.title or f"untitled, begun {memory.session.created_at[:10]}"
            lines += ["", f"In the chat {title!r} ({memory.session.id}), {len(memory.facts)}:"]
            lines += [_fact_line(f) for f in memory.facts] or ["  (nothing)"]
        return "\n".join(lines)


def _fact_line(fact: RememberedFact) -> str:
    pin = fact.pin
    how = "pinned by hand" if pin.kind == "manual" else "caught automatically"
    if fact.said_at is not None:
        where = f" from a message of {fact.said_at[:10]}"
        if fact.source_session_title or fact.source_session_id:
            where += f" in {fact.source_session_title or fact.source_session_id!r}"
        how += where
    else:
        how += f" on {pin.created_at[:10]}"
    if fact.status == "superseded":
        return f"  - #{pin.id} (no longer holds since {pin.superseded_at[:10]}) {pin.content}  [{how}]"
    return f"  - #{pin.id} {pin.content}  [{how}]"


class SessionCompaction(Record):
    """What :meth:`~localmem.MemoryStore.maintain` did to one idle session.

    ``level`` is 1 (light: idle a day), 2 (heavy: a week) or 3 (archival: a
    month; see ``MemoryConfig.compaction_ages``); ``summaries`` and
    ``rollups`` count the level-1 and level-2 summaries it wrote;
    ``through_message_id`` is the newest message it saw (the level holds
    until a newer one arrives).
    """

    session_id: str
    idle_days: float
    level: int
    previous_level: int
    summaries: int
    rollups: int
    through_message_id: int


class ResummarizeReport(Record):
    """The result of :meth:`~localmem.MemoryStore.resummarize`: how many
    deterministic summaries (``offline``, ``fallback``) were ``found``, those the
    model ``redone`` (the new summaries), how many are ``left``, and why
    (``reason``, None when none is left)."""

    found: int
    redone: list[Summary]
    left: int
    reason: str | None


class ModelTrust(Record):
    """One model's record for one ``kind`` of answer on this file
    (:meth:`~localmem.MemoryStore.model_trust`): how many answers of that kind (level-1
    summaries, checkpoints, facts) it ``answered`` here, how many of them the checks kept
    ``whole`` (a summary with no sentence dropped, items with none dropped), the same over
    its newest ``recent`` answers (``recent_whole``), and whether it has ``earned`` trust
    for that kind (``localmem.trust``): with ``model_trust="earned"`` what it writes of
    that kind is stored as its own only then."""

    model: str
    kind: Literal["summary", "checkpoint", "facts"]
    answered: int
    whole: int
    recent: int
    recent_whole: int
    earned: bool


class MaintenanceReport(Record):
    """The result of one :meth:`~localmem.MemoryStore.maintain` run.

    ``checked`` sessions were looked at; ``compacted`` lists those it changed
    (empty when run again with nothing new: maintenance is idempotent);
    ``resummarized`` is what the model redid of the deterministic summaries.
    """

    checked: int
    compacted: list[SessionCompaction]
    resummarized: ResummarizeReport | None = None


class Stats(Record):
    """What a file holds and how this process uses it (``MemoryStore.stats``).

    Counts are rows of the whole file. ``file_bytes`` is the main file plus
    its write-ahead log (0 for ``:memory:``). ``cache_*`` are this store's
    context cache since it was opened (``hit_rate`` None before any lookup).
    """

    path: str
    sessions: int
    messages: int
    summaries_by_level: dict[int, int]
    summaries_by_source: dict[str, int]
    pins_by_kind: dict[str, int]
    goals_by_status: dict[str, int]
    checkpoints: int
    file_bytes: int
    page_size: int
    page_count: int
    schema_version: int
    tokenizer: str
    tokenizer_exact: bool
    cache_hits: int
    cache_misses: int
    cache_hit_rate: float | None


class Check(Record):
    """One check of ``localmem doctor``: its ``name``, whether it passed and what it found.

    ``offline`` marks a failed check that only means no local model is there
    to use (no Ollama server, no model installed): localmem then works offline
    (deterministic summaries), which is fine; nothing is broken.
    """

    name: str
    ok: bool
    detail: str
    offline: bool = False
