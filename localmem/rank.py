"""Ranking the older material that answers a question: pure functions, no SQL.

Lexical: BM25 (k1 1.2, b 0.75) with statistics of the scope searched, not of
the file. A speaker's name is rare in a file of many conversations but in
every turn of its own, so file-wide statistics would rank "Thanks, Melanie!"
above the turn that answers; with the scope's own document frequencies the
name weighs what it tells there: almost nothing. Every content word of the
query counts (stop words aside); the store reads, for each word, the ids of
the scope's messages that hold it (FTS5 with its Porter stemmer finds them),
then scores the candidates here: term frequency from the message's own words,
document length from its stored token count.

Semantic: cosine similarity of stored unit vectors (``localmem.embeddings``).

Fusion: reciprocal rank fusion (Cormack et al., k = 60) of the two rankings,
the lexical one cut to its confident matches (``FUSED_LEXICAL_FLOOR``). RRF
needs no calibration between BM25 scores and cosines, and a message found by
both ranks above one found by either alone. The lexical ranking weighs what
the question's words found (``coverage``): when the best lexical match holds
only a small share of the question's weight (a speaker's name and a common
word: the question is put in other words than its answer), its ranking is
mostly noise, and each of its ranks counts that share (at least
``LEXICAL_WEIGHT_FLOOR``) of a semantic rank. A question asking for every
instance of a kind ("Which cities has Gabe lived in?", ``asks_for_many``) is
answered by turns naming the instances ("we moved to Omaha"), not the kind:
its words find talk about the kind ("I'd love to live in a big city"), so its
lexical ranks count ``LIST_LEXICAL_WEIGHT`` of a semantic one.
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .memos import by_text
from .words import SPEAKER_LABEL, STOP_WORDS, TOKEN, stem, words

K1 = 1.2
B = 0.75
RRF_K = 60
"""Reciprocal rank fusion's constant: a rank r adds 1 / (RRF_K + r)."""
FUSED_LEXICAL_FLOOR = 0.2
"""In a fusion, the lexical ranking brings only the messages scoring at least this
share of its best: RRF credits ranks, not scores, so a long tail of weak matches (a
speaker's name alone) would otherwise push out what the semantic ranking found."""
LEXICAL_WEIGHT_FLOOR = 0.3
"""The least weight of the lexical ranking in a fusion (``coverage``)."""
LIST_LEXICAL_WEIGHT = 0.1
"""The lexical ranking's weight in a fusion for a question asking for every instance of
a kind (``asks_for_many``)."""
NEWS_WEIGHT = 0.5
"""Without semantic recall, the weight of a named speaker's turns that tell what they
said once (``reranking.news``) beside the question's words (weight 1) for a question
asking for one thing: its words find that one thing more often than a list question's
find each instance (``asks_for_many``: weight 1 there). Measured on the memory
benchmark: 1 cost reply questions 8 points, 0.75 and 0.5 none."""
LEFT_OUT_WEIGHT = 1.0
"""In a fusion, the weight of the semantic ranking cut to the turns said by a speaker
the query names among the common words its vector left out (``said_by``,
``recall.Recall.embedded_query``): the vector finds what is said, the label who said it."""
_ASKING = frozenset(("which", "what"))
_ALL = frozenset(("all", "every"))
"""Words that ask for a whole list: "What are all the places ...", "Where all has ..."."""
_LISTING = frozenset(("name", "list"))
"""A question's first words that ask for one: "Name the employers ...", "List the books ..."."""

_SEPARATOR = "\0"
"""Between the texts ``Finder.counts_of`` joins: no word, so no stem, holds it, and
it is no letter or digit, so a word after it begins there."""


def occurrences(term: str) -> re.Pattern[str]:
    """A pattern finding the words of a text that begin with ``term``'s stem, in any case."""
    return re.compile(r"(?<![^\W_])" + re.escape(stem(term)), re.IGNORECASE)


