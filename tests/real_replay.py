"""Recorded real-model answers, replayed through the fake Ollama server to the real store.

``tests/data/*_outputs.json`` hold what real small models answered to every call
``MemoryStore.summarize`` made on the conversations of benchmarks/real_conversations.py
(benchmarks/real_models.py: the checkpoint, the summary and the summary's facts, each with
its ``done_reason``); ``benchmarks/real_models_labels.json`` (and, for the held-out
conversations, ``real_models_labels_heldout.json``) holds the labels written by reading them. :class:`Replay` answers each request with the recorded answer of its kind, so
:func:`replay` runs the store's whole path offline on what the model really said.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from localmem import MemoryConfig, MemoryStore
from localmem.checkpoint_request import CHECKPOINT_SYSTEM_PROMPT
from localmem.extract import ITEM_CHARS, clip
from localmem.facts import FACTS_SYSTEM_PROMPT, MUST_REMEMBER_FACTS_SYSTEM_PROMPT, ModelFacts
from localmem.model_checkpoint import ModelCheckpoint
from localmem.models import Checkpoint, Summary, SummaryFacts
from localmem.remember import model_updates
from localmem.summarizer.warned import unsaid_warnings
from localmem.testimony import user_evidence
from tests.ollama_server import FakeOllama

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"
RECORDINGS: dict[str, dict[str, Any]] = {
    data["model"]: data for data in (json.loads(p.read_text()) for p in sorted(DATA.glob("*_outputs.json")))
}
LABEL_FILES = (
    ROOT / "benchmarks" / "real_models_labels.json",
    ROOT / "benchmarks" / "real_models_labels_heldout.json",  # the held-out conversations'
    ROOT / "benchmarks" / "real_models_labels_heldout2.json",  # the second held-out set's
    ROOT / "benchmarks" / "real_models_labels_heldout3.json",  # the third held-out set's
    ROOT / "benchmarks" / "real_models_labels_heldout4.json",  # the fourth held-out set's
    ROOT / "benchmarks" / "real_models_labels_heldout5.json",  # the fifth held-out set's
    ROOT / "benchmarks" / "real_models_labels_heldout6.json",  # the sixth held-out set's
    ROOT / "benchmarks" / "real_models_labels_heldout7.json",  # the seventh held-out set's
    ROOT / "benchmarks" / "real_models_labels_heldout8.json",  # the eighth held-out set's
    ROOT / "benchmarks" / "real_models_labels_heldout9.json",  # the ninth held-out set's
    ROOT / "benchmarks" / "real_models_labels_heldout10.json",  # the tenth held-out set's
    ROOT / "benchmarks" / "real_models_labels_heldout11.json",  # the eleventh held-out set's
)
LABEL_KINDS = ("summaries", "items", "facts")


def load_labels() -> dict[str, Any]:
    """Every label file's labels in one mapping of the same schema (kind -> key -> entry);
    a key two files label differently is an error, never a silent choice."""
    merged: dict[str, Any] = {kind: {} for kind in LABEL_KINDS}
    for path in LABEL_FILES:
        if not path.exists():
            continue
        data = json.loads(path.read_text())
        for kind in LABEL_KINDS:
            for key, entry in data.get(kind, {}).items():
                if key in merged[kind] and merged[kind][key]["label"] != entry["label"]:
                    raise ValueError(f"{path.name}: {kind} {key} is labelled otherwise in another file")
                merged[kind].setdefault(key, entry)
    return merged


LABELS: dict[str, Any] = load_labels()
HELD_OUT_FILES: dict[str, Path] = {
    conversation: path
    for path in LABEL_FILES[1:]
    if path.exists()
    for conversation in json.loads(path.read_text()).get("conversations", [])
}
"""Each held-out conversation (benchmarks/real_conversations.py ``HELD_OUT``, ``HELD_OUT_2``,
``HELD_OUT_3``, ``HELD_OUT_4``, ``HELD_OUT_5``, ``HELD_OUT_6``, ``HELD_OUT_7``, ``HELD_OUT_8``, ``HELD_OUT_9``, ``HELD_OUT_10`` and ``HELD_OUT_11``) -> the label file that names it, where its answers were labelled before any
replay."""
HELD_OUT: tuple[str, ...] = tuple(HELD_OUT_FILES)
KINDS = ("checkpoint", "summary", "facts")


def request_kind(request: dict[str, Any]) -> str:
    """Which of the store's model calls ``request`` is: by its system prompt."""
    messages = request.get("messages") or [{}]
    system = messages[0].get("content")
    if system == CHECKPOINT_SYSTEM_PROMPT:
        return "checkpoint"
    if system in (FACTS_SYSTEM_PROMPT, MUST_REMEMBER_FACTS_SYSTEM_PROMPT):
        return "facts"
    return "summary"


