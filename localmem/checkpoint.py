"""Checkpoints: the structured state that survives compaction.

Before messages are summarized away, a **checkpoint** captures what the
session was in the middle of (origin 004): its active goals, pending tasks,
key decisions, the user's stated preferences, the files, tables, URLs and
identifiers it works with, and where its workflow stands. The latest one is
shown in every context (``localmem.packing``), so the user never has to say
it again. How one is made:

1. **The floor, always**: the structured state (the active goal, its open and
   completed subtasks, tracked files: ``localmem.state``) and the phrase rules
   of ``localmem.extract`` over the messages since the previous checkpoint.
2. **Carried forward**: merged onto the previous checkpoint (:func:`build`),
   so a preference stated in the first hour is still there after the tenth
   compaction, until the user restates it differently. Each list is capped
   (oldest out); the state is authoritative for goals, subtasks and workflow.
3. **The local model, when it is there**: asked in JSON mode (the summarizer's
   backend and model choice, ``Summarizer.ask_json``) for the updated
   checkpoint, validated by pydantic; each item it adds is kept only where
   one message (or a line of the state) supports it, with the same
   negations, and never flips a warning (:mod:`localmem.grounding`; a
   preference only from the user's own words stating a taste, a reference
   only verbatim), where its status puts it (:mod:`localmem.statements`: a
   step done only when a message says so, a plan as a next step, no lone
   word or small talk as a step; a decision only where a sentence decides,
   a goal or current step only where one says what someone is after, and
   nothing to do that a later sentence reports done or the chat made and
   accepted, that it ruled out, that is advice for a case not come, or whose
   numbers it says of something else: ``progress.unstated``; a one-word
   preference is no word describing another: ``statements.modifies``),
   and never replaces the floor (:func:`overlay`). The checkpoint's source
   is the model only when one of its items survived; any failure leaves the
   floor alone.

A checkpoint is taken automatically before every compaction (asking the model
only when at least ``structured_min_tokens`` new tokens are at stake) and on
request (``store.checkpoint``: ``localmem.checkpoints``, which reads the state and
stores the result); the newest
:data:`CHECKPOINTS_KEPT` per session are kept. Its rendered lines are stored
with their token counts, so the context shows exactly what was counted.

Summary facts, made the same way for each summary, are ``localmem.facts``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from pydantic import field_validator

from . import extract as rules
from . import entities, progress, replies, staleness, statements, turns, verbs
from .acts import opens_with_its_verb
from .answers import MAX_REFERENCES, Answer, merge_items, strings
from .grounding import Evidence
from .models import CheckpointData, Message, References, WorkflowState

logger = logging.getLogger("localmem")

RULES = "rules"
"""The ``source`` of a checkpoint or of facts made by the rules alone."""
CHECKPOINTS_KEPT = 10
MAX_GOALS = 3
MAX_TASKS = 10
MAX_DECISIONS = 12
MAX_PREFERENCES = 20
MAX_STEPS = 5
REFERENCE_LABELS = (("files", "Files"), ("tables", "Tables"), ("urls", "URLs"), ("identifiers", "Identifiers"))


# --- the floor: state and rules, carried forward -------------------------------------


@dataclass(frozen=True)
class StateSnapshot:
    """The structured state a checkpoint reads (``Checkpoints.snapshot``)."""

    has_goals: bool = False
    active_goal: str | None = None
    open_subtasks: tuple[tuple[str, str], ...] = ()
    """(name, status) of the active goal's open subtasks (goal-less ones if none is active)."""
    done_subtasks: tuple[str, ...] = ()
    """Names of the active goal's completed subtasks, oldest first."""
    closed: frozenset[str] = frozenset()
    """Case-folded names of every subtask of the session that is no longer open."""
    files: tuple[str, ...] = ()
    """Tracked files, newest touch first."""

    @property
    def has_structure(self) -> bool:
        """True when goals or subtasks drive the workflow (the state is authoritative)."""
        return bool(self.active_goal or self.open_subtasks or self.done_subtasks)

    def lines(self) -> list[str]:
        out = [f"Goal: {self.active_goal}"] if self.active_goal else []
        out += [f"Subtask [{status}]: {name}" for name, status in self.open_subtasks]
        out += [f"Done: {name}" for name in self.done_subtasks[-MAX_STEPS:]]
        out += [f"File: {path}" for path in self.files[:MAX_REFERENCES]]
        return out


