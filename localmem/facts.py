"""Summary facts (origin 002): what a summarized span established.

Each level-1 summary keeps key facts, decisions, entities and open questions:
by the phrase rules of ``localmem.extract`` always, and, when the local model
wrote the summary, by the model in JSON mode (validated by pydantic, kept only
where grounded in the span, listed first). They are stored with the summary
(``summary_facts``) and found by ``store.search``. With auto pins on, the
same call asks for ``must_remember``: facts about the user that must never be
lost, kept only where the user's own messages ground them, and pinned
(``localmem.pins``) rather than stored with the facts. Pure functions; the store
side is ``localmem.summaries``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic import field_validator

from . import extract as rules
from .answers import MAX_REFERENCES, Answer, merge_items, strings
from .grounding import Evidence, support
from .models import FactsData

MAX_FACTS = 8
MAX_MUST_REMEMBER = 3
"""Most auto pins the model adds per summary: each is shown in every context."""
_THE_USER = re.compile(r"\b(?:the\s+)?user(?:'s|\u2019s|s)?\b", re.IGNORECASE)
"""How a model names the user in a fact ("The user is allergic to ..."): no word to ground."""

FACTS_SYSTEM_PROMPT = """\
TASK: List what the conversation below established.

Return ONLY a JSON object: {"key_facts": [strings], "decisions": [strings], \
"entities": [strings], "open_questions": [strings]}. Short items, taken from the conversation; \
DO NOT invent anything; omit what is absent."""

# With auto pins on, the same call also asks what must never be lost.
MUST_REMEMBER_FACTS_SYSTEM_PROMPT = """\
TASK: List what the conversation below established.

Return ONLY a JSON object: {"key_facts": [strings], "decisions": [strings], \
"entities": [strings], "open_questions": [strings], "must_remember": [strings], \
"updates": [{"new": string, "old": string}]}. Short items, \
taken from the conversation; DO NOT invent anything; omit what is absent. "must_remember" holds \
only facts the USER stated about themselves or their people that must never be lost: \
allergies and health needs, names, dates and appointments, things they asked to remember, \
constraints; usually none. "updates" holds only a fact the USER stated that replaces an \
earlier one of theirs (a new address, a medicine stopped): "new" the fact now, "old" what \
it replaces; usually none."""

FACTS_INPUT_PROMPT = """\
Conversation:
{conversation}

Return JSON only:"""


def rule_facts(found: rules.Extracted) -> FactsData:
    """A span's facts by the rules: statements with numbers or names, decisions,
    the names referenced, and the user's questions (the newest)."""
    entities = [n for kind in rules.REFERENCE_KINDS for n in found.references[kind]]
    return FactsData(
        key_facts=found.facts[:MAX_FACTS],
        decisions=found.decisions[-MAX_FACTS:],
        entities=rules.unique(entities)[:MAX_REFERENCES],
        open_questions=found.questions[-MAX_FACTS:],
    )


def overlay_facts(rules_found: FactsData, model: FactsData) -> FactsData:
    """The model's facts first (it was asked for them), then what the rules found
    that the model did not say, within the caps."""
    return FactsData(
        key_facts=merge_items(model.key_facts, rules_found.key_facts, MAX_FACTS),
        decisions=merge_items(model.decisions, rules_found.decisions, MAX_FACTS),
        entities=merge_items(model.entities, rules_found.entities, MAX_REFERENCES),
        open_questions=merge_items(model.open_questions, rules_found.open_questions, MAX_FACTS),
    )


def facts_text(data: FactsData) -> str:
    """The facts as one searchable text (``summary_facts.text``), a line per kind."""
    parts = [
        f"{label}: {' | '.join(items)}"
        for label, items in (
            ("Key facts", data.key_facts),
            ("Decisions", data.decisions),
            ("Entities", data.entities),
            ("Open questions", data.open_questions),
        )
        if items
    ]
    return "\n".join(parts)


def facts_messages(
    pairs: Sequence[tuple[str, str]], must_remember: bool = False
) -> list[dict[str, str]]:
    """The JSON-mode chat asking for a span's facts (and, with ``must_remember``,
    the facts about the user that must never be lost)."""
    conversation = "\n".join(f"{role}: {text}" for role, text in pairs)
    system = MUST_REMEMBER_FACTS_SYSTEM_PROMPT if must_remember else FACTS_SYSTEM_PROMPT
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": FACTS_INPUT_PROMPT.format(conversation=conversation)},
    ]