class Finder:
    """Where the words of a text begin with any of some terms' stems (``occurrences``
    of each): the text lowercased once, each stem looked for with ``str.find`` (C
    speed; a regex alternation of the stems costs three times as much), an
    occurrence kept when it starts a word, the longest stem at each start.
    A stem found also counts for the terms whose stems begin it ("cod" in "codes",
    found as "code")."""

    def __init__(self, terms: Sequence[str]) -> None:
        stems: dict[str, list[str]] = {}
        self.stem_of: dict[str, str] = {}
        """Each term's stem as it is looked for."""
        for t in terms:
            s = self.stem_of[t] = stem(t).lower()
            stems.setdefault(s, []).append(t)
        self._ordered = sorted(stems, key=len, reverse=True)
        self._credit = {
            s: [t for other in self._ordered if s.startswith(other) for t in stems[other]]
            for s in self._ordered
        }
        self._terms = tuple(terms)
        self._slow_patterns: dict[str, re.Pattern[str]] | None = None
        self.stems = frozenset(self._ordered)
        """The stems looked for: two finders with the same find the same words."""

    def _slow(self) -> dict[str, re.Pattern[str]]:
        """Each term's own pattern, for a text whose lowercase is longer (compiled once)."""
        if self._slow_patterns is None:
            self._slow_patterns = {t: occurrences(t) for t in self._terms}
        return self._slow_patterns

    def _found(self, lower: str) -> dict[int, str]:
        """Each word start of ``lower`` where a stem begins, and the longest stem there."""
        at: dict[int, str] = {}
        for s in self._ordered:  # longest first: the first stem kept at a start is the longest
            i = lower.find(s)
            while i != -1:
                if (not i or not lower[i - 1].isalnum()) and i not in at:
                    at[i] = s
                i = lower.find(s, i + 1)
        return at

    def counts(self, text: str) -> dict[str, int]:
        """How many words of ``text`` each term occurs as (terms absent: left out)."""
        found: dict[str, int] = {}
        if not self._ordered:
            return found
        lower = text.lower()
        if len(lower) != len(text):  # a character whose lowercase is longer: the slow way
            for t, pattern in self._slow().items():
                n = len(pattern.findall(text))
                if n:
                    found[t] = n
            return found
        credit = self._credit
        for s in self._found(lower).values():
            for t in credit[s]:
                found[t] = found.get(t, 0) + 1
        return found

    def counts_of(self, texts: Sequence[str]) -> list[dict[str, int]]:
        """``counts`` of each of ``texts``, in order: the texts lowercased and joined by
        a character no word holds, each stem looked for once in the whole (a few
        long ``str.find`` scans rather than one short one a text and a stem)."""
        if not self._ordered:
            return [{} for _ in texts]
        out: list[dict[str, int]] = [{} for _ in texts]
        lowers: list[str] = []
        for n, text in enumerate(texts):
            lower = text.lower()
            if len(lower) != len(text):  # a character whose lowercase is longer: the slow way
                out[n] = self.counts(text)
                lower = ""
            lowers.append(lower)
        bounds: list[int] = []  # where each text begins in the joined string
        at = 0
        for lower in lowers:
            bounds.append(at)
            at += len(lower) + 1
        credit = self._credit
        for i, s in self._found(_SEPARATOR.join(lowers)).items():
            found = out[bisect.bisect_right(bounds, i) - 1]
            for t in credit[s]:
                found[t] = found.get(t, 0) + 1
        return out

    def stem_counts(
        self, stem: str, texts: Sequence[str], keys: Sequence[int], lowered: dict[int, str]
    ) -> list[int]:
        """How many words of each of ``texts`` begin with ``stem`` (one of
        ``stem_of``'s), in order: what ``counts`` gives each of the stem's terms, found
        with ``str.find`` in the texts lowercased and joined, whatever the other stems
        are (the longest stem found at a word's start begins with ``stem`` exactly
        when ``stem`` is found there). ``keys``: each text's key in ``lowered``, which
        keeps the lowercase texts across calls (a text held by two terms)."""
        out = [0] * len(texts)
        lowers: list[str] = []
        for n, (text, key) in enumerate(zip(texts, keys)):
            lower = lowered.get(key)
            if lower is None:
                lower = lowered[key] = text.lower()
            if len(lower) != len(text):  # a character whose lowercase is longer: the slow way
                term = next(t for t, s in self.stem_of.items() if s == stem)
                out[n] = len(self._slow()[term].findall(text))
                lower = ""
            lowers.append(lower)
        joined = _SEPARATOR.join(lowers)
        bounds: list[int] = []  # where each text begins in the joined string
        at = 0
        for lower in lowers:
            bounds.append(at)
            at += len(lower) + 1
        i = joined.find(stem)
        while i != -1:
            if not i or not joined[i - 1].isalnum():
                out[bisect.bisect_right(bounds, i) - 1] += 1
            i = joined.find(stem, i + 1)
        return out

    def starts(self, text: str) -> list[int]:
        """Where in ``text`` a word holding any of the terms begins."""
        if not self._ordered:
            return []
        lower = text.lower()
        if len(lower) != len(text):
            return sorted({m.start() for p in self._slow().values() for m in p.finditer(text)})
        return sorted(self._found(lower))


