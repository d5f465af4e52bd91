"""Checkpoints, the structured state that survives compaction: what one holds, the rules'
floor it is made of, carried forward, and the model's items laid over it.

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
3. **The local model, when it is there**: the items of its answer the messages
   support (judged by ``localmem.model_checkpoint``) are laid over the floor
   (:func:`overlay`), never replacing it. The checkpoint's source is the model
   only when one of its items survived; any failure leaves the floor alone.

A checkpoint is taken automatically before every compaction (asking the model
only when at least ``structured_min_tokens`` new tokens are at stake) and on
request (``store.checkpoint``: ``localmem.checkpoints``, which reads the state and
stores the result); the newest
:data:`CHECKPOINTS_KEPT` per session are kept. Its rendered lines are stored
with their token counts, so the context shows exactly what was counted.

Summary facts, made the same way for each summary, are ``localmem.facts``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import extract as rules
from . import progress, replies, turns
from .acts import opens_with_its_verb
from .answers import MAX_REFERENCES, MAX_STEPS, clip_checkpoint, merge_items
from .models import CheckpointData, References, WorkflowState

RULES = "rules"
"""The ``source`` of a checkpoint or of facts made by the rules alone."""
CHECKPOINTS_KEPT = 10
MAX_GOALS = 3
MAX_TASKS = 10
MAX_DECISIONS = 12
MAX_PREFERENCES = 20
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
    return clip_checkpoint(
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
    with its verb, one action on several things; it no longer says what is left to do), or a
    task laid on several people that one of them reports done ("you'll each need payslips
    ..." "Sam's done his referencing": ``progress.done_by_one``; as said of everyone, it no
    longer says what is left, the others' part), or a run reported by its outcome ("run the
    tests" ... "tests green": ``progress.ran_later``): a
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
                or progress.done_by_one(task, after) or progress.ran_later(task, after)
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
    return clip_checkpoint(
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
