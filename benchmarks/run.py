"""localmem's benchmark suite: localmem against raw sqlite3 (the limit) and two peers.

    python benchmarks/run.py [--quick] [--sweep | --no-sweep] [--out benchmarks/results]

One process, one temp directory, one synthetic corpus (``corpus.py``: 20,000
messages over 200 sessions, seeded) for every system in ``systems.SYSTEMS``:

- writes: one message per call (one transaction each) and batches of 100 in
  one call, at each system's own durability; localmem at its default
  (``synchronous=NORMAL``) and at ``FULL``, to compare at equal durability;
- reads, on the file the batched writes filled: raw last-8 ``SELECT``,
  localmem's ``build_context`` cold and warm (5 pins and 3 summaries per
  session), the peers' own reads;
- the scale sweep (``sweep.py``): 10k -> 100k -> 1M messages (quick mode:
  10k and 50k; ``--no-sweep`` skips it);
- a fresh process (``probe.py``) that opens a file, reads every session once
  and reports open time, first-visit latency and peak RSS.

It prints a table (absolute figures, ratios, PASS/MISS per target) and
writes ``results.json``, ``results.md`` (the table as printed) and
``chart.png`` to ``--out``. Targets are reported, never asserted: the exit
code is 0 whatever the figures. ``profile_localmem.py`` shows where
localmem's time goes in one call.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import sqlite3
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, replace
from importlib import metadata
from pathlib import Path
from time import perf_counter
from typing import Any

# The summarizer must never reach a model: a dead loopback port makes it use
# its deterministic offline summary. Set before localmem is first imported.
DEAD_OLLAMA_HOST = "http://127.0.0.1:9"
os.environ["OLLAMA_HOST"] = DEAD_OLLAMA_HOST

import probe  # noqa: E402
import report  # noqa: E402
import sweep  # noqa: E402
from corpus import make_corpus  # noqa: E402
from scenarios import (  # noqa: E402
    batch_calls,
    batch_job,
    context_shape,
    decorate,
    read_calls,
    single_calls,
    single_job,
    write_untimed,
)
from systems import PEERS, SYSTEMS, LocalMem, Opened, open_system  # noqa: E402
from timer import Job, Latency, Throughput, each, interleave, wall  # noqa: E402

HERE = Path(__file__).resolve().parent
PACKAGES = (
    "localmem",
    "openai-agents",
    "langchain-community",
    "langchain-core",
    "SQLAlchemy",
    "greenlet",
    "tiktoken",
    "pydantic",
    "matplotlib",
    "psutil",
)


@dataclass(frozen=True)
class Plan:
    """How much of everything a mode runs. Round counts exclude the warm-up round."""

    mode: str
    messages: int = 20_000
    sessions: int = 200
    single_warmup: int = 200
    single_rounds: int = 7
    single_per_round: int = 1_000
    batch_warmup: int = 2  # batches
    batch_rounds: int = 7
    read_rounds: int = 10
    read_per_round: int = 500
    sweep: bool = True
    sweep_sizes: tuple[int, ...] = (10_000, 100_000, 1_000_000)
    probe_contexts: int = 10_000
    probe_repeats: int = 3


FULL = Plan("full")
QUICK = replace(
    FULL,
    mode="quick",
    single_rounds=3,
    single_per_round=500,
    batch_rounds=3,
    read_rounds=3,
    read_per_round=150,
    sweep_sizes=(10_000, 50_000),
    probe_repeats=1,
)

# The reads measured, on the file each family's batched writes filled: the
# system's own ``last8``, or for localmem a store opened with this config.
# (A long TTL for "warm" only so that the interleaved rounds never outlive it;
# a cache hit costs the same whatever the TTL.)
READS = (
    ("raw", "raw", "raw sqlite3 last-8 SELECT", None),
    ("localmem-cold", "localmem", "localmem build_context, cold", {"cache_ttl": 0}),
    ("localmem-warm", "localmem", "localmem build_context, warm (cached)", {"cache_ttl": 3600}),
    ("agents", "agents", "agents get_items(limit=8)", None),
    ("langchain", "langchain", "langchain .messages (whole session)", None),
)


def log(msg: str) -> None:
    print(f"  · {msg}", file=sys.stderr, flush=True)


# --- the reference run -----------------------------------------------------------------


def open_all(tmp: Path, prefix: str, session_ids: list[str]) -> dict[str, Opened]:
    opened = {}
    for spec in SYSTEMS:
        o = open_system(spec, tmp / f"{prefix}-{spec.key}.db")
        if o.system is not None:
            o.system.prepare(session_ids)
        opened[spec.key] = o
    return opened


def ok(opened: dict[str, Opened]) -> dict[str, Opened]:
    return {k: o for k, o in opened.items() if o.system is not None}


def bench_writes(plan: Plan, corpus, tmp: Path) -> tuple[dict, dict[str, Opened]]:
    ids = [s.id for s in corpus.sessions]
    out: dict[str, Any] = {}

    single = open_all(tmp, "single", ids)
    calls = single_calls(
        corpus.sessions, plan.single_warmup + plan.single_rounds * plan.single_per_round
    )
    jobs = {
        k: single_job(o, calls, plan.single_warmup, plan.single_rounds)
        for k, o in ok(single).items()
    }
    t = perf_counter()
    for key, samples in interleave(jobs, wall).items():
        out.setdefault(key, {})["single"] = Throughput.of(samples).as_dict()
    log(f"one message per call: {perf_counter() - t:.1f} s")
    for key, o in single.items():
        entry = out.setdefault(key, {})
        entry["status"] = o.status
        if o.system is not None:
            entry["durability"] = o.system.durability()
            if hasattr(o.system, "loop_overhead_us"):
                entry["event_loop_overhead_us"] = round(o.system.loop_overhead_us(), 2)
            o.system.close()

    batch = open_all(tmp, "batch", ids)
    full, tails = batch_calls(corpus.sessions)
    jobs = {
        k: batch_job(o, full, plan.batch_warmup, plan.batch_rounds) for k, o in ok(batch).items()
    }
    t = perf_counter()
    for key, samples in interleave(jobs, wall).items():
        out[key]["batch"] = Throughput.of(samples).as_dict()
    for key, o in ok(batch).items():
        if o.spec.read_op:  # the files read next must hold the whole corpus
            write_untimed(o, tails)
        else:
            o.system.close()
            batch[key] = replace(o, system=None, status="closed")
    log(f"batches of 100: {perf_counter() - t:.1f} s ({len(full)} full batches timed)")
    return out, batch


def bench_reads(plan: Plan, corpus, files: dict[str, Opened]) -> dict[str, Any]:
    ids = [s.id for s in corpus.sessions]
    lm: LocalMem = files["localmem"].system
    t = perf_counter()
    summaries_how = decorate(lm, corpus.sessions)
    log(f"5 pins + 3 summaries per session ({summaries_how}): {perf_counter() - t:.1f} s")
    rounds = read_calls(
        ids, seed=corpus.seed + 1, n_rounds=plan.read_rounds, per_round=plan.read_per_round
    )
    jobs, labels, stores = {}, {}, {}
    for key, family, label, config in READS:
        reader = files[family].system
        if reader is None:
            continue
        if config is not None:
            reader = stores[key] = LocalMem(lm.path, config)
        jobs[key] = Job(reader.last8, rounds)
        labels[key] = label
    t = perf_counter()
    results = interleave(jobs, each)
    log(f"reads: {perf_counter() - t:.1f} s")
    out: dict[str, Any] = {
        key: {"label": labels[key], **Latency.of(samples).as_dict()}
        for key, samples in results.items()
    }
    out["localmem-warm"]["cache"] = stores["localmem-warm"].store.cache_stats()
    out["_context_shape"] = context_shape(stores["localmem-cold"], ids)
    out["_summaries"] = summaries_how
    for store in stores.values():
        store.close()
    for o in ok(files).values():
        o.system.close()

    # The coldest read: a fresh process visiting every session once (no
    # cached contexts, no memoized rows); it also times opening the file.
    opened = probe.measure(lm.path, contexts=len(ids), repeats=plan.probe_repeats)
    out["localmem-first"] = {
        "label": "localmem build_context, first visit",
        "p50_us": opened["first_visit_p50_us"],
        "p99_us": opened["first_visit_p99_us"],
        "mean_us": opened["first_visit_mean_us"],
        "max_us": None,
        "n": opened["first_visits"],
    }
    out["_open"] = opened
    return out


# --- ratios and targets ------------------------------------------------------------------


def equal_durability_key(writes: dict, peer: str) -> str:
    """The localmem variant whose synchronous level matches the peer's."""
    sync = writes[peer].get("durability", {}).get("synchronous")
    return "localmem-full" if sync in ("FULL", "EXTRA") else "localmem"


