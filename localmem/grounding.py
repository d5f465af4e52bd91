"""Whether what a local model states is supported by what was actually written.

A small model asked for a checkpoint in JSON answers with items that sound right: "Decision:
Take ibuprofen instead of penicillin" for a conversation that warned against ibuprofen with
warfarin, "Current step: take ibuprofen for it", a preference nobody stated. One shared word
was enough to store them. :func:`check` holds a model's item to what the conversation says:

1. **Content.** Its content words (four letters or more, not stop words nor negation words;
   numbers count) must exist: "id: 3" says nothing and is dropped.
2. **One source.** At least :data:`SUPPORT_SHARE` of them must be in ONE source text (a
   message the user or assistant wrote, or a line of the session's state), as whole words
   or plain word forms ("schedules" ~ "schedule"), outside questions: "Can she take
   ibuprofen?" asks, it does not state.
3. **Same polarity there.** Each of its words that the source holds must be negated in the
   item exactly when it is negated in the source. A word is negated when it is the object
   of a negation ("not", "never", "don't", "avoid", "without", "stop"...), a substitution
   ("instead of", "rather than") or an allergy ("allergic to"): the first content word
   after it that is not a verb a warning carries (:data:`CARRIERS`), the words of the same
   phrase, and what "or" or "and" adds ("don't give her ibuprofen or aspirin with
   warfarin" negates ibuprofen and aspirin, not warfarin); or when "allergy" follows it.
   A negated negation asserts: "she must not stop warfarin" negates nothing.
   "Don't forget to" and "not only" negate nothing.
4. **No flipped warning.** A word the conversation negates anywhere ("never give her
   ibuprofen", "allergic to penicillin") is never asserted by a model's item: "take
   ibuprofen" is dropped even when another message asked about it. (The verbs a warning
   carries, :data:`CARRIERS`, are exempt: "give warfarin at 6 pm" stays.) The deterministic
   rules, which quote what people said, remain for such statements.

:func:`check_name` holds a reference (a file, a table, an identifier) to appearing verbatim
in one source. Pure functions; case-insensitive; they never raise on any ``str``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Final

from .words import STOP_WORDS, stem
from .words import words as text_words

SUPPORT_SHARE: Final = 0.6
"""Share of an item's content words that one source must hold ("most of them")."""
SCOPE_WORDS: Final = 5
"""Words after a negation that it reaches, within the clause."""
MIN_WORD_CHARS: Final = 4
MIN_PREFIX_CHARS: Final = 3
MAX_PREFIX_EXTRA: Final = 3

_CLAUSE = re.compile(r"[.,:](?!\d)|[;!?()\[\]{}\n\"\u201c\u201d]|\s[-\u2013\u2014]\s")
"""What ends a clause: punctuation, but not the separators inside a number ("10:30",
"8,450", "1.5.3" are one word, as ``words`` reads them)."""
_QUESTION = re.compile(r"[^.!?\n]*\?")
NEGATIONS: Final = frozenset(
    """
    not no never none nothing without avoid avoids avoiding avoided stop stopped stopping
    don't dont doesn't doesnt didn't didnt won't wont can't cant cannot shouldn't shouldnt
    mustn't isn't aren't wasn't weren't neither nor skip skipping against except instead
    allergic intolerant refuse refused
    """.split()
)
"""Words that negate what follows them (``instead`` stands for "instead of")."""
_PAIRS: Final = (("rather", "than"),)
_ENDS: Final = frozenset({"and", "but", "then", "so", "while", "because", "since", "though"})
"""Words that end a negation's reach: "avoid ibuprofen and take acetaminophen"."""
_JOINS: Final = frozenset({"or", "nor", "and"})
"""Words that add another object to a negation: "no ibuprofen or aspirin"."""
_EXAMPLES: Final = frozenset({"like", "including", "especially"})
"""Words (and "such as") that name examples of a negated object: "avoid NSAIDs like
ibuprofen" warns against ibuprofen too."""
_CANCELS: Final = frozenset({"forget", "miss", "hesitate", "worry", "fail", "only"})
"""A negation right before one of these is an idiom, not a negation ("don't forget to")."""
CARRIERS: Final = frozenset(
    """
    give gives giving take takes taking use uses using make have start starting keep try put
    eat eating drink drinking mix combine add buy get go do run call send
    """.split()
)
"""Verbs a warning carries its object with ("never GIVE her ibuprofen"): negated there, but
not warned against everywhere (rule 4 would otherwise drop "give warfarin at 6 pm")."""
_AFTER: Final = frozenset({"allergy", "allergies", "intolerance"})
"""Words that negate the word right before them ("penicillin allergy")."""
_FILLERS: Final = frozenset({"longer", "anymore"})
"""Words that complete a negation, never its object: "no longer takes lisinopril" negates
lisinopril, not "longer"."""
_DOUBLE: Final = 2
"""A negation this close after another one, before its object, cancels it: "not
allergic to", "no longer allergic to", "never stop taking" assert their object."""


