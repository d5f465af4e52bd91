"""The query-aware context and full-text search: their cost, and what they recall.

    python benchmarks/query.py [--messages 100000] [--sessions 1000] [--calls 2000] [--turns 2000]
                               [--vectors | --vectors-only] [--cpu]

Cost. A file of ``--messages`` synthetic messages over ``--sessions`` sessions
(the corpus of ``corpus.py``, sessions interleaved ten messages at a time as
an assistant used for months writes them), with one fact planted early in
every session (``FACTS``: a school pickup code, a wifi password, ...; each
template is used by a tenth of the sessions, with varying values); the search
index is written at commit, as the messages are. Then, rounds interleaved
(``timer.interleave``), cold calls (cache off) over random sessions:

- ``build_context(s)``: the plain recency context;
- ``build_context(s, query=the session's question)``: the query-aware one;
- the same with a question made only of the corpus's common words (each in
  over 1,000 messages), which ``search.choose_terms`` drops;
- ``search(question)`` over every session, and within the session;
- first visits: the query-aware context of a session no call asked before,
  with its question in a store just opened on the file and with the common
  words in another (their memos hold only what the earlier visits of other
  sessions left there), each session once (``--calls`` of them at most).
  Half of the calls above repeat a session's question with nothing written in
  between, which the store's memo of what recall found serves; a first visit
  has none of it.

Then a live chat (``--turns`` of ``add_message`` followed by a query-aware
context: what an assistant builds after each new message) and the same calls again, on the index those writes left (each
transaction adds a segment until FTS5 merges some), and once more after
``store.maintain()``, which merges each search index into one segment.

Recall. One ~300-message conversation (``RECALL_FILLER`` messages of the
corpus) with the ten facts planted in its first 60 messages and a question
about each asked at the end, as the newest user message. At 3,000 tokens,
does the context hold the fact's source message: the plain recency context
versus the query-aware one (``auto_query=True``), without and with summaries
(the deterministic offline summaries of every 15 messages); and how many of
the facts the automatic pins caught (a pin made from the source message).

With ``--vectors`` (``--vectors-only``: nothing else): every message embedded (a
host embedder of random 384-wide vectors: no model time), then query-aware contexts
with ``recall_scope="user"`` with and without it, interleaved: what the in-memory
cosine ranking over every vector adds (numpy), beside reading and scoring the stored
vectors per query (the old way); the same contexts in a child process where numpy
cannot be imported (the plain Python fallback, a few calls); and whether the oldest
message of the file is recalled from another session when only its vector can find
it (a query the embedder maps to that message's vector, sharing no word with it): no
cap on the vectors scored.

Timings are printed, never asserted; they move by ±10% between runs on a
shared machine (by ±30% at a load of 7-9 on 2 cores: ``--cpu`` then times each
call on this thread's CPU instead, the other jobs' time left out).
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from time import perf_counter_ns

os.environ["OLLAMA_HOST"] = "http://127.0.0.1:9"  # as in run.py: the summarizer stays offline
if "--plain-vectors" in sys.argv:  # bench_vectors' child: numpy unimportable, before localmem
    sys.modules["numpy"] = None  # type: ignore[assignment]

from corpus import iter_sessions  # noqa: E402
from timer import Job, Latency, each, interleave, now, time_once, use_thread_cpu  # noqa: E402

from localmem import MemoryStore  # noqa: E402

# (fact, question, the fact's possible values): planted early, asked late. The
# value varies per session, as facts do from one user to the next.
_CODES = tuple(str(n) for n in range(1000, 10000, 37))
FACTS = (
    ("The school pickup code is {v}.", "What was the school pickup code again?", _CODES),
    (
        "Maya is allergic to {v} and sesame, so no satay for her.",
        "Which foods is Maya allergic to?",
        ("peanuts", "cashews", "shellfish", "kiwi", "eggs", "almonds"),
    ),
    (
        "The wifi password at the cabin is heron-{v}.",
        "What's the wifi password at the cabin?",
        tuple(str(n) for n in range(10, 100)),
    ),
    (
        "Dr. Okafor moved my appointment to Thursday at 3:{v} pm.",
        "When is my appointment with Dr. Okafor?",
        ("10", "15", "20", "30", "40", "45"),
    ),
    ("Our car's license plate is KXT {v}.", "What is the license plate of our car?", _CODES),
    (
        "Grandma takes {v} mg of amlodipine every morning with breakfast.",
        "How much amlodipine does grandma take?",
        ("2.5", "5", "10"),
    ),
    (
        "The budget report deadline moved to March {v}.",
        "When is the budget report deadline now?",
        tuple(str(n) for n in range(1, 32)),
    ),
    (
        "The landlord is Mr. Brennan, his number is 555-{v}.",
        "What is the landlord's phone number?",
        _CODES,
    ),
    (
        "I parked on level {v}, spot B17, in the airport garage.",
        "Where did I park at the airport?",
        tuple(str(n) for n in range(1, 10)),
    ),
    ("The garage door code is {v}.", "What's the code for the garage door?", _CODES),
)
COMMON_QUESTION = "What did you say about the python database and the project deadline?"
CHUNK = 10  # messages a session writes at a time
RECALL_FILLER = 290
RECALL_BUDGET = 3000


def plant(fact: tuple[str, str, tuple[str, ...]], rng: random.Random) -> str:
    return fact[0].format(v=rng.choice(fact[2]))


# --- the 100k file -------------------------------------------------------------------


def build_file(path: Path, n_messages: int, n_sessions: int) -> list[tuple[str, str, str]]:
    """Write the file; return each session's (id, question, the fact's text)."""
    rng = random.Random(2024)
    sessions = list(iter_sessions(n_messages, per_session=n_messages // n_sessions, seed=11))
    plan: dict[str, list[tuple[str, str]]] = {}
    asked: list[tuple[str, str, str]] = []
    for i, s in enumerate(sessions):
        fact = FACTS[i % len(FACTS)]
        turns = list(s.messages)
        at = rng.randrange(0, min(20, len(turns) - 1)) & ~1  # a user turn, early
        turns[at] = ("user", plant(fact, rng))
        plan[s.id] = turns
        asked.append((s.id, fact[1], turns[at][1]))
    with MemoryStore(path) as store:
        for sid in plan:
            store.create_session(session_id=sid)
        cursor = {sid: 0 for sid in plan}
        live = list(plan)
        while live:
            sid = rng.choice(live)
            part = plan[sid][cursor[sid] : cursor[sid] + CHUNK]
            store.add_messages(sid, [{"role": r, "text": t} for r, t in part])
            cursor[sid] += len(part)
            if cursor[sid] >= len(plan[sid]):
                live.remove(sid)
    return asked


def line(name: str, lat: Latency, extra: str = "") -> None:
    print(f"  {name:<50} p50 {lat.p50_us:7.1f} µs   p95 {lat.p95_us:8.1f} µs"
          f"   p99 {lat.p99_us:8.1f} µs{extra}")


def segments(path: Path) -> int:
    """How many segments the messages' FTS5 index has (each adds to every query's cost)."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT count(DISTINCT segid) FROM messages_fts_idx").fetchone()[0]
    finally:
        conn.close()