def ratios(writes: dict, reads: dict) -> list[dict[str, Any]]:
    """localmem ÷ X: above 1 is better for throughput, below 1 is better for latency."""

    def rate(key: str, mode: str) -> float | None:
        return writes.get(key, {}).get(mode, {}).get("per_s")

    pairs = [
        ("localmem", "raw", "raw sqlite3, NORMAL"),
        ("localmem-full", "raw-full", "raw sqlite3, FULL"),
    ]
    for peer in PEERS:
        if writes.get(peer, {}).get("status") == "ok":
            lm = equal_durability_key(writes, peer)
            pairs.append(
                (
                    lm,
                    peer,
                    f"{peer} at equal durability ({writes[peer]['durability']['synchronous']})",
                )
            )
    out = []
    for lm, other, what in pairs:
        for mode, name in (("single", "one per call"), ("batch", "batches of 100")):
            a, b = rate(lm, mode), rate(other, mode)
            if a and b:
                out.append(
                    {"what": f"{name}: {lm} ÷ {what}", "ratio": round(a / b, 3), "better": "higher"}
                )
    raw = reads.get("raw")
    for key in ("localmem-cold", "localmem-warm", "localmem-first", "agents", "langchain"):
        if raw and key in reads:
            out.append(
                {
                    "what": f"read p50: {key} ÷ raw last-8",
                    "ratio": round(reads[key]["p50_us"] / raw["p50_us"], 3),
                    "better": "lower",
                }
            )
    return out


