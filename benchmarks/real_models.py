"""localmem's summaries, checkpoints and facts against real small local models.

Runs the path a user's store runs, ``MemoryStore.summarize`` on a real file through
``OllamaBackend`` and the real ``ollama`` client, against real GGUF models served by
benchmarks/llama_server.py on loopback, on the conversations of
benchmarks/real_conversations.py (each one range: ``summary_threshold`` is its length, and
``structured_min_tokens`` 0 so that the model is asked for the JSON parts too). That one call
makes every model call the store makes on a range: the checkpoint (JSON), the summary, and,
when the summary is the model's, the summary's facts (JSON, with ``must_remember`` and
``updates``: auto pins are on). When the store did not ask for the facts (it rejected the
summary), the benchmark asks the same request once more (``facts_messages``) so that every
conversation has a facts answer to label and replay.

Every call is saved with its exact request (system + input, options, format) and raw answer,
with what the store kept, to ``results/real_models/<model>.json``; the answers alone, in the
shape tests/test_real_outputs.py replays, to ``tests/data/<model>_outputs.json``. The report
judges them against the labels written by reading them (``real_models_labels.json``):

- summaries: good kept / good (the model's answer was faithful and the store kept it), bad
  kept (what the store kept from the model is unfaithful or not a summary), added-to (safety
  facts appended), and the fallback the store keeps instead;
- checkpoint items the model proposed, kept, and kept but false; facts items likewise;
- latency of each call (the server's time for the model, one thread).

    python benchmarks/real_models.py --model smollm2:135m=benchmarks/results/tmp/models/SmolLM2-135M-Instruct.Q4_1.gguf
    python benchmarks/real_models.py --model ... --conversation caregiver --resume
    python benchmarks/real_models.py --replay               # what today's code keeps of them
    python benchmarks/real_models.py --report-only          # the table from saved outputs

Needs llama-cpp-python in the same environment (not part of the test suite).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from localmem import MemoryConfig, MemoryStore  # noqa: E402
from localmem.checkpoint import StateSnapshot  # noqa: E402
from localmem.checkpoint import floor as rules_floor  # noqa: E402
from localmem.checkpoint_request import CHECKPOINT_SYSTEM_PROMPT  # noqa: E402
from localmem.extract import ITEM_CHARS, clip, extract  # noqa: E402
from localmem.facts import (  # noqa: E402
    FACTS_SYSTEM_PROMPT,
    MUST_REMEMBER_FACTS_SYSTEM_PROMPT,
    ModelFacts,
    facts_messages,
    rule_facts,
)
from localmem.model_checkpoint import ModelCheckpoint  # noqa: E402
from localmem.remember import model_updates, must_remember  # noqa: E402
from localmem.summarizer import OllamaBackend, Summarizer  # noqa: E402
from localmem.summarizer.fallback import keyword_summary, offline_summary  # noqa: E402
from localmem.testimony import user_evidence  # noqa: E402
from localmem.tokens import Tokenizer  # noqa: E402
from real_conversations import CONVERSATIONS, pairs  # noqa: E402
from real_models_report import LABELS, RESULTS, report  # noqa: E402

REPLAYS = ROOT / "tests" / "data"
LIST_FIELDS = ("active_goals", "pending_tasks", "key_decisions", "user_preferences")
FLOW_FIELDS = ("completed_steps", "next_steps")
FACT_FIELDS = ("key_facts", "decisions", "entities", "open_questions")
TIMEOUT = 900.0  # a 1.5B model on one shared core: slowness is measured, not failed


def slug(model: str) -> str:
    """The file name part of a model name: ``smollm2:135m`` -> ``smollm2_135m``."""
    return model.replace(":", "_").replace("/", "_").replace(".", "_").replace("-", "_")


def run(models: dict[str, Path], threads: int, only: list[str], resume: bool, extra_facts: bool,
        replay_file: bool = True) -> None:
    from llama_server import LlamaOllama

    RESULTS.mkdir(parents=True, exist_ok=True)
    with LlamaOllama(models, threads=threads) as server, tempfile.TemporaryDirectory() as tmp:
        for name, path in models.items():
            out = RESULTS / f"{slug(name)}.json"
            saved = json.loads(out.read_text()) if resume and out.exists() else {"runs": []}
            done = {r["conversation"]: r for r in saved["runs"]}
            recorded: set[str] = set()
            for conversation in CONVERSATIONS:
                if (only and conversation not in only) or conversation in done:
                    continue
                print(f"{name} · {conversation}", flush=True)
                done[conversation] = _one(server, name, conversation, Path(tmp), extra_facts)
                recorded.add(conversation)
                runs = [done[c] for c in CONVERSATIONS if c in done]
                data = {"model": name, "gguf": path.name, "threads": threads, "runs": runs}
                out.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
                if replay_file:
                    _write_replay(name, path, [done[c] for c in CONVERSATIONS if c in recorded])
            print(f"saved {out.relative_to(ROOT)}")


class _Notes(logging.Handler):
    """What localmem logged during a call (reasons, never the conversation)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def _one(server: Any, model: str, conversation: str, tmp: Path, extra_facts: bool = True) -> dict:
    notes = _Notes()
    logger = logging.getLogger("localmem")
    logger.addHandler(notes)
    logger.setLevel(logging.INFO)
    try:
        return _calls(server, model, conversation, tmp, notes, extra_facts)
    finally:
        logger.removeHandler(notes)


