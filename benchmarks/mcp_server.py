"""``localmem mcp`` through the official SDK's client: start-up and recall latency.

    python benchmarks/mcp_server.py [--messages 300] [--others 20] [--calls 100] [--starts 5]
                                    [--embedder]

The file: one conversation of ``--messages`` corpus messages (with its five
pins) beside ``--others`` (20) other sessions of 100 messages. Each server is a real
subprocess (``python -m localmem mcp``) spoken to over stdio, as a desktop
app does.

- Start-up: spawn to ``initialize`` answered, median of ``--starts``; beside
  it, in the same run, a bare ``python -c pass``, ``import localmem`` and
  ``import mcp.server.fastmcp`` (what start-up cannot go below).
- Recall: ``--calls`` ``recall`` calls (``max_tokens`` 3000), each with a
  different three-word query drawn from the conversation, so none is served
  from the context cache, timed one by one through the client: p50 and p90.
  Each is followed by the same ``build_context`` call made in process on the
  same file (cache off), so the client's extra time is measured call by call;
  then the protocol's floor (``ping`` round trips, back to back; and one right
  after each recall, as the ``--embedder`` rounds time it: a server idle a
  moment answers slower than one answering back to back) and ``recall`` with no
  query, which the server's context cache answers (the tool layer's floor).

With ``--embedder``: the same through a real embedding model, all-MiniLM-L6-v2
(``embed_server.py``: Ollama's API on loopback; ``$MINILM_DIR`` holds the weights),
which ``embedding_model="auto"`` finds there. The conversation's messages are
embedded first (``embed_pending``: recall's scope is the session), then each call embeds
only its query: ``--calls`` rounds of a
``recall`` through the client, the same ``build_context`` in process, and the query's
embedding alone (``/api/embed`` through localmem's Ollama backend), each with a query
of its own, never embedded before: the split of the time between the model and
localmem with MCP. The query's embedding takes a different time each call (tens of
milliseconds, varying by more than the rest on a busy machine), so each timing is also
given less that call's own ``/api/embed`` as the server served it (``EmbedProcess.served``):
what is left is localmem (and MCP) alone, call by call. The embedding server runs in a
process of its own, as Ollama does (``embed_server.EmbedProcess``): the model's work
shares neither this process's interpreter nor its threads with the client it times, and
its time per request is read from its own log. The margin over the model's own time is
then split, each call less its own ``/api/embed`` as served: the HTTP round trip (the
embedding alone: localmem's Ollama client, loopback, the server's request handling), localmem
(in process, beyond that) and MCP (through the client, beyond that); the HTTP round trip
itself beside a bare ``http.client`` POST of the same request on a kept connection (the
floor: loopback and the server's own handling, which its log's stamps give:
``EmbedProcess.handled``), the rest being the ``ollama`` client and localmem's backend.
Each round also times a ``ping``
(the protocol's floor, in the same rounds) and counts what the embedding server was asked
during the client's call (requests by path, connections opened): a recall should ask one
``/api/embed`` on a connection kept alive, and nothing else.

Timings are printed, never asserted. (Not ``benchmarks/mcp.py``: run as a
script, this directory leads ``sys.path``, and a file named ``mcp.py`` would
stand in for the SDK in every benchmark here that imports it, openai-agents too.)
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

# The model's BLAS on one thread: its threads wait on one another on a busy machine.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from corpus import iter_sessions  # noqa: E402
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

from localmem import MemoryStore  # noqa: E402

if TYPE_CHECKING:
    from embed_server import EmbedProcess

SESSION = "bench"


def build_file(path: Path, messages: int, others: int = 20) -> list[str]:
    """The file, and one query per message of the conversation (three of its words)."""
    rng = random.Random(7)
    with MemoryStore(path) as store:
        conversation = next(iter_sessions(messages, per_session=messages, seed=5))
        store.create_session(session_id=SESSION, title="bench", model="llama3.2")
        store.add_messages(SESSION, [{"role": r, "text": t} for r, t in conversation.messages])
        for pin in conversation.pins:
            store.pin(SESSION, pin)
        for other in iter_sessions(100 * others, per_session=100, seed=6):
            sid = store.create_session().id
            store.add_messages(sid, [{"role": r, "text": t} for r, t in other.messages])
    words = [[w for w in t.split() if w.isalpha()] for _, t in conversation.messages]
    return [" ".join(rng.sample(ws, 3)) for ws in words if len(ws) >= 3]


def params(path: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "localmem", "mcp", "--db", str(path), "--session", SESSION],
        env=dict(os.environ),  # OLLAMA_HOST: no server, or the embedding server
    )


async def start_up(path: Path) -> float:
    started = time.perf_counter()
    async with stdio_client(params(path)) as (read, write):
        async with ClientSession(read, write) as client:
            await client.initialize()
            return time.perf_counter() - started


async def each(calls: int, call: Callable[[int], Awaitable[object]]) -> list[float]:
    times = []
    for i in range(calls):
        started = time.perf_counter()
        await call(i)
        times.append(time.perf_counter() - started)
    return times


async def recall_once(client: ClientSession, query: str) -> None:
    """One ``recall`` call with the query, as an assistant makes it."""
    result = await client.call_tool("recall", {"query": query, "max_tokens": 3000})
    assert not result.isError, result.content


async def recalls(path: Path, queries: list[str], calls: int) -> dict[str, list[float]]:
    """Each query through the client, then in process, call by call (so the machine's
    drift lands on both alike); then the ping round trips."""
    times: dict[str, list[float]] = {"client": [], "in process": [], "ping after": []}
    with MemoryStore(path, config={"cache_ttl": 0}) as store:
        async with stdio_client(params(path)) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()
                recall = functools.partial(recall_once, client)
                for i in range(5):  # warm-up: threads, statements, the index
                    await recall(queries[-1 - i])
                    store.build_context(SESSION, max_tokens=3000, query=queries[-1 - i])
                for i in range(calls):
                    query = queries[i % len(queries)]
                    started = time.perf_counter()
                    await recall(query)
                    times["client"].append(time.perf_counter() - started)
                    started = time.perf_counter()
                    await client.send_ping()
                    times["ping after"].append(time.perf_counter() - started)
                    started = time.perf_counter()
                    store.build_context(SESSION, max_tokens=3000, query=query)
                    times["in process"].append(time.perf_counter() - started)
                times["ping"] = await each(calls, lambda i: client.send_ping())
                plain = {"max_tokens": 3000}  # no query: the server's context cache answers
                times["cached"] = await each(calls, lambda i: client.call_tool("recall", plain))
    return times


async def embedded_recalls(
    path: Path, queries: list[str], calls: int, server: EmbedProcess
) -> tuple[dict[str, list[float]], Counter[str]]:
    """``recalls`` with the embedding model: four fresh queries per round, one for the
    client, one for the library in process, one embedded alone through localmem's
    backend, one posted bare (``http.client`` on a kept connection: the floor); and a
    ping. With them, what ``server`` was asked during the client's calls (``"POST
    /api/embed"``..., ``"connections"``: opened), and (``"handled"``) the server's own
    time beyond the model for the embedding alone and the bare post."""
    from localmem.summarizer.ollama_client import OllamaBackend

    times: dict[str, list[float]] = {
        "client": [], "in process": [], "embedding": [], "bare": [], "ping": [],
        "handled": [],
    }
    asked: Counter[str] = Counter()

    def less_served(name: str, started: float, served: int) -> None:
        """``name``'s time since ``started``, and beside it (``name`` + " less served")
        that time less the one ``/api/embed`` served since ``served`` was the count."""
        took = time.perf_counter() - started
        times[name].append(took)
        embeds = server.served[served:]
        assert len(embeds) == 1, f"{name}: {len(embeds)} embeddings served for one call"
        times.setdefault(f"{name} less served", []).append(took - embeds[0])
    fresh = iter(queries)
    bare = http.client.HTTPConnection(server.host.split("//", 1)[1])

    def post(query: str) -> None:
        """The floor: one /api/embed posted and its answer parsed, no client library."""
        body = json.dumps({"model": "all-minilm:latest", "input": [query]})
        bare.request("POST", "/api/embed", body, {"Content-Type": "application/json"})
        answer = json.loads(bare.getresponse().read())
        assert len(answer["embeddings"]) == 1, answer

    with MemoryStore(path, config={"cache_ttl": 0}) as store, OllamaBackend() as backend:
        async with stdio_client(params(path)) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()
                recall = functools.partial(recall_once, client)
                for _ in range(5):  # warm-up: threads, statements, the index, the matrix
                    await recall(next(fresh))
                    store.build_context(SESSION, max_tokens=3000, query=next(fresh))
                    backend.embed("all-minilm:latest", [next(fresh)])
                    post(next(fresh))
                for _ in range(calls):
                    before, opened = Counter(server.asked), server.connections
                    served, started = len(server.served), time.perf_counter()
                    await recall(next(fresh))
                    less_served("client", started, served)
                    asked += Counter(server.asked) - before
                    asked["connections"] += server.connections - opened
                    started = time.perf_counter()
                    await client.send_ping()
                    times["ping"].append(time.perf_counter() - started)
                    served, started = len(server.served), time.perf_counter()
                    store.build_context(SESSION, max_tokens=3000, query=next(fresh))
                    less_served("in process", started, served)
                    served, started = len(server.served), time.perf_counter()
                    backend.embed("all-minilm:latest", [next(fresh)])
                    less_served("embedding", started, served)
                    times["handled"].append(server.handled[-1])
                    served, started = len(server.served), time.perf_counter()
                    post(next(fresh))
                    less_served("bare", started, served)
                    times["handled"].append(server.handled[-1])
    bare.close()
    return times, asked


def with_embedder(path: Path, queries: list[str], calls: int) -> None:
    """The embedding server up, every message embedded, then ``embedded_recalls``."""
    from embed_server import EmbedProcess

    with EmbedProcess(path.with_name("embed_server.log")) as server:
        os.environ["OLLAMA_HOST"] = server.host
        with MemoryStore(path) as store:  # recall's scope is the session: its vectors
            started = time.perf_counter()
            stored = store.embed_pending(SESSION)
            took = time.perf_counter() - started
        print(f"with all-MiniLM-L6-v2 (embed_server.py in its own process, found by "
              f"embedding_model=\"auto\"): "
              f"the session's {stored:,} messages embedded in {took:.0f} s")
        rng = random.Random(3)
        words = sorted({w for q in queries for w in q.split()})
        unique = list(dict.fromkeys(queries))
        while len(unique) < 4 * (calls + 5):  # three words of the conversation, never twice
            query = " ".join(rng.sample(words, 3))
            if query not in unique:
                unique.append(query)
        rng.shuffle(unique)
        times, asked = asyncio.run(embedded_recalls(path, unique, calls, server))
    client, local, embed = times["client"], times["in process"], times["embedding"]
    opened = asked.pop("connections", 0)
    print(f"  the embedding server, during the {calls} client calls: "
          f"{', '.join(f'{n} {what}' for what, n in sorted(asked.items())) or 'nothing'}; "
          f"{opened} connection(s) opened")
    p50 = {name: statistics.median(t) for name, t in times.items()}
    print(f"  recall through the client, a new query each call: p50 {ms(p50['client'])}, "
          f"p90 {ms(pct(client, 90))} over {calls}")
    print(f"  beside it, each with a query of its own: build_context in process p50 "
          f"{ms(p50['in process'])}, p90 {ms(pct(local, 90))}; the query's embedding alone "
          f"(/api/embed) p50 {ms(p50['embedding'])}, p90 {ms(pct(embed, 90))}")
    print(f"  → the split: the embedding {ms(p50['embedding'])} + localmem "
          f"{ms(p50['in process'] - p50['embedding'])} + MCP {ms(p50['client'] - p50['in process'])}"
          f" (differences of p50s); a ping round trip in the same rounds p50 {ms(p50['ping'])}, "
          f"p90 {ms(pct(times['ping'], 90))}")
    less = {name: times[f"{name} less served"] for name in ("client", "in process", "embedding")}
    print(f"  each call less its own /api/embed as served (p50, p90): through the client "
          f"{ms(statistics.median(less['client']))}, {ms(pct(less['client'], 90))}; in process "
          f"{ms(statistics.median(less['in process']))}, {ms(pct(less['in process'], 90))}; "
          f"the embedding alone (the HTTP round trip) {ms(statistics.median(less['embedding']))}, "
          f"{ms(pct(less['embedding'], 90))}")
    served = [c - rest for c, rest in zip(client, less["client"])]
    mid = {name: statistics.median(t) for name, t in less.items()}
    print(f"  → the margin over the model's own time: the model (/api/embed as served during the "
          f"client's calls) p50 {ms(statistics.median(served))}, p90 {ms(pct(served, 90))}; the "
          f"client's call less it p50 {ms(mid['client'])}: the HTTP round trip "
          f"{ms(mid['embedding'])} + localmem {ms(mid['in process'] - mid['embedding'])} + MCP "
          f"{ms(mid['client'] - mid['in process'])} (differences of p50s, each less served)")
    floor = statistics.median(times["bare less served"])
    print(f"  → the HTTP round trip {ms(mid['embedding'])}: a bare http.client POST on a kept "
          f"connection, in the same rounds, p50 {ms(floor)} (of which the embedding server's "
          f"own handling beyond the model, its log's stamps, p50 "
          f"{ms(statistics.median(times['handled']))}) + the ollama client and localmem's "
          f"backend {ms(mid['embedding'] - floor)} (each less served)")


def spawn(code: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - started


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def pct(times: list[float], q: int) -> float:
    return statistics.quantiles(times, n=100)[q - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=300)
    parser.add_argument("--others", type=int, default=20, help="other sessions of 100 messages")
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--embedder", action="store_true",
                        help="then the same with all-MiniLM-L6-v2 behind Ollama's API")
    args = parser.parse_args()
    path = Path(tempfile.mkdtemp(prefix="localmem-mcp-")) / "memory.db"
    os.environ["OLLAMA_HOST"] = "http://127.0.0.1:9"  # nothing is summarized; no model asked
    queries = build_file(path, args.messages, args.others)

    starts: dict[str, list[float]] = {"server": [], "pass": [], "localmem": [], "sdk": []}
    for _ in range(args.starts):  # one of each per round
        starts["server"].append(asyncio.run(start_up(path)))
        starts["pass"].append(spawn("pass"))
        starts["localmem"].append(spawn("import localmem"))
        starts["sdk"].append(spawn("import mcp.server.fastmcp"))
    median = {name: statistics.median(times) for name, times in starts.items()}
    print(f"server start-up, spawn to initialized: median {median['server']:.3f} s "
          f"of {args.starts} ({', '.join(f'{t:.3f}' for t in starts['server'])})")
    print(f"  beside it: python -c pass {median['pass']:.3f} s, import localmem "
          f"{median['localmem']:.3f} s, import mcp.server.fastmcp {median['sdk']:.3f} s")

    times = asyncio.run(recalls(path, queries, args.calls))
    client, local = times["client"], times["in process"]
    extra = statistics.median(c - b for c, b in zip(client, local))
    print(f"recall through the client ({args.messages}-message session, max_tokens 3000, "
          f"a new query each call): p50 {ms(statistics.median(client))}, "
          f"p90 {ms(pct(client, 90))} over {args.calls}")
    print(f"  beside it, call by call: the same build_context in process (cache off) p50 "
          f"{ms(statistics.median(local))}, p90 {ms(pct(local, 90))}; the client's extra time "
          f"per call p50 {ms(extra)}")
    print(f"  floors: a ping round trip p50 {ms(statistics.median(times['ping']))} ("
          f"{ms(statistics.median(times['ping after']))} right after each recall, as in the "
          f"--embedder rounds); recall with no query (served by the context cache) p50 "
          f"{ms(statistics.median(times['cached']))}")
    if args.embedder:
        with_embedder(path, queries, args.calls)


if __name__ == "__main__":
    main()
