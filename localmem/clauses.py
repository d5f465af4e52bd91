"""One clause read for who it names (pure; never raises on any ``str``): the words of a
sentence, a claim's subject and the act it does, and the doer or the owner a clause of the
conversation gives. :mod:`roles` holds a claim's bindings to the conversation with them.

- :func:`tokenize`: the words, numbers and marks that end a clause; :func:`is_name` and
  :func:`name_key` tell and key a person the conversation names.
- In a claim: :func:`subject_at` reads the people a subject names ("Priya and Hassan", "the
  user", "The daughter Leila"; not "Leila's husband"), :func:`verb_after` the act they do
  (not a verb that only carries, "has", "wants"; not a negated one), :func:`object_head`
  the head of what the act is done to ("her medical form": form).
- In a turn of the conversation (:class:`Turn`: who says "I", who is "you"):
  :func:`subject_before` reads the doer of a verb: a name (and the names joined to it),
  "I"/"me"/"my" (the turn's speaker: the user in a user's turn, the assistant in the
  assistant's, the name of a transcript's label "Priya: ..."), "you" (the other party),
  "we" (may be anyone of the group), "he"/"she" (the name before them in their sentence:
  "Jess, she played"; else anyone the chat named), "they" (anyone the chat named), a
  person by a tie or a trade ("my husband", "the owner"), the object of "help me", "asked
  Priya to", the subject of "need to" / "going to", and a verb with no subject at a
  sentence's start (the speaker's "Planning a weekend ..."; a bare verb is the other
  party's, an imperative); a thing ("the form is due") is no one. :func:`doer_word` reads a
  clause's first word so, :func:`owner_word` the owner a word before a noun gives ("my",
  "our", "your", "his/her/their", "<Name>'s").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .words import RELATION_WORDS, STOP_WORDS, stem

_TOKEN = re.compile(
    r"[A-Za-z][\w'\u2019-]*|[£$€]?\d[\d.,:]*\w*|[,;:\"\u201c\u201d()!?]|\.(?!\w)|\s[-\u2013\u2014]\s"
)
"""A word, a number (a price), or a mark that ends a clause or quotes."""
BOUNDARY: Final = frozenset(
    {",", ";", ":", "(", ")", '"', "\u201c", "\u201d", "-", "\u2013", "\u2014", ".", "!", "?"}
)
AUX: Final = frozenset(
    """
    is are was were am be been being has have had will would can could should shall may might
    must do does did 's 've 'd 'll 're 'm also just already still now then finally really
    only even ever usually always both all currently actually
    """.split()
)
"""Words between a subject and its verb that are not the doer."""
_DONE: Final = frozenset(
    """
    bought brought caught taught thought sold told paid sent spent lent built left met found
    held kept lost won wrote drove rode took gave ate drank ran began swam sang flew grew
    knew threw drew chose spoke broke froze woke stole bit hid led fed read
    """.split()
)
"""Past forms without "-ed": a verb after a name with no auxiliary ("Margaret bought")."""
_PARTIES: Final = {"user": "user", "users": "user", "assistant": "assistant"}
"""The conversation's parties as a claim names them."""
_BE: Final = frozenset("is are was were am be been being 's 're 'm".split())
_NEGATION: Final = frozenset("not never n't no".split())
_CARRIERS: Final = frozenset(
    """
    be is are was were am been being have has had having get gets got getting go goes went
    going do does did make makes made take takes took give gives gave keep keeps kept want
    wants wanted need needs needed like likes love loves know knows knew think thinks feel
    feels seem seems look looks let lets put puts come comes came say says said use uses
    used called named
    """.split()
)
"""Verbs that only carry their object or state something: no act of a doer to bind."""
DETERMINERS: Final = frozenset("a an the this that these those some any no every each another".split())
POSSESSORS: Final = frozenset("my our your his her their its".split())
_PREPOSITIONS: Final = frozenset(
    "for to in on at with from by of about into onto over after before during until via and or but".split()
)
CONJUNCTIONS: Final = frozenset("and but or so then yet".split())
_SUBJECT_PRONOUNS: Final = {
    "i": "me", "me": "me", "we": "any", "us": "any", "you": "you",
    "he": "third", "she": "third", "they": "third", "him": "third", "them": "third",
    "it": "thing", "this": "thing", "that": "thing", "there": "thing",
}
"""A pronoun as a doer: the speaker, the other party, anyone of a group, anyone named, a thing."""
_OBJECT_PRONOUNS: Final = frozenset("me us you him her them".split())
_SINGULAR: Final = frozenset({"he", "she"})
"""Pronouns for one person: the name before them in their sentence is who they are."""
AT_PLACE: Final = frozenset("in at near into on".split())
"""Prepositions before a place: a name after them is no one's ("Arran offers ..." acts nothing)."""
_QUALIFIERS: Final = frozenset("from of at in with on".split())
"""Prepositions of a phrase that qualifies a subject ("Ana from the team")."""
_QUESTIONS: Final = frozenset("who what which whom whose".split())
_AGENT = re.compile(r"[a-z]{3,}(?:er|or|ist|ian)")
"""A noun naming a person by what they do ("owner", "tutor", "pharmacist")."""
TITLES: Final = frozenset("mr mrs ms dr prof".split())