def _kind(call: dict[str, Any]) -> str:
    """Which of the store's requests a logged call was, by its system prompt."""
    system = call["messages"][0]["content"] if call["messages"] else ""
    if system == CHECKPOINT_SYSTEM_PROMPT:
        return "checkpoint"
    if system in (FACTS_SYSTEM_PROMPT, MUST_REMEMBER_FACTS_SYSTEM_PROMPT):
        return "facts"
    return "summary"


def _calls(server: Any, model: str, conversation: str, tmp: Path, notes: _Notes, extra_facts: bool) -> dict:
    span = pairs(conversation)
    settings = {"summary_threshold": len(span), "structured_min_tokens": 0, "auto_pins": True}
    config = MemoryConfig(ollama_host=server.host, ollama_timeout=TIMEOUT, **settings)
    with MemoryStore(tmp / f"{conversation}-{slug(model)}.db", config=config) as store:
        session = store.create_session(model=model).id
        store.add_messages(session, [{"role": r, "text": t} for r, t in span])
        pins_before = {p.content for p in store.get_pins(session)}
        before = len(server.log)
        notes.lines.clear()
        started = time.perf_counter()
        summary = store.summarize(session)
        seconds = time.perf_counter() - started
        server.wait_idle()
        calls = [dict(c, kind=_kind(c)) for c in server.log[before:]]
        taken = store.latest_checkpoint(session)
        (facts,) = store.get_summary_facts(session)
        pins_after = [p.content for p in store.get_pins(session)]
    assert summary is not None and taken is not None
    by_kind = {c["kind"]: c for c in calls}
    stored_notes = list(notes.lines)
    if "facts" not in by_kind and extra_facts:  # the store rejected the summary: ask as it would have
        request = facts_messages(span, must_remember=True)
        summarizer = Summarizer(OllamaBackend(server.host, timeout=TIMEOUT), Tokenizer())
        summarizer.ask_json(request, model, ModelFacts)
        server.wait_idle()
        by_kind["facts"] = dict(server.log[-1], kind="facts", asked_by="benchmark")
        calls.append(by_kind["facts"])
    answer, summary_call, facts_call = by_kind.get("checkpoint"), by_kind["summary"], by_kind.get("facts")
    floor = rules_floor(None, StateSnapshot(), span)
    new_pins = [p for p in pins_after if p not in pins_before]
    return {
        "conversation": conversation,
        "config": settings,
        "calls": calls,
        "notes": stored_notes,
        "seconds": round(seconds, 2),
        "summary": {
            "raw": summary_call["text"],
            "done_reason": summary_call["done_reason"],
            "prompt_eval_count": summary_call["prompt_eval_count"],
            "eval_count": summary_call["eval_count"],
            "num_predict": summary_call["options"].get("num_predict"),
            "stored": summary.text,
            "source": summary.source,
            "reason": _summary_reason(stored_notes, summary_call["text"], summary.text, summary.source),
            "seconds": summary_call["seconds"],
        },
        "checkpoint": {
            "raw": answer["text"] if answer else None,
            "done_reason": answer["done_reason"] if answer else None,
            "eval_count": answer["eval_count"] if answer else None,
            "notes": stored_notes,
            "source": taken.source,
            "stored": taken.data.model_dump(),
            "items": _model_items(answer["text"] if answer else "", floor, taken.data),
            "seconds": answer["seconds"] if answer else None,
        },
        "facts": _facts_part(facts_call, span, facts.source, facts.data, new_pins),
        "fallback": keyword_summary(span),
        "offline": offline_summary(span),
    }


