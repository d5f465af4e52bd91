"""How much a summary's clause says, held to how much the conversation said.

Word overlap (``support``) sees that a clause's words and numbers were all said; it cannot
see that an amount was said of less, or as another kind of amount. A 0.5B model wrote "Max
ate a dark chocolate bar" where the user's dog "ate part of a chocolate bar" ("about half of
a 100 gram dark chocolate bar"): the portion dropped, the dose doubled. A 1.5B model wrote
"has just received a 78,000 dollar raise" where the user "got a raise to 78,000 dollars a
year": a level stated as the size of a change. :func:`misquantified` reads these and a
number joined to a unit it was never said with (pure; it never raises on any ``str``):

- **A portion dropped or changed.** The conversation says a portion of a thing done to it
  ("ate half of a bar", "took two of the tablets", "ate part of a chocolate bar", "half a
  pill"; :data:`_PORTION`). A clause that does the same thing (the same verb: "ate" ~
  "eaten", an irregular past read as its verb) to the whole of it ("ate a dark chocolate
  bar", "took the tablets") or to another portion ("ate a quarter of the bar") is
  unsupported, unless the conversation also says that amount of that thing (whole with the
  same verb, or the same portion: "about half of a 100 gram bar" as an answer, with no verb,
  supports "ate half of the bar"). A vague portion ("part of", "some of") in the clause is
  supported by any portion. The thing is a noun phrase after a determiner; two are the same
  thing when the last word of one is a word of the other ("a dark chocolate bar", "a 100
  gram dark chocolate bar"). A clause without a verb before its thing ("A chocolate bar is
  dangerous"), a thing with no determiner ("ate chocolate"), or a portion the conversation
  states with no verb or another verb (after "and": "ate a sandwich and part of a cookie"
  leaves the cookie's portion without its verb), is not judged here.
- **A level stated as a change, or a change as a level.** A number is a level when it is
  where something is or ends ("a raise to 78,000", "now earns 78,000", "at 6.8%", "up to
  90", "from 70,000 to 78,000", "once your savings reach 9,000") and a change when it is how
  much something moved ("a 78,000 dollar raise", "a raise of 5,000", "increased by 600",
  "an extra 600", "130 more"; :func:`_roles`). A clause giving a number one role where the
  conversation gives that number only the other is unsupported; a number the conversation
  gives both roles, or neither, is not judged. The difference of a "from A to B" is a
  change the conversation gives ("from 10 mg to 5 mg" supports "cut by 5 mg").

- **A number joined to another unit.** A 0.5B model wrote "a 30GB plan" where 30 was only
  ever a price ("30/mo") and GB was said of 8, 15 and 21. A number written in digits with a
  unit the conversation says of other numbers, where the conversation never says that
  number with that unit (nor bare: "how much data?" "15", "I'm at 2,350 though"; "30/mo",
  "30 each" are prices), is unsupported (``revisions.values`` reads the numbers and their units).

:func:`counted_twice` reads a sentence's list: **one thing counted twice**, "has seen a
blue heron, a woodpecker, and a downy woodpecker" where the user saw "a woodpecker" that
the answer said is "probably a downy woodpecker". Two items of a list, each "a"/"an" and a
noun phrase, where one is the other with words before it, are one thing named twice, unless
a sentence of the conversation names both, the plain one apart ("a woodpecker and a downy
woodpecker were both at the feeder").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..extract import sentences
from ..grounding import same_word
from ..revisions import amount, number_text, values, values_said
from ..words import NUMBER_WORDS, STOP_WORDS, stem, words
from .wording import LIST_MARKS

_DETERMINER = r"(?:a|an|the|his|her|their|my|your|our|its|this|that|these|those|one)"
_PORTION_NUMBERS: Final = {**NUMBER_WORDS, "one": "1", "a couple": "2", "a pair": "2"}
"""The numbers a portion is said in (``words.NUMBER_WORDS``, and "one", which counts here:
"one of the tablets")."""
_PORTIONS = (
    r"half|(?:a|one) half|(?:a|one) (?:quarter|third|fifth|tenth)|quarter|third"
    r"|(?:two|three) (?:thirds|quarters|fifths)|part|some|most|much|a bit|a little|a few|several"
    r"|a (?:bite|piece|slice|sip|spoonful|mouthful|chunk|corner|sliver)"
    r"|(?:a few |two |three )?(?:bites|pieces|slices|sips|spoonfuls|mouthfuls|chunks)"
    r"|\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|a couple|a pair"
)
_PHRASE = r"[^\W_][\w'-]*(?:\s+[\w'-]+){0,5}"
"""Up to six words after a determiner, read as a noun phrase by :func:`_thing` (a lookahead:
the next determiner starts a match of its own)."""
_PORTION = re.compile(
    rf"\b(?P<portion>{_PORTIONS})\s+of\s+(?P<det>{_DETERMINER})\s+(?=(?P<thing>{_PHRASE}))"
    rf"|\b(?P<bare>half)\s+(?P<bdet>{_DETERMINER})\s+(?=(?P<bthing>{_PHRASE}))",
    re.IGNORECASE,
)
"""A portion of a thing: "half of a 100 gram bar", "two of the tablets", "half a pill"."""
_WHOLE = re.compile(
    rf"\b(?P<det>(?:a whole|the whole|an entire|the entire|all of the|all the|{_DETERMINER}))\s+"
    rf"(?=(?P<thing>{_PHRASE}))",
    re.IGNORECASE,
)
"""A thing with its determiner: "a dark chocolate bar", "the whole bar", "the tablets"."""
_VAGUE: Final = frozenset({"part", "some", "a bit", "a little", "much", "most", "a few", "several"})
"""Portions that say only "not all": any portion of the thing supports them."""
_SKIPPED: Final = frozenset(
    """
    about around roughly nearly almost only just maybe probably approximately perhaps over
    under barely already accidentally also then him her them me us you it
    """.split()
)
"""Words between a verb and its thing that are not the verb: adverbs, a pronoun object
("gave her half a tablet")."""
_NOT_VERBS: Final = frozenset(
    """
    is are was were be been being am of in on at to for with from by into onto than like as
    and or but nor so if when while because since after before until per via without within
    there here this that these those what which who whose where how why
    i we he she they my our his their your its
    """.split()
) | frozenset(_DETERMINER[3:-1].split("|"))
"""Words that are no verb for a thing to be done by ("is a beagle", "in the bar")."""
_IRREGULAR: Final = {
    "ate": "eat", "eaten": "eat", "took": "take", "taken": "take", "drank": "drink",
    "drunk": "drink", "had": "have", "has": "have", "gave": "give", "given": "give",
    "bit": "bite", "bitten": "bite", "got": "get", "gotten": "get", "swallowed": "swallow",
    "spent": "spend", "sold": "sell", "bought": "buy", "lost": "lose", "paid": "pay",
    "put": "put", "used": "use", "left": "leave", "kept": "keep", "threw": "throw",
    "thrown": "throw", "chewed": "chew", "finished": "finish",
}
"""Past forms whose stem is not their verb's ("ate" is "eat")."""
_TIME_WORDS: Final = frozenset(
    """
    yesterday today tonight tomorrow ago now morning afternoon evening night week weekend
    minutes minute hours hour days day earlier later
    """.split()
)
"""Words that end a thing's noun phrase ("the pizza yesterday": the pizza)."""