@dataclass(frozen=True, slots=True)
class Scope:
    """The statistics of the searched scope: its messages and their mean length."""

    documents: int
    mean_tokens: float


def idf(documents: int, holding: int) -> float:
    """BM25's inverse document frequency (the "plus one" form: never negative)."""
    return math.log(1 + (documents - holding + 0.5) / (holding + 0.5))


def bm25(
    terms: Sequence[str],
    holders: Mapping[str, Iterable[int]],
    frequencies: Mapping[str, int],
    scope: Scope,
    texts: Mapping[int, tuple[str, int]],
    counted: StemCounts | None = None,
) -> dict[int, float]:
    """BM25 scores of the messages in ``texts`` (id -> (text, token count)).

    ``holders`` maps each query term to ids of the scope's messages that hold
    it (each once), ``frequencies`` to how many of the scope's messages hold it.
    A message the index matched but whose words the light stemmer does not
    connect to the term counts it once. ``counted``: how many words of a message
    (by id: its text never changes) begin with a stem, kept across calls
    (``Finder``, ``StemCounts``).

    Term by term over each term's holders: a message's score is the sum of its
    terms' parts in the order of ``terms``, as scoring it message by message would
    add them; a message's words are counted only when it holds a term.
    """
    finder = finder_of(tuple(terms))
    mean = scope.mean_tokens or 1.0
    held: list[tuple[str, list[int]]] = []  # each term and its holders among ``texts``
    for t in terms:
        held.append((t, [i for i in holders.get(t, ()) if i in texts]))
    if counted is None:
        docs = list(dict.fromkeys(i for _, ids in held for i in ids))
        found = dict(zip(docs, finder.counts_of([texts[i][0] for i in docs])))
        counts = {t: {i: found[i].get(t, 0) for i in ids} for t, ids in held}
    else:
        counts = counted.of(finder, held, texts)
    norms: dict[int, float] = {}
    scores: dict[int, float] = {}
    get = scores.get
    for t, ids in held:
        if not ids:
            continue
        weight = idf(scope.documents, frequencies.get(t, 0))
        mine = counts[t]
        for i in ids:
            norm = norms.get(i)
            if norm is None:
                norm = norms[i] = K1 * (1 - B + B * max(texts[i][1], 1) / mean)
            tf = mine[i] or 1
            scores[i] = get(i, 0.0) + weight * tf * (K1 + 1) / (tf + norm)
    return scores


COUNTED_SIZE = 65536
"""The (stem, message) counts a ``StemCounts`` holds: past them it is emptied, then
holds one call's."""
FINDERS_KEPT = 256
"""Finders ``finder_of`` keeps, by terms: a chat asks again with the words it asked."""


@functools.lru_cache(maxsize=FINDERS_KEPT)
def finder_of(terms: tuple[str, ...]) -> Finder:
    """``Finder(terms)``, kept (a finder never changes once built, but for its slow
    patterns, compiled once on first use)."""
    return Finder(terms)