def _facts_part(call: dict | None, span: list, source: str, stored: Any, new_pins: list[str]) -> dict:
    """The facts call: its answer, who asked, what the store kept (not asked: nothing)."""
    if call is None:  # the store did not ask, and neither did the benchmark (--store-calls-only)
        return {"raw": None, "done_reason": None, "eval_count": None, "asked_by": None, "items": []}
    return {
        "raw": call["text"],
        "done_reason": call["done_reason"],
        "eval_count": call["eval_count"],
        "asked_by": call.get("asked_by", "store"),
        "source": source,
        "stored": stored.model_dump(),
        "pins_added": new_pins,
        "items": _fact_items(call, span, stored, new_pins),
        "seconds": call["seconds"],
    }


def _summary_reason(notes: list[str], raw: str, stored: str, source: str) -> str | None:
    """Why the store kept what it kept: its logged reason for a rejection, or, for a kept
    summary that holds text the model's answer does not, that it was completed."""
    for line in notes:
        if "summary rejected:" in line or "summary drops" in line or "prompt cut" in line:
            return line.split(": ", 1)[-1] if "rejected:" in line else line
    if source not in ("fallback", "offline") and stored not in raw:
        return "completed with the span's safety-relevant facts"
    return None


def _model_items(raw: str, floor: Any, stored: Any) -> list[dict[str, Any]]:
    """Every checkpoint item the model proposed, and whether the stored checkpoint kept it
    (an item the rules' floor holds already is not the model's)."""
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
        kept = text in _values(stored, field) and text not in _values(floor, field)
        out.append({"field": field, "text": item, "kept": kept})
    return out


def _values(data: Any, field: str) -> list[str]:
    if field.startswith("references."):
        return list(getattr(data.context_references, field.split(".", 1)[1], []))
    if field == "current_step":
        return [data.workflow_state.current_step] if data.workflow_state.current_step else []
    if field in FLOW_FIELDS:
        return list(getattr(data.workflow_state, field))
    return list(getattr(data, field))


def _fact_items(call: dict, span: list, stored: Any, new_pins: list[str]) -> list[dict[str, Any]]:
    """Every facts item the model proposed; ``kept``: the store kept it (None when the store
    never asked), ``passes``: today's checks would keep it (``ModelFacts.grounded``,
    ``must_remember``, ``model_updates``), whichever path asked."""
    try:
        answer = ModelFacts.model_validate_json(call["text"])
    except Exception:  # noqa: BLE001 - not JSON, or not facts: no items
        return []
    asked = call.get("asked_by", "store") == "store"
    rules = rule_facts(extract(span))
    said = user_evidence(span)
    grounded = answer.grounded(span, [old for _, old in model_updates(answer, said)])
    pinned = must_remember(answer, said)
    updated = dict(model_updates(answer, said))
    out: list[dict[str, Any]] = []
    for field in FACT_FIELDS:
        for item in getattr(answer, field):
            text = clip(item, ITEM_CHARS)
            mine = text not in getattr(rules, field)
            passes = text in getattr(grounded, field) and mine
            kept = (text in getattr(stored, field) and mine) if asked else None
            out.append({"field": field, "text": item, "passes": passes, "kept": kept})
    for item in answer.must_remember:
        text = clip(item, ITEM_CHARS)
        kept = text in new_pins if asked else None
        out.append({"field": "must_remember", "text": item, "passes": text in pinned, "kept": kept})
    for new, old in answer.updates:
        text = clip(new, ITEM_CHARS)
        kept = text in new_pins if asked else None
        out.append({"field": "updates", "text": new, "old": old, "passes": text in updated, "kept": kept})
    return out


