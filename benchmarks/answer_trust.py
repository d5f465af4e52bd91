"""Answer-level trust, measured: what dropping a whole answer's (or field's) items when the
checks reject some of them would do, on every recorded real-model answer.

A model that wrote one item the checks reject (an invented item, one with the wrong status,
polarity or party) wrote the others of the same answer. This replays every recorded
conversation through the store (as ``real_models_replay.py`` does), reads why each item the
model proposed was kept or dropped, and, against the labels, counts what each policy would
keep: items kept / false and true items kept, for the checkpoint's items and for the
summary's facts and pins, per model and per group of held-out sets:

- ``today``: what the store keeps;
- ``field``: a field's kept items are dropped when the checks reject one item of that field
  for a claim reason (invented, status, polarity, party: :data:`CLAIM`);
- ``answer``: every kept item of the answer is dropped when one item is so rejected;
- ``share>X``: every kept item of the answer is dropped when more than X of its items
  (any reason) are rejected;
- ``summary``: a checkpoint's items are dropped when the model's summary of the same span was
  rejected (the facts already go with a rejected summary).

    python benchmarks/answer_trust.py                 # sets 1-4, 5 and 6, each model
    python benchmarks/answer_trust.py --reasons       # also: the rejected items by reason class

Offline; a minute or two (each conversation replayed once per model).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import real_models_replay as replay  # noqa: E402
from real_conversations import HELD_OUT, HELD_OUT_2, HELD_OUT_3, HELD_OUT_4, HELD_OUT_5, HELD_OUT_6  # noqa: E402

from localmem import claims, entities, roles, staleness, statements  # noqa: E402
from localmem import checkpoint as checkpoint_module  # noqa: E402
from localmem import facts as facts_module  # noqa: E402
from localmem.checkpoint import ModelCheckpoint, StateSnapshot  # noqa: E402
from localmem.checkpoint import floor as rules_floor  # noqa: E402
from localmem.extract import ITEM_CHARS, clip, extract  # noqa: E402
from localmem.facts import ModelFacts, rule_facts, user_evidence  # noqa: E402
from localmem.grounding import Evidence  # noqa: E402
from localmem.summarizer import FALLBACK, OFFLINE  # noqa: E402
from tests.real_replay import RECORDINGS, checkpoint_items, facts_items, item_label  # noqa: E402

GROUPS = {
    "sets 1-4": (*HELD_OUT, *HELD_OUT_2, *HELD_OUT_3, *HELD_OUT_4),
    "set 5": tuple(HELD_OUT_5),
    "set 6": tuple(HELD_OUT_6),
}
"""The groups the brief asks for (the unheld conversations of real_conversations.py go with
sets 1-4: seen as long)."""

STATUS = frozenset({
    "not said to be done", "already done", "done later", "answered as done", "made later",
    "asked and answered", "partly done", "done as it was said", "a tool's output answered it",
    "only if", "no decision stated", "no goal stated", "replaced", "used up", "undecided",
    "a plan", "a step", "of the moment", "ended",
})
POLARITY = frozenset({"negation flipped", "asserts what the conversation warns against", "ruled out", "corrected"})
PARTY = frozenset({
    "no preference stated", "a number said of something else", "miscast", "subject swapped",
    "not taken up", "values apart", "widens", "only drafted", "changes what the chat did not change",
})
INVENTED = frozenset({"not supported by any one message", "not in any message", "unsupported"})
CLAIM = STATUS | POLARITY | PARTY | INVENTED
"""The reasons that say the item is a wrong claim (rather than junk: a question, a lone
word, a copied line, not a name)."""


def reason_class(reason: str) -> str:
    for name, group in (("status", STATUS), ("polarity", POLARITY), ("party", PARTY), ("invented", INVENTED)):
        if reason in group:
            return name
    return "form"


# --- the facts' reasons (the store keeps or drops; this says why) -----------------------


def fact_reason(field: str, item: str, pairs: list[tuple[str, str]], replaced: list[str]) -> str | None:
    """Why ``ModelFacts.grounded`` drops ``item`` of ``field`` (None: kept), by the first
    check that fails, named by its kind."""
    said = [(r, t) for r, t in pairs if r in ("user", "assistant", "tool")]
    texts = [t for _, t in said]
    evidence = Evidence(texts, conversation=texts)
    sentences = statements.by_sentence(texts)
    plain = facts_module._THE_USER.sub(" ", item)
    if facts_module._said(item) in {facts_module._said(o) for o in replaced} - {""}:
        return "replaced"
    if field == "open_questions":
        return None if facts_module._still_open(item, said) else "form"
    if not facts_module._a_statement(item, texts):
        return "form"
    if field == "entities":
        return None if entities.is_entity(item, said) else "form"
    check = evidence.check(plain)
    if check is not None:
        return check
    support = sentences.supporting(plain)
    if field in ("key_facts", "decisions"):
        if not facts_module._subject_kept(plain, support):
            return "subject swapped"
        if facts_module._only_drafted(plain, said):
            return "only drafted"
        if facts_module._only_corrected(plain, support, said):
            return "corrected"
    if not facts_module.supported_item(field, item, evidence, sentences, said):
        if field == "decisions" and support and all(map(statements.undecided, support)):
            return "undecided"
        if field == "decisions" and not facts_module._taken_up(plain, sentences, said):
            return "not taken up"
        return "form"
    if facts_module.used_up(item, texts):
        return "used up"
    if field in ("key_facts", "decisions"):
        if claims.values_apart(item, claims.statements_of(said)):
            return "values apart"
        if staleness.stale(item, texts):
            return "replaced"
        if claims.widens(plain, sentences):
            return "widens"
        if roles.miscast(item, said):
            return "miscast"
    return None


def pin_reason(item: str, pairs: list[tuple[str, str]]) -> str | None:
    """Why ``facts.must_remember`` drops ``item`` (None: kept)."""
    evidence = user_evidence(pairs)
    sentences = statements.by_sentence(evidence.sources)
    item = clip(item, ITEM_CHARS)
    if facts_module._OF_THE_MOMENT.search(item):
        return "of the moment"
    if facts_module._a_step(item):
        return "a step"
    if not facts_module._a_statement(item, evidence.sources) or entities.bare_name(item, evidence.sources) \
            or entities.names_things(item):
        return "form"
    if facts_module.fact_sources(item, evidence) is None:
        check = evidence.check(facts_module._THE_USER.sub(" ", item))
        return check if check in POLARITY else "unsupported"
    if claims.values_apart(item, sentences.sources):
        return "values apart"
    if staleness.stale(item, evidence.sources):
        return "replaced"
    if claims.widens(facts_module._THE_USER.sub(" ", item), sentences):
        return "widens"
    if facts_module._a_plan(item, sentences):
        return "a plan"
    if roles.miscast(item, pairs):
        return "miscast"
    return None


# --- one conversation -------------------------------------------------------------------


Judged = list[tuple[str, str, str | None, bool, bool | None]]
"""(field, item, why dropped or None, kept by the store, label) of one answer."""


def judge_checkpoint(model: str, conversation: str, db: Path) -> tuple[Judged, bool]:
    """The checkpoint answer's items, judged; and whether the store kept the model's summary."""
    captured: list[tuple[str, str, str | None]] = []
    original = ModelCheckpoint.supported

    def capture(self: ModelCheckpoint, *args: Any, **kwargs: Any) -> Any:
        return original(self, *args, **{**kwargs, "verdicts": captured})

    ModelCheckpoint.supported = capture  # type: ignore[method-assign]
    try:
        summary, checkpoint, pairs, facts, pins = replay.replay_one(db, model, conversation)
    finally:
        ModelCheckpoint.supported = original  # type: ignore[method-assign]
    floor = set(checkpoint_items(rules_floor(None, StateSnapshot(), pairs)))
    mine = {(f, clip(t, ITEM_CHARS)) for f, t in checkpoint_items(checkpoint.data) if (f, t) not in floor}
    out: Judged = []
    seen = set()
    for field, item, why in captured:
        stored = "current_step" if field == "current_step" else field
        text = clip(item, ITEM_CHARS)
        if (field, text) in floor or (field, text) in seen:
            continue
        seen.add((field, text))
        kept = any(t == text for _, t in mine) if why is None else False
        # an item kept may have moved field (a completed step planned: a next step)
        label = next((item_label("items", conversation, f, t) for f, t in mine if t == text), None) if kept \
            else item_label("items", conversation, stored, text)
        out.append((field, text, why, kept, label))
    from_model = summary.source not in (FALLBACK, OFFLINE)
    return out, from_model, (summary, pairs, facts, pins)  # type: ignore[return-value]


def judge_facts(conversation: str, recorded: dict, pairs: list, facts: Any, pins: list[str],
                from_model: bool) -> Judged:
    """The facts answer's items, judged (nothing is kept when the summary was not the model's)."""
    try:
        answer = ModelFacts.model_validate_json((recorded.get("facts") or {}).get("raw") or "")
    except Exception:  # noqa: BLE001 - not facts: nothing proposed
        return []
    rules = set(facts_items(rule_facts(extract(pairs), [t for _, t in pairs])))
    kept_facts = set(facts_items(facts)) - rules if facts is not None else set()
    acted = facts_module.model_updates(answer, user_evidence(pairs))
    replaced = [old for _, old in acted]
    out: Judged = []
    for field, item in facts_items(answer):
        text = clip(item, ITEM_CHARS)
        if (field, text) in rules:
            continue
        why = fact_reason(field, item, pairs, replaced)
        kept = (field, text) in kept_facts
        if kept and why is not None:
            why = None  # the store kept it (a reading above differs): trust the store
        if not kept and why is None:
            why = "ended" if from_model else "summary rejected"
        out.append((field, text, why, kept, item_label("facts", conversation, field, text)))
    for item in answer.must_remember:
        text = clip(item, ITEM_CHARS)
        why = pin_reason(item, pairs)
        kept = text in pins
        if kept and why is not None:
            why = None
        if not kept and why is None:
            why = "ended" if from_model else "summary rejected"
        out.append(("must_remember", text, why, kept, item_label("facts", conversation, "must_remember", text)))
    remembered = {clip(i, ITEM_CHARS) for i in answer.must_remember}
    for new, old in answer.updates:
        text = f"{clip(new, ITEM_CHARS)} <- {old}"
        if clip(new, ITEM_CHARS) in remembered:
            continue  # one pin, judged as the must-remember item (as real_models_replay.py)
        kept = clip(new, ITEM_CHARS) in pins and (clip(new, ITEM_CHARS), old) in acted
        why = None if kept else ("unsupported" if (clip(new, ITEM_CHARS), old) not in acted else "ended")
        if not from_model and not kept:
            why = "summary rejected"
        out.append(("updates", text, why, kept, item_label("facts", conversation, "updates", text)))
    return out


# --- the policies -----------------------------------------------------------------------


Policy = Callable[[Judged, bool], set[int]]
"""Which of an answer's judged items (by index) a policy keeps, given whether the model's
summary was kept."""


def today(judged: Judged, summary_kept: bool) -> set[int]:
    return {k for k, (_, _, _, kept, _) in enumerate(judged) if kept}


def by_field(reasons: frozenset[str] = CLAIM) -> Policy:
    def policy(judged: Judged, summary_kept: bool) -> set[int]:
        bad = {f for f, _, why, _, _ in judged if why is not None and why in reasons}
        return {k for k in today(judged, summary_kept) if judged[k][0] not in bad}
    return policy


def by_answer(reasons: frozenset[str] = CLAIM) -> Policy:
    def policy(judged: Judged, summary_kept: bool) -> set[int]:
        if any(why is not None and why in reasons for _, _, why, _, _ in judged):
            return set()
        return today(judged, summary_kept)
    return policy


def by_share(limit: float) -> Policy:
    def policy(judged: Judged, summary_kept: bool) -> set[int]:
        judgeable = [why for _, _, why, _, _ in judged if why != "summary rejected"]
        rejected = sum(why is not None for why in judgeable)
        if judgeable and rejected / len(judgeable) > limit:
            return set()
        return today(judged, summary_kept)
    return policy


def with_summary(judged: Judged, summary_kept: bool) -> set[int]:
    return today(judged, summary_kept) if summary_kept else set()


POLICIES: dict[str, Policy] = {
    "today": today,
    "field": by_field(),
    "field-SPP": by_field(STATUS | POLARITY | PARTY),
    "field-S": by_field(STATUS),
    "field-P": by_field(POLARITY),
    "field-party": by_field(PARTY),
    "answer": by_answer(),
    "answer-SPP": by_answer(STATUS | POLARITY | PARTY),
    **{f"share>{x:.2f}": by_share(x) for x in (0.5, 0.6, 0.7, 0.8, 0.9)},
    "summary": with_summary,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reasons", action="store_true", help="the rejected items by reason class and label")
    parser.add_argument("--model", action="append", default=[])
    parser.add_argument("--show", default="", help="list the items a policy drops that today keeps")
    args = parser.parse_args()
    logging.getLogger("localmem").setLevel(logging.WARNING)
    models = args.model or [m for m in replay.MODEL_ORDER if m in RECORDINGS and m != "smollm2:135m"]
    group_of = {c: g for g, cs in GROUPS.items() for c in cs}
    # (model, group, kind, policy) -> [kept, false, true kept, true proposed]
    table: dict[tuple[str, str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    reasons: Counter[tuple[str, str, str, str]] = Counter()
    shown = []
    with tempfile.TemporaryDirectory() as tmp:
        for model in models:
            for n, (conversation, recorded) in enumerate(RECORDINGS[model]["conversations"].items()):
                group = group_of.get(conversation, "sets 1-4")
                items, summary_kept, (summary, pairs, facts, pins) = judge_checkpoint(
                    model, conversation, Path(tmp) / f"{model}-{n}.db")
                facts_judged = judge_facts(conversation, recorded, pairs, facts, pins, summary_kept)
                for kind, judged in (("checkpoint", items), ("facts", facts_judged)):
                    true = [k for k, j in enumerate(judged) if j[4]]
                    for name, policy in POLICIES.items():
                        keep = policy(judged, summary_kept)
                        row = table[(model, group, kind, name)]
                        row[0] += len(keep)
                        row[1] += sum(judged[k][4] is False for k in keep)
                        row[2] += len(keep & set(true))
                        row[3] += len(true)
                        if name == args.show:
                            for k in today(judged, summary_kept) - keep:
                                shown.append(f"{model} {conversation} {kind} {judged[k][0]}: "
                                             f"{judged[k][1]!r} ({judged[k][4]})")
                    for field, item, why, kept, label in judged:
                        if why is not None:
                            reasons[(model, kind, reason_class(why), str(label))] += 1
    for kind in ("checkpoint", "facts"):
        print(f"\n{kind}: kept / false, true kept / true (per model, per group)\n")
        print("| model | group | " + " | ".join(POLICIES) + " |")
        print("|---|---|" + "---|" * len(POLICIES))
        for model in models:
            for group in GROUPS:
                cells = [table[(model, group, kind, p)] for p in POLICIES]
                print(f"| {model} | {group} | " + " | ".join(f"{c[0]}/{c[1]}, {c[2]}/{c[3]}" for c in cells) + " |")
    if args.reasons:
        print("\nrejected items: model, kind, reason class, label -> count")
        for key, count in sorted(reasons.items()):
            print(" ".join(key), count)
    if shown:
        print("\n".join(shown))


if __name__ == "__main__":
    main()