_PUNCTUATION = re.compile(r"[,;:!?()]|\.(?!\d)")
_NUMBER = re.compile(r"(?<![\w.,])(?P<n>\d[\d,]*(?:\.\d+)?)(?P<k>k\b)?(?![\w]|[.,]\d)", re.IGNORECASE)
"""A number ("78,000", "6.8", "78k"; not a part of "9:33" or "401(k)"'s digits)."""
_MONEY = r"(?:[$\u20ac\u00a3]\s?)?"
_ROUGHLY = r"(?:(?:about|around|roughly|nearly|almost|over|under|just|only|another)\s+)?"
_CHANGE_NOUNS = (
    r"raises?|increases?|rises?|hikes?|bumps?|boosts?|cuts?|decreases?|drops?|reductions?"
    r"|discounts?|gains?|losses|jumps?|increments?|markups?"
)
_CHANGE_WORDS = (
    r"rais\w*|increas\w*|rise|rises|rising|rose|risen|cut|cuts|cutting|reduc\w*|lower\w*|drop\w*"
    r"|fell|fall\w*|grew|grow\w*|jump\w*|climb\w*|decreas\w*|boost\w*|bump\w*|went up|go up|goes up"
    r"|went down|go down|goes down|gain\w*|hike\w*"
)
_BEFORE_CHANGE = re.compile(
    rf"(?:\b(?:{_CHANGE_NOUNS}) of|\b(?:{_CHANGE_WORDS}|up|down)\b(?:\s+[\w'()-]+){{0,3}}?\s+by"
    rf"|\b(?:extra|additional))\s+{_ROUGHLY}{_MONEY}$",
    re.IGNORECASE,
)
"""Before a number that is how much something moved: "a raise of", "increased it by",
"an extra"."""
_AFTER_CHANGE = re.compile(
    r"^\s?(?:%|percent)?(?:\s+(?!(?:to|of|in|at|for|from|and|or|on|with|by|is|was|the|a|an)\b)[\w%'-]+){0,2}?"
    rf"\s+(?:(?:{_CHANGE_NOUNS})\b|(?:more|extra|less|fewer|additional)\b)",
    re.IGNORECASE,
)
"""After a number that is how much something moved: "(78,000) dollar raise", "(5)% pay
cut", "(130) more" (at most two words between, none a preposition or an article)."""
_BEFORE_LEVEL = re.compile(
    rf"(?:\b(?:{_CHANGE_WORDS}|raise|increase|bump|cut|change[sd]?|set|sets|setting|adjust\w*"
    r"|switch\w*|bring|brings|brought|move[sd]?|moving)\b(?:\s+[\w'().,%$\u20ac\u00a3-]+){0,4}?\s+to"
    rf"|\bfrom\s+{_ROUGHLY}{_MONEY}\d[\d,.]*k?(?:\s*(?:%|percent|[a-z]+))?\s+to"
    r"|\b(?:up|down) to|\bat|\bfrom|\bnow(?:\s+(?:earns?|makes?|gets?|pays?|costs?|is|are|at|on))?"
    r"|\b(?:earns?|earning|earned|makes|making|salary (?:is|of)|income (?:is|of)|costs?|priced at"
    rf"|reach(?:es|ed)?|hits?|totals?|totall?ing|comes? to|came to))\s+{_ROUGHLY}{_MONEY}$",
    re.IGNORECASE,
)
"""Before a number that is where something is or ends: "a raise to", "now earns", "at",
"from", "up to", "once your savings reach"."""
_FROM_TO = re.compile(
    rf"\bfrom\s+{_ROUGHLY}{_MONEY}(?P<a>\d[\d,]*(?:\.\d+)?)(?P<ak>k\b)?(?:\s*(?:%|percent|[a-z]+))?"
    rf"\s+to\s+{_ROUGHLY}{_MONEY}(?P<b>\d[\d,]*(?:\.\d+)?)(?P<bk>k\b)?",
    re.IGNORECASE,
)
"""Two levels, before and after ("from 70,000 to 78,000"): their difference is a change."""
_CONTEXT_CHARS: Final = 60
"""How far before or after a number its role is read."""


