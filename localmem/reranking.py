"""Reordering a recall ranking: the question's period first, then spread: pure.

``in_period_first``: when a question names a period (``localmem.periods``),
the ranked messages said in it come first, in their order; a story told the
day after ("yesterday I ...", "last night ...") counts for the day before.
When the question's words match none of the period's messages, the
period's own messages come first anyway ("What did I do on March 16?" has no
topic to match).

``spread``: the best hits are diversified, maximal-marginal-relevance style:
walking the ranking, a hit from a day that already gave ``PER_DAY`` of the
top, or a near-copy (word overlap ``NEAR_COPY``) of a hit already taken from
its day, is deferred behind the rest of the top ``SPREAD_TOP``; and a short
hit that repeats what hits before it said, from any day (every sentence of it
is in one sentence of theirs: "Talk soon!" after "Talk soon, Priya!", the same
chatter told in three sessions or put together again), goes behind every hit
that says something new. Nothing is dropped. Answers told across sessions then
share the room the budget has.

``news``: one speaker's turns, those telling what was said nowhere else first;
``by_speaker``: a question naming a speaker of a transcript ("Priya: ...") gets
the turns they said fused into its lexical ranking, their news among them.

``feedback_terms``: pseudo-relevance feedback, the rarest words the best hits
share that the question lacks, to search once more when its own words find
little.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from . import rank
from . import words as vocabulary
from .memos import by_text
from .models import Message
from .periods import Period

PER_DAY = 4
"""Hits of one day (and session) among the top before the rest of it waits."""
NEAR_COPY = 0.6
"""Word overlap (Jaccard) at which a hit repeats one already taken from its day."""
SPREAD_TOP = 60
"""How much of the ranking is diversified across days (the rest keeps its order)."""
REPEAT_TOKENS = 30
"""Hits of at most this many tokens are checked for repeats, and hold the words a
later one repeats: chat lines ("Same here!", "It's funny how things work out.") are
said again and again, a long turn seldom is, and reading its words costs more."""
REPEAT_WALK = 200
"""How many hits that say something new are looked for before the repeats: the most
relevant messages a context shows by default (``MemoryConfig.relevant_messages``)."""
PERIOD_FILL = 40
"""At most this many of a period's messages come first when no word matched there."""
WORDS_MEMO_SIZE = 2048
"""Texts whose words ``words`` keeps (a frozen set each, of a few dozen words)."""
WORDS_MEMO_MAX_CHARS = 8192
SPEAKER_PROBE = 20
"""The best lexical hits whose labels tell whether a query names a speaker: a transcript
labels every turn, and the turns of a speaker the query names hold a word of it."""
SPEAKER_NEWS = 100
"""At most this many of a named speaker's turns that tell something (``reranking.news``)
join the lexical ranking of a question about them."""
SPEAKER_TURNS_READ = 1000
"""At most this many of a named speaker's newest turns are read to find those."""
NEWS_MEMO_SIZE = 32
"""Speakers' turns whose words said once (``said_once``) are kept: one entry per speaker
and state of the scope searched."""
_TOLD_LATER = re.compile(r"\b(yesterday|last night)\b", re.IGNORECASE)


def day_of(message: Message) -> str:
    return message.created_at[:10]


def said_in(message: Message, periods: Sequence[Period]) -> bool:
    """Whether ``message`` was said in one of ``periods``, or the day after one of
    them about the day before ("yesterday")."""
    day = day_of(message)
    for p in periods:
        first, after = p.first.isoformat(), p.after.isoformat()
        if first <= day < after:
            return True
        if day == _next_day(p) and _TOLD_LATER.search(message.text):
            return True
    return False


def _next_day(period: Period) -> str:
    return period.after.isoformat()


def in_period_first(
    ranking: Sequence[Message], periods: Sequence[Period], period_messages: Sequence[Message]
) -> list[Message]:
    """``ranking`` with its messages said in ``periods`` first; if none of them is
    ranked, ``period_messages`` (the period's own, oldest first) lead instead."""
    inside = [m for m in ranking if said_in(m, periods)]
    if not inside:
        seen = {m.id for m in ranking}
        inside = [m for m in period_messages if said_in(m, periods) and m.id not in seen]
        inside = inside[:PERIOD_FILL]
        return [*inside, *ranking]
    chosen = {m.id for m in inside}
    return [*inside, *(m for m in ranking if m.id not in chosen)]


def _words(text: str) -> frozenset[str]:
    """The words of ``text`` (``localmem.words``) of three letters or more: what two
    near-copies share. Memoized by text (``WORDS_MEMO_SIZE``, texts up to
    ``WORDS_MEMO_MAX_CHARS``): a context is rebuilt after every write over mostly the
    same best hits, and reading a turn's words is most of what ``spread`` costs."""
    return frozenset(w for w in vocabulary.words(text) if len(w) >= 3)


