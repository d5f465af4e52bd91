"""A summary ready to store: the record ``Summaries.store_summary`` takes, and the
message each of its must-remember items is grounded in (pure).

Both the summaries of new messages (``summaries``) and the model's summaries
redone in place of deterministic ones (``resummarize``) are stored as a
:class:`Draft`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .facts import grounding_text
from .models import FactsData, Message, Summary
from .outcome import Outcome
from .updates import Update


def pin_sources(pins: Sequence[str], span: Sequence[Message]) -> list[tuple[str, int | None]]:
    """Each must-remember item with the id of the user message of ``span`` it is
    grounded in (``facts.grounding_text``): its pin's ``source_message_id``, so that
    forgetting the message forgets the pin (``localmem.forget``)."""
    said = [m for m in span if m.role == "user"]
    found = [grounding_text(p, [m.text for m in said]) for p in pins]
    return [(p, None if i is None else said[i].id) for p, i in zip(pins, found)]


class Draft(NamedTuple):
    """A summary to store (:meth:`Summaries.store_summary`): what wrote it, its range of
    message ids and how many messages it covers, its level; for level 1 its facts (and
    their source), the must-remember items with their source message ids and the facts
    that update earlier ones; ``replaces``: the summary it takes the place of;
    ``rolled``: for level 2, the ids of the level-1 summaries it rolled up."""

    session_id: str
    outcome: Outcome
    start: int
    end: int
    count: int
    level: int
    facts: tuple[FactsData, str] | None = None
    pins: Sequence[tuple[str, int | None]] = ()
    updates: Mapping[str, Update] | None = None
    replaces: Summary | None = None
    rolled: Sequence[int] = ()
