"""The salient facts of a span: which sentences a summary must not lose.

An offline summary that names topics ("about: programming, Q&A") holds none of what was said;
a model summary of a caregiver's conversation that keeps the tone but drops the allergy is
worse than none. This module finds, extractively and deterministically, the sentences that
carry the span's facts, and says which of them are **safety-relevant**:

- every sentence (or ``;``-separated clause) of a user or assistant message is a candidate,
  stripped of a leading filler ("Okay, ", "Thanks! ");
- it scores for what it holds (:data:`WEIGHTS`): allergies (``allergy``), medicines, doses
  and pills (``medication``), warnings and dangerous interactions (``warning``), an
  appointment with a date or time (``appointment``), decisions (``decision``), dates and
  times (``date``), money (``money``), other numbers (``number``, more for several), files,
  code names and ticket keys (``reference``) and names (capitalized words inside a
  sentence, ``name``); a question scores less, it states nothing. "Allergy" covers the
  conditions a plan is made around like one: an intolerance, diabetes, asthma, seasickness;
- :func:`salient_facts` keeps the best-scoring candidates that fit a character budget
  (the best warning first when those would hold no warning nor allergy: a long warning is
  what a short budget loses), skips one that mostly repeats a kept one, and returns them in
  conversation order;
- :func:`dropped_kinds` tells which safety kinds of a span a summary does not mention (by
  each fact's anchors for that kind: the allergen of an allergy, what a warning warns
  against, the date of an appointment, the medicines and doses of a medication), and
  :func:`complete` adds what is missing to a summary, or says it cannot within the limit.

Pure functions of their input: the same messages always give the same facts, in well under a
millisecond for a 15-message span. They never raise on any ``str``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from localmem import words as vocab
from localmem.extract import sentences
from localmem.grounding import CARRIERS, negated_words
from localmem.statuses import outcomes

SAFETY_KINDS: Final = ("allergy", "medication", "warning", "appointment", "decision")
"""The kinds of fact a summary must keep (issue 17: allergies, medications and warnings,
appointments, decisions), most important first."""

WEIGHTS: Final = {
    "allergy": 4.0,
    "medication": 3.0,
    "warning": 3.0,
    "appointment": 2.5,
    "decision": 2.0,
    "date": 2.0,
    "money": 1.5,
    "number": 1.0,
    "reference": 1.0,
    "name": 1.0,
}
EXTRA_NUMBER_BONUS: Final = 0.5
"""Each further number of a sentence ("failed 3 times in 100 runs, 0 after"), at most two."""
MIN_SCORE: Final = 1.5
"""A number or a name alone is not a fact worth quoting ("Step 3", "Thanks, Anna")."""
QUESTION_PENALTY: Final = 1.5
MAX_NAME_BONUS: Final = 2
LONG_FACT_CHARS: Final = 160
"""A longer candidate costs a point: it takes the room of two facts."""
REPEAT_SHARE: Final = 0.6
"""A candidate whose content words are this much in the kept facts already is skipped."""
MIN_ANCHOR_STEM: Final = 5
"""Anchors match by a shared prefix of this many letters ("allergic" ~ "allergy")."""
CLAUSE_CACHE: Final = 4096
"""Candidates whose score is kept: a rollup, or a model summary's check, reads again the
sentences its range's summaries read (an import scores each once)."""
WORD_CACHE: Final = 16384
"""Words whose kind is kept (``_word_kind``): a conversation's vocabulary repeats."""

_HEALTH_KINDS: Final = frozenset({"allergy", "medication"})
"""The kinds of fact about the user's health that only the user's own words can state."""
_STATE_NEGATIONS: Final = frozenset(
    "no not none nothing never without isn't aren't wasn't weren't doesn't don't".split()
)
"""Words that deny a state ("no allergies", "isn't allergic", "none recorded")."""
DENIAL_REACH: Final = 3
"""How many words after a negation a health word it denies may stand."""
_YOU = re.compile(
    r"\byou(?:'re| are| were|'ve| have| had| take| took| told me| said| mentioned| suffer)\b"
    r"|\byour (?:\w+ )?(?:record|history|chart|file|allerg|medication|condition|diagnosis|prescription)",
    re.IGNORECASE,
)
"""Another voice saying what the user is, has, takes or said."""

