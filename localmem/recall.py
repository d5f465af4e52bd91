"""The store's recall: full-text search, semantic vectors, and the query-aware
context's candidates.

:class:`Recall` holds the store's ``search`` and ``embed_pending``, and what
``build_context`` asks of it with a query (``localmem.contexts``).
Turning user text into a safe MATCH expression is ``localmem.search``'s and
ranking is ``localmem.rank``'s (both pure); the SQL is ``localmem.db``'s.
The index is written by triggers in the transaction that writes each row
(migration m012_search_at_commit), so a read (``indexed``: one read
transaction) sees every row committed before it began, whoever wrote it, and
never waits for a writer. Vectors are caught up by ``localmem.semantic`` and
scored in memory (``localmem.vectors``).
"""

from __future__ import annotations

import bisect
import contextlib
import logging
import sqlite3
from array import array
from collections.abc import Callable, Collection, Iterator, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, NamedTuple

from . import db
from . import rank, reranking
from . import search as fts
from .args import check_id, check_int, query_text
from .cache import ALL_SESSIONS, FileHolders
from .clock import iso
from .embeddings import Embedder
from .memos import by_text
from .models import Message, SearchHit
from .periods import Period, without

if TYPE_CHECKING:  # what it is given: for the type checker only
    from .vectors import Vectors
    from .handle import Handle
    from .semantic import Semantic

logger = logging.getLogger("localmem")

MAX_QUERY_TERMS = 32
"""The words of a query that are matched (an auto query can be a whole message)."""
HOLDER_CAP = 4000
"""At most this many ids are read per query word (its frequency is counted exactly)."""
LEXICAL_CANDIDATES = 300
"""Messages read and scored by BM25, chosen by their summed word weights."""
DENSE_CANDIDATES = 200
"""Messages taken from the semantic ranking: more than three times what a 3,000-token context
shows (about 57 older turns). 300 made every older turn of a 300-turn session a candidate
that fusing, spreading and packing walk; 200 scores the same on the memory benchmark,
every kind (100 lost 11 points of spread questions)."""
NEIGHBOUR_HITS = 24
"""The best hits that bring the turn that completes them along."""
SHORT_REPLY_TOKENS = 12
"""A hit this short ("Yes, last Tuesday!") brings the turn it answers."""
FEEDBACK_BELOW = 3
"""When the query's specific words match fewer messages than this, the best hits'
words widen it once (pseudo-relevance feedback)."""
FEEDBACK_HITS = 3
"""The best hits whose words may widen the query."""
FEEDBACK_TERMS = 4
"""At most this many words join the query."""
PERIOD_READ = 400
"""At most this many messages read per period a question names."""
NEIGHBOURS_KEPT = 65536
"""Most neighbours ``SessionMemo.neighbours`` holds (ids only)."""
HELD_KEPT = 65536
"""Words whose holders ``SessionMemo.held`` counts, in all scopes, past which it is
emptied when a scope is counted anew."""


class Recalled(NamedTuple):
    """What recall found for a query: the messages, best first, and the query's
    specific words (held by at most a tenth of the scope: a speaker's name is not)."""

    messages: list[Message]
    specific: tuple[str, ...]