def measure(
    store: MemoryStore, picks: list[tuple[str, str, str]], path: Path,
    firsts: list[tuple[str, str, str]],
) -> None:
    """Cold calls over random sessions, the variants' rounds interleaved; beside
    them, each of ``firsts``' sessions visited once (``first_visits``)."""
    rounds = 6
    per = max(1, len(picks) // rounds)

    def split() -> list[list]:
        return [picks[:per]] + [picks[r * per : (r + 1) * per] for r in range(rounds)]

    # A round of distinct sessions each (round 0 too): every call is a first visit.
    once = max(1, len(firsts) // (rounds + 1))
    visits = [firsts[r * once : (r + 1) * once] for r in range(rounds + 1)]
    asking = MemoryStore(path, config={"cache_ttl": 0})
    common = MemoryStore(path, config={"cache_ttl": 0})

    found = {"fact": 0, "of": 0}

    def with_query(sid: str, question: str, fact: str) -> None:
        ctx = store.build_context(sid, query=question)
        found["of"] += 1
        found["fact"] += any(m.text == fact for m in ctx.relevant_messages)

    plain_name, query_name = "build_context(s)  (recency only)", "build_context(s, query=question)"
    jobs = {
        plain_name: Job(lambda sid, q, f: store.build_context(sid), split()),
        query_name: Job(with_query, split()),
        "build_context(s, query=common words only)": Job(
            lambda sid, q, f: store.build_context(sid, query=COMMON_QUESTION), split()
        ),
        "search(question)  (every session)": Job(lambda sid, q, f: store.search(q), split()),
        "search(question, session_id=s)": Job(
            lambda sid, q, f: store.search(q, session_id=sid), split()
        ),
        "  first visit of a session, query=question": Job(
            lambda sid, q, f: asking.build_context(sid, query=q), visits
        ),
        "  first visit of a session, query=common words": Job(
            lambda sid, q, f: common.build_context(sid, query=COMMON_QUESTION), visits
        ),
    }
    try:
        results = {name: Latency.of(r) for name, r in interleave(jobs, each).items()}
    finally:
        asking.close()
        common.close()
    for name, lat in results.items():
        line(name, lat)
    print(f"  the planted fact in the relevant section: {found['fact']:,} of {found['of']:,} calls")
    cost = results[query_name].p50_us - results[plain_name].p50_us
    print(f"  → the query adds {cost:.1f} µs p50 to the recency context")


def live_chat(store: MemoryStore, picks: list[tuple[str, str, str]]) -> None:
    """add_message, then a query-aware context, which first indexes that message."""
    add_ns: list[int] = []
    ctx_ns: list[int] = []
    for i, (sid, question, _) in enumerate(picks):
        t0 = now()
        store.add_message(sid, "user", f"Another note about the garden, number {i}.")
        t1 = now()
        store.build_context(sid, query=question)
        ctx_ns.append(now() - t1)
        add_ns.append(t1 - t0)
    line("add_message", Latency.of([add_ns]))
    line("then build_context(s, query)  (with its catch-up)", Latency.of([ctx_ns]))


def bench_cost(path: Path, asked: list[tuple[str, str, str]], calls: int, turns: int) -> None:
    rng = random.Random(7)
    picks = [asked[rng.randrange(len(asked))] for _ in range(calls)]
    chat = [asked[rng.randrange(len(asked))] for _ in range(turns)]
    firsts = random.Random(3).sample(asked, min(calls, len(asked)))  # each session once
    with MemoryStore(path, config={"cache_ttl": 0}) as store:
        _, ms = time_once(lambda: store.search("warm up"))
        print(f"first search: {ms:.1f} ms (the index is written at commit)")
        print(f"\nthe index as written ({segments(path)} segments), cold calls (cache off), {calls:,} each:")
        measure(store, picks, path, firsts)
        print(f"\na live chat, {turns:,} turns over random sessions:")
        live_chat(store, chat)
        print(f"\nafter the chat ({segments(path)} segments), the same calls:")
        measure(store, picks, path, firsts)
        _, ms = time_once(store.maintain)
        print(f"\nafter store.maintain() ({ms / 1e3:.2f} s; {segments(path)} segment), the same calls:")
        measure(store, picks, path, firsts)


# --- recall ---------------------------------------------------------------------------


def recall_conversation(rng: random.Random) -> tuple[list[tuple[str, str]], list[int]]:
    """~300 turns: filler with the ten facts in the first 60; the facts' positions."""
    filler = list(next(iter_sessions(RECALL_FILLER, per_session=RECALL_FILLER, seed=5)).messages)
    positions = sorted(rng.sample(range(1, 30), len(FACTS)))
    positions = [2 * p for p in positions]  # user turns within the first 60
    turns = list(filler)
    for fact, at in zip(FACTS, positions):
        turns[at] = ("user", plant(fact, rng))
    return turns, positions


def bench_recall(tmp: Path) -> None:
    rng = random.Random(99)
    turns, positions = recall_conversation(rng)
    path = tmp / "recall.db"
    rows = []
    for with_summaries in (False, True):
        held = {"recency": 0, "query-aware": 0, "auto-pinned": 0}
        ranks = []
        with MemoryStore(path) as plain, MemoryStore(path, config={"auto_query": True}) as aware:
            for i, (_, question, _) in enumerate(FACTS):
                sid = f"recall-{int(with_summaries)}-{i}"
                plain.create_session(session_id=sid, model="llama3.2")
                stored = plain.add_messages(sid, [{"role": r, "text": t} for r, t in turns])
                if with_summaries:
                    while plain.summarize(sid) is not None:
                        pass
                asked = plain.add_message(sid, "user", question)
                source = stored[positions[i]].id
                a = plain.build_context(sid, max_tokens=RECALL_BUDGET)
                b = aware.build_context(sid, max_tokens=RECALL_BUDGET)
                held["recency"] += source in {m.id for m in a.recent_messages}
                shown = [m.id for m in b.recent_messages + b.relevant_messages]
                held["query-aware"] += source in shown
                held["auto-pinned"] += source in {p.source_message_id for p in a.pins}
                hits = [
                    h.id
                    for h in aware.search(question, session_id=sid, limit=11)
                    if h.kind == "message" and h.id != asked.id  # not the question itself
                ]
                ranks.append(hits.index(source) + 1 if source in hits else None)
                if with_summaries and i == 0:
                    summary_share = a.breakdown["summaries"]
        label = "with summaries" if with_summaries else "no summaries"
        rows.append((label, held, ranks, summary_share if with_summaries else 0))
    n = len(FACTS)
    print(f"  {len(turns) + 1} messages, {n} facts in the first 60, each asked at the end;")
    print(f"  context budget {RECALL_BUDGET} tokens; a fact counts if its source message is in")
    print("  the context (recent messages, or the relevant section):")
    for label, held, ranks, summary_tokens in rows:
        extra = f" (summaries take {summary_tokens} tokens)" if summary_tokens else ""
        print(
            f"  {label:<15} recency context {held['recency']:>2}/{n}   "
            f"query-aware context {held['query-aware']:>2}/{n}{extra}"
        )
        print(f"  {'':<15} pinned automatically, so in both contexts: {held['auto-pinned']}/{n}")
    ranks = rows[0][2]
    shown = ", ".join("-" if r is None else str(r) for r in ranks)
    print("  rank of the source message in search(question, session_id), the question")
    print(f"  itself left out: {shown}")
    median = statistics.median([r for r in ranks if r is not None] or [0])
    print(f"  (median rank {median:g}; 1 = first)")


class RandomVectors:
    """A host embedder (``MemoryStore(embedder=...)``): a fixed random unit-ish vector
    per text, 384 dimensions as all-MiniLM-L6-v2's; it costs nothing to call, so what
    is timed is localmem's side of semantic recall. ``aliases`` maps a text to another
    whose vector it gets (a query meaning what a message says, in other words)."""

    model = "random-384"

    def __init__(self, aliases: dict[str, str] | None = None) -> None:
        self.aliases = aliases or {}

    def vector(self, text: str) -> list[float]:
        rng = random.Random(self.aliases.get(text, text))
        return [rng.gauss(0.0, 1.0) for _ in range(384)]

    def embed_documents(self, texts):
        return [self.vector(t) for t in texts]

    def embed_query(self, text):
        return self.vector(text)


VECTORS_CONFIG = {"cache_ttl": 0, "recall_scope": "user", "embedding_model": None}
FAR_QUERY = "zyxomancy quillwort brambleguff?"
"""Shares no word with any message: only its vector (the oldest message's) finds it."""
PLAIN_CALLS = 3


def oldest_message(path: Path) -> tuple[int, str, str]:
    """(id, session, text) of the file's first message."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT id, session_id, text FROM messages ORDER BY id LIMIT 1").fetchone()
    finally:
        conn.close()


def bench_vectors(path: Path, calls: int) -> None:
    """Semantic recall over every vector of the file (``recall_scope="user"``): the
    vectors embedded in bulk, then cold query-aware contexts with and without the
    embedder (same run, interleaved); the difference is the cosine ranking's cost,
    against reading and scoring every stored vector per query (the old way); then the
    plain Python fallback (a child process without numpy) and the oldest vector found."""
    from localmem.embeddings import pack, similarities

    first_id, first_session, first_text = oldest_message(path)
    embedder = RandomVectors({FAR_QUERY: first_text})
    with MemoryStore(path, config=VECTORS_CONFIG, embedder=embedder) as store:
        stored, ms = time_once(store.embed_pending)
        print(f"  {stored:,} vectors embedded and stored in {ms / 1e3:.1f} s")
        sessions = [s.id for s in store.list_sessions() if s.id != first_session][:50]
        rng = random.Random(5)
        picks = [(rng.choice(sessions), COMMON_QUESTION) for _ in range(calls)]
        per = max(1, calls // 4)
        split = [picks[:per]] + [picks[r * per : (r + 1) * per] for r in range(4)]
        _, first = time_once(lambda: store.build_context(sessions[0], query="a first question"))
        print(f"  first query: {first:.0f} ms (the matrix loaded from the file, once)")
        with MemoryStore(path, config=VECTORS_CONFIG) as lexical:
            lexical.search("warm up")
            jobs = {
                "semantic": Job(lambda s, q: store.build_context(s, query=q), split),
                "lexical": Job(lambda s, q: lexical.build_context(s, query=q), split),
            }
            rounds = {name: Latency.of(r) for name, r in interleave(jobs, each).items()}
            far_lexical = lexical.build_context(sessions[-1], query=FAR_QUERY).relevant_messages
        for name, lat in rounds.items():
            line(f"build_context(s, query), {name}, every vector", lat)
        far = store.build_context(sessions[-1], query=FAR_QUERY).relevant_messages
        conn = sqlite3.connect(path)
        packed = pack(embedder.vector("q"))
        started = perf_counter_ns()
        blobs = [b for (b,) in conn.execute("SELECT vector FROM embeddings")]
        similarities(packed, blobs)
        old = (perf_counter_ns() - started) / 1e6
        conn.close()
        extra = rounds["semantic"].p50_us - rounds["lexical"].p50_us
        print(f"  → the cosine ranking (numpy) adds {extra / 1e3:.2f} ms p50 over {stored:,} vectors;")
        print(f"    reading and scoring them from the file per query (the old way): {old:.0f} ms")
    plain = subprocess.run(
        [sys.executable, __file__, "--plain-vectors", str(path)],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    print(f"  without numpy (plain Python, a child process, {PLAIN_CALLS} calls): {plain}")
    found = first_id in [m.id for m in far]
    print(f"  the file's oldest message (id {first_id}, of another session), asked by a query"
          f" sharing no word with it: semantic {'recalled' if found else 'MISSED'}, lexical"
          f" {'recalled' if first_id in [m.id for m in far_lexical] else 'not (no shared word)'}"
          f" (every one of the {stored:,} vectors scored: no cap)")


def plain_vectors(path: Path) -> None:
    """The child of ``bench_vectors``: numpy unimportable (set at the top), the same contexts."""
    from localmem import vectors

    assert vectors.np is None
    first_id, first_session, first_text = oldest_message(path)
    embedder = RandomVectors({FAR_QUERY: first_text})
    with MemoryStore(path, config=VECTORS_CONFIG, embedder=embedder) as store:
        sessions = [s.id for s in store.list_sessions() if s.id != first_session][:PLAIN_CALLS + 1]
        _, load = time_once(lambda: store.build_context(sessions[0], query="a first question"))
        times = [time_once(lambda s=s: store.build_context(s, query=COMMON_QUESTION))[1]
                 for s in sessions[1:]]
        far = store.build_context(sessions[0], query=FAR_QUERY).relevant_messages
    found = "recalled" if first_id in [m.id for m in far] else "MISSED"
    print(f"build_context(s, query) median {statistics.median(times):,.0f} ms "
          f"(first, with the load: {load:,.0f} ms); the oldest message {found}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--sessions", type=int, default=1_000)
    parser.add_argument("--calls", type=int, default=2_000)
    parser.add_argument("--turns", type=int, default=2_000)
    parser.add_argument(
        "--vectors", action="store_true", help="then semantic recall over every vector of the file"
    )
    parser.add_argument("--vectors-only", action="store_true", help="semantic recall alone")
    parser.add_argument(
        "--cpu", action="store_true",
        help="time each call on this thread's CPU, not the wall clock (a shared machine)",
    )
    parser.add_argument("--plain-vectors", type=Path, help=argparse.SUPPRESS)  # the child
    args = parser.parse_args()
    if args.cpu:
        use_thread_cpu()
    if args.plain_vectors:
        plain_vectors(args.plain_vectors)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "query.db"
        print(f"building {args.messages:,} messages over {args.sessions:,} sessions ...")
        asked, ms = time_once(lambda: build_file(path, args.messages, args.sessions))
        print(f"built in {ms / 1e3:.1f} s ({path.stat().st_size / 1e6:.0f} MB before indexing)")
        if not args.vectors_only:
            bench_cost(path, asked, args.calls, args.turns)
            print(f"  (file: {path.stat().st_size / 1e6:.0f} MB with the index)")
        if args.vectors or args.vectors_only:
            print("\nsemantic recall, every vector of the file:")
            bench_vectors(path, min(args.calls, 300))
        if not args.vectors_only:
            print("\nrecall:")
            bench_recall(Path(tmp))


if __name__ == "__main__":
    main()
