"""The dates a question names, as periods of time: pure, no I/O.

"What did I say on March 16, 2022?", "in May 2023", "last week", "yesterday":
``find(question, now)`` reads each such phrase as a :class:`Period`, a half-open
range of UTC days, resolved against ``now`` (the store's clock, so a test or a
benchmark that sets the clock gets the same answer as a user on that day). A
month or a day without a year is its latest occurrence up to ``now``; a weekday
("on Tuesday", "last Tuesday") the latest one before today; weeks start on
Monday. ``Period.label`` is how a context shows the dates it used
("on March 16, 2022 = 2022-03-16").

What is not a date stays a word: "may" without a year or an "in", a bare number,
and a month named without a year in a question about the present or the future
("Where is Gabe going in April?"): that month is when something happens, not when
it was said, so it is a word of the question's topic (a message saying "April"
answers it) rather than a period whose messages should come first.

A day as a conversation says it, unresolved (:data:`DAY`: "June 21", "the 3rd of May",
"2026-06-21", "Friday", "Sun 21 June", "tomorrow"), has one spelling (:func:`day_value`:
"jun 21", "may 3", "friday", "tomorrow"): ``revisions`` and ``summarizer.bindings`` compare
days by it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Final

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10}
MONTH_NAMES: Final = "|".join(m[:3] + (m[3:] and f"(?:{m[3:]})?") for m in MONTHS)
"""A month's name as a pattern, whole or cut to three letters ("jun", "june")."""
_SHORT_WEEKDAYS: Final = {"mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday",
                           "thu": "thursday", "thur": "thursday", "thurs": "thursday", "fri": "friday",
                           "sat": "saturday", "sun": "sunday"}
_AFTER_A_DATE: Final = (
    "at|and|or|to|not|instead|is|was|works|then|but|for|in|on|from|until|till|by|so|because|when|which|as|now"
)
"""Words that follow a day of the month said alone ("the 14th at 10", "the 14th, not the
12th"); "the 14th century" and "the 14th floor" are no day."""
DAY: Final = re.compile(
    rf"\b(?:(?P<weekday>{'|'.join(WEEKDAYS)})s?"
    rf"|(?-i:(?P<short>{'|'.join(w.capitalize() for w in _SHORT_WEEKDAYS)}))\.?"
    rf"(?=,?\s+(?:(?:19|20)\d\d-\d\d-\d\d|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTH_NAMES})\b|(?:{MONTH_NAMES})\.?\s+\d))"
    rf"|(?P<month>{MONTH_NAMES})\.? (?P<mday>\d{{1,2}})(?:st|nd|rd|th)?"
    rf"|(?P<dday>\d{{1,2}})(?:st|nd|rd|th)? (?:of )?(?P<dmonth>{MONTH_NAMES})"
    r"|(?:19|20)\d\d-(?P<imonth>0[1-9]|1[0-2])-(?P<iday>0[1-9]|[12]\d|3[01])"
    r"|(?<!day )the (?P<nth>[12]?\d|3[01])(?:st|nd|rd|th)(?=\s*(?:[.,;:!?)]|$)|\s+(?:" + _AFTER_A_DATE + r")\b)"
    r"|(?P<relative>tomorrow|tonight|today|yesterday|tmrw|this (?:morning|afternoon|evening|weekend)"
    r"|next (?:week|weekend|month)))\b",
    re.IGNORECASE,
)
"""A day: a weekday (cut to its capitalised first letters only before a date, as a timetable
or a booking writes it: "Sat 2026-06-20", "Sun 21 June"; "sat" alone is a verb), a month's
date (either order, or ISO: "2026-06-20"), a day of the month alone after "the" ("the 14th",
at the end of its clause or before a word of :data:`_AFTER_A_DATE`), or one said from today."""
_MONTH = rf"(?P<month>{MONTH_NAMES})\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_COUNT = r"(?P<count>\d{1,3}|" + "|".join(NUMBERS) + ")"
_UNIT = r"(?P<unit>day|week|month|year)s?"
_AHEAD = re.compile(
    r"\b(?:will|plan|plans|planning|next|upcoming)\b|'ll\b"
    r"|\b(?:is|are|am)\s+(?:\w+\s+){0,2}?\w+ing\b",  # "is Gabe going", "are we moving"
    re.IGNORECASE,
)
"""Words of a question about the present or the future ("Where is she going in April?",
"What will we plan for August?"); "What is the cafe we liked in May?" is not one."""
_BEHIND = re.compile(r"\b(?:did|was|were|had)\b", re.IGNORECASE)
"""Words of a question about the past ("Where was she going in April?")."""

PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.IGNORECASE))
    for kind, pattern in (
        ("iso", r"\b(?P<year>(?:19|20)\d\d)-(?P<month>[01]\d)-(?P<day>[0-3]\d)\b"),
        ("month day", rf"\b{_MONTH}\s+{_DAY}\b(?:,?\s+{_YEAR}\b)?"),
        ("day month", rf"\b{_DAY}(?:\s+of)?\s+{_MONTH}\b(?:,?\s+{_YEAR}\b)?"),
        ("month year", rf"\b{_MONTH},?\s+{_YEAR}\b"),
        ("in month", rf"\b(?:in|during|since|from|of|last)\s+{_MONTH}\b(?!\s*[0-3]?\d\b)"),
        ("in year", rf"\b(?:in|during|of|since)\s+{_YEAR}\b"),
        ("ago", rf"\b{_COUNT}\s+{_UNIT}\s+ago\b"),
        ("relative", r"\b(?P<which>last|this|past)\s+(?P<unit>week(?:end)?|month|year)\b"),
        ("weekday", r"\b(?:on|last|this\s+past)\s+(?P<weekday>"
                    + "|".join(WEEKDAYS) + r")\b"),
        ("day word", r"\b(?P<word>today|yesterday|tonight|last\s+night|this\s+morning)\b"),
    )
)


@dataclass(frozen=True, slots=True)
class Period:
    """A range of UTC days [first, after) a question names, and where it names it."""

    first: date
    after: date
    phrase: str
    span: tuple[int, int]

    @property
    def label(self) -> str:
        """``on March 16, 2022 = 2022-03-16`` (one day) or ``in May 2023 = 2023-05-01..2023-05-31``."""
        last = self.after - timedelta(days=1)
        days = self.first.isoformat() if last == self.first else f"{self.first}..{last}"
        return f"{self.phrase} = {days}"

    def bounds(self) -> tuple[datetime, datetime]:
        """The period as UTC datetimes [start, end)."""
        return (datetime.combine(self.first, time(), timezone.utc),
                datetime.combine(self.after, time(), timezone.utc))


# What every pattern above needs, in a question casefolded: a digit, or one of these
# (a month's first three letters, a unit, "ago", a weekday's or a day word's "day"),
# as the patterns' IGNORECASE reads it (``_fold``). A question without any
# names no period: it is not scanned ten times.
_NEEDED = (*(m[:3] for m in MONTHS), "ago", "week", "month", "year", "day", "night", "morning")
_DIGIT = re.compile(r"\d")


def may_name_a_period(question: str) -> bool:
    """False when ``question`` cannot hold any period ``find`` reads (no digit and none
    of the words every pattern needs)."""
    if _DIGIT.search(question):
        return True
    folded = _fold(question)
    return any(word in folded for word in _NEEDED)


def find(question: str, now: datetime) -> list[Period]:
    """The periods ``question`` names, in the order it names them (none overlapping)."""
    if not may_name_a_period(question):
        return []
    today = (now.astimezone(timezone.utc) if now.tzinfo else now).date()
    found: list[Period] = []
    taken: list[tuple[int, int]] = []
    ahead = bool(_AHEAD.search(question)) and not _BEHIND.search(question)
    for kind, pattern in PATTERNS:
        for match in pattern.finditer(question):
            if kind == "in month" and ahead and not match.group(0).lower().startswith(
                ("last", "since")
            ):
                continue  # a month ahead: when it happens, not when it was said (a topic word)
            span = match.span()
            if any(span[0] < end and start < span[1] for start, end in taken):
                continue
            try:
                days = _resolve(kind, match, today)
            except (ValueError, OverflowError):  # "February 31": not a date
                continue
            if days is None:
                continue
            taken.append(span)
            found.append(Period(days[0], days[1], match.group(0).strip(), span))
    return sorted(found, key=lambda p: p.span)


def without(question: str, periods: list[Period]) -> str:
    """``question`` with the phrases of ``periods`` taken out (their words are no topic)."""
    for p in sorted(periods, key=lambda p: p.span, reverse=True):
        question = question[: p.span[0]] + " " + question[p.span[1]:]
    return question


CLOCK = re.compile(
    r"(?<![\w.:])(?P<h>[01]?\d|2[0-3])(?::(?P<m>[0-5]\d))?"
    r"(?(m)(?:\s?(?P<half>[ap])\.?m\b\.?)?|\s?(?P<ampm>[ap])\.?m\b\.?)(?![\d:])",  # "4" alone is no time
    re.IGNORECASE,
)
"""A clock time: "17:40", "9:15", "9:15am", "4pm", "4 p.m." (a bare hour, "at 2", is a number)."""


def clock_value(match: re.Match[str]) -> str:
    """One spelling for a :data:`CLOCK` match, "HH:MM": "4pm" is "16:00", "9:15" "09:15"
    (without am or pm a time is read as written)."""
    hour, minute = int(match.group("h")), int(match.group("m") or 0)
    half = (match.group("half") or match.group("ampm") or "").casefold()
    if half == "p" and hour < 12:
        hour += 12
    elif half == "a" and hour == 12:
        hour = 0
    return f"{hour:02d}:{minute:02d}"