def misquantified(clause: str, conversation: Sequence[str]) -> str | None:
    """Why ``clause`` (of a summary) says an amount the conversation's texts do not give
    it, or None (see the module docstring)."""
    return _portion_changed(clause, conversation) or _role_changed(clause, conversation) or _unit_changed(clause, conversation)


def _unit_changed(clause: str, conversation: Sequence[str]) -> str | None:
    """Why ``clause`` joins a number and a unit the conversation never joins ("a 30GB plan"
    where 30 is only ever a price, "30/mo", and GB is said of 15, 21 and 8): the conversation
    says the unit of other numbers, and the number never with that unit nor bare (answering
    a question, or with nothing after it: not "30/mo", "30 each"); a unit the conversation never says with a number (spelled another
    way, or a word the summary chose) is not judged here, nor a rate ("a month"), nor a
    number in words ("one tomato" says "a tomato")."""
    digits = set(re.findall(r"\d+(?:\.\d+)?", clause.replace(",", "")))
    mine = [  # written in digits: "one tomato" is "a tomato"
        v for v in values(clause)
        if v.kind == "number" and v.unit and not v.unit.startswith("per ") and v.value in digits
    ]
    if not mine:
        return None
    said = [v for v in values_said(tuple(conversation)) if v.kind == "number"]
    for value in mine:
        if not any(v.unit == value.unit for v in said):
            continue
        if any(v.value == value.value and (v.unit == value.unit or (v.unit is None and v.asked)) for v in said):
            continue
        if _said_bare(value.value, conversation):
            continue  # "I'm at 2,350 though": a bare number may be of any unit
        return f"joins {value.value} to a unit the conversation says only of other numbers"
    return None


_NUMERAL = re.compile(r"(?<![\w.,])\d[\d,]*(?:\.\d+)?(?![\w,.]?\d)")
_PRICED = re.compile(r"\s*(?:/|each\b|apiece\b|per\b|an?\s+(?:hour|day|night|week|month|year|piece|head)\b)|[a-z%]", re.IGNORECASE)
"""What after a number makes it a rate or a price each, or gives it a unit written on
("30/mo", "30 each", "30 a month", "30GB"): not a bare number."""
_NEXT_WORD = re.compile(r"\s+([a-z']+)", re.IGNORECASE)


