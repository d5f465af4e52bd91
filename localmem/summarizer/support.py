"""Which sentences of a model's summary the conversation supports; the others are dropped.

A small model's summary passes every check on the whole text and still says "the gym is open
for the band" (a terse chat about leg day that mentioned a band), "changes the password for
the printer" (the printer was given the new wifi password), "will book a seat on the 9:33"
(it was booked) or "send it to the friend" (the user sends it to the assistant): invented
combinations of the conversation's own words. :func:`ground` holds each sentence of a
summary to what was written, as ``localmem.grounding`` holds a checkpoint's item:

1. **Clauses.** A sentence is read clause by clause (split at ``,`` ``;`` ``:``, dashes,
   "while", "because", "but"...; never inside a number): a good summary joins facts of
   several turns in one sentence ("Rosa, 82, takes warfarin 5 mg at 6 pm, metoprolol 25 mg
   at 8 am"), each clause from one place. A clause's content words are ``grounding``'s
   (four letters or more, numbers whole), without the words every summary uses
   (:data:`SUMMARY_WORDS`), contractions ("you'll") and the verb that gives a thing its name
   ("a son named Felix" says "my son Felix"); two forms of one word match
   (``grounding.same_word``: "takes" ~ "take").
2. **One source.** Most of a clause's content words (``grounding.SUPPORT_SHARE`` of them,
   each counted once, a number twice: it is the most specific word) must be in ONE source,
   with the same polarity there. A source is a turn (not the system's), a question with the
   answer the next turn gives (the answer's polarity wins: "Can she take ibuprofen?"
   answered "don't give her ibuprofen" supports no "may take ibuprofen"; a question
   answered "no", or hedged ("If they are federal loans, ..."), is no source), or up to
   :data:`TERSE_WINDOW` terse turns in a row (each of at most :data:`TERSE_TURN_WORDS`
   content words: "pizza tonight?" "sure" "luigi's?" "7pm" say
   one thing over several turns; a question there is stated when the next turn answers it). A turn's other questions support only a clause that reports talk
   ("asked", "discussed": :data:`_TALK`). An item of a list after a sentence's first clause
   (at most :data:`LIST_ITEM_WORDS` content words: "the router model, password, and channel
   settings") needs each word said somewhere, with its polarity.
3. **Same party.** A clause that puts someone where its source says "you" ("send it to the
   friend tomorrow" for "send it to you tomorrow") changes who: in a turn, "you" is the
   other side of the conversation. So does one that puts "the user" where the turn's
   pronoun is someone else ("the vet gave the user something" for the user's "they gave
   him something": the user is the user's "I" and the assistant's "you"), or a name where
   it names the user ("Greta's mother-in-law" for the user's "my mother-in-law").
4. **Same status.** A clause that states as done what its source only plans, or as planned
   what its source reports done (``localmem.statements.signals``; a turn answering a
   question is read after it: "Have you booked a seat?" "Yes, the 9:33"), is unsupported.
   A clause without a status word takes the one of the clause before it in its sentence
   ("They will stay at the hotel, book a seat ...": the seat is planned too); a past verb
   of deciding or wanting reports the decision, not its act ("decided to overpay" for "I'll
   set up the overpayment": ``statements.claimed``). What the
   source leaves open ("has to decide whether to leave the island") is not settled
   ("decides to leave the island").
5. **Same bindings** (``bindings``): a clause's event is bound to the day, time, month
   or place the conversation binds it to ("plans to bake the cake on Saturday" where the
   baking is "on Friday evening"), a clause opening with a name says of that person what
   the conversation does ("Tom is allergic to peanuts" where Mia is), and a compound name
   in a sentence is one the conversation wrote ("the Red Smoothie"); what a sentence says of
   every thing it lists, the conversation says of each (``listed``: "split rent, utilities,
   and deposit equally" where only the utilities are split equally); and **the same
   amounts** (``amounts``): a portion the conversation gives is not dropped or changed
   ("ate a dark chocolate bar" for "ate half of a bar"), a level is not a change ("a
   78,000 dollar raise" for "a raise to 78,000") nor the reverse (checked on every
   clause, a short item of a list too).
6. **What was warned against.** A clause asserting a word some turn negates ("avoid
   NSAIDs like ibuprofen", "stop the ibuprofen") rests only on a source holding that word
   (not on "takes ... her knee hurts" for "may take ibuprofen for her knee"); and a clause
   that permits it ("may", "can", "is safe to") only on a source sentence holding it that
   permits it too ("After the surgery he can take ibuprofen again"), not one that reports
   it ("She's been taking ibuprofen"). A clause saying an act must be done ("should stop
   metformin before contrast") is unsupported when every statement holding the act with
   another of its words denies the requirement ("guidance usually does not ask people to
   stop metformin before contrast", "you don't need to stop it"). A clause saying a thing
   was ended ("resolved the squealing issue") says it is gone: besides the clause as
   written, a source negating it ("stops fine, no squeal") after an earlier turn said it
   was there ("squeals like crazy") supports it.
7. **What was replaced** (``localmem.staleness``): a sentence stating a value a later
   message replaced ("6 people" after "actually 8 ppl now") is dropped unless the summary
   also says the new value, in a sentence it keeps (one dropped by the other checks tells
   nothing).

8. **Who did what** (``localmem.roles``): a sentence giving a named person (or the user) an
   act, a possession or a name the conversation gives someone else ("Leila is preparing her
   medical form" where the user signs it; "Leila's husband" for the user's "my husband";
   "the poem, 'The Last Chapter'" where the boat is so called) is dropped whole.

A sentence with an unsupported clause is dropped. Unless most of the sentences (more than
:data:`MIN_KEPT_SHARE`) and :data:`MIN_KEPT_WORDS` content words remain, the summary is not
one (``Grounded.text`` is None: the caller stores its deterministic summary instead).
Pure; never raises on any ``str``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from .. import roles, statements
from ..extract import sentences
from ..grounding import (
    SUPPORT_SHARE,
    Reading,
    held,
    item_forms,
    read,
    read_answered,
    same_word,
    word_forms,
)
from ..staleness import stale
from ..words import STOP_WORDS, stem, words
from .amounts import counted_twice, misquantified
from .bindings import invented_name, misattributed, misbound, planned_event
from .faithful import HEDGED, NO_ANSWER
from .listed import unprescribed, unshared
from .wording import SUMMARY_WORDS, sentence_spans

TERSE_TURN_WORDS: Final = 3
"""A turn with at most this many content words is terse..."""
TERSE_WINDOW: Final = 5
"""... and this many terse turns in a row are one source (a window sliding along a run)."""
LIST_ITEM_WORDS: Final = 2
"""A clause after a sentence's first with at most this many content words is an item of a
list ("Rosa, 82, ...", "the router model, password, and channel settings")."""
MIN_KEPT_SHARE: Final = 0.5
"""More than this share of a summary's sentences must be supported for it to be kept
(most of them: when half are invented, the rest is no summary of the conversation)..."""
MIN_KEPT_WORDS: Final = 4
"""... and what is kept must have this many content words."""

_CLAUSE = re.compile(
    r"[,;:](?!\d)\s*|\s[-\u2013\u2014]\s|\s(?:while|whereas|because|since|although|though|but)\s"
    r"|\s(?=and (?:is|are|was|were|has|have|had|will|would|can|could|may|might|must|should|shall|does|did)\s)",
    re.IGNORECASE,
)
"""Where a summary's sentence splits into clauses; "and" before a verb of its own starts a
second predicate of the same subject ("takes warfarin at 6 pm and is allergic to
penicillin": two facts, two turns; "takes warfarin 3 mg and may take ibuprofen": the second
is not supported by the first's turn)."""
_OPEN = re.compile(
    r"\bwhether\b|\bor not\b|\bdecide (?:if|between)\b|\bfor (?:example|instance)\b|\be\.g\.", re.IGNORECASE
)
"""What leaves a proposition open: "decide whether to leave", "or not", an example offered
("she packs a bag and leaves it by the door, for example")."""
_PERMITS = re.compile(
    r"\b(?:may|can|could|might|is (?:fine|safe|okay|ok|allowed) to|are (?:fine|safe|okay|ok|allowed) to"
    r"|(?:is|are) fine|(?:is|are) safe)\b",
    re.IGNORECASE,
)
"""A clause that permits ("may take ibuprofen", "is safe to give"): of what the conversation
warns against, its source must permit it too."""
_OBLIGED = re.compile(
    r"\b(?:should|must|has to|have to|had to|needs? to|ought to|(?:is|are) required to)\s+(?:[a-z]+ly\s+)?(?P<verb>[a-z]+)",
    re.IGNORECASE,
)
"""A clause that says something must be done: "should stop", "has to fast"."""
_UNREQUIRED = re.compile(
    r"\b(?:no need|(?:do|does|did|will|would|could)(?:n['\u2019]t|\s+not)\s+(?:[a-z]+\s+)?(?:ask|require|need|have|tell)\w*"
    r"|not\s+(?:[a-z]+\s+)?(?:ask|require|need|tell)\w*|never\s+(?:ask|require|need|have|tell)\w*)"
    r"(?:\s+[\w'-]+){0,3}?\s+to\s+(?P<verb>[a-z]+)",
    re.IGNORECASE,
)
"""A requirement denied, the act after its "to": "does not ask people to stop", "you don't
need to stop", "no need to fast"."""
_TALK: Final = frozenset(
    """
    asked asks asking discuss discussed discusses discussing wondered wonders wondering
    question questions talked talks
    """.split()
)
"""Words of a clause that reports talk, not facts: it may rest on a question."""
_YOU: Final = frozenset({"you", "your", "yours", "yourself"})
_ME: Final = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our", "ours"})
_PRONOUNS: Final = _YOU | _ME | frozenset({"him", "his", "her", "hers", "them", "their"})
"""Pronouns that stand for a party of the conversation or someone else."""
_USER_PRONOUNS: Final = {"user": _ME, "assistant": _YOU}
"""The pronouns that name the user in a turn of each role."""
_USER: Final = frozenset({"user", "users"})
_POSSESSIVE = re.compile(r"['\u2019]s$")
_SLOT_WORDS: Final = 3
"""Words that may stand where a source says "you" ("the family friend")."""
_NAMING = re.compile(
    r"(?P<thing>\b(?:a|an)\s+[\w'-]+(?:\s+[\w'-]+){0,2}?)\s+(?:named|called)(?=\s+[A-Z])"
)
"""A thing and the verb that gives its name ("a son named Felix", "a hedgehog called
Bramble"): the same as the name beside the thing ("my son Felix"); the thing and the name
are the content, the verb says no more. Only after "a"/"an" ("the user called Dr Osei"
phoned)."""
_ENDING = re.compile(
    r"(?<!\bwas )(?<!\bwere )(?<!\bis )(?<!\bare )(?<!\bbeen )(?<!\bbe )"
    r"\b(?:resolved|fixed|solved|cured|eliminated)\s+(?=(?:the|a|an|his|her|their|its|my|our|this|that|these|those|it|them)\b)",
    re.IGNORECASE,
)
"""A verb that ends the thing it is done to: "resolved the squealing" says the squealing is
gone (active, before its object: not "was resolved by turning", nor the adjective of
"fixed costs"; "stopped" is a negation already)."""
_CONTRACTION = re.compile(r"'(?:ll|re|ve|d|m)$")
""""you'll", "they're": a pronoun and a verb, no content."""


@dataclass(frozen=True)
class Grounded:
    """What :func:`ground` made of a summary."""

    text: str | None
    """The supported sentences, in order (the summary itself when all are); None when too
    little is supported to be a summary."""
    dropped: tuple[tuple[int, str], ...] = ()
    """``(sentence number from 1, why)`` for each dropped sentence."""
    sentences: int = 0


@dataclass(frozen=True)
class _Source:
    reading: Reading
    text: str
    """What the source's status is read in: its text, after the question it answers."""
    turns: frozenset[int]
    asked: bool = False
    """A turn's questions read as statements: a source only for a clause that reports talk
    ("The user asked whether ...", "Discussed the index ...")."""


def ground(summary: str, pairs: Sequence[tuple[str, str]]) -> Grounded:
    """``summary`` without the sentences ``pairs`` (``(role, text)`` turns) do not support
    (see the module docstring)."""
    spans = sentence_spans(summary)
    if spans and spans[-1][1] < len(summary.rstrip()):
        spans.append((spans[-1][1], len(summary)))  # a last sentence without its stop
    said = [summary[a:b].strip() for a, b in spans or [(0, len(summary))] if summary[a:b].strip()]
    turns = [(i, text) for i, (role, text) in enumerate(pairs) if role.strip().casefold() != "system"]
    if not said or not turns:
        return Grounded(summary, (), len(said))
    sources = _sources(pairs, turns)
    texts = [text for _, text in turns]
    written = " ".join(texts)
    warned = frozenset().union(*(source.reading.negated for source in sources if not source.asked))
    kept: list[str] = []
    dropped: list[tuple[int, str]] = []
    invented = [invented_name(sentence, written) for sentence in said]
    unsupported = [
        None if name else _unsupported(sentence, sources, pairs, texts, warned) or roles.miscast(sentence, pairs)
        for sentence, name in zip(said, invented)
    ]
    # A change is told only by a sentence the summary keeps: "trimming the piece to 748 words"
    # said of someone who never suggested it does not make "at 820 words" current.
    # A sentence stale itself tells no change either: "booked the van for £420" is not made
    # current by "knocked it down to £380" once a later "£440 in all" drops that one; so
    # what tells is read again from what is kept until nothing more is dropped.
    telling = [name is None and why is None for name, why in zip(invented, unsupported)]
    while True:
        told = " ".join(s for s, tells in zip(said, telling) if tells)
        whys = [invented[n] or stale(sentence, texts, told) or unsupported[n] for n, sentence in enumerate(said)]
        still = [tells and why is None for tells, why in zip(telling, whys)]
        if still == telling:
            break
        telling = still
    for number, (sentence, why) in enumerate(zip(said, whys), 1):
        if why is None:
            kept.append(sentence)
        else:
            dropped.append((number, why))
    if not dropped:
        return Grounded(summary, (), len(said))
    words = sum(len(_forms(s)) for s in kept)
    if len(kept) <= MIN_KEPT_SHARE * len(said) or words < MIN_KEPT_WORDS:
        return Grounded(None, tuple(dropped), len(said))
    return Grounded(" ".join(kept), tuple(dropped), len(said))


def _sources(pairs: Sequence[tuple[str, str]], turns: list[tuple[int, str]]) -> list[_Source]:
    out = [_Source(read(text), text, frozenset({i})) for i, text in turns]
    out += [
        _Source(read(text.replace("?", ".")), text, frozenset({i}), asked=True)
        for i, text in turns
        if "?" in text
    ]
    for n, ((i, question), (j, answer)) in enumerate(zip(turns, turns[1:])):
        if "?" in question and pairs[i][0] != pairs[j][0] and not _open(answer):
            text = f"{question.replace('?', '.')} {answer}"
            out.append(_Source(read_answered(question, answer), text, frozenset({i, j})))
            out[n + 1] = _Source(out[n + 1].reading, text, out[n + 1].turns)  # "Yes, the 9:33"
    run: list[tuple[int, str]] = []
    for i, text in [*turns, (-1, "")]:
        if i >= 0 and len(_forms(text)) <= TERSE_TURN_WORDS:
            run.append((i, text))
            continue
        for start in range(max(1, len(run) - TERSE_WINDOW + 1) if len(run) >= 2 else 0):
            window = run[start : start + TERSE_WINDOW]
            joined = " ".join(_stated(window, k, pairs) for k in range(len(window)))
            out.append(_Source(read(joined), joined, frozenset(k for k, _ in window)))
        run = []
    return out


def _open(answer: str) -> bool:
    """Whether ``answer`` leaves its question unstated: it says no, or it hedges ("If they
    are federal loans, ..."): "Should I refinance?" so answered is no source of "the
    loans are refinanced"."""
    return bool(NO_ANSWER.search(answer) or HEDGED.search(answer))


def _stated(run: list[tuple[int, str]], k: int, pairs: Sequence[tuple[str, str]]) -> str:
    """A terse turn as a statement: its question stated when the next turn of the run
    answers it (another role, not "no"), kept a question otherwise."""
    i, text = run[k]
    if k + 1 < len(run):
        j, answer = run[k + 1]
        if pairs[i][0] != pairs[j][0] and not _open(answer):
            text = text.replace("?", ".")
    return text if text.rstrip().endswith((".", "?", "!")) else f"{text}."


def _unsupported(
    sentence: str,
    sources: list[_Source],
    pairs: Sequence[tuple[str, str]],
    texts: Sequence[str],
    warned: frozenset[str],
) -> str | None:
    """Why ``sentence`` is not supported, or None (rules 1-6; ``texts``: the turns' texts;
    ``warned``: the forms a source negates)."""
    why = unshared(sentence, texts) or unprescribed(sentence, texts) or counted_twice(sentence, texts)  # a list's items, across its clauses
    if why is not None:
        return why
    carried: str | None = None
    for number, clause in enumerate(_CLAUSE.split(sentence)):
        status = carried if statements.status(clause) is None else statements.claimed(clause)
        carried = status
        forms = _forms(clause)
        if not forms:
            continue
        why = misquantified(clause, texts) or _not_required(clause, texts)  # short enough for a list item
        if why is not None:
            return why
        if number and len(forms) <= LIST_ITEM_WORDS and all(_said(form, sources) for form in forms):
            continue  # an item of a list: "including the router model, password"
        judge = functools.partial(_clause_unsupported, clause, status=status, pairs=pairs, warned=warned)
        why = (
            (_ended(clause, forms, sources, pairs, judge) if _ENDING.search(clause) else judge(forms, sources))
            or misbound(clause, texts)
            or misattributed(clause, texts)
        )
        if why is not None:
            return why
    return None


def _ended(
    clause: str,
    forms: list[tuple[str, bool]],
    sources: list[_Source],
    pairs: Sequence[tuple[str, str]],
    judge: Callable[[list[tuple[str, bool]], list[_Source]], str | None],
) -> str | None:
    """Why ``clause``, which says a thing was ended ("resolved the squealing issue",
    :data:`_ENDING`), is not supported, or None (``judge``: why given forms are not
    supported by given sources, :func:`_clause_unsupported`). Besides the clause as
    written, a source saying the thing is gone ("stops fine, no squeal") after an earlier
    turn said it was there ("squeals like crazy") supports it: ending a thing is its
    absence after its presence. A source that says it is gone, with no turn before it
    saying it was there, does not ("no squeal" alone ends nothing)."""
    ended = _forms(_ENDING.sub("no ", clause))
    gone = [f for f, negated in ended if negated]
    there = [
        i for i, (role, text) in enumerate(pairs)
        if gone and role.strip().casefold() != "system" and all(f in read(text).asserted for f in gone)
    ]
    after = [source for source in sources if there and min(source.turns) > there[0]]
    if gone and judge(ended, after) is None:
        return None
    return judge(forms, sources)


def _said(form: tuple[str, bool], sources: list[_Source]) -> bool:
    """Whether some source holds ``form`` with its polarity, or (not negated) begins a
    word of it ("opened" in "opened_at")."""
    start = re.compile(rf"(?<![^\W_]){re.escape(form[0])}")
    for source in sources:
        found, same = held([form], source.reading)
        if (found and same) or (not form[1] and start.search(source.reading.lowered)):
            return True
    return False


def _forms(text: str) -> list[tuple[str, bool]]:
    """The content word forms of ``text`` a summary's support is judged on (rule 1); the
    verb that gives a thing its name is none (:data:`_NAMING`)."""
    text = _NAMING.sub(r"\g<thing>", text)
    return [(f, n) for f, n in item_forms(text, SUMMARY_WORDS) if not _CONTRACTION.search(f)]


def _weight(forms: Sequence[str]) -> int:
    """Numbers count twice: the most specific words a clause has."""
    return sum(2 if f[:1].isdigit() else 1 for f in forms)


def _clause_unsupported(
    clause: str,
    forms: list[tuple[str, bool]],
    sources: list[_Source],
    status: str | None,
    pairs: Sequence[tuple[str, str]],
    warned: frozenset[str],
) -> str | None:
    reasons: list[str] = []
    said = words(clause)
    talk = not _TALK.isdisjoint(said)
    contested = [f for f, negated in forms if not negated and f in warned]
    for source in sources:
        if source.asked and not talk:
            continue
        found, same = held(forms, source.reading)
        if _weight(found) < SUPPORT_SHARE * _weight([f for f, _ in forms]):
            continue
        if not same:
            reasons.append("negation flipped")
            continue
        if not set(contested).issubset(found):
            reasons.append("asserts what the conversation warns against, without its source")
            continue
        if contested and _PERMITS.search(clause) and not _permitted(contested, source.text):
            reasons.append("permits what the conversation warns against")
            continue
        party = _changes_party(said, [pairs[i] for i in sorted(source.turns)])
        if party:
            reasons.append(party)
            continue
        conflict = _status_conflict(status, found, source.text, clause)
        if conflict:
            reasons.append(conflict)
            continue
        return None
    return reasons[0] if reasons else "not supported by any one message"


def _not_required(clause: str, texts: Sequence[str]) -> str | None:
    """Why ``clause`` says something must be done ("should stop metformin before
    contrast") where every statement of ``texts`` holding that act and another word of the
    clause says it is not required ("guidance usually does not ask people to stop metformin
    before contrast", "you don't need to stop it"): the requirement denied, though the act
    itself is not negated. None otherwise."""
    obliged = _OBLIGED.search(clause)
    if obliged is None:
        return None
    act = stem(obliged.group("verb").casefold())
    others = {f for f, _ in _forms(clause)} - word_forms(obliged.group("verb"))
    # two forms of a word share their first letters (``same_word``), "-y" made "-i" aside
    start = act[:-1][:3] if act.endswith("y") else act[:3]
    holding = [
        s for text in texts if start in text.casefold() for s in sentences(text)
        if not s.rstrip().endswith("?") and any(same_word(act, w) for w in word_forms(s))
        and not others.isdisjoint(word_forms(s))
    ]
    denied = [s for s in holding if any(same_word(act, stem(m.group("verb").casefold())) for m in _UNREQUIRED.finditer(s))]
    if holding and len(denied) == len(holding):
        return "states as required what the conversation says is not"
    return None


def _permitted(forms: Sequence[str], text: str) -> bool:
    """Whether a sentence of ``text`` that holds one of ``forms`` permits it ("she can
    take acetaminophen"), not only reports it ("she's been taking ibuprofen")."""
    return any(_PERMITS.search(s) for s in sentences(text) if word_forms(s).intersection(forms))


def _status_conflict(status: str | None, found: list[str], text: str, clause: str) -> str | None:
    """Why a clause of ``status`` contradicts the status of the sentences of ``text`` that
    hold its words ``found``, or None. A planned event the source does not name is not
    the one it reports done ("will stay at the hotel" the user "found"). A clause that
    settles what every sentence holding it leaves open ("She decides to leave the island"
    for "She has to decide whether to leave the island") is unsupported whatever its
    status."""
    holding = [s for s in sentences(text) if word_forms(s).intersection(found)]
    if holding and all(_OPEN.search(s) for s in holding) and not _OPEN.search(clause):
        return "states as settled what is still open"
    if status is None:
        return None
    event = planned_event(clause) if status == "plan" else None
    if event is not None and not any(same_word(event, f) for f in word_forms(text)):
        return None
    said = {statements.signals(s) for s in holding}
    said.discard(frozenset())
    if status == "done" and said == {frozenset({"plan"})}:
        return "states as done what was planned"
    if status == "plan" and said == {frozenset({"done"})}:
        return "states as planned what was done"
    return None


def _changes_party(said: Sequence[str], turns: Sequence[tuple[str, str]]) -> str | None:
    """Why the clause's words ``said`` name another party than the source's ``turns``
    (``(role, text)``) do in the same place (between the same two words), or None: a
    content word where a turn says "you" ("send it to the friend tomorrow" for "send it to
    you tomorrow": in a turn, "you" is the other side), or "the user" where a turn's pronoun
    is someone else ("gave the user something" for the user's "they gave him something":
    the user is the user's "I" and the assistant's "you"), or a name where it names the
    user ("Greta's mother-in-law" for the user's "my mother-in-law")."""
    for role, text in turns:
        source = words(text)
        user = _USER_PRONOUNS.get(role.strip().casefold())
        for k in range(len(source) - 1):
            pronoun = source[k]
            if pronoun not in _PRONOUNS:
                continue
            for filler in _fillers(said, source[k - 1] if k else None, source[k + 1]):
                named = [_POSSESSIVE.sub("", w) for w in filler]
                someone = any(
                    len(w) >= 3 and w not in STOP_WORDS and w not in SUMMARY_WORDS and w not in _PRONOUNS
                    for w in named
                )
                if pronoun in _YOU and someone:
                    return "names someone else where its source says 'you'"
                if user is not None and pronoun in user and someone:
                    return "names someone else where its source names the user"
                if user is not None and pronoun not in user and not _USER.isdisjoint(named):
                    return "puts the user where its source names someone else"
    return None


def _fillers(said: Sequence[str], left: str | None, right: str) -> list[Sequence[str]]:
    """The runs of 1 to :data:`_SLOT_WORDS` words of ``said`` between ``left`` and ``right``
    (``left`` None: from the start of ``said``)."""
    out = []
    starts = [-1] if left is None else [i for i, word in enumerate(said) if word == left]
    for i in starts:
        out += [said[i + 1 : j] for j in range(i + 2, min(i + 2 + _SLOT_WORDS, len(said))) if said[j] == right]
    return out
