"""The records localmem stores, as pydantic models.

Field names are the table columns (``Message.text``, ``Pin.content``,
``Summary.source`` ...). Rows read from the file become these models in
``localmem.db``; they are frozen snapshots: changing one changes nothing in
the database. ``NewMessage`` validates what a caller asks to write. An
``Item`` is an agent framework's own record of a message, stored beside it.
A ``SearchHit`` is one result of a full-text search.

Session state (``localmem.state``): a session works through goals
(:class:`Goal`); subtasks (:class:`Subtask`) and tool calls
(:class:`ToolExecution`) belong to the goal that was active when they were
recorded; :class:`TrackedFile` rows are the files it works on. A
:class:`Checkpoint` (``localmem.checkpoint``) holds :class:`CheckpointData`;
:class:`SummaryFacts` holds a summary's :class:`FactsData`. Their JSON
columns become the nested models here. What the store reports back (memory,
maintenance, stats, checks) is in ``localmem.reports``.
"""

from __future__ import annotations

from typing import Annotated, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, StrictStr

Role = Literal["system", "user", "assistant", "tool"]
PinKind = Literal["manual", "auto"]
HitKind = Literal["message", "summary", "pin"]
GoalStatus = Literal["active", "completed", "failed", "cancelled"]
SubtaskStatus = Literal["pending", "in_progress", "completed", "blocked", "cancelled"]
ROLES: tuple[str, ...] = ("system", "user", "assistant", "tool")
PIN_KINDS: tuple[str, ...] = ("manual", "auto")
GOAL_STATUSES: tuple[str, ...] = ("active", "completed", "failed", "cancelled")
SUBTASK_STATUSES: tuple[str, ...] = ("pending", "in_progress", "completed", "blocked", "cancelled")
OPEN_SUBTASK_STATUSES: tuple[str, ...] = ("pending", "in_progress", "blocked")


class Record(BaseModel):
    """A row of the file, frozen: the base of every record here and in ``reports``."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Session(Record):
    """A conversation. ``model`` is the chat model the assistant uses for it.

    ``persist`` is False for a session that keeps nothing (``create_session(...,
    persist=False)``): it lives in memory only, never in the file.
    """

    id: str
    title: str | None
    model: str | None
    created_at: str
    updated_at: str
    persist: bool = True


class SessionOverview(Record):
    """A session with its counts, as the ``session_overview`` view shows it.

    ``last_activity`` is the later of the session's own update and its newest
    message; ``active_goal`` the text of its active goal, if any;
    ``latest_checkpoint_at`` when its newest checkpoint was taken.
    """

    id: str
    title: str | None
    model: str | None
    created_at: str
    last_activity: str
    message_count: int
    token_count: int
    summary_count: int
    pin_count: int
    active_goal: str | None
    latest_checkpoint_at: str | None


class Message(Record):
    """One stored turn; ``id`` orders a session's messages."""

    id: int
    session_id: str
    role: Role
    text: str
    model_id: str | None
    token_count: int
    importance_score: float
    created_at: str


class Summary(Record):
    """A summary of the messages ``start_message_id``..``end_message_id`` (inclusive).

    ``level`` 1 summarizes messages, 2 summarizes level-1 summaries.
    ``source`` is the model that wrote it, or ``fallback`` / ``offline``
    when the deterministic keyword summary took its place.
    """

    id: int
    session_id: str
    text: str
    start_message_id: int
    end_message_id: int
    message_count: int
    level: int
    source: str
    importance_score: float
    token_count: int
    created_at: str


class Pin(Record):
    """A fact kept in every context of its session, by importance.

    ``session_id`` None: a fact of the user's, in every session's context.
    ``superseded_at``: when a later fact updated it (it is kept for the
    history, out of contexts); the pins of one chain share a ``slot``.
    """

    id: int
    session_id: str | None
    content: str
    source_message_id: int | None
    importance_score: float
    kind: PinKind
    token_count: int
    created_at: str
    slot: str | None = None
    superseded_at: str | None = None

    @property
    def scope(self) -> str:
        """``"user"`` or ``"session"``."""
        return "user" if self.session_id is None else "session"


class PinLink(Record):
    """A pin and a message it rests on: one of the messages it was built from
    (``pin_sources``), or the message whose update ended it (``pin_endings``)."""

    pin_id: int
    message_id: int


