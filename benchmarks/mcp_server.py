"""``localmem mcp`` through the official SDK's client: start-up and recall latency.

    python benchmarks/mcp_server.py [--messages 300] [--calls 100] [--starts 5]

The file: one conversation of ``--messages`` corpus messages (with its five
pins) beside 20 other sessions of 100 messages. Each server is a real
subprocess (``python -m localmem mcp``) spoken to over stdio, as a desktop
app does.

- Start-up: spawn to ``initialize`` answered, median of ``--starts``; beside
  it, in the same run, a bare ``python -c pass``, ``import localmem`` and
  ``import mcp.server.fastmcp`` (what start-up cannot go below).
- Recall: ``--calls`` ``recall`` calls (``max_tokens`` 3000), each with a
  different three-word query drawn from the conversation, so none is served
  from the context cache, timed one by one through the client: p50 and p90.
  Beside them, the protocol's floor (``ping`` round trips) and the same
  ``build_context`` calls made in process on the same file (cache off).

Timings are printed, never asserted. (Not ``benchmarks/mcp.py``: run as a
script, this directory leads ``sys.path``, and a file named ``mcp.py`` would
stand in for the SDK in every benchmark here that imports it, openai-agents too.)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from corpus import iter_sessions
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from localmem import MemoryStore

SESSION = "bench"


def build_file(path: Path, messages: int) -> list[str]:
    """The file, and one query per message of the conversation (three of its words)."""
    rng = random.Random(7)
    with MemoryStore(path) as store:
        conversation = next(iter_sessions(messages, per_session=messages, seed=5))
        store.create_session(session_id=SESSION, title="bench", model="llama3.2")
        store.add_messages(SESSION, [{"role": r, "text": t} for r, t in conversation.messages])
        for pin in conversation.pins:
            store.pin(SESSION, pin)
        for other in iter_sessions(2_000, per_session=100, seed=6):
            sid = store.create_session().id
            store.add_messages(sid, [{"role": r, "text": t} for r, t in other.messages])
    words = [[w for w in t.split() if w.isalpha()] for _, t in conversation.messages]
    return [" ".join(rng.sample(ws, 3)) for ws in words if len(ws) >= 3]


def params(path: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "localmem", "mcp", "--db", str(path), "--session", SESSION],
        env=dict(os.environ),
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


async def through_client(path: Path, queries: list[str], calls: int) -> tuple[list[float], list[float]]:
    async with stdio_client(params(path)) as (read, write):
        async with ClientSession(read, write) as client:
            await client.initialize()

            async def recall(i: int) -> None:
                arguments = {"query": queries[i % len(queries)], "max_tokens": 3000}
                result = await client.call_tool("recall", arguments)
                assert not result.isError, result.content

            await each(5, lambda i: client.send_ping())  # warm-up: threads, caches
            await each(5, lambda i: recall(len(queries) - 1 - i))
            pings = await each(calls, lambda i: client.send_ping())
            recalls = await each(calls, recall)
            return recalls, pings


def in_process(path: Path, queries: list[str], calls: int) -> list[float]:
    with MemoryStore(path, config={"cache_ttl": 0}) as store:
        store.build_context(SESSION, max_tokens=3000, query=queries[-1])
        times = []
        for i in range(calls):
            started = time.perf_counter()
            store.build_context(SESSION, max_tokens=3000, query=queries[i % len(queries)])
            times.append(time.perf_counter() - started)
        return times


def spawn(code: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def pct(times: list[float], q: int) -> float:
    return statistics.quantiles(times, n=100)[q - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=300)
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--starts", type=int, default=5)
    args = parser.parse_args()
    path = Path(tempfile.mkdtemp(prefix="localmem-mcp-")) / "memory.db"
    os.environ["OLLAMA_HOST"] = "http://127.0.0.1:9"  # nothing is summarized; no model asked
    queries = build_file(path, args.messages)

    starts = [asyncio.run(start_up(path)) for _ in range(args.starts)]
    bare = spawn("pass", args.starts)
    library = spawn("import localmem", args.starts)
    sdk = spawn("import mcp.server.fastmcp", args.starts)
    print(f"server start-up, spawn to initialized: median {statistics.median(starts):.3f} s "
          f"of {args.starts} ({', '.join(f'{t:.3f}' for t in starts)})")
    print(f"  beside it: python -c pass {bare:.3f} s, import localmem {library:.3f} s, "
          f"import mcp.server.fastmcp {sdk:.3f} s")

    recalls, pings = asyncio.run(through_client(path, queries, args.calls))
    local = in_process(path, queries, args.calls)
    p50 = statistics.median(recalls)
    print(f"recall through the client ({args.messages}-message session, max_tokens 3000, "
          f"a new query each call): p50 {ms(p50)}, p90 {ms(pct(recalls, 90))} over {args.calls}")
    print(f"  beside it: ping round trip p50 {ms(statistics.median(pings))}; the same "
          f"build_context in process p50 {ms(statistics.median(local))}, "
          f"p90 {ms(pct(local, 90))} (cache off)")


if __name__ == "__main__":
    main()
