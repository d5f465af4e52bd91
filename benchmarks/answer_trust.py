"""Answer-level trust, measured (issue 21 point 2): would distrusting a model's whole summary
help where the checks keep bad ones?

Today ``summarizer.engine._supported`` drops the sentences ``support.ground`` finds unsupported
and keeps the rest. The candidates below reject the *whole* answer instead (the store then keeps
its keyword summary, judged by its own label) when:

- (a) ground dropped any sentence, or one for a reason of a kind: ``who`` (roles, parties),
  ``polarity`` (a flipped negation, what a turn warns against), ``status`` (done/planned/open),
  ``binding`` (days, places, amounts, names, replaced values), ``unsupported`` (no one message);
- (b) the dropped share of the answer's sentences, or of its content words, is over a threshold;
- (c) the kept text names under a share of the anchors (numbers, capitalised names) of the
  store's own keyword summary of the span;
- (d) the model's running trust is low: of its last N answers (in the recorded order), the share
  the checks kept whole ("whole": no sentence dropped) or kept at all ("kept") under a threshold;
- (e) the policy the ninth stop's note proposed: the context shows the store's own (keyword)
  summary of a range, and a model's summary only when it passed the checks and the model has
  earned it *on this file*: of its earlier summaries in the same file (a set is one user's file:
  the 22 built-on conversations, or one held-out set, in the recorded order), at least 3, the
  share the checks kept whole is at least a threshold (a track record the store can keep at
  runtime, without labels);
- (f) the store's own summary always (no model summary in the context).

A model summary kept but marked in the context as the model's (not as what is remembered) keeps
the "today" figures and asserts none of them: no row of its own.

Every recorded summary is replayed through the real store (the fake Ollama server, as
real_models_replay.py), the sentences ground drops read from its log. Per model and per set
(``0-4``: the 22 built-on conversations and held-out sets 1-4; ``5``; ``6``; ``7``): good kept / good,
bad kept / bad, and how many kept answers fall back (with how many of those fallbacks are
labelled faithful). Then, per candidate, what it rejects: bad, good, or the faithful remainder of
a bad answer.

    python benchmarks/answer_trust.py                        # today's checks, all 68
    python benchmarks/answer_trust.py --held-out 5           # one held-out set
    python benchmarks/answer_trust.py --held-out 0           # the 22 built-on conversations
    # the checks of an older commit, on today's recordings and labels (the unseen-time replay):
    git archive 02fef19 | (mkdir -p /tmp/t_02fef19 && tar -x -C /tmp/t_02fef19)
    python benchmarks/answer_trust.py --tree /tmp/t_02fef19 --held-out 5 --json /tmp/set5.json
    python benchmarks/answer_trust.py --cases /tmp/set1.json ... /tmp/set6.json   # judged together

Offline; needs the test extra (the fake server).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import logging
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MODELS = ("qwen2.5-coder:0.5b", "qwen2.5-coder:1.5b")
"""SmolLM2-135M is left out: the checks keep none of its summaries."""
DROPPED = "%s's summary: sentence %d of %d dropped: %s"
"""The engine's log line for each sentence ground drops (its arguments are read, never text)."""
_WHO = ("gives an act", "gives someone an act", "gives a thing to", "gives a name to", "says of someone",
        "names someone else", "puts the user", "makes a person")
_POLARITY = ("negation flipped", "asserts what the conversation warns")
_TOKEN = re.compile(r"[A-Za-z][\w']*|\d[\d,.:/]*\d|\d")

Case = dict[str, Any]


def kind(why: str) -> str:
    """The kind of a drop's reason (see the module docstring)."""
    if why.startswith(_WHO):
        return "who"
    if why.startswith(_POLARITY):
        return "polarity"
    if why.startswith("states as"):
        return "status"
    if why.startswith("not supported by any one"):
        return "unsupported"
    return "binding"


