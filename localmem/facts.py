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
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Final

from pydantic import field_validator

from . import extract as rules
from . import claims, entities, replies, roles, staleness, statements, verbs
from .answers import MAX_REFERENCES, Answer, merge_items, strings
from .grounding import SUPPORT_SHARE, Evidence, support
from .models import FactsData
from .words import (
    NUMBER_WORDS,
    STOP_WORDS,
    TIME_WORDS,
    WISH,
    stem,
    value,
    words,
)

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
        records) support (:func:`supported_item`), none of them a value the span replaced
        (``replaced``: the old sides of the updates kept); a key fact or a decision states its
        values as one sentence does (:func:`claims.values_apart`), no value a later message
        replaced (``staleness.stale``: "two more" after "it's three, not two"), no claim of
        every case its sentences make of one (:func:`claims.widens`) and no person given
        another's act, thing or name (``roles.miscast``: "Leila's husband" for the user's
        "my husband"). Each item is judged whole and stored clipped (:func:`_as_stored`);
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
            if claims.widens(_THE_USER.sub(" ", i), sentences):
                return "widens"
            return "miscast" if roles.miscast(i, said) else None

        def keep(field: str, items: list[str]) -> list[str]:
            return rules.unique(_as_stored(items, lambda i: why(field, i), field, verdicts))

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


def supported_item(
    field: str, item: str, evidence: Evidence, sentences: Evidence, said: Sequence[tuple[str, str]]
) -> bool:
    """Whether a model's facts ``item`` for ``field`` stands on the span: :func:`unsupported`
    finds no reason it does not."""
    return unsupported(field, item, evidence, sentences, said) is None


def unsupported(
    field: str, item: str, evidence: Evidence, sentences: Evidence, said: Sequence[tuple[str, str]]
) -> str | None:
    """Why a model's facts ``item`` for ``field`` does not stand on the span (None: it does), as a checkpoint's
    items do (``localmem.grounding``: most of its words in one message, with its negations,
    no warning flipped; "the user" stands for the speaker), and as what its field is:

    - a key fact is a statement, never one bare token ("44", "bluefox77": a value without
      what it is the value of) nor things only named (``entities.bare_name``,
      ``entities.names_things``: "bleach and limescale spray");
    - a decision is not one nobody made: not every sentence it stands on offers a choice,
      states a generality or reports what someone else did (``statements.undecided``:
      "you can take the train back, or stay", "They gave him activated charcoal");
    - an entity is a name: it has a letter, holds no preposition nor clause ("day trip to
      Lake Como", "pay off the credit card" are phrases about things), and its words stand
      together, in order, in one message ("the dog's weight" is said nowhere);
    - an open question was asked (a question in a message holds most of its words) and
      is still open: no one else wrote after it;
    - an entity is no time ("Saturday", "Saturday morning", "rent due fri": when, not
      what), and a word it writes as a name is written so in the span, which writes it
      in lower case otherwise ("Bank" of "my bank, Harbor Credit Union");
    - an entity of common words names a particular thing of the span
      (``entities.is_entity``: "the router" that is a Fritz!Box, "my car repair savings",
      not "water", "knees", "sister" or "stretch", nor an everyday "the kitchen");
    - a key fact or a decision does not give one thing's description to another
      ("Sintra is hilly" of "Alfama is hilly", :func:`_subject_kept`);
    - a decision names what is decided, not only when ("will do thurs night"), states
      something of it (not a bare name: "shrimp allergy", :func:`entities.bare_name`), and one
      only suggested to the user ("try a tasca in Mouraria") is theirs only once they took
      it up (:func:`_taken_up`: "Great, we booked the flights too" answers with something
      else), and one turned down is none (:func:`_refused`: "You could: ..." "Actually no,
      leave it out").
    """
    plain = _THE_USER.sub(" ", item)
    texts = [text for _, text in said]
    if field == "open_questions":
        return None if _still_open(item, said) else "not an open question"
    if not _a_statement(item, texts):
        return "no statement"
    if field == "entities":
        if not entities.is_entity(item, said):
            return "not an entity"
        return "a clause" if _a_clause(item, texts) else None
    reason = evidence.check(plain)
    if reason is not None:
        return reason
    if any(verbs.drops_the_action(plain, s) for s in sentences.supporting(plain)):
        return "drops the action"  # "Pena Palace tickets online" of "Book Pena Palace tickets online"
    if field in ("key_facts", "decisions") and not _subject_kept(plain, sentences.supporting(plain)):
        return "subject swapped"
    if field in ("key_facts", "decisions") and replies.only_drafted(plain, texts, False):
        # "Daniel is the brother who taught Sam..." of "Here's my opening line: '...'"; a
        # speech quoted whole states the facts the user gave ("Nine years ago Dominic joined")
        return "only drafted"
    if field in ("key_facts", "decisions") and _only_corrected(plain, sentences.supporting(plain), said):
        return "corrected"  # "stretch before every run" of "...right?" "Not quite. ... stretching for after."
    if field == "key_facts":
        if len(item.split()) < 2 or entities.bare_name(plain, texts) or entities.names_things(plain):
            return "only names"
        return None
    if field == "decisions":
        support = sentences.supporting(plain)
        if support and all(map(statements.undecided, support)):
            return "undecided"
        if not any(w not in TIME_WORDS and w not in STOP_WORDS for w in words(plain)):
            return "only when"  # "will do thurs night": when, and nothing of what
        if entities.bare_name(plain, texts):
            return "only names"  # "shrimp allergy": a thing named, nothing decided of it
        if not _taken_up(plain, sentences, said):
            return "not taken up"
        if _refused(support, said):
            return "ruled out"
        if _reports_another(plain):
            return "a report"  # "Liam's ankle is swollen", "Liam lost the bet": no choice
        if not (verbs.opens_with_verb(plain) or any(map(statements.decides, support))):
            return "no decision stated"
    return None


