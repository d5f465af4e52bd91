"""Answer-level trust for checkpoint items, facts and pins, measured: what dropping a whole
answer's (or field's) items when the checks reject some of them would do, on every recorded
real-model answer (answer_trust.py asks the same of a model's summary).

A model that wrote one item the checks reject (an invented item, one with the wrong status,
polarity or party) wrote the others of the same answer. This replays every recorded
conversation through the store (as ``real_models_replay.py`` does), reads why each item the
model proposed was kept or dropped, and, against the labels, counts what each policy would
keep: items kept / false and true items kept, for the checkpoint's items and for the
summary's facts and pins, per model and per group of held-out sets:

- ``today``: what the store keeps;
- ``field``: a field's kept items are dropped when the checks reject one item of that field
  for a claim reason (invented, status, polarity, party: :data:`CLAIM`); ``field-SPP`` for a
  status, polarity or party reason only, ``field-S``, ``field-P``, ``field-party`` for one;
- ``answer`` (``answer-SPP``): every kept item of the answer is dropped when one item is so
  rejected;
- ``share>X``: every kept item of the answer is dropped when more than X of its items
  (any reason) are rejected;
- ``summary``: a checkpoint's items are dropped when the model's summary of the same span was
  rejected (the facts already go with a rejected summary);
- ``one sentence``: only items one sentence of the chat supports (the share ``grounding``
  asks, with polarity), for the checkpoint as for the facts (today a checkpoint item needs
  one message, a pin the user's messages together);
- ``words>=X``: only items one message holds X of the content words of (today: 0.6 of one
  message for items and facts, of the user's messages together for pins).

    python benchmarks/item_trust.py                 # sets 1-4, 5 and 6, each model
    python benchmarks/item_trust.py --reasons       # also: the rejected items by reason class
    python benchmarks/item_trust.py --show field    # the items a policy drops that today keeps

Why each item was dropped is the store's own verdict (``ModelCheckpoint.supported``,
``ModelFacts.grounded`` and ``remember.must_remember`` report it), caught while the store runs.
Counts are per (field, item): an item kept as a fact and as a pin counts twice, so the facts'
totals differ a little from real_models_replay.py's.

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

from localmem import remember  # noqa: E402
from localmem import statements  # noqa: E402
from localmem import span_facts as span_facts_module  # noqa: E402
from localmem.checkpoint import StateSnapshot  # noqa: E402
from localmem.checkpoint import floor as rules_floor  # noqa: E402
from localmem.extract import ITEM_CHARS, clip, extract  # noqa: E402
from localmem.facts import ModelFacts, rule_facts  # noqa: E402
from localmem.grounding import held, item_forms, read  # noqa: E402
from localmem.model_checkpoint import ModelCheckpoint  # noqa: E402
from localmem.summarizer import FALLBACK, OFFLINE  # noqa: E402
from localmem.testimony import THE_USER, user_evidence  # noqa: E402
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
    "a plan", "a step", "of the moment", "a report",
})
"""Wrong status: done stored as to do (or the reverse), a plan as a fact, no decision taken."""
POLARITY = frozenset({"negation flipped", "asserts what the conversation warns against", "ruled out", "corrected"})
"""Wrong polarity: what the chat negated, warned against, refused or corrected."""
PARTY = frozenset({
    "no preference stated", "a number said of something else", "miscast", "subject swapped",
    "not taken up", "values apart", "widens", "only drafted", "a line of a draft",
    "changes what the chat did not change",
})
"""Wrong party or binding: someone else's act, thing, words or number."""
INVENTED = frozenset({"not supported by any one message", "not in any message", "not supported by the user's messages"})
"""Not in what was said."""
CLAIM = STATUS | POLARITY | PARTY | INVENTED
"""The reasons that say the item is a wrong claim (rather than junk: a question, a lone
word, a copied line, not a name)."""


def reason_class(reason: str) -> str:
    for name, group in (("status", STATUS), ("polarity", POLARITY), ("party", PARTY), ("invented", INVENTED)):
        if reason in group:
            return name
    return "form"


# --- one conversation -------------------------------------------------------------------


Judged = list[tuple[str, str, str | None, bool, bool | None]]
"""(field, item, why dropped or None, kept by the store, label) of one answer."""