def collect(tree: Path, only: tuple[str, ...] | None, sets: dict[str, tuple[str, ...]]) -> list[Case]:
    """Every model's recorded summary replayed through ``tree``'s store (today's recordings)."""
    sys.path[:0] = [str(tree), str(tree / "benchmarks")]
    import real_models_replay as replay  # noqa: PLC0415 - the tree's, once its path is set
    from localmem.summarizer.fallback import keyword_summary  # noqa: PLC0415

    recordings = {d["model"]: d for d in (json.loads(p.read_text()) for p in sorted((ROOT / "tests" / "data").glob("*_outputs.json")))}
    replay.RECORDINGS.clear()
    replay.RECORDINGS.update(recordings)  # the same dict the tree's replay reads
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.INFO)
    handler.emit = records.append  # type: ignore[method-assign]
    log = logging.getLogger("localmem")
    log.setLevel(logging.INFO)
    log.addHandler(handler)
    log.propagate = False
    group = {c: s if s in ("5", "6", "7") else "0-4" for s, names in sets.items() for c in names}
    files = {c: s for s, names in sets.items() for c in names}
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for model in MODELS:
            for n, conversation in enumerate(recordings[model]["conversations"]):
                if only is not None and conversation not in only:
                    continue
                records.clear()
                summary, _, pairs, _, _ = replay.replay_one(Path(tmp) / f"{n}{model}.db", model, conversation)
                drops = [(r.args[1], r.args[2], r.args[3]) for r in records if r.msg == DROPPED]
                raw = recordings[model]["conversations"][conversation]["summary"]["raw"]
                kept = summary.source not in ("fallback", "offline")
                cases.append({
                    "model": model, "conversation": conversation, "set": group.get(conversation, "0-4"),
                    "file": files.get(conversation, "0"),
                    "raw": raw, "raw_label": label(raw), "kept": kept, "text": summary.text,
                    "label": label(summary.text) if kept else None, "drops": drops,
                    "keyword": label(keyword_summary(pairs)), "anchors": sorted(anchors(keyword_summary(pairs))),
                })
    log.removeHandler(handler)
    return cases


_LABELS: dict[str, str] = {}


def label(text: str) -> str:
    """A summary's label in today's label files (``tests.real_replay.label_key``'s key)."""
    if not _LABELS:
        for path in sorted((ROOT / "benchmarks").glob("real_models_labels*.json")):
            for key, entry in json.loads(path.read_text()).get("summaries", {}).items():
                _LABELS.setdefault(key, str(entry["label"]))
    return _LABELS.get(hashlib.sha256(text.encode("utf-8")).hexdigest()[:16], "unlabelled")


def anchors(text: str) -> set[str]:
    """Numbers and capitalised words past a sentence's first word: what a summary names."""
    from localmem.summarizer.wording import sentence_spans  # noqa: PLC0415
    from localmem.words import STOP_WORDS  # noqa: PLC0415

    out = set()
    for a, b in sentence_spans(text) or [(0, len(text))]:
        for i, token in enumerate(_TOKEN.findall(text[a:b])):
            token = re.sub(r"'s$", "", token)
            if token and (token[0].isdigit() or (i and token[0].isupper() and token.lower() not in STOP_WORDS)):
                out.add(token.lower())
    return out


def coverage(text: str, wanted: list[str]) -> float:
    """The share of ``wanted`` anchors ``text`` names (1.0 when there are none)."""
    said = {re.sub(r"'s$", "", t.lower()) for t in _TOKEN.findall(text)}
    return 1.0 if not wanted else len(said.intersection(wanted)) / len(wanted)


