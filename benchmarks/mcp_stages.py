"""Where a ``recall`` through ``localmem mcp`` spends its time, stage by stage.

    python benchmarks/mcp_stages.py [--messages 300] [--others 97] [--calls 100] [--embedder]

``mcp_server.py``'s file and client (a new three-word query each call), but the server
is ``localmem mcp`` run with stamps: ``time.perf_counter_ns`` (one monotonic clock for
every process of the machine) written to a log as each stage begins or ends. The
server's stamps: the stdin line read (by the event loop on pipes, else a reader thread),
the tool called (the loop), ``build_context`` begun and ended (the worker thread), the
embedding request sent and answered (``OllamaBackend._call``), the worker's result back
on the loop, the answer handed to stdout (``LockedStdout.write``, on the loop: what follows
holds the write, by the loop or a writer thread), and each ``epoll`` wait of the loop. The client
stamps each call's send and answer; with ``--embedder``, ``embed_server.py`` (all-MiniLM-L6-v2
behind Ollama's API, ``$MINILM_DIR``, in a process of its own as Ollama runs:
``EmbedProcess``) stamps each request's arrival and answer in its own log, read beside.

Printed: for each stage of a call, its p50 and mean over the calls, their sum beside the
whole call, and the trips between threads (a worker's result to the loop: p50 small, mean
large, when a thread woken has to wait for a core). Then, with ``--embedder``, what the
embedding server was asked during the calls. The stamps cost a few microseconds each:
compare stages, not totals, with ``mcp_server.py``'s figures.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

STAMPED = "--stamped-server"
"""Run as the server: ``mcp_stages.py --stamped-server LOG <localmem mcp arguments>``."""

LEXICAL = ("call+", "read-", "call_tool+", "run+", "build_context+", "build_context-",
           "run-", "call_tool-", "write+", "call-")
EMBEDDED = ("call+", "read-", "call_tool+", "run+", "build_context+", "http+", "embed+",
            "embed-", "http-", "build_context-", "run-", "call_tool-", "write+", "call-")
"""The stages of a call, in order (``+``: begun, ``-``: ended)."""


class Stamps:
    """A log of (nanoseconds, name) lines, one file shared by the processes."""

    def __init__(self, path: str) -> None:
        self._out: TextIO = open(path, "a", buffering=1)  # noqa: SIM115 - for the process's life

    def __call__(self, name: str) -> None:
        self._out.write(f"{time.perf_counter_ns()} {name}\n")

    def around(self, owner: Any, attr: str, name: str) -> None:
        """``owner.attr`` stamped ``name+`` when called and ``name-`` when it returns."""
        fn = getattr(owner, attr)
        if asyncio.iscoroutinefunction(fn):
            async def stamped(*args: Any, **kwargs: Any) -> Any:
                self(name + "+")
                try:
                    return await fn(*args, **kwargs)
                finally:
                    self(name + "-")
        else:
            def stamped(*args: Any, **kwargs: Any) -> Any:
                self(name + "+")
                try:
                    return fn(*args, **kwargs)
                finally:
                    self(name + "-")
        setattr(owner, attr, functools.wraps(fn)(stamped))


def stamped_server(log: str, args: list[str]) -> None:
    """``localmem mcp`` with the server's stamps (the module docstring)."""
    import selectors

    from localmem import contexts, mcp_server, mcp_stdio, mcp_tools
    from localmem.cli import main
    from localmem.summarizer import ollama_client

    stamp = Stamps(log)
    stamp.around(mcp_stdio.GuardedStdin, "_read", "read")
    stamp.around(mcp_stdio.LockedStdout, "write", "write")
    stamp.around(mcp_server.MemoryServer, "call_tool", "call_tool")
    stamp.around(mcp_tools.Memory, "run", "run")
    stamp.around(contexts.Contexts, "build_context", "build_context")
    stamp.around(ollama_client.OllamaBackend, "_call", "http")
    loop_thread = threading.main_thread()
    select = selectors.EpollSelector.select

    def waited(self: selectors.EpollSelector, timeout: float | None = None) -> Any:
        if threading.current_thread() is not loop_thread:
            return select(self, timeout)
        stamp("epoll+")
        try:
            return select(self, timeout)
        finally:
            stamp("epoll-")

    selectors.EpollSelector.select = waited  # type: ignore[method-assign]
    sys.argv = ["localmem", *args]
    main()


def calls_of(log: str, beside: Sequence[tuple[int, str]] = ()) -> list[dict[str, int]]:
    """Each client call's stages: name -> the first stamp of it within the call; the
    stamps of ``log`` and those ``beside`` it (another process's), in time order."""
    calls, current = [], None
    lines = (line.split(" ", 1) for line in Path(log).read_text().splitlines())
    stamps = [(int(at), name) for at, name in lines]
    for at, name in sorted([*stamps, *beside]):
        if name == "call+":
            current = {name: int(at)}
        elif current is not None:
            if name == "embed-" and "embed+" not in current:
                continue  # a handler of the round before, ending after its answer was read
            current.setdefault(name, int(at))
            if name == "call-":
                calls.append(current)
                current = None
    return calls