@dataclass(frozen=True)
class _Text:
    """One source, read once: its word forms outside questions, and its negated forms."""

    forms: frozenset[str]
    negated: frozenset[str]
    asserted: frozenset[str]
    lowered: str


@dataclass
class Evidence:
    """What a model's items may rest on: ``sources`` (messages and state lines, each one
    text) and the ``conversation``'s messages (for warnings said anywhere)."""

    sources: Sequence[str]
    conversation: Sequence[str] = ()
    _texts: list[_Text] = field(default_factory=list, init=False, repr=False)
    _warned: frozenset[str] = field(default=frozenset(), init=False, repr=False)

    def __post_init__(self) -> None:
        self._texts = [_read(text) for text in self.sources]
        self._warned = frozenset().union(*(_read(t).negated for t in self.conversation))

    def check(self, item: str) -> str | None:
        """None when ``item`` is supported (see the module docstring), else why not."""
        return check(item, self)

    def check_name(self, name: str) -> str | None:
        """None when the reference ``name`` appears verbatim in one source, else why not."""
        return check_name(name, self)

    def supporting(self, item: str) -> list[str]:
        """The sources that support ``item`` on their own (rules 2-3): what it was taken
        from (an Evidence of sentences tells which sentences: ``localmem.statements``)."""
        forms = [(stem(w), n) for w, n in _clauses(item) if _is_content(w)]
        out = []
        for source, text in zip(self.sources, self._texts) if forms else ():
            held = [(f, n) for f, n in forms if f in text.forms]
            if len(held) >= SUPPORT_SHARE * len(forms) and all(_same_polarity(f, n, text) for f, n in held):
                out.append(source)
        return out


def check(item: str, evidence: Evidence) -> str | None:
    """None when ``item`` is supported by ``evidence`` (rules 1-4), else the reason."""
    words = _clauses(item)
    content = [w for w in words if _is_content(w[0])]
    if not any(not w[:1].isdigit() for w, _ in content):
        return "no content words"  # "id: 3"
    forms = [(stem(w), negated) for w, negated in content]
    for form, negated in forms:
        if not negated and form in evidence._warned:
            return "asserts what the conversation warns against"
    best = 0.0
    for text in evidence._texts:
        held = [(f, n) for f, n in forms if f in text.forms]
        share = len(held) / len(forms)
        best = max(best, share)
        if share >= SUPPORT_SHARE and all(_same_polarity(f, n, text) for f, n in held):
            return None
    if best >= SUPPORT_SHARE:
        return "negation flipped"
    return "not supported by any one message"


