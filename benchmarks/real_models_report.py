"""The table of benchmarks/real_models.py: saved real-model outputs judged against labels.

``real_models_labels.json`` (and ``real_models_labels_heldout.json``,
``real_models_labels_heldout2.json``, ``real_models_labels_heldout3.json``,
``real_models_labels_heldout4.json``, ``real_models_labels_heldout5.json``, ``real_models_labels_heldout6.json``,
``real_models_labels_heldout7.json``, ``real_models_labels_heldout8.json``, ``real_models_labels_heldout9.json``, ``real_models_labels_heldout10.json``, ``real_models_labels_heldout11.json`` for the eleven held-out sets, same schema, read together: ``tests.real_replay.load_labels``) holds a label
for every output, written by reading it against its conversation, keyed by :func:`key`:

- ``summaries`` (key: the exact text): ``faithful`` / ``unfaithful`` / ``not_a_summary``, a
  one-line ``why``, and ``flags`` (``drops_warning``: a warning the conversation gave is not
  in it; ``plan_as_done``, ``reversed``, ``invented``, ``copy``). The store's fallback and
  offline summaries are labelled the same way (``model``: ``fallback`` / ``offline``);
- ``items`` (key: ``conversation|field|text``): a checkpoint item the model proposed, true or
  false where it was put (a plan is true as a next step, false as a completed one);
- ``facts`` (key: ``conversation|field|text``): a facts item (key facts, decisions, entities,
  open questions, must-remember, and updates as ``new <- old``), true or false: an update is
  true when its new side is the user's current fact and its old side what it replaces.

Items are keyed by their text as the store keeps it (``clip(text, ITEM_CHARS)``).

A row per model: good summaries kept of the good ones, bad ones kept, false checkpoint and
facts items kept, how the fallbacks the store kept instead read, and the latency (p50).
"""

from __future__ import annotations

import hashlib
import json
import statistics
from pathlib import Path
from typing import Any

from localmem.extract import ITEM_CHARS, clip

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "real_models"
LABELS = ROOT / "benchmarks" / "real_models_labels.json"  # and the held-out file beside it
SUMMARY_LABELS = ("faithful", "unfaithful", "not_a_summary")
MODEL_ORDER = ("smollm2:135m", "qwen2.5-coder:0.5b", "qwen2.5-coder:1.5b")


def key(text: str) -> str:
    """The label key of an output: a hash of its exact text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def item_key(conversation: str, field: str, text: str) -> str:
    """The label key of a checkpoint or facts item, as the store keeps it (clipped): where
    it was put matters."""
    return key(f"{conversation}|{field}|{clip(text, ITEM_CHARS)}")


class _Labels:
    """The labels, counting the outputs that have none."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.missing: list[str] = []

    def summary(self, text: str, where: str) -> dict[str, Any] | None:
        entry = self.data.get("summaries", {}).get(key(text))
        if entry is None:
            self.missing.append(f"summary {key(text)} ({where})")
        return entry

    def item(self, kind: str, conversation: str, field: str, text: str) -> bool | None:
        entry = self.data.get(kind, {}).get(item_key(conversation, field, text))
        if entry is None:
            self.missing.append(f"{kind} {item_key(conversation, field, text)} ({conversation}: {text[:40]})")
            return None
        return bool(entry["label"])


