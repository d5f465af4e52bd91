"""The real-model table on today's code: every recorded answer replayed through the store.

benchmarks/real_models.py records what real small models answered (``tests/data/*_outputs.json``)
and judges what the store kept *then*. This replays those same answers through the fake Ollama
server (tests/ollama_server.py) to the real ``ollama`` client and a real store, as
tests/test_real_outputs.py does, and judges what the store keeps *now* against the labels
(benchmarks/real_models_labels.json), per model:

- summaries: good kept / good (the model's answer was faithful and what the store kept of it
  is), bad kept (what the store kept from the model is not faithful), unlabelled kept texts;
- checkpoint items the model proposed beyond the rules' floor: kept, kept and false, and the
  true ones kept of the true ones proposed (so that 0 false is not bought by dropping all);
- the summary's facts and the pins the model proposed (its must-remember items, the new side
  of its updates) beyond the rules' own facts: kept, kept and false, true kept of true proposed;
- the store's own summaries (the keyword fallback and the offline summary) by their labels;
- what a context shows as the conversation's summary, with ``model_trust="checked"`` and
  with ``"earned"`` (the default; each conversation replayed a second time on a fresh file):
  the model's summaries shown, good / bad, and the store's own shown, faithful / not /
  unlabelled; and under ``"earned"`` the model's checkpoint items the context shows beyond
  the rules' floor (not labelled false / false) and its facts and pins the file keeps
  (true / false).

The figures above are the checks' (``model_trust="checked"``: every summary that passes
them is stored as the model's), so they stay comparable with earlier stops. Each replay is a
fresh file per conversation, so under "earned" no model ever has a record when its answers
are stored (three earlier answers of the kind in the same file are needed): the context shows
the store's own summary, the rules' checkpoint and the rules' facts everywhere
(benchmarks/file_trust.py measures one file of 84 in order: no small model earns any kind
there either). That is the policy's point on these models, not an accident of the
replay; a file where a model's answers are kept whole earns it (tests/test_earned.py).

    python benchmarks/real_models_replay.py                    # every recorded model
    python benchmarks/real_models_replay.py --model qwen2.5-coder:0.5b --details
    python benchmarks/real_models_replay.py --held-out         # only the held-out conversations
    python benchmarks/real_models_replay.py --held-out 2       # only the second held-out set
    python benchmarks/real_models_replay.py --held-out 3       # only the third held-out set
    python benchmarks/real_models_replay.py --held-out 4       # only the fourth held-out set
    python benchmarks/real_models_replay.py --held-out 5       # only the fifth held-out set
    python benchmarks/real_models_replay.py --held-out 6       # only the sixth held-out set
    python benchmarks/real_models_replay.py --held-out 7       # only the seventh held-out set
    python benchmarks/real_models_replay.py --dev              # the base conversations and sets 1-6
    python benchmarks/real_models_replay.py --held-out 7 --figures   # the table only, no line read
    python benchmarks/real_models_replay.py --facts-apart      # facts asked beside a rejected summary too
    python benchmarks/real_models_replay.py --held-out 8       # only the eighth held-out set
    python benchmarks/real_models_replay.py --held-out 9       # only the ninth held-out set (six)
    python benchmarks/real_models_replay.py --held-out 10      # only the tenth held-out set (six)
    python benchmarks/real_models_replay.py --held-out 11      # only the eleventh held-out set (six)

Offline and fast (a few seconds a model); needs the test extra (the fake server).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from localmem import MemoryConfig, MemoryStore  # noqa: E402
from localmem.checkpoint import StateSnapshot  # noqa: E402
from localmem.checkpoint import floor as rules_floor  # noqa: E402
from localmem.extract import ITEM_CHARS, clip, extract  # noqa: E402
from localmem.facts import ModelFacts, rule_facts  # noqa: E402
from localmem.model_checkpoint import ModelCheckpoint  # noqa: E402
from localmem.summarizer import FALLBACK, OFFLINE  # noqa: E402
from localmem.summarizer.fallback import keyword_summary, offline_summary  # noqa: E402
from tests.real_replay import (  # noqa: E402
    KINDS,
    LABELS,
    RECORDINGS,
    Replay,
    checkpoint_items,
    facts_items,
    item_label,
    label_key,
)

from real_conversations import (  # noqa: E402
    HELD_OUT,
    HELD_OUT_2,
    HELD_OUT_3,
    HELD_OUT_4,
    HELD_OUT_5,
    HELD_OUT_6,
    HELD_OUT_7,
    HELD_OUT_8,
    HELD_OUT_9,
    HELD_OUT_10,
    HELD_OUT_11,
)

SETS = {
    "1": HELD_OUT, "2": HELD_OUT_2, "3": HELD_OUT_3, "4": HELD_OUT_4, "5": HELD_OUT_5, "6": HELD_OUT_6, "7": HELD_OUT_7,
    "8": HELD_OUT_8, "9": HELD_OUT_9, "10": HELD_OUT_10, "11": HELD_OUT_11,
}
"""The held-out sets ``--held-out`` names: the first (six), the second, the third, the fourth, the fifth, the sixth, the
seventh and the eighth (eight each), and the ninth, the tenth and the eleventh (six each)."""

DEV_SETS = 6
"""The held-out sets rules are developed on (with the base conversations); the later ones are
validation: replayed once with ``--figures`` after the rules are fixed."""

MODEL_ORDER = ("smollm2:135m", "qwen2.5-coder:0.5b", "qwen2.5-coder:1.5b")


@dataclass
class Row:
    """One model's figures (see the module docstring)."""

    runs: int = 0
    good: int = 0
    good_kept: int = 0
    bad: int = 0
    bad_kept: int = 0
    completed: int = 0
    proposed: int = 0
    kept: int = 0
    kept_false: int = 0
    true_proposed: int = 0
    true_kept: int = 0
    facts_kept: int = 0
    facts_false: int = 0
    facts_true: int = 0
    facts_true_kept: int = 0
    shown: dict[str, list[int]] = field(default_factory=lambda: {"checked": [0, 0, 0, 0, 0], "earned": [0, 0, 0, 0, 0]})
    """By policy, what the context shows as the summary: the model's (good, bad), the
    store's own (faithful, not, unlabelled)."""
    earned_items: list[int] = field(default_factory=lambda: [0, 0])
    """Under "earned" (the default), the model's checkpoint items the context shows: not labelled false, false."""
    earned_facts: list[int] = field(default_factory=lambda: [0, 0])
    """Under "earned", the model's facts and pins the file keeps: true, false."""
    notes: list[str] = field(default_factory=list)


