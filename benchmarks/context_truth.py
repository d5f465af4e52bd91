"""What a context asserts when no model's answer is shown, line by line, against hand labels.

With ``model_trust="earned"`` (the default) a small local model's summary, checkpoint items and
facts reach the context only once the model has earned trust for each on the file; until then
(and with no model at all) everything a
context shows as remembered comes from the store's own rules: the keyword summary, the rules'
checkpoint (its floor), the pins the store made itself, the state. This builds, for each
recorded conversation, the context an app would get with no model answering (a dead Ollama
port: every summary falls back), and judges each line it shows as memory:

- ``summary``: each summary's whole text, by its label in the real-model label files (the
  store's own summaries are labelled there already);
- ``pin``: each pin's content (its kind: ``auto`` for the store's own);
- ``checkpoint`` and ``state``: each line as the context renders it.

The recent and recalled messages are quotes of what was said and are not judged.

Labels: ``benchmarks/context_labels*.json``, each ``{conversation: {"<section>: <line>":
{"label": true|false, "reason": "..."}}}`` (true: supported by what was said with the same
polarity and status, not replaced by a later turn, attributed to the right person, with
content; false otherwise, the reason saying which). A line no file labels is counted as
unlabelled and listed, so a change to the rules that shows a new line is seen. The context is
built and judged by ``tests/context_replay.py``, as ``tests/test_context_truth.py`` builds it.

    python benchmarks/context_truth.py                 # every conversation: per section shown / false / unlabelled
    python benchmarks/context_truth.py --held-out 8    # one held-out set (the numbers of real_models_replay.py)
    python benchmarks/context_truth.py --dump          # the unlabelled lines as a JSON skeleton to fill in
    python benchmarks/context_truth.py --figures       # the table only (a set measured before it is read)

Offline, seconds.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT), str(HERE)]

from tests.context_replay import SECTIONS, judge, load_labels, shown_lines  # noqa: E402

import real_conversations  # noqa: E402


def conversation_sets() -> dict[str, tuple[str, ...]]:
    """``"0"``: the conversations written on; ``"1"`` ... : each held-out set, from every
    ``HELD_OUT*`` tuple :mod:`real_conversations` exports."""
    held = {
        ("1" if name == "HELD_OUT" else name.removeprefix("HELD_OUT_")): tuple(getattr(real_conversations, name))
        for name in dir(real_conversations)
        if name == "HELD_OUT" or (name.startswith("HELD_OUT_") and name.removeprefix("HELD_OUT_").isdigit())
    }
    out = {c for names in held.values() for c in names}
    return {"0": tuple(c for c in real_conversations.CONVERSATIONS if c not in out), **held}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sets = conversation_sets()
    parser.add_argument("--held-out", choices=sorted(sets), help="only this set (0: the conversations written on)")
    parser.add_argument("--dump", action="store_true", help="print the unlabelled lines as a JSON skeleton")
    parser.add_argument("--figures", action="store_true", help="the table only: no line listed")
    args = parser.parse_args()
    logging.getLogger("localmem").setLevel(logging.ERROR)  # the dead port's notices
    names = sets[args.held_out] if args.held_out else tuple(real_conversations.CONVERSATIONS)
    labels = load_labels()
    counts: dict[str, Counter[str]] = {section: Counter() for section in SECTIONS}
    notes: list[str] = []
    skeleton: dict[str, dict[str, dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n, name in enumerate(names):
            for section, line in shown_lines(Path(tmp) / f"{n}.db", real_conversations.pairs(name), name):
                label = judge(name, section, line, labels)
                verdict = "unlabelled" if label is None else "true" if label else "false"
                counts[section][verdict] += 1
                if verdict != "true":
                    notes.append(f"{name}: {verdict.upper()} {section}: {line!r}")
                if label is None and section != "summary":
                    skeleton.setdefault(name, {})[f"{section}: {line}"] = {"label": None, "reason": ""}
    if args.dump:
        print(json.dumps(skeleton, indent=2, ensure_ascii=False))
        return
    print(f"{len(names)} conversations, no model answering: lines shown as memory")
    print("| section | shown | true | false | unlabelled |")
    print("|---|--:|--:|--:|--:|")
    for section, c in counts.items():
        print(f"| {section} | {sum(c.values())} | {c['true']} | {c['false']} | {c['unlabelled']} |")
    if not args.figures:
        print("\n".join(["", *notes]))


if __name__ == "__main__":
    main()