@dataclass(frozen=True)
class Turn:
    speaker: str
    """Who says "I" here: "user", "assistant" or ``name:<stem>`` (a transcript's label)."""
    other: str
    """Who "you" is: the other party ("user", "assistant"; "any" in a transcript or a tool)."""
    sentences: tuple[tuple[str, ...], ...]
    """The turn's sentences as tokens (:data:`_TOKEN`)."""


def tokenize(text: str) -> tuple[str, ...]:
    """The words, numbers and marks of ``text``; a title's stop ("Dr.") is no mark."""
    out: list[str] = []
    for token in _TOKEN.findall(text):
        if token == "." and out and fold(out[-1]) in TITLES:
            continue
        out.append(token.strip().replace("\u2019", "'"))
    return tuple(out)


def fold(token: str) -> str:
    return token.casefold()


def name_key(word: str) -> str:
    return fold(word).removesuffix("'s").split()[0] if word.split() else ""


def is_name(token: str, names: frozenset[str]) -> bool:
    return token[:1].isupper() and fold(token).removesuffix("'s") in names


# --- a claim's subject and its act ------------------------------------------------------


def subject_at(tokens: tuple[str, ...], k: int, names: frozenset[str]) -> tuple[list[str], int]:
    """The people a subject starting at ``k`` names (``name:<stem>`` or "user") and where
    it ends, or ``([], k)``: at a clause's start (a mark, a conjunction), "the user", or
    names joined by "and" or commas ("Priya and Hassan"), after a tie or a trade at most
    ("The daughter Leila"); not a name as a thing's mark ("A Wes Anderson film")."""
    before = fold(tokens[k - 1]) if k else ""
    if k and before not in BOUNDARY and before not in CONJUNCTIONS:
        return [], k
    j = k + (k < len(tokens) and fold(tokens[k]) == "the")
    if j < len(tokens) and fold(tokens[j]) in _PARTIES:  # "The user", "User orders ...", "the assistant"
        if j + 1 < len(tokens) and fold(tokens[j + 1]).endswith("'s"):
            return [], k
        return [_PARTIES[fold(tokens[j])]], j + 1
    j = k
    if j + 2 < len(tokens) and (fold(tokens[j]) in DETERMINERS or fold(tokens[j]) in POSSESSORS) and (
        fold(tokens[j + 1]) in RELATION_WORDS or _AGENT.fullmatch(fold(tokens[j + 1]))
    ):
        j += 2  # "The daughter Leila"
    group: list[str] = []
    while j < len(tokens):
        word = fold(tokens[j])
        if word in TITLES and j + 1 < len(tokens) and is_name(tokens[j + 1], names):
            j += 1
            continue
        if not is_name(tokens[j], names) or word.endswith("'s"):
            break
        group.append(f"name:{name_key(word)}")
        while j + 1 < len(tokens) and is_name(tokens[j + 1], names) and not fold(tokens[j + 1]).endswith("'s"):
            j += 1  # "Mr Adeyemi", "Pena Palace": one name, keyed by its first word
        j += 1
        if j + 1 < len(tokens) and fold(tokens[j]) in ("and", ","):
            j += 1
            continue
        break
    if not group or (j < len(tokens) and fold(tokens[j]).endswith("'s")):
        return [], k  # "Leila's husband": a possessor
    return group, j