_I = re.IGNORECASE
_FILLER = re.compile(
    r"^(?:(?:ok(?:ay)?|sure|yes|yeah|yep|great|good|perfect|thanks|thank you|alright|right"
    r"|also|so|well|hmm+|oh|ah|got it|sounds good|cool|nice|hi|hello|hey|noted|note)[,.!:;]+\s+)+",
    _I,
)
_CLAUSE = re.compile(r"\s*;\s+|\s+[\u2014\u2013]\s+|\s+-\s+")
_CLAUSE_MARKS: Final = frozenset(";-\u2014\u2013")
_REASON_TAIL = re.compile(
    r"(?:,|:)\s+(?:since|because|which|so that(?!['\u2019])|though|although|given that|together they"
    r"|that is why|this is why)\b(?:[^.!?\d]|(?<=\d)[.,:](?=\d))*(?=[.!?]*$)",
    _I,
)
"""An explanation after a comma or a colon that ends the sentence and holds no number: the
fact stands without it, in half the room. A tail with a number states a figure of its own
("so that's £9.60 each", "which is 2.5 mg"), and "so that's" is a result, not the purpose
"so that" gives; the tail runs to the sentence's end (a decimal point or a time's colon is
no end), so an amount is never cut ("£9.60" read to "£9" and ".60 each")."""
# Kinds are told by words (a set or a prefix test: ten times cheaper than one big regex);
# the few phrases that need a regex run only when a word says they may match.
_ALLERGY_PREFIXES: Final = (
    "allerg", "anaphyla", "intoleran", "diabet", "asthma", "epilep", "seasick", "pregnan",
    "lactose", "gluten",
)
"""Allergies, and the conditions a plan must be made around like one (diabetes, asthma,
seasickness, pregnancy...)."""
_ALLERGY_WORDS: Final = frozenset(
    {"epipen", "epi-pen", "epipens", "celiac", "coeliac", "hives", "vegan", "vegetarian"}
)
_MEDICATION_WORDS: Final = frozenset(
    """
    medication medications medicine medicines meds pill pills tablet tablets capsule capsules
    dose doses dosage dosing
    """.split()
)
_MEDICATION_PREFIXES: Final = ("prescri", "pharmac")
_DOSE = re.compile(r"\d(?:\.\d+)?\s?(?:mg|mcg|ml|µg|iu)\b", _I)
DANGER_PREFIXES: Final = ("warn", "danger", "interact", "bleed", "poison", "toxic", "overdos")
"""Words that name a danger by their beginning: a warning whatever else is said."""
_STRONG_WARNING_WORDS: Final = frozenset({"unsafe", "choking"})
_WARNING_WORDS: Final = frozenset(
    {"never", "avoid", "avoids", "avoiding", "don't", "dont", "risk", "risks", "risky", "emergency"}
)
_WARNING_PHRASE = re.compile(r"\b(?:must not|do not|side effects?)\b", _I)
_APPOINTMENT_WORDS: Final = frozenset(
    """
    appointment appointments checkup checkups check-up check-ups visit visits consult
    consultation surgery exam scan inr dentist doctor dr clinic hospital vet
    """.split()
)
_DECISION_WORDS: Final = frozenset(
    """
    decided decision agreed settled chose chosen we'll let's lets going booked reserved
    finalized finalised confirmed plan
    """.split()
)
_DECISION = re.compile(
    r"\b(?:decided|decision|agreed|settled on|chose|chosen|we'?ll (?:go with|use|take|book|do)"
    r"|let'?s (?:go with|use|do|book|pick|choose|get|keep|stick with|make|take)"
    r"|going with|booked|reserved|finali[sz]ed|confirmed|the plan is)\b",
    _I,
)
_DATE_WORDS: Final = frozenset(
    """
    monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays
    thursdays fridays saturdays sundays noon midnight tomorrow tonight next every january
    february march april may june july august september october november december jan feb
    mar apr jun jul aug sep sept oct nov dec
    """.split()
)
_MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_DATE = re.compile(
    rf"\b(?:(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\b"
    rf"|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
    r"|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?|\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{1,2}:\d{2}"
    r"|noon|midnight|tomorrow|tonight|next (?:week|month|year|weekend)"
    r"|every (?:morning|evening|night|day|week))\b",
    _I,
)
_REFERENCE_PARTS: Final = (
    (".", r"\b\w+\.(?:py|js|ts|sql|json|md|yaml|yml|toml|csv|txt|html|css|go|rs|java|rb|sh)\b"),
    ("`", r"`[^`\n]+`"),
    ("-", r"\b[A-Z][A-Z0-9]+-\d+\b"),
    ("_", r"\b\w*_\w+\b"),
    ("()", r"\b\w+\(\)"),
)
"""Files, code names and ticket keys: what a technical conversation's facts are about.
Each pattern with what any match of it holds: it runs only on a text holding that (most
sentences hold no ``_``, ``-`` nor ``()``)."""
_REFERENCES: Final = tuple((mark, re.compile(part)) for mark, part in _REFERENCE_PARTS)
_FILE_END = re.compile(_REFERENCE_PARTS[0][1].removeprefix(r"\b\w+"))
"""A file name's ending (".py"): a text holding none names no file (almost every sentence
holds a "."; this pattern, starting with one, is found fast)."""
_MONEY_MARKS: Final = frozenset("$€£¥")
_MONEY = re.compile(r"[$€£¥]\s?\d|\b\d[\d,.]*\s?(?:k|dollars|euros?|eur|usd|gbp|bucks)\b|\bbudget\b", _I)
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_CAPITALIZED = re.compile(r"(?<![\w'])[A-Z][a-zA-Z]+(?:[-'][A-Za-z]+)?")
_ALLERGEN = re.compile(
    r"\ballerg\w*\s+to\s+([^.;:!?()]+)|([^\W\d_]{3,})\s+allerg(?:y|ies)\b", _I
)
_NOT_NAMES: Final = frozenset(
    """
    i i'm i'll i'd i've ok okay am pm tv usa uk eu id yes no the a an and but or so if it
    mom dad mum grandma grandpa monday tuesday wednesday thursday friday saturday sunday
    january february march april may june july august september october november december
    """.split()
)
@dataclass(frozen=True)
class Fact:
    """One candidate sentence: its text, its place in the span, score and kinds."""

    text: str
    position: int
    score: float
    kinds: frozenset[str]
    anchors: dict[str, frozenset[str]]
    """Per kind, the words that show a summary mentions this fact as a fact of that kind
    (case-folded): the allergen of an allergy, the medicines and doses of a medication,
    what a warning warns against, the date and time of an appointment, the names, numbers
    and dates of a decision."""