def _said_bare(value: str, conversation: Sequence[str]) -> bool:
    """Whether a text of ``conversation`` says ``value`` (digits, "2350") bare: nothing after
    it, or a function word ("I'm at 2,350 though", "40 is fine"), not a unit, a rate or a
    price each ("30 people", "30/mo", "30 each")."""
    for text in conversation:
        for m in _NUMERAL.finditer(text):
            if m.group().replace(",", "") != value or _PRICED.match(text, m.end()) is not None:
                continue
            after = _NEXT_WORD.match(text, m.end())
            if after is None or after.group(1).casefold() in STOP_WORDS:
                return True
    return False


@dataclass(frozen=True)
class _Mention:
    """A thing a text does something to: the verb (None: no verb before it), the portion
    (None: the whole thing) and the forms of the noun phrase (its last one, the head)."""

    verb: str | None
    portion: str | None
    thing: tuple[str, ...]


def _portion_changed(clause: str, conversation: Sequence[str]) -> str | None:
    said = tuple(conversation)
    portions = _portions(said)
    if not portions:
        return None  # most conversations give no portion of anything
    for mention in _mentions(clause):
        verb = mention.verb
        if verb is None:
            continue
        accusing = [
            m for m in portions
            if m.verb is not None and _same_verb(m.verb, verb) and _same_thing(m.thing, mention.thing)
        ]
        if not accusing:
            continue  # most things: no portion of them was done with this verb
        if mention.portion is None:
            if any(_same_verb(m.verb or "", verb) and _same_thing(m.thing, mention.thing) for m in _wholes(said)):
                continue  # said whole with the same verb too
            return "drops the portion the conversation gives"
        if mention.portion in _VAGUE or any(
            m.portion == mention.portion and _same_thing(m.thing, mention.thing) for m in portions
        ):
            continue
        return "changes the portion the conversation gives"
    return None


@functools.lru_cache(maxsize=4)
def _portions(conversation: tuple[str, ...]) -> list[_Mention]:
    """The conversation's mentions of a portion of a thing, read once for a summary."""
    return [m for text in conversation for sentence in sentences(text) for m in _portion_mentions(sentence)[0]]


@functools.lru_cache(maxsize=4)
def _wholes(conversation: tuple[str, ...]) -> list[_Mention]:
    """The conversation's mentions of a whole thing a verb is done to (read only when a
    clause drops a portion)."""
    return [m for text in conversation for sentence in sentences(text) for m in _mentions(sentence) if m.verb and m.portion is None]


def _mentions(text: str) -> list[_Mention]:
    """The things ``text`` names with a determiner, each with its verb and portion."""
    out, taken = _portion_mentions(text)
    for match in _WHOLE.finditer(text):
        if any(a <= match.start() < b for a, b in taken):
            continue  # the thing of a portion
        thing = _thing(match.group("thing"))
        if thing:
            out.append(_Mention(_verb(text, match.start()), None, thing))
    return out


def _portion_mentions(text: str) -> tuple[list[_Mention], list[tuple[int, int]]]:
    """The portions of things ``text`` names, and where each is."""
    out: list[_Mention] = []
    taken: list[tuple[int, int]] = []
    for match in _PORTION.finditer(text):
        bare = match.group("bare") is not None
        thing = _thing(match.group("bthing" if bare else "thing"))
        if thing:
            portion = _portion(match.group("bare" if bare else "portion"))
            out.append(_Mention(_verb(text, match.start()), portion, thing))
        taken.append(match.span())
    return out, taken


def _portion(said: str) -> str:
    """One form for a portion: "a half" is "half", "two" is "2", "a third" is "third"."""
    said = " ".join(said.casefold().split())
    if said in _PORTION_NUMBERS:
        return _PORTION_NUMBERS[said]
    return re.sub(r"^(?:a|an|one) (?=half|quarter|third|fifth|tenth)", "", said)


def _thing(phrase: str) -> tuple[str, ...]:
    """The forms of a noun phrase: its words up to a function or time word (a number is a
    word of it: "a 100 gram bar"); empty when it ends before a word of letters."""
    forms: list[str] = []
    for word in phrase.split():
        bare = word.strip("'").casefold()
        if not bare or bare in STOP_WORDS or bare in _TIME_WORDS or not re.fullmatch(r"[\w'-]+", bare):
            break
        forms.append(stem(bare))
    while forms and not forms[-1][:1].isalpha():
        forms.pop()
    return tuple(forms)