class Recall:
    """Search, the embedder and its vectors, and a query's candidates."""

    def __init__(self, handle: Handle, semantic: Semantic, vectors: Vectors) -> None:
        self._db = handle
        self.semantic = semantic
        """The embedder in use and the vectors' catch-up."""
        self._vectors = vectors  # the matrices in memory, loaded on the first semantic query

    @property
    def embedder(self) -> Embedder | None:
        """The embedder in use (``Semantic.embedder``)."""
        return self.semantic.embedder

    # --- the query-aware context's candidates ------------------------------------

    def relevant(
        self,
        session_id: str,
        query: str,
        before_id: int,
        semantic: tuple[str, bytes] | None = None,
        periods: Sequence[Period] = (),
    ) -> Recalled:
        """The older messages that best answer ``query``, best first, each hit that
        needs its neighbour followed by it: the session's messages older than
        ``before_id``, and with ``recall_scope="user"`` every other session's too;
        with the query's specific words (those in at most a tenth of the scope).

        Lexical (BM25 with the statistics of the scope searched, every content
        word of the query but those naming ``periods``) fused with semantic
        (cosine with ``semantic``'s vector, that of the query without its common
        words: ``embedded_query``) when given, the lexical ranking
        weighed by the share of the query its best match holds
        (``rank.coverage``; less for a question asking for a list,
        ``rank.asks_for_many``), and the semantic hits said by a speaker whose
        name is among the common words the query's vector left out ("Priya: ...",
        ``rank.said_by``: who said it still matters) fused in once more
        (``rank.LEFT_OUT_WEIGHT``); without semantic,
        when the query's specific words find little, the best hits' words widen it
        once (``reranking.feedback_terms``), and a speaker the query names among
        its common words brings the turns they said (``reranking.by_speaker``). Then the
        messages said in ``periods``
        come first, and the top is spread across days (``reranking``). Call
        inside a transaction in which the search index is current.
        """
        everywhere = self._db.config.recall_scope == "user"
        terms = self.terms(query, periods)
        scope, newest = self._scope(None if everywhere else session_id)
        # The scope's messages, as they stand: none is ever updated, a new one's id is
        # above every earlier one (m011), and a deletion empties the memo.
        messages = (scope.documents, newest)
        recalled = self._db.memo.recalled
        kept: tuple | None = None  # the key of what is found, when it may be kept
        if semantic is None and not periods:  # then found from the messages alone
            # The query counts by its words and whether it asks for a list, no more.
            kept = (session_id, everywhere, tuple(terms), rank.asks_for_many(query), before_id)
            known = recalled.get(kept, messages)
            if known is not None:
                found_again = self._found_again(*known)
                if found_again is not None:
                    return found_again
        found_now = self._relevant(session_id, query, before_id, semantic, periods, terms)
        if kept is not None:
            recalled.put(kept, messages, (m.id for m in found_now.messages), found_now.specific)
        return found_now

    def _found_again(self, ids: Sequence[int], specific: tuple[str, ...]) -> Recalled | None:
        """What ``relevant`` found before, its messages read back by id (None if one
        of them is no longer there)."""
        rows = {m.id: m for m in self._messages(None, ids)}
        if len(rows) < len(ids):
            return None
        return Recalled([rows[i] for i in ids], specific)

    def _relevant(
        self,
        session_id: str,
        query: str,
        before_id: int,
        semantic: tuple[str, bytes] | None,
        periods: Sequence[Period],
        terms: list[str],
    ) -> Recalled:
        """``relevant``'s work, for the query's ``terms``."""
        everywhere = self._db.config.recall_scope == "user"
        scope, newest = self._scope(None if everywhere else session_id)
        key = None if everywhere else fts.session_key(session_id)

        def older(message: Message) -> bool:  # outside the session's recent window
            return message.session_id != session_id or message.id < before_id

        holders: dict[str, list[int]] = {}
        frequencies: dict[str, int] = {}

        few = scope.documents <= HOLDER_CAP  # then every holder is read: in any order
        within = None if everywhere else session_id

        def hold(term: str) -> None:
            ids, frequencies[term] = self._postings(term, within, key, newest, few)
            newest_first = reversed(ids)
            holders[term] = (
                list(newest_first) if everywhere else [i for i in newest_first if i < before_id]
            )

        for term in terms:
            hold(term)
        common = _common(scope)
        specific = tuple(t for t in terms if frequencies[t] <= common)
        prescores = rank.prescore(terms, holders, frequencies, scope)
        chosen = rank.best(prescores, LEXICAL_CANDIDATES)
        dense: list[int] = []
        if semantic is not None:
            dense = self._dense(semantic, session_id, before_id, everywhere)
        found = self._messages(None if everywhere else session_id, {*chosen, *dense})
        rows = {m.id: m for m in found if m.session_id != session_id or m.id < before_id}  # older(m)
        texts = {i: (m.text, m.token_count) for i in chosen if (m := rows.get(i)) is not None}
        scores = rank.bm25(terms, holders, frequencies, scope, texts, self._db.memo.counted)
        lexical = rank.ranked(scores)
        if dense:  # the meaning finds what the words miss: no feedback round
            found_share = rank.coverage(prescores, terms, frequencies, scope)
            weight = max(rank.LEXICAL_WEIGHT_FLOOR, found_share)
            if rank.asks_for_many(query):  # the answers name the instances, not the kind
                weight = rank.LIST_LEXICAL_WEIGHT
            rankings, weights = [rank.ranked(rank.confident(scores)), dense], [weight, 1.0]
            left_out = {t for t in terms if t not in specific}  # not in the query's vector
            if left_out and specific:  # a speaker it names: the turns they said count twice
                rankings.append(
                    [i for i in dense if i in rows and rank.said_by(rows[i].text, left_out)]
                )
                weights.append(rank.LEFT_OUT_WEIGHT)
            order = rank.fuse(*rankings, weights=weights)
        else:
            order = lexical
            if specific and lexical and self._finds_little([set(holders[t]) for t in specific]):
                order = self._widened(lexical, terms, rows, scope, hold, holders, frequencies, key)
            order = reranking.by_speaker(
                query, order, terms, specific, holders, rows,
                lambda ids: [m for m in self._messages(None, ids) if older(m)],
                self._said_elsewhere(within, key),
            )
        ranking = reranking.order_by(order, rows)
        if periods:
            ranking = reranking.in_period_first(
                ranking, periods, [m for m in self._period_messages(session_id, periods, everywhere)
                                   if older(m)],
            )
        if not ranking:
            return Recalled([], specific)
        ids = None if everywhere else self._db.memo.scopes[session_id][4]  # read by _scope
        return Recalled(self._with_neighbours(reranking.spread(ranking), older, ids), specific)

    def embedded_query(self, session_id: str, query: str) -> str:
        """The text of ``query`` whose vector semantic recall compares: ``query``
        without its common words (held by more than a tenth of the scope's messages,
        those ``relevant`` does not count as specific), unless nothing else of it is
        matched. A word that most messages hold tells none apart, yet in a vector it
        weighs as much as the rest: a speaker's name, in every turn of a transcript
        that speaker said ("Priya: For real."), draws the question "Which new
        activities has Priya tried?" to each of her shortest turns, whose vectors
        hold little else, before the turns that answer it. Reads the scope's
        statistics and the words' holders (kept for ``relevant``); call with the
        store's lock held."""
        everywhere = self._db.config.recall_scope == "user"
        terms = self.terms(query)
        if not terms:
            return query
        within = None if everywhere else session_id
        key = None if everywhere else fts.session_key(session_id)
        with self.indexed(("messages",)):
            scope, newest = self._scope(within)
            few = scope.documents <= HOLDER_CAP
            common = _common(scope)
            dropped = {
                t for t in terms if self._postings(t, within, key, newest, few)[1] > common
            }
        if not dropped or len(dropped) == len(terms):
            return query
        return rank.without_words(query, dropped)

    def _postings(
        self, term: str, within: str | None, key: str | None, newest: int, few: bool
    ) -> tuple[Sequence[int], int]:
        """The newest holders of ``term`` in the scope (``within``: a session, None:
        every session), ascending, and how many hold it: ``SessionMemo.postings``,
        read once, then only the holders above the newest known. A session's are
        picked from its own ids when the word's holders in the whole file are kept
        (``_file_holders``), else read with the session's key."""
        conn = self._db.conn
        match = fts.message_holders(term, key)

        def first() -> tuple[list[int], int]:
            ids, held = self._file_holders(term, within)
            if held is None:
                return db.term_holders(conn, match, HOLDER_CAP, few)
            found = FileHolders.within(held, ids[::-1])  # newest first
            return found, len(found)

        def after(known: int) -> list[int]:
            ids, held = self._file_holders(term, within)
            if held is None:
                if key is None:  # the word alone: the whole file's holders
                    return db.term_file_holders_after(conn, match, known)
                return db.term_holders_after(conn, match, known)
            return FileHolders.within(held, ids[bisect.bisect_right(ids, known):])

        return self._db.memo.postings.get(
            within, term, newest, first, after, HOLDER_CAP  # a new holder is a new message
        )

    def _file_holders(
        self, term: str, within: str | None
    ) -> tuple[Sequence[int], set[int] | None]:
        """The session's ids (as of its statistics, ``_scope``) and every holder of
        ``term`` in the file (``SessionMemo.holders``), or None for the holders when
        the session has too many ids to keep or is the first to ask for the word."""
        memo = self._db.memo
        entry = None if within is None else memo.scopes.get(within)
        ids = None if entry is None else entry[4]
        if ids is None:
            return (), None
        conn = self._db.conn
        match = fts.message_holders(term)
        return ids, memo.holders.holders(
            term, within, memo.writes.stamp(None),  # a write anywhere may add a holder
            lambda: db.term_file_holders(conn, match),
            lambda known: db.term_file_holders_after(conn, match, known),
        )

    def terms(self, query: str, periods: Sequence[Period] = ()) -> list[str]:
        """The words of ``query`` that are matched: its content words, without those
        naming ``periods`` (at most ``MAX_QUERY_TERMS``)."""
        text = without(query, list(periods)) if periods else query
        return _memo_query_terms(text)[:MAX_QUERY_TERMS]  # a copy: the kept list is never given

    def _dense(
        self, semantic: tuple[str, bytes], session_id: str, before_id: int, everywhere: bool
    ) -> list[int]:
        """The semantic ranking's best ids (``DENSE_CANDIDATES``), from the model's
        matrix in memory (``localmem.vectors``): every vector of the scope, however many."""
        model, vector = semantic
        scope = None if everywhere else session_id
        return [i for i, _ in self._vectors.top(model, vector, scope, before_id, DENSE_CANDIDATES)]

    def _said_elsewhere(self, within: str | None, key: str | None) -> Callable[[str], bool]:
        """Whether a word is held by more than one message of the scope (``within``: a
        session, None: every session; ``key``: its key in the index), by the index's
        count (stemmed as it matches), kept in ``SessionMemo.held`` until the scope
        is written (a new message may hold it) or a message deleted. Nothing is read
        or kept until a word is asked about (most memories name no speaker)."""
        memo = self._db.memo
        conn = self._db.conn
        counts: dict[str, int] | None = None

        def said_elsewhere(word: str) -> bool:
            nonlocal counts
            if counts is None:
                scope = ALL_SESSIONS if within is None else within
                stamp = memo.writes.stamp(within)
                entry = memo.held.get(scope)
                if entry is None or entry[0] != stamp:
                    if sum(len(kept) for _, kept in memo.held.values()) >= HELD_KEPT:
                        memo.held.clear()  # full: the scopes' counts read again as asked
                    entry = memo.held[scope] = (stamp, {})
                counts = entry[1]
            count = counts.get(word)
            if count is None:
                count = counts[word] = db.term_count(conn, fts.message_holders(word, key))
            return count > 1

        return said_elsewhere

    @staticmethod
    def _finds_little(found: list[set[int]]) -> bool:
        """Whether the query's specific words find little: fewer than ``FEEDBACK_BELOW``
        messages, and none holding them all (a unique answer that holds every word of
        the question was found; nothing to widen)."""
        anywhere = set().union(*found)
        return len(anywhere) < FEEDBACK_BELOW and not set.intersection(*found)

    def _widened(
        self,
        lexical: list[int],
        terms: list[str],
        rows: dict[int, Message],
        scope: rank.Scope,
        hold: Callable[[str], None],
        holders: dict[str, list[int]],
        frequencies: dict[str, int],
        key: str | None,
    ) -> list[int]:
        """Pseudo-relevance feedback, once: the best hits' shared rare words join the
        query; the widened ranking is fused with the first (``rank.fuse``)."""
        conn = self._db.conn

        def frequency(term: str) -> int:
            if term in frequencies:
                return frequencies[term]
            return db.term_count(conn, fts.message_holders(term, key))

        best = [rows[i] for i in lexical[:FEEDBACK_HITS] if i in rows]
        extra = reranking.feedback_terms(
            best, terms, fts.query_terms, frequency, scope.documents, FEEDBACK_TERMS
        )
        if not extra:
            return lexical
        for term in extra:
            hold(term)
        wider = [*terms, *extra]
        found = rank.best(rank.prescore(extra, holders, frequencies, scope), LEXICAL_CANDIDATES)
        more = [i for i in found if i not in rows]
        if more:
            for m in self._messages(None, more):
                rows.setdefault(m.id, m)
        texts = {i: (rows[i].text, rows[i].token_count) for i in {*lexical, *found} if i in rows}
        counted = self._db.memo.counted
        widened = rank.ranked(rank.bm25(wider, holders, frequencies, scope, texts, counted))
        return rank.fuse(lexical, widened)

    def _messages(self, session_id: str | None, ids: Collection[int]) -> list[Message]:
        """The session's (None: any session's) messages among ``ids``, in no particular
        order: those recall read before from the memo (``SessionMemo.messages``), the
        rest read and kept there."""
        memo = self._db.memo.messages
        get = memo.get
        found: list[Message] = []
        missing: list[int] = []
        for i in ids:
            message = get(i)
            if message is None:
                missing.append(i)
            elif session_id is None or message.session_id == session_id:
                found.append(message)
        if missing:
            read = db.messages_by_ids(self._db.conn, session_id, missing)
            memo.put([(m.id, m) for m in read])
            found += read
        return found

    def _period_messages(
        self, session_id: str, periods: Sequence[Period], everywhere: bool
    ) -> list[Message]:
        """The messages said in ``periods`` or the day after (a story told "yesterday")."""
        out: list[Message] = []
        for p in periods:
            start, end = p.bounds()
            out.extend(db.messages_said_between(
                self._db.conn, None if everywhere else session_id, iso(start),
                iso(end + timedelta(days=1)), PERIOD_READ,
            ))
        return out

    def _with_neighbours(
        self,
        hits: list[Message],
        allowed: Callable[[Message], bool],
        ids: Sequence[int] | None = None,
    ) -> list[Message]:
        """``hits`` with, after each of the best, the turn that makes it an answer:
        the reply to a question, the question a short reply answers ("Yes, last
        Tuesday!"), if ``allowed``. ``ids``: every id of the hits' one session,
        ascending, when known (``_scope``): each neighbour is found there."""
        # Every lookup the walk below may make, in one statement: each of the best
        # hits' after (a question) or before (a short reply) turn.
        asked: dict[int, bool] = {}  # a hit that asks (True) or a short reply (False)
        for hit in hits[:NEIGHBOUR_HITS]:
            question = _is_question(hit)
            if question or hit.token_count <= SHORT_REPLY_TOKENS:
                asked[hit.id] = question
        found = None if ids is None else _adjacent(ids, asked)
        if found is None:
            found = self._neighbours(asked)
        rows = {m.id: m for m in self._messages(None, {i for i in found.values() if i})}
        partners = {key: rows.get(found.get(key) or 0) for key in asked}
        out: list[Message] = []
        seen: set[int] = set()
        for position, hit in enumerate(hits):
            if hit.id in seen:
                continue
            out.append(hit)
            seen.add(hit.id)
            if position >= NEIGHBOUR_HITS or hit.id not in partners:
                continue
            partner = partners[hit.id]
            if partner is not None and not asked[hit.id] and not _is_question(partner):
                partner = None  # a short reply brings only the question it answers
            if partner is not None and allowed(partner) and partner.id not in seen:
                out.append(partner)
                seen.add(partner.id)
        return out

    def _neighbours(self, asked: dict[int, bool]) -> dict[int, int | None]:
        """The id of the turn just after (True) or before (False) each asked message
        in its session, None where there is none; kept (``SessionMemo.neighbours``):
        a message's neighbour stays its neighbour, new ids being above every earlier
        one, but for none after it, which a new message may become (asked again)."""
        known = self._db.memo.neighbours
        out: dict[int, int | None] = {}
        ask: list[tuple[int, bool]] = []
        for i, after in asked.items():
            if (i, after) in known:
                out[i] = known[(i, after)]
            else:
                ask.append((i, after))
        if ask:
            if len(known) + len(ask) > NEIGHBOURS_KEPT:
                known.clear()
            found = db.neighbours(self._db.conn, ask)
            for n, (i, after) in enumerate(ask):
                out[i] = neighbour = found.get(n)
                if neighbour is not None or not after:
                    known[(i, after)] = neighbour
        return out

    def session_titles(self, messages: list[Message], session_id: str) -> dict[str, str]:
        """How each other session among ``messages`` is named in the context: its
        title, else when it began."""
        others = {m.session_id for m in messages} - {session_id}
        if not others:
            return {}
        return {
            other: title or f"untitled, begun {created_at[:10]}"
            for other, (title, created_at) in db.session_names(self._db.conn, others).items()
        }

    def _scope(self, session_id: str | None) -> tuple[rank.Scope, int]:
        """The statistics of a session (None: of every session) and its newest message's
        id, memoized: once the store wrote to it, only the messages above the newest
        one counted are read (``SessionMemo.writes``). A session of at most
        ``HOLDER_CAP`` messages keeps their ids, read with the statistics."""
        memo = self._db.memo
        key = ALL_SESSIONS if session_id is None else session_id
        stamp = memo.writes.stamp(session_id)
        entry = memo.scopes.get(key)
        if entry is None:
            documents, tokens, newest, ids = self._read_scope(session_id, 0, array("q"))
            memo.scopes[key] = (documents, tokens, newest, stamp, ids)
        else:
            documents, tokens, newest, known, ids = entry
            if known != stamp:
                more, more_tokens, newest, ids = self._read_scope(session_id, newest, ids)
                documents, tokens = documents + more, tokens + more_tokens
                memo.scopes[key] = (documents, tokens, newest, stamp, ids)
        # The mean as SQL's avg() gives it: the exact total over the count, rounded once.
        return rank.Scope(documents, tokens / documents if documents else 0.0), newest

    def _read_scope(
        self, session_id: str | None, after: int, ids: array | None
    ) -> tuple[int, int, int, array | None]:
        """How many messages of the session (None: the file) are above id ``after``,
        their tokens in all, the newest id, and ``ids`` with theirs added; None for
        the ids of the file, or once the session has more than ``HOLDER_CAP``."""
        conn = self._db.conn
        if session_id is None or ids is None:
            return (*db.scope_stats(conn, session_id, after), None)
        count, tokens, newest, more = db.scope_ids(conn, session_id, after, HOLDER_CAP - len(ids))
        if more is None:
            return count, tokens, newest, None
        ids.extend(more)
        return count, tokens, newest, ids

    @contextlib.contextmanager
    def indexed(self, tables: tuple[str, ...]) -> Iterator[sqlite3.Connection]:
        """A read transaction (one snapshot); the search indexes of ``tables`` hold
        every row committed before it (triggers index a row in the transaction
        that writes it, migration m012_search_at_commit), so nothing is caught up
        and no writer is waited for. Call with the lock held."""
        with self._db.snapshot() as conn:
            yield conn

    # --- search --------------------------------------------------------------

    def search(self, query: str, session_id: str | None = None, limit: int = 10) -> list[SearchHit]:
        """Messages, summaries and pins matching ``query``, best first (BM25).

        Any text is a valid query: its words are matched (any of them; the
        more and the rarer, the better the rank), never its operators or
        quotes; stop words are left out unless the query has nothing else,
        and so are words in over ``search.TERM_DOC_LIMIT`` messages unless
        only such words are left (then the rarest is used).
        With ``session_id``, only that session is searched
        (:class:`SessionNotFound` if there is none). Each hit carries a
        snippet with the matched words in ``[`` ``]``.

        Every row committed before the call is found, whoever wrote it: the
        index is written in the same transaction as its row. The search only
        reads (one read transaction), so another program holding the file's
        write lock never delays it. A text too
        long for FTS5's snippet() (``db.SNIPPET_MAX_CHARS``) gets a snippet
        cut around its first match, in time linear in its length.
        """
        text = query_text(query)
        if session_id is not None:
            check_id(session_id)
        count = check_int("limit", limit)
        words = fts.query_terms(text) or fts.query_terms(text, keep_stop_words=True)
        with self._db.locked() as conn:
            if session_id is not None:
                self._db.require_session(session_id)
            if not words or count == 0:
                return []
            with self.indexed(db.SEARCH_TABLES):
                most = fts.TERM_DOC_LIMIT
                terms = fts.choose_terms(
                    words,
                    lambda t: db.term_docs(conn, fts.phrase(t), most + 1, everywhere=True),
                    limit=most,
                    fallback=True,
                )
                if not terms:
                    return []
                key = None if session_id is None else fts.session_key(session_id)
                hits = db.search(conn, fts.any_of(terms, key), session_id, count)
        # Texts too long for FTS5's snippet() get one cut around their first match.
        return [
            hit if hit.snippet else hit.model_copy(update={"snippet": fts.plain_snippet(
                hit.text, terms, db.SNIPPET_START, db.SNIPPET_END, db.SNIPPET_ELLIPSIS,
                db.SNIPPET_TOKENS,
            )})
            for hit in hits
        ]


# The words of each query, kept as ``rank.asks_for_many`` keeps its reading.
_memo_query_terms = by_text(fts.query_terms, rank.QUERY_MEMO_SIZE, rank.QUERY_MEMO_MAX_CHARS)


def _common(scope: rank.Scope) -> int:
    """The most messages of ``scope`` a specific word is held by: a tenth of them."""
    return max(2, scope.documents // 10)


def _adjacent(ids: Sequence[int], asked: dict[int, bool]) -> dict[int, int | None] | None:
    """For each asked id, the id just after it (True) or before it (False) in ``ids``
    (ascending), None where there is none; None if an asked id is not in ``ids``."""
    out: dict[int, int | None] = {}
    last = len(ids) - 1
    for i, after in asked.items():
        at = bisect.bisect_left(ids, i)
        if at > last or ids[at] != i:
            return None
        if after:
            out[i] = ids[at + 1] if at < last else None
        else:
            out[i] = ids[at - 1] if at else None
    return out


def _is_question(message: Message) -> bool:
    """A turn that asks, anywhere in it: "Did you finish? [image: runners]" brings its reply."""
    return "?" in message.text
