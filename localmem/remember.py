"""What of a model's must-remember items and updates is kept (``localmem.facts``
asks for them with a summary's facts): a fact about the user worth an auto pin rests
on the user's own words (``localmem.testimony``), lasts (no moment, no step nor plan
for a day), states its values as one sentence does and is not replaced later; an
update replaces what came before it. Pure functions; ``localmem.summaries`` pins
them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from . import extract as rules
from . import claims, entities, replies, roles, staleness, statements, verbs
from .grounding import Evidence
from .kinds import a_statement, as_stored
from .testimony import THE_USER, fact_sources
from .words import TIME_WORDS, stem, tokens, words

if TYPE_CHECKING:
    from .facts import ModelFacts

MAX_MUST_REMEMBER = 3
"""Most auto pins the model adds per summary: each is shown in every context."""


_OF_THE_MOMENT = re.compile(
    r"\bago\b|\b(?:right|just) now\b|\b(?:is|are|am|'s|'re|'m) \w+ing (?:right )?now\b", re.IGNORECASE
)
"""What holds only as it is said ("ate it 20 minutes ago", "is sleeping now"): no fact to
keep in every chat ("from now on" is lasting)."""


_ROUTINE = frozenset("every each always never daily weekly nightly monthly".split())
"""Words that make an action a standing rule ("take warfarin every evening", "never give
her ibuprofen"), not one step."""


def _a_step(item: str) -> bool:
    """Whether ``item`` is a step of a plan rather than a lasting fact: something to do
    (it opens with a verb: ``verbs.opens_with_verb``) on a day or at a time
    (:data:`words.TIME_WORDS`: "call radiology tomorrow to confirm ...", "book the table
    for Friday"), not a standing rule (:data:`_ROUTINE`: "take warfarin every evening";
    "from now on"). The checkpoint holds next steps; a pin is shown in every chat."""
    said = words(item)
    return (
        verbs.opens_with_verb(item) and not TIME_WORDS.isdisjoint(said)
        and _ROUTINE.isdisjoint(said) and "from now on" not in " ".join(said)
    )


_FIRST_PERSON: Final = frozenset("i we i'll we'll i'm we're let's i've we've i'd we'd".split())
_THIRD_PERSON: Final = frozenset("he she they it he's she's they're it's he'll she'll they'll".split())


def _own_plan(sentence: str) -> bool:
    """Whether ``sentence``, a plan, is the writer's own doing: said in the first person
    ("I'll drive her there on Thursday"), or as a bare answer with no subject nor verb ("The
    farmers market on Saturday morning, then maybe a movie."); not a thing's date ("The
    scan is on Thursday at 9:15") nor one someone else set ("They want to see him again
    tomorrow at 9 am")."""
    said = set(words(sentence))
    if not _FIRST_PERSON.isdisjoint(said):
        return True
    return _THIRD_PERSON.isdisjoint(said) and not verbs.names_action(sentence)


def _a_plan(item: str, sentences: Evidence) -> bool:
    """Whether ``item`` is the user's plan for a day rather than a lasting fact: it names a
    day or a time (:data:`words.TIME_WORDS`), no standing rule (:data:`_ROUTINE`), and every
    sentence of the user's (``sentences``: ``statements.by_sentence``) stating it is a plan of their own
    (``statements.status``, :func:`_own_plan`: "The farmers market on Saturday morning,
    then maybe a movie.", an answer to "Any plans for the weekend?"), not what was fixed ("I
    booked her GP for Thursday at 9:15", "The scan is on Thursday at 9:15") nor set by
    others."""
    said = words(item)
    if TIME_WORDS.isdisjoint(said) or not _ROUTINE.isdisjoint(said) or "from now on" in " ".join(said):
        return False
    support = sentences.supporting(THE_USER.sub(" ", item))
    return bool(support) and all(statements.status(s) == "plan" and _own_plan(s) for s in support)



def must_remember(
    answer: ModelFacts, evidence: Evidence, conversation: Sequence[tuple[str, str]] = (),
    verdicts: list[tuple[str, str, str | None]] | None = None,
) -> list[str]:
    """The model's must-remember items worth an auto pin, at most :data:`MAX_MUST_REMEMBER`:
    clipped, lasting (not of the moment they were said: :data:`_OF_THE_MOMENT`; no step
    nor the user's own plan for a day: :func:`_a_step`, :func:`_a_plan`), stating
    something (not things only named: ``entities.bare_name``, ``entities.names_things``) and
    supported by the user's own messages with the same negation (``testimony.fact_sources``):
    "I am no longer allergic to penicillin" is no fact of a user who said "I'm allergic to
    penicillin", whatever a tool's output said; with its values as one sentence of theirs
    says them (:func:`claims.values_apart`), none a later message of theirs replaced
    (``staleness.stale``), not widened to every case (:func:`claims.widens`), and no
    person given another's act, thing or name by the ``conversation``'s ``(role, text)``
    turns (``roles.miscast``), as the summary's facts are held. Each is judged whole and
    stored clipped; ``verdicts`` receives each as ``(field, item, why dropped or None)``."""
    sentences = statements.by_sentence(evidence.sources)

    def why(i: str) -> str | None:
        if _OF_THE_MOMENT.search(i):
            return "of the moment"
        if _a_step(i):
            return "a step"
        if not a_statement(i, evidence.sources):
            return "no statement"
        if entities.bare_name(i, evidence.sources) or entities.names_things(i) or entities.a_measure(i):
            return "only names"
        if replies.only_drafted(THE_USER.sub(" ", i), evidence.sources, False):
            return "only drafted"  # "She kept the orchard..." of "Here's my first line: '...'"
        if fact_sources(i, evidence) is None:
            return evidence.check(THE_USER.sub(" ", i)) or "not supported by the user's messages"
        if claims.values_apart(i, sentences.sources):
            return "values apart"
        if staleness.stale(i, evidence.sources):
            return "replaced"
        if claims.widens(THE_USER.sub(" ", i), sentences):
            return "widens"
        if _a_plan(i, sentences):
            return "a plan"
        return "miscast" if roles.miscast(i, conversation) else None

    return rules.unique(as_stored(answer.must_remember, why, "must_remember", verdicts))[:MAX_MUST_REMEMBER]



def _topic(text: str) -> set[str]:
    """The stems of ``text``'s content words, read by index token ("visibility_timeout" is
    "visibility" and "timeout")."""
    return {stem(w) for w in rules.content_words(" ".join(tokens(text)))}


def _names(text: str) -> list[str]:
    """The words ``text`` writes as names: capitalised past its first word (whose capital the
    start may owe), "I" aside."""
    return [w for w in text.split()[1:] if w[:1].isupper() and w.strip(".,;:!?") != "I"]


def _same_thing(new: str, old: str, evidence: Evidence) -> bool:
    """Whether an update's ``new`` side is about what its ``old`` side is: they share a
    content word ("visibility_timeout set to 43200 <- default visibility timeout"), or
    each is one value (a single word with a digit: "amberlake42 <- bluefox77") and the user's sentences
    stating the two share what they are values of ("My new wifi password is amberlake42",
    "the wifi password is bluefox77"). "Bump the healthcheck to 16 <- Postgres version 15"
    and "Portree <- Historic Scotland Explorer Pass" are two things, nothing replaced; or each
    names something (:func:`_names`: "The family is settled in Leeds since March <- I live in
    Bristol", one place for another)."""
    mine, theirs = _topic(new), _topic(old)
    if mine & theirs or (_names(new) and _names(old)):
        return True
    if not all(len(side.split()) == 1 and any(c.isdigit() for c in side) for side in (new, old)):
        return False  # "amberlake42 <- hall": a value does not replace a word
    sentences = statements.by_sentence(evidence.sources)

    def of(value: str, own: set[str]) -> set[str]:
        return {w for s in sentences.sources if value.casefold() in s.casefold() for w in _topic(s)} - own

    return bool(of(new, mine) & of(old, theirs))


def model_updates(
    answer: ModelFacts, evidence: Evidence, verdicts: list[tuple[str, str, str | None]] | None = None,
) -> list[tuple[str, str]]:
    """The model's updates worth acting on, at most :data:`MAX_MUST_REMEMBER`: the new
    fact supported by the user's own messages as a must-remember item is (so an
    update that ends a health fact needs the user's own words, with its negation),
    both sides with content words, and an update at all: what it replaces comes first, and
    when the user's messages say it, the new side is about the same thing (:func:`_same_thing`:
    not "Portree <- Historic Scotland Explorer Pass").
    When the user's messages say the ``old`` side, they say all of it before the new one
    ("amberlake42 <- printer", the printer named after the new password, replaces
    nothing); when they do not (a fact pinned in another chat), a sentence stating the
    new one says a change ("new", "changed", "no longer": ``statements.CHANGE_WORDS``). Which earlier
    pin the ``old`` side means is the store's to find (``updates.model_update``).
    ``verdicts`` receives each as ``("updates", "new <- old", why dropped or None)``."""

    def why(new: str, old: str) -> str | None:
        found = fact_sources(new, evidence)
        if found is None:
            return "not supported by the user's messages"
        if not rules.content_words(old):
            return "replaces nothing"
        before = fact_sources(old, evidence)
        if before is not None and not _same_thing(new, old, evidence):
            return "not about what it replaces"
        if before is None:
            stating = statements.by_sentence([evidence.sources[i] for i in found]).supporting(new)
            if all(statements.CHANGE_WORDS.isdisjoint(words(s)) for s in stating):
                return "no change said"
        elif max(before) >= min(found):
            return "said before what it replaces"
        return None

    kept = []
    for new, old in answer.updates:
        reason = why(new, old)
        if verdicts is not None:
            verdicts.append(("updates", f"{rules.clip(new, rules.ITEM_CHARS)} <- {old}", reason))
        if reason is None:
            kept.append((rules.clip(new, rules.ITEM_CHARS), old))
    return kept[:MAX_MUST_REMEMBER]

