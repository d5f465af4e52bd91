"""A long recalled turn cut to the sentences that answer the question: pure.

A relevant turn is all or nothing when packed whole: one long turn can cost
the room of five short answers. ``cut(text, patterns)`` keeps the sentences
holding a query word (each found as ``rank.occurrences`` finds it, so a
sentence counts when BM25 counted its words), the speaker's label a
transcript starts with ("Melanie: ..."), the sentence after a short exclamation
that matched (``SHORT_SENTENCE_WORDS``: "Greetings from Mexico City! We took a
cooking class." says what happened there in the second), and marks every cut
with an ellipsis, so that a reader (and a model) sees that words were left out and
where. A turn with no matching sentence (found by meaning, or the reply a
question brought along) or whose every sentence matches is not cut: None.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Sequence

from .autopins import is_lasting
from .memos import by_text
from .models import Message
from .rank import Finder, finder_of
from .words import SENTENCE_END, SPEAKER_LABEL

ELLIPSIS = "…"
MIN_TOKENS = 40
"""Turns shorter than this are shown whole: a cut would save too little to matter."""
MIN_SAVING = 0.3
"""A cut is used only when it saves at least this share of the turn's tokens."""
SHORT_SENTENCE_WORDS = 8
"""A matched exclamation of at most this many words ("Greetings from Mexico City!",
"Big news from work!") keeps the sentence after it: what it announces is said there."""
LASTING_MEMO_SIZE = 4096
"""Texts whose ``is_lasting`` judgment is kept: the same pins and summaries are
judged for every context with a query (the user's pins in every session's)."""
LASTING_MEMO_MAX_CHARS = 4096
SHORTENED_MEMO_SIZE = 4096
"""Most relevant messages whose shortened form ``Answers.shorten`` keeps (in the dict
it is given), by message id and the query's stems: a chat's next turns ask of the
same messages with the same words."""
SHORTENED_MEMO_MAX_CHARS = 4096
"""Longer messages are cut afresh each time (at most 16 MB of text kept)."""
ANSWERS_MEMO_SIZE = 4096
"""Texts whose ``Answers.answers`` judgment is kept, with the query's finder: the same
pins (the user's, in every session) and summaries are judged for every context whose
query has the same words."""
ANSWERS_MEMO_MAX_CHARS = 4096


def cut(text: str, finder: Finder) -> str | None:
    """``text`` reduced to its sentences holding a word ``finder`` finds, ellipses where
    sentences were left out; None when there is nothing to leave out or nothing kept.

    Two passes of the regex engine over the text (sentence ends, words found) and a
    bisection per word found: a long turn costs little to cut."""
    label_match = SPEAKER_LABEL.match(text)
    begin = label_match.end() if label_match else 0
    starts = [i for i in finder.starts(text) if i >= begin]
    if not starts:  # found by meaning, or a neighbour: shown whole, no sentence split
        return None
    ends = [m.end() for m in SENTENCE_END.finditer(text, begin)]
    if not ends or ends[-1] < len(text):
        ends.append(len(text))
    if len(ends) < 2:
        return None
    hits = {bisect.bisect_right(ends, i) for i in starts}
    hits.discard(len(ends))
    for n in [n for n in hits if n + 1 < len(ends)]:
        sentence = text[ends[n - 1] if n else begin : ends[n]].strip()
        if sentence.endswith("!") and len(sentence.split()) <= SHORT_SENTENCE_WORDS:
            hits.add(n + 1)
    if not hits or len(hits) == len(ends):
        return None
    out: list[str] = []
    previous = -1
    for n in sorted(hits):
        sentence = text[ends[n - 1] if n else begin : ends[n]].strip()
        if not sentence:
            continue
        if n != previous + 1:
            out.append(ELLIPSIS)
        out.append(sentence)
        previous = n
    if previous != len(ends) - 1 and text[ends[previous]:].strip():
        out.append(ELLIPSIS)
    return text[:begin] + " ".join(out)


class Answers:
    """What of the material answers a query's ``terms``: the judgments packing asks of
    a context with a query (``packing.Policy.shorten``, ``.earns`` and ``.answers``)."""

    def __init__(
        self,
        terms: Sequence[str],
        count: Callable[[str], int],
        shortened: dict[tuple[int, frozenset[str]], Message] | None = None,
    ) -> None:
        self._finder = finder_of(tuple(terms))
        self._any = bool(terms)
        self._count = count
        # What ``shorten`` gave for each message (by id: a message never changes) and
        # these stems, kept across contexts in the dict the caller gives.
        self._shortened = {} if shortened is None else shortened

    def answers(self, text: str) -> bool:
        """Whether ``text`` holds a word of the query (kept by finder and text: packing
        asks of a pin twice, ``earns`` and ``answers``, and every context of these
        words asks of the same pins)."""
        if not self._any:
            return False
        if len(text) > ANSWERS_MEMO_MAX_CHARS:
            return _holds(self._finder, text)
        return _memo_holds(self._finder, text)

    def earns(self, text: str) -> bool:
        """Whether a pin, summary or checkpoint line keeps its place ahead of the
        relevant messages: it answers the query, or it is a lasting fact of the user's
        (health, identity, constraints: ``autopins.is_lasting``)."""
        return self.answers(text) or lasting(text)

    def shorten(self, message: Message) -> Message:
        """``message`` as a relevant one is shown: a long one cut to its sentences that
        answer (``cut``) when that saves ``MIN_SAVING`` of its tokens; else whole."""
        if message.token_count < MIN_TOKENS or not self._any:
            return message
        key = (message.id, self._finder.stems)
        kept = len(message.text) <= SHORTENED_MEMO_MAX_CHARS
        shown = self._shortened.get(key) if kept else None
        if shown is None:
            shown = message
            text = cut(message.text, self._finder)
            if text is not None:
                tokens = self._count(text)
                if tokens <= message.token_count * (1 - MIN_SAVING):
                    shown = message.model_copy(update={"text": text, "token_count": tokens})
            if kept:
                if len(self._shortened) >= SHORTENED_MEMO_SIZE:
                    self._shortened.clear()
                self._shortened[key] = shown
        return shown




def _holds(finder: Finder, text: str) -> bool:
    """Whether a word of ``text`` holds one of ``finder``'s terms."""
    return bool(finder.starts(text))


# A finder is never changed once built (``rank.finder_of``): kept by identity with it.
_memo_holds = functools.lru_cache(maxsize=ANSWERS_MEMO_SIZE)(_holds)


lasting = by_text(is_lasting, LASTING_MEMO_SIZE, LASTING_MEMO_MAX_CHARS)
"""``autopins.is_lasting``, memoized by text (up to ``LASTING_MEMO_MAX_CHARS``)."""
