"""How a summary is written: the words every summary uses, where its sentences end and its lists part.

Shared by ``validation`` (whether an answer is a summary, trimming it to whole sentences)
and ``support`` (holding each sentence to the turns) with its checks (``bindings``, ``listed``,
``amounts``: a list's items; :func:`naming_forms`: the words of a clause that name
something). Pure; it imports only ``words``.
"""

from __future__ import annotations

import re
from typing import Final

from ..words import STOP_WORDS, stem, words

SUMMARY_WORDS: Final = frozenset(
    """
    user users assistant assistants conversation conversations discussion discussed
    discusses discussing asked asks asking explained explains explaining talked talks
    mentioned mentions provided provides requested requests described describes shared
    shares suggested suggests offered offers helped helps answered answers question
    questions topic topics chat summary summarized then later briefly including issue
    issues solution solutions
    """.split()
)
"""Words any summary uses whatever was discussed; they prove nothing about what was said."""
_SUMMARY_FORMS: Final = frozenset(stem(w) for w in SUMMARY_WORDS)
LIST_MARKS: Final = re.compile(r",\s*(?:(?:and|or)\s+)?|\s(?:and|or)\s", re.IGNORECASE)
"""Where a list's items part: "a heron, a finch, and a yellow finch"."""
_SENTENCE_STOP = re.compile(r"[.!?][\"'\u201d\u2019)\]]*(?=\s|\Z)")
_ABBREVIATION = re.compile(r"\b(?:dr|mr|mrs|ms|prof|st|jr|sr|vs|etc|approx|e\.g|i\.e)\.\Z", re.IGNORECASE)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each whole sentence of ``text``: it ends at ``.``, ``!`` or
    ``?`` (and closing quotes) before a space or the end, not after "Dr." or "e.g."; an
    unfinished last sentence is not one."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_STOP.finditer(text):
        if not _ABBREVIATION.search(text, 0, match.start() + 1):
            spans.append((start, match.end()))
            start = match.end()
    return spans


def naming_forms(text: str) -> list[str]:
    """The stems of ``text``'s words that name something, in the order it says them
    (repeats kept): three letters or more, not numbers, stop words nor the words every
    summary uses (:data:`SUMMARY_WORDS`)."""
    return [
        form for w in words(text)
        if len(w) >= 3 and w.isalpha() and w not in STOP_WORDS and (form := stem(w)) not in _SUMMARY_FORMS
    ]