def build(
    previous: CheckpointData | None, state: StateSnapshot, found: rules.Extracted
) -> CheckpointData:
    """The deterministic checkpoint: ``previous`` carried forward, updated by the
    state and by what the rules ``found`` in the new messages."""
    prev = previous or CheckpointData()
    if state.has_goals:  # the state knows which goal is active
        goals = [state.active_goal] if state.active_goal else []
    else:
        goals = rules.update(prev.active_goals, found.goals)[-MAX_GOALS:]
    open_names = [name for name, _ in state.open_subtasks]
    taken = {name.casefold() for name in open_names} | state.closed
    carried = [t for t in rules.update(prev.pending_tasks, found.tasks) if t.casefold() not in taken]
    room = max(0, MAX_TASKS - len(open_names))
    tasks = open_names[:MAX_TASKS] + (carried[-room:] if room else [])
    refs = {
        kind: rules.unique(
            found.references[kind]
            + (list(state.files) if kind == "files" else [])
            + getattr(prev.context_references, kind)
        )[:MAX_REFERENCES]
        for kind in rules.REFERENCE_KINDS
    }
    if state.has_structure:
        current = next((n for n, s in state.open_subtasks if s == "in_progress"), None)
        current = current or next((n for n, s in state.open_subtasks if s == "pending"), None)
        workflow = WorkflowState(
            current_step=current,
            completed_steps=list(state.done_subtasks[-MAX_STEPS:]),
            next_steps=[n for n, s in state.open_subtasks if s == "pending" and n != current][:MAX_STEPS],
        )
    elif state.has_goals:  # goals, none active: no workflow is under way
        workflow = WorkflowState()
    else:
        workflow = prev.workflow_state
    return _clipped(
        CheckpointData(
            active_goals=goals,
            pending_tasks=tasks,
            key_decisions=rules.update(prev.key_decisions, found.decisions)[-MAX_DECISIONS:],
            user_preferences=rules.update(prev.user_preferences, found.preferences)[-MAX_PREFERENCES:],
            context_references=References(**refs),
            workflow_state=workflow,
        )
    )


def floor(
    previous: CheckpointData | None, state: StateSnapshot, pairs: Sequence[tuple[str, str]]
) -> CheckpointData:
    """:func:`build` over what the rules find in ``pairs`` (the new messages, oldest
    first), without the pending tasks a later sentence reports done ("Remember to clear
    the shelves." "Cleared."; ``progress.done_later``, ``made_later``, ``checked``; "did that" right
    after it: ``turns.reported_done``) or reports done in part ("Reconnect the printer and
    the TV." "Done, the printer works again.": ``progress.partly_done`` of a task that opens
    with its verb, one action on several things; it no longer says what is left to do): a
    task found in
    these messages is read against the sentences after it, one carried forward against
    all of them. The state's open subtasks stay (the state is authoritative). A reference
    only an option the user turned down named is none (``replies.turned_down``), and a piece of
    writing the chat quotes as such (``replies.drafts``: a speech's paragraph the assistant
    wrote, "Here's my opening line: '...'") gives no goal, task, decision or preference: its
    "I decided ..." is the piece's line, not the conversation's."""
    pieces = replies.drafts([text for _, text in pairs], [role for role, _ in pairs])
    found = rules.extract([(role, replies.without_drafts(text, pieces)) for role, text in pairs] if pieces else pairs)
    named = rules.extract(pairs).references if pieces else found.references  # a piece's files are still named
    found.references = {kind: [n for n in names if not replies.turned_down(n, pairs)] for kind, names in named.items()}
    data = build(previous, state, found)
    said = [(k, s) for k, (_, text) in enumerate(pairs) for s in rules.sentences(text[: rules.MAX_SCAN_CHARS])]
    open_names = {name.casefold() for name, _ in state.open_subtasks}

    def done(task: str) -> bool:
        if task.casefold() in open_names:
            return False
        first = next((i for i, (_, s) in enumerate(said) if task in s), -1)
        at = said[first][0] if first >= 0 else -1
        later = [(s, k == at + 1) for k, s in said[first + 1:]] if first >= 0 else [(s, False) for _, s in said]
        after = [s for s, _ in later]
        return (progress.done_later(task, later) or progress.made_later(task, after) or progress.checked(task, after)
                or (opens_with_its_verb(task) and progress.partly_done(task, after))
                or turns.reported_done(task, pairs))

    tasks = [t for t in data.pending_tasks if not done(t)]
    return data if tasks == data.pending_tasks else data.model_copy(update={"pending_tasks": tasks})


def overlay(floor: CheckpointData, model: CheckpointData, state: StateSnapshot) -> CheckpointData:
    """``floor`` plus what ``model`` adds: items it does not already hold (nor restate).

    The state stays authoritative: the model adds no goal when the session has
    goals, no task that is a closed subtask, and no workflow when the floor has one.
    """
    workflow = floor.workflow_state
    if workflow == WorkflowState():
        workflow = model.workflow_state
    return _clipped(
        CheckpointData(
            active_goals=floor.active_goals
            if state.has_goals
            else merge_items(floor.active_goals, model.active_goals, MAX_GOALS),
            pending_tasks=merge_items(
                floor.pending_tasks,
                [t for t in model.pending_tasks if t.casefold() not in state.closed],
                MAX_TASKS,
            ),
            key_decisions=merge_items(floor.key_decisions, model.key_decisions, MAX_DECISIONS),
            user_preferences=merge_items(floor.user_preferences, model.user_preferences, MAX_PREFERENCES),
            context_references=References(
                **{
                    kind: merge_items(
                        getattr(floor.context_references, kind),
                        getattr(model.context_references, kind),
                        MAX_REFERENCES,
                    )
                    for kind in rules.REFERENCE_KINDS
                }
            ),
            workflow_state=workflow,
        )
    )