def words_dropped(case: Case) -> float:
    """The share of the answer's content words in the sentences ground dropped."""
    from localmem.summarizer.wording import sentence_spans  # noqa: PLC0415
    from localmem.words import STOP_WORDS, is_number, words  # noqa: PLC0415

    if not case["drops"]:
        return 0.0
    raw = case["raw"].strip()
    said = [raw[a:b] for a, b in sentence_spans(raw)][: case["drops"][0][1]]
    count = [len([w for w in words(s) if (len(w) >= 4 and w not in STOP_WORDS) or is_number(w)]) for s in said]
    return sum(count[n - 1] for n, _, _ in case["drops"] if n <= len(count)) / (sum(count) or 1)


def trusted(cases: list[Case], window: int, below: float, whole: bool) -> Callable[[Case], bool]:
    """(d): a rule rejecting each answer given before it the model's running trust (the share
    of its last ``window`` answers kept, whole or at all) is under ``below``."""
    history: dict[str, list[bool]] = {}
    low = {}
    for case in cases:
        seen = history.setdefault(case["model"], [])[-window:]
        low[(case["model"], case["conversation"])] = len(seen) >= 3 and sum(seen) / len(seen) < below
        seen_now = case["kept"] and not (whole and case["drops"])
        history[case["model"]].append(seen_now)
    return lambda case: low[(case["model"], case["conversation"])]


def unearned(cases: list[Case], least: float, seen: int = 3) -> Callable[[Case], bool]:
    """(e): a rule rejecting each answer unless, of the model's earlier answers in the same
    file (at least ``seen``), the share the checks kept whole is ``least`` or more."""
    history: dict[tuple[str, str], list[bool]] = {}
    low = {}
    for case in cases:
        earlier = history.setdefault((case["model"], case.get("file", case["set"])), [])
        low[(case["model"], case["conversation"])] = len(earlier) < seen or sum(earlier) / len(earlier) < least
        earlier.append(case["kept"] and not case["drops"])
    return lambda case: low[(case["model"], case["conversation"])]


def candidates(cases: list[Case]) -> dict[str, Callable[[Case], bool]]:
    rules: dict[str, Callable[[Case], bool]] = {"today": lambda c: False, "(a) any drop": lambda c: bool(c["drops"])}
    for k in ("who", "polarity", "status", "binding", "unsupported"):
        rules[f"(a) a {k} drop"] = lambda c, k=k: any(kind(w) == k for _, _, w in c["drops"])
    rules["(a) a who or polarity drop"] = lambda c: any(kind(w) in ("who", "polarity") for _, _, w in c["drops"])
    for t in (0.25, 0.34):
        rules[f"(b) sentences dropped > {t}"] = lambda c, t=t: bool(c["drops"]) and len(c["drops"]) / c["drops"][0][1] > t
        rules[f"(b) words dropped > {t}"] = lambda c, t=t: words_dropped(c) > t
    for t in (0.3, 0.5):
        rules[f"(c) keyword anchors named < {t}"] = lambda c, t=t: coverage(c["text"], c["anchors"]) < t
    for t in (0.3, 0.5):
        for whole in (True, False):
            rules[f"(d) last 10 {'whole' if whole else 'kept'} < {t}"] = trusted(cases, 10, t, whole)
    for t in (0.5, 0.8):
        rules[f"(e) earned on this file: >= 3 earlier, kept whole >= {t}"] = unearned(cases, t)
    rules["(f) the store's own summary always"] = lambda c: True
    return rules