class StemCounts:
    """How many words of each message begin with each stem (``Finder``), by stem then
    message id, kept across ``bm25`` calls: a message's text never changes, and a
    term's count in a text is the number of word starts its stem occurs at, whatever
    the other terms are. At most ``COUNTED_SIZE`` counts; past them emptied."""

    def __init__(self) -> None:
        self._by_stem: dict[str, dict[int, int]] = {}
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def clear(self) -> None:
        self._by_stem.clear()
        self._size = 0

    def of(
        self,
        finder: Finder,
        held: Sequence[tuple[str, Sequence[int]]],
        texts: Mapping[int, tuple[str, int]],
    ) -> dict[str, dict[int, int]]:
        """Each term's count in each of its ``held`` messages (by id, texts in
        ``texts``), from the counts kept; those missing counted now, each stem in its
        own holders' texts only (``Finder.stem_counts``: a word's stem is found where
        it is, whatever the other stems are), and kept."""
        stem_of = finder.stem_of
        kept = self._by_stem
        wanted = [(stem_of[t], ids) for t, ids in held]
        missing = [[i for i in ids if i not in kept.get(s, ())] for s, ids in wanted]
        more = sum(map(len, missing))
        if more and self._size + more > COUNTED_SIZE:
            self.clear()  # full: start again, with every held text counted now
            missing = [list(ids) for _, ids in wanted]
        lowered: dict[int, str] = {}  # a text held by two terms lowercased once
        for (s, _), ids in zip(wanted, missing):
            counts = kept.setdefault(s, {})
            if not ids:
                continue
            found = finder.stem_counts(s, [texts[i][0] for i in ids], ids, lowered)
            added = 0
            for i, n in zip(ids, found):
                if i not in counts:  # two terms of one stem: counted alike, once
                    counts[i] = n
                    added += 1
            self._size += added
        return {t: kept.get(stem_of[t], {}) for t, _ in held}


def prescore(
    terms: Sequence[str],
    holders: Mapping[str, Iterable[int]],
    frequencies: Mapping[str, int],
    scope: Scope,
) -> dict[int, float]:
    """Each matched message's summed IDF over the terms it holds: BM25 before term
    frequency and length, to choose which candidates are worth reading."""
    scores: dict[int, float] = {}
    for t in terms:
        weight = idf(scope.documents, frequencies.get(t, 0))
        if not scores:  # the first word found: its weight each (a term's holders are distinct)
            scores = dict.fromkeys(holders.get(t, ()), 0.0 + weight)
            continue
        get = scores.get
        for doc_id in holders.get(t, ()):
            scores[doc_id] = get(doc_id, 0.0) + weight
    return scores


def ranked(scores: Mapping[int, float]) -> list[int]:
    """Ids by score, best first; ties: the newer message first."""
    # (score, id) pairs compared in C, highest first: no key function called per id.
    return [i for _, i in sorted([(s, i) for i, s in scores.items()], reverse=True)]


def best(scores: Mapping[int, float], k: int) -> list[int]:
    """``ranked(scores)[:k]`` without sorting the rest: the k-th best score found by
    counting the scores (a sum of a few terms' weights: few distinct values), then only
    the ids scoring at least that are sorted."""
    if len(scores) <= k:
        return ranked(scores)
    counts = Counter(scores.values())
    left = k
    for floor in sorted(counts, reverse=True):
        left -= counts[floor]
        if left <= 0:
            break
    return ranked({i: s for i, s in scores.items() if s >= floor})[:k]


def confident(scores: Mapping[int, float], floor: float = FUSED_LEXICAL_FLOOR) -> dict[int, float]:
    """The scores at least ``floor`` of the best one."""
    best = max(scores.values(), default=0.0)
    return {i: s for i, s in scores.items() if s >= floor * best}


def coverage(
    prescores: Mapping[int, float],
    terms: Sequence[str],
    frequencies: Mapping[str, int],
    scope: Scope,
) -> float:
    """The share of the query's weight (its terms' summed IDF) that the best-matching
    message holds (``prescore``'s best), from 0 (nothing found) to 1 (every term)."""
    total = sum(idf(scope.documents, frequencies.get(t, 0)) for t in terms)
    return min(1.0, max(prescores.values(), default=0.0) / total) if total > 0 else 0.0


QUERY_MEMO_SIZE = 256
"""Queries whose ``asks_for_many`` reading (and ``recall``'s words of) is kept: a chat asks
again with the words it asked, and each session's first context what others asked."""
QUERY_MEMO_MAX_CHARS = 4096