Scored = tuple[str, float, frozenset[str], dict[str, frozenset[str]]]
"""A candidate's :class:`Fact` but its position (``_scored``)."""
Stale = Callable[[str, Sequence[str]], "str | None"]
"""Why a clause states what its span's texts changed later, or None: ``staleness.stale``,
given by the caller (``fallback``, ``warned``). Imported here it would stand 8 modules deep
with the readers it asks below it, 10 in all (tests/test_architecture.py allows 9)."""


def facts_of(pairs: Sequence[tuple[str, str]], stale: Stale) -> list[Fact]:
    """Every candidate of the span's user, assistant and tool messages with its score, in
    order; but what another voice says of the user's health that the user's own words do
    not say (:func:`_says_for_the_user`), a value a later message replaced, quoted
    without the new one (``stale``, the caller's ``staleness.stale``: "June 21" of a
    wedding moved to June 28), and every line of a tool's output whose run a later run
    replaced (:func:`_run_replaced`)."""
    texts = [text for role, text in pairs if role.strip().casefold() != "system"]
    scored: list[tuple[bool, Scored]] = []
    for role, text in pairs:
        role = role.strip().casefold()
        if role == "system" or role == "tool" and _run_replaced(text, texts, stale):
            continue
        for sentence in sentences(text):
            sentence = _FILLER.sub("", sentence)
            # Only a sentence holding a ";" or a dash can split (most hold neither).
            clauses = _CLAUSE.split(sentence) if _CLAUSE_MARKS.intersection(sentence) else [sentence]
            for clause in clauses:
                clause = clause.strip()
                found = _scored(clause[:1].upper() + clause[1:])
                if found is not None and stale(clause, texts) is None:
                    scored.append((role == "user", found))
    users = _users_health([found for user, found in scored if user])
    kept = [found for user, found in scored if user or not _says_for_the_user(found, *users)]
    return [Fact(found[0], position, *found[1:]) for position, found in enumerate(kept)]


def _run_replaced(text: str, texts: Sequence[str], stale: Stale) -> bool:
    """Whether a tool's output reports a run (a test tally, an exit code, a build's or CI's
    status: ``statuses.outcomes``) whose outcome a later text replaced ("2 failed" then "13
    passed", or "CI running" on the fix): every line of it (the failures' details, "E
    assert 3 == 2") tells that run, no longer the state of things."""
    return any(outcomes(line) and stale(line, texts) is not None for line in sentences(text))