def support(item: str, evidence: Evidence) -> tuple[int, ...] | None:
    """The indexes of the sources ``item`` is built from (the one holding most of it
    first), or None when they do not support it.

    Each source that holds some of its content words, every one with the item's
    polarity (rule 3), counts; picked greedily (the one adding the most words
    first, the first on ties) until none adds any, they must together hold
    :data:`SUPPORT_SHARE` of its words: one source as :func:`check` asks, or
    several (a fact told over two messages: "My daughter is Emma." "She's
    allergic to peanuts."). Rules 1 and 4 hold as for :func:`check`. Every
    source picked is named, so that forgetting any one of them forgets the fact.
    """
    content = [(w, n) for w, n in _clauses(item) if _is_content(w)]
    if not any(not w[:1].isdigit() for w, _ in content):
        return None
    forms = {(stem(w), negated) for w, negated in content}
    if any(not negated and form in evidence._warned for form, negated in forms):
        return None
    helping: list[tuple[int, frozenset[tuple[str, bool]]]] = []
    for index, text in enumerate(evidence._texts):
        held = frozenset((f, n) for f, n in forms if f in text.forms)
        if held and all(_same_polarity(f, n, text) for f, n in held):
            helping.append((index, held))
    chosen: list[int] = []
    covered: set[tuple[str, bool]] = set()
    while True:
        gain, index, held = max(
            ((len(h - covered), -i, h) for i, h in helping), default=(0, 0, frozenset())
        )
        if gain == 0:
            break
        chosen.append(-index)
        covered |= held
    if len(covered) / len(forms) < SUPPORT_SHARE:
        return None
    return tuple(chosen)


def check_name(name: str, evidence: Evidence) -> str | None:
    """None when ``name`` (3 characters or more, a letter among them) is in one source."""
    wanted = name.strip().casefold()
    if len(wanted) < 3 or not any(c.isalpha() for c in wanted):
        return "no content words"
    if any(wanted in text.lowered for text in evidence._texts):
        return None
    return "not in any message"


Reading = _Text
"""A text read once (:func:`read`): its word forms outside questions, negated and asserted."""


def read(text: str) -> Reading:
    """``text`` read as a source (rules 2-3): what it states, outside its questions."""
    return _read(text)


def read_answered(question: str, answer: str) -> Reading:
    """A question and its answer read as one source: the question's words stated, except
    that the answer's polarity wins ("Can she take ibuprofen?" answered "don't give her
    ibuprofen" negates ibuprofen; it does not also assert it)."""
    asked = _read(question.replace("?", "."))
    said = _read(answer)
    return _Text(
        forms=asked.forms | said.forms,
        negated=said.negated | (asked.negated - said.asserted),
        asserted=said.asserted | (asked.asserted - said.negated),
        lowered=f"{asked.lowered} {said.lowered}",
    )


def item_forms(item: str, ignore: frozenset[str] = frozenset()) -> list[tuple[str, bool]]:
    """The content word forms of ``item`` (rule 1; the words of ``ignore`` left out), each
    once, in order, with whether a negation reaches it (rule 3)."""
    out: dict[str, bool] = {}
    for word, negated in _clauses(item):
        if _is_content(word) and word not in ignore:
            out.setdefault(stem(word), negated)
    return list(out.items())


def held(forms: Sequence[tuple[str, bool]], reading: Reading) -> tuple[list[str], bool]:
    """The forms of ``forms`` (:func:`item_forms`) that ``reading`` holds, and whether it
    holds each with the same polarity (rule 3). A form is held as itself or as a form
    :func:`same_word` matches ("takes" is "tak", "take" is "take")."""
    found: list[str] = []
    same = True
    for form, negated in forms:
        match = form if form in reading.forms else next(
            (f for f in reading.forms if same_word(form, f)), None
        )
        if match is not None:
            found.append(form)
            same = same and _same_polarity(match, negated, reading)
    return found, same


def same_word(a: str, b: str) -> bool:
    """Whether two stems stand for one word: equal, or (letters only) the shorter, of
    :data:`MIN_PREFIX_CHARS` letters at least, begins the longer, which has at most
    :data:`MAX_PREFIX_EXTRA` letters more ("tak" ~ "take", "sav" ~ "saving"), or their
    stems are equal ("setting" ~ "set"): ``stem`` takes off one suffix, so two forms of a
    word can keep different ends."""
    if a == b or stem(a) == stem(b):  # "settings" -> "setting" -> "set" ~ "setting" -> "set"
        return True
    short, long = sorted((a, b), key=len)
    return (
        len(short) >= MIN_PREFIX_CHARS
        and len(long) - len(short) <= MAX_PREFIX_EXTRA
        and long.startswith(short)
        and short.isalpha()
    )


