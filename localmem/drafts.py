"""A summary ready to store: the record ``Summaries.store_summary`` takes, and the
user messages each of its must-remember items is built from (pure).

Both the summaries of new messages (``summaries``) and the model's summaries
redone in place of deterministic ones (``resummarize``) are stored as a
:class:`Draft`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .models import FactsData, Message, Summary
from .outcome import Outcome
from .testimony import fact_sources, user_evidence
from .updates import Update


def pin_sources(pins: Sequence[str], span: Sequence[Message]) -> list[tuple[str, tuple[int, ...]]]:
    """Each must-remember item with the ids of the user messages of ``span`` it is
    built from (``testimony.fact_sources``; none: it is not pinned): the first is its
    pin's ``source_message_id``, all are its ``pin_sources``, so that forgetting any
    one of them forgets the pin (``localmem.forget``)."""
    said = [m for m in span if m.role == "user"]
    evidence = user_evidence([(m.role, m.text) for m in said])
    found = [fact_sources(p, evidence) or () for p in pins]
    return [(p, tuple(said[i].id for i in ids)) for p, ids in zip(pins, found)]


class Draft(NamedTuple):
    """A summary to store (:meth:`Summaries.store_summary`): what wrote it, its range of
    message ids and how many messages it covers, its level; for level 1 its facts (and
    their source), the must-remember items with their source message ids and the facts
    that update earlier ones, and the messages each line of its facts rests on; ``replaces``: the summary it takes the place of;
    ``rolled``: for level 2, the ids of the level-1 summaries it rolled up; ``mark``: the
    session's forget mark read before what it was made from (``db.forget_mark``): a
    forget since then discards it; ``warnings``: the span's warnings the summary does not
    say, pinned with their messages; ``answer``: the model's answer when the store's own
    summary is stored in its place."""

    session_id: str
    outcome: Outcome
    start: int
    end: int
    count: int
    level: int
    facts: tuple[FactsData, str] | None = None
    pins: Sequence[tuple[str, tuple[int, ...]]] = ()
    updates: Mapping[str, Update] | None = None
    replaces: Summary | None = None
    rolled: Sequence[int] = ()
    mark: int = 0
    warnings: Sequence[tuple[str, tuple[int, ...]]] = ()
    """Warnings the span gave that the summary does not say, with their messages: pinned
    in the session (``summarizer.warned``)."""
    fact_sources: Mapping[str, Sequence[int]] | None = None
    """By the JSON path of each line of ``facts``, the messages of the span it rests on
    (``sources.facts_sources``): stored beside them (``fact_sources``)."""
    answer: Outcome | None = None
    """The model's answer this summary was made from, when ``outcome`` is the store's own
    summary stored in its place (``model_trust="earned"``, a model not yet trusted):
    its verdict is recorded and its text cached as if it had been stored."""
    facts_verdict: tuple[str, bool] | None = None
    """The model's facts answer's verdict, ``(model, kept whole)``, when it was asked and
    proposed something (``SpanFacts.summary_facts``): recorded with the summary."""