@dataclass(frozen=True)
class Target:
    name: str
    value: Any  # a function of (writes, reads) -> float | None
    op: str
    threshold: float
    unit: str = "×"


def _write_ratio(a: str, b: str, mode: str):
    def value(writes: dict, reads: dict) -> float | None:
        x, y = writes.get(a, {}).get(mode), writes.get(b, {}).get(mode)
        return x["per_s"] / y["per_s"] if x and y else None

    return value


def _read(key: str, field: str, over: str | None = None):
    def value(writes: dict, reads: dict) -> float | None:
        if key not in reads or (over and over not in reads):
            return None
        return reads[key][field] / (reads[over]["p50_us"] if over else 1)

    return value


TARGETS = (
    Target(
        "add_message >= 50% of raw single-row commits (NORMAL)",
        _write_ratio("localmem", "raw", "single"),
        ">=",
        0.5,
    ),
    Target(
        "add_message >= 5x agents SQLiteSession (equal durability: FULL)",
        _write_ratio("localmem-full", "agents", "single"),
        ">=",
        5.0,
    ),
    Target(
        "add_messages(100) >= 30% of raw executemany (NORMAL)",
        _write_ratio("localmem", "raw", "batch"),
        ">=",
        0.3,
    ),
    Target(
        "cold build_context p50 <= 6x raw last-8 p50",
        _read("localmem-cold", "p50_us", "raw"),
        "<=",
        6.0,
    ),
    Target(
        "cold build_context p99 <= 300 µs", _read("localmem-cold", "p99_us"), "<=", 300.0, " µs"
    ),
    Target(
        "warm build_context p50 <= raw last-8 p50",
        _read("localmem-warm", "p50_us", "raw"),
        "<=",
        1.0,
    ),
)


