"""A dose's frequency a later message changed: "every 12 hours", then "twice a day".

A dose's frequency ("every 12 hours", "twice a day", "each morning": doses a day) is changed
by a later statement, in a message with a word of change, that names the same drug or dose
amount ("75 mg", "2 puffs") and gives another frequency first ("she changed the dose, 75 mg
once a day for the first week, then twice a day"), once a text said the old one of it; a
claim stating the old frequency and not the new one is stale (:func:`changed_rate`, pure;
it never raises on any ``str``; ``staleness.stale`` asks it).
"""

from __future__ import annotations

import re
from typing import Final

from .changes import CHANGE_VERBS, CUE, sentences
from .words import NUMBER_WORDS, is_drug, words


def changed_rate(claim: str, texts: tuple[str, ...]) -> str | None:
    """Why ``claim`` states a dose's frequency a later statement of ``texts`` (a
    conversation, in order) changed (:func:`_rate_changed`); None when it does not."""
    if _FREQUENCY.search(claim) is not None and _rate_changed(claim, texts):
        return "states a dose's frequency a later message changed"
    return None


_FREQUENCY = re.compile(
    r"\b(?:(?P<times>once|twice|thrice|(?:\d+|one|two|three|four|five|six) times)\s+(?:a|per)\s+day"
    r"|(?:\d+|one|two|three|four|five|six) times daily|every (?P<hours>\d+) hours"
    r"|(?P<daily>(?:each|every) (?:morning|evening|night)))\b",
    re.IGNORECASE,
)
"""How often a dose is taken: "once a day", "3 times daily", "every 12 hours", "each
morning" (once a day)."""
_TIMES: Final = {**{w: int(n) for w, n in NUMBER_WORDS.items()}, "once": 1, "one": 1, "twice": 2, "thrice": 3}
_DOSE_AMOUNT = re.compile(r"\b\d+(?:\.\d+)?\s?(?:mg|mcg|ml|g|iu|puffs?|tablets?|caplets?|capsules?)\b", re.IGNORECASE)
"""A dose's amount, in a unit of medicine ("75mg", "2 puffs", "1 tablet")."""
_CHANGE = re.compile(rf"\b(?:{CHANGE_VERBS})\b|{CUE.pattern}", re.IGNORECASE)


def _per_day(match: re.Match[str]) -> float:
    """Doses a day a frequency says ("every 12 hours": 2; "twice a day": 2)."""
    if match.group("hours"):
        return 24 / max(int(match.group("hours")), 1)
    if match.group("daily"):
        return 1.0
    said = (match.group("times") or match.group()).casefold().split()[0]
    return float(said) if said.isdigit() else float(_TIMES.get(said, 0))


def _rate_changed(claim: str, texts: tuple[str, ...]) -> bool:
    """Whether ``claim`` states a dose's frequency ("1 caplet every 12 hours") that a later
    statement changed for the same drug or dose ("she changed the dose, 75 mg once a day for
    the first week, then twice a day": its first frequency is the one that holds now),
    without the new frequency. The thing is the same when the change names a drug or a dose
    amount of the claim; the change comes after a text that says the claim's frequency of it."""
    mine = {_per_day(m) for m in _FREQUENCY.finditer(claim)}
    anchors = _dosed(claim)
    said = False
    for text in texts:
        for sentence in sentences(text):
            rates = [_per_day(m) for m in _FREQUENCY.finditer(sentence)]
            if not rates:
                continue
            if not _dosed(sentence) & anchors:
                continue
            # the word of change may come in the message's next sentence ("the Clenil is 2
            # puffs twice a day. The GP increased it in January.")
            if said and _CHANGE.search(text) and not sentence.rstrip().endswith("?"):
                if rates[0] not in mine:
                    return True
            said = said or not mine.isdisjoint(rates)
    return False


def _dosed(text: str) -> set[str]:
    """What a dose in ``text`` is of: its drugs and its dose amounts ("75mg")."""
    return {w for w in words(text) if is_drug(w)} | {"".join(a.casefold().split()) for a in _DOSE_AMOUNT.findall(text)}