class _Recorded:
    """A loopback server answering every request with the answer a run recorded (the fake
    Ollama server of the tests), logged as llama_server logs: ``--replay`` reruns the store on
    the saved answers, so that what it keeps is today's code's, without a model."""

    def __init__(self, fake: Any, run: dict) -> None:
        self.fake, self.host = fake, fake.host
        self.calls = {c["kind"]: c for c in run["calls"]}

    @property
    def log(self) -> list[dict[str, Any]]:
        from tests.real_replay import request_kind

        out = []
        for _, path, body in self.fake.requests:
            if path == "/api/chat":
                call = self.calls.get(request_kind(body), {})
                answer = {"text": self.fake.reply_text(body), "done_reason": call.get("done_reason")}
                counts = {k: call.get(k) for k in ("prompt_eval_count", "eval_count", "seconds")}
                out.append(dict(body, options=body.get("options") or {}, **answer, **counts))
        return out

    def wait_idle(self) -> None:
        """Answers are immediate."""


def replay() -> None:
    """Rerun the store on every saved run's answers (``--replay``): the requests, answers and
    latencies stay the live run's, what the store kept becomes today's code's."""
    import subprocess

    from tests.real_replay import Replay

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    for path in sorted(RESULTS.glob("*.json")):
        data = json.loads(path.read_text())
        runs = []
        for live in data["runs"]:
            with Replay(models=[data["model"]]) as fake, tempfile.TemporaryDirectory() as tmp:
                fake.recorded = {part: live[part] for part in ("checkpoint", "summary", "facts")}
                again = _one(_Recorded(fake, live), data["model"], live["conversation"], Path(tmp),
                             extra_facts=live["facts"]["asked_by"] == "benchmark")
            again.update(calls=live["calls"], seconds=live["seconds"])
            for part in ("checkpoint", "summary", "facts"):
                if "seconds" in live[part]:
                    again[part]["seconds"] = live[part]["seconds"]
            runs.append(again)
        data.update(runs=runs, judged_on=commit.stdout.strip())
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        print(f"replayed {path.relative_to(ROOT)} on {data['judged_on']}")


def _write_replay(model: str, path: Path, runs: list[dict]) -> None:
    """The answers alone, as tests/test_real_outputs.py replays them: the file's other
    conversations stay as they were recorded (the tests quote them), ``runs`` are added or
    replace theirs."""
    out = REPLAYS / f"{slug(model)}_outputs.json"
    kept = json.loads(out.read_text())["conversations"] if out.exists() else {}
    replay = {
        "about": (
            f"Real outputs of {path.name} (llama-cpp-python behind benchmarks/llama_server.py, one "
            "thread, temperature and seed as localmem sends them), recorded by "
            "benchmarks/real_models.py through MemoryStore.summarize on the conversations of "
            "benchmarks/real_conversations.py; replayed by tests/test_real_outputs.py. Labels: "
            "benchmarks/real_models_labels.json and, for the held-out conversations, "
            "benchmarks/real_models_labels_heldout.json."
        ),
        "model": model,
        "conversations": kept | {
            r["conversation"]: {
                "messages": pairs(r["conversation"]),
                "config": r["config"],
                **{
                    part: {
                        k: r[part][k]
                        for k in ("raw", "done_reason", "eval_count", "num_predict", "asked_by")
                        if k in r[part]
                    }
                    for part in ("summary", "checkpoint", "facts")
                },
            }
            for r in runs
        },
    }
    out.write_text(json.dumps(replay, indent=1, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", default=[], help="NAME=PATH.gguf")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--conversation", action="append", default=[], help="only these")
    parser.add_argument("--resume", action="store_true", help="keep the saved runs, add the rest")
    parser.add_argument(
        "--store-calls-only",
        action="store_true",
        help="no facts call of the benchmark's own where the store asked none (a slow model)",
    )
    parser.add_argument(
        "--results-only",
        action="store_true",
        help="save to results/ only, not to tests/data (where the tests quote an older recording)",
    )
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument(
        "--replay", action="store_true", help="judge the saved answers again on today's code (no model)"
    )
    args = parser.parse_args()
    if args.replay:
        replay()
    elif not args.report_only:
        if not args.model:
            raise SystemExit("give at least one --model NAME=PATH.gguf, or --report-only")
        models = {}
        for spec in args.model:
            name, _, path = spec.partition("=")
            models[name] = Path(path)
        run(models, args.threads, args.conversation, args.resume, not args.store_calls_only, not args.results_only)
    table = report()
    print(table)
    (ROOT / "benchmarks" / "results" / "real_models.md").write_text(table + "\n")
    print(f"labels: {LABELS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
