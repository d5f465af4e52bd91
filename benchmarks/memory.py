"""Does the context hold what the question needs? Evidence recall at 3,000 tokens.

    python benchmarks/memory.py [--quick] [--embeddings] [--trace N [--kinds K,K]] [--model-dir DIR]

The corpus of ``memory_corpus`` (ten two-person conversations of ~540 turns over
22-30 dated sessions, 729 questions of seven kinds with the ids of all their evidence
turns) is stored as an app would: one localmem file, one session per conversation, each
turn an ``add_message`` at its own time (the store's clock is set to the turn's
timestamp), the first speaker's turns as ``user`` and the other's as ``assistant``,
each text prefixed with its speaker's name ("Melanie: I adopted ...": two people talk,
and the name is the only way to tell who said "I"), and ``summarize`` run whenever
``needs_summarization`` says so. Sessions have no model, so the summaries are the
deterministic fallback and nothing touches the network.

For each question, ``build_context(session, max_tokens=3000, query=question)``. A
question counts only if EVERY evidence turn is in the context (by message id, among
``recent_messages`` and ``relevant_messages``, and, when the context shows only part of
a turn, that part still holding the answer's words the turn holds); "rendered" also counts an evidence turn
whose words appear anywhere in the text the model would get (a pin, a summary).

Beside it, on the same budget and tokenizer (cl100k, ``localmem.tokens.Tokenizer``),
over all the turns of the question's conversation, each filling 3,000 tokens with whole
turns in rank order (a turn that does not fit is skipped; only the turns' own tokens
are counted, where localmem's figure includes its headers and separators):

- BM25: ``bm25s`` (Lucene variant, k1=1.5, b=0.75, its English stop words);
- dense: all-MiniLM-L6-v2 (``minilm``, cosine) over the same stored texts;
- BM25 + dense by reciprocal rank fusion (k=60; BM25's list holds its matches only);
- newest: the newest turns, as a recency-only context would.

``--embeddings`` adds localmem with ``MemoryConfig(embedding_model="all-minilm")`` and
``OLLAMA_HOST`` pointed at ``embed_server`` (the same MiniLM behind Ollama's API); while
localmem has no such field, that row is reported as skipped. The weights are fetched
into ``results/tmp`` the first time (``minilm.py --fetch``); every later run is offline.
Writes ``results/memory.json`` (``results/quick/`` with ``--quick``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from time import perf_counter

import numpy as np

DEAD_HOST = "http://127.0.0.1:9"  # nothing listens: the summarizer stays offline
os.environ["OLLAMA_HOST"] = DEAD_HOST

import bm25s  # noqa: E402
import memory_corpus  # noqa: E402
import minilm  # noqa: E402
from embed_server import EmbedServer  # noqa: E402
from memory_corpus import KINDS, Conversation, Corpus, Question  # noqa: E402
from pydantic import ValidationError  # noqa: E402

from localmem import MemoryConfig, MemoryStore  # noqa: E402
from localmem.tokens import Tokenizer  # noqa: E402

HERE = Path(__file__).resolve().parent
BUDGET = 3000
RRF_K = 60
QUICK_CONVERSATIONS = 3
EMBEDDING_MODEL = "all-minilm"
LOCALMEM, LOCALMEM_EMB = "localmem", "localmem + all-minilm"
BM25, DENSE, FUSED, NEWEST = "BM25", "dense (MiniLM)", "BM25 + dense (RRF)", "newest turns"


class Clock:
    """The store's clock: the time of the turn being written."""

    def __init__(self) -> None:
        self.now = dt.datetime(2022, 1, 1, tzinfo=dt.timezone.utc)

    def __call__(self) -> dt.datetime:
        return self.now


def log(message: str) -> None:
    print(message, flush=True)


# --- localmem ------------------------------------------------------------------------


def ingest(store: MemoryStore, clock: Clock, corpus: Corpus) -> tuple[dict, dict[str, float]]:
    """Store every turn; {(conversation, turn index): message id}, and the time spent."""
    ids: dict[tuple[str, int], int] = {}
    spent = {"add_message": 0.0, "summarize": 0.0, "summaries": 0}
    for convo in corpus.conversations:
        session = store.create_session(title=" & ".join(convo.speakers), session_id=convo.id)
        for turn in convo.turns:
            clock.now = turn.time
            role = "user" if turn.speaker == convo.speakers[0] else "assistant"
            started = perf_counter()
            ids[convo.id, turn.index] = store.add_message(session.id, role, turn.stored).id
            middle = perf_counter()
            while store.needs_summarization(session.id) and store.summarize(session.id):
                spent["summaries"] += 1
            spent["add_message"] += middle - started
            spent["summarize"] += perf_counter() - middle
        clock.now = convo.turns[-1].time + dt.timedelta(hours=1)
    return ids, spent