def verb_after(tokens: tuple[str, ...], j: int, plural: bool = False) -> tuple[str | None, int]:
    """The act a subject ending at ``j`` does (its verb, auxiliaries and adverbs aside),
    or None: none follows, it is negated, it only carries ("has", "wants"), or after "is"
    it is no "-ing" form (a state, a name, a passive)."""
    be = helped = False
    while j < len(tokens) and (fold(tokens[j]) in AUX or fold(tokens[j]).endswith("ly")):
        be = be or fold(tokens[j]) in _BE
        helped = True
        j += 1
    if j >= len(tokens):
        return None, j
    word = fold(tokens[j])
    if word in _NEGATION or word.endswith("n't") or not word.isalpha() or tokens[j][:1].isupper():
        return None, j
    if word in STOP_WORDS or word in _CARRIERS or len(word) < 3:
        return None, j
    if be and not word.endswith("ing"):
        return None, j
    if not helped and not plural and not word.endswith(("s", "ed")) and word not in _DONE:
        return None, j  # "Sungold cherry tomatoes", "A Wes Anderson film": a noun
    return word, j


def object_head(tokens: tuple[str, ...], j: int) -> str | None:
    """The head of the thing a verb at ``j - 1`` acts on: the last word before a
    preposition or a mark of a phrase opening with a determiner or a possessor ("her
    medical form for the trip": form), or None (a number, a name, "whether ...")."""
    if j >= len(tokens) or (fold(tokens[j]) not in DETERMINERS and fold(tokens[j]) not in POSSESSORS):
        return None
    head = None
    while j < len(tokens):
        word = fold(tokens[j])
        if word in BOUNDARY or word in _PREPOSITIONS:
            break
        if word.isalpha() and word not in STOP_WORDS and not tokens[j][:1].isupper():
            head = word
        j += 1
    return head


# --- a doer or an owner in the conversation's clause ----------------------------------


def doer_word(tokens: Sequence[str], c: int, turn: Turn, names: frozenset[str]) -> frozenset[str]:
    """Who the word at ``c`` (a clause's first) names, or an empty set when none: a
    pronoun, a name, a person by a tie or a trade; a thing is ``{"thing"}``."""
    word = fold(tokens[c])
    bare = re.sub(r"'(?:s|ve|d|ll|re|m)$", "", word)
    if bare in _SUBJECT_PRONOUNS:
        return _pronoun(bare, turn)
    if is_name(tokens[c], names):
        return frozenset({f"name:{name_key(word)}"})
    if word in DETERMINERS or word in POSSESSORS:
        for t in tokens[c + 1 : c + 4]:
            w = fold(t)
            if w in RELATION_WORDS or _AGENT.fullmatch(w):
                return frozenset({f"noun:{w}"})
        return frozenset({"thing"})
    return frozenset()


def _pronoun(word: str, turn: Turn) -> frozenset[str]:
    kind = _SUBJECT_PRONOUNS[word]
    if kind == "me":
        return frozenset({turn.speaker})
    if kind == "you":
        return frozenset({turn.other})
    return frozenset({kind})