def wake_ups(log: str) -> list[float]:
    """Per call, ms from the worker's ``build_context-`` to the loop's next ``epoll-``."""
    trips, ended = [], None
    for line in Path(log).read_text().splitlines():
        at, name = line.split(" ", 1)
        if name == "build_context-":
            ended = int(at)
        elif name == "epoll-" and ended is not None:
            trips.append((int(at) - ended) / 1e6)
            ended = None
    return trips


def report(title: str, calls: list[dict[str, int]], stages: tuple[str, ...]) -> None:
    whole = [(c["call-"] - c["call+"]) / 1e6 for c in calls]
    print(f"{title}: {len(calls)} calls, whole call p50 {statistics.median(whole):.2f} ms, "
          f"mean {statistics.mean(whole):.2f} ms")
    total = 0.0
    for a, b in zip(stages, stages[1:]):
        spans = [(c[b] - c[a]) / 1e6 for c in calls if a in c and b in c]
        total += statistics.median(spans)
        print(f"  {a:>15} -> {b:<15} p50 {statistics.median(spans):7.3f}  "
              f"mean {statistics.mean(spans):7.3f} ms  ({len(spans)})")
    print(f"  the stages' p50s add up to {total:.2f} ms")


async def run_calls(path: Path, queries: list[str], calls: int, log: str) -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from mcp_server import SESSION, recall_once

    stamp = Stamps(log)
    server = StdioServerParameters(
        command=sys.executable,
        args=[__file__, STAMPED, log, "mcp", "--db", str(path), "--session", SESSION],
        env=dict(os.environ),
    )
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as client:
            await client.initialize()
            for query in queries[:5]:  # warm-up: threads, statements, the index
                await recall_once(client, query)
            Path(log).write_text("")
            for query in queries[5 : 5 + calls]:
                stamp("call+")
                await recall_once(client, query)
                stamp("call-")


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == STAMPED:
        stamped_server(sys.argv[2], sys.argv[3:])
        return
    from mcp_server import build_file

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=300)
    parser.add_argument("--others", type=int, default=97, help="other sessions of 100 messages")
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--embedder", action="store_true",
                        help="then the same with all-MiniLM-L6-v2 behind Ollama's API")
    args = parser.parse_args()
    path = Path(tempfile.mkdtemp(prefix="localmem-stages-")) / "memory.db"
    log = str(path.with_name("stamps.log"))
    os.environ["OLLAMA_HOST"] = "http://127.0.0.1:9"  # lexical: no model asked
    queries = list(dict.fromkeys(build_file(path, args.messages, args.others)))
    if len(queries) < args.calls + 5:  # a query asked twice would be served by the cache
        parser.error(f"{args.messages} messages give {len(queries)} queries: --calls at most "
                     f"{len(queries) - 5}")
    asyncio.run(run_calls(path, queries, args.calls, log))
    report("lexical recall", calls_of(log), LEXICAL)
    trips = wake_ups(log)
    print(f"  the worker's result to the loop's wake-up: p50 {statistics.median(trips):.3f} ms, "
          f"mean {statistics.mean(trips):.3f}, over 1 ms in {sum(t > 1 for t in trips)} of {len(trips)}")
    if args.embedder:
        with_embedder(path, queries, args.calls, log)  # a new server: nothing cached, none embedded


def with_embedder(path: Path, queries: list[str], calls: int, log: str) -> None:
    from embed_server import EmbedProcess

    from mcp_server import SESSION

    from localmem import MemoryStore

    with EmbedProcess(path.with_name("embed_server.log")) as server:
        os.environ["OLLAMA_HOST"] = server.host
        with MemoryStore(path) as store:
            store.embed_pending(SESSION)
        asked, opened = Counter(server.asked), server.connections
        asyncio.run(run_calls(path, queries, calls, log))
        asked = Counter(server.asked) - asked
        opened = server.connections - opened
        served = [(at, what) for at, what in server.events() if what in ("embed+", "embed-")]
    report("\nrecall with all-MiniLM-L6-v2 (embed_server.py, its own process)",
           calls_of(log, served), EMBEDDED)
    trips = wake_ups(log)
    print(f"  the worker's result to the loop's wake-up: p50 {statistics.median(trips):.3f} ms, "
          f"mean {statistics.mean(trips):.3f}, over 1 ms in {sum(t > 1 for t in trips)} of {len(trips)}")
    print(f"  the embedding server was asked, over the server's life ({calls} + 5 calls): "
          f"{', '.join(f'{n} {what}' for what, n in sorted(asked.items()))}; "
          f"{opened} connection(s) opened")


if __name__ == "__main__":
    main()