class Item(Record):
    """A framework's own record of one message, kept verbatim as JSON text.

    ``message_id`` is the message that carries the item's readable text (and
    orders a session's items); ``kind`` names the framework that wrote it
    (``openai-agents``, ``langchain``).
    """

    message_id: int
    session_id: str
    kind: str
    data: str


class SearchHit(Record):
    """A message, summary or pin that matched a search.

    ``id`` is the row's id in its own table (``kind`` says which); ``text`` is
    the whole text (a pin's ``content``); ``snippet`` is the best passage,
    matched words between ``[`` and ``]``. ``score`` is BM25's (higher is
    better); it orders one search's hits and means nothing across searches.
    ``created_at`` is when the row was written (a message: when it was said).
    """

    kind: HitKind
    id: int
    session_id: str | None
    text: str
    score: float
    snippet: str
    created_at: str


class NewMessage(BaseModel):
    """A message a caller asks to store; validated before anything is written."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    role: Role
    text: StrictStr
    model_id: StrictStr | None = None


# --- session state -------------------------------------------------------------


class Goal(Record):
    """What the session is working towards. At most one goal of a session is ``active``.

    ``archive`` is set when the goal ends: rule-based statistics of its tool
    runs and subtasks (``localmem.state.archive_stats``), a dict that is also
    JSON in the file (``json_extract(archive, '$.tools.total')``).
    """

    id: int
    session_id: str
    text: str
    status: GoalStatus
    token_count: int
    archive: dict | None
    archive_tokens: int | None
    created_at: str
    ended_at: str | None


class Subtask(Record):
    """A step of a goal (``goal_id`` None: recorded while no goal was active).

    ``dependencies`` are ids of subtasks of the same session.
    """

    id: int
    session_id: str
    goal_id: int | None
    name: str
    status: SubtaskStatus
    dependencies: list[int]
    notes: str | None
    token_count: int
    created_at: str
    updated_at: str


class ToolExecution(Record):
    """One tool call the agent made, tied to the goal active at the time."""

    id: int
    session_id: str
    goal_id: int | None
    tool_name: str
    arguments: dict
    success: bool
    result_summary: str | None
    error_message: str | None
    token_count: int
    created_at: str


class TrackedFile(Record):
    """A file the session works on; ``modified`` once it was changed. ``seq`` orders last touches."""

    id: int
    session_id: str
    path: str
    modified: bool
    seq: int
    token_count: int
    created_at: str
    updated_at: str


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


Tally = dict[str, Annotated[int, Field(ge=0)]]


class ToolStats(_Data):
    """A finished goal's tool runs (``localmem.state.archive_stats``)."""

    total: int = Field(ge=0)
    succeeded: int = Field(ge=0)
    success_rate: float | None = Field(ge=0, le=1, allow_inf_nan=False)
    usage: Tally
    error_patterns: Tally
    first: str | None
    last: str | None


class SubtaskStats(_Data):
    """A finished goal's subtasks, by status and by theme."""

    total: int = Field(ge=0)
    by_status: Tally
    themes: Tally


class GoalArchive(_Data):
    """The statistics a goal keeps when it ends (``Goal.archive`` holds them as a dict):
    what the context renders, and what an import must hold to be accepted."""

    tools: ToolStats
    subtasks: SubtaskStats
    started_at: str
    ended_at: str


class References(_Data):
    """Names a conversation keeps coming back to, newest first within each kind."""

    files: list[str] = Field(default_factory=list)
    tables: list[str] = Field(default_factory=list)
    urls: list[str] = Field(default_factory=list)
    identifiers: list[str] = Field(default_factory=list)


class WorkflowState(_Data):
    """Where a multi-step piece of work stands."""

    current_step: str | None = None
    completed_steps: list[str] = Field(default_factory=list)
    next_steps: list[str] = Field(default_factory=list)


class CheckpointData(_Data):
    """What a session was in the middle of (origin 004's checkpoint schema).

    ``key_decisions`` and ``user_preferences`` are statements, oldest first; a
    statement that restates an earlier one (``localmem.extract.restates``)
    replaces it, so a changed preference is not shown twice.
    """

    active_goals: list[str] = Field(default_factory=list)
    pending_tasks: list[str] = Field(default_factory=list)
    key_decisions: list[str] = Field(default_factory=list)
    user_preferences: list[str] = Field(default_factory=list)
    context_references: References = Field(default_factory=References)
    workflow_state: WorkflowState = Field(default_factory=WorkflowState)