def ask_localmem(
    store: MemoryStore, corpus: Corpus, ids: dict, keep: int, kinds: Collection[str] = KINDS
) -> tuple[dict[str, dict], list[float], list]:
    """Per question: every evidence turn in the context (ids; rendered text), its tokens."""
    turns = {c.id: c.turns for c in corpus.conversations}
    results, latencies, kept = {}, [], []
    for q in corpus.questions:
        started = perf_counter()
        ctx = store.build_context(q.conversation, max_tokens=BUDGET, query=q.text)
        latencies.append(perf_counter() - started)
        shown = {m.id: m.text for m in (*ctx.recent_messages, *ctx.relevant_messages)}
        text = "\n".join(m["content"] for m in ctx.to_messages())
        hit = all(
            ids[q.conversation, i] in shown
            and holds(shown[ids[q.conversation, i]], turns[q.conversation][i].stored, q.values)
            for i in q.evidence
        )
        rendered = all(turns[q.conversation][i].text in text for i in q.evidence)
        results[q.id] = {
            "hit": hit, "rendered": rendered, "tokens": ctx.total_tokens,
            "sections": held_by_section(ctx, [ids[q.conversation, i] for i in q.evidence],
                                        [turns[q.conversation][i].stored for i in q.evidence],
                                        q.values),
            "breakdown": dict(ctx.breakdown),
        }
        if not hit and len(kept) < keep and q.kind in kinds:
            kept.append((q, ctx))
    return results, latencies, kept


SECTIONS = ("recent", "relevant", "pins", "summaries", "checkpoint", "state")


def held_by_section(ctx, message_ids: list[int], stored: list[str], values) -> dict[str, int]:
    """How many of the evidence turns each section of ``ctx`` holds: by id for the
    messages, by the answer's words (else the turn's whole text) for the rest."""
    texts = {
        "pins": "\n".join(p.content for p in ctx.pins).lower(),
        "summaries": "\n".join(s.text for s in ctx.summaries).lower(),
        "checkpoint": "\n".join(ctx.checkpoint).lower(),
        "state": "\n".join(ctx.state).lower(),
    }
    recent = {m.id for m in ctx.recent_messages}
    relevant = {m.id for m in ctx.relevant_messages}
    counts = dict.fromkeys(SECTIONS, 0)
    for message_id, turn in zip(message_ids, stored):
        counts["recent"] += message_id in recent
        counts["relevant"] += message_id in relevant
        own = [v.lower() for v in values if v.lower() in turn.lower()]
        for name, text in texts.items():
            counts[name] += all(v in text for v in own) if own else turn.lower() in text
    return counts


def section_table(results: dict[str, dict]) -> str:
    """What each section holds of the evidence turns, and its mean tokens."""
    held = {s: sum(r["sections"][s] for r in results.values()) for s in SECTIONS}
    tokens = {
        s: statistics.fmean(r["breakdown"].get("messages" if s == "recent" else s, 0)
                            for r in results.values())
        for s in SECTIONS
    }
    return "  ".join(f"{s} {held[s]} turns/{tokens[s]:.0f} tok" for s in SECTIONS)


def holds(shown: str, stored: str, values: Sequence[str]) -> bool:
    """Whether the text a context shows of a turn (whole, clipped or cut to its relevant
    sentences) still holds each answer value the stored turn holds."""
    low, full = shown.lower(), stored.lower()
    return all(v.lower() in low for v in values if v.lower() in full)


def run_localmem(
    name: str, corpus: Corpus, config: MemoryConfig, tmp: Path, keep: int,
    kinds: Collection[str] = KINDS,
) -> tuple[dict, dict, list]:
    clock = Clock()
    timings: dict[str, float] = {}
    with MemoryStore(tmp / f"{name.replace(' ', '')}.db", config=config, clock=clock) as store:
        started = perf_counter()
        ids, spent = ingest(store, clock, corpus)
        timings["ingest_s"] = perf_counter() - started
        timings.update({f"{k}_s": v for k, v in spent.items() if k != "summaries"})
        log(
            f"  {name}: stored {len(ids):,} turns in {timings['ingest_s']:.1f} s "
            f"(add_message {spent['add_message']:.1f} s, {spent['summaries']} summaries "
            f"{spent['summarize']:.1f} s)"
        )
        started = perf_counter()
        results, latencies, kept = ask_localmem(store, corpus, ids, keep, kinds)
        timings["contexts_s"] = perf_counter() - started
        timings["first_context_ms"] = latencies[0] * 1000
        timings["context_p50_ms"] = statistics.median(latencies) * 1000
        log(
            f"  {name}: {len(latencies)} contexts in {timings['contexts_s']:.1f} s "
            f"(first {timings['first_context_ms']:.0f} ms, p50 {timings['context_p50_ms']:.2f} ms)"
        )
    return results, timings, [(q, ctx, ids) for q, ctx in kept]


