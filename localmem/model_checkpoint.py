"""Judging a local model's checkpoint: which items of its answer the conversation supports.

The model is asked in JSON mode (the summarizer's backend and model choice,
``Summarizer.ask_json``; the request is ``localmem.checkpoint_request``) for the
updated checkpoint, read leniently (:class:`ModelCheckpoint`, validated by
pydantic). Each item it adds is kept only where one message (or a line of the
state) supports it, with the same negations, and never flips a warning
(:mod:`localmem.grounding`; a preference only from the user's own words stating a
taste, a reference only verbatim), where its status puts it
(:mod:`localmem.statements`: a step done only when a message says so, a plan as a
next step, no lone word or small talk as a step; a decision only where a sentence
decides, a goal or current step only where one says what someone is after, and
nothing to do that a later sentence reports done or the chat made and accepted,
that it ruled out, that is advice for a case not come, or whose numbers it says of
something else: ``standing.unstated``; a one-word preference is no word describing
another: ``statements.modifies``). What is kept is laid over the rules' floor by
``checkpoint.overlay`` (``localmem.checkpoints`` does both: importing the floor here
would make the import chain one module too deep), with the messages each kept line
rests on (:class:`Support`) and each proposed item's verdict.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from pydantic import field_validator

from . import extract as rules
from . import entities, progress, replies, staleness, standing, statements, turns, verbs
from .answers import Answer, clip_checkpoint, strings
from .grounding import Evidence
from .models import CheckpointData, Message, References, WorkflowState

if TYPE_CHECKING:
    from .checkpoint import StateSnapshot

logger = logging.getLogger("localmem")


class ModelWorkflow(Answer):
    current_step: str | None = None
    completed_steps: list[str] = []
    next_steps: list[str] = []

    _lists = field_validator("completed_steps", "next_steps", mode="before")(strings)

    @field_validator("current_step", mode="before")
    @classmethod
    def _one(cls, value: Any) -> str | None:
        items = strings(value)
        return items[0] if items else None


class ModelCheckpoint(Answer):
    """A checkpoint as a local model answers it; lenient about shapes, strict about types."""

    active_goals: list[str] = []
    pending_tasks: list[str] = []
    key_decisions: list[str] = []
    user_preferences: list[str] = []
    context_references: dict[str, list[str]] = {}
    workflow_state: ModelWorkflow = ModelWorkflow()

    _lists = field_validator(
        "active_goals", "pending_tasks", "key_decisions", "user_preferences", mode="before"
    )(strings)

    @field_validator("context_references", mode="before")
    @classmethod
    def _refs(cls, value: Any) -> dict[str, list[str]]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise ValueError("context_references must be an object")
        refs: dict[str, list[str]] = {kind: [] for kind in rules.REFERENCE_KINDS}
        for kind, names in value.items():
            key = kind.casefold() if kind.casefold() in refs else "identifiers"
            refs[key] += strings(names)
        return refs

    def supported(
        self, evidence: Evidence, said: Evidence, dropped: dict[str, int] | None = None,
        messages: int | None = None, roles: Sequence[str] = (), tools: Mapping[int, str] | None = None,
        sources: dict[str, tuple[int, ...]] | None = None,
        verdicts: list[tuple[str, str, str | None]] | None = None,
    ) -> CheckpointData:
        """The items ``evidence`` supports (``localmem.grounding``), as CheckpointData,
        each where its status puts it (``localmem.statements``): a step or goal names an
        action or an object, a question is no item, a completed step was said to be done
        (a planned one becomes a next step), nothing done stays to do; a preference is
        stated in what the user ``said`` with a stance ("I prefer", "never"...) and is more
        than a name (``statements.only_a_name``: "Sofia");
        references are verbatim, a file a file's name and a table no SQL keyword
        (``extract.names_a``), an identifier a code, a number or a name, not a thing the
        chat speaks of in common words (``entities.identifies``: "OPS-2291", not "tenancy
        agreement" nor "Josh's dated photos"). ``dropped`` counts the others by reason. ``messages``: how
        many of the evidence's sources (the first) are messages (None: all); ``roles``:
        theirs, when known (who answered whom: ``standing.unstated``); ``tools``: by a
        message's index, the tools' output that came right after it (what a tool looked up:
        ``progress.looked_up``). ``sources`` receives, by the text of each statement kept
        (as stored: clipped), the indexes of the evidence's sources whose sentences support it (the support its
        place was judged on; the sources supporting it whole when no one sentence does):
        what the line rests on (``localmem.sources``). ``verdicts`` receives each item
        proposed as ``(field, item, why it was dropped or None)``, references as
        ``references.<kind>``."""
        dropped = {} if dropped is None else dropped
        out: dict[str, list[str]] = {}
        sentences = statements.by_sentence(evidence.sources)
        owners = [k for k, text in enumerate(evidence.sources) for _ in rules.sentences(text)]
        said_sentences = statements.by_sentence(said.sources)
        last = (len(evidence.sources) if messages is None else messages) - 1

        spoken = evidence.sources[: last + 1]  # the range's messages, read by every check below
        conversation = list(zip(roles, spoken)) if len(roles) >= len(spoken) else []

        def drop(reason: str) -> None:
            dropped[reason] = dropped.get(reason, 0) + 1

        def why(item: str, field: str) -> str | None:
            if statements.is_question(item):
                return "a question"
            if statements.copied_line(item, spoken):
                return "a copied line"
            if field == "user_preferences":
                if statements.only_a_name(item, said.sources):
                    return "only a name"
                reason = said.check(item)
                stated = reason is None and any(
                    statements.prefers(s, item) and not statements.modifies(item, s)
                    for s in said_sentences.supporting(item)
                )
                return reason or (None if stated else "no preference stated")
            if not statements.names_something(item):
                return "names no action or object"
            if staleness.stale(item, spoken):
                return "replaced later"  # "the Thursday sailing" after it was cancelled
            if statements.changes_unsaid(item, spoken):
                return "changes what the chat did not change"
            if field in _TO_DO and not verbs.names_action(item, spoken):
                return "names no action"
            reason = evidence.check(item)
            if reason is None and replies.only_drafted(item, spoken, roles=roles):
                return "a line of a draft"  # "raise your glasses", the speech's last line
            return reason

        flow = self.workflow_state
        proposed = {
            "active_goals": self.active_goals,
            "pending_tasks": self.pending_tasks,
            "key_decisions": self.key_decisions,
            "user_preferences": self.user_preferences,
            "current_step": [flow.current_step] if flow.current_step else [],
            "completed_steps": flow.completed_steps,
            "next_steps": flow.next_steps,
        }
        for field, items in proposed.items():
            for item in items:
                reason = why(item, field)
                if reason is None:
                    support = sentences.supporting(item)
                    place, reason = standing.placed(field, support, item)
                    unsaid = field == "completed_steps" and reason == "not said to be done"
                    if unsaid:
                        place, reason = "next_steps", None  # done only if reported done later
                    if place is not None and reason is None:
                        reason = standing.unstated(
                            place, item, support, sentences.sources, owners, last, roles, tools or {},
                            readings=progress,
                        )
                        if reason is None and place in _TO_DO and turns.reported_done(item, conversation):
                            reason = "reported done"  # "Unplug everything." "did that"
                    if field == "completed_steps" and reason in _DONE_SINCE:
                        place, reason = field, None  # said planned (or not at all), then done
                    elif unsaid and reason is None:
                        reason = "not said to be done"
                if verdicts is not None:
                    verdicts.append((field, item, reason))
                if reason is not None:
                    drop(reason)
                elif place is not None:
                    out[place] = rules.unique([*out.get(place, []), item])
                    if sources is not None:  # by the line as it is stored (clipped)
                        clipped = rules.clip(item, rules.ITEM_CHARS)
                        sources[clipped] = _owners_of(item, support, sentences, owners, evidence)
        current = out.pop("current_step", [])
        refs: dict[str, list[str]] = {k: [] for k in rules.REFERENCE_KINDS}
        for kind in refs:
            for name in self.context_references.get(kind, []):
                named = rules.names_a(kind, name) and (
                    kind != "identifiers" or entities.identifies(name, spoken)
                )
                reason = evidence.check_name(name) if named else f"not a name of {kind}"
                if verdicts is not None:
                    verdicts.append((f"references.{kind}", name, reason))
                if reason is None:
                    refs[kind].append(name)
                else:
                    drop(reason)
        return clip_checkpoint(
            CheckpointData(
                active_goals=out.get("active_goals", []),
                pending_tasks=out.get("pending_tasks", []),
                key_decisions=out.get("key_decisions", []),
                user_preferences=out.get("user_preferences", []),
                context_references=References(**refs),
                workflow_state=WorkflowState(
                    current_step=current[0] if current else None,
                    completed_steps=out.get("completed_steps", []),
                    next_steps=out.get("next_steps", []),
                ),
            )
        )


def _owners_of(
    item: str, support: Sequence[str], sentences: Evidence, owners: Sequence[int], evidence: Evidence
) -> tuple[int, ...]:
    """The indexes of ``evidence``'s sources holding the sentences ``support`` (of
    ``sentences``, owned as ``owners`` says); when no one sentence supports ``item``,
    the sources supporting it whole."""
    wanted = set(support)
    if wanted:
        return tuple(sorted({owners[k] for k, s in enumerate(sentences.sources) if s in wanted}))
    whole = set(evidence.supporting(item))
    return tuple(k for k, text in enumerate(evidence.sources) if text in whole)


class Support(NamedTuple):
    """What a model's checkpoint line was kept for (:func:`supported_items`): the ids of the
    messages supporting it, and the checkpoint's own earlier lines that did (their
    sources are its sources too: ``sources.checkpoint_sources``)."""

    messages: tuple[int, ...]
    lines: tuple[str, ...]


def tool_outputs(messages: Sequence[Message]) -> dict[int, str]:
    """By the index of a user's or assistant's message (among those), the tools' output
    that came right after it, before the next of theirs."""
    out: dict[int, str] = {}
    index = -1
    for m in messages:
        if m.role in ("user", "assistant"):
            index += 1
        elif m.role == "tool" and index >= 0:
            out[index] = f"{out[index]}\n{m.text}" if index in out else m.text
    return out


_DONE_SINCE: Final = ("done later", "made later", "asked and answered", "answered as done", "reported done")
"""Why ``standing.unstated`` finds something no longer to do because it was done after (or
as) it was said: a completed step so found stays completed."""
_TO_DO = ("pending_tasks", "current_step", "next_steps")
"""The fields whose items are something to do: each names an action (a verb)."""


def supported_items(
    floor: CheckpointData,
    answer: ModelCheckpoint,
    model: str,
    state: StateSnapshot,
    messages: Sequence[Message],
    judged: dict[str, Support] | None = None,
    verdicts: list[tuple[str, str, str | None]] | None = None,
) -> CheckpointData:
    """The items of ``model``'s ``answer`` that ``messages``, the ``state``'s lines or
    ``floor``'s statements support (:meth:`ModelCheckpoint.supported`), for the caller to
    lay over ``floor`` (``checkpoint.overlay``; the checkpoint's source is the model only
    when one of them is in the result). ``judged`` receives, by the text of each model
    line kept, what supported it (:class:`Support`); ``verdicts``, each item the model
    proposed that ``floor`` does not hold, as ``(field, item, why dropped or None)``:
    what the model's record is judged on."""
    spoken = [m for m in messages if m.role in ("user", "assistant")]
    texts = [m.text for m in spoken]
    carried = _items(floor)
    stated = state.lines()
    evidence = Evidence([*texts, *stated, *carried], conversation=[*texts, *carried])
    said = Evidence([m.text for m in messages if m.role == "user"], conversation=evidence.conversation)
    dropped: dict[str, int] = {}
    found: dict[str, tuple[int, ...]] = {}
    roles = [m.role for m in spoken]
    proposed: list[tuple[str, str, str | None]] = []
    supported = answer.supported(
        evidence, said, dropped, messages=len(texts), roles=roles, tools=tool_outputs(messages),
        sources=found, verdicts=proposed,
    )
    if verdicts is not None:
        held = {rules.clip(item, rules.ITEM_CHARS) for item in carried} | {
            name for kind in rules.REFERENCE_KINDS for name in getattr(floor.context_references, kind)
        }
        verdicts += [v for v in proposed if rules.clip(v[1], rules.ITEM_CHARS) not in held]
    if dropped:
        logger.info("%s's checkpoint items dropped: %s", model, dropped)
    if judged is not None:
        lines = len(texts) + len(stated)  # after the messages, the state's lines, then the floor's
        for item, indexes in found.items():
            judged[item] = Support(
                tuple(sorted({spoken[k].id for k in indexes if k < len(texts)})),
                tuple(carried[k - lines] for k in indexes if k >= lines),
            )
    return supported


def _items(data: CheckpointData) -> list[str]:
    """Every statement of a checkpoint, one per entry."""
    flow = data.workflow_state
    return [
        *data.active_goals,
        *data.pending_tasks,
        *data.key_decisions,
        *data.user_preferences,
        *([flow.current_step] if flow.current_step else []),
        *flow.completed_steps,
        *flow.next_steps,
    ]