def _asks_for_many(query: str) -> bool:
    """Whether ``query`` asks for every instance of a kind: "which" or "what" before a
    plural noun (one word may stand between: "Which new activities has Ingrid
    tried?", "What books has Priya read?"), "all" or "every" ("What are all the
    places ..."), or "name" or "list" first ("Name the employers ..."; not "What was
    his name?"). Not "What does she do?" nor "What has he learned?": a plural noun
    is a word of four letters or more ending in "s" (not "ss": "What class ...")
    that is no stop word. A guess from the words alone: it only sets how much the
    question's words weigh beside its meaning (``LIST_LEXICAL_WEIGHT``). Kept by query
    (``QUERY_MEMO_SIZE``, queries up to ``QUERY_MEMO_MAX_CHARS``)."""
    found = words(query)
    if _ALL.intersection(found) or (found and found[0] in _LISTING):
        return True
    for n, word in enumerate(found):
        if word in _ASKING:
            following = found[n + 1 : n + 3]
            if following and _plural(following[0]):
                return True
            if len(following) == 2 and following[0] not in STOP_WORDS and _plural(following[1]):
                return True
    return False


asks_for_many = by_text(_asks_for_many, QUERY_MEMO_SIZE, QUERY_MEMO_MAX_CHARS)


def _plural(word: str) -> bool:
    plural = len(word) >= 4 and word.endswith("s") and not word.endswith("ss")
    return plural and word not in STOP_WORDS


_LABEL_END = 33
"""The furthest a speaker's label (``words.SPEAKER_LABEL``: a capital, at most 30 more
characters, ": ") can end in a text."""
_POSSESSIVE = re.compile(r"['\u2019]s\b", re.IGNORECASE)


def without_words(text: str, dropped: Collection[str]) -> str:
    """``text`` without its index tokens (``words.TOKEN``, compared in lower case) that
    are in ``dropped``, nor the possessive "'s" after one, spaces collapsed: "Which new
    activities has Priya tried?" without {"priya"} is "Which new activities has tried?"."""
    kept: list[str] = []
    start = 0
    for match in TOKEN.finditer(text):
        if match.group().lower() not in dropped:
            continue
        kept.append(text[start : match.start()])
        possessive = _POSSESSIVE.match(text, match.end())
        start = possessive.end() if possessive else match.end()
    kept.append(text[start:])
    return " ".join("".join(kept).split())


def said_by(text: str, names: Collection[str]) -> bool:
    """Whether ``text`` starts with a speaker's label (``words.SPEAKER_LABEL``: "Priya:
    ...") that holds one of ``names`` (index tokens, lower case)."""
    return bool(speakers(text, names))


def speakers_of(texts: Iterable[str], names: Collection[str]) -> set[str]:
    """Those of ``names`` that the speaker's label of any of ``texts`` holds
    (``speakers``); a text no label can start is passed over at C speed."""
    found: set[str] = set()
    for text in texts:
        if ": " in text[:_LABEL_END]:
            found |= speakers(text, names)
    return found


def speakers(text: str, names: Collection[str]) -> set[str]:
    """Those of ``names`` (index tokens, lower case) that the speaker's label ``text``
    starts with holds (``words.SPEAKER_LABEL``): {"priya"} for "Dr Priya Rao: ...";
    none without a label."""
    if ": " not in text[:_LABEL_END]:  # no label can end further: no regex tried (most turns)
        return set()
    label = SPEAKER_LABEL.match(text)
    if label is None:
        return set()
    return {t for t in TOKEN.findall(label.group().lower()) if t in names}


def fuse(*rankings: Sequence[int], weights: Sequence[float] = ()) -> list[int]:
    """Weighted reciprocal rank fusion of rankings (ids, best first) into one, best
    first: a rank r of ranking n adds ``weights[n] / (RRF_K + r)`` (weight 1 when
    ``weights`` is empty)."""
    fused: dict[int, float] = {}
    for n, ranking in enumerate(rankings):
        weight = weights[n] if weights else 1.0
        for position, doc_id in enumerate(ranking, start=1):
            fused[doc_id] = fused.get(doc_id, 0.0) + weight / (RRF_K + position)
    return ranked(fused)