words = by_text(_words, WORDS_MEMO_SIZE, WORDS_MEMO_MAX_CHARS)


@functools.lru_cache(maxsize=WORDS_MEMO_SIZE)
def _sentence_words(text: str) -> tuple[frozenset[str], ...]:
    """The words of each sentence of a short ``text`` (``REPEAT_TOKENS``; sentences as
    ``words.SENTENCE_END`` ends them, those without a word left out), memoized: what a
    repeat must hold."""
    found = (frozenset(vocabulary.words(part)) for part in vocabulary.SENTENCE_END.split(text))
    return tuple(w for w in found if w)


def spread(ranking: Sequence[Message], top: int = SPREAD_TOP) -> list[Message]:
    """The first ``top`` of ``ranking`` diversified across days and sessions, then the
    rest in its order; then the repeats after every hit that says something new
    (``repeats_last``). A hit's words are read only when its day already gave one or
    it is short (``words``, memoized by text): the cost stays small."""
    head, tail = ranking[:top], ranking[top:]
    taken: list[Message] = []
    deferred: list[Message] = []
    per_day: dict[tuple[str, str], list[Message]] = {}
    seen: dict[int, frozenset[str]] = {}

    def words_of(m: Message) -> frozenset[str]:
        found = seen.get(m.id)
        if found is None:
            found = seen[m.id] = words(m.text)
        return found

    for m in head:
        kept = per_day.setdefault((m.session_id, m.created_at[:10]), [])  # its day_of
        if kept:
            near = len(kept) >= PER_DAY
            if not near:
                mine = words_of(m)
                near = any(_jaccard(mine, words_of(other)) >= NEAR_COPY for other in kept)
            if near:
                deferred.append(m)
                continue
        kept.append(m)
        taken.append(m)
    return repeats_last([*taken, *deferred, *tail])


def repeats_last(ranking: Sequence[Message], most: int = REPEAT_WALK) -> list[Message]:
    """``ranking`` with the hits that repeat earlier ones after the first ``most``
    others, each part in its order. A hit of at most ``REPEAT_TOKENS`` repeats when
    every sentence of it is in one sentence of an earlier hit of at most as many:
    every word of the sentence (``localmem.words``, numbers and short words included:
    "Gate 7" does not repeat "Gate 4") is in that one. It tells the reader nothing
    those hits did not: "Same here!" after "Same here, Priya.", and "Haha, I bet. Any
    trips planned?" after "Haha, I bet." and "Any trips planned, Gabe?" (chatter put
    together again). A sentence with one word of its own (the dish in "I made gnocchi
    ..." after "I made ratatouille ...") says something new, and so does a sentence
    holding the words of two earlier ones but of no one ("the blue car" after "the red
    car" and "a blue car")."""
    new: list[Message] = []
    repeats: list[Message] = []
    held: list[frozenset[str]] = []  # each sentence of the short hits kept in ``new``
    known: set[frozenset[str]] = set()  # the same, to find a sentence said again at once
    seen: set[str] = set()  # all their words: a sentence with a word of its own is new at once
    for n, m in enumerate(ranking):
        if len(new) >= most:  # more than a context shows: the rest keeps its order
            return [*new, *repeats, *ranking[n:]]
        if m.token_count > REPEAT_TOKENS:
            new.append(m)
            continue
        mine = _sentence_words(m.text)
        for s in mine:  # a loop, not all(): this runs for every short hit
            if s not in known and not (s <= seen and any(map(s.issubset, held))):
                break
        else:
            if mine:
                repeats.append(m)
                continue
        for s in mine:
            if s not in known:
                known.add(s)
                held.append(s)
                seen |= s
        new.append(m)
    return [*new, *repeats] if repeats else new


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)  # the union's size, no union built


