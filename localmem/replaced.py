"""What replaces what among the values a conversation said (``localmem.revisions`` reads
them from the texts and finds the revisions; the module docstring there tells the whole
reading). A :class:`Value` is a value as a text says it, a :class:`Replacement` an old value
and the new one replacing it. Given the values read, this module holds the rules of which
earlier ones a revision reaches: two values are the same (:func:`same_value`: kind and number,
units that agree) and of the same thing (:func:`same_thing`); an elliptical revision
replaces the latest value of its kind (:func:`follows`); a denied value, its earlier
mentions (:func:`replaced_by`); a clock time given up, its mentions alone in their clause
(:func:`given_up`); a replaced total, the shares that added up to it (:func:`shares`); a
bare day of the month replaced ("the 7th, not the 6th"), the day of that month said before
(:func:`month_days`).
Pure functions over records; it reads no text, so it imports nothing of localmem (a leaf:
``revisions`` is 8 modules deep, and its imports must be leaves).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

ELLIPSIS_TEXTS: Final = 4
"""An elliptical revision without a unit ("30 from now on") replaces a number of this many
texts before it at most (its own earlier sentences included)."""


@dataclass(frozen=True)
class Value:
    """A value as a text says it: its kind ("number", "day" or "time"), the value (digits:
    "8", "14000", "0.5"; a day: "jun 21", "friday", "tomorrow"; a clock time: "17:40"), its unit (a stem: "people",
    "lb", "percent", "dollar"; None), what it is bound to (the stems of its clause's content
    words, or of the question it answers), which text (by index), which clause of it (from 0)
    and where in that clause."""

    kind: str
    value: str
    unit: str | None
    thing: frozenset[str]
    text: int
    clause: int
    at: int
    asked: bool = False
    """Said bare, bound to what the question before it asked."""
    delta: bool = False
    """An amount of change, not a level ("cut 70 words", "up by 5"): no elliptical revision
    replaces it."""
    pointed: bool = False
    """A day said after "that" ("on call that Saturday"): the day spoken of before."""


@dataclass(frozen=True)
class Replacement:
    """``old`` replaced by ``new`` (a later clause, or the same one: "from 65 to 80")."""

    old: Value
    new: Value


def same_value(a: Value, b: Value) -> bool:
    """The same value: kind and number, units that agree."""
    return a.kind == b.kind and a.value == b.value and units_agree(a, b)


def units_agree(a: Value, b: Value) -> bool:
    """Units agree when equal, or when one of the two is a bare number ("6" answering "how
    many ppl" is "6 people"; what it is bound to decides the rest)."""
    return a.unit == b.unit or a.unit is None or b.unit is None


def same_thing(old: Value, new: Value) -> bool:
    """Whether a revision naming its thing (``new``) is of what ``old`` was said of: every
    word ``old`` is bound to is among the revision's; or, for a value said bare (bound to
    a question) or one in the same unit ("lisinopril 10 mg in the morning", "amlodipine 5
    mg instead of lisinopril"; two clock times: "booked the filling for 3pm", "rebooked the
    filling for 4:30pm"), half of them ("fly into Edinburgh on June 7" is not "fly out on June
    15 instead")."""
    if old.thing <= new.thing:
        return True
    shared = len(old.thing & new.thing)
    same_unit = (old.unit is not None and old.unit == new.unit) or old.kind == "time"  # a clock time is its unit
    return (old.asked or same_unit) and 2 * shared >= len(old.thing) > 0


def follows(new: Value, earlier: list[Value], i: int) -> list[Replacement]:
    """What an elliptical revision replaces: the latest earlier value of its unit (a bare
    number: of the last :data:`ELLIPSIS_TEXTS` texts; an amount of change is no level), every
    mention of it in that text, and the earlier ones bound to the same thing or to nothing;
    every earlier mention of a day the latest one points back to ("Mei's on call that
    Saturday, so we're moving it to Sunday": "that Saturday" is the day said before, whatever
    each mention was said with: the ride's "Saturday 20 June", a timetable's "Sat
    2026-06-20")."""
    candidates = [
        v for v in earlier
        if v.kind == new.kind and v.value != new.value and not v.delta
        and (units_agree(v, new) if new.unit else i - v.text <= ELLIPSIS_TEXTS)
        # a bare number of the revision's unit: bound to it ("how many ppl" "6") or to nothing
        and (new.unit is None or v.unit is not None or new.unit in v.thing or not v.thing)
    ]
    if not candidates:
        return []
    latest = candidates[-1]
    same = [v for v in earlier if same_value(v, latest)]
    if latest.pointed:
        return [Replacement(v, new) for v in same]
    things = frozenset().union(*(v.thing for v in same if v.text == latest.text))
    return [
        Replacement(v, new) for v in same
        if v.text == latest.text or not v.thing or v.thing & things
    ]


def replaced_by(denied: Value, new: Value, earlier: list[Value], before: list[Value]) -> list[Replacement]:
    """The earlier mentions of a value a sentence denies (``denied``) for ``new``: in a unit
    that agrees with the new one's, of what the new one is of (a word of its thing or its
    unit shared), of nothing, or in the new one's own unit -- the same number in that unit
    ("after 31 years" ... "it's 32 years, not 31") is that measure whatever its clause
    named; of whatever when the new one is of nothing ("Sorry, it is 14 May, not 12 May":
    the 12 May said before of the inspection); ``before``: the sentence's own values, not
    earlier ones."""
    of = new.thing | ({new.unit} if new.unit else set())
    return [
        Replacement(v, new) for v in earlier
        if same_value(v, denied) and units_agree(v, new) and v not in before
        and (not of or v.thing & of or not v.thing or (new.unit is not None and v.unit == new.unit))
    ]


def given_up(values: list[Value], found: list[Replacement], left: list[tuple[int, str]]) -> list[Replacement]:
    """The earlier mentions of a clock time a revision replaced when the revising text
    also gives it up in a clause that denies it ("we won't make the 17:40. Sofia moved the
    booking to the 19:20"; ``left``: the times each text says in such a clause): a clock
    time names its sailing, train or slot itself, so each earlier mention of it alone in its
    clause ("the 17:40 still has space") is replaced by the new time; one among other times
    of its clause (a timetable's "dep 17:40 arr 18:35", a list of options) is not."""
    out: list[Replacement] = []
    for r in found:
        if r.old.kind != "time" or r.new.kind != "time" or (r.new.text, r.old.value) not in left:
            continue
        out += [
            Replacement(v, r.new) for v in values
            if v.kind == "time" and v.value == r.old.value and v.text < r.new.text
            and sum(w.kind == "time" and w.text == v.text and w.clause == v.clause for w in values) == 1
        ]
    return out


def month_days(values: list[Value], found: list[Replacement]) -> list[Replacement]:
    """The days of the month a bare day replaced stands for: "the bag came on the 7th, not the
    6th" speaks of the month the conversation said the 6th in ("delivered on 6 August"), so
    each mention of the latest such day said before the revising text ("6 August", of
    whatever: the bare day named nothing) is replaced too, by the new day in that month
    ("the 7th": 7 August; a new day with its month, "the 14th of November", as it is)."""
    out: list[Replacement] = []
    for r in found:
        day = _bare_day(r.old)
        if day is None or r.new.kind != "day":
            continue
        said = [v for v in values if v.kind == "day" and v.text < r.new.text and _day_of_month(v) == day]
        if not said:
            continue
        month = said[-1].value.split()[0]
        new = r.new if _bare_day(r.new) is None else replace(r.new, value=f"{month} {_bare_day(r.new)}")
        out += [Replacement(v, new) for v in said if v.value == f"{month} {day}"]
    return out


def _bare_day(v: Value) -> str | None:
    """The number of a day of the month said bare ("the 6th": "6"), or None."""
    kind, _, day = v.value.partition(" ")
    return day if v.kind == "day" and kind == "the" and day.isdigit() else None


def _day_of_month(v: Value) -> str | None:
    """The number of a day said with its month ("6 August", "Aug 6": "6"), or None."""
    month, _, day = v.value.partition(" ")
    return day if month != "the" and len(month) == 3 and day.isdigit() else None


def shares(values: list[Value], found: list[Replacement]) -> list[Replacement]:
    """The shares of each replaced total: a run of values of one text, before the revision,
    that adds up to the old total ("Rent is 2,400" ... "Lena pays 1,060, Kofi 750 and you
    590"), each replaced by the share of the same rank in a later run adding up to the new
    total ("Lena pays 1,020, Kofi 717 and you 563"), or by the new total when none does."""
    out: list[Replacement] = []
    for r in found:
        if r.old.kind != "number" or r.old.delta:
            continue
        old, new = float(r.old.value), float(r.new.value)
        before = [run for run in _runs(values, r.old) if run[0].text < r.new.text]
        if not before:
            continue
        after = [run for run in _runs(values, r.old, new) if run[0].text >= r.new.text]
        for run in before:
            ranked = sorted(run, key=lambda v: float(v.value))
            splits = [sorted(later, key=lambda v: float(v.value)) for later in after if len(later) == len(run)]
            out += [Replacement(v, split[n]) for split in splits for n, v in enumerate(ranked)]
            out += [] if splits else [Replacement(v, r.new) for v in run if float(v.value) != old]
    return out


def _runs(values: list[Value], total: Value, amount: float | None = None) -> list[list[Value]]:
    """Runs of two or more values in one text, in order, of ``total``'s kind and unit, that
    add up to ``amount`` (by default ``total``'s own; whole shares may each be rounded by a
    half)."""
    amount = float(total.value) if amount is None else amount
    out = []
    for text in sorted({v.text for v in values}):
        said = [v for v in values if v.text == text and v.kind == "number" and not v.delta
                and units_agree(v, total) and v is not total]
        for start in range(len(said)):
            sum_ = float(said[start].value)
            for end in range(start + 1, len(said)):
                sum_ += float(said[end].value)
                if abs(sum_ - amount) <= 0.5 * (end - start + 1) and amount > 0:
                    out.append(said[start:end + 1])
                if sum_ > amount + len(said):
                    break
    return out