def render_lines(
    data: CheckpointData, state: StateSnapshot | None = None
) -> list[tuple[str, bool]]:
    """The checkpoint as the context shows it, most important first: goals,
    pending tasks, preferences, references, decisions, then the workflow.

    Each line comes with whether it repeats the structured ``state`` it was
    taken from (its goals, open subtasks, workflow): the context leaves those
    out while the session's live state is shown (``localmem.state``).
    """
    state = state or StateSnapshot()
    from_state = state.has_structure
    subtasks = {name.casefold() for name, _ in state.open_subtasks}
    lines = [(f"Goal: {g}", state.has_goals) for g in data.active_goals]
    lines += [(f"Pending: {t}", t.casefold() in subtasks) for t in data.pending_tasks]
    lines += [(f"Preference: {p}", False) for p in data.user_preferences]
    for kind, label in REFERENCE_LABELS:
        names = getattr(data.context_references, kind)
        if names:
            lines.append((f"{label}: {', '.join(names)}", False))
    lines += [(f"Decision: {d}", False) for d in data.key_decisions]
    flow = data.workflow_state
    if flow.current_step:
        lines.append((f"Current step: {flow.current_step}", from_state))
    if flow.completed_steps:
        lines.append((f"Done: {'; '.join(flow.completed_steps)}", from_state))
    if flow.next_steps:
        lines.append((f"Next: {'; '.join(flow.next_steps)}", from_state))
    return lines


# --- what a model may answer ----------------------------------------------------------


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
        theirs, when known (who answered whom: ``progress.unstated``); ``tools``: by a
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
                    place, reason = progress.placed(field, support, item)
                    unsaid = field == "completed_steps" and reason == "not said to be done"
                    if unsaid:
                        place, reason = "next_steps", None  # done only if reported done later
                    if place is not None and reason is None:
                        reason = progress.unstated(
                            place, item, support, sentences.sources, owners, last, roles, tools or {}
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
        return _clipped(
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
    """What a model's checkpoint line was kept for (:func:`with_model`): the ids of the
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
"""Why ``progress.unstated`` finds something no longer to do because it was done after (or
as) it was said: a completed step so found stays completed."""
_TO_DO = ("pending_tasks", "current_step", "next_steps")
"""The fields whose items are something to do: each names an action (a verb)."""


def with_model(
    floor: CheckpointData,
    answer: ModelCheckpoint,
    model: str,
    state: StateSnapshot,
    messages: Sequence[Message],
    judged: dict[str, Support] | None = None,
    verdicts: list[tuple[str, str, str | None]] | None = None,
) -> tuple[CheckpointData, str]:
    """``floor`` with the model's supported items, and the source: the model only when
    one of its items is in the result. ``judged`` receives, by the text of each model
    line kept, what supported it (:class:`Support`); ``verdicts``, each item the model
    proposed that ``floor`` does not hold, as ``(field, item, why dropped or None)``
    (:meth:`ModelCheckpoint.supported`): what the model's record is judged on."""
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
    merged = overlay(
        floor,
        answer.supported(
            evidence, said, dropped, messages=len(texts), roles=roles, tools=tool_outputs(messages),
            sources=found, verdicts=proposed,
        ),
        state,
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
    return (merged, model) if merged != floor else (floor, RULES)


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


def _clipped(data: CheckpointData) -> CheckpointData:
    """Every statement on one line within ``extract.ITEM_CHARS``; the workflow's steps
    at most ``MAX_STEPS`` each way (a model's list is taken whole, and 5,000 steps made
    one line too long for any context)."""

    def c(items: list[str]) -> list[str]:
        return [rules.clip(i, rules.ITEM_CHARS) for i in items]

    flow = data.workflow_state
    return CheckpointData(
        active_goals=c(data.active_goals),
        pending_tasks=c(data.pending_tasks),
        key_decisions=c(data.key_decisions),
        user_preferences=c(data.user_preferences),
        context_references=References(
            **{
                k: [rules.clip(n, rules.NAME_CHARS) for n in getattr(data.context_references, k)]
                for k in rules.REFERENCE_KINDS
            }
        ),
        workflow_state=WorkflowState(
            current_step=rules.clip(flow.current_step, rules.ITEM_CHARS) if flow.current_step else None,
            completed_steps=c(flow.completed_steps[-MAX_STEPS:]),
            next_steps=c(flow.next_steps[:MAX_STEPS]),
        ),
    )