_CONTRACTED = re.compile(r"^\W*([A-Z][\w-]*)['\u2019]s\s+(\w+ing)\W*$")
"""An entity that may be a clause cut short: a name, "'s" and an "-ing" word ("Liam's buying")."""


def _a_clause(item: str, texts: Sequence[str]) -> bool:
    """Whether an entity ``item`` ("Liam's buying") is the start of a clause the ``texts``
    say ("Liam's buying the first round": "'s" is "is", the "-ing" word a verb taking an
    object: ``verbs.opens_with_verb``), not a thing of that person's ("Liam's painting is on
    the wall" names one)."""
    found = _CONTRACTED.match(item)
    if found is None:
        return False
    said = re.compile(rf"\b{re.escape(found.group(1))}['\u2019]s\s+({re.escape(found.group(2))}\b[^.;:!?\n]*)", re.I)
    return any(verbs.opens_with_verb(m.group(1)) for text in texts for m in said.finditer(text))


_ANOTHER = re.compile(
    r"^\W*(?P<subject>he|she|they|[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?(?:['\u2019]s\s+[a-z]+)?)\s+(?:(?:just|already|now|also|still|finally)\s+)?"
    r"(?:is|are|was|were|has|had|lost|won|got|went|made|took|bought|said|told|left|came|\w+ed)\b"
    r"(?!\s+(?:to|going to|about to)\b)"
    r"|^\W*(?P<contracted>[A-Z][\w-]*)['\u2019]s\s+\w+ing\b",
)
"""A statement whose subject is someone or something named (a name, "Liam's ankle", he, she,
they: never the user, "I" or "we") and
whose verb says what is or what happened: a state, a past act, an act under way ("Liam's
ankle is swollen", "Liam lost the bet", "Jess is joining the team", "Liam's buying the
first round"). Not a future or an intention ("Dan will run a warm up", "Margaret plans to
..."), nor the present of a habit, which may be what was chosen for someone ("Marta uses
past tense" of a story's heroine, "Henry takes nitrofurantoin for 5 days"). A thing's
name reads as a person's: "Swift Move is the better deal" would be a report too (no model
proposed it as a decision of the facts; as a checkpoint decision it is true, so checkpoints
do not use this).
"""


def _reports_another(item: str) -> bool:
    """Whether ``item`` reports another person's state or act (:data:`_ANOTHER`) rather than
    a choice: what someone is, did or is doing is a fact, not a decision. The subject is
    no function word ("The river keeps your name") and no verb ("Watch replication lag")."""
    found = _ANOTHER.search(item)
    if found is None:
        return False
    subject = (found.group("subject") or found.group("contracted")).split("'")[0].split("\u2019")[0]
    first = subject.split()[0].casefold()
    return first in ("he", "she", "they") or (
        first not in STOP_WORDS and first not in verbs.ACTION_VERBS and not verbs.opens_with_verb(item)
    )