def summary_label(text: str) -> str:
    entry = LABELS["summaries"].get(label_key(text))
    return "unlabelled" if entry is None else str(entry["label"])


OPTIONS: dict[str, Any] = {"model_trust": "checked"}
"""MemoryConfig options every replay adds to the recorded configuration (``--facts-apart``);
the checks' view: every summary that passes them is the model's."""


def replay_one(
    db: Path, model: str, conversation: str, **options: Any
) -> tuple[Any, Any, list[tuple[str, str]], Any, list[str]]:
    """The store's summary, checkpoint, messages, summary facts and the pins the summary
    added, for one recorded conversation (the facts answer, when none was recorded, is
    empty: the rules' facts). ``options`` override :data:`OPTIONS`."""
    recorded = RECORDINGS[model]["conversations"][conversation]
    pairs = [(role, text) for role, text in recorded["messages"]]
    empty = {"raw": "", "done_reason": "stop"}
    config = recorded.get("config") or {"summary_threshold": len(pairs), "structured_min_tokens": 0}
    config = {**config, **OPTIONS, **options}
    with Replay(models=[model]) as server:
        server.recorded = {kind: recorded.get(kind) or empty for kind in KINDS}
        with MemoryStore(db, config=MemoryConfig(ollama_host=server.host, **config)) as store:
            session = store.create_session(model=model, title=conversation).id
            store.add_messages(session, [{"role": r, "text": t} for r, t in pairs])
            before = {p.content for p in store.get_pins(session)}
            summary = store.summarize(session)
            checkpoint = store.latest_checkpoint(session)
            facts = store.get_summary_facts(session)
            pins = [p.content for p in store.get_pins(session) if p.content not in before]
    assert summary is not None and checkpoint is not None
    return summary, checkpoint, pairs, facts[0].data if facts else None, pins