class Checkpoint(Record):
    """A snapshot of :class:`CheckpointData`, taken before a compaction or on request.

    ``source`` is the local model that contributed to it, or ``rules`` when
    the deterministic extraction alone made it. ``through_message_id`` is the
    newest message it read. ``lines`` are its rendered lines, each with its
    token count and whether it repeats the structured state (goals, subtasks,
    workflow: left out of a context that shows the live state);
    ``token_count`` is their sum.
    """

    id: int
    session_id: str
    data: CheckpointData
    source: str
    through_message_id: int
    token_count: int
    lines: list[tuple[str, int, bool]]
    created_at: str


class FactsData(_Data):
    """The structured side of a summary (origin 002): what a span established."""

    key_facts: list[str] = Field(default_factory=list)
    decisions: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    open_questions: list[str] = Field(default_factory=list)


class SummaryFacts(Record):
    """The :class:`FactsData` of the level-1 summary ``id``; ``source`` as for checkpoints."""

    id: int
    session_id: str
    data: FactsData
    text: str
    source: str
    created_at: str


class LineSource(Record):
    """One line of a checkpoint or of a summary's facts, and the messages it rests on
    (``store.line_sources``).

    ``kind`` says which: ``checkpoint`` (``owner_id``: the checkpoint's id) or ``facts``
    (``owner_id``: the summary's id). ``item`` is the line's JSON path in the owner's
    ``data`` (``$.user_preferences[0]``,
    ``$.workflow_state.current_step``, ``$.key_facts[1]``); ``text`` the line;
    ``message_ids`` the messages it rests on, oldest first: the messages it was read or
    judged from, all of them when it was built from several (forgetting any one drops or
    rewrites the line). Empty for a line of the session state that no message says, and
    for what was stored before localmem recorded sources (or imported).
    """

    kind: Literal["checkpoint", "facts"]
    owner_id: int
    item: str
    text: str
    message_ids: list[int]


class FactLink(Record):
    """A line of a summary's facts and a message it rests on (``fact_sources``)."""

    summary_id: int
    item: str
    message_id: int


class CheckpointLink(Record):
    """A line of a checkpoint and a message it rests on (``checkpoint_sources``)."""

    checkpoint_id: int
    item: str
    message_id: int


# --- a session's rows, for an export ------------------------------------------------


class SessionRows(NamedTuple):
    """Every row of one session, each table oldest (lowest id) first: what an
    export reads (``db.session_rows``) and writes (``localmem.jsonl``)."""

    session: Session
    messages: list[Message]
    items: list[Item]
    pins: list[Pin]
    pin_sources: list[PinLink]
    pin_endings: list[PinLink]
    summaries: list[Summary]
    facts: list[SummaryFacts]
    fact_sources: list[FactLink]
    goals: list[Goal]
    subtasks: list[Subtask]
    tools: list[ToolExecution]
    files: list[TrackedFile]
    checkpoints: list[Checkpoint]
    checkpoint_sources: list[CheckpointLink]


class ImportReport(BaseModel):
    """What an import wrote: each session as (id in the export, id in this file),
    in the export's order, and how many records of each type it wrote (a pin left
    out, with its links, is not counted); the sessions it
    left alone because this file had them (``skipped``) and those it replaced
    (``replaced``, also in ``sessions``); whether an end record vouched for the
    whole input (``verified``: False while it is incomplete, or ``unverified``
    imported one without it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sessions: list[tuple[str, str]]
    counts: dict[str, int]
    skipped: list[str] = []
    replaced: list[str] = []
    kept_in_session: list[int] = []
    """Pins the export marked as the user's but that name no source message: kept (by
    their id here) with their imported session, never made facts of the user's;
    deleting the session deletes them."""
    removed: int = 0
    """Automatic pins left out because the user removed their fact in this file (unpinned
    it, or forgot the message it came from): an import is a record of what was said
    before, never the user saying it again (``db.buried_after``)."""
    ended_elsewhere: int = 0
    """Superseded pins imported whose update was said in another session: an export's
    records name only the messages of their own session, so the ending is not carried
    (even when that session is exported too). They are kept in history, and no forget in
    this file can make them current again; pin the fact by hand if it holds."""
    verified: bool = False