def _users_health(found: Sequence[Scored]) -> tuple[set[str], set[str]]:
    """What the user's own statements (not questions) say of their health: the kinds
    (allergy, medication) they state undenied, and the anchor keys of their words."""
    stated = [f for f in found if not f[0].endswith("?") and not _HEALTH_KINDS.isdisjoint(f[2])]
    kinds = {
        kind
        for text, _, found_kinds, _ in stated
        if not _denies_health(vocab.words(text))
        for kind in found_kinds.intersection(_HEALTH_KINDS)
    }
    return kinds, {key for f in stated for key in _anchor_keys(f[0])}


def _says_for_the_user(found: Scored, kinds: set[str], keys: set[str]) -> bool:
    """Whether another voice's sentence (the assistant's, a tool's) says of the user's health
    what the user's own words do not: it denies a kind of health fact the user stated
    ("Allergies: none recorded.", "Your record shows no allergies, so you can take
    amoxicillin." after "I'm allergic to penicillin."), or tells the user of a condition or
    medicine they never named ("You told me you have type 2 diabetes."). The user's facts
    come from the user's own words: a summary does not state such a sentence as a fact. A
    warning ("Never give her amoxicillin: she is allergic.") is about an action: kept."""
    text, _, found_kinds, _ = found
    health = found_kinds.intersection(_HEALTH_KINDS)
    if not health or "warning" in found_kinds:
        return False
    words = vocab.words(text)
    if not kinds.isdisjoint(health) and _denies_health(words):
        return True
    named = {_anchor_key(w) for w in words if _is_health_word(w)} | {_anchor_key(w) for w in _allergens(text)}
    return not named <= keys and _YOU.search(text) is not None


def _is_health_word(word: str) -> bool:
    return (
        word.startswith(_ALLERGY_PREFIXES) or word in _ALLERGY_WORDS or word in _MEDICATION_WORDS
        or vocab.is_drug(word)
    )


def _denies_health(words: Sequence[str]) -> bool:
    """Whether a negation denies a health word: up to :data:`DENIAL_REACH` words before it
    ("no allergies", "isn't on any medication", "not allergic"), or "none" after it
    ("Allergies: none recorded"); "it is not an option" after "penicillin" denies no state."""
    health = [i for i, w in enumerate(words) if _is_health_word(w)]
    if not health:
        return False
    for i, word in enumerate(words):
        if word in _STATE_NEGATIONS and any(0 < h - i <= DENIAL_REACH for h in health):
            return True
        if word == "none" and any(0 < i - h <= DENIAL_REACH for h in health):
            return True
    return False


def salient_facts(pairs: Sequence[tuple[str, str]], budget: int, stale: Stale) -> list[str]:
    """The span's best facts that fit ``budget`` characters (joined by spaces), in order
    (``stale``: as :func:`facts_of` takes it)."""
    return [f.text for f in _pick(facts_of(pairs, stale), budget)]


def dropped_kinds(summary: str, facts: Iterable[Fact]) -> list[str]:
    """The safety kinds (:data:`SAFETY_KINDS` order) the facts hold and ``summary`` does not
    mention: no anchor of any fact of that kind occurs in it."""
    words = _anchor_keys(summary)
    held: dict[str, bool] = {}
    for fact in facts:
        if fact.text.endswith("?"):
            continue  # a question states nothing a summary must keep
        for kind, anchors in fact.anchors.items():
            hit = any(_anchor_key(a) in words for a in anchors)
            held[kind] = held.get(kind, False) or hit
    return [kind for kind in SAFETY_KINDS if held.get(kind) is False]


def complete(summary: str, facts: Sequence[Fact], limit: int) -> str | None:
    """``summary`` with the best fact of each safety kind it dropped appended, or None when
    they do not all fit within ``limit`` characters. ``summary`` itself when none is dropped."""
    missing = dropped_kinds(summary, facts)
    if not missing:
        return summary
    chosen: list[Fact] = []
    stated = [f for f in facts if not f.text.endswith("?")]
    for kind in missing:
        if any(kind in f.kinds for f in chosen):
            continue
        best = max((f for f in stated if kind in f.anchors), key=lambda f: (f.score, -f.position))
        chosen.append(best)
    text = " ".join([summary.rstrip(), *(f.text for f in sorted(chosen, key=lambda f: f.position))])
    return text if len(text) <= limit else None


