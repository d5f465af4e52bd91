"""Earned trust per answer kind, measured on one file (issue 21 points 1 and 4): what would
the context show from a model if its summaries, checkpoint items and facts each reached the
context only once the model had earned trust for that kind *on this file*?

real_models_replay.py replays each conversation on a fresh file, so no model ever has a record
there. Here each model's recorded answers are replayed IN ORDER, as one user's file would
accumulate them, and its record per kind is kept across them:

- (A) one file: all 84 conversations in order: the base set (recorded order), then held-out
  sets 1..8 (each in recorded order);
- (B) one file per set: the base set, and each held-out set, on its own.

Each conversation is replayed once through the store (``item_trust.judge``: today's checks,
``model_trust="checked"``, each item's verdict as the store gave it). An answer's verdict, per
kind (``trust.kept_whole`` for the items: the reasons that count are
``trust.CLAIM_REASONS``'s reading of them, see there):

- summary: the store's own verdict (``Outcome.kept_whole``, read from the replayed file's
  ``model_verdicts``);
- checkpoint: whole when no item the model proposed beyond the rules' floor was rejected for a
  claim reason (``ModelCheckpoint.supported``'s reasons); an answer proposing nothing beyond the
  floor says nothing (no verdict);
- facts: the same over its key facts, decisions, entities, open questions, must-remember
  items and updates (``ModelFacts.grounded``, ``remember.must_remember``,
  ``remember.model_updates``); asked only beside a summary the checks kept (``facts_apart``
  off), so no verdict when it was not asked.

Policies: ``checked`` (today: every item the checks keep is shown), ``earned`` (the store's
rule, ``trust.earned``: >= 3 earlier verdicts, >= 0.8 of the newest 10 whole) and stricter
windows beside it. Per model and kind: verdicts whole / verdicts, the answer from which it
first earns trust (its index in the file; '-' never), and what the context would show from the
model: summaries good / bad, checkpoint items and facts true / false (by the labels, as
real_models_replay.py reads them; unlabelled ones are counted apart).

    python benchmarks/file_trust.py --sets 0-6        # tuning: the base set and sets 1-6
    python benchmarks/file_trust.py                   # all 84 and each set (validation: 7, 8)

Offline; a few minutes (each conversation replayed once per model). ``--cache`` keeps the
replayed verdicts in a JSON file so the tables can be printed again without replaying.
"""

from __future__ import annotations

import argparse
import json
import logging
import sqlite3
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import item_trust  # noqa: E402
import real_models_replay as replay  # noqa: E402

from localmem.summarizer.fallback import keyword_summary  # noqa: E402
from localmem.trust import earned, kept_whole  # noqa: E402
from tests.real_replay import RECORDINGS  # noqa: E402

MODELS = ("qwen2.5-coder:0.5b", "qwen2.5-coder:1.5b")
"""SmolLM2-135M is left out: the checks keep none of its answers (real_models_replay.py)."""
KINDS = ("summary", "checkpoint", "facts")
POLICIES: dict[str, dict[str, Any] | None] = {
    "checked": None,
    "earned": {},
    "earned 5 / 0.8": {"least": 5},
    "earned 3 / 1.0": {"share": 1.0},
    "earned, claims only": {"claims": True},
}
"""None: every answer the checks keep is shown; else ``trust.earned``'s keyword arguments
(``claims``: an item answer is whole when no item was dropped for a claim reason,
``item_trust.CLAIM``: invented, status, polarity, party; junk not counted)."""

Case = dict[str, Any]


def order(model: str) -> list[tuple[str, str]]:
    """(set, conversation) in the file's order: the base set, then held-out sets 1..8."""
    held = {c for names in replay.SETS.values() for c in names}
    recorded = list(RECORDINGS[model]["conversations"])
    out = [("0", c) for c in recorded if c not in held]
    for name, names in replay.SETS.items():
        out += [(name, c) for c in recorded if c in names]
    return out


def collect(models: Sequence[str], sets: set[str]) -> list[Case]:
    """Each conversation replayed once per model: its verdicts and what the checks kept."""
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for model in models:
            for n, (group, conversation) in enumerate(order(model)):
                if group not in sets:
                    continue
                path = Path(tmp) / f"{n}.db"
                items, facts, summary_kept, pairs, summary = item_trust.judge(model, conversation, path)
                with sqlite3.connect(path) as conn:
                    whole = [bool(w) for (w,) in conn.execute("SELECT kept_whole FROM model_verdicts")]
                raw = RECORDINGS[model]["conversations"][conversation]["summary"]["raw"]
                cases.append({
                    "model": model, "set": group, "conversation": conversation,
                    "summary": {
                        "whole": whole[0] if whole else None,
                        "kept": replay.summary_label(summary.text) if summary_kept else None,
                        "own": replay.summary_label(keyword_summary(pairs)),
                        "raw": replay.summary_label(raw),
                    },
                    "checkpoint": [list(j) for j in items],
                    "facts": [list(j) for j in facts if j[2] != "summary rejected"],
                })
    return cases


