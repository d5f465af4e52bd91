"""Two trees' ``localmem mcp`` side by side, calls alternated one by one: a same-run A/B.

    PYTHONPATH=A python A/benchmarks/mcp_ab.py A B [--calls 200] [--embedder]

``mcp_server.py``'s file (a 300-message conversation beside 97 sessions of 100), then
one client process that starts two servers on it, each a real ``python -m localmem mcp``
subprocess over stdio: A with ``PYTHONPATH=A`` (and A as its directory), B with B. Each
round makes, for A and for B (which goes first alternates round by round), a ``recall``
with a query never asked before (``max_tokens`` 3000), a ``ping``, and a ``recall`` with no
query (the server's context cache answers it). A machine shared with other work then
loads both servers alike, call by call, where runs one after the other each see a load of
their own.

With ``--embedder``: all-MiniLM-L6-v2 behind Ollama's API (``embed_server.py``, in a
process of its own; ``$MINILM_DIR``), found by ``embedding_model="auto"`` in both servers;
the conversation is embedded first, and each recall is also timed less its own
``/api/embed`` as the embedding server served it (the model's time).

Printed, for each kind of call: A's and B's p50, B/A, the median of the per-round ratios
and the means; then each server's CPU time and context switches over the rounds (Linux's
``/proc``: the server is the child process running in its tree). Timings are printed,
never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import TYPE_CHECKING

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the model's BLAS on one thread

from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402
from mcp_server import SESSION, build_file  # noqa: E402

from localmem import MemoryStore  # noqa: E402

if TYPE_CHECKING:
    from embed_server import EmbedProcess

KINDS = ("recall", "recall less served", "ping", "cached")
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def usage(tree: str) -> tuple[float, int, int]:
    """CPU seconds, voluntary and involuntary context switches so far of the child of
    this process that runs in ``tree``: the server started there."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) != os.getpid() or os.readlink(entry / "cwd") != tree:
                continue
            status = dict(
                line.split(":", 1) for line in (entry / "status").read_text().splitlines()
            )
        except OSError:  # gone, or not ours to read
            continue
        cpu = (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime
        return cpu, int(status["voluntary_ctxt_switches"]), int(status["nonvoluntary_ctxt_switches"])
    raise LookupError(f"no server running in {tree}")


def params(tree: str, path: Path) -> StdioServerParameters:
    env = dict(os.environ)  # OLLAMA_HOST: no server, or the embedding server
    env["PYTHONPATH"] = tree
    return StdioServerParameters(
        command=sys.executable, cwd=tree, env=env,
        args=["-m", "localmem", "mcp", "--db", str(path), "--session", SESSION],
    )


async def rounds(
    trees: dict[str, str], path: Path, queries: list[str], calls: int,
    server: EmbedProcess | None = None,
) -> dict[str, dict[str, list[float]]]:
    """Each kind of call's times (seconds) per tree, the trees alternated call by call."""
    times: dict[str, dict[str, list[float]]] = {k: {n: [] for n in trees} for k in KINDS}
    spent: dict[str, tuple[float, int, int]] = {}
    fresh = iter(queries)
    with open(os.devnull, "w") as quiet:
        async with AsyncExitStack() as stack:
            clients = {}
            for name, tree in trees.items():
                read, write = await stack.enter_async_context(
                    stdio_client(params(tree, path), errlog=quiet)
                )
                clients[name] = await stack.enter_async_context(ClientSession(read, write))
                await clients[name].initialize()
                for _ in range(5):  # warm-up: threads, statements, the index
                    await clients[name].call_tool("recall", {"query": next(fresh), "max_tokens": 3000})
                    await clients[name].send_ping()
            before = {name: usage(tree) for name, tree in trees.items()}
            for i in range(calls):
                order = list(trees) if i % 2 == 0 else list(trees)[::-1]
                for name in order:
                    served = len(server.served) if server is not None else 0
                    started = time.perf_counter()
                    result = await clients[name].call_tool(
                        "recall", {"query": next(fresh), "max_tokens": 3000}
                    )
                    took = time.perf_counter() - started
                    assert not result.isError, result.content
                    times["recall"][name].append(took)
                    if server is not None:
                        embeds = server.served[served:]
                        assert len(embeds) == 1, f"{len(embeds)} embeddings served for one recall"
                        times["recall less served"][name].append(took - embeds[0])
                for name in order:
                    started = time.perf_counter()
                    await clients[name].send_ping()
                    times["ping"][name].append(time.perf_counter() - started)
                for name in order:
                    started = time.perf_counter()
                    await clients[name].call_tool("recall", {"max_tokens": 3000})
                    times["cached"][name].append(time.perf_counter() - started)
            for name, tree in trees.items():
                after = usage(tree)
                spent[name] = (after[0] - before[name][0], after[1] - before[name][1],
                               after[2] - before[name][2])
    for name, (cpu, voluntary, involuntary) in spent.items():
        print(f"  server {name} over the {calls} rounds: CPU {cpu:.2f} s, context switches "
              f"{voluntary:,} voluntary, {involuntary:,} involuntary")
    return times


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", help="tree A (its localmem)")
    parser.add_argument("b", help="tree B")
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--embedder", action="store_true",
                        help="with all-MiniLM-L6-v2 behind Ollama's API")
    args = parser.parse_args()
    trees = {"A": str(Path(args.a).resolve()), "B": str(Path(args.b).resolve())}
    folder = Path(tempfile.mkdtemp(prefix="localmem-mcp-ab-"))
    path = folder / "memory.db"
    os.environ["OLLAMA_HOST"] = "http://127.0.0.1:9"  # nothing is summarized; no model asked
    queries = build_file(path, 300, 97)
    rng = random.Random(3)
    words = sorted({w for q in queries for w in q.split()})
    fresh = list(dict.fromkeys(queries))
    while len(fresh) < 2 * (args.calls + 5):  # three words of the conversation, never twice
        query = " ".join(rng.sample(words, 3))
        if query not in fresh:
            fresh.append(query)
    rng.shuffle(fresh)
    print(f"A {trees['A']}, B {trees['B']}: {args.calls} rounds, load {load()}")
    if args.embedder:
        from embed_server import EmbedProcess

        with EmbedProcess(folder / "embed_server.log") as server:
            os.environ["OLLAMA_HOST"] = server.host
            with MemoryStore(path) as store:  # recall's scope is the session: its vectors
                store.embed_pending(SESSION)
            times = asyncio.run(rounds(trees, path, fresh, args.calls, server))
    else:
        times = asyncio.run(rounds(trees, path, fresh, args.calls))
    print(f"  load after: {load()}")
    for kind, by_tree in times.items():
        a, b = by_tree["A"], by_tree["B"]
        if not a:
            continue
        pairs = statistics.median(y / x for x, y in zip(a, b))
        print(f"  {kind:19} p50 A {statistics.median(a) * 1e3:6.2f} ms, B "
              f"{statistics.median(b) * 1e3:6.2f} ms, B/A {statistics.median(b) / statistics.median(a):.2f}"
              f" (per round {pairs:.2f}); mean A {statistics.mean(a) * 1e3:.2f}, "
              f"B {statistics.mean(b) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
