"""Bringing a history: a synthetic ChatGPT export of 2,000 conversations x 20 messages.

    python benchmarks/import_exports.py [--conversations 2000] [--messages 20] [--runs 3]

The export is written in ChatGPT's format (a ``mapping`` tree with a hidden
system root and one regenerated answer per conversation, so the branch is
followed, not a list read) from the benchmark corpus (``corpus.py``), then each
run imports it into a fresh file with ``store.import_file`` (reading, checking,
scoring, token counting, auto pins, offline summaries, the writes). For
reference, the same run stores the same messages live, with
``store.add_messages`` (one call per conversation, no summaries): the ratio says
what the import's extra work costs. Each is timed on the wall clock and in this
process's CPU time (on a machine shared with other work, the CPU ratio is the
steadier one). Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from corpus import iter_sessions

from localmem import MemoryStore

START = 1_700_000_000.0


def chatgpt_export(conversations: int, per: int) -> list[dict]:
    """ChatGPT ``conversations.json`` of ``conversations`` x ``per`` messages."""
    out = []
    sessions = iter_sessions(conversations * per, per_session=per, seed=11)
    for n, session in enumerate(sessions):
        t = START + n * 3600
        mapping = {"root": {"id": "root", "message": None, "parent": None, "children": ["sys"]}}
        mapping["sys"] = {
            "id": "sys", "parent": "root", "children": [],
            "message": {"id": "sys", "author": {"role": "system"}, "create_time": None,
                        "content": {"content_type": "text", "parts": [""]},
                        "metadata": {"is_visually_hidden_from_conversation": True}},
        }
        parent = "sys"
        for k, (role, text) in enumerate(session.messages):
            node = f"n{k}"
            mapping[parent]["children"].append(node)
            mapping[node] = {
                "id": node, "parent": parent, "children": [],
                "message": {"id": node, "author": {"role": role}, "create_time": t + 10 * k,
                            "content": {"content_type": "text", "parts": [text]},
                            "metadata": {"model_slug": "gpt-4o"} if role == "assistant" else {}},
            }
            if k == 1:  # a regenerated answer on a branch left behind
                mapping["alt"] = {**mapping[node], "id": "alt", "children": []}
                mapping[parent]["children"].append("alt")
            parent = node
        out.append({"id": f"conv-{n:06d}", "title": f"Conversation {n}", "create_time": t,
                    "update_time": t + 10 * per, "mapping": mapping, "current_node": parent})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--conversations", type=int, default=2000)
    parser.add_argument("--messages", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="localmem-import-"))
    export = chatgpt_export(args.conversations, args.messages)
    path = workdir / "conversations.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    total = sum(len(c["mapping"]) - 3 for c in export)
    print(f"{len(export)} conversations, {total} messages on their current branches, "
          f"{path.stat().st_size / 1e6:.1f} MB")
    for run in range(args.runs):
        with MemoryStore(workdir / f"import-{run}.db") as store:
            started, cpu = time.perf_counter(), time.process_time()
            report = store.import_file(path)
            imported, imported_cpu = time.perf_counter() - started, time.process_time() - cpu
        with MemoryStore(workdir / f"live-{run}.db") as store:
            started, cpu = time.perf_counter(), time.process_time()
            for c in export:
                sid = store.create_session(title=c["title"]).id
                store.add_messages(sid, [
                    {"role": n["message"]["author"]["role"], "text": n["message"]["content"]["parts"][0]}
                    for key, n in c["mapping"].items() if key.startswith("n")
                ])
            live, live_cpu = time.perf_counter() - started, time.process_time() - cpu
        print(f"run {run}: import_file {imported:.2f} s, CPU {imported_cpu:.2f} s ({report.counts}); "
              f"add_messages of the same messages {live:.2f} s, CPU {live_cpu:.2f} s; "
              f"ratio {imported / live:.2f}, CPU {imported_cpu / live_cpu:.2f}")


if __name__ == "__main__":
    main()