def check_targets(writes: dict, reads: dict) -> list[dict[str, Any]]:
    out = []
    for t in TARGETS:
        value = t.value(writes, reads)
        if value is None:
            verdict = "n/a"
        else:
            verdict = (
                "PASS"
                if (value >= t.threshold if t.op == ">=" else value <= t.threshold)
                else "MISS"
            )
        out.append(
            {
                "target": t.name,
                "value": None if value is None else round(value, 3),
                "op": t.op,
                "threshold": t.threshold,
                "unit": t.unit,
                "verdict": verdict,
            }
        )
    return out


# --- machine ---------------------------------------------------------------------------------


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def _filesystem(path: Path) -> str:
    """The mount type holding ``path`` (fsync costs differ wildly between ext4 and tmpfs)."""
    best, kind = "", "?"
    try:
        for line in Path("/proc/mounts").read_text().splitlines():
            _, mount, fstype, *_ = line.split()
            if str(path).startswith(mount) and len(mount) > len(best):
                best, kind = mount, fstype
    except OSError:
        pass
    return kind


def _git(*args: str) -> str:
    try:
        return subprocess.run(
            ["git", "-C", str(HERE.parent), *args], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def machine(plan: Plan, tmp: Path) -> dict[str, Any]:
    cpu = "?"
    try:
        cpu = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    except (OSError, StopIteration):
        pass
    return {
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "mode": plan.mode,
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "cpu_count": os.cpu_count(),
        "cpu": cpu,
        "platform": platform.platform(),
        "tmp_dir_filesystem": _filesystem(tmp),
        "packages": {name: _version(name) for name in PACKAGES},
        "localmem_commit": _git("rev-parse", "--short", "HEAD"),
        "localmem_worktree_dirty": _git("status", "--porcelain", "--", "localmem") not in ("", "?"),
        "ollama_host": os.environ["OLLAMA_HOST"],
    }


# --- main ------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller run, under a minute")
    parser.add_argument(
        "--sweep",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="run the scale sweep (default: in full mode only)",
    )
    parser.add_argument("--out", type=Path, default=HERE / "results", help="where results go")
    parser.add_argument("--tmpdir", type=Path, default=None, help="where the database files go")
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    if args.sweep is not None:
        plan = replace(plan, sweep=args.sweep)

    started = perf_counter()
    corpus = make_corpus(plan.messages, plan.sessions)
    with tempfile.TemporaryDirectory(prefix="localmem-bench-", dir=args.tmpdir) as tmp_name:
        tmp = Path(tmp_name)
        info = machine(plan, tmp)
        log(f"{plan.mode} mode, files in {tmp} ({info['tmp_dir_filesystem']})")
        writes, files = bench_writes(plan, corpus, tmp)
        reads = bench_reads(plan, corpus, files)
        points = sweep.run(tmp, plan, log) if plan.sweep else []

    results = {
        "machine": info,
        "plan": asdict(plan),
        "corpus": corpus.describe(),
        "systems": {
            s.key: {"label": s.label, "family": s.family, "read_op": s.read_op} for s in SYSTEMS
        },
        "writes": writes,
        "reads": reads,
        "ratios": ratios(writes, reads),
        "targets": check_targets(writes, reads),
        "sweep": points,
    }
    results["elapsed_s"] = round(perf_counter() - started, 1)
    # The probes run in fresh processes: if localmem changed meanwhile, say so.
    info["localmem_commit_at_end"] = _git("rev-parse", "--short", "HEAD")
    table = report.table(results)
    print(table)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    (args.out / "results.md").write_text(report.markdown(results, table))
    try:
        import matplotlib  # noqa: F401  (the bench extra's; the figures need nothing of it)
    except ImportError:
        log("no chart: matplotlib is not installed (pip install -e '.[bench]' adds it)")
        written = "results.json, results.md"
    else:
        report.chart(results, args.out / "chart.png")
        written = "results.json, results.md, chart.png"
    log(f"wrote {args.out}/{written} in {results['elapsed_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