def embedding_config() -> MemoryConfig | None:
    """localmem's config with the embedding model, or None while it has no such field."""
    try:
        return MemoryConfig(embedding_model=EMBEDDING_MODEL)
    except ValidationError:
        return None


# --- the baselines -------------------------------------------------------------------


def fill(ranked: Sequence[int], tokens: Sequence[int], budget: int = BUDGET) -> tuple[set, int]:
    """The turns taken in rank order while they fit (a turn too big is skipped), and tokens."""
    taken, used = set(), 0
    for i in ranked:
        if used + tokens[i] <= budget:
            taken.add(i)
            used += tokens[i]
    return taken, used


def fuse(*rankings: Sequence[int], k: int = RRF_K) -> list[int]:
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, i in enumerate(ranking, 1):
            scores[i] = scores.get(i, 0.0) + 1.0 / (k + rank)
    return sorted(scores, key=lambda i: (-scores[i], i))


def embed_cached(model: minilm.MiniLM, texts: list[str], cache: Path) -> np.ndarray:
    """MiniLM vectors of ``texts``, kept in ``cache`` (a deterministic model, keyed by text)."""
    key = hashlib.sha256("\x00".join(texts).encode()).hexdigest()[:16]
    path = cache / f"minilm-{key}.npy"
    if path.is_file():
        return np.load(path)
    vectors = model.embed(texts)
    cache.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


def ask_baselines(
    convo: Conversation,
    questions: Sequence[Question],
    count: Callable[[str], int],
    dense: tuple[np.ndarray, np.ndarray] | None,
) -> dict[str, dict]:
    """Per question of ``convo``: for each baseline, every evidence turn taken, and tokens."""
    texts = [t.stored for t in convo.turns]
    tokens = [count(t) for t in texts]
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False)
    newest = fill(range(len(texts) - 1, -1, -1), tokens)
    out = {}
    for n, q in enumerate(questions):
        words = bm25s.tokenize(q.text, stopwords="en", return_ids=False, show_progress=False)[0]
        scores = retriever.get_scores(words)
        lexical = [int(i) for i in np.argsort(-scores, kind="stable") if scores[i] > 0]
        rankings = {BM25: lexical, NEWEST: None}
        if dense is not None:
            turn_vectors, question_vectors = dense
            similarity = turn_vectors @ question_vectors[n]
            rankings[DENSE] = [int(i) for i in np.argsort(-similarity, kind="stable")]
            rankings[FUSED] = fuse(lexical, rankings[DENSE])
        out[q.id] = {}
        for name, ranking in rankings.items():
            taken, used = newest if ranking is None else fill(ranking, tokens)
            out[q.id][name] = {"hit": all(i in taken for i in q.evidence), "tokens": used}
    return out


# --- report ----------------------------------------------------------------------------


def summarize_system(corpus: Corpus, results: dict[str, dict], field: str = "hit") -> dict:
    by_kind = {}
    for kind in (*KINDS, "all"):
        qs = [q for q in corpus.questions if kind in ("all", q.kind)]
        by_kind[kind] = round(100.0 * sum(results[q.id][field] for q in qs) / len(qs), 1)
    return by_kind


def table(systems: dict[str, dict], corpus: Corpus) -> str:
    counts = {k: sum(q.kind == k for q in corpus.questions) for k in KINDS}
    counts["all"] = len(corpus.questions)
    head = f"{'system':<28}" + "".join(f"{k:>12}" for k in counts) + f"{'tokens':>9}"
    sub = f"{'(questions)':<28}" + "".join(f"{n:>12}" for n in counts.values())
    lines = [head, sub, "-" * len(head)]
    for name, s in systems.items():
        row = f"{name:<28}" + "".join(f"{s['recall'][k]:>11.1f}%" for k in counts)
        lines.append(row + f"{s['mean_tokens']:>9.0f}")
        if "rendered" in s:
            row = f"{'  ... in the rendered text':<28}"
            lines.append(row + "".join(f"{s['rendered'][k]:>11.1f}%" for k in counts))
    return "\n".join(lines)


