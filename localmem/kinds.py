"""Whether one item of a model's summary facts stands on the span as what its field
is (``localmem.facts`` asks for the facts and keeps what stands): a key fact states
something, a decision is one the span made (taken up, not refused, no report of
another's act), an entity names a thing of the span, an open question was asked and
is still open; and each item is judged whole and stored clipped (:func:`as_stored`,
also for the must-remember items: ``localmem.remember``). The decision reading stays
here rather than in a room of its own: ``facts`` imports this module, and one more
module in that line would take the summaries' chain past the import-depth limit.
Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from . import extract as rules
from . import entities, replies, statements, verbs
from .grounding import SUPPORT_SHARE, Evidence
from .testimony import THE_USER
from .words import STOP_WORDS, TIME_WORDS, WISH, words


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
    plain = THE_USER.sub(" ", item)
    texts = [text for _, text in said]
    if field == "open_questions":
        return None if _still_open(item, said) else "not an open question"
    if not a_statement(item, texts):
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



def a_statement(item: str, messages: Sequence[str]) -> bool:
    """Whether ``item`` states something at all: not a question, not filler ("thx", "k"),
    not a wish (``words.WISH``: "reward yourself with a salad"), not a copied line of the
    transcript (``statements``)."""
    return (not statements.is_question(item) and statements.has_content(item)
            and WISH.search(item) is None and not statements.copied_line(item, messages))



def as_stored(
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