def judge(model: str, conversation: str, db: Path) -> tuple[Judged, Judged, bool, list[tuple[str, str]], Any]:
    """The checkpoint answer's items and the facts answer's items, judged as the store judged
    them (``ModelCheckpoint.supported``'s, ``ModelFacts.grounded``'s and
    ``remember.must_remember``'s verdicts, caught as the store runs); whether the store kept the
    model's summary; the conversation; the summary stored (file_trust.py labels it)."""
    items: list[tuple[str, str, str | None]] = []
    facts_said: list[tuple[str, str, str | None]] = []
    originals = (ModelCheckpoint.supported, ModelFacts.grounded, span_facts_module.must_remember)

    def supported(self: ModelCheckpoint, *args: Any, **kwargs: Any) -> Any:
        return originals[0](self, *args, **{**kwargs, "verdicts": items})

    def grounded(self: ModelFacts, *args: Any, **kwargs: Any) -> Any:
        return originals[1](self, *args, **{**kwargs, "verdicts": facts_said})

    def remembered(*args: Any, **kwargs: Any) -> Any:
        return originals[2](*args, **{**kwargs, "verdicts": facts_said})

    ModelCheckpoint.supported = supported  # type: ignore[method-assign]
    ModelFacts.grounded = grounded  # type: ignore[method-assign]
    span_facts_module.must_remember = remembered
    try:
        summary, checkpoint, pairs, facts, pins = replay.replay_one(db, model, conversation)
    finally:
        ModelCheckpoint.supported, ModelFacts.grounded, span_facts_module.must_remember = originals  # type: ignore[method-assign]
    from_model = summary.source not in (FALLBACK, OFFLINE)
    floor = set(checkpoint_items(rules_floor(None, StateSnapshot(), pairs)))
    mine = {(f, clip(t, ITEM_CHARS)) for f, t in checkpoint_items(checkpoint.data) if (f, t) not in floor}
    judged: Judged = []
    seen = set()
    for field, item, why in items:
        text = clip(item, ITEM_CHARS)
        if (field, text) in floor or (field, text) in seen:
            continue
        seen.add((field, text))
        kept = why is None and any(t == text for _, t in mine)
        # an item kept may have moved field (a completed step planned: a next step): labelled
        # where it is kept, in its own field when it is kept there too (a text a model put in
        # two fields may be kept in both; picked from the set, the label followed the hash seed)
        where = field if not kept or (field, text) in mine else min(f for f, t in mine if t == text)
        label = item_label("items", conversation, where, text)
        judged.append((field, text, why, kept, label))
    recorded = RECORDINGS[model]["conversations"][conversation]
    return judged, judge_facts(conversation, recorded, pairs, facts, pins, from_model, facts_said), from_model, pairs, summary


def judge_facts(conversation: str, recorded: dict, pairs: list, facts: Any, pins: list[str],
                from_model: bool, verdicts: list[tuple[str, str, str | None]]) -> Judged:
    """The facts answer's items, judged (``verdicts``: as the store judged them; nothing is
    judged, nor kept, when the summary was not the model's: "summary rejected")."""
    try:
        answer = ModelFacts.model_validate_json((recorded.get("facts") or {}).get("raw") or "")
    except Exception:  # noqa: BLE001 - not facts: nothing proposed
        return []
    rules = set(facts_items(rule_facts(extract(pairs), [t for _, t in pairs])))
    kept_facts = set(facts_items(facts)) - rules if facts is not None else set()
    said = {(field, text): why for field, text, why in verdicts}
    acted = remember.model_updates(answer, user_evidence(pairs))
    out: Judged = []
    for field, item in [*facts_items(answer), *(("must_remember", i) for i in answer.must_remember)]:
        text = clip(item, ITEM_CHARS)
        if (field, text) in rules:
            continue
        kept = text in pins if field == "must_remember" else (field, text) in kept_facts
        why = said.get((field, text), "summary rejected") if from_model else "summary rejected"
        if why is None and not kept:
            why = "ended"  # kept by the checks, then ended later in the span, or over a cap
        out.append((field, text, why, kept, item_label("facts", conversation, field, text)))
    remembered = {clip(i, ITEM_CHARS) for i in answer.must_remember}
    for new, old in answer.updates:
        text = f"{clip(new, ITEM_CHARS)} <- {old}"
        if clip(new, ITEM_CHARS) in remembered:
            continue  # one pin, judged as the must-remember item (as real_models_replay.py)
        kept = clip(new, ITEM_CHARS) in pins and (clip(new, ITEM_CHARS), old) in acted
        why = None if kept else ("not supported by the user's messages"
                                 if (clip(new, ITEM_CHARS), old) not in acted else "ended")
        if not from_model:
            why = "summary rejected"
        out.append(("updates", text, why, kept, item_label("facts", conversation, "updates", text)))
    return out