def table(cases: list[Case]) -> str:
    rules = candidates(cases)
    groups = sorted({c["set"] for c in cases})
    head = " | ".join(f"{m.split(':')[1]} {g}" for m in MODELS for g in [*groups, "all"])
    out = [
        "good kept/good, bad kept/bad, fb = kept answers falling back (faithful fallbacks)",
        f"| candidate | {head} | all, both models |",
        "|---|" + "---|" * (len(MODELS) * (len(groups) + 1) + 1),
    ]
    for name, rule in rules.items():
        cells, total = [], [0, 0, 0, 0]
        for model in MODELS:
            for g in [*groups, "all"]:
                sel = [c for c in cases if c["model"] == model and g in ("all", c["set"])]
                keep = [c for c in sel if c["kept"] and not rule(c)]
                back = [c for c in sel if c["kept"] and rule(c)]
                row = [sum(c["raw_label"] == "faithful" and c["label"] == "faithful" for c in keep),
                       sum(c["raw_label"] == "faithful" for c in sel),
                       sum(c["label"] != "faithful" for c in keep),
                       sum(c["raw_label"] != "faithful" for c in sel)]
                cells.append(f"{row[0]}/{row[1]} {row[2]}/{row[3]} fb {len(back)} ({sum(c['keyword'] == 'faithful' for c in back)})")
                if g == "all":
                    total = [a + b for a, b in zip(total, row)]
        out.append(f"| {name} | {' | '.join(cells)} | good {total[0]}/{total[1]}, bad {total[2]}/{total[3]} |")
    out += ["", "What the context then shows as each range's summary (the model's when kept, else the store's keyword "
            "summary): faithful / unfaithful / unlabelled",
            f"| candidate | {' | '.join(f'{m.split(chr(58))[1]} {g}' for m in MODELS for g in [*groups, 'all'])} |",
            "|---|" + "---|" * (len(MODELS) * (len(groups) + 1))]
    for name, rule in rules.items():
        cells = []
        for model in MODELS:
            for g in [*groups, "all"]:
                shown = [c["label"] if c["kept"] and not rule(c) else c["keyword"]
                         for c in cases if c["model"] == model and g in ("all", c["set"])]
                cells.append(f"{shown.count('faithful')} / {sum(x not in ('faithful', 'unlabelled') for x in shown)}"
                             f" / {shown.count('unlabelled')}")
        out.append(f"| {name} | {' | '.join(cells)} |")
    out += ["", "| candidate | rejected | bad | good | faithful remainder of a bad answer | fallbacks faithful / labelled |",
            "|---|--:|--:|--:|--:|--:|"]
    for name, rule in rules.items():
        gone = [c for c in cases if c["kept"] and rule(c)]
        bad = sum(c["label"] != "faithful" for c in gone)
        good = sum(c["label"] == "faithful" and c["raw_label"] == "faithful" for c in gone)
        labelled = [c["keyword"] for c in gone if c["keyword"] != "unlabelled"]
        out.append(f"| {name} | {len(gone)} | {bad} | {good} | {len(gone) - bad - good} | {labelled.count('faithful')} / {len(labelled)} |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose checks replay (default: this one)")
    parser.add_argument("--held-out", choices=list("01234567"),
                        help="only this held-out set (0: the conversations of no held-out set)")
    parser.add_argument("--json", type=Path, help="also write every case here")
    parser.add_argument("--cases", type=Path, nargs="+", help="judge cases written by --json (in order), replay nothing")
    args = parser.parse_args()
    if args.cases:
        print(table([case for path in args.cases for case in json.loads(path.read_text())]))
        return
    spec = importlib.util.spec_from_file_location("_today_conversations", ROOT / "benchmarks" / "real_conversations.py")
    assert spec is not None and spec.loader is not None
    today = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(today)  # today's sets, whatever the tree knows
    sets = {"1": today.HELD_OUT, "2": today.HELD_OUT_2, "3": today.HELD_OUT_3, "4": today.HELD_OUT_4,
            "5": today.HELD_OUT_5, "6": today.HELD_OUT_6, "7": today.HELD_OUT_7}
    held = {c for names in sets.values() for c in names}
    base = tuple(c for c in json.loads((ROOT / "tests" / "data" / "qwen2_5_coder_1_5b_outputs.json").read_text())["conversations"]
                 if c not in held)
    only = None if not args.held_out else base if args.held_out == "0" else sets[args.held_out]
    cases = collect(args.tree.resolve(), only, sets)
    if args.json:
        args.json.write_text(json.dumps(cases, indent=1))
    print(table(cases))


if __name__ == "__main__":
    main()
