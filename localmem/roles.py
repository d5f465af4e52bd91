"""Who did what: whether a claim binds a person to an act, a possession or a name as the
conversation does.

Word overlap sees that every word of "Priya and Hassan collect £240" was said; it cannot see
that Hassan collected it and Priya took the card round. A small model keeps the words and
moves the roles: "Leila is preparing her medical form" (her parent fills it in), "Ewan and
Sofia are planning a weekend with two friends, Ewan and Sofia" (the user plans it with
them), "Leila's husband" (the user's "my husband"), "Margaret is called The Last Chapter"
(the boat is). :func:`miscast` reads three bindings of a claim (a summary's sentence, a
fact) and holds each to the single clauses of the conversation that bind the same two
(pure; never raises on any ``str``); :mod:`clauses` reads the words of one clause, a claim's
or the conversation's:

- **actor**: "<Name> <verb> ..." (names joined by "and" count each; "the user" is the
  user). The conversation's clauses holding that verb (its stem, used as a verb: not after
  "the", "a", "of"...) are read for their subject (:func:`clauses.subject_before`: a name,
  "I" of the speaker, "you" of the other party, a person by a tie or a trade, "he" or "she"
  the name before them in their sentence, "we", "they" of anyone; a thing is no one); a
  person by a tie or a trade ("my husband",
  "the owner") is that name only where a sentence says both. The claim's verb
  may be irregular or paraphrased ("preparing" the form that the user "need(s) to sign"):
  when the conversation never uses the verb, the clauses where a verb acts on the claim's
  object (the head of what follows the verb) stand for it. The claim is miscast when some
  such clause has a person as its doer and none may be the name. When some of the verb's
  clauses also say the claim's words after its verb ("played for her uni team"), theirs
  alone are read: the act is the verb with what it is done to ("we just turned up and
  played" says nothing of who played for the uni team). Verbs that only carry ("has",
  "gets", "wants") are not read.
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
from typing import Final

from .clauses import (
    AT_PLACE, AUX, BOUNDARY, CONJUNCTIONS, DETERMINERS, POSSESSORS, TITLES, Turn, doer_word, fold, is_name, name_key,
    object_head, owner_word, subject_at, subject_before, tokenize, verb_after,
)
from .extract import sentences
from .grounding import same_word
from .words import NUMBER_WORDS, SPEAKER_LABEL, STOP_WORDS, TIME_WORDS, stem

_NAME_FOLLOWS: Final = frozenset("is are was were has have had will would can could and 's just also already".split())
"""A capitalized word opening a sentence before these is a name ("Hassan has ...")."""
_LABEL = re.compile(rf"(?={SPEAKER_LABEL.pattern})[A-Z][\w'-]*(?: [A-Z][\w'-]*){{0,2}}: ")
"""A transcript's speaker label (``words.SPEAKER_LABEL``) of capitalized words: "Priya: ",
not "Got it: "."""
_SIDES: Final = {"user": ("user", "assistant"), "assistant": ("assistant", "user")}
"""Who says "I" and who is "you" in a turn of each role (a tool's: neither party)."""
_OPENERS: Final = frozenset({".", "!", "?", ":", '"', "\u201c", "("})
"""Marks after which a word is capitalized for the start it makes, not for a name."""
_NOT_VERB_BEFORE: Final = DETERMINERS | POSSESSORS | frozenset("of for".split())
"""A word of the verb's form after these is a noun ("change of plan", "the plan")."""
_NAMED = re.compile(
    r"(?P<x>[\w'\u2019-]+)(?:\s+(?:is|was|are|were|'s))?\s+(?:called|named|titled)\s+"
    r"(?P<y>[\"\u201c'\u2018][^\"\u201d'\u2019]{2,60}[\"\u201d'\u2019]"
    r"|(?:[A-Z][\w'\u2019-]*)(?:\s+[A-Z][\w'\u2019-]*)*)"
    r"|(?P<tx>[\w'\u2019-]+),?\s+[\"\u201c](?P<ty>[A-Z][^\"\u201d]{1,60}?)[,.]?[\"\u201d]"
)
"""A claim that names something: "<X> is called <Y>", "<X> named <Y>", '<X>, "<Y>,"'."""
_NAME_WORDS: Final = frozenset("name names called named titled title".split())


def miscast(claim: str, pairs: Sequence[tuple[str, str]]) -> str | None:
    """Why ``claim`` (a summary's sentence, a fact) binds a person to an act, a possession
    or a name that no clause of ``pairs`` (``(role, text)`` turns) binds them to, or None
    (see the module docstring)."""
    if not claim.strip():
        return None
    turns, names = _read(tuple((role, text) for role, text in pairs if role.strip().casefold() != "system"))
    if not turns:
        return None
    tokens = tokenize(claim)
    return _actor(tokens, turns, names) or _possessor(tokens, turns, names) or _naming(claim, turns, names)


@functools.lru_cache(maxsize=8)
def _read(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[Turn, ...], frozenset[str]]:
    """The turns as :class:`Turn` and the people the conversation names: a capitalized
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
                    turns.append(Turn(speaker, other, tuple(parts)))
                    parts = []
                said = _sentences(line[label.end():], upper, lower)
                upper.add(name_key(label.group().rstrip(": ")))
                turns.append(Turn(f"name:{name_key(label.group().rstrip(': '))}", "any", said))
            else:
                parts += _sentences(line, upper, lower)
        if parts:
            turns.append(Turn(speaker, other, tuple(parts)))
    places = {
        fold(tokens[i + 1]).removesuffix("'s")
        for turn in turns for tokens in turn.sentences for i in range(len(tokens) - 1)
        if fold(tokens[i]) in AT_PLACE
    }
    names = frozenset(
        w for w in upper - lower - places
        if w.isalpha() and w not in STOP_WORDS and w not in TIME_WORDS and w not in TITLES and w not in NUMBER_WORDS
        and len(w) >= 2
    )
    return tuple(turns), names


def _sentences(text: str, upper: set[str], lower: set[str]) -> tuple[tuple[str, ...], ...]:
    """The sentences of ``text`` as tokens; a word written in lower case noted in
    ``lower``, one capitalized inside a sentence, or opening one before an auxiliary, in
    ``upper``."""
    out = []
    for sentence in sentences(text):
        tokens = tokenize(sentence)
        out.append(tokens)
        for i, token in enumerate(tokens):
            word = fold(token).removesuffix("'s")
            if not token[:1].isupper():
                lower.add(word)
            elif (i and tokens[i - 1] not in _OPENERS) or fold(next(iter(tokens[i + 1 :]), "")) in _NAME_FOLLOWS:
                upper.add(word)  # "Hassan has collected"; not "Go now", "Watch for ..."
    return tuple(out)


# --- the claim's bindings -------------------------------------------------------------


def _actor(tokens: tuple[str, ...], turns: tuple[Turn, ...], names: frozenset[str]) -> str | None:
    """Why an "<Name> <verb>" of the claim's ``tokens`` has a doer the conversation does
    not give that act, or None."""
    k = 0
    while k < len(tokens):
        group, end = subject_at(tokens, k, names)
        if not group:
            k += 1
            continue
        verb, at = verb_after(tokens, end, plural=len(group) > 1)
        k = end
        if verb is None:
            continue
        doers = _doers(verb, turns, names, _complement(tokens, at + 1))
        if not doers:
            head = object_head(tokens, at + 1)
            doers = _object_doers(head, turns, names) if head else []
        for who in group:
            if _cast_otherwise(who, doers, turns):
                return "gives an act to someone the conversation does not say did it"
    return None


def _cast_otherwise(who: str, doers: list[frozenset[str]], turns: tuple[Turn, ...]) -> bool:
    """Whether ``doers`` name a person for the act and none may be ``who``."""
    people = [d for d in doers if d and d != frozenset({"thing"})]
    if not people:
        return False
    return not any(_may_be(who, d, turns) for d in people)


# --- who does an act in the conversation ------------------------------------------------


def _places(form: str, turns: tuple[Turn, ...]) -> Iterator[tuple[Turn, tuple[str, ...], int]]:
    """Each word of ``turns`` that is a form of the stem ``form``: its turn, its sentence's
    tokens and its place there."""
    for turn in turns:
        for tokens in turn.sentences:
            for i, token in enumerate(tokens):
                word = fold(token)
                if word.isalpha() and same_word(stem(word), form):
                    yield turn, tokens, i


def _doers(
    verb: str, turns: tuple[Turn, ...], names: frozenset[str], along: frozenset[str] = frozenset()
) -> list[frozenset[str]]:
    """The doers of each clause of ``turns`` using ``verb`` as a verb; when some of those
    clauses also say every word stem of ``along`` (the claim's words after its verb) later
    in their sentence, the doers of those alone: the act is the verb with what it is done
    to ("we just turned up and played" does not say who "played for her uni team")."""
    out, with_along = [], []
    for turn, tokens, i in _places(stem(verb), turns):
        if i and fold(tokens[i - 1]) in _NOT_VERB_BEFORE:
            continue  # "change of plan", "the plan"
        if i + 2 < len(tokens) and fold(tokens[i + 1]) == "by":  # "coached by Mr Lewis"
            doer = doer_word(tokens, i + 2, turn, names) or frozenset({"any"})
        else:
            doer = subject_before(tokens, i, turn, names)
        out.append(doer)
        if along and along <= _stems_to_sentence_end(tokens, i + 1):
            with_along.append(doer)
    return with_along or out


def _complement(tokens: tuple[str, ...], j: int) -> frozenset[str]:
    """The stems of the content words after a claim's verb at ``j - 1``, up to the end of
    its clause: what the act is done to, for or with ("for his uni team": uni, team)."""
    out = set()
    while j < len(tokens) and tokens[j] not in BOUNDARY:
        word = fold(tokens[j])
        if word.isalpha() and word not in STOP_WORDS and word not in POSSESSORS and not tokens[j][:1].isupper():
            out.add(stem(word))
        j += 1
    return frozenset(out)


def _stems_to_sentence_end(tokens: tuple[str, ...], j: int) -> frozenset[str]:
    out = set()
    while j < len(tokens) and tokens[j] not in (".", "!", "?"):
        out.add(stem(fold(tokens[j])))
        j += 1
    return frozenset(out)


def _object_doers(head: str, turns: tuple[Turn, ...], names: frozenset[str]) -> list[frozenset[str]]:
    """The doers of the clauses where a verb acts on ``head`` ("I still need to sign the
    form"): the subject of a clause holding ``head`` after a doer and a verb."""
    out = []
    for turn, tokens, i in _places(stem(head), turns):
        start = i
        while start and tokens[start - 1] not in BOUNDARY:
            start -= 1
        clause = tokens[start:i]
        first = next((c for c, t in enumerate(clause) if fold(t) not in CONJUNCTIONS), None)
        if first is None:
            continue
        who = doer_word(clause, first, turn, names)
        # a doer, then a verb before the object: "I ... sign the form", not "The form is"
        if who and who != frozenset({"thing"}) and any(
            t.isalpha() and fold(t) not in STOP_WORDS and fold(t) not in AUX for t in clause[first + 1:]
        ):
            out.append(who)
    return out


def _may_be(who: str, doer: frozenset[str], turns: tuple[Turn, ...]) -> bool:
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
def _spoken_of(turns: tuple[Turn, ...]) -> frozenset[str]:
    """The words of the user's own turns, but the name the user gives as theirs ("I'm
    Leo", "my name is Leo"): a name among them is someone else to the user."""
    said = [[fold(t) for t in tokens] for turn in turns if turn.speaker == "user" for tokens in turn.sentences]
    own = {
        words[i + 1] for words in said for i in range(len(words) - 1)
        if words[i] == "i'm" or words[i - 1 : i + 1] in (["i", "am"], ["name", "is"])
    }
    return frozenset(w.removesuffix("'s") for words in said for w in words) - own


def _tied(noun: str, name: str, turns: tuple[Turn, ...]) -> bool:
    """Whether a sentence of the conversation says both ``noun`` and ``name`` ("her form
    tutor Mr Adeyemi"): the person by a tie may be the one by a name."""
    return any(
        {noun, name} <= {fold(t).removesuffix("'s") for t in tokens}
        for turn in turns for tokens in turn.sentences
    )


# --- whose a thing is -------------------------------------------------------------------


def _possessor(tokens: tuple[str, ...], turns: tuple[Turn, ...], names: frozenset[str]) -> str | None:
    """Why a "<Name>'s <noun>" of the claim is said only as someone else's, or None."""
    subject: str | None = None
    for k, token in enumerate(tokens):
        word = fold(token)
        if k + 1 >= len(tokens):
            break
        noun = fold(tokens[k + 1])
        if not noun.isalpha() or noun in STOP_WORDS:
            continue
        if word.endswith("'s") and is_name(token, names):
            who = f"name:{name_key(word)}"
        elif word in ("user's", "users'"):
            who = "user"
        elif word in ("her", "his") and subject is not None:
            who = subject
        else:
            if is_name(token, names) and subject is None:
                subject = f"name:{name_key(word)}"
            continue
        owners = _owners(noun, turns, names)
        if owners and not any(_may_be(who, d, turns) for d in owners):
            return "gives a thing to someone the conversation does not say has it"
    return None


def _owners(noun: str, turns: tuple[Turn, ...], names: frozenset[str]) -> list[frozenset[str]]:
    """Whose ``noun`` the conversation says it is, clause by clause: "my", "our", "your",
    "his/her/their", "<Name>'s" before it (a word between allowed: "my old bike"), "of
    <Name>" after it."""
    out = []
    for turn in turns:
        for tokens in turn.sentences:
            for i, token in enumerate(tokens):
                if fold(token) != noun:
                    continue
                for j in (i - 1, i - 2):
                    if j < 0:
                        break
                    word = fold(tokens[j])
                    owner = owner_word(tokens[j], word, turn, names)
                    if owner is not None:
                        out.append(owner)
                        break
                    if not word.isalpha() or word in STOP_WORDS:
                        break
                if i + 2 < len(tokens) and fold(tokens[i + 1]) == "of" and is_name(tokens[i + 2], names):
                    out.append(frozenset({f"name:{name_key(tokens[i + 2])}"}))
    return out


# --- what a thing is called ---------------------------------------------------------------


def _naming(claim: str, turns: tuple[Turn, ...], names: frozenset[str]) -> str | None:
    """Why the claim gives a name to something the conversation never gives it, or None."""
    for match in _NAMED.finditer(claim):
        x = match.group("x") or match.group("tx")
        y = (match.group("y") or match.group("ty") or "").strip("\"'\u201c\u201d\u2018\u2019 ,.")
        target = fold(x).removesuffix("'s")
        if target in STOP_WORDS or target in _NAME_WORDS or not y:
            continue
        said = tokenize(y)
        holding = [
            (turn, tokens, i)
            for turn in turns for tokens in turn.sentences
            for i in range(len(tokens) - len(said) + 1)
            if [fold(t) for t in tokens[i : i + len(said)]] == [fold(t) for t in said]
        ]
        if not holding:
            continue  # a name never said: ``bindings.invented_name`` and the words' support judge it
        person = is_name(x, names)
        if not any(_named_there(target, person, tokens, i) for _, tokens, i in holding):
            return "gives a name to something the conversation does not call so"
    return None


def _named_there(target: str, person: bool, tokens: Sequence[str], i: int) -> bool:
    """Whether the sentence ``tokens``, holding the name at ``i``, may say it of
    ``target``: it holds the target ("narrowboat" holds "boat"), or it names a pronoun
    whose thing may be the target."""
    if any(_same_thing(target, fold(t).removesuffix("'s")) for t in tokens):
        return True
    if i >= 2 and fold(tokens[i - 2]) in ("called", "named", "call", "name", "titled"):
        pronoun = fold(tokens[i - 1])
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
        if fold(tokens[k]) in DETERMINERS | POSSESSORS and k + 1 < i:
            return fold(tokens[k + 1]).removesuffix("'s")
    return None


def _same_thing(a: str, b: str) -> bool:
    """Two words for one thing: one word's forms, or a compound and its head ("narrowboat",
    "boat")."""
    if not a.isalpha() or not b.isalpha() or len(a) < 3 or len(b) < 3:
        return False
    return same_word(stem(a), stem(b)) or a.endswith(b) or b.endswith(a)
