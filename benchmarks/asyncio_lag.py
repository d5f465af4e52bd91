"""How much the event loop waits while tasks use the store: the sync store called in
the loop, ``AsyncMemoryStore`` (one worker thread per store), and the same with
``asyncio.to_thread`` (the loop's shared pool) instead of its worker.

    python benchmarks/asyncio_lag.py [--tasks 8] [--calls 200] [--rounds 3]

Each run: ``--tasks`` tasks (two per session) each await ``--calls`` pairs of
``add_message`` + ``build_context`` on a fresh file, while a ticker sleeps 1 ms
in a loop and records how late each wake-up is (the loop's lag). The sync store
is called in the task with an ``await asyncio.sleep(0)`` after each pair (a task
of an async app yields between turns). Modes run in interleaved rounds; the
median round of each is printed, and its lag beside the sync store's.
Timings are reported, never asserted (not named ``aio.py``: that would shadow
nothing today, but the benchmarks directory is on ``sys.path``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from forget import offline

from localmem import AsyncMemoryStore, MemoryStore

T = TypeVar("T")
TICK = 0.001


class ToThreadStore(AsyncMemoryStore):
    """``AsyncMemoryStore`` whose calls go to ``asyncio.to_thread`` (the loop's pool)."""

    async def run(self, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.to_thread(func, *args, **kwargs)


async def ticking(work: Awaitable[Any]) -> dict[str, float]:
    """Run ``work`` beside a 1 ms ticker; the ticker's lags and the wall time."""
    lags: list[float] = []
    running = True

    async def ticker() -> None:
        while running:
            start = time.perf_counter()
            await asyncio.sleep(TICK)
            lags.append(time.perf_counter() - start - TICK)

    tick = asyncio.create_task(ticker())
    start = time.perf_counter()
    await work
    wall = time.perf_counter() - start
    running = False
    await tick
    lags.sort()
    return {
        "wall_s": wall,
        "ticks": len(lags),
        "mean_lag_ms": statistics.fmean(lags) * 1e3,
        "p99_lag_ms": lags[int(len(lags) * 0.99)] * 1e3,
        "max_lag_ms": lags[-1] * 1e3,
    }


async def run_sync(path: Path, tasks: int, calls: int) -> dict[str, float]:
    with MemoryStore(path) as store:
        sessions = [store.create_session(session_id=f"s{i}").id for i in range(tasks // 2)]

        async def writer(task: int) -> None:
            for i in range(calls):
                store.add_message(sessions[task // 2], "user", f"task {task} turn {i} about the garden")
                store.build_context(sessions[task // 2])
                await asyncio.sleep(0)

        return await ticking(asyncio.gather(*(writer(t) for t in range(tasks))))


async def run_async(kind: type[AsyncMemoryStore], path: Path, tasks: int, calls: int) -> dict[str, float]:
    async with kind(path) as store:
        sessions = [(await store.create_session(session_id=f"s{i}")).id for i in range(tasks // 2)]

        async def writer(task: int) -> None:
            for i in range(calls):
                await store.add_message(sessions[task // 2], "user", f"task {task} turn {i} about the garden")
                await store.build_context(sessions[task // 2])

        return await ticking(asyncio.gather(*(writer(t) for t in range(tasks))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=8)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    offline()
    modes: dict[str, Callable[[Path], Awaitable[dict[str, float]]]] = {
        "sync store in the loop": lambda p: run_sync(p, args.tasks, args.calls),
        "AsyncMemoryStore (worker)": lambda p: run_async(AsyncMemoryStore, p, args.tasks, args.calls),
        "asyncio.to_thread": lambda p: run_async(ToThreadStore, p, args.tasks, args.calls),
    }
    results: dict[str, list[dict[str, float]]] = {name: [] for name in modes}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for index, (name, mode) in enumerate(modes.items()):
                results[name].append(asyncio.run(mode(Path(tmp) / f"r{r}-{index}.db")))
    print(f"{args.tasks} tasks x {args.calls} (add_message + build_context), 1 ms ticker, "
          f"median of {args.rounds} rounds")
    medians = {
        name: {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        for name, runs in results.items()
    }
    reference = medians["sync store in the loop"]
    for name, m in medians.items():
        print(
            f"{name:28s} wall {m['wall_s']:.2f} s  ticks {m['ticks']:.0f}  lag mean {m['mean_lag_ms']:.2f} ms"
            f" (x{m['mean_lag_ms'] / reference['mean_lag_ms']:.2f} of sync)  p99 {m['p99_lag_ms']:.2f} ms"
            f" (x{m['p99_lag_ms'] / reference['p99_lag_ms']:.2f})  max {m['max_lag_ms']:.1f} ms"
        )


if __name__ == "__main__":
    main()