def judge(model: str, details: bool, only: tuple[str, ...] | None = None) -> Row:
    row = Row()
    conversations = {c: r for c, r in RECORDINGS[model]["conversations"].items() if only is None or c in only}
    with tempfile.TemporaryDirectory() as tmp:
        for n, conversation in enumerate(conversations):
            recorded = conversations[conversation]
            summary, checkpoint, pairs, facts, pins = replay_one(Path(tmp) / f"{n}.db", model, conversation)
            row.runs += 1
            raw = summary_label(recorded["summary"]["raw"])
            row.good += raw == "faithful"
            row.bad += raw != "faithful"
            if summary.source not in (FALLBACK, OFFLINE):
                stored = summary_label(summary.text)
                row.good_kept += raw == "faithful" and stored == "faithful"
                row.bad_kept += stored != "faithful"
                row.completed += summary.text not in recorded["summary"]["raw"]
                if stored != "faithful" or details:
                    row.notes.append(f"{conversation}: summary kept ({stored}): {summary.text!r}")
            elif details and raw == "faithful":
                row.notes.append(f"{conversation}: good summary rejected: {recorded['summary']['raw']!r}")
            _items(row, conversation, recorded, checkpoint, pairs, details)
            _facts(row, conversation, recorded, facts, pins, pairs, details)
            _shown(row, "checked", summary)
            earned = replay_one(Path(tmp) / f"{n}e.db", model, conversation, model_trust="earned")
            _shown(row, "earned", earned[0])
            context = Row()  # what the context shows under "earned", judged as above
            _items(context, conversation, recorded, earned[1], pairs, False)
            _facts(context, conversation, recorded, earned[3], earned[4], pairs, False)
            row.earned_items = [row.earned_items[0] + context.kept - context.kept_false,
                                row.earned_items[1] + context.kept_false]
            row.earned_facts = [row.earned_facts[0] + context.facts_true_kept, row.earned_facts[1] + context.facts_false]
    return row


def _shown(row: Row, policy: str, shown: Any) -> None:
    """What the context shows as the conversation's summary under ``policy``."""
    label = summary_label(shown.text)
    counts = row.shown[policy]
    if shown.source not in (FALLBACK, OFFLINE):
        counts[0 if label == "faithful" else 1] += 1
    else:
        counts[2 if label == "faithful" else 4 if label == "unlabelled" else 3] += 1


def _facts(row: Row, conversation: str, recorded: dict, facts: Any, pins: list[str], pairs: list,
           details: bool) -> None:
    """The model's facts and pins beyond the rules' facts, judged by the labels (a pin by
    its label as a must-remember item or as the new side of an update)."""
    try:
        answer = ModelFacts.model_validate_json((recorded.get("facts") or {}).get("raw") or "")
    except Exception:  # noqa: BLE001 - not facts: nothing proposed
        return
    rules = set(facts_items(rule_facts(extract(pairs), [text for _, text in pairs])))
    proposed = {(f, clip(i, ITEM_CHARS)) for f, i in facts_items(answer)} - rules
    proposed |= {("must_remember", clip(i, ITEM_CHARS)) for i in answer.must_remember}
    proposed |= {("updates", f"{clip(new, ITEM_CHARS)} <- {old}") for new, old in answer.updates}
    true = {item for item in proposed if item_label("facts", conversation, *item)}
    kept = [item for item in facts_items(facts) if item not in rules] if facts is not None else []
    pinned = {p: [item for item in sorted(proposed) if item[0] in ("must_remember", "updates")
                  and (item[1] == p or item[1].startswith(f"{p} <- "))] for p in pins}
    kept += [found[0] for found in pinned.values() if found]
    row.facts_true += len(true)
    for item in kept:
        label = item_label("facts", conversation, *item)
        row.facts_kept += 1
        row.facts_false += label is False
        row.facts_true_kept += bool(label) and item in true
        if label is not True:
            row.notes.append(f"{conversation}: {'FALSE' if label is False else 'unlabelled'} fact kept: {item}")
    if details:
        for item in sorted(true - set(kept)):
            row.notes.append(f"{conversation}: true fact dropped: {item}")


def _items(row: Row, conversation: str, recorded: dict, checkpoint: Any, pairs: list, details: bool) -> None:
    floor = set(checkpoint_items(rules_floor(None, StateSnapshot(), pairs)))
    try:
        answer = ModelCheckpoint.model_validate_json((recorded.get("checkpoint") or {}).get("raw") or "")
    except Exception:  # noqa: BLE001 - not a checkpoint: nothing proposed
        answer = None
    proposed = set(_proposed(answer)) - floor if answer is not None else set()
    mine = [item for item in checkpoint_items(checkpoint.data) if item not in floor]
    true_texts = {text for f, text in proposed if item_label("items", conversation, f, text)}
    row.proposed += len(proposed)
    row.true_proposed += len(true_texts)
    kept_true: set[str] = set()
    for f, text in mine:
        label = item_label("items", conversation, f, clip(text, ITEM_CHARS))
        row.kept += 1
        if label is False:
            row.kept_false += 1
            row.notes.append(f"{conversation}: FALSE item kept: {f}: {text!r}")
        elif label is None:
            row.notes.append(f"{conversation}: unlabelled item kept: {f}: {text!r}")
        else:
            kept_true.add(text)
    row.true_kept += len(kept_true & true_texts)
    if details:
        for text in sorted(true_texts - kept_true):
            row.notes.append(f"{conversation}: true item dropped: {text!r}")