class ModelFacts(Answer):
    """A summary's facts as a local model answers them."""

    key_facts: list[str] = []
    decisions: list[str] = []
    entities: list[str] = []
    open_questions: list[str] = []
    must_remember: list[str] = []
    updates: list[tuple[str, str]] = []

    _lists = field_validator(
        "key_facts", "decisions", "open_questions", "must_remember", mode="before"
    )(strings)

    @field_validator("updates", mode="before")
    @classmethod
    def _pairs(cls, value: Any) -> list[tuple[str, str]]:
        """``[{"new": ..., "old": ...}]``; anything else in it is left out."""
        items = value if isinstance(value, list) else []
        return [
            (item["new"], item["old"])
            for item in items
            if isinstance(item, dict)
            and isinstance(item.get("new"), str)
            and isinstance(item.get("old"), str)
        ]

    @field_validator("entities", mode="before")
    @classmethod
    def _flat(cls, value: Any) -> list[str]:
        if isinstance(value, dict):  # origin 002: {"companies": [...], "people": [...]}
            return [n for names in value.values() for n in strings(names)]
        return strings(value)

    def grounded(self, haystack: str) -> FactsData:
        def keep(items: list[str]) -> list[str]:
            items = [rules.clip(i, rules.ITEM_CHARS) for i in items if i.strip()]
            return [i for i in items if rules.grounded(i, haystack)]

        return FactsData(
            key_facts=keep(self.key_facts)[:MAX_FACTS],
            decisions=keep(self.decisions)[:MAX_FACTS],
            entities=keep(self.entities)[:MAX_REFERENCES],
            open_questions=keep(self.open_questions)[:MAX_FACTS],
        )


def user_evidence(pairs: Sequence[tuple[str, str]]) -> Evidence:
    """What a fact about the user may rest on: the user's own messages of a span, each
    one source (never a tool's output or the assistant's). No warning of the span
    blocks a fact (``grounding`` rule 4): the user may end their own ("I'm no longer
    allergic to penicillin"); the source's own polarity decides (rule 3)."""
    return Evidence([text for role, text in pairs if role == "user"])


def fact_sources(item: str, evidence: Evidence) -> tuple[int, ...] | None:
    """The indexes of the user's messages (``evidence``, :func:`user_evidence`) a fact
    is built from, with the same negation (``grounding.support``); None when they do
    not support it. "The user" in a model's fact stands for the speaker."""
    return support(_THE_USER.sub(" ", item), evidence)


def must_remember(answer: ModelFacts, evidence: Evidence) -> list[str]:
    """The model's must-remember items worth an auto pin, at most :data:`MAX_MUST_REMEMBER`:
    clipped, and supported by the user's own messages with the same negation
    (:func:`fact_sources`): "I am no longer allergic to penicillin" is no fact of a
    user who said "I'm allergic to penicillin", whatever a tool's output said."""
    items = [rules.clip(i, rules.ITEM_CHARS) for i in answer.must_remember]
    kept = [i for i in items if fact_sources(i, evidence) is not None]
    return rules.unique(kept)[:MAX_MUST_REMEMBER]


def model_updates(answer: ModelFacts, evidence: Evidence) -> list[tuple[str, str]]:
    """The model's updates worth acting on, at most :data:`MAX_MUST_REMEMBER`: the new
    fact supported by the user's own messages as a must-remember item is (so an
    update that ends a health fact needs the user's own words, with its negation),
    and both sides with content words. Which earlier pin the ``old`` side means is
    the store's to find (``updates.model_update``)."""
    kept = [
        (rules.clip(new, rules.ITEM_CHARS), old)
        for new, old in answer.updates
        if rules.content_words(old) and fact_sources(new, evidence) is not None
    ]
    return kept[:MAX_MUST_REMEMBER]


def facts_row(data: FactsData) -> tuple[str, str]:
    """(JSON, searchable text) of facts, as ``summary_facts`` stores them."""
    return data.model_dump_json(), facts_text(data)