def _pick(facts: Sequence[Fact], budget: int) -> list[Fact]:
    """The best facts by score that fit ``budget``; but when those hold no caution (a
    warning or an allergy) while the span states a warning that fits, the best warning is
    kept first and the rest fill the room left: a warning is not lost to higher-scoring
    facts (a dose, an appointment) when the budget is short (issue 21 point 2)."""
    ranked = sorted(facts, key=lambda f: (-f.score, f.position))
    kept = _fill(ranked, budget)
    if any(f.kinds & _CAUTIONS for f in kept):
        return kept
    first = next(
        (f for f in ranked if "warning" in f.kinds and len(f.text) <= budget and not f.text.endswith("?")),
        None,
    )
    return kept if first is None else _fill([first, *(f for f in ranked if f is not first)], budget)


_CAUTIONS: Final = frozenset({"warning", "allergy"})
"""The kinds that make a kept fact a caution: what the span warns of, and what a plan must
be made around. An allergy scores highest and is kept by score when it fits; a warning,
often a long sentence, is the one a short budget loses."""


def _fill(ranked: Sequence[Fact], budget: int) -> list[Fact]:
    """The facts of ``ranked`` that fit ``budget`` taken in that order, but questions and
    facts mostly repeating a kept one; returned in conversation order."""
    kept: list[Fact] = []
    seen: set[str] = set()
    used = -1  # the first fact needs no separating space
    for fact in ranked:
        cost = len(fact.text) + 1
        if used + cost > budget or fact.text.endswith("?"):
            continue  # a question states nothing: quoted without its answer, it misleads
        words = _content(fact.text)
        if words and sum(w in seen for w in words) >= REPEAT_SHARE * len(words):
            continue
        kept.append(fact)
        seen.update(words)
        used += cost
    return sorted(kept, key=lambda f: f.position)


@functools.lru_cache(maxsize=CLAUSE_CACHE)
def _scored(text: str) -> tuple[str, float, frozenset[str], dict[str, frozenset[str]]] | None:
    """A candidate's :class:`Fact` but its position (text, score, kinds, anchors), or None
    when it is no fact. Cached: the same text always scores the same (the anchors' dict
    is shared by the facts made of it: read, never changed)."""
    fact = _score(text, 0)
    return None if fact is None else (fact.text, fact.score, fact.kinds, fact.anchors)


def _score(text: str, position: int) -> Fact | None:
    if text.endswith("\u2026") or text.count(" ") < 2:
        return None  # too short to state anything, or cut (a cut may have lost its "not")
    kinds, names = _kinds(text)
    score = sum(WEIGHTS[k] for k in kinds if k != "name")
    score += min(len(names), MAX_NAME_BONUS) * WEIGHTS["name"]
    numbers = len(set(_NUMBER.findall(text)))
    score += min(max(numbers - 1, 0), 2) * EXTRA_NUMBER_BONUS
    if text.endswith("?"):
        score -= QUESTION_PENALTY
    if score < MIN_SCORE:
        return None
    short = _REASON_TAIL.sub("", text)
    if short != text and short.count(" ") >= 2 and _kinds(short)[0] == kinds:
        text = short  # the explanation said nothing the fact needs
    if len(text) > LONG_FACT_CHARS:
        score -= 1.0
        if score < MIN_SCORE:
            return None
    if text[-1] not in ".!?":
        text += "."
    return Fact(text, position, score, frozenset(kinds), _anchors(text, kinds))


def _anchors(text: str, kinds: set[str]) -> dict[str, frozenset[str]]:
    """The words that stand for ``text`` as a fact of each of its safety kinds."""
    safety = kinds.intersection(SAFETY_KINDS)
    if not safety:
        return {}  # most facts (a name, a date, a number) have none: nothing to read
    words = vocab.words(text)
    numbers = {w for w in words if w[:1].isdigit()}
    drugs = {w for w in words if vocab.is_drug(w)}
    dates = {m.group().casefold() for m in _DATE.finditer(text)} if safety & _DATED else set()
    content = {w for w in words if len(w) >= MIN_ANCHOR_STEM and w not in vocab.STOP_WORDS}
    # Each kind's words are read only for a fact of that kind.
    found = {
        "allergy": lambda: _allergens(text),
        "medication": lambda: drugs | numbers,
        "warning": lambda: (set(negated_words(text)) - CARRIERS) or drugs,
        "appointment": lambda: dates | numbers,
        "decision": lambda: {n.casefold() for n in _names(text, acronyms=True)} | numbers | dates | drugs,
    }
    # Nothing specific: the fact's own words stand for it; no words, no fact of that kind.
    anchors = {k: frozenset(found[k]() or content) for k in safety}
    return {k: v for k, v in anchors.items() if v}