def label_key(text: str) -> str:
    """A label's key in real_models_labels.json (as benchmarks/real_models_report.py)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def item_label(kind: str, conversation: str, field: str, text: str) -> bool | None:
    """The label of a checkpoint item (``items``) or facts item (``facts``) the store kept."""
    entry = LABELS.get(kind, {}).get(label_key(f"{conversation}|{field}|{text}"))
    return None if entry is None else bool(entry["label"])


def pin_labels(model: str, conversation: str, pin: str) -> list[bool]:
    """The labels of a pin the model added: as the model's must-remember item, and as the new
    side of each of the model's updates naming it that the store acted on
    (``remember.model_updates``; an update is labelled whole, ``new <- old``): an update the
    store refused made no pin, whatever its label."""
    recorded = RECORDINGS[model]["conversations"][conversation]
    answer = ModelFacts.model_validate_json(recorded["facts"]["raw"])
    remembered = [clip(item, ITEM_CHARS) for item in answer.must_remember]
    found = [item_label("facts", conversation, "must_remember", pin)] if pin in remembered else []
    acted = model_updates(answer, user_evidence([(role, text) for role, text in recorded["messages"]]))
    found += [
        item_label("facts", conversation, "updates", f"{new} <- {old}")
        for new, old in answer.updates
        if clip(new, ITEM_CHARS) == pin and (clip(new, ITEM_CHARS), old) in acted
    ]
    return [label for label in found if label is not None]


class Replay(FakeOllama):
    """The fake server answering chats with ``reply`` and JSON-mode chats with ``json_reply``;
    or, with ``recorded`` set (kind -> a recorded call), each request with the recorded
    answer of its kind and that answer's ``done_reason``."""

    json_reply: str | None = None
    recorded: dict[str, dict[str, Any]] | None = None

    def reply_text(self, request: dict[str, Any]) -> str:
        if self.recorded is not None:
            return self.recorded[request_kind(request)]["raw"] or ""
        if request.get("format") == "json" and self.json_reply is not None:
            return self.json_reply
        return super().reply_text(request)

    def generation_body(self, path: str, request: dict[str, Any]) -> dict[str, Any]:
        body = super().generation_body(path, request)
        if self.recorded is not None:
            reason = self.recorded[request_kind(request)]["done_reason"]
            if reason in ("stop", "length"):  # "hung up": the store's guard hangs up again
                body["done_reason"] = reason
        return body

    def chats(self, json_mode: bool = False) -> list[dict[str, Any]]:
        return [
            body
            for _, path, body in self.requests
            if path == "/api/chat" and (body.get("format") == "json") is json_mode
        ]


@dataclass
class Replayed:
    """What the store kept of one recorded conversation."""

    summary: Summary
    checkpoint: Checkpoint
    facts: SummaryFacts
    new_pins: list[str]
    """The pins the model's answers added (its must-remember items, its updates)."""
    pairs: list[tuple[str, str]]
    warning_pins: list[str]
    """The warnings the kept summary does not say, pinned by the store."""


