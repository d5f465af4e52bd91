"""localmem's summarizer and checkpoints against real small local models.

Runs the real code a user runs (``Summarizer.summarize`` through ``OllamaBackend`` and the
real ``ollama`` client, ``MemoryStore.checkpoint`` on a real file) against real GGUF models
served by benchmarks/llama_server.py on loopback, on the twelve conversations of
benchmarks/real_conversations.py. Every raw model output is saved, with what localmem did
with it, to ``results/real_models/<model>.json``; the report judges them against the labels
written by reading them (``real_models_labels.json``):

- summaries accepted (stored with the model as source), good summaries rejected (the model's
  answer was a faithful summary, localmem stored its fallback), bad ones accepted (what was
  stored from the model is unfaithful or not a summary), and how many were completed with
  the span's safety facts;
- checkpoint items the model proposed, kept, and kept but false; checkpoints credited to
  the model;
- latency of each call.

    python benchmarks/real_models.py --model smollm2:135m=benchmarks/results/tmp/SmolLM2-135M-Instruct.Q4_1.gguf
    python benchmarks/real_models.py --report-only          # the table from saved outputs

Needs llama-cpp-python in the same environment (not part of the test suite).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from localmem import MemoryConfig, MemoryStore  # noqa: E402
from localmem.checkpoint import ModelCheckpoint, StateSnapshot, build  # noqa: E402
from localmem.extract import ITEM_CHARS, clip, extract  # noqa: E402
from localmem.summarizer import OllamaBackend, Summarizer  # noqa: E402
from localmem.tokens import Tokenizer  # noqa: E402
from real_conversations import CONVERSATIONS, pairs  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "real_models"
LABELS = ROOT / "benchmarks" / "real_models_labels.json"
SUMMARY_LABELS = ("faithful", "unfaithful", "not_a_summary")
LIST_FIELDS = ("active_goals", "pending_tasks", "key_decisions", "user_preferences")
FLOW_FIELDS = ("completed_steps", "next_steps")


def key(text: str) -> str:
    """The label key of an output: a hash of its exact text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def run(models: dict[str, Path], threads: int) -> None:
    from llama_server import LlamaOllama

    RESULTS.mkdir(parents=True, exist_ok=True)
    with LlamaOllama(models, threads=threads) as server, tempfile.TemporaryDirectory() as tmp:
        for name in models:
            backend = OllamaBackend(server.host)
            summarizer = Summarizer(backend, Tokenizer())
            runs = []
            for conversation in CONVERSATIONS:
                print(f"{name} · {conversation}", flush=True)
                runs.append(_one(server, summarizer, name, conversation, Path(tmp)))
            out = RESULTS / f"{name.replace(':', '_').replace('/', '_')}.json"
            out.write_text(json.dumps({"model": name, "runs": runs}, indent=2, ensure_ascii=False))
            print(f"saved {out.relative_to(ROOT)}")