def _only_corrected(item: str, support: Sequence[str], said: Sequence[tuple[str, str]]) -> bool:
    """Whether every sentence ``support`` (those stating ``item``) is in a message that
    refuses the one it answers, which said the item (``replies.corrects``: "Not quite.
    ..."): the chat stated it only to correct it."""
    texts = dict(enumerate(text for _, text in said))
    roles = [role for role, _ in said]
    owners = {k for k, text in texts.items() for sentence in support if sentence in text}
    return bool(owners) and all(replies.corrects(item, k, texts, roles) for k in owners)


def _refused(support: Sequence[str], said: Sequence[tuple[str, str]]) -> bool:
    """Whether every sentence of ``support`` (those stating a decision) is advised against
    where it is said or refused by the answer to its message (``replies.ruled_out``, as a
    checkpoint's decision is held: "You could: a line like ... would get a laugh." "Actually
    no, leave it out"): a choice turned down is no decision."""
    sentences: list[str] = []
    answers: list[str | None] = []
    for sentence in support:
        for k, (role, text) in enumerate(said):
            if sentence in text:
                reply = said[k + 1] if k + 1 < len(said) else None
                sentences.append(sentence)
                answers.append(reply[1] if reply is not None and reply[0] != role else None)
    return replies.ruled_out(sentences, answers)


def _taken_up(item: str, sentences: Evidence, said: Sequence[tuple[str, str]]) -> bool:
    """Whether ``item`` (a decision) is the user's: said in a message of theirs, or
    advice as given ("Set up an automatic transfer on payday"), or, when every sentence
    stating it only suggests it (``replies.suggests``: "For dinner, try a tasca in
    Mouraria"), taken up by the user's answer (``replies.takes_up``: "Sure, the tasca
    it is"; "Try setting a fixed channel." "I set it to channel 44")."""
    support = sentences.supporting(item)
    if not support or not all(map(replies.suggests, support)):
        return True
    for index, (role, text) in enumerate(said):
        if not any(sentence in text for sentence in support):
            continue
        if role == "user":
            return True
        reply = said[index + 1] if index + 1 < len(said) else None
        if reply is None or reply[0] != "user":
            continue
        if replies.takes_up(reply[1], item):
            return True
    return False


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


_COPULA = frozenset({"is", "are", "was", "were"})


def _subject_kept(item: str, support: Sequence[str]) -> bool:
    """For "X is Y", whether some supporting sentence does not turn it round: in the
    clause holding most of the item's words, a clause that says "... is ...", X's words
    must come before its "is" ("theobromine is the most dangerous kind of chocolate" does
    not stand on "Dark chocolate is the most dangerous kind because of its theobromine",
    nor "quartz is the hardest countertop" on "Granite is the hardest countertop")."""
    said = words(item)
    cut = next((i for i, w in enumerate(said) if w in _COPULA), None)
    if not cut:
        return True
    subject = {w for w in said[:cut] if w not in STOP_WORDS}
    wanted = {w for w in said if w not in STOP_WORDS}
    for sentence in support:
        # the clause saying "... is ..." that holds most of the item ("Alfama is hilly" of
        # "Alfama is hilly but charming, and close to the old town": its subject is Alfama)
        stating = [c for c in statements.clauses(sentence) if _COPULA.intersection(words(c))]
        if not stating:
            return True
        clause = max(stating, key=lambda c: len(wanted.intersection(words(c))))
        found = words(clause)
        at = next(i for i, w in enumerate(found) if w in _COPULA)
        if not wanted.intersection(found) or subject.intersection(found[:at]):
            return True
    return not support


def _still_open(item: str, said: Sequence[tuple[str, str]]) -> bool:
    asked = set(rules.content_words(item))
    if not asked:
        return False
    for index, (role, text) in enumerate(said):
        for sentence in rules.sentences(text):
            if not sentence.rstrip().endswith("?"):
                continue
            share = len(asked.intersection(rules.content_words(sentence))) / len(asked)
            if share >= SUPPORT_SHARE and all(r == role for r, _ in said[index + 1:]):
                return True
    return False


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
    support = sentences.supporting(_THE_USER.sub(" ", item))
    return bool(support) and all(statements.status(s) == "plan" and _own_plan(s) for s in support)


