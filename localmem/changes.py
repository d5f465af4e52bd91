"""The words a conversation changes what it said with, shared by the readers of its changes.

:mod:`localmem.revisions` (a value as it ended), :mod:`localmem.statuses` (a status over, a
thing ended), :mod:`localmem.renames` (a name or a place given again) and
:mod:`localmem.doses` (a dose's frequency changed) each read what a later message replaces;
:mod:`localmem.corrections` (a user's slip set right) opens with some of the same words.
They cut a text into sentences alike (:func:`sentences`), find the question
a text ends with alike (:func:`last_question`), and know a change by the same words: a word
that gives something in place of what was said (:data:`CUE`: "actually", "now", "instead"; of
them, the words that take back what was said, :data:`TAKE_BACK`, open a correction too)
and the verbs of change (:data:`CHANGE_VERBS`: "moved", "bumped", "went up"). Pure; nothing
here raises on any ``str``.
"""

from __future__ import annotations

import re
from typing import Final

# A leaf: it imports nothing of localmem, so each reader importing it stays two modules
# deep and ``staleness`` (which asks them all) three: ``summarizer.support`` and ``facts``,
# 6 deep, import ``staleness``, 9 in all (tests/test_architecture.py allows 9).

TAKE_BACK: Final = r"actually|scratch that|correction"
"""Words that take back what was just said, as alternatives of a regular expression (no
group): a change's cue (:data:`CUE`) and the opening of a user's correction
(``corrections``) alike; each reader adds the words only it accepts."""
CUE: Final = re.compile(
    rf"\b(?:{TAKE_BACK}|now|instead|from now on|update[ds]?|change of plans?|(?:that|which) makes)\b",
    re.IGNORECASE,
)
"""Words that give a value in place of an earlier one ("that makes 24": a count grown)."""
CHANGE_VERBS: Final = (
    r"mov(?:e|ed|es|ing)|chang(?:e|ed|es|ing)|switch(?:ed|es|ing)?|push(?:ed|es|ing)?|resched\w*"
    r"|bump(?:ed|s|ing)?|rais(?:e|ed|es|ing)|increas(?:e|ed|es|ing)|lower(?:ed|s|ing)?|reduc(?:e|ed|es|ing)"
    r"|cut(?:s|ting)?|drop(?:ped|s|ping)?|upp(?:ed|ing)|make|made|makes|keep|keeps|kept|limit(?:ed|s|ing)?"
    r"|(?:went|go|goes|came|come|comes) (?:up|down)|set|sets|adjust(?:ed|s|ing)?|trim(?:med|s|ming)?"
    r"|shorten(?:ed|s|ing)?|extend(?:ed|s|ing)?|expand(?:ed|s|ing)?|rebook(?:ed|s|ing)?"
)
"""Verbs of change, as alternatives of a regular expression (no group): "moved", "bump",
"went up", "trimmed"."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_WH = re.compile(r"^\W*(?:how|when|what|which|who|where)\b", re.IGNORECASE)


def sentences(text: str) -> list[str]:
    """``text``'s sentences: cut after ".", "!" or "?" and a space, and at line breaks."""
    return [s for s in _SENTENCE.split(text) if s.strip()]


def last_question(text: str) -> str:
    """The question ``text`` ends with ("nice. how many ppl" asks too), or ""."""
    said = sentences(text)
    if not said:
        return ""
    last = said[-1]
    return last if last.rstrip().endswith("?") or _WH.search(last) else ""