def holds_word(forms: Collection[str], form: str) -> bool:
    """Whether ``forms`` (stems) hold the word ``form`` stands for: itself, or a form
    :func:`same_word` matches ("tak" ~ "take")."""
    return form in forms or any(same_word(form, f) for f in forms)


def word_forms(text: str) -> frozenset[str]:
    """Every word form of ``text``, questions included: what it says at all."""
    return frozenset(stem(w) for w in text_words(text))


def content_words(text: str) -> list[str]:
    """The content words of ``text`` (rule 1), case-folded, in order."""
    return [w for w, _ in _clauses(text) if _is_content(w)]


def negated_words(text: str) -> list[str]:
    """The content words of ``text`` a negation reaches (rule 3), case-folded, in order:
    what a warning warns against ("don't give her ibuprofen" -> give, ibuprofen)."""
    return [w for w, negated in _clauses(text) if negated and _is_content(w)]


def _same_polarity(form: str, negated: bool, text: _Text) -> bool:
    if form in _CARRIER_FORMS:
        return True  # "give" is neither warned against nor decided
    return form in (text.negated if negated else text.asserted)


def _read(text: str) -> _Text:
    lowered = text.casefold()
    stated = _QUESTION.sub(" ", lowered)
    words = _clauses(stated)
    forms = {stem(w) for w, _ in words}
    return _Text(
        forms=frozenset(forms),
        negated=frozenset(stem(w) for w, n in words if n),
        asserted=frozenset(stem(w) for w, n in words if not n),
        lowered=lowered,
    )


def _clauses(text: str) -> list[tuple[str, bool]]:
    """Every word of ``text`` (case-folded) with whether a negation reaches it.

    A negation reaches its object: the first content word after it that is not a carrier
    verb (at most :data:`SCOPE_WORDS` words on), the content words right after that one
    ("grapefruit juice"), and what "or", "nor" or "and" adds to them ("peanuts and tree
    nuts"; not "and take acetaminophen": a carrier after "and" starts a new statement),
    and the examples of it "like", "such as" or "including" name ("avoid NSAIDs like
    ibuprofen"). A negation that is itself negated asserts ("must not stop warfarin", "not allergic to").
    """
    out: list[tuple[str, bool]] = []
    for clause in _CLAUSE.split(text.casefold()):
        words = text_words(clause)
        waiting = -1  # a negation waits for its object up to this index
        last = -_DOUBLE - 1  # the index of the latest negation still waiting
        inside = False  # the words so far belong to a negated object
        for i, word in enumerate(words):
            following = words[i + 1] if i + 1 < len(words) else ""
            negated = following in _AFTER
            if word in _ENDS and not (word == "and" and inside and following not in CARRIERS):
                waiting, inside = -1, False
            elif (word in NEGATIONS or (word, following) in _PAIRS) and following not in _CANCELS:
                if not inside and i <= waiting and i - last <= _DOUBLE:
                    waiting, last = -1, -_DOUBLE - 1  # a negation of a negation
                else:
                    waiting, inside, last = i + SCOPE_WORDS, False, i
            elif inside and (word in _JOINS or word in _EXAMPLES or (word, following) == ("such", "as")):
                waiting, inside = i + SCOPE_WORDS, False
            elif _is_content(word) and word not in CARRIERS and (inside or i <= waiting):
                negated, inside, waiting = True, True, -1
            elif inside:
                inside = False
            out.append((word, negated))
    return out


def _is_content(word: str) -> bool:
    if word[:1].isdigit():
        return True
    return (
        len(word) >= MIN_WORD_CHARS
        and word not in STOP_WORDS
        and word not in NEGATIONS
        and word not in _FILLERS
    )


_CARRIER_FORMS: Final = frozenset(stem(w) for w in CARRIERS)
