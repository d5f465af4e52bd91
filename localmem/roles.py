"""Who did what: whether a claim binds a person to an act, a possession or a name as the
conversation does.

Word overlap sees that every word of "Priya and Hassan collect £240" was said; it cannot see
that Hassan collected it and Priya took the card round. A small model keeps the words and
moves the roles: "Leila is preparing her medical form" (her parent fills it in), "Ewan and
Sofia are planning a weekend with two friends, Ewan and Sofia" (the user plans it with
them), "Leila's husband" (the user's "my husband"), "Margaret is called The Last Chapter"
(the boat is). :func:`miscast` reads three bindings of a claim (a summary's sentence, a
fact) and holds each to the single clauses of the conversation that bind the same two
(pure; never raises on any ``str``):

- **actor**: "<Name> <verb> ..." (names joined by "and" count each; "the user" is the
  user). The conversation's clauses holding that verb (its stem, used as a verb: not after
  "the", "a", "of"...) are read for their subject: a name (and the names joined to it),
  "I"/"me"/"my" (the turn's speaker: the user in a user's turn, the assistant in the
  assistant's, the name of a transcript's label "Priya: ..."), "you" (the other party),
  "we" (may be anyone of the group), "he"/"she" (the name before them in their sentence:
  "Jess, she played"; else anyone the chat named), "they" (anyone the chat named), a
  person by a tie or a trade ("my husband", "the owner": that name only where a sentence
  says both), the object of "help me", "asked Priya to", the subject of "need to" / "going
  to", and a verb with no subject at a sentence's start (the speaker's "Planning a
  weekend ..."; a bare verb is the other party's, an imperative). A thing ("the form is
  due") is no one. The claim's verb may be irregular or paraphrased ("preparing" the form
  that the user "need(s) to sign"): when the conversation never uses the verb, the clauses
  where a verb acts on the claim's object (the head of what follows the verb) stand for it.
  The claim is miscast when some such clause has a person as its doer and none may be the
  name. When some of the verb's clauses also say the claim's words after its verb ("played
  for her uni team"), theirs alone are read: the act is the verb with what it is done to,
  for or with ("we just turned up and played" says nothing of who played for the uni
  team). Verbs that only carry ("has", "gets", "wants") are not read.
- **possessor**: "<Name>'s <noun>" (or "her <noun>" after one name) needs a clause saying
  "<Name>'s <noun>", "<noun> of <Name>", "his/her/their <noun>", "our <noun>", or "my
  <noun>" said by that name; "my husband" in the user's turn is the user's.
- **naming**: "<X> is called/named <Y>", "<X> called/named/titled <Y>", '<X>, "<Y>"' (a
  title) needs a sentence holding Y and X, or naming Y with a pronoun ("she's called it
  Y") whose thing (the head after the nearest determiner before it, "the boat's name") may
  be X (a person is never "it").

When the conversation has no clause for the verb, the noun or the name, nothing is said: the
other checks decide.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from .extract import sentences
from .grounding import same_word
from .words import NUMBER_WORDS, RELATION_WORDS, SPEAKER_LABEL, STOP_WORDS, TIME_WORDS, stem

_TOKEN = re.compile(
    r"[A-Za-z][\w'\u2019-]*|[£$€]?\d[\d.,:]*\w*|[,;:\"\u201c\u201d()!?]|\.(?!\w)|\s[-\u2013\u2014]\s"
)
"""A word, a number (a price), or a mark that ends a clause or quotes."""
_BOUNDARY: Final = frozenset(
    {",", ";", ":", "(", ")", '"', "\u201c", "\u201d", "-", "\u2013", "\u2014", ".", "!", "?"}
)
_AUX: Final = frozenset(
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
_NAME_FOLLOWS: Final = frozenset("is are was were has have had will would can could and 's just also already".split())
"""A capitalized word opening a sentence before these is a name ("Hassan has ...")."""
_LABEL = re.compile(rf"(?={SPEAKER_LABEL.pattern})[A-Z][\w'-]*(?: [A-Z][\w'-]*){{0,2}}: ")
"""A transcript's speaker label (``words.SPEAKER_LABEL``) of capitalized words: "Priya: ",
not "Got it: "."""
_SIDES: Final = {"user": ("user", "assistant"), "assistant": ("assistant", "user")}
"""Who says "I" and who is "you" in a turn of each role (a tool's: neither party)."""
_PARTIES: Final = {"user": "user", "users": "user", "assistant": "assistant"}
"""The conversation's parties as a claim names them."""
_AT_PLACE: Final = frozenset("in at near into on".split())
"""Prepositions before a place: a name after them is no one's ("Arran offers ..." acts nothing)."""
_OPENERS: Final = frozenset({".", "!", "?", ":", '"', "\u201c", "("})
"""Marks after which a word is capitalized for the start it makes, not for a name."""
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
_DETERMINERS: Final = frozenset("a an the this that these those some any no every each another".split())
_POSSESSORS: Final = frozenset("my our your his her their its".split())
_NOT_VERB_BEFORE: Final = _DETERMINERS | _POSSESSORS | frozenset("of for".split())
"""A word of the verb's form after these is a noun ("change of plan", "the plan")."""
_PREPOSITIONS: Final = frozenset(
    "for to in on at with from by of about into onto over after before during until via and or but".split()
)
_CONJUNCTIONS: Final = frozenset("and but or so then yet".split())
_SUBJECT_PRONOUNS: Final = {
    "i": "me", "me": "me", "we": "any", "us": "any", "you": "you",
    "he": "third", "she": "third", "they": "third", "him": "third", "them": "third",
    "it": "thing", "this": "thing", "that": "thing", "there": "thing",
}
"""A pronoun as a doer: the speaker, the other party, anyone of a group, anyone named, a thing."""
_OBJECT_PRONOUNS: Final = frozenset("me us you him her them".split())
_SINGULAR: Final = frozenset({"he", "she"})
"""Pronouns for one person: the name before them in their sentence is who they are."""
_QUALIFIERS: Final = frozenset("from of at in with on".split())
"""Prepositions of a phrase that qualifies a subject ("Ana from the team")."""
_QUESTIONS: Final = frozenset("who what which whom whose".split())
_AGENT = re.compile(r"[a-z]{3,}(?:er|or|ist|ian)")
"""A noun naming a person by what they do ("owner", "tutor", "pharmacist")."""
_TITLES: Final = frozenset("mr mrs ms dr prof".split())
_NAMED = re.compile(
    r"(?P<x>[\w'\u2019-]+)(?:\s+(?:is|was|are|were|'s))?\s+(?:called|named|titled)\s+"
    r"(?P<y>[\"\u201c'\u2018][^\"\u201d'\u2019]{2,60}[\"\u201d'\u2019]"
    r"|(?:[A-Z][\w'\u2019-]*)(?:\s+[A-Z][\w'\u2019-]*)*)"
    r"|(?P<tx>[\w'\u2019-]+),?\s+[\"\u201c](?P<ty>[A-Z][^\"\u201d]{1,60}?)[,.]?[\"\u201d]"
)
"""A claim that names something: "<X> is called <Y>", "<X> named <Y>", '<X>, "<Y>,"'."""
_NAME_WORDS: Final = frozenset("name names called named titled title".split())


@dataclass(frozen=True)
class _Turn:
    speaker: str
    """Who says "I" here: "user", "assistant" or ``name:<stem>`` (a transcript's label)."""
    other: str
    """Who "you" is: the other party ("user", "assistant"; "any" in a transcript or a tool)."""
    sentences: tuple[tuple[str, ...], ...]
    """The turn's sentences as tokens (:data:`_TOKEN`)."""


def miscast(claim: str, pairs: Sequence[tuple[str, str]]) -> str | None:
    """Why ``claim`` (a summary's sentence, a fact) binds a person to an act, a possession
    or a name that no clause of ``pairs`` (``(role, text)`` turns) binds them to, or None
    (see the module docstring)."""
    if not claim.strip():
        return None
    turns, names = _read(tuple((role, text) for role, text in pairs if role.strip().casefold() != "system"))
    if not turns:
        return None
    tokens = _tokens(claim)
    return _actor(tokens, turns, names) or _possessor(tokens, turns, names) or _naming(claim, turns, names)


def _tokens(text: str) -> tuple[str, ...]:
    """The words, numbers and marks of ``text``; a title's stop ("Dr.") is no mark."""
    out: list[str] = []
    for token in _TOKEN.findall(text):
        if token == "." and out and _fold(out[-1]) in _TITLES:
            continue
        out.append(token.strip().replace("\u2019", "'"))
    return tuple(out)


def _fold(token: str) -> str:
    return token.casefold()


@functools.lru_cache(maxsize=8)
def _read(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[_Turn, ...], frozenset[str]]:
    """The turns as :class:`_Turn` and the people the conversation names: a capitalized
    word it never writes in lower case, not a function word nor a day, nor a place (a word
    after "in", "at", "near", "into": "on Arran", "in Leeds")."""
    lower: set[str] = set()
    upper: set[str] = set()
    turns = []
    labels = Counter(m.group() for _, text in pairs for line in text.splitlines() if (m := _LABEL.match(line)))
    for role, text in pairs:
        role = role.strip().casefold()
        speaker, other = _SIDES.get(role, ("any", "any"))
        parts: list[tuple[str, ...]] = []
        for line in text.splitlines() or [text]:
            label = _LABEL.match(line)
            if label is not None and labels[label.group()] < 2:
                label = None  # one "Note: ..." is no transcript's speaker
            if label is not None:  # a transcript's turn: "Priya: ..." says "I" of Priya
                if parts:
                    turns.append(_Turn(speaker, other, tuple(parts)))
                    parts = []
                said = _sentences(line[label.end():], upper, lower)
                upper.add(_name_key(label.group().rstrip(": ")))
                turns.append(_Turn(f"name:{_name_key(label.group().rstrip(': '))}", "any", said))
            else:
                parts += _sentences(line, upper, lower)
        if parts:
            turns.append(_Turn(speaker, other, tuple(parts)))
    places = {
        _fold(tokens[i + 1]).removesuffix("'s")
        for turn in turns for tokens in turn.sentences for i in range(len(tokens) - 1)
        if _fold(tokens[i]) in _AT_PLACE
    }
    names = frozenset(
        w for w in upper - lower - places
        if w.isalpha() and w not in STOP_WORDS and w not in TIME_WORDS and w not in _TITLES and w not in NUMBER_WORDS
        and len(w) >= 2
    )
    return tuple(turns), names


def _sentences(text: str, upper: set[str], lower: set[str]) -> tuple[tuple[str, ...], ...]:
    """The sentences of ``text`` as tokens; a word written in lower case noted in
    ``lower``, one capitalized inside a sentence, or opening one before an auxiliary, in
    ``upper``."""
    out = []
    for sentence in sentences(text):
        tokens = _tokens(sentence)
        out.append(tokens)
        for i, token in enumerate(tokens):
            word = _fold(token).removesuffix("'s")
            if not token[:1].isupper():
                lower.add(word)
            elif (i and tokens[i - 1] not in _OPENERS) or _fold(next(iter(tokens[i + 1 :]), "")) in _NAME_FOLLOWS:
                upper.add(word)  # "Hassan has collected"; not "Go now", "Watch for ..."
    return tuple(out)


def _name_key(word: str) -> str:
    return _fold(word).removesuffix("'s").split()[0] if word.split() else ""


def _is_name(token: str, names: frozenset[str]) -> bool:
    return token[:1].isupper() and _fold(token).removesuffix("'s") in names


# --- the claim's bindings -------------------------------------------------------------


def _actor(tokens: tuple[str, ...], turns: tuple[_Turn, ...], names: frozenset[str]) -> str | None:
    """Why an "<Name> <verb>" of the claim's ``tokens`` has a doer the conversation does
    not give that act, or None."""
    k = 0
    while k < len(tokens):
        group, end = _subject_at(tokens, k, names)
        if not group:
            k += 1
            continue
        verb, at = _verb_after(tokens, end, plural=len(group) > 1)
        k = end
        if verb is None:
            continue
        doers = _doers(verb, turns, names, _complement(tokens, at + 1))
        if not doers:
            head = _object_head(tokens, at + 1)
            doers = _object_doers(head, turns, names) if head else []
        for who in group:
            if _cast_otherwise(who, doers, turns):
                return "gives an act to someone the conversation does not say did it"
    return None


def _subject_at(tokens: tuple[str, ...], k: int, names: frozenset[str]) -> tuple[list[str], int]:
    """The people a subject starting at ``k`` names (``name:<stem>`` or "user") and where
    it ends, or ``([], k)``: at a clause's start (a mark, a conjunction), "the user", or
    names joined by "and" or commas ("Priya and Hassan"), after a tie or a trade at most
    ("The daughter Leila"); not a name as a thing's mark ("A Wes Anderson film")."""
    before = _fold(tokens[k - 1]) if k else ""
    if k and before not in _BOUNDARY and before not in _CONJUNCTIONS:
        return [], k
    j = k + (k < len(tokens) and _fold(tokens[k]) == "the")
    if j < len(tokens) and _fold(tokens[j]) in _PARTIES:  # "The user", "User orders ...", "the assistant"
        if j + 1 < len(tokens) and _fold(tokens[j + 1]).endswith("'s"):
            return [], k
        return [_PARTIES[_fold(tokens[j])]], j + 1
    j = k
    if j + 2 < len(tokens) and (_fold(tokens[j]) in _DETERMINERS or _fold(tokens[j]) in _POSSESSORS) and (
        _fold(tokens[j + 1]) in RELATION_WORDS or _AGENT.fullmatch(_fold(tokens[j + 1]))
    ):
        j += 2  # "The daughter Leila"
    group: list[str] = []
    while j < len(tokens):
        word = _fold(tokens[j])
        if word in _TITLES and j + 1 < len(tokens) and _is_name(tokens[j + 1], names):
            j += 1
            continue
        if not _is_name(tokens[j], names) or word.endswith("'s"):
            break
        group.append(f"name:{_name_key(word)}")
        while j + 1 < len(tokens) and _is_name(tokens[j + 1], names) and not _fold(tokens[j + 1]).endswith("'s"):
            j += 1  # "Mr Adeyemi", "Pena Palace": one name, keyed by its first word
        j += 1
        if j + 1 < len(tokens) and _fold(tokens[j]) in ("and", ","):
            j += 1
            continue
        break
    if not group or (j < len(tokens) and _fold(tokens[j]).endswith("'s")):
        return [], k  # "Leila's husband": a possessor
    return group, j


def _verb_after(tokens: tuple[str, ...], j: int, plural: bool = False) -> tuple[str | None, int]:
    """The act a subject ending at ``j`` does (its verb, auxiliaries and adverbs aside),
    or None: none follows, it is negated, it only carries ("has", "wants"), or after "is"
    it is no "-ing" form (a state, a name, a passive)."""
    be = helped = False
    while j < len(tokens) and (_fold(tokens[j]) in _AUX or _fold(tokens[j]).endswith("ly")):
        be = be or _fold(tokens[j]) in _BE
        helped = True
        j += 1
    if j >= len(tokens):
        return None, j
    word = _fold(tokens[j])
    if word in _NEGATION or word.endswith("n't") or not word.isalpha() or tokens[j][:1].isupper():
        return None, j
    if word in STOP_WORDS or word in _CARRIERS or len(word) < 3:
        return None, j
    if be and not word.endswith("ing"):
        return None, j
    if not helped and not plural and not word.endswith(("s", "ed")) and word not in _DONE:
        return None, j  # "Sungold cherry tomatoes", "A Wes Anderson film": a noun
    return word, j


def _object_head(tokens: tuple[str, ...], j: int) -> str | None:
    """The head of the thing a verb at ``j - 1`` acts on: the last word before a
    preposition or a mark of a phrase opening with a determiner or a possessor ("her
    medical form for the trip": form), or None (a number, a name, "whether ...")."""
    if j >= len(tokens) or (_fold(tokens[j]) not in _DETERMINERS and _fold(tokens[j]) not in _POSSESSORS):
        return None
    head = None
    while j < len(tokens):
        word = _fold(tokens[j])
        if word in _BOUNDARY or word in _PREPOSITIONS:
            break
        if word.isalpha() and word not in STOP_WORDS and not tokens[j][:1].isupper():
            head = word
        j += 1
    return head


# --- who does an act in the conversation ------------------------------------------------


def _places(form: str, turns: tuple[_Turn, ...]) -> Iterator[tuple[_Turn, tuple[str, ...], int]]:
    """Each word of ``turns`` that is a form of the stem ``form``: its turn, its sentence's
    tokens and its place there."""
    for turn in turns:
        for tokens in turn.sentences:
            for i, token in enumerate(tokens):
                word = _fold(token)
                if word.isalpha() and same_word(stem(word), form):
                    yield turn, tokens, i


def _doers(
    verb: str, turns: tuple[_Turn, ...], names: frozenset[str], along: frozenset[str] = frozenset()
) -> list[frozenset[str]]:
    """The doers of each clause of ``turns`` using ``verb`` as a verb; when some of those
    clauses also say every word stem of ``along`` (the claim's words after its verb) later
    in their sentence, the doers of those alone: the act is the verb with what it is done
    to ("we just turned up and played" does not say who "played for her uni team")."""
    out, with_along = [], []
    for turn, tokens, i in _places(stem(verb), turns):
        if i and _fold(tokens[i - 1]) in _NOT_VERB_BEFORE:
            continue  # "change of plan", "the plan"
        if i + 2 < len(tokens) and _fold(tokens[i + 1]) == "by":  # "coached by Mr Lewis"
            doer = _doer_word(tokens, i + 2, turn, names) or frozenset({"any"})
        else:
            doer = _subject_before(tokens, i, turn, names)
        out.append(doer)
        if along and along <= _stems_to_sentence_end(tokens, i + 1):
            with_along.append(doer)
    return with_along or out


def _complement(tokens: tuple[str, ...], j: int) -> frozenset[str]:
    """The stems of the content words after a claim's verb at ``j - 1``, up to the end of
    its clause: what the act is done to, for or with ("for his uni team": uni, team)."""
    out = set()
    while j < len(tokens) and tokens[j] not in _BOUNDARY:
        word = _fold(tokens[j])
        if word.isalpha() and word not in STOP_WORDS and word not in _POSSESSORS and not tokens[j][:1].isupper():
            out.add(stem(word))
        j += 1
    return frozenset(out)


def _stems_to_sentence_end(tokens: tuple[str, ...], j: int) -> frozenset[str]:
    out = set()
    while j < len(tokens) and tokens[j] not in (".", "!", "?"):
        out.add(stem(_fold(tokens[j])))
        j += 1
    return frozenset(out)


def _object_doers(head: str, turns: tuple[_Turn, ...], names: frozenset[str]) -> list[frozenset[str]]:
    """The doers of the clauses where a verb acts on ``head`` ("I still need to sign the
    form"): the subject of a clause holding ``head`` after a doer and a verb."""
    out = []
    for turn, tokens, i in _places(stem(head), turns):
        start = i
        while start and tokens[start - 1] not in _BOUNDARY:
            start -= 1
        clause = tokens[start:i]
        first = next((c for c, t in enumerate(clause) if _fold(t) not in _CONJUNCTIONS), None)
        if first is None:
            continue
        who = _doer_word(clause, first, turn, names)
        # a doer, then a verb before the object: "I ... sign the form", not "The form is"
        if who and who != frozenset({"thing"}) and any(
            t.isalpha() and _fold(t) not in STOP_WORDS and _fold(t) not in _AUX for t in clause[first + 1:]
        ):
            out.append(who)
    return out


def _doer_word(tokens: Sequence[str], c: int, turn: _Turn, names: frozenset[str]) -> frozenset[str]:
    """Who the word at ``c`` (a clause's first) names, or an empty set when none: a
    pronoun, a name, a person by a tie or a trade; a thing is ``{"thing"}``."""
    word = _fold(tokens[c])
    bare = re.sub(r"'(?:s|ve|d|ll|re|m)$", "", word)
    if bare in _SUBJECT_PRONOUNS:
        return _pronoun(bare, turn)
    if _is_name(tokens[c], names):
        return frozenset({f"name:{_name_key(word)}"})
    if word in _DETERMINERS or word in _POSSESSORS:
        for t in tokens[c + 1 : c + 4]:
            w = _fold(t)
            if w in RELATION_WORDS or _AGENT.fullmatch(w):
                return frozenset({f"noun:{w}"})
        return frozenset({"thing"})
    return frozenset()


def _pronoun(word: str, turn: _Turn) -> frozenset[str]:
    kind = _SUBJECT_PRONOUNS[word]
    if kind == "me":
        return frozenset({turn.speaker})
    if kind == "you":
        return frozenset({turn.other})
    return frozenset({kind})


def _subject_before(tokens: Sequence[str], i: int, turn: _Turn, names: frozenset[str]) -> frozenset[str]:
    """The doer of the verb at ``i``: read back over auxiliaries and adverbs, "to" and
    the verb it follows ("need to sign"), to a pronoun, a name (with those joined to it
    by "and"), a person by a tie or a trade, a thing; with no subject, the speaker (a
    sentence opening "Planning ...", "Booked ...") or the other party (a bare verb, an
    imperative). ``{"any"}`` when it cannot be told."""
    j = i - 1
    while True:
        while j >= 0 and (_fold(tokens[j]) in _AUX or _fold(tokens[j]).endswith("ly") or _fold(tokens[j]) in _NEGATION):
            j -= 1
        if j >= 0 and _fold(tokens[j]) == "to":
            j -= 1
            if j >= 0 and (_is_name(tokens[j], names) or _fold(tokens[j]) in _OBJECT_PRONOUNS):
                break  # "asked Priya to collect": Priya collects
            j -= 1  # the verb "to" follows: "need to", "going to"
            continue
        break
    if j < 0 or tokens[j] in _BOUNDARY:
        if j >= 0 and tokens[j] in _BOUNDARY:  # "Me and two roommates, Kofi and Lena, are moving": all of them
            earlier = [k for k in range(j) if _fold(tokens[k]) in _SUBJECT_PRONOUNS or _is_name(tokens[k], names)]
            if earlier:
                return frozenset().union(*(_doer_word(tokens, k, turn, names) for k in earlier))
        verb = _fold(tokens[i])
        told = verb.endswith(("ing", "ed")) and stem(verb) != verb  # "Planning ...", not "Bring ..."
        return frozenset({turn.speaker if told else turn.other})
    while j >= 3 and _fold(tokens[j - 1]) in _DETERMINERS and _fold(tokens[j - 2]) in _QUALIFIERS:
        j -= 3  # "Ana from the team booked": the doer is before what qualifies it
    word = _fold(tokens[j])
    bare = re.sub(r"'(?:s|ve|d|ll|re|m)$", "", word)
    if word in _QUESTIONS:
        return frozenset()  # "Who is driving?": a question names no doer
    if word in _OBJECT_PRONOUNS and bare not in ("you",) and word not in ("us",):
        if word == "me":
            return frozenset({turn.speaker})
        return frozenset({"third"})  # "help him fill in"
    if bare in _SUBJECT_PRONOUNS:
        return _named_before(tokens, j, names) if bare in _SINGULAR else _pronoun(bare, turn)
    if _is_name(tokens[j], names):
        while j and _is_name(tokens[j - 1], names):
            j -= 1  # "Pena Palace tickets": the name's first word keys it
        word = _fold(tokens[j])
        group = {f"name:{_name_key(word)}"}
        k = j - 1
        while k >= 1 and _fold(tokens[k]) in ("and", ","):
            who = _doer_word(tokens, k - 1, turn, names)
            if not who or who == frozenset({"thing"}):
                break
            group |= who
            k -= 2
        return frozenset(group)
    if word in _CONJUNCTIONS:  # "I'll stay and collect": the first verb's doer
        earlier = [k for k in range(j) if _fold(tokens[k]) in _SUBJECT_PRONOUNS or _is_name(tokens[k], names)]
        return _doer_word(tokens, earlier[0], turn, names) if earlier else frozenset({"any"})
    if word in RELATION_WORDS or _AGENT.fullmatch(word):
        return frozenset({f"noun:{word}"})
    if word.isalpha() and j and _fold(tokens[j - 1]) in _DETERMINERS | _POSSESSORS:
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
        if _is_name(tokens[k], names) and not (k and _fold(tokens[k - 1]) in _AT_PLACE):
            while k and _is_name(tokens[k - 1], names):
                k -= 1
            return frozenset({f"name:{_name_key(tokens[k])}"})
    return frozenset({"third"})


def _cast_otherwise(who: str, doers: list[frozenset[str]], turns: tuple[_Turn, ...]) -> bool:
    """Whether ``doers`` name a person for the act and none may be ``who``."""
    people = [d for d in doers if d and d != frozenset({"thing"})]
    if not people:
        return False
    return not any(_may_be(who, d, turns) for d in people)


def _may_be(who: str, doer: frozenset[str], turns: tuple[_Turn, ...]) -> bool:
    """Whether ``doer`` (who a clause's doer or owner may be) may be ``who``."""
    if "any" in doer or who in doer:
        return True
    if who.startswith("name:"):
        name = who.removeprefix("name:")
        # the user may be one the user never names ("I'll pick it up" of a tool's patient)
        if "third" in doer or ("user" in doer and name not in _spoken_of(turns)):
            return True
        return any(_tied(d.removeprefix("noun:"), name, turns) for d in doer if d.startswith("noun:"))
    return False


@functools.lru_cache(maxsize=8)
def _spoken_of(turns: tuple[_Turn, ...]) -> frozenset[str]:
    """The words of the user's own turns, but the name the user gives as theirs ("I'm
    Leo", "my name is Leo"): a name among them is someone else to the user."""
    said = [[_fold(t) for t in tokens] for turn in turns if turn.speaker == "user" for tokens in turn.sentences]
    own = {
        words[i + 1] for words in said for i in range(len(words) - 1)
        if words[i] == "i'm" or words[i - 1 : i + 1] in (["i", "am"], ["name", "is"])
    }
    return frozenset(w.removesuffix("'s") for words in said for w in words) - own


def _tied(noun: str, name: str, turns: tuple[_Turn, ...]) -> bool:
    """Whether a sentence of the conversation says both ``noun`` and ``name`` ("her form
    tutor Mr Adeyemi"): the person by a tie may be the one by a name."""
    return any(
        {noun, name} <= {_fold(t).removesuffix("'s") for t in tokens}
        for turn in turns for tokens in turn.sentences
    )


# --- whose a thing is -------------------------------------------------------------------


def _possessor(tokens: tuple[str, ...], turns: tuple[_Turn, ...], names: frozenset[str]) -> str | None:
    """Why a "<Name>'s <noun>" of the claim is said only as someone else's, or None."""
    subject: str | None = None
    for k, token in enumerate(tokens):
        word = _fold(token)
        if k + 1 >= len(tokens):
            break
        noun = _fold(tokens[k + 1])
        if not noun.isalpha() or noun in STOP_WORDS:
            continue
        if word.endswith("'s") and _is_name(token, names):
            who = f"name:{_name_key(word)}"
        elif word in ("user's", "users'"):
            who = "user"
        elif word in ("her", "his") and subject is not None:
            who = subject
        else:
            if _is_name(token, names) and subject is None:
                subject = f"name:{_name_key(word)}"
            continue
        owners = _owners(noun, turns, names)
        if owners and not any(_may_be(who, d, turns) for d in owners):
            return "gives a thing to someone the conversation does not say has it"
    return None


def _owners(noun: str, turns: tuple[_Turn, ...], names: frozenset[str]) -> list[frozenset[str]]:
    """Whose ``noun`` the conversation says it is, clause by clause: "my", "our", "your",
    "his/her/their", "<Name>'s" before it (a word between allowed: "my old bike"), "of
    <Name>" after it."""
    out = []
    for turn in turns:
        for tokens in turn.sentences:
            for i, token in enumerate(tokens):
                if _fold(token) != noun:
                    continue
                for j in (i - 1, i - 2):
                    if j < 0:
                        break
                    word = _fold(tokens[j])
                    owner = _owner_word(tokens[j], word, turn, names)
                    if owner is not None:
                        out.append(owner)
                        break
                    if not word.isalpha() or word in STOP_WORDS:
                        break
                if i + 2 < len(tokens) and _fold(tokens[i + 1]) == "of" and _is_name(tokens[i + 2], names):
                    out.append(frozenset({f"name:{_name_key(tokens[i + 2])}"}))
    return out


def _owner_word(token: str, word: str, turn: _Turn, names: frozenset[str]) -> frozenset[str] | None:
    if word == "my":
        return frozenset({turn.speaker})
    if word == "our":
        return frozenset({"any"})
    if word == "your":
        return frozenset({turn.other})
    if word in ("his", "her", "their"):
        return frozenset({"third"})
    if word.endswith("'s") and _is_name(token, names):
        return frozenset({f"name:{_name_key(word)}"})
    return None


# --- what a thing is called ---------------------------------------------------------------


def _naming(claim: str, turns: tuple[_Turn, ...], names: frozenset[str]) -> str | None:
    """Why the claim gives a name to something the conversation never gives it, or None."""
    for match in _NAMED.finditer(claim):
        x = match.group("x") or match.group("tx")
        y = (match.group("y") or match.group("ty") or "").strip("\"'\u201c\u201d\u2018\u2019 ,.")
        target = _fold(x).removesuffix("'s")
        if target in STOP_WORDS or target in _NAME_WORDS or not y:
            continue
        said = _tokens(y)
        holding = [
            (turn, tokens, i)
            for turn in turns for tokens in turn.sentences
            for i in range(len(tokens) - len(said) + 1)
            if [_fold(t) for t in tokens[i : i + len(said)]] == [_fold(t) for t in said]
        ]
        if not holding:
            continue  # a name never said: ``bindings.invented_name`` and the words' support judge it
        person = _is_name(x, names)
        if not any(_named_there(target, person, tokens, i) for _, tokens, i in holding):
            return "gives a name to something the conversation does not call so"
    return None


def _named_there(target: str, person: bool, tokens: Sequence[str], i: int) -> bool:
    """Whether the sentence ``tokens``, holding the name at ``i``, may say it of
    ``target``: it holds the target ("narrowboat" holds "boat"), or it names a pronoun
    whose thing may be the target."""
    if any(_same_thing(target, _fold(t).removesuffix("'s")) for t in tokens):
        return True
    if i >= 2 and _fold(tokens[i - 2]) in ("called", "named", "call", "name", "titled"):
        pronoun = _fold(tokens[i - 1])
        if pronoun == "it":
            if person:
                return False
            thing = _antecedent(tokens, i - 2)
            return thing is None or _same_thing(target, thing)
        return pronoun in ("her", "him", "them")
    return False


def _antecedent(tokens: Sequence[str], i: int) -> str | None:
    """The thing an "it" before ``i`` stands for: the word after the nearest determiner or
    possessor before it ("the boat's name": boat), or None."""
    for k in range(i - 1, -1, -1):
        if _fold(tokens[k]) in _DETERMINERS | _POSSESSORS and k + 1 < i:
            return _fold(tokens[k + 1]).removesuffix("'s")
    return None


def _same_thing(a: str, b: str) -> bool:
    """Two words for one thing: one word's forms, or a compound and its head ("narrowboat",
    "boat")."""
    if not a.isalpha() or not b.isalpha() or len(a) < 3 or len(b) < 3:
        return False
    return same_word(stem(a), stem(b)) or a.endswith(b) or b.endswith(a)