def trace(kept: list, corpus: Corpus, baselines: dict[str, dict]) -> None:
    convos = {c.id: c for c in corpus.conversations}
    for q, ctx, ids in kept:
        convo = convos[q.conversation]
        others = ", ".join(
            f"{name} {'yes' if r['hit'] else 'no'}" for name, r in baselines[q.id].items()
        )
        log(f"\n[{q.kind}] {q.id}: {q.text}  -> {q.answer}   ({others})")
        held = {m.id for m in ctx.recent_messages} | {m.id for m in ctx.relevant_messages}
        for i in q.evidence:
            t = convo.turns[i]
            mark = "in" if ids[q.conversation, i] in held else "MISSING"
            log(f"   {mark:>7} #{i} {convo.session_dates[t.session]}  {t.stored}")
        log(f"   context: {ctx.total_tokens} tokens {ctx.breakdown}")
        for m in ctx.relevant_messages:
            log(f"     relevant  {m.created_at[:10]}  {m.text[:90]}")
        if ctx.recent_messages:
            first = ctx.recent_messages[0].text[:60]
            log(f"     recent    {len(ctx.recent_messages)} messages from {first!r}")
        for s in ctx.summaries:
            log(f"     summary   {s.text[:110]}")
        for p in ctx.pins:
            log(f"     pin       {p.content[:110]}")


def git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(HERE), *args], capture_output=True, text=True)
    return done.stdout.strip() or "?"


def load_model(model_dir: str | None) -> minilm.MiniLM:
    """MiniLM from ``model_dir`` or $MINILM_DIR; from results/tmp, fetched there if missing."""
    if model_dir is None and not os.environ.get(minilm.MODEL_DIR_ENV):
        if not (minilm.DEFAULT_MODEL_DIR / "model.safetensors").is_file():
            log(f"fetching all-MiniLM-L6-v2 into {minilm.DEFAULT_MODEL_DIR} (once) ...")
            minilm.fetch()
    return minilm.MiniLM(model_dir)


def run_baselines(
    corpus: Corpus, turn_vectors: np.ndarray, question_vectors: np.ndarray
) -> dict[str, dict]:
    """Each question's baselines, conversation by conversation (vectors in corpus order)."""
    count = Tokenizer().count
    baselines: dict[str, dict] = {}
    offset_t = offset_q = 0
    for convo in corpus.conversations:
        qs = [q for q in corpus.questions if q.conversation == convo.id]
        dense = (
            turn_vectors[offset_t : offset_t + len(convo.turns)],
            question_vectors[offset_q : offset_q + len(qs)],
        )
        baselines.update(ask_baselines(convo, qs, count, dense))
        offset_t, offset_q = offset_t + len(convo.turns), offset_q + len(qs)
    return baselines