def _proposed(answer: ModelCheckpoint) -> list[tuple[str, str]]:
    """The model's items as ``(field, text)``, clipped as the store keeps them."""
    flow = answer.workflow_state
    items = [(f, i) for f in ("active_goals", "pending_tasks", "key_decisions", "user_preferences")
             for i in getattr(answer, f)]
    items += [("current_step", flow.current_step)] if flow.current_step else []
    items += [(f, i) for f in ("completed_steps", "next_steps") for i in getattr(flow, f)]
    items += [(f"references.{k}", n) for k, names in answer.context_references.items() for n in names]
    return [(f, clip(i, ITEM_CHARS)) for f, i in items]


def fallbacks(only: tuple[str, ...] | None = None) -> str:
    """How the store's own summaries read, over every recorded conversation (once each), or
    over ``only``."""
    seen: dict[str, list[tuple[str, str]]] = {}
    for data in RECORDINGS.values():
        for conversation, recorded in data["conversations"].items():
            if only is None or conversation in only:
                seen.setdefault(conversation, [(r, t) for r, t in recorded["messages"]])
    counts: dict[str, dict[str, int]] = {"fallback": {}, "offline": {}}
    missing = []
    for conversation, pairs in seen.items():
        for kind, make in (("fallback", keyword_summary), ("offline", offline_summary)):
            text = make(pairs)
            label = summary_label(text)
            counts[kind][label] = counts[kind].get(label, 0) + 1
            if label == "unlabelled":
                missing.append(f"{kind} {conversation} {label_key(text)}: {text!r}")
    out = "; ".join(
        f"{kind}: " + ", ".join(f"{n} {label}" for label, n in sorted(found.items()))
        for kind, found in counts.items()
    )
    return "\n".join([f"Store's own summaries ({len(seen)} conversations): {out}", *missing])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", default=[], help="only these models")
    parser.add_argument("--details", action="store_true", help="list every kept/dropped item")
    parser.add_argument(
        "--held-out", nargs="?", const="1", choices=sorted(SETS),
        help="only a held-out set's conversations: 1 (the default), the first six; 2, the second eight; 3, the third eight; 4, the fourth eight; 5, the fifth eight; 6, the sixth eight; 7, the seventh eight; 8, the eighth eight; 9, the ninth six; 10, the tenth six; 11, the eleventh six",
    )
    parser.add_argument(
        "--dev", action="store_true",
        help=f"only the conversations rules are written on (the base ones and held-out sets 1-{DEV_SETS}), not the later sets (validation)",
    )
    parser.add_argument(
        "--figures", action="store_true",
        help="print the table only: no kept, dropped or unlabelled line (a set measured before it is read)",
    )
    parser.add_argument("--facts-apart", action="store_true",
                        help="MemoryConfig(facts_apart=True): a span's facts asked whether or not its summary was kept")
    args = parser.parse_args()
    if args.facts_apart:
        OPTIONS["facts_apart"] = True
    logging.getLogger("localmem").setLevel(logging.WARNING)
    models = [m for m in MODEL_ORDER if m in RECORDINGS] + [m for m in RECORDINGS if m not in MODEL_ORDER]
    print(
        "| model | conversations | good summaries kept / good | bad kept / bad | completed "
        "| checkpoint items proposed / kept / kept & false | true items kept / true proposed "
        "| facts and pins kept / false | true facts kept / true proposed "
        "| context, checked: model's good / bad, own faithful / not / unlabelled "
        "| context, earned: model's good / bad, own faithful / not / unlabelled "
        "| context, earned: model's items not false / false | context, earned: model's facts true / false |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    notes = []
    only = SETS[args.held_out] if args.held_out else None
    if args.dev:
        unseen = {c for n, names in SETS.items() if int(n) > DEV_SETS for c in names}
        only = tuple(c for data in RECORDINGS.values() for c in data["conversations"] if c not in unseen)
    for model in args.model or models:
        r = judge(model, args.details, only)
        print(
            f"| {model} | {r.runs} | {r.good_kept}/{r.good} | {r.bad_kept}/{r.bad} | {r.completed} "
            f"| {r.proposed} / {r.kept} / {r.kept_false} | {r.true_kept}/{r.true_proposed} "
            f"| {r.facts_kept} / {r.facts_false} | {r.facts_true_kept}/{r.facts_true} "
            + "".join(f"| {c[0]} / {c[1]}, {c[2]} / {c[3]} / {c[4]} " for c in r.shown.values())
            + f"| {r.earned_items[0]} / {r.earned_items[1]} | {r.earned_facts[0]} / {r.earned_facts[1]} |"
        )
        notes += [f"{model} · {n}" for n in r.notes]
    print()
    if args.figures:
        print(fallbacks(only).splitlines()[0])
        return
    print(fallbacks(only))
    print("\n".join(notes))


if __name__ == "__main__":
    main()