def _verb(text: str, at: int) -> str | None:
    """The verb a thing starting at ``at`` is the object of: the word before it (adverbs and
    a pronoun object skipped), or None when that is no verb."""
    clause = _PUNCTUATION.split(text[:at])[-1]  # "by mistake, then some of": no verb
    for word in reversed(re.findall(r"[\w'-]+", clause.casefold())[-4:]):
        if word in _SKIPPED:
            continue
        if word in _NOT_VERBS or word in _TIME_WORDS or not word.isalpha():
            return None
        return _IRREGULAR.get(word) or stem(word)
    return None


def _same_verb(a: str, b: str) -> bool:
    return a == b or same_word(a, b)


def _same_thing(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two noun phrases name one thing: the head (last form) of one is a form of the
    other ("dark chocolate bar" and "100 gram dark chocolate bar")."""
    return any(same_word(a[-1], f) for f in b) or any(same_word(b[-1], f) for f in a)


def _role_changed(clause: str, conversation: Sequence[str]) -> str | None:
    mine = _roles(clause)
    if not mine:
        return None
    known = _known_roles(tuple(conversation))
    for number, role in mine.items():
        if len(role) != 1:
            continue
        given = known.get(number, set())
        if given and not role & given:
            return (
                "states as a change what the conversation gives as a level"
                if role == {"change"}
                else "states as a level what the conversation gives as a change"
            )
    return None


@functools.lru_cache(maxsize=4)
def _known_roles(conversation: tuple[str, ...]) -> dict[str, set[str]]:
    """The roles the conversation's texts give each number, read once for a summary; the
    difference of a "from A to B" is a change it gives."""
    out: dict[str, set[str]] = {}
    for text in conversation:
        for number, roles in _roles(text).items():
            out.setdefault(number, set()).update(roles)
        for match in _FROM_TO.finditer(text):
            a = amount(match.group("a"), match.group("ak"))
            b = amount(match.group("b"), match.group("bk"))
            if a is not None and b is not None:
                out.setdefault(number_text(abs(a - b)), set()).add("change")
    return out


def _roles(text: str) -> dict[str, set[str]]:
    """Each number of ``text`` with the roles it has there: "change" (how much something
    moved) or "level" (where it is or ends); a change at a place is not also a level."""
    out: dict[str, set[str]] = {}
    for match in _NUMBER.finditer(text):
        before = text[max(0, match.start() - _CONTEXT_CHARS) : match.start()]
        after = text[match.end() : match.end() + _CONTEXT_CHARS]
        if _BEFORE_CHANGE.search(before) or _AFTER_CHANGE.search(after):
            role = "change"
        elif _BEFORE_LEVEL.search(before):
            role = "level"
        else:
            continue
        value = amount(match.group("n"), match.group("k"))
        if value is not None:
            out.setdefault(number_text(value), set()).add(role)
    return out


_ONE = frozenset({"a", "an"})


def counted_twice(sentence: str, conversation: Sequence[str]) -> str | None:
    """Why ``sentence`` lists one thing twice, plain and with words before it ("a
    woodpecker, and a downy woodpecker"), or None (the module docstring)."""
    things = [thing for item in LIST_MARKS.split(sentence) if (thing := _one_thing(item))]
    for plain in things:
        for named in things:
            if len(named) > len(plain) and named[-len(plain):] == plain and not _both(plain, named, conversation):
                return "counts one thing twice, plain and named"
    return None


def _one_thing(item: str) -> tuple[str, ...]:
    """The noun phrase after an item's last "a" or "an", up to its first stop word
    ("has seen a blue heron": blue heron), or ``()``."""
    said = words(item, numbers=False)
    at = max((i for i, w in enumerate(said) if w in _ONE), default=-1)
    if at < 0:
        return ()
    phrase: list[str] = []
    for w in said[at + 1:]:
        if w in STOP_WORDS:
            break
        phrase.append(w)
    return tuple(phrase)


def _both(plain: tuple[str, ...], named: tuple[str, ...], conversation: Sequence[str]) -> bool:
    """Whether a sentence of ``conversation`` names ``named`` and, apart from it, ``plain``."""
    short, long = f" {' '.join(plain)} ", f" {' '.join(named)} "
    for text in conversation:
        for said in sentences(text):
            joined = f" {' '.join(words(said))} "
            if long in joined and joined.count(short) > joined.count(long):
                return True
    return False