def replay(db_path: Path, model: str, conversation: str) -> Replayed:
    """``MemoryStore.summarize`` on the recorded conversation, on a new file, the server
    answering as the model did (the recording's ``config``: the whole conversation is one
    range, and the model is asked for the checkpoint and the facts)."""
    recorded = RECORDINGS[model]["conversations"][conversation]
    pairs = [(role, text) for role, text in recorded["messages"]]
    with Replay(models=[model]) as server:
        server.recorded = {kind: recorded[kind] for kind in KINDS}
        # the checks' view: every summary that passes them is the model's (a fresh file
        # holds no record, so "earned" would show none of them: tests/test_earned.py)
        config = MemoryConfig(ollama_host=server.host, model_trust="checked", **recorded["config"])
        with MemoryStore(db_path, config=config) as store:
            session = store.create_session(model=model, title=conversation).id
            store.add_messages(session, [{"role": r, "text": t} for r, t in pairs])
            before = {p.content: p for p in store.get_pins(session)}
            summary = store.summarize(session)
            checkpoint = store.latest_checkpoint(session)
            (facts,) = store.get_summary_facts(session)
            now = store.get_pins(session)
            # the store's own: what still holds of a rules' pin a later turn made stale
            # (Pins.end_stale), in that pin's chain, from its message
            ended = {p.source_message_id for c, p in before.items() if c not in {q.content for q in now}}
            pins = [p.content for p in now if p.content not in before
                    and not (p.slot == "stale" and p.source_message_id in ended)]
    assert summary is not None and checkpoint is not None
    warned = [w for w, _ in unsaid_warnings(summary.text, pairs)]  # the store's, quoted
    return Replayed(summary, checkpoint, facts, [p for p in pins if p not in warned], pairs,
                    [p for p in pins if p in warned])


def checkpoint_items(data: Any) -> list[tuple[str, str]]:
    """Every item of a checkpoint's data as ``(field, text)``, fields named as the labels
    name them (``current_step``, ``completed_steps``, ``references.files``...)."""
    lists = ("active_goals", "pending_tasks", "key_decisions", "user_preferences")
    items = [(field, item) for field in lists for item in getattr(data, field)]
    flow = data.workflow_state
    items += [("current_step", flow.current_step)] if flow.current_step else []
    items += [(field, item) for field in ("completed_steps", "next_steps") for item in getattr(flow, field)]
    refs = data.context_references.model_dump()
    return items + [(f"references.{name}", item) for name, values in refs.items() for item in values]


def facts_items(data: Any) -> list[tuple[str, str]]:
    """Every item of a summary's facts as ``(field, text)``."""
    fields = ("key_facts", "decisions", "entities", "open_questions")
    return [(field, item) for field in fields for item in getattr(data, field)]


def proposed(recorded: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Every item a recorded conversation's answers proposed, as ``(kind, field, text)`` the
    labels key them (``items`` for the checkpoint's, ``facts`` for the facts answer's; an
    update as ``new <- old``), clipped as the store keeps them; an answer that is not valid
    JSON of its kind proposes nothing."""
    out: list[tuple[str, str, str]] = []
    try:
        answer = ModelCheckpoint.model_validate_json((recorded.get("checkpoint") or {}).get("raw") or "")
    except ValueError:
        answer = None
    if answer is not None:
        lists = ("active_goals", "pending_tasks", "key_decisions", "user_preferences")
        flow = answer.workflow_state
        items = [(f, i) for f in lists for i in getattr(answer, f)]
        items += [("current_step", flow.current_step)] if flow.current_step else []
        items += [(f, i) for f in ("completed_steps", "next_steps") for i in getattr(flow, f)]
        items += [(f"references.{k}", n) for k, names in answer.context_references.items() for n in names]
        out += [("items", f, clip(i, ITEM_CHARS)) for f, i in items]
    try:
        facts = ModelFacts.model_validate_json((recorded.get("facts") or {}).get("raw") or "")
    except ValueError:
        return out
    fields = ("key_facts", "decisions", "entities", "open_questions", "must_remember")
    out += [("facts", f, clip(i, ITEM_CHARS)) for f in fields for i in getattr(facts, f)]
    return out + [("facts", "updates", f"{new} <- {old}") for new, old in facts.updates]