def day_value(match: re.Match[str]) -> str:
    """One spelling for a :data:`DAY` match: "jun 21" (also of "2026-06-21"), "friday" (also of
    "Fri 21 June"), "the 14" (of "the 14th"), "tomorrow"."""
    if match.group("weekday"):
        return match.group("weekday").casefold()
    if match.group("short"):
        return _SHORT_WEEKDAYS[match.group("short").casefold()]
    if match.group("imonth"):
        return f"{MONTHS[int(match.group('imonth')) - 1][:3]} {int(match.group('iday'))}"
    if match.group("month"):
        return f"{match.group('month')[:3].casefold()} {int(match.group('mday'))}"
    if match.group("dmonth"):
        return f"{match.group('dmonth')[:3].casefold()} {int(match.group('dday'))}"
    if match.group("nth"):
        return f"the {int(match.group('nth'))}"
    return " ".join(match.group("relative").casefold().split())


def _fold(text: str) -> str:
    """``text`` as the patterns' IGNORECASE reads it: casefolded ("ſep" is "sep"),
    the dotless "ı" an "i"."""
    return text.casefold().replace("\u0131", "i")


def _month(name: str) -> int:
    prefix = _fold(name)[:3]
    for number, month in enumerate(MONTHS, 1):
        if month.startswith(prefix):
            return number
    raise ValueError(f"not a month: {name!r}")  # unreachable for what _MONTH matches


def _month_range(year: int, month: int) -> tuple[date, date]:
    first = date(year, month, 1)
    return first, date(year + month // 12, month % 12 + 1, 1)


def _latest(today: date, month: int, day: int | None = None) -> int:
    """The year of the latest ``month`` (``day``) up to ``today``."""
    if (month, day or 1) <= (today.month, today.day if day else 1):
        return today.year
    return today.year - 1


def _resolve(kind: str, m: re.Match[str], today: date) -> tuple[date, date] | None:
    groups = m.groupdict()
    if kind in ("iso", "month day", "day month"):
        month = int(groups["month"]) if kind == "iso" else _month(groups["month"])
        day = int(groups["day"])
        year = int(groups["year"]) if groups.get("year") else _latest(today, month, day)
        first = date(year, month, day)
        return first, first + timedelta(days=1)
    if kind == "month year":
        return _month_range(int(groups["year"]), _month(groups["month"]))
    if kind == "in month":
        month = _month(groups["month"])
        if _fold(groups["month"]) == "may" and not _fold(m.group(0)).startswith(("in", "during")):
            return None  # "of may", "last may" stay words unless plainly a month
        year = _latest(today, month)
        if _fold(m.group(0)).startswith("last") and year == today.year and month == today.month:
            year -= 1
        return _month_range(year, month)
    if kind == "in year":
        year = int(groups["year"])
        return date(year, 1, 1), date(year + 1, 1, 1)
    if kind == "ago":
        count = _fold(groups["count"])
        n = NUMBERS[count] if count in NUMBERS else int(count)
        unit = _fold(groups["unit"])
        if unit == "day":
            first = today - timedelta(days=n)
            return first, first + timedelta(days=1)
        if unit == "week":
            first = today - timedelta(days=7 * n + today.weekday())
            return first, first + timedelta(days=7)
        if unit == "month":
            index = today.year * 12 + today.month - 1 - n
            return _month_range(index // 12, index % 12 + 1)
        return date(today.year - n, 1, 1), date(today.year - n + 1, 1, 1)
    if kind == "relative":
        which, unit = _fold(groups["which"]), _fold(groups["unit"])
        back = 0 if which == "this" else 1
        if unit == "weekend":
            saturday = today - timedelta(days=(today.weekday() - 5) % 7 + 7 * (back and today.weekday() >= 5))
            return saturday, saturday + timedelta(days=2)
        if unit == "week":
            if which == "past":
                return today - timedelta(days=7), today + timedelta(days=1)
            monday = today - timedelta(days=today.weekday() + 7 * back)
            return monday, monday + timedelta(days=7)
        if unit == "month":
            if which == "past":
                return today - timedelta(days=31), today + timedelta(days=1)
            index = today.year * 12 + today.month - 1 - back
            return _month_range(index // 12, index % 12 + 1)
        if which == "past":
            return today - timedelta(days=366), today + timedelta(days=1)
        return date(today.year - back, 1, 1), date(today.year - back + 1, 1, 1)
    if kind == "weekday":
        wanted = WEEKDAYS.index(_fold(groups["weekday"]))
        first = today - timedelta(days=(today.weekday() - wanted - 1) % 7 + 1)
        return first, first + timedelta(days=1)
    word = " ".join(_fold(groups["word"]).split())
    first = today - timedelta(days=1) if word in ("yesterday", "last night") else today
    return first, first + timedelta(days=1)