def verdict(case: Case, kind: str, claims: bool = False) -> bool | None:
    """The answer's verdict for ``kind`` (see the module docstring); None: no verdict.
    ``claims``: only a claim reason makes an item answer not whole."""
    if kind == "summary":
        return case["summary"]["whole"]
    judged = case[kind]
    if not judged:
        return None
    reasons = [why for _, _, why, _, _ in judged]
    return kept_whole([why if why in item_trust.CLAIM else None for why in reasons] if claims else reasons)


def shown(case: Case, kind: str) -> list[int]:
    """What the checks keep of the answer: [true, false, unlabelled] items, or for a summary
    [good, bad, 0] (the model's summary kept)."""
    if kind == "summary":
        label = case["summary"]["kept"]
        return [0, 0, 0] if label is None else [label == "faithful", label != "faithful", 0]
    kept = [label for _, _, why, k, label in case[kind] if k]
    return [sum(lbl is True for lbl in kept), sum(lbl is False for lbl in kept), sum(lbl is None for lbl in kept)]


def walk(cases: list[Case], kind: str, policy: dict[str, Any] | None) -> dict[str, Any]:
    """One file's cases in order under ``policy``: verdicts, when trust is first earned, and
    what the context shows from the model (by set)."""
    policy = dict(policy) if policy is not None else None
    claims = bool(policy.pop("claims", False)) if policy is not None else False
    record: list[bool] = []
    first = None
    by_set: dict[str, list[int]] = {}
    for n, case in enumerate(cases):
        trusted = policy is None or earned(record, **policy)
        if trusted and first is None:
            first = n
        counts = by_set.setdefault(case["set"], [0, 0, 0])
        if trusted:
            counts[:] = [a + b for a, b in zip(counts, shown(case, kind))]
        v = verdict(case, kind, claims)
        if v is not None:
            record.append(v)
    return {"verdicts": len(record), "whole": sum(record), "first": first, "by_set": by_set}


def table(cases: list[Case], files: dict[str, tuple[list[str], list[str]]], models: Sequence[str]) -> str:
    """The tables: ``files`` names each row's file (its sets, in order) and the sets whose
    answers the row counts."""
    lines = []
    for kind in KINDS:
        what = "model's summaries good / bad" if kind == "summary" else "true / false (unlabelled)"
        lines += [f"\n### {kind}: verdicts whole / verdicts; first earned at answer #; shown {what}\n"]
        head = "| model | file | verdicts whole | " + " | ".join(POLICIES) + " |"
        lines += [head, "|---|---|--:|" + "---|" * len(POLICIES)]
        for model in models:
            for name, (sets, counted) in files.items():
                mine = [c for c in cases if c["model"] == model and c["set"] in sets]
                if not mine:
                    continue
                cells = []
                whole = ""
                for policy in POLICIES.values():
                    r = walk(mine, kind, policy)
                    whole = f"{r['whole']}/{r['verdicts']}"
                    total = [sum(c[i] for s, c in r["by_set"].items() if s in counted) for i in range(3)]
                    first = "-" if r["first"] is None else str(r["first"] + 1)
                    shown_text = f"{total[0]} / {total[1]}" + (f" ({total[2]})" if total[2] else "")
                    cells.append(f"from #{first}: {shown_text}" if policy is not None else shown_text)
                lines.append(f"| {model} | {name} | {whole} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="0-8", help="which sets (0: the base set): 0-6 to tune, 0-8 for all")
    parser.add_argument("--cache", type=Path, help="read the replayed verdicts from (or write them to) this JSON file")
    parser.add_argument("--model", action="append", default=[])
    args = parser.parse_args()
    low, high = (int(x) for x in args.sets.split("-"))
    sets = {str(k) for k in range(low, high + 1)}
    models = args.model or list(MODELS)
    logging.getLogger("localmem").setLevel(logging.WARNING)
    if args.cache is not None and args.cache.exists():
        cases = [c for c in json.loads(args.cache.read_text()) if c["set"] in sets and c["model"] in models]
    else:
        cases = collect(models, sets)
        if args.cache is not None:
            args.cache.write_text(json.dumps(cases))
    names = sorted(sets)
    files = {f"(A) one file, sets {names[0]}-{names[-1]}": (names, names)}
    if "7" in sets or "8" in sets:
        files["(A) its answers of sets 0-6"] = (names, [s for s in names if int(s) <= 6])
        files["(A) its answers of sets 7-8"] = (names, [s for s in names if int(s) >= 7])
    files |= {f"(B) set {s} alone": ([s], [s]) for s in names}
    print(table(cases, files, models))


if __name__ == "__main__":
    main()
