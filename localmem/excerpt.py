"""A long recalled turn cut to the sentences that answer the question: pure.

A relevant turn is all or nothing when packed whole: one long turn can cost
the room of five short answers. ``cut(text, patterns)`` keeps the sentences
holding a query word (each found as ``rank.occurrences`` finds it, so a
sentence counts when BM25 counted its words), the speaker's label a
transcript starts with ("Melanie: ..."), and marks every cut with an
ellipsis, so that a reader (and a model) sees that words were left out and
where. A turn with no matching sentence (found by meaning, or the reply a
question brought along) or whose every sentence matches is not cut: None.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .autopins import is_lasting
from .models import Message
from .rank import occurrences

ELLIPSIS = "…"
MIN_TOKENS = 40
"""Turns shorter than this are shown whole: a cut would save too little to matter."""
MIN_SAVING = 0.3
"""A cut is used only when it saves at least this share of the turn's tokens."""
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+[\"')\]]*|\n|$)")
_LABEL = re.compile(r"^[A-Z][\w .'-]{0,30}: ")


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (line breaks end one too), stripped, none empty."""
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


def cut(text: str, patterns: Sequence[re.Pattern[str]]) -> str | None:
    """``text`` reduced to its sentences matching any of ``patterns``, ellipses where
    sentences were left out; None when there is nothing to leave out or nothing kept."""
    label_match = _LABEL.match(text)
    label = label_match.group(0) if label_match else ""
    parts = sentences(text[len(label):])
    if len(parts) < 2:
        return None
    keep = [any(p.search(s) for p in patterns) for s in parts]
    if not any(keep) or all(keep):
        return None
    out: list[str] = []
    skipped = False
    for sentence, kept in zip(parts, keep):
        if kept:
            if skipped:
                out.append(ELLIPSIS)
            out.append(sentence)
            skipped = False
        else:
            skipped = True
    if skipped:
        out.append(ELLIPSIS)
    return label + " ".join(out)


class Answers:
    """What of the material answers a query's ``terms``: the two judgments packing
    asks of a context with a query (``packing.Policy.shorten`` and ``.earns``)."""

    def __init__(self, terms: Sequence[str], count: Callable[[str], int]) -> None:
        self._patterns = [occurrences(t) for t in terms]
        self._count = count

    def answers(self, text: str) -> bool:
        """Whether ``text`` holds a word of the query."""
        return any(p.search(text) for p in self._patterns)

    def earns(self, text: str) -> bool:
        """Whether a pin, summary or checkpoint line keeps its place ahead of the
        relevant messages: it answers the query, or it is a lasting fact of the user's
        (health, identity, constraints: ``autopins.is_lasting``)."""
        return self.answers(text) or is_lasting(text)

    def shorten(self, message: Message) -> Message:
        """``message`` as a relevant one is shown: a long one cut to its sentences that
        answer (``cut``) when that saves ``MIN_SAVING`` of its tokens; else whole."""
        if message.token_count < MIN_TOKENS or not self._patterns:
            return message
        text = cut(message.text, self._patterns)
        if text is None:
            return message
        tokens = self._count(text)
        if tokens > message.token_count * (1 - MIN_SAVING):
            return message
        return message.model_copy(update={"text": text, "token_count": tokens})
