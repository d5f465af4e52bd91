"""Summary facts (origin 002): what a summarized span established.

Each level-1 summary keeps key facts, decisions, entities and open questions:
by the phrase rules of ``localmem.extract`` always, and, when the local model
wrote the summary, by the model in JSON mode (validated by pydantic, kept only
where grounded in the span, listed first). They are stored with the summary
(``summary_facts``) and found by ``store.search``. Pure functions; the store
side is ``localmem.summaries``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import field_validator

from . import extract as rules
from .answers import Answer, merge_items, strings
from .checkpoint import MAX_REFERENCES
from .models import FactsData

MAX_FACTS = 8

FACTS_SYSTEM_PROMPT = """\
TASK: List what the conversation below established.

Return ONLY a JSON object: {"key_facts": [strings], "decisions": [strings], \
"entities": [strings], "open_questions": [strings]}. Short items, taken from the conversation; \
DO NOT invent anything; omit what is absent."""

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


def facts_messages(pairs: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
    conversation = "\n".join(f"{role}: {text}" for role, text in pairs)
    return [
        {"role": "system", "content": FACTS_SYSTEM_PROMPT},
        {"role": "user", "content": FACTS_INPUT_PROMPT.format(conversation=conversation)},
    ]


class ModelFacts(Answer):
    """A summary's facts as a local model answers them."""

    key_facts: list[str] = []
    decisions: list[str] = []
    entities: list[str] = []
    open_questions: list[str] = []

    _lists = field_validator("key_facts", "decisions", "open_questions", mode="before")(strings)

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


def facts_row(data: FactsData) -> tuple[str, str]:
    """(JSON, searchable text) of facts, as ``summary_facts`` stores them."""
    return data.model_dump_json(), facts_text(data)