def feedback_terms(
    best: Iterable[Message],
    query_terms: Iterable[str],
    terms_of: Callable[[str], list[str]],
    frequency: Callable[[str], int],
    documents: int,
    most: int,
) -> list[str]:
    """Up to ``most`` words of the ``best`` hits that the query lacks, the ones held by
    more than one hit and rarest in the scope first (``frequency``: messages holding
    it, of ``documents``); words in over a tenth of the scope are no help."""
    asked = set(query_terms)
    counts: dict[str, int] = {}
    for m in best:
        # In the order the words are written, not a set's: the cut below must not
        # depend on the process's hash seed (the same question, the same context).
        for term in dict.fromkeys(terms_of(m.text)):
            if term not in asked:
                counts[term] = counts.get(term, 0) + 1
    shared = [t for t, n in counts.items() if n > 1] or list(counts)
    rated = {t: frequency(t) for t in shared[: most * 4]}
    useful = [t for t, f in rated.items() if 0 < f <= max(2, documents // 10)]
    return sorted(useful, key=lambda t: (rated[t], t))[:most]


@functools.lru_cache(maxsize=NEWS_MEMO_SIZE)
def said_once(
    turns: tuple[tuple[int, str], ...], speakers: frozenset[str]
) -> tuple[tuple[int, frozenset[str]], ...]:
    """The ``turns`` (id, text) said by one of ``speakers`` (``rank.said_by``), each with
    its words (``words``) that no other of those holds, in order. Memoized
    (``NEWS_MEMO_SIZE``): every question about them reads the same turns until one is
    written."""
    theirs = [(i, words(text)) for i, text in turns if rank.said_by(text, speakers)]
    held = Counter(w for _, bag in theirs for w in bag)
    return tuple((i, frozenset(w for w in bag if held[w] == 1)) for i, bag in theirs)


def news(
    turns: tuple[tuple[int, str], ...],
    speakers: frozenset[str],
    said_elsewhere: Callable[[str], bool] = lambda word: False,
) -> list[int]:
    """The ids of the ``turns`` (id, text) said by one of ``speakers`` that hold words
    said nowhere else, those holding the most first, ties the newer (higher id) first:
    a word counts when no other of their turns holds it (``said_once``) and, by
    ``said_elsewhere``, no other message of the scope searched does either. What a
    person said once is what they had to tell (a move, a new hobby, a trip); what
    they say again and again is chatter ("For real.", "Life has been calm lately":
    left out), as ``repeats_last`` reads it, and so is what the others say too: the
    words of a conversation's shared topics and small talk ("a cooking class" said by
    both) tell nothing new of this one. A question about them whose words find little
    of what they told (a list's answers name the instances, not the kind) gets their
    news."""
    told = [(sum(not said_elsewhere(w) for w in own), i) for i, own in said_once(turns, speakers)]
    return [i for n, i in sorted(told, reverse=True) if n]


def by_speaker(
    query: str,
    lexical: list[int],
    terms: list[str],
    specific: tuple[str, ...],
    holders: Mapping[str, Sequence[int]],
    rows: dict[int, Message],
    read: Callable[[list[int]], Iterable[Message]],
    said_elsewhere: Callable[[str], bool] = lambda word: False,
) -> list[int]:
    """The lexical ranking, and when the query names a speaker among its common
    words (``terms`` not in ``specific``: the label of their turns, "Priya: ...",
    ``rank.speakers_of``, read on the best ``SPEAKER_PROBE`` hits), the turns
    that speaker said holding one of its specific words fused in (``rank.fuse``):
    a turn said by the one asked about before one said to them ("Thanks,
    Priya!") or by someone else; and their turns that tell what they said
    nowhere else (``told``), weighing as much as the words for a question
    asking for a list (``rank.asks_for_many``: its words find talk about the
    kind, the answers name the instances), ``rank.NEWS_WEIGHT`` of them for
    one asking for one thing. ``holders``: each term's holders, newest first;
    ``rows``: the messages read so far by id (``told`` adds to it); ``read``:
    those of the given ids that may be recalled; ``said_elsewhere``: whether a word
    is held by more than one message of the scope (``news``)."""
    common = {t for t in terms if t not in specific}
    if not common:
        return lexical
    named = rank.speakers_of((rows[i].text for i in lexical[:SPEAKER_PROBE]), common)
    if not named:  # no label among the best hits: no speaker named (most memories)
        return lexical
    rankings, weights = [lexical], [1.0]
    if specific:
        held = set().union(*(holders[t] for t in specific))
        said = [i for i in lexical if i in held and rank.said_by(rows[i].text, named)]
        if said:
            rankings.append(said)
            weights.append(1.0)
    rankings.append(told(named, holders, rows, read, said_elsewhere))
    weights.append(1.0 if rank.asks_for_many(query) else rank.NEWS_WEIGHT)
    return rank.fuse(*rankings, weights=weights)


def told(
    named: set[str],
    holders: Mapping[str, Sequence[int]],
    rows: dict[int, Message],
    read: Callable[[list[int]], Iterable[Message]],
    said_elsewhere: Callable[[str], bool] = lambda word: False,
) -> list[int]:
    """The turns said by the ``named`` speakers (their names' holders, the newest
    ``SPEAKER_TURNS_READ`` of each, those not in ``rows`` ``read`` into it), those
    that tell what was said nowhere else first (``news``, with ``said_elsewhere``),
    at most ``SPEAKER_NEWS``."""
    ids = list(dict.fromkeys(i for t in named for i in holders[t][:SPEAKER_TURNS_READ]))
    missing = [i for i in ids if i not in rows]
    if missing:  # the holders are all of the scope's: any session's when it is the user's
        rows.update((m.id, m) for m in read(missing))
    turns = tuple((i, rows[i].text) for i in ids if i in rows)
    return news(turns, frozenset(named), said_elsewhere)[:SPEAKER_NEWS]


def order_by(ids: Sequence[int], rows: Mapping[int, Message]) -> list[Message]:
    return [rows[i] for i in ids if i in rows]