@functools.lru_cache(maxsize=WORD_CACHE)
def _word_kind(word: str) -> str:
    """What one case-folded word tells of its sentence: ``digit`` (a number), ``allergy``,
    ``danger`` or ``drug`` (by its beginning or ending), or nothing."""
    if word[:1].isdigit():
        return "digit"
    if word.startswith(_ALLERGY_PREFIXES):
        return "allergy"
    if word.startswith(DANGER_PREFIXES):
        return "danger"
    if vocab.is_drug(word) or word.startswith(_MEDICATION_PREFIXES):
        return "drug"
    return ""


def _kinds(text: str) -> tuple[set[str], list[str]]:
    """The kinds of fact ``text`` holds (the keys of :data:`WEIGHTS`), and its names."""
    words = vocab.words(text)
    present = set(words)
    told = {_word_kind(w) for w in present}
    digits, allergy, strong, drug = ("digit" in told, "allergy" in told, "danger" in told, "drug" in told)
    kinds: set[str] = set()
    if allergy or not present.isdisjoint(_ALLERGY_WORDS):
        kinds.add("allergy")
    if drug or not present.isdisjoint(_MEDICATION_WORDS) or (digits and _DOSE.search(text)):
        kinds.add("medication")
    if strong or not present.isdisjoint(_STRONG_WARNING_WORDS) or (
        kinds and (not present.isdisjoint(_WARNING_WORDS) or _WARNING_PHRASE.search(text))
    ):
        kinds.add("warning")  # a danger word, or a "never"/"avoid" about a medicine or allergy
    dated = (digits or not present.isdisjoint(_DATE_WORDS)) and _DATE.search(text) is not None
    if dated:
        kinds.add("date")
        if not present.isdisjoint(_APPOINTMENT_WORDS):
            kinds.add("appointment")
    if not present.isdisjoint(_DECISION_WORDS) and _DECISION.search(text):
        kinds.add("decision")
    if (digits or "budget" in present or not _MONEY_MARKS.isdisjoint(text)) and _MONEY.search(text):
        kinds.add("money")
    if digits and not dated and "money" not in kinds:
        kinds.add("number")
    if (_FILE_END.search(text) and _REFERENCES[0][1].search(text)) or any(
        mark in text and part.search(text) for mark, part in _REFERENCES[1:]
    ):
        kinds.add("reference")
    names = _names(text)
    if names:
        kinds.add("name")
    return kinds, names


_DATED: Final = frozenset({"appointment", "decision"})
"""The safety kinds whose anchors include the fact's dates."""


def _names(text: str, acronyms: bool = False) -> list[str]:
    """Capitalized words that are not the sentence's first word nor a common word; with
    ``acronyms``, all-capital words too (they identify a fact, but do not make one:
    "a SELECT with a WHERE clause")."""
    out: list[str] = []
    for match in _CAPITALIZED.finditer(text):
        word = match.group()
        if match.start() == 0 or (word.isupper() and not acronyms):
            continue
        if word.casefold() not in _NOT_NAMES and word not in out:
            out.append(word)
    return out


def _allergens(text: str) -> set[str]:
    """What ``text`` says someone is allergic to: up to three words after "allergic to"
    (or "allergy to"), or the word before "allergy" ("penicillin allergy")."""
    out: set[str] = set()
    for match in _ALLERGEN.finditer(text):
        if match.group(1):
            words = vocab.words(match.group(1))[:3]
        else:
            words = [match.group(2).casefold()]
        out |= {w for w in words if w not in vocab.STOP_WORDS}
    return out


def _content(text: str) -> list[str]:
    """Content words of ``text``, case-folded and cut to their stems (numbers whole)."""
    return [
        _anchor_key(w)
        for w in vocab.words(text)
        if (len(w) >= 3 and w not in vocab.STOP_WORDS) or w[0].isdigit()
    ]


def _anchor_key(word: str) -> str:
    """Numbers whole; words by their first letters; a phrase ("every evening") by its
    first word that is not a common one."""
    words = word.split()
    word = next((w for w in words if w[:1].isdigit() or w not in vocab.STOP_WORDS), word)
    return word if word[:1].isdigit() else word[:MIN_ANCHOR_STEM]


def _anchor_keys(text: str) -> set[str]:
    return {_anchor_key(w) for w in vocab.words(text)}