class _Notes(logging.Handler):
    """What localmem logged during a call (reasons, never the conversation)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def _one(server: Any, summarizer: Summarizer, model: str, conversation: str, tmp: Path) -> dict:
    span = pairs(conversation)
    notes = _Notes()
    logging.getLogger("localmem").addHandler(notes)
    logging.getLogger("localmem").setLevel(logging.INFO)
    try:
        return _calls(server, summarizer, model, conversation, span, tmp, notes)
    finally:
        logging.getLogger("localmem").removeHandler(notes)


def _calls(
    server: Any, summarizer: Summarizer, model: str, conversation: str, span: list, tmp: Path, notes: _Notes
) -> dict:
    started = time.perf_counter()
    outcome = summarizer.summarize(span, model)
    summary_seconds = time.perf_counter() - started
    server.wait_idle()
    asked = server.log[-1]
    summary = {
        "raw": asked["text"],
        "done_reason": asked["done_reason"],
        "prompt_eval_count": asked["prompt_eval_count"],
        "eval_count": asked["eval_count"],
        "num_predict": asked["options"].get("num_predict"),
        "stored": outcome.text,
        "source": outcome.source,
        "reason": outcome.reason,
        "seconds": round(summary_seconds, 2),
    }
    config = MemoryConfig(structured_min_tokens=0, ollama_host=summarizer.backend.host)
    with MemoryStore(tmp / f"{conversation}-{model.replace(':', '_')}.db", config=config) as store:
        session = store.create_session(model=model)
        store.add_messages(session.id, [{"role": r, "text": t} for r, t in span])
        before = len(server.log)
        started = time.perf_counter()
        notes.lines.clear()
        taken = store.checkpoint(session.id)
        checkpoint_seconds = time.perf_counter() - started
        server.wait_idle()
        answer = server.log[-1] if len(server.log) > before else None
    floor = build(None, StateSnapshot(), extract(span))
    items = _model_items(answer["text"] if answer else "", floor, taken.data)
    checkpoint = {
        "raw": answer["text"] if answer else None,
        "done_reason": answer["done_reason"] if answer else None,
        "eval_count": answer["eval_count"] if answer else None,
        "generated_seconds": answer["seconds"] if answer else None,
        "notes": list(notes.lines),
        "source": taken.source,
        "stored": taken.data.model_dump(),
        "items": items,
        "seconds": round(checkpoint_seconds, 2),
    }
    return {"conversation": conversation, "summary": summary, "checkpoint": checkpoint}


def _model_items(raw: str, floor: Any, stored: Any) -> list[dict[str, Any]]:
    """Every item the model proposed, and whether the stored checkpoint kept it (an item
    the rules' floor holds already is not the model's)."""
    try:
        answer = ModelCheckpoint.model_validate_json(raw)
    except Exception:  # noqa: BLE001 - not JSON, or not a checkpoint: no items
        return []
    proposed: list[tuple[str, str]] = [(f, i) for f in LIST_FIELDS for i in getattr(answer, f)]
    flow = answer.workflow_state
    if flow.current_step:
        proposed.append(("current_step", flow.current_step))
    proposed += [(f, i) for f in FLOW_FIELDS for i in getattr(flow, f)]
    proposed += [(f"references.{k}", n) for k, names in answer.context_references.items() for n in names]
    out = []
    for field, item in proposed:
        text = clip(item, ITEM_CHARS)
        out.append(
            {
                "field": field,
                "text": item,
                "kept": text in _values(stored, field) and text not in _values(floor, field),
            }
        )
    return out


def _values(data: Any, field: str) -> list[str]:
    if field.startswith("references."):
        return list(getattr(data.context_references, field.split(".", 1)[1], []))
    if field == "current_step":
        return [data.workflow_state.current_step] if data.workflow_state.current_step else []
    if field in FLOW_FIELDS:
        return list(getattr(data.workflow_state, field))
    return list(getattr(data, field))


# --- the report -----------------------------------------------------------------------------


def report() -> str:
    labels = json.loads(LABELS.read_text()) if LABELS.exists() else {"summaries": {}, "items": {}}
    rows = []
    unlabeled = 0
    for path in sorted(RESULTS.glob("*.json")):
        data = json.loads(path.read_text())
        stats, missing = _stats(data["runs"], labels)
        unlabeled += missing
        rows.append((data["model"], stats))
    lines = [
        "| model | summaries accepted | accepted & faithful | completed with safety facts "
        "| good rejected | bad rejected (fallback stored) | bad accepted "
        "| checkpoint items proposed | kept | kept & false | JSON answers cut as loops "
        "| checkpoints by the model | summary s (p50 / max) | checkpoint s (p50 / max) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for model, s in rows:
        lines.append(
            f"| {model} | {s['accepted']}/{s['runs']} | {s['accepted_faithful']}/{s['runs']} "
            f"| {s['completed']} | {s['good_rejected']} | {s['bad_rejected']}/{s['bad']} "
            f"| {s['bad_accepted']} | {s['proposed']} | {s['kept']} | {s['kept_false']} "
            f"| {s['loops']} | {s['by_model']}/{s['runs']} "
            f"| {s['summary_p50']:.1f} / {s['summary_max']:.1f} "
            f"| {s['checkpoint_p50']:.1f} / {s['checkpoint_max']:.1f} |"
        )
    if unlabeled:
        lines.append(f"\n{unlabeled} outputs have no label yet (see {LABELS.name}).")
    return "\n".join(lines)


def _stats(runs: list[dict], labels: dict) -> tuple[dict[str, Any], int]:
    s: dict[str, Any] = dict.fromkeys(
        ("accepted", "accepted_faithful", "completed", "good_rejected", "bad_accepted",
         "bad", "bad_rejected", "proposed", "kept", "kept_false", "loops", "by_model"),
        0,
    )
    s["runs"] = len(runs)
    missing = 0

    def label(kind: str, text: str) -> Any:
        nonlocal missing
        entry = labels[kind].get(key(text))
        if entry is None:
            missing += 1
            return None
        return entry["label"]

    for run in runs:
        summary = run["summary"]
        raw_label = label("summaries", summary["raw"])
        if summary["source"] not in ("fallback", "offline"):
            s["accepted"] += 1
            s["completed"] += summary["reason"] is not None and "completed" in summary["reason"]
            stored_label = label("summaries", summary["stored"])
            if stored_label == "faithful":
                s["accepted_faithful"] += 1
            elif stored_label is not None:
                s["bad_accepted"] += 1
        elif raw_label == "faithful":
            s["good_rejected"] += 1
        if raw_label not in (None, "faithful"):
            s["bad"] += 1
            s["bad_rejected"] += summary["source"] in ("fallback", "offline")
        checkpoint = run["checkpoint"]
        s["loops"] += any("repeats itself" in note for note in checkpoint["notes"])
        s["by_model"] += checkpoint["source"] not in ("rules",)
        for item in checkpoint["items"]:
            s["proposed"] += 1
            if item["kept"]:
                s["kept"] += 1
                if label("items", f"{run['conversation']}|{item['text']}") is False:
                    s["kept_false"] += 1
    summary_times = [r["summary"]["seconds"] for r in runs] or [0.0]
    checkpoint_times = [r["checkpoint"]["seconds"] for r in runs] or [0.0]
    s.update(
        summary_p50=statistics.median(summary_times),
        summary_max=max(summary_times),
        checkpoint_p50=statistics.median(checkpoint_times),
        checkpoint_max=max(checkpoint_times),
    )
    return s, missing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", default=[], help="NAME=PATH.gguf")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args()
    if not args.report_only:
        if not args.model:
            raise SystemExit("give at least one --model NAME=PATH.gguf, or --report-only")
        models = {}
        for spec in args.model:
            name, _, path = spec.partition("=")
            models[name] = Path(path)
        run(models, args.threads)
    table = report()
    print(table)
    (ROOT / "benchmarks" / "results" / "real_models.md").write_text(table + "\n")


if __name__ == "__main__":
    main()
