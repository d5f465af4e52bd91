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
  Each is followed by the same ``build_context`` call made in process on the
  same file (cache off), so the client's extra time is measured call by call;
  then the protocol's floor (``ping`` round trips) and ``recall`` with no
  query, which the server's context cache answers (the tool layer's floor).

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


async def recalls(path: Path, queries: list[str], calls: int) -> dict[str, list[float]]:
    """Each query through the client, then in process, call by call (so the machine's
    drift lands on both alike); then the ping round trips."""
    times: dict[str, list[float]] = {"client": [], "in process": []}
    with MemoryStore(path, config={"cache_ttl": 0}) as store:
        async with stdio_client(params(path)) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()

                async def recall(query: str) -> None:
                    arguments = {"query": query, "max_tokens": 3000}
                    result = await client.call_tool("recall", arguments)
                    assert not result.isError, result.content

                for i in range(5):  # warm-up: threads, statements, the index
                    await recall(queries[-1 - i])
                    store.build_context(SESSION, max_tokens=3000, query=queries[-1 - i])
                for i in range(calls):
                    query = queries[i % len(queries)]
                    started = time.perf_counter()
                    await recall(query)
                    times["client"].append(time.perf_counter() - started)
                    started = time.perf_counter()
                    store.build_context(SESSION, max_tokens=3000, query=query)
                    times["in process"].append(time.perf_counter() - started)
                times["ping"] = await each(calls, lambda i: client.send_ping())
                plain = {"max_tokens": 3000}  # no query: the server's context cache answers
                times["cached"] = await each(calls, lambda i: client.call_tool("recall", plain))
    return times


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
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--starts", type=int, default=5)
    args = parser.parse_args()
    path = Path(tempfile.mkdtemp(prefix="localmem-mcp-")) / "memory.db"
    os.environ["OLLAMA_HOST"] = "http://127.0.0.1:9"  # nothing is summarized; no model asked
    queries = build_file(path, args.messages)

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
    print(f"  floors: a ping round trip p50 {ms(statistics.median(times['ping']))}; recall "
          f"with no query (served by the context cache) p50 {ms(statistics.median(times['cached']))}")


if __name__ == "__main__":
    main()
