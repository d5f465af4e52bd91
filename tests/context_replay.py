"""What a context asserts with no model answering: built the same way for the test and the benchmark.

:func:`shown_lines` builds the context an app gets for one recorded conversation when no
model answers (a dead Ollama port: every summary falls back, the checkpoint is the rules'
floor) and lists each line it shows as memory: the summaries, the pins, the checkpoint and
the state (the recent and recalled messages are quotes, not judged). The hand labels of
those lines are ``benchmarks/context_labels*.json``; :func:`judge` reads them (a summary by
its label in the real-model label files). ``tests/test_context_truth.py`` holds the labelled
sets to them; ``benchmarks/context_truth.py`` reports the figures. The conversations are the
recordings' (``tests/real_replay.RECORDINGS``: every model recorded the same messages).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from localmem import MemoryConfig, MemoryStore
from tests.real_replay import HELD_OUT_FILES, LABELS, RECORDINGS, ROOT, label_key

DEAD_HOST = "http://127.0.0.1:9"
"""A loopback port nothing listens on: every model call fails at once, as with no Ollama."""
SECTIONS = ("summary", "pin", "checkpoint", "state")
CONTEXT_LABEL_FILES = tuple(sorted((ROOT / "benchmarks").glob("context_labels*.json")))

Labels = dict[str, dict[str, dict[str, Any]]]


def conversation_pairs(conversation: str) -> list[tuple[str, str]]:
    """The recorded conversation's ``(role, text)`` messages, in order."""
    recorded = next(iter(RECORDINGS.values()))["conversations"][conversation]
    return [(role, text) for role, text in recorded["messages"]]


def conversation_set(conversation: str) -> str:
    """``"0"`` for a conversation written on, else its held-out set's number (``"1"`` for
    ``HELD_OUT``), from the name of the label file that holds it."""
    path = HELD_OUT_FILES.get(conversation)
    if path is None:
        return "0"
    return path.stem.removeprefix("real_models_labels_heldout") or "1"


def load_labels() -> Labels:
    """Every ``context_labels*.json``, merged (a conversation's lines from several files are
    joined; a line two files label differently is an error, never a silent choice)."""
    merged: Labels = {}
    for path in CONTEXT_LABEL_FILES:
        for conversation, lines in json.loads(path.read_text()).items():
            into = merged.setdefault(conversation, {})
            for line, entry in lines.items():
                if line in into and into[line]["label"] != entry["label"]:
                    raise ValueError(f"{path.name}: {conversation} {line!r} is labelled otherwise in another file")
                into[line] = entry
    return merged


def shown_lines(db: Path, pairs: list[tuple[str, str]], title: str) -> list[tuple[str, str]]:
    """The ``(section, line)`` pairs the context of ``pairs`` shows as memory, with no model:
    the whole conversation one range, summarized once, then the context built."""
    config = MemoryConfig(ollama_host=DEAD_HOST, summary_threshold=len(pairs), structured_min_tokens=0)
    with MemoryStore(db, config=config) as store:
        session = store.create_session(title=title).id
        store.add_messages(session, [{"role": role, "text": text} for role, text in pairs])
        store.summarize(session)
        context = store.build_context(session)
    lines = [("summary", s.text) for s in context.summaries]
    lines += [("pin", p.content) for p in context.pins]
    lines += [("checkpoint", line) for line in context.checkpoint]
    lines += [("state", line) for line in context.state]
    return lines


def judge(conversation: str, section: str, line: str, labels: Labels) -> bool | None:
    """True or false by the labels, None when no file labels the line."""
    if section == "summary":
        entry = LABELS["summaries"].get(label_key(line))
        return None if entry is None else entry["label"] == "faithful"
    entry = labels.get(conversation, {}).get(f"{section}: {line}")
    return None if entry is None else bool(entry["label"])