# --- the policies -----------------------------------------------------------------------


Support = list[tuple[bool, float]]
"""For each judged item: whether one sentence of the chat supports it (``grounding``'s share
of its content words, with its polarity), and the largest share of its content words one
message holds (any polarity)."""
Policy = Callable[[Judged, bool, Support], set[int]]
"""Which of an answer's judged items (by index) a policy keeps, given whether the model's
summary was kept and how the chat supports each."""


def support_of(judged: Judged, texts: list[str]) -> Support:
    """:data:`Support` for ``judged`` items, over ``texts`` (the messages they may rest on)."""
    sentences = statements.by_sentence(texts)
    readings = [read(t) for t in texts]
    out = []
    for _, item, _, _, _ in judged:
        item = item.split(" <- ")[0]
        forms = item_forms(THE_USER.sub(" ", item))
        best = max((len(held(forms, r)[0]) / len(forms) for r in readings), default=0.0) if forms else 0.0
        out.append((bool(sentences.supporting(THE_USER.sub(" ", item))), best))
    return out


def today(judged: Judged, summary_kept: bool, support: Support | None = None) -> set[int]:
    return {k for k, (_, _, _, kept, _) in enumerate(judged) if kept}


def by_field(reasons: frozenset[str] = CLAIM) -> Policy:
    def policy(judged: Judged, summary_kept: bool, support: Support) -> set[int]:
        bad = {f for f, _, why, _, _ in judged if why is not None and why in reasons}
        return {k for k in today(judged, summary_kept) if judged[k][0] not in bad}
    return policy


def by_answer(reasons: frozenset[str] = CLAIM) -> Policy:
    def policy(judged: Judged, summary_kept: bool, support: Support) -> set[int]:
        if any(why is not None and why in reasons for _, _, why, _, _ in judged):
            return set()
        return today(judged, summary_kept)
    return policy


def by_share(limit: float) -> Policy:
    def policy(judged: Judged, summary_kept: bool, support: Support) -> set[int]:
        judgeable = [why for _, _, why, _, _ in judged if why != "summary rejected"]
        rejected = sum(why is not None for why in judgeable)
        if judgeable and rejected / len(judgeable) > limit:
            return set()
        return today(judged, summary_kept)
    return policy


def one_sentence(judged: Judged, summary_kept: bool, support: Support) -> set[int]:
    return {k for k in today(judged, summary_kept) if support[k][0]}


def by_words(share: float) -> Policy:
    def policy(judged: Judged, summary_kept: bool, support: Support) -> set[int]:
        return {k for k in today(judged, summary_kept) if support[k][1] >= share}
    return policy


def with_summary(judged: Judged, summary_kept: bool, support: Support) -> set[int]:
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
    "one sentence": one_sentence,
    **{f"words>={x:.1f}": by_words(x) for x in (0.7, 0.8, 0.9, 1.0)},
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
                items, facts_judged, summary_kept, pairs, _ = judge(model, conversation, Path(tmp) / f"{model}-{n}.db")
                spoken = [t for r, t in pairs if r in ("user", "assistant")]
                users = [t for r, t in pairs if r == "user"]
                for kind, judged in (("checkpoint", items), ("facts", facts_judged)):
                    true = [k for k, j in enumerate(judged) if j[4]]
                    texts = spoken if kind == "checkpoint" else [t for r, t in pairs if r in ("user", "assistant", "tool")]
                    support = support_of(judged, texts)
                    if kind == "facts":  # a pin and an update rest on the user's words only
                        pinned = support_of(judged, users)
                        support = [pinned[k] if j[0] in ("must_remember", "updates") else support[k]
                                   for k, j in enumerate(judged)]
                    for name, policy in POLICIES.items():
                        keep = policy(judged, summary_kept, support)
                        row = table[(model, group, kind, name)]
                        row[0] += len(keep)
                        row[1] += sum(judged[k][4] is False for k in keep)
                        row[2] += len(keep & set(true))
                        row[3] += len(true)
                        if name == args.show:
                            for k in today(judged, summary_kept, support) - keep:
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
