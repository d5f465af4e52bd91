"""The warnings a span gave that its stored summary does not say: they must not be lost.

A summary is read in place of its messages. When the conversation warned of something (a
drug interaction, an allergy, a danger) and the summary that is kept (the model's, however
completed, or the deterministic one) does not say it, the warning would survive only in
raw messages that later contexts no longer show. :func:`unsaid_warnings` finds them so
that the store can pin each one with its message as the pin's source (forgetting the
message forgets the pin; ``localmem.summaries``).

A warning is a statement (not a question) of a user or assistant turn that
``salient`` reads as a warning (``warning``: "never"/"avoid" about a medicine...) and that
warns against something (``grounding.negated_words``: "don't give her ibuprofen") or names
a danger ("interact", "bleeding", "poison"), or that ``salient`` reads as an allergy with
something it negates ("allergic to penicillin"; not "my asthma inhaler"). Advice that only
mentions side effects is none. A summary says it when it names one of
the warning's anchors for each of those kinds (``salient.dropped_kinds``: what is warned
against, the allergen), and does not name what a warning warns against without a negation
of its own ("has been taking ibuprofen" does not say "She should stop the ibuprofen"). Pure; never raises on any ``str``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from ..changes import sentences
from ..grounding import negated_words
from ..staleness import stale
from ..words import stem, words
from .salient import DANGER_PREFIXES, Fact, complete, dropped_kinds, facts_of

MAX_WARNINGS: Final = 3
"""At most this many warnings are kept for one summary, the strongest first."""
_KINDS: Final = frozenset({"warning", "allergy"})


def unsaid_warnings(summary: str, pairs: Sequence[tuple[str, str]]) -> list[tuple[str, int]]:
    """``(warning sentence, index of its turn in pairs)`` for each warning of ``pairs`` that
    ``summary`` does not say, at most :data:`MAX_WARNINGS`, in conversation order."""
    found: list[tuple[Fact, int]] = []
    texts = [text for role, text in pairs if role.strip().casefold() != "system"]
    for index, (role, text) in enumerate(pairs):
        if role.strip().casefold() not in ("user", "assistant"):
            continue  # a tool's record ("Allergies: none recorded") is no warning given
        # read against the whole conversation: a warning a later turn made untrue is none
        for fact in facts_of([(role, text)], lambda clause, _: stale(clause, texts)):
            if not fact.text.endswith("?") and _is_warning(fact):
                missing = set(dropped_kinds(summary, [fact])) & fact.kinds & _KINDS
                if missing or _reverses(summary, fact):
                    found.append((fact, index))
    found.sort(key=lambda pair: (-pair[0].score, pair[1]))
    kept = sorted(found[:MAX_WARNINGS], key=lambda pair: pair[1])
    return [(named(fact.text, pairs[index][1]), index) for fact, index in kept]


_IMPERSONAL = r"(?!\s*(?:'s|\s+is)\s+(?:not|worth|best|important|safe)\b)"
_POINTS_BACK = re.compile(
    rf"^\W*(?:it|they|this|these|those)\b{_IMPERSONAL}|\b(?:it|them)\b{_IMPERSONAL}", re.IGNORECASE
)
"""A sentence that stands on a pronoun: its subject ("It makes the liver clear ... faster")
or an "it"/"them" anywhere ("Most dentists don't stop it for a single extraction"); not an
impersonal "it" ("It's worth asking", "It is best to ...")."""


def named(warning: str, turn: str) -> str:
    """``warning`` (a sentence of ``turn``) as a pin reads it alone: when it stands on a
    pronoun ("It makes the liver clear a number of medicines faster ..."), the sentence of
    its turn before it, which names what the pronoun stands for ("The St John's wort is
    worth raising with his GP as well."), comes first; else the warning as it is."""
    if _POINTS_BACK.search(warning) is None:
        return warning
    at = turn.find(warning)
    before = sentences(turn[:at]) if at > 0 else []
    return f"{before[-1].strip()} {warning}" if before else warning


def complete_or_pin(summary: str, pairs: Sequence[tuple[str, str]], limit: int) -> str | None:
    """``summary`` completed with the span's safety-relevant facts it drops
    (``salient.complete``), or None when they do not fit within ``limit`` characters.

    A warning the summary lacks is pinned by the store (:func:`unsaid_warnings`: a pin holds
    it, its message the pin's source), so when the whole completion does not fit, the
    warnings are left to their pins and only the other kinds must fit: a faithful summary
    is not thrown away for a warning that is kept anyway ("I'm no longer vegetarian" pinned
    beside a 245-character summary of a chat about a puzzle)."""
    facts = facts_of(pairs, stale)
    completed = complete(summary, facts, limit)
    if completed is not None:
        return completed
    pinned = [text for text, _ in unsaid_warnings(summary, pairs)]
    if not pinned:
        return None
    return complete(summary, [f for f in facts if not any(p.endswith(f.text) for p in pinned)], limit)


def _is_warning(fact: Fact) -> bool:
    """A warning against something (a negated word) or naming a danger; an allergy to
    something. Not advice that merely mentions side effects."""
    against = bool(negated_words(fact.text))
    if "warning" in fact.kinds:
        return against or any(w.startswith(DANGER_PREFIXES) for w in words(fact.text))
    return "allergy" in fact.kinds and against


def _reverses(summary: str, fact: Fact) -> bool:
    """Whether ``summary`` names what the warning ``fact`` warns against without warning
    against it ("has been taking ibuprofen" for "She should stop the ibuprofen"): naming
    the object is then no saying of the warning."""
    if "warning" not in fact.kinds:
        return False
    against = {stem(w) for w in negated_words(fact.text)}
    named = against.intersection(stem(w) for w in words(summary))
    return bool(named) and named.isdisjoint(stem(w) for w in negated_words(summary))


def said_in(warning: str, texts: Sequence[str]) -> bool:
    """Whether one of ``texts`` (pins already kept, say) says ``warning`` (by its anchors)."""
    joined = " ".join(texts)
    facts = facts_of([("user", warning)], stale)
    warns = [f for f in facts if f.kinds & _KINDS] or facts  # a warning pinned with the sentence naming its subject
    return any(not (set(dropped_kinds(joined, [fact])) & fact.kinds & _KINDS) for fact in warns)
