"""Turn a results dict (what ``run.py`` writes to results.json) into a table and a chart.

``table`` is what the suite prints and what ``results.md`` holds; ``chart``
draws throughput and latency side by side (log scales), with the scale
sweep underneath when it ran. matplotlib runs with the Agg backend, so no
display is needed.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

# Figures of a sweep point whose growth from the smallest file to the largest is reported.
SWEEP_GROWTH = (
    ("raw last-8 p50", lambda p: p["raw_last8"]["p50_us"]),
    ("cold p50", lambda p: p["cold_context"]["p50_us"]),
    ("first-visit p50", lambda p: p["open"]["first_visit_p50_us"]),
    ("raw single-row msg/s", lambda p: p["raw_single"]["per_s"]),
    ("add_message msg/s", lambda p: p["add_message"]["per_s"]),
    ("open", lambda p: p["open"]["open_ms"]),
    ("peak RSS", lambda p: p["open"]["peak_rss_mb"]),
)
# The order reads are shown in.
READ_ORDER = ("raw", "localmem-cold", "localmem-first", "localmem-warm", "agents", "langchain")


def _reads(r: dict[str, Any]) -> list[dict[str, Any]]:
    return [r["reads"][k] for k in READ_ORDER if k in r["reads"]]


def _n(x: float | None, digits: int = 0) -> str:
    return "—" if x is None else f"{x:,.{digits}f}"


def _dur(entry: dict[str, Any]) -> str:
    d = entry.get("durability")
    return f"{d['journal_mode']}/{d['synchronous']}" if d else "—"


def _header(r: dict[str, Any]) -> list[str]:
    m, c = r["machine"], r["corpus"]
    dirty = " (+ uncommitted changes)" if m["localmem_worktree_dirty"] else ""
    if m.get("localmem_commit_at_end", m["localmem_commit"]) != m["localmem_commit"]:
        dirty += f", {m['localmem_commit_at_end']} by the end"
    return [
        f"localmem benchmarks — {m['mode']} mode — {m['date']}",
        f"python {m['python']} · sqlite {m['sqlite']} · {m['cpu_count']} CPUs ({m['cpu']}) · "
        f"files on {m['tmp_dir_filesystem']} · localmem {m['localmem_commit']}{dirty}",
        f"corpus: {c['messages']:,} messages over {c['sessions']} sessions, "
        f"{c['min_chars']}–{c['max_chars']} chars (mean {c['mean_chars']}), "
        f"{c['questions']:,} questions, {c['code']:,} with code",
    ]


def _writes(r: dict[str, Any]) -> list[str]:
    lines = [
        f"{'WRITES (msg/s, median of rounds)':<44}{'journal/sync':<14}"
        f"{'one per call':>14}{'batches of 100':>16}"
    ]
    for key, w in r["writes"].items():
        label = r["systems"][key]["label"]
        if w.get("status") != "ok":
            lines.append(f"{label:<44}{'':<14}{w.get('status', '?').split(' (')[0]:>30}")
            continue
        lines.append(
            f"{label:<44}{_dur(w):<14}{_n(w['single']['per_s']):>14}{_n(w['batch']['per_s']):>16}"
        )
    overhead = r["writes"].get("agents", {}).get("event_loop_overhead_us")
    if overhead is not None:
        lines.append(
            f"  (agents is async: entering its event loop costs {overhead} µs per call, "
            "included above)"
        )
    return lines


def _reads_section(r: dict[str, Any]) -> list[str]:
    lines = [f"{'READS (µs per call)':<44}{'p50':>10}{'p99':>10}{'mean':>10}{'calls':>8}"]
    for x in _reads(r):
        lines.append(
            f"{x['label']:<44}{_n(x['p50_us'], 1):>10}{_n(x['p99_us'], 1):>10}"
            f"{_n(x['mean_us'], 1):>10}{x['n']:>8,}"
        )
    reads = r["reads"]
    if "_context_shape" in reads:
        shape = reads["_context_shape"]
        lines.append(
            f"  (contexts carry {shape['messages']:.1f} messages, {shape['pins']:.1f} pins, "
            f"{shape['summaries']:.1f} summaries, {shape['tokens']:.0f} tokens on average; "
            f"summaries by {reads['_summaries']})"
        )
    if "cache" in reads.get("localmem-warm", {}):
        cache = reads["localmem-warm"]["cache"]
        lines.append(
            f"  (warm: {cache['hits']:,} cache hits, {cache['misses']:,} misses. cold: "
            "cache_ttl=0, rows may still come from localmem's row memo. first visit: a fresh "
            "process reading each session once)"
        )
    if "_open" in reads:
        o = reads["_open"]
        lines.append(
            f"  (fresh process: import localmem {o['import_ms']:.0f} ms, MemoryStore(path) "
            f"{o['open_ms']:.1f} ms, first build_context {o['first_context_ms']:.0f} ms "
            f"(loads the tokenizer), peak RSS {o['peak_rss_mb']:.0f} MB)"
        )
    return lines


def _ratios(r: dict[str, Any]) -> list[str]:
    lines = ["RATIOS (localmem ÷ other)"]
    for x in r["ratios"]:
        lines.append(f"  {x['what']:<70}{x['ratio']:>9.2f}×  ({x['better']} is better)")
    return lines


def _targets(r: dict[str, Any]) -> list[str]:
    lines = ["TARGETS"]
    for t in r["targets"]:
        value = "—" if t["value"] is None else f"{t['value']:.2f}{t['unit']}"
        need = f"(need {t['op']} {t['threshold']:g}{t['unit']})"
        lines.append(f"  {t['verdict']:<5} {t['target']:<66} {value:>10} {need}")
    return lines


def _sweep(r: dict[str, Any]) -> list[str]:
    lines = [
        "SCALE SWEEP (localmem defaults; raw = raw sqlite3 file of the same messages; "
        "µs unless named)",
        f"{'messages':>10}{'file MB':>9}{'open ms':>9}{'1st ctx ms':>11}{'raw p50':>9}"
        f"{'cold p50':>10}{'cold p99':>10}{'1st p50':>9}{'raw msg/s':>11}{'add msg/s':>11}"
        f"{'peak RSS MB':>13}",
    ]
    for p in r["sweep"]:
        o, cold = p["open"], p["cold_context"]
        lines.append(
            f"{p['messages']:>10,}{p['file_mb']:>9,.1f}{o['open_ms']:>9.1f}"
            f"{o['first_context_ms']:>11.1f}{p['raw_last8']['p50_us']:>9.1f}"
            f"{cold['p50_us']:>10.1f}{cold['p99_us']:>10.1f}{o['first_visit_p50_us']:>9.1f}"
            f"{p['raw_single']['per_s']:>11,.0f}{p['add_message']['per_s']:>11,.0f}"
            f"{o['peak_rss_mb']:>13.1f}"
        )
    first, last = r["sweep"][0], r["sweep"][-1]
    growth = ", ".join(
        f"{name} ×{get(last) / get(first):.2f}" for name, get in SWEEP_GROWTH if get(first)
    )
    lines += [
        f"  growth over {last['messages'] / first['messages']:,.0f}× the data:",
        textwrap.fill(growth, width=100, initial_indent="   ", subsequent_indent="   "),
        "  (cold: cache_ttl=0 over 200 sessions; open, 1st ctx, 1st = first visit of each "
        "session, and peak RSS:",
        f"   a fresh process that opened the file and built {last['open']['contexts']:,} "
        "contexts, OS page cache warm; 1st ctx ms includes loading the tokenizer)",
    ]
    return lines


def table(r: dict[str, Any]) -> str:
    """The report as printed: absolute figures, ratios, targets, the sweep."""
    sections = [_header(r), _writes(r), _reads_section(r), _ratios(r), _targets(r)]
    if r["sweep"]:
        sections.append(_sweep(r))
    sections.append([f"total {r['elapsed_s']} s"])
    return "\n\n".join("\n".join(lines) for lines in sections)


def markdown(r: dict[str, Any], printed: str) -> str:
    m = r["machine"]
    packages = ", ".join(f"{k} {v}" for k, v in m["packages"].items())
    return (
        f"# localmem benchmarks ({m['mode']} mode)\n\n"
        f"`python benchmarks/run.py{' --quick' if m['mode'] == 'quick' else ''}` on {m['date']}; "
        f"{m['platform']}.\n\nPackages: {packages}.\n\n"
        "All figures are in `results.json`; the chart is `chart.png`.\n\n"
        f"```text\n{printed}\n```\n"
    )


def chart(r: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = 2 if r["sweep"] else 1
    fig, axes = plt.subplots(rows, 2, figsize=(14, 5.5 * rows), squeeze=False)
    ax_w, ax_r = axes[0]

    writes = [(k, w) for k, w in r["writes"].items() if w.get("status") == "ok"]
    labels = [f"{r['systems'][k]['label']}\n{_dur(w)}" for k, w in writes]
    y = range(len(writes))
    ax_w.barh(
        [i + 0.2 for i in y], [w["single"]["per_s"] for _, w in writes], 0.4, label="one per call"
    )
    ax_w.barh(
        [i - 0.2 for i in y], [w["batch"]["per_s"] for _, w in writes], 0.4, label="batches of 100"
    )
    ax_w.set_yticks(list(y), labels, fontsize=8)
    ax_w.invert_yaxis()
    ax_w.set_xscale("log")
    ax_w.set_xlabel("messages / s (log)")
    ax_w.set_title("Write throughput (higher is better)")
    ax_w.legend(fontsize=8)

    reads = _reads(r)
    y = range(len(reads))
    ax_r.barh([i - 0.2 for i in y], [x["p50_us"] for x in reads], 0.4, label="p50")
    ax_r.barh([i + 0.2 for i in y], [x["p99_us"] for x in reads], 0.4, label="p99")
    ax_r.set_yticks(list(y), [x["label"] for x in reads], fontsize=8)
    ax_r.invert_yaxis()
    ax_r.set_xscale("log")
    ax_r.set_xlabel("µs per call (log)")
    ax_r.set_title("Per-turn read latency (lower is better)")
    ax_r.legend(fontsize=8)

    if r["sweep"]:
        _sweep_chart(r["sweep"], *axes[1])

    m = r["machine"]
    fig.suptitle(
        f"localmem benchmarks ({m['mode']}) — python {m['python']}, sqlite {m['sqlite']}, "
        f"{m['cpu_count']} CPUs, {m['date']}",
        fontsize=10,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# (panel, label, style, figure of a sweep point): the lines of the sweep's two panels.
SWEEP_LINES = (
    ("latency", "cold build_context p50", "o-", lambda p: p["cold_context"]["p50_us"]),
    ("latency", "cold build_context p99", "o--", lambda p: p["cold_context"]["p99_us"]),
    ("latency", "first-visit build_context p50", "^-", lambda p: p["open"]["first_visit_p50_us"]),
    ("latency", "raw last-8 p50", "x:", lambda p: p["raw_last8"]["p50_us"]),
    ("latency", "open file (MemoryStore())", "s-", lambda p: p["open"]["open_ms"] * 1e3),
    ("writes", "add_message", "o-", lambda p: p["add_message"]["per_s"]),
    ("writes", "raw single-row commit", "x:", lambda p: p["raw_single"]["per_s"]),
)


def _sweep_chart(points: list[dict[str, Any]], ax_lat: Any, ax_w: Any) -> None:
    sizes = [p["messages"] for p in points]
    panels = {"latency": ax_lat, "writes": ax_w}
    for panel, label, style, get in SWEEP_LINES:
        panels[panel].plot(sizes, [get(p) for p in points], style, label=label)
    for ax, title, unit in (
        (ax_lat, "Scale sweep: latency (flat is good)", "µs"),
        (ax_w, "Scale sweep: one message per call (flat is good)", "messages / s"),
    ):
        ax.set_xscale("log")
        ax.set_ylim(bottom=0)
        ax.set_xlabel("messages in the file (log)")
        ax.set_ylabel(unit)
        ax.set_title(title)
        ax.legend(fontsize=8)