def _a_statement(item: str, messages: Sequence[str]) -> bool:
    """Whether ``item`` states something at all: not a question, not filler ("thx", "k"),
    not a wish (``words.WISH``: "reward yourself with a salad"), not a copied line of the
    transcript (``statements``)."""
    return (not statements.is_question(item) and statements.has_content(item)
            and WISH.search(item) is None and not statements.copied_line(item, messages))


def must_remember(
    answer: ModelFacts, evidence: Evidence, conversation: Sequence[tuple[str, str]] = (),
    verdicts: list[tuple[str, str, str | None]] | None = None,
) -> list[str]:
    """The model's must-remember items worth an auto pin, at most :data:`MAX_MUST_REMEMBER`:
    clipped, lasting (not of the moment they were said: :data:`_OF_THE_MOMENT`; no step
    nor the user's own plan for a day: :func:`_a_step`, :func:`_a_plan`), stating
    something (not things only named: ``entities.bare_name``, ``entities.names_things``) and
    supported by the user's own messages with the same negation (:func:`fact_sources`):
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
        if not _a_statement(i, evidence.sources):
            return "no statement"
        if entities.bare_name(i, evidence.sources) or entities.names_things(i):
            return "only names"
        if fact_sources(i, evidence) is None:
            return evidence.check(_THE_USER.sub(" ", i)) or "not supported by the user's messages"
        if claims.values_apart(i, sentences.sources):
            return "values apart"
        if staleness.stale(i, evidence.sources):
            return "replaced"
        if claims.widens(_THE_USER.sub(" ", i), sentences):
            return "widens"
        if _a_plan(i, sentences):
            return "a plan"
        return "miscast" if roles.miscast(i, conversation) else None

    return rules.unique(_as_stored(answer.must_remember, why, "must_remember", verdicts))[:MAX_MUST_REMEMBER]


def _as_stored(
    items: Sequence[str], why: Callable[[str], str | None], field: str,
    verdicts: list[tuple[str, str, str | None]] | None = None,
) -> list[str]:
    """``items`` as stored (clipped to ``extract.ITEM_CHARS``), those for which ``why`` finds
    no reason to drop, clipped and whole: what the clip cuts off is still what the model
    claimed ("... If Marco pays the balance ..." past the cut), and the line stored must stand
    as it is shown. ``verdicts`` receives ``(field, item as stored, why dropped or None)``."""
    out = []
    for item in items:
        if not item.strip():
            continue
        clipped = rules.clip(item, rules.ITEM_CHARS)
        reason = why(clipped) or (None if clipped == item else why(item))
        if verdicts is not None:
            verdicts.append((field, clipped, reason))
        if reason is None:
            out.append(clipped)
    return out


def model_updates(answer: ModelFacts, evidence: Evidence) -> list[tuple[str, str]]:
    """The model's updates worth acting on, at most :data:`MAX_MUST_REMEMBER`: the new
    fact supported by the user's own messages as a must-remember item is (so an
    update that ends a health fact needs the user's own words, with its negation),
    both sides with content words, and an update at all: what it replaces comes first.
    When the user's messages say the ``old`` side, they say all of it before the new one
    ("amberlake42 <- printer", the printer named after the new password, replaces
    nothing); when they do not (a fact pinned in another chat), a sentence stating the
    new one says a change ("new", "changed", "no longer": ``statements.CHANGE_WORDS``). Which earlier
    pin the ``old`` side means is the store's to find (``updates.model_update``)."""
    kept = []
    for new, old in answer.updates:
        found = fact_sources(new, evidence)
        if not rules.content_words(old) or found is None:
            continue
        before = fact_sources(old, evidence)
        if before is None:
            stating = statements.by_sentence([evidence.sources[i] for i in found]).supporting(new)
            if all(statements.CHANGE_WORDS.isdisjoint(words(s)) for s in stating):
                continue
        elif max(before) >= min(found):
            continue
        kept.append((rules.clip(new, rules.ITEM_CHARS), old))
    return kept[:MAX_MUST_REMEMBER]


def facts_row(data: FactsData) -> tuple[str, str]:
    """(JSON, searchable text) of facts, as ``summary_facts`` stores them."""
    return data.model_dump_json(), facts_text(data)