def subject_before(tokens: Sequence[str], i: int, turn: Turn, names: frozenset[str]) -> frozenset[str]:
    """The doer of the verb at ``i``: read back over auxiliaries and adverbs, "to" and
    the verb it follows ("need to sign"), to a pronoun, a name (with those joined to it
    by "and"), a person by a tie or a trade, a thing; with no subject, the speaker (a
    sentence opening "Planning ...", "Booked ...") or the other party (a bare verb, an
    imperative). ``{"any"}`` when it cannot be told."""
    j = i - 1
    while True:
        while j >= 0 and (fold(tokens[j]) in AUX or fold(tokens[j]).endswith("ly") or fold(tokens[j]) in _NEGATION):
            j -= 1
        if j >= 0 and fold(tokens[j]) == "to":
            j -= 1
            if j >= 0 and (is_name(tokens[j], names) or fold(tokens[j]) in _OBJECT_PRONOUNS):
                break  # "asked Priya to collect": Priya collects
            j -= 1  # the verb "to" follows: "need to", "going to"
            continue
        break
    if j < 0 or tokens[j] in BOUNDARY:
        if j >= 0 and tokens[j] in BOUNDARY:  # "Me and two roommates, Kofi and Lena, are moving": all of them
            earlier = [k for k in range(j) if fold(tokens[k]) in _SUBJECT_PRONOUNS or is_name(tokens[k], names)]
            if earlier:
                return frozenset().union(*(doer_word(tokens, k, turn, names) for k in earlier))
        verb = fold(tokens[i])
        told = verb.endswith(("ing", "ed")) and stem(verb) != verb  # "Planning ...", not "Bring ..."
        return frozenset({turn.speaker if told else turn.other})
    while j >= 3 and fold(tokens[j - 1]) in DETERMINERS and fold(tokens[j - 2]) in _QUALIFIERS:
        j -= 3  # "Ana from the team booked": the doer is before what qualifies it
    word = fold(tokens[j])
    bare = re.sub(r"'(?:s|ve|d|ll|re|m)$", "", word)
    if word in _QUESTIONS:
        return frozenset()  # "Who is driving?": a question names no doer
    if word in _OBJECT_PRONOUNS and bare not in ("you",) and word not in ("us",):
        if word == "me":
            return frozenset({turn.speaker})
        return frozenset({"third"})  # "help him fill in"
    if bare in _SUBJECT_PRONOUNS:
        return _named_before(tokens, j, names) if bare in _SINGULAR else _pronoun(bare, turn)
    if is_name(tokens[j], names):
        while j and is_name(tokens[j - 1], names):
            j -= 1  # "Pena Palace tickets": the name's first word keys it
        word = fold(tokens[j])
        group = {f"name:{name_key(word)}"}
        k = j - 1
        while k >= 1 and fold(tokens[k]) in ("and", ","):
            who = doer_word(tokens, k - 1, turn, names)
            if not who or who == frozenset({"thing"}):
                break
            group |= who
            k -= 2
        return frozenset(group)
    if word in CONJUNCTIONS:  # "I'll stay and collect": the first verb's doer
        earlier = [k for k in range(j) if fold(tokens[k]) in _SUBJECT_PRONOUNS or is_name(tokens[k], names)]
        return doer_word(tokens, earlier[0], turn, names) if earlier else frozenset({"any"})
    if word in RELATION_WORDS or _AGENT.fullmatch(word):
        return frozenset({f"noun:{word}"})
    if word.isalpha() and j and fold(tokens[j - 1]) in DETERMINERS | POSSESSORS:
        return frozenset({"thing"})
    if word in ("i", "we"):
        return _pronoun(word, turn)
    return frozenset({"any"})


def _named_before(tokens: Sequence[str], j: int, names: frozenset[str]) -> frozenset[str]:
    """Who "he" or "she" at ``j`` is: the nearest name before it in its sentence ("We've
    got a new girl joining, Jess, she played for her uni team": Jess), not one after "in",
    "at", "near" (a place); anyone the chat named (``{"third"}``) when the sentence names
    no one before it."""
    for k in range(j - 1, -1, -1):
        if tokens[k] in (".", "!", "?"):
            break
        if is_name(tokens[k], names) and not (k and fold(tokens[k - 1]) in AT_PLACE):
            while k and is_name(tokens[k - 1], names):
                k -= 1
            return frozenset({f"name:{name_key(tokens[k])}"})
    return frozenset({"third"})


def owner_word(token: str, word: str, turn: Turn, names: frozenset[str]) -> frozenset[str] | None:
    if word == "my":
        return frozenset({turn.speaker})
    if word == "our":
        return frozenset({"any"})
    if word == "your":
        return frozenset({turn.other})
    if word in ("his", "her", "their"):
        return frozenset({"third"})
    if word.endswith("'s") and is_name(token, names):
        return frozenset({f"name:{name_key(word)}"})
    return None