def report() -> str:
    from tests.real_replay import load_labels

    labels = _Labels(load_labels())
    files = {json.loads(p.read_text())["model"]: p for p in sorted(RESULTS.glob("*.json"))}
    order = [m for m in MODEL_ORDER if m in files] + [m for m in files if m not in MODEL_ORDER]
    rows = [(m, _stats(json.loads(files[m].read_text())["runs"], labels)) for m in order]
    lines = [
        "| model | conversations | good summaries kept / good | bad kept / bad | kept without a warning "
        "| completed | fallbacks stored (faithful) | checkpoint items proposed / kept / kept & false "
        "| facts items proposed / kept / kept & false (pass today's checks / & false) "
        "| summary s p50 | checkpoint s p50 | facts s p50 |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for model, s in rows:
        lines.append(
            f"| {model} | {s['runs']} | {s['good_kept']}/{s['good']} | {s['bad_kept']}/{s['bad']} "
            f"| {s['kept_no_warning']} | {s['completed']} | {s['fallbacks']} ({s['fallbacks_faithful']}) "
            f"| {s['proposed']} / {s['kept']} / {s['kept_false']} "
            f"| {s['f_proposed']} / {s['f_kept']} / {s['f_kept_false']} "
            f"({s['f_pass']} / {s['f_pass_false']}) "
            f"| {s['summary_p50']:.1f} | {s['checkpoint_p50']:.1f} | {s['facts_p50']:.1f} |"
        )
    every = {r["conversation"]: r for m in order for r in json.loads(files[m].read_text())["runs"]}
    lines += ["", _fallbacks(list(every.values()), labels)]
    if labels.missing:
        lines.append(f"\n{len(labels.missing)} outputs have no label yet ({LABELS.name}):")
        lines += [f"- {m}" for m in labels.missing[:40]]
    return "\n".join(lines)


def _fallbacks(runs: Any, labels: _Labels) -> str:
    """How the store's own summaries read, per conversation (the same for every model)."""
    if not runs:
        return ""
    counts: dict[str, dict[str, int]] = {"fallback": {}, "offline": {}}
    for run in runs:
        for kind in counts:
            entry = labels.summary(run[kind], f"{kind} {run['conversation']}")
            label = entry["label"] if entry else "unlabelled"
            counts[kind][label] = counts[kind].get(label, 0) + 1
    return (
        f"The store's own summaries of the {len(runs)} conversations: fallback (kept when a model's "
        f"summary is rejected) {_counts(counts['fallback'])}; offline (no model) {_counts(counts['offline'])}."
    )


def _counts(found: dict[str, int]) -> str:
    return ", ".join(f"{n} {label}" for label, n in sorted(found.items())) or "none"


def _fact_text(item: dict[str, Any]) -> str:
    """A facts item's labelled text: an update is judged whole, ``new <- old``."""
    return f"{item['text']} <- {item['old']}" if "old" in item else item["text"]


def _stats(runs: list[dict], labels: _Labels) -> dict[str, Any]:
    names = (
        "good good_kept bad bad_kept kept_no_warning completed fallbacks fallbacks_faithful "
        "proposed kept kept_false f_proposed f_kept f_kept_false f_pass f_pass_false"
    )
    s: dict[str, Any] = dict.fromkeys(names.split(), 0)
    s["runs"] = len(runs)
    for run in runs:
        conversation, summary = run["conversation"], run["summary"]
        raw = labels.summary(summary["raw"], f"{conversation} raw")
        model_kept = summary["source"] not in ("fallback", "offline")
        if raw is not None and raw["label"] == "faithful":
            s["good"] += 1
        elif raw is not None:
            s["bad"] += 1
        if model_kept:
            stored = labels.summary(summary["stored"], f"{conversation} stored")
            s["completed"] += summary["reason"] is not None and "completed" in summary["reason"]
            if stored is not None and stored["label"] == "faithful":
                s["good_kept"] += raw is not None and raw["label"] == "faithful"
            elif stored is not None:
                s["bad_kept"] += 1
            s["kept_no_warning"] += stored is not None and "drops_warning" in stored.get("flags", [])
        else:
            s["fallbacks"] += 1
            entry = labels.summary(summary["stored"], f"{conversation} fallback")
            s["fallbacks_faithful"] += entry is not None and entry["label"] == "faithful"
        for item in run["checkpoint"]["items"]:
            s["proposed"] += 1
            if item["kept"]:
                s["kept"] += 1
                s["kept_false"] += labels.item("items", conversation, item["field"], item["text"]) is False
        for item in run["facts"]["items"]:
            s["f_proposed"] += 1
            truth = None
            if item["kept"] or item["passes"]:
                truth = labels.item("facts", conversation, item["field"], _fact_text(item))
            if item["kept"]:
                s["f_kept"] += 1
                s["f_kept_false"] += truth is False
            if item["passes"]:
                s["f_pass"] += 1
                s["f_pass_false"] += truth is False

    def p50(part: str) -> float:
        times = [r[part]["seconds"] for r in runs if r[part].get("seconds") is not None]
        return statistics.median(times) if times else 0.0

    s.update(summary_p50=p50("summary"), checkpoint_p50=p50("checkpoint"), facts_p50=p50("facts"))
    return s
