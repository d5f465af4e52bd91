"""Values a later message revises: what a conversation said, then changed.

A chat updates its values as it goes: "how many ppl" "6" ... "actually 8 ppl now"; "When is
the wedding?" "June 21" ... "Update: they moved the wedding to June 28"; "I already move 25%
... Should I bump it to 30?" "Okay, 30 from now on"; "Should I have a couple of drinks?"
"I'd keep it to one at most". A summary, a quoted sentence or a fact that states the old
value as current is stale. :func:`replacements` reads what a conversation's texts replace,
:func:`replaced_value` whether a claim states a replaced value without the one that
replaced it (pure; neither raises on any ``str``; ``staleness.stale`` asks it, with
:mod:`localmem.statuses`, :mod:`localmem.renames` and :mod:`localmem.doses` for a status
over or a thing ended, a name or a place given again, a dose's frequency changed).

- **A value** is a number with its unit (the word after it: "8 ppl", "2lb", "25%", "$80",
  "a couple of drinks"; a few spellings are one unit: "ppl" is "people", "%" "percent"; a
  rate, "2,400 a month", is per month, not a count of months) or
  a day ("June 21", "Friday", "tomorrow", "Sat 2026-06-20"), or a clock time ("17:40", "4pm"
  is "16:00"; a bare hour after a day, "Tuesday at 8", is that day's 08:00; alone, "at 2", a
  number). It is **bound** to the content words of its clause
  (the sentence's part between commas, "and", "but"...); a value said bare ("6", "June 21,
  and ...") is bound to what the message before asked (the part of the question that asks
  for its kind: "When is the wedding and how long ...?" binds a day to the wedding); a
  value said of "it" ("... gave me a renewal appointment but it's on 12 May") is bound to
  the clause before, when it names a noun phrase, and a part cut at "and" without a verb,
  after a clause without a value ("a blood test for cholesterol and liver function on 12
  March"), is bound to the clause it continues too.
- **A revision** is a clause, not a question nor a change not yet made ("I'll try to move
  it to the 19:20", "we might switch to 30": :data:`_PLANNED`), that gives a new value with a word of change:
  "actually", "now", "instead", "from now on", "update", "change of plan" (in the clause
  or opening its sentence in a clause of its own: "Actually, the inspection is on the
  14th", "Correction: it's on 14 May"), or a verb of change before "to" ("moved the wedding to June 28", "bump it to 30", "trimmed it to 748
  words"), or "that makes" ("that makes 24 species"); a value the same sentence denies
  beside a new one ("it's three tests in test_invoices.py, not two": the two said before of
  the tests, in an agreeing unit, is replaced; "it's 32 years, not 31": a 31 said before in
  years, of whatever, is replaced; "it's the 14th, not the 12th": a new value of "it", of
  nothing, replaces the 12th said before of whatever; "it's 9 years not 6", without the comma, is read the same:
  a "not" between two values opens a clause of its own) or before it, the new value alone in the next clause
  ("not 31, it's 32 years"; "not 31 but more like 30" gives no new value); and "from 65 to 80"
  after a verb of change ("raised my rate from 65 to 80": 65 is replaced in the same
  clause). A revision that names its thing ("moved the wedding to ...") replaces the earlier
  values of its kind (and unit) that it names all the words of ("two nights at a B&B in
  Fort William" is not replaced by "4 nights now"), or half of them for a value said bare or
  in the same unit ("amlodipine 5 mg instead of lisinopril" replaces "lisinopril 10 mg in
  the morning"; "fly out on June 15 instead" does not replace "fly into Edinburgh on June
  7"); a day or a clock time also when it is bound to all the words of the thing the verb
  of change takes (its object, "moved the test to 19 March", else its subject, "the
  appointment has moved to 26 May"), not a number ("lowered the rent to 2,300" leaves "all
  three of you ... the whole rent"). An elliptical one (the value, its unit and words of change alone: "8 ppl now", "30
  from now on"; a verb of change on a pronoun, "make it 4", "keep it to one at most", "moving
  it to Sunday the 21st", "moved us to Thursday at 9", each kind of value it gives a new value
  of its own; and "then 3 lb each", which carries a change on; "it's 24 species now", its unit
  said) replaces the latest earlier value of its kind with its unit (no unit: of the last
  ``replaced.ELLIPSIS_TEXTS`` texts), not an amount of change ("cut 70 words"): every mention of that
  value in that text (a list restating it: "beef 2lb, chicken 2lb") and the earlier ones
  bound to the same thing or to nothing; when that latest day is said after "that" ("Mei's
  on call that Saturday, so we're moving it to Sunday"), it is the day spoken of before, and
  every earlier mention of it is replaced (the plan's "Saturday 20 June", the timetable's
  "Sat 2026-06-20", "On Saturday the 07:58 has two spaces"). A unit alone binds nothing: mg is
  never replaced by a value in mg said of another drug.
- **A clock time given up.** A revision of a clock time ("Sofia moved the booking to the
  19:20") whose message also denies the old time ("we won't make the 17:40") replaces every
  earlier mention of that time alone in its clause ("the 17:40 still has space"): a clock
  time names its sailing, train or slot itself. A mention among other times of its clause
  (a timetable's "dep 17:40 arr 18:35", a list of options) is not replaced.
- **Shares of a total.** Values of one text before a revision of a total that add up to the
  old total ("Rent is 2,400" ... "Lena pays 1,060, Kofi 750 and you 590") are replaced with
  it: by the shares of a later text adding up to the new total, rank for rank, or by the new
  total when none does.
- **A measure taken again.** A clause saying what something "was" ("she was 4.1 at the
  vet") after a clause of its sentence saying, with a unit, what it "is" ("she's 3.9 kg")
  replaces the value it was, said before in a unit that agrees (the portal's "weight 4.1
  kg"); "was" alone ("the bill was $80") replaces nothing.
- **A total of a value plus more** ("Then Swift is £440 in all, the £380 plus £60 for the
  second man"): the first value of the sum, said before, is no longer the whole of what it
  was the value of; the total the sentence gives (a value equal to the sum, in a unit that
  agrees) replaces it. What is added (the £60) is not replaced; a sum without its total
  in the sentence replaces nothing.
- **A bare day of the month replaced** ("the bag came on the 7th, not the 6th") stands for
  the day of that number in the month said last before it ("delivered on 6 August"): every
  earlier mention of that day is replaced, by the new day in that month
  (``replaced.month_days``).
- **A stale claim** states a replaced value (the same kind, number and unit, a bare number
  matching any unit) and not the value that replaced it, neither itself nor the whole text
  it is part of (a summary that tells the change: "was March 3 ... now March 10"); a value the conversation also says,
  unreplaced, of something else is stale only when the claim's words are nearer the replaced
  mention's thing than every live one's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Final

# Imports only leaves: ``summarizer.amounts`` reads values here 7 modules deep, so this
# module is 8 deep (tests/test_architecture.py allows 9); what replaces what among the
# values read is ``replaced``'s, a leaf. The clause reading (``_pieces``, ``_split_denial``,
# ``_antecedent``, ``_named``) stays here for the same reason: a room of its own would be a
# leaf, and it reads words (``content_forms``, ``NUMBER_WORDS``) and values (``_without_values``).
from .changes import CHANGE_VERBS, CUE, last_question, sentences
from .periods import CLOCK, DAY, MONTH_NAMES, MONTHS, WEEKDAYS, clock_value, day_value
from .replaced import (
    Replacement, Value, follows, given_up, month_days, replaced_by, same_thing, same_value, shares, units_agree,
)
from .words import CHANGE_WORDS, NUMBER_WORDS, SMALL_TALK, STOP_WORDS, content_forms, unit, words


_NUMBER = re.compile(
    r"(?<![\w.,:/$-])(?P<money>[$\u20ac\u00a3]\s?)?(?P<n>\d[\d,]*(?:\.\d+)?)(?P<k>k\b)?"
    r"(?![\d:]|[.,]\d|-\w|\(|st\b|nd\b|rd\b|th\b)(?P<unit>\s?%|\s+(?:a|an|per)\s+(?:hour|day|night|week|month|year)\b"
    r"|\s*[a-z]+\b|\s+(?:of\s+)?[a-z]+)?",
    re.IGNORECASE,
)
"""A number, with money before it or a unit after it ("$80", "25%", "2lb", "8 ppl", a rate:
"2,400 a month" is per month); not a
part of a time ("9:15"), an ordinal, a code ("1099-K", "401(k)") or a date."""
_SPELLED = re.compile(
    r"\b(?P<n>a couple|a pair|one|" + "|".join(NUMBER_WORDS) + r")\b(?P<unit>\s+(?:of\s+)?[a-z]+\b)?",
    re.IGNORECASE,
)
"""A number written as words ("a couple of drinks", "three nights", "one")."""
_VALUE_WORD = re.compile(
    r"\d|\b(?:a couple|a pair|one|" + "|".join(NUMBER_WORDS) + "|" + "|".join(WEEKDAYS) + "|" + MONTH_NAMES
    + r"|tomorrow|tonight|today|yesterday|tmrw|this (?:morning|afternoon|evening|weekend)|next (?:week|month))\b",
    re.IGNORECASE,
)
"""What every value holds (a digit, a number word, a day's or a month's name): a clause
without it says none."""
_SPELLED_NUMBERS: Final = {**NUMBER_WORDS, "one": "1", "a couple": "2", "a pair": "2"}
_NOT_UNITS: Final = (
    frozenset("each per now instead more less am pm max min at most least last next ago today tonight tomorrow yesterday".split())
    | frozenset(MONTHS) | frozenset(m[:3] for m in MONTHS) | frozenset(WEEKDAYS)
)
"""Words after a number that are not its unit ("2 lb each": lb; "6 now": none)."""

_TO_VALUE = re.compile(rf"\b(?:{CHANGE_VERBS})\b[^.;!?]{{0,40}}?\s(?:to|for)\s+(?=\S)", re.IGNORECASE)
"""A verb of change before "to": what follows is the new value ("moved the wedding to")."""
_PRONOUN = re.compile(
    rf"\b(?:(?:{CHANGE_VERBS})\s+(?:it|that|them|this|us)\s+(?:(?:up |down )?to\s+|at\s+)?"
    r"|[a-z]+\s+(?:it|that|them|this|us)\s+(?:up|down)\s+to\s+)"
    r"(?=[$\u20ac\u00a3]?\d|(?:one|a couple|a pair|" + "|".join(NUMBER_WORDS) + r")\b"
    rf"|(?:the\s+)?(?:{'|'.join(WEEKDAYS)}|{MONTH_NAMES}|tomorrow|tonight|today|next (?:week|weekend|month))\b)",
    re.IGNORECASE,
)
"""A verb of change on a pronoun before a value ("make it 4", "keep it to one at most",
"moving it to Sunday the 21st", "moved us to Thursday at 9"; any verb with "up to" or "down
to" after its pronoun sets it anew: "knocked it down to £380", "put it up to 90"): the new value of what the
pronoun stands for, an earlier value (the revision is elliptical); each kind of value it
gives (a day, then a bare hour) is a new value of its own kind."""
_DAY_HOUR = re.compile(r"\s+at\s+(?P<h>[01]?\d|2[0-3])(?![\d:]|[.,]\d|\s?[ap]\.?m\b)", re.IGNORECASE)
"""A bare hour right after a day ("Tuesday at 8", "Thursday at 9"): that day's clock time,
read as written (08:00); alone ("at 2") an hour is a number."""
_THAT_DAY = re.compile(r"\bthat\s+$", re.IGNORECASE)
"""A day said after "that" ("Mei's on call that Saturday"): the day already spoken of."""
_FROM_TO = re.compile(rf"\b(?:{CHANGE_VERBS})\b[^.;!?]*?\bfrom\s+(?=\S)", re.IGNORECASE)
"""A verb of change, then "from A to B": A is replaced by B in the same clause."""
_DELTA = re.compile(
    r"\b(?:cut(?:s|ting)?|trim(?:med|s|ming)?|add(?:ed|s|ing)?|los[et]|losing|gain(?:ed|s|ing)?"
    r"|drop(?:ped|s|ping)?|shav(?:e|ed|es|ing)(?: off)?|by)\s+(?:another\s+|an extra\s+)?$",
    re.IGNORECASE,
)
"""What says the value after it is an amount of change ("cut 70 words", "lost 3 kg", "by 5")."""
_THEN = re.compile(r"^\W*(?:then|in that case|so)\b", re.IGNORECASE)
"""A clause that carries a change on ("then 3 lb each"): a revision when elliptical."""
_CLAUSE = re.compile(r"[,;:](?!\d)\s*|\s[-\u2013\u2014]\s|\s(?:and|but|so|because|while|though)\s", re.IGNORECASE)
_QUESTION_PART = re.compile(r",\s*|\s(?:and|or)\s", re.IGNORECASE)
_ASKS: Final = {
    "day": re.compile(r"\b(?:when|what day|which day|what date|what time)\b", re.IGNORECASE),
    "time": re.compile(r"\b(?:when|what time|which time)\b", re.IGNORECASE),
    "number": re.compile(r"\bhow (?:many|much|long|often|far|old)\b|\bwhat (?:percent|rate|dose|amount)\b", re.IGNORECASE),
}
"""The part of a question that asks for a value of each kind."""
_LINKS: Final = frozenset("it that them this to from on at in of a and".split())
"""Words that tie an elliptical revision's value to what it stands for ("keep it to one")."""
_COPULAS: Final = frozenset("it's that's is are i'm we're".split())
"""Words that tie a value with its unit to what it stands for ("it's 24 species now"); a
bare number after them could be of anything ("now it's one")."""


def replaced_value(claim: str, texts: tuple[str, ...], whole: str = "") -> str | None:
    """Why ``claim`` states a value ``texts`` (a conversation, in order) replaced later,
    without the value that replaced it, in itself or in the ``whole`` text it is part of (a
    summary that says "prescribed Bactrim for 7 days" and then "switched to nitrofurantoin
    for 5 days" tells the change); None when it does not (see the module docstring)."""
    said_before, found = _read(texts)
    if not found:
        return None  # most conversations replace nothing
    said = list(values(claim))
    if not said:
        return None
    forms = content_forms(claim)
    told = said + list(values(whole))
    for mine in said:
        olds = [r for r in found if same_value(r.old, mine)]
        if not olds:
            continue
        if any(same_value(r.new, other) for r in olds for other in told):
            continue  # the new value too: the change told, not the old value as current
        replaced = {r.old for r in olds}
        live = [m for m in said_before if same_value(m, mine) and m not in replaced]
        near = max(len(forms & r.old.thing) for r in olds)
        if live and any(len(forms & m.thing) >= near for m in live):
            continue  # said of something else too, and the claim may mean that one
        return "states a value the conversation replaced later"
    return None


def values(text: str) -> tuple[Value, ...]:
    """Every value ``text`` says, clause by clause, each bound to its clause's words (not to
    a question: ``text`` is read alone; a clause that points back, to the clause before:
    :func:`_antecedent`)."""
    out: list[Value] = []
    prior = ""
    for n, (clause, joined) in enumerate(_pieces(text)):
        bound, prior = _antecedent(clause, joined, prior)
        out += _mentions(clause, -1, n, "", bound)
    return tuple(out)


def values_said(texts: Sequence[str]) -> tuple[Value, ...]:
    """Every value ``texts`` (a conversation, in order) say, a value said bare bound to what
    the question before asked (``Value.asked``)."""
    return _read(tuple(texts))[0]


def replacements(texts: Sequence[str]) -> tuple[Replacement, ...]:
    """Each value of ``texts`` a later clause replaces, with the value replacing it, in the
    order the revisions come."""
    return _read(tuple(texts))[1]


@functools.lru_cache(maxsize=8)
def _read(texts: tuple[str, ...]) -> tuple[tuple[Value, ...], tuple[Replacement, ...]]:
    """Every value ``texts`` say, and what replaces what (read once for a conversation)."""
    out: list[Replacement] = []
    measured: list[Replacement] = []
    earlier: list[Value] = []
    left: list[tuple[int, str]] = []  # clock times a text says are not (or no longer) so
    for i, text in enumerate(texts):
        asked = last_question(texts[i - 1]) if i else ""
        number = 0
        prior = ""  # the clause before with words of its own, for one that points back
        for sentence in sentences(text):
            question = sentence.rstrip().endswith("?")
            before: list[Value] = []  # this sentence's values so far
            parts: list[tuple[str, list[Value]]] = []  # ... with their clauses
            cued = False  # a word of change opening the sentence in a clause of its own ("Actually, ...")
            for clause, joined in _pieces(sentence):
                bound, prior = _antecedent(clause, joined, prior)
                here = _mentions(clause, i, number, asked, bound)
                number += 1
                if not question and _PLANNED.search(clause) is None:
                    out += _revised(clause, here, earlier, i, cued) + _denied(clause, here, before, earlier)
                    out += _denied_then(clause, here, parts, earlier)
                    measured += _remeasured(clause, here, parts, earlier)
                earlier += here
                before += here
                parts.append((clause, here))
                cued = not here and (cued or CUE.search(clause) is not None)
                if _NEGATED.search(clause):
                    left += [(i, v.value) for v in here if v.kind == "time"]
            if not question:
                measured += _summed(parts, earlier[: len(earlier) - len(before)])
    out += given_up(earlier, out, left)
    out += month_days(earlier, out)  # "the 7th, not the 6th" of "6 August"
    out += shares(earlier, out)  # a measure taken again is no total with shares
    return tuple(earlier), tuple(dict.fromkeys(out + measured))


def _revised(clause: str, here: list[Value], earlier: list[Value], i: int, cued: bool = False) -> list[Replacement]:
    """What ``clause`` (of text ``i``; ``here``: its values) replaces among the values
    said before it (``earlier``); ``cued``: a clause of its sentence before it, without a
    value, gave the word of change ("Actually, the inspection is on the 14th.",
    "Correction: it's on 14 May.")."""
    if not here:
        return []
    start = _FROM_TO.search(clause)
    if start is not None:  # "raised my rate from 65 to 80"
        after = [v for v in here if v.at >= start.end()]
        if len(after) >= 2 and after[0].kind == after[1].kind and after[0].value != after[1].value:
            old, new = after[0], after[1]
            return [Replacement(old, new)] + [
                Replacement(v, new) for v in earlier if same_value(v, old) and v.thing & old.thing
            ]
    cue = cued or CUE.search(clause) is not None
    pronoun = _PRONOUN.search(clause)
    moved = pronoun or _TO_VALUE.search(clause)
    elliptical = pronoun is not None or _elliptical(clause, here)
    if not cue and moved is None and not (elliptical and _THEN.search(clause)):
        return []
    new = here[-1]
    if moved is not None:
        after = [v for v in here if v.at >= moved.end()]
        if not after:
            return []
        new = after[0]
    elif len({(v.kind, v.value, v.unit) for v in here}) > 1:
        return []  # several values and no "to": which one is new is not said
    if pronoun is not None:  # "moved us to Thursday at 9": the day and the hour, each of its kind
        kinds = {v.kind: v for v in reversed(after)}
        return [r for v in sorted(kinds.values(), key=lambda v: v.at) for r in follows(v, earlier, i)]
    if elliptical:
        return follows(new, earlier, i)
    if not new.thing:
        return []
    # a day or a clock time is when its thing happens: moving the thing moves it ("moved the
    # test to 19 March"); a number bound to the thing's words may count something else of it
    # ("all three of you ... the whole rent" is no rent lowered "to 2,300")
    named = _named(clause, moved) if moved is not None and new.kind != "number" else frozenset()
    return [
        Replacement(old, new)
        for old in earlier
        if old.kind == new.kind and old.value != new.value and units_agree(old, new)
        and old.thing and (same_thing(old, new) or (named and named <= old.thing))
    ]


_VERB = re.compile(rf"\b(?:{CHANGE_VERBS})\b", re.IGNORECASE)


def _named(clause: str, moved: re.Match[str]) -> frozenset[str]:
    """What a verb of change before "to" (``moved``) is said of: the words of its object
    ("moved the test to 19 March": the test), else of its subject ("the appointment has
    moved to 26 May": the appointment). An earlier value bound to all of them is of that
    thing, whatever else its clause said ("a renewal appointment ... it's on 12 May")."""
    verb = _VERB.search(clause, moved.start())
    if verb is None:
        return frozenset()
    to = clause.rfind(" ", verb.end(), moved.end() - 1)
    obj = content_forms(clause[verb.end():max(to, verb.end())])
    return obj or content_forms(clause[:verb.start()])


_PLANNED = re.compile(
    r"\b(?:try(?:ing)?|going|want(?:s|ed)?|hop(?:e|es|ing)|plan(?:s|ning)?|need(?:s|ed)?|ought)\s+to\s+\w+"
    r"|\b(?:might|could|would|should|shall|thinking (?:of|about)|considering)\b",
    re.IGNORECASE,
)
"""A clause of a change not yet made: tried, wanted, planned, possible ("I'll try to move it
to the 19:20", "we might switch to 30"); it replaces nothing."""
# Not ``statements.status``'s "plan", a different reading: a change only possible ("we might
# raise it to 80", "we should move it") is a plan here and nothing there, and one decided
# ("I'll raise it to 80", "let's switch", "it will be moved", "... next week") is a plan
# there and made here. Every recorded replay came out the same with either (tried), but
# these sentences do not; and this module, 8 deep, cannot import statements (3 deep).
_NEGATED: Final = re.compile(r"n't\b|\b(?:not|no longer|never|cannot|instead of)\b", re.IGNORECASE)
"""A clause that denies what it says ("we won't make the 17:40")."""
_NOT = re.compile(r"^\W*(?:but\s+)?not\s+", re.IGNORECASE)
"""A clause that denies a value ("..., not two", "..., but not on Monday")."""


def _denied(clause: str, here: list[Value], before: list[Value], earlier: list[Value]) -> list[Replacement]:
    """What ``clause`` replaces when it is "not" and a value alone after a value of its kind
    in the same sentence ("it's three tests in test_invoices.py, not two"; ``before``: that
    sentence's values so far): the denied value, where said earlier in a unit that agrees
    with the new one's, of what the new one is of (a word of its thing or its unit shared),
    of nothing, or in the new one's own unit, and the denial itself."""
    found = _NOT.match(clause)
    if found is None or not here or not _elliptical(clause[found.end():], here):
        return []
    denied = here[0]
    new = next((v for v in reversed(before) if v.kind == denied.kind and v.value != denied.value), None)
    if new is None:
        return []
    return replaced_by(denied, new, earlier, before) + [Replacement(v, new) for v in here]


_BUT_IS = re.compile(r"^\W*(?:but\s+)?(?:(?:it|that)(?:'s|\s+is|\s+was)\s+)?", re.IGNORECASE)
"""What may open the clause giving the new value after a denial ("not 31, but 32")."""


def _denied_then(
    clause: str, here: list[Value], parts: list[tuple[str, list[Value]]], earlier: list[Value]
) -> list[Replacement]:
    """What ``clause`` replaces when it is a value alone ("32 years", "but it's 32") right
    after a clause of its sentence that is "not" and a value alone (``parts``: that
    sentence's clauses so far with their values; "not 31, it's 32 years"): the denied value
    as :func:`_denied` says. A clause saying more than its value ("not 31 but more like
    30") gives no new value."""
    if not here or not parts:
        return []
    last, denials = parts[-1]
    found = _NOT.match(last)
    if found is None or not denials or not _elliptical(last[found.end():], denials):
        return []
    if not _elliptical(clause[_BUT_IS.match(clause).end():], here):  # type: ignore[union-attr]
        return []
    denied = denials[0]
    new = next((v for v in here if v.kind == denied.kind and v.value != denied.value), None)
    if new is None or not units_agree(denied, new):
        return []
    before = [v for _, values in parts for v in values]
    return replaced_by(denied, new, earlier, before) + [Replacement(v, new) for v in denials]


_PLUS = re.compile(r"\bplus\b|\s\+\s", re.IGNORECASE)
"""What adds two values ("the £380 plus £60")."""


def _summed(parts: list[tuple[str, list[Value]]], earlier: list[Value]) -> list[Replacement]:
    """What a sentence replaces when it gives a total as a value said before plus another
    ("Then Swift is £440 in all, the £380 plus £60 for the second man"; ``parts``: the
    sentence's clauses with their values; ``earlier``: the values said before it): the value
    added to (the first of the sum, £380), said before and in the sum, is no longer the whole of what it was the
    value of; the total (£440) replaces it. Values of one unit only; a sum that gives no
    total of its own in the sentence ("£380 plus £60 for the second man") replaces nothing."""
    out: list[Replacement] = []
    for clause, here in parts:
        added = [v for v in here if v.kind == "number" and not v.delta]
        if len(added) != 2 or _PLUS.search(clause) is None or not units_agree(added[0], added[1]):
            continue
        total = float(added[0].value) + float(added[1].value)
        sums = [
            v for _, values in parts for v in values
            if v.kind == "number" and v not in added and float(v.value) == total and all(units_agree(v, a) for a in added)
        ]
        if not sums:
            continue
        base = added[0]  # "A plus B": A is what B is added to
        said = [v for v in earlier if same_value(v, base) and units_agree(v, sums[0])]
        if said:
            out += [Replacement(v, sums[0]) for v in said] + [Replacement(base, sums[0])]
    return out


_WAS = re.compile(r"^\W*(?:\w+\s+){0,2}?(?:was|were|used to be)\s+(?:about\s+|around\s+|only\s+)?(?=[$\u20ac\u00a3]?\d)", re.IGNORECASE)
"""A clause giving what something was ("she was 4.1 at the vet", "it was 6 last week")."""
_IS = re.compile(r"\b(?:is|are|am|'s|'re|'m|now)\s+(?:about\s+|around\s+|only\s+)?(?=[$\u20ac\u00a3]?\d)", re.IGNORECASE)
"""A clause giving what something is now ("she's 3.9 kg", "it is 61,900 now")."""


def _remeasured(
    clause: str, here: list[Value], before: list[tuple[str, list[Value]]], earlier: list[Value]
) -> list[Replacement]:
    """What ``clause`` replaces when it says what something "was" after a clause of the same
    sentence said, with a unit, what it "is" (``before``: that sentence's clauses so far with
    their values; "I weighed her tonight, she's 3.9 kg, she was 4.1 at the vet"): the value it
    was, said earlier in a unit that agrees (the vet portal's "weight 4.1 kg"), and the "was"
    itself, are replaced by the value it is. A sentence giving "was" alone ("the bill was
    $80") compares nothing and replaces nothing."""
    found = _WAS.match(clause)
    if found is None or not here or here[0].kind != "number" or here[0].at > found.end() + 1:
        return []
    was = here[0]
    now = next(
        (v for said, values in reversed(before) for v in values
         if v.kind == "number" and v.unit and not v.delta and v.value != was.value and units_agree(v, was)
         and _IS.search(said, 0, v.at + 1) is not None),
        None,
    )
    if now is None:
        return []
    return [Replacement(v, now) for v in earlier if same_value(v, was) and units_agree(v, now) and (v.unit or not v.thing)] + [
        Replacement(was, now)
    ]


def _elliptical(clause: str, here: list[Value]) -> bool:
    """Whether ``clause`` is its value, its unit and words of change alone ("actually 8 ppl
    now", "30 from now on", "keep it to one at most", "then 3 lb each", "it's 24 species
    now")."""
    left = _without_values(clause)
    units = {v.unit for v in here}
    links = _LINKS | _COPULAS if any(units) else _LINKS
    rest = [w for w in words(left, numbers=False) if w not in CHANGE_WORDS and w not in links]
    return all(unit(w) in units or w in SMALL_TALK for w in rest)


def _without_values(text: str) -> str:
    text = CLOCK.sub(" ", DAY.sub(" ", text))
    text = _NUMBER.sub(lambda m: " " + (m.group("unit") or ""), text)
    return _SPELLED.sub(lambda m: " " + (m.group("unit") or ""), text)


def _mentions(clause: str, i: int, number: int, asked: str, bound: frozenset[str] = frozenset()) -> list[Value]:
    """The values ``clause`` (of text ``i``, its clause ``number``) says, in order, each
    bound to its clause's words and ``bound`` (the words of the clause it points back to or
    continues: :func:`_antecedent`), or, said bare, to what ``asked`` (the question before)
    asks for its kind."""
    if _VALUE_WORD.search(clause) is None:
        return []  # most clauses say no value: one scan instead of four
    out: list[tuple[int, str, str, str | None]] = []
    for m in DAY.finditer(clause):
        out.append((m.start(), "day", day_value(m), None))
        hour = _DAY_HOUR.match(clause, m.end())
        if hour is not None:  # "Tuesday at 8": that day's clock time
            out.append((hour.start("h"), "time", f"{int(hour.group('h')):02d}:00", None))
            clause = clause[: hour.start("h")] + " " * (hour.end("h") - hour.start("h")) + clause[hour.end("h"):]
    rest = DAY.sub(lambda m: " " * len(m.group()), clause)
    for m in CLOCK.finditer(rest):
        out.append((m.start(), "time", clock_value(m), None))
    rest = CLOCK.sub(lambda m: " " * len(m.group()), rest)
    for m in _NUMBER.finditer(rest):
        value = _number(m.group("n"), m.group("k"))
        if value is not None:
            unit = "dollar" if m.group("money") else _unit_of(m.group("unit"))
            out.append((m.start(), "number", value, unit))
    for m in _SPELLED.finditer(rest):
        out.append((m.start(), "number", _SPELLED_NUMBERS[" ".join(m.group("n").casefold().split())], _unit_of(m.group("unit"))))
    if not out:
        return []
    own = content_forms(_without_values(clause)) - {u.split()[-1] for _, _, _, u in out if u} | bound
    values = []
    for start, kind, value, unit in sorted(out):
        bare = not own and bool(asked)
        thing = _asked_forms(asked, kind) if bare else own
        delta = kind == "number" and _DELTA.search(clause, 0, start) is not None
        pointed = kind == "day" and _THAT_DAY.search(clause, 0, start) is not None
        values.append(Value(kind, value, unit, frozenset(thing), i, number, start, bare, delta, pointed))
    return values


def _number(digits: str, thousands: str | None) -> str | None:
    value = amount(digits, thousands)
    return None if value is None else number_text(value)


def amount(digits: str | None, thousands: str | None) -> float | None:
    """The number ``digits`` write ("1,060" is 1060.0; with ``thousands``, "78" of "78k"
    is 78000.0), or None when they write none."""
    if not digits:
        return None
    try:
        value = float(digits.replace(",", ""))
    except ValueError:
        return None
    return value * 1000 if thousands else value


def number_text(value: float) -> str:
    """One spelling for a number (``Value.value``): "78,000", "78000" and "78k" are
    "78000"; 0.5 is "0.5"."""
    return f"{value:.6g}" if value != int(value) else str(int(value))


def _unit_of(said: str | None) -> str | None:
    if not said:
        return None
    said = said.split()
    word = said[-1].casefold()
    if len(said) == 2 and said[0].casefold() in ("a", "an", "per"):
        return f"per {unit(word)}"  # a rate: "2,400 a month" is not "18 months"
    if word == "%":
        return "percent"
    if word in _NOT_UNITS or word in STOP_WORDS or len(word) < 2 or not word.isalpha():
        return None
    return unit(word)


def _asked_forms(question: str, kind: str) -> frozenset[str]:
    """What ``question`` asks a value of ``kind`` of: the forms of its part that asks for
    that kind ("When is the wedding and how long ...": a day is the wedding's), else all."""
    parts = _QUESTION_PART.split(question)
    asking = [p for p in parts if _ASKS[kind].search(p)]
    return frozenset(content_forms(" ".join(asking or parts)))


_NOT_BETWEEN = re.compile(
    r"(?:[$\u20ac\u00a3]?\d[\d,.]*|\b(?:" + "|".join(NUMBER_WORDS) + r"))(?:\s?%|\s+[^\W\d_]+)?"
    r"(?P<cut>\s+)(?=not\s+(?:[$\u20ac\u00a3]?\d|(?:" + "|".join(NUMBER_WORDS) + r")\b))",
    re.IGNORECASE,
)
"""A value, "not", a value, with no comma between ("it's 9 years not 6"): the denial is
read as its own clause, as "it's 9 years, not 6" is (its structure, not its punctuation)."""


def _pieces(sentence: str) -> list[tuple[str, bool]]:
    """``sentence``'s clauses, each with whether "and" or "or" joined it to the one before."""
    parts: list[tuple[str, bool]] = []
    start, joined = 0, False
    for cut in _CLAUSE.finditer(sentence):
        parts.append((sentence[start:cut.start()], joined))
        start, joined = cut.end(), cut.group().strip().casefold() in ("and", "or")
    parts.append((sentence[start:], joined))
    parts = [(c, j) for c, j in parts if c.strip()]
    if "not" not in sentence.casefold():
        return parts  # most sentences deny nothing
    return [(p, j and n == 0) for part, j in parts for n, p in enumerate(_split_denial(part))]


_POINTS_BACK = re.compile(
    r"^\W*(?:but\s+|and\s+|so\s+)?(?:it|that|this)(?:'s|\s+is|\s+was|'ll be|\s+will be)\s+"
    r"(?:(?:on|at|for|in|from|until)\s+)?(?=\S)",
    re.IGNORECASE,
)
"""A clause that gives a value of what "it", "that" or "this" stands for ("but it's on 12
May", "that's at 8:40")."""
_FINITE: Final = frozenset(
    "i we you he she they it is are was were be been am has have had do does did will would can could "
    "shall should must may might got get gets".split()
)
"""Words a clause with a subject and a verb holds: a part cut at "and" without any of them
(nor an "-ed" word, nor a contracted verb: "he's", "won't") continues the noun phrase of the
part before ("a fasting blood test for cholesterol and liver function on 12 March")."""


def _antecedent(clause: str, joined: bool, prior: str) -> tuple[frozenset[str], str]:
    """The words ``clause``'s values are bound to besides its own, and the clause a next
    one pointing back would point to. ``prior`` is the last clause before it (in this
    sentence or the one before) with words of its own. A clause whose only words are a
    pronoun and a value ("but it's on 12 May") is of the noun phrase the clause before it
    named ("the office gave me a renewal appointment": a determiner before it, not "Sorry,");
    a part cut at "and" (``joined``) with no verb, after a clause that gave no value of its
    own ("a blood test for cholesterol and liver function on 12 March"), continues that
    clause's noun phrase ("warfarin 3 mg and lisinopril 10 mg" are two). Any other clause is
    bound to its own words alone."""
    own = content_forms(_without_values(clause))
    if prior and not own and _POINTS_BACK.match(clause) and _DETERMINER.search(prior):
        return content_forms(_without_values(prior)), prior
    if prior and joined and own and _VALUE_WORD.search(prior) is None and _verbless(clause):
        return content_forms(prior), f"{prior} and {clause}"
    return frozenset(), clause if own else prior


_DETERMINER = re.compile(r"\b(?:a|an|the|my|his|her|our|their|your|this|that)\s+\w", re.IGNORECASE)
"""A noun phrase's opening, which a pronoun after it may stand for ("a renewal appointment")."""


def _verbless(clause: str) -> bool:
    """Whether ``clause`` holds no subject nor finite verb (:data:`_FINITE`)."""
    return not any(
        w in _FINITE or w.endswith("ed") or "'" in w for w in words(clause, numbers=False)  # words() straightens ’
    )


def _split_denial(clause: str) -> list[str]:
    """``clause`` cut before each "not" standing between two values."""
    cuts = [m.start("cut") for m in _NOT_BETWEEN.finditer(clause)]
    return [clause[a:b] for a, b in zip([0, *cuts], [*cuts, len(clause)])] if cuts else [clause]