def run_with_embeddings(
    corpus: Corpus, model: minilm.MiniLM, turn_vectors: np.ndarray, tmp: Path, keep: int,
    kinds: Collection[str] = KINDS,
) -> tuple[dict, dict, list, dict] | None:
    """localmem with the embedding model behind the loopback server; None if not supported."""
    config = embedding_config()
    if config is None:
        log(f"  {LOCALMEM_EMB}: skipped, MemoryConfig has no embedding_model field yet")
        return None
    with EmbedServer(model) as server:
        server.preload([t.stored for c in corpus.conversations for t in c.turns], turn_vectors)
        os.environ["OLLAMA_HOST"] = server.host
        try:
            results, timings, kept = run_localmem(LOCALMEM_EMB, corpus, config, tmp, keep, kinds)
        finally:
            os.environ["OLLAMA_HOST"] = DEAD_HOST
    log(f"  embed server: {server.stats}")
    return results, timings, kept, dict(server.stats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="three conversations, a smoke run")
    parser.add_argument("--embeddings", action="store_true", help="add localmem + all-minilm")
    parser.add_argument("--trace", type=int, default=0, metavar="N", help="show N misses")
    parser.add_argument(
        "--kinds", default=",".join(KINDS), metavar="K,K",
        help="trace only misses of these kinds (e.g. spread,multi)",
    )
    parser.add_argument(
        "--model-dir",
        help=f"MiniLM's files (default ${minilm.MODEL_DIR_ENV}, else results/tmp, fetched there)",
    )
    parser.add_argument("--seed", type=int, default=memory_corpus.DEFAULT_SEED)
    parser.add_argument(
        "--varied-chatter", action="store_true",
        help="chatter turns carry specific, answer-free details (memory_corpus); writes"
        " memory_varied.json",
    )
    args = parser.parse_args()
    kinds = set(args.kinds.split(","))
    if kinds - set(KINDS):
        parser.error(f"--kinds: no such kind {sorted(kinds - set(KINDS))}; kinds: {KINDS}")
    timings: dict[str, float] = {}

    def phase(name: str, step: Callable[[], object]) -> object:
        started = perf_counter()
        value = step()
        timings[name] = perf_counter() - started
        return value

    n = QUICK_CONVERSATIONS if args.quick else memory_corpus.DEFAULT_CONVERSATIONS
    corpus = phase(
        "corpus_s", lambda: memory_corpus.generate(args.seed, n, varied_chatter=args.varied_chatter)
    )
    turns = [t.stored for c in corpus.conversations for t in c.turns]
    log(
        f"corpus: {len(corpus.conversations)} conversations, {len(turns):,} turns, "
        f"{len(corpus.questions)} questions, generated in {timings['corpus_s']:.2f} s"
    )
    model = phase("model_load_s", lambda: load_model(args.model_dir))
    cache = minilm.DEFAULT_MODEL_DIR.parent / "vectors"
    turn_vectors, question_vectors = phase(
        "dense_embed_s",
        lambda: (
            embed_cached(model, turns, cache),
            embed_cached(model, [q.text for q in corpus.questions], cache),
        ),
    )
    log(
        f"MiniLM: loaded in {timings['model_load_s']:.1f} s, {len(turns):,} turns and "
        f"{len(corpus.questions)} questions embedded in {timings['dense_embed_s']:.1f} s "
        f"(cached in {cache.relative_to(HERE.parent)})"
    )
    baselines = phase("baselines_s", lambda: run_baselines(corpus, turn_vectors, question_vectors))
    log(f"baselines (BM25, dense, fused, newest) in {timings['baselines_s']:.1f} s")

    systems: dict[str, dict] = {}
    served: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="localmem-memory-") as tmp:
        lexical = MemoryConfig(embedding_model=None)  # not "auto": this row is the lexical one
        results, t, traced = run_localmem(
            LOCALMEM, corpus, lexical, Path(tmp), args.trace, kinds
        )
        timings.update({f"localmem_{k}": v for k, v in t.items()})
        systems[LOCALMEM] = describe(corpus, results)
        run = args.embeddings and run_with_embeddings(
            corpus, model, turn_vectors, Path(tmp), args.trace, kinds
        )
        if run:
            results, t, traced, served = run
            timings.update({f"localmem_emb_{k}": v for k, v in t.items()})
            systems[LOCALMEM_EMB] = describe(corpus, results)
    for name in (BM25, DENSE, FUSED, NEWEST):
        systems[name] = describe(corpus, {q: r[name] for q, r in baselines.items()})

    log(f"\nevery evidence turn in a {BUDGET:,}-token context (% of questions):")
    log(table(systems, corpus))
    for name, s in systems.items():
        if "sections" in s:
            log(f"{name}, evidence turns held per section / mean tokens: {s['sections']}")
    log("timings (s): " + ", ".join(f"{k} {v:.2f}" for k, v in timings.items()))
    if args.trace:
        trace(traced, corpus, baselines)
    name = "memory_varied.json" if args.varied_chatter else "memory.json"
    out = HERE / "results" / ("quick" if args.quick else "") / name
    out.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "command": " ".join(["python benchmarks/memory.py", *sys.argv[1:]]),
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "localmem_commit": git("rev-parse", "--short", "HEAD"),
        "budget_tokens": BUDGET,
        "corpus": {
            "seed": args.seed,
            "varied_chatter": args.varied_chatter,
            "conversations": len(corpus.conversations),
            "turns": len(turns),
            "questions": {k: sum(q.kind == k for q in corpus.questions) for k in KINDS},
        },
        "systems": systems,
        "timings_s": {k: round(v, 3) for k, v in timings.items()},
        "embed_server": served,
    }
    out.write_text(json.dumps(document, indent=2) + "\n")
    log(f"wrote {out.relative_to(HERE.parent)}")


def describe(corpus: Corpus, results: dict[str, dict]) -> dict:
    entry = {
        "recall": summarize_system(corpus, results),
        "mean_tokens": statistics.fmean(r["tokens"] for r in results.values()),
        "missed": [q.id for q in corpus.questions if not results[q.id]["hit"]],
    }
    if "sections" in next(iter(results.values())):
        entry["sections"] = section_table(results)
    if "rendered" in next(iter(results.values())):
        entry["rendered"] = summarize_system(corpus, results, "rendered")
    return entry


if __name__ == "__main__":
    main()
