"""Summary facts (origin 002): what a summarized span established.

Each level-1 summary keeps key facts, decisions, entities and open questions:
by the phrase rules of ``localmem.extract`` always, and, when the local model
wrote the summary, by the model in JSON mode (validated by pydantic, kept only
where grounded in the span, listed first). They are stored with the summary
(``summary_facts``) and found by ``store.search``. With auto pins on, the
same call asks for ``must_remember``: facts about the user that must never be
lost, kept only where the user's own messages ground them, and pinned
(``localmem.pins``) rather than stored with the facts. Which entities are names worth
keeping is ``localmem.entities``'. Pure functions; the store side is
``localmem.summaries``.

This module asks for the facts and assembles them (the prompts, :class:`ModelFacts`
and what of it is kept, the rules' facts, the stored row); whether one item stands on
the span as what its field is, is ``localmem.kinds``'; which must-remember items and
updates are kept, ``localmem.remember``'; what a fact about the user rests on,
``localmem.testimony``'.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic import field_validator

from . import extract as rules
from . import claims, roles, staleness, statements
from .answers import MAX_REFERENCES, Answer, merge_items, strings
from .grounding import Evidence
from .kinds import as_stored, unsupported
from .models import FactsData
from .testimony import THE_USER
from .words import NUMBER_WORDS, STOP_WORDS, stem, words

MAX_FACTS = 8

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


def rule_facts(found: rules.Extracted, texts: Sequence[str] = ()) -> FactsData:
    """A span's facts by the rules: statements with numbers or names, decisions,
    the names referenced, and the user's questions (the newest); without a count of
    what is left that the span's ``texts`` (its messages, in order) make stale
    (:func:`used_up`)."""
    entities = [n for kind in rules.REFERENCE_KINDS for n in found.references[kind]]
    return FactsData(
        key_facts=[f for f in found.facts if not used_up(f, texts)][:MAX_FACTS],
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

    def grounded(
        self, pairs: Sequence[tuple[str, str]], replaced: Sequence[str] = (),
        verdicts: list[tuple[str, str, str | None]] | None = None,
    ) -> FactsData:
        """The items the span's messages (``pairs``: the user's, the assistant's and a tool's
        records) support (``kinds.supported_item``), none of them a value the span replaced
        (``replaced``: the old sides of the updates kept); a key fact or a decision states its
        values as one sentence does (:func:`claims.values_apart`), no value a later message
        replaced (``staleness.stale``: "two more" after "it's three, not two"), no claim of
        every case its sentences make of one (:func:`claims.widens`) and no person given
        another's act, thing or name (``roles.miscast``: "Leila's husband" for the user's
        "my husband"). Each item is judged whole and stored clipped (``kinds.as_stored``);
        ``verdicts`` receives each as ``(field, item as stored, why it was dropped or None)``
        (the caps :data:`MAX_FACTS` and ``MAX_REFERENCES`` apply after)."""
        said = [(role, text) for role, text in pairs if role in ("user", "assistant", "tool")]
        texts = [text for _, text in said]
        evidence = Evidence(texts, conversation=texts)
        sentences = statements.by_sentence(texts)
        stale = {_said(old) for old in replaced} - {""}
        stated = claims.statements_of(said)

        def why(field: str, i: str) -> str | None:
            if _said(i) in stale:
                return "replaced"
            reason = unsupported(field, i, evidence, sentences, said)
            if reason is not None:
                return reason
            if used_up(i, texts):
                return "used up"
            if field not in ("key_facts", "decisions"):
                return None
            if claims.values_apart(i, stated):
                return "values apart"
            if staleness.stale(i, texts):
                return "replaced"
            if claims.widens(THE_USER.sub(" ", i), sentences):
                return "widens"
            return "miscast" if roles.miscast(i, said) else None

        def keep(field: str, items: list[str]) -> list[str]:
            return rules.unique(as_stored(items, lambda i: why(field, i), field, verdicts))

        return FactsData(
            key_facts=keep("key_facts", self.key_facts)[:MAX_FACTS],
            decisions=keep("decisions", self.decisions)[:MAX_FACTS],
            entities=keep("entities", self.entities)[:MAX_REFERENCES],
            open_questions=keep("open_questions", self.open_questions)[:MAX_FACTS],
        )


def _said(text: str) -> str:
    """What ``text`` says, to tell two statements of one fact: its words, numbers kept,
    stop words left out."""
    return " ".join(w for w in words(text) if w not in STOP_WORDS)



_LEFT = re.compile(
    r"\b(?:\d+|no|" + "|".join(NUMBER_WORDS) + r")\s+((?:[a-z]+\s+){0,2}?[a-z]+)\s+(?:left|remaining)\b",
    re.IGNORECASE,
)
"""A count of what is left: "has 1 refill left", "two pills remaining"."""


def used_up(item: str, texts: Sequence[str]) -> bool:
    """Whether ``item`` counts what is left of a thing ("has 1 refill left on the inhaler")
    and a message after the first one that says so reports that thing done ("Your inhaler
    refill is submitted"): the count is stale. Pure; never raises on any ``str``."""
    found = _LEFT.search(item)
    if found is None:
        return False
    thing = {stem(w) for w in words(found.group(1)) if w not in STOP_WORDS}
    first = next((i for i, t in enumerate(texts) if found.group(0).casefold() in t.casefold()), None)
    if first is None or not thing:
        return False
    return any(
        statements.status(sentence) == "done" and thing <= {stem(w) for w in words(sentence)}
        for text in texts[first + 1:]
        for sentence in rules.sentences(text)
    )



def facts_row(data: FactsData) -> tuple[str, str]:
    """(JSON, searchable text) of facts, as ``summary_facts`` stores them."""
    return data.model_dump_json(), facts_text(data)
