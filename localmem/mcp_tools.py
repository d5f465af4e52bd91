"""The MCP server's tools: what a model can do with its memory.

The tools act through a :class:`Memory`: the store, and the current session
(the one a call acts on when it names none). Each tool is one call of the store's public API, run in a worker thread,
with its JSON schema from the type hints below (bounds included, so a model
sees them), a description written for a model, and MCP annotations that say
truthfully whether it only reads, changes what was there (destructive) or
can be repeated without further effect (idempotent). Arguments the library
would accept but no assistant should send (text longer than the caps, NUL
characters, a budget larger than any model's window) are refused here; the
library checks everything else. Results are text with ids, ready for a
model to read and act on (``localmem.mcp_text``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

import anyio
from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations
from pydantic import AfterValidator, Field, StringConstraints

from . import mcp_text
from .config import DEFAULT_PIN_IMPORTANCE
from .errors import InvalidInput
from .models import Role, SubtaskStatus
from .store import MemoryStore

T = TypeVar("T")
MAX_ID_CHARS = 200
MAX_MESSAGE_CHARS = 100_000
MAX_FACT_CHARS = 2_000
MAX_QUERY_CHARS = 2_000
MAX_NAME_CHARS = 1_000
MAX_RECALL_TOKENS = 1_000_000  # no model's window is larger
MAX_RESULTS = 100

READS = ToolAnnotations(
    readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False
)
ADDS = ToolAnnotations(
    readOnlyHint=False, destructiveHint=False, idempotentHint=False, openWorldHint=False
)
# Changes a record in place (its old value is gone) or deletes it; repeating changes nothing more.
REPLACES = ToolAnnotations(
    readOnlyHint=False, destructiveHint=True, idempotentHint=True, openWorldHint=False
)
# Ends the active goal: its record stays (archived), and a second call finds none to end.
ENDS = ToolAnnotations(
    readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False
)


def _no_nul(text: str) -> str:
    if "\x00" in text:
        raise ValueError("text must not contain NUL characters")
    return text


NoNul = AfterValidator(_no_nul)
Text = Annotated[str, StringConstraints(min_length=1, max_length=MAX_MESSAGE_CHARS), NoNul]
Fact = Annotated[str, StringConstraints(min_length=1, max_length=MAX_FACT_CHARS), NoNul]
Query = Annotated[str, StringConstraints(min_length=1, max_length=MAX_QUERY_CHARS), NoNul]
Name = Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME_CHARS), NoNul]
SessionId = Annotated[str, StringConstraints(min_length=1, max_length=MAX_ID_CHARS), NoNul]
Id = Annotated[int, Field(ge=1, strict=True)]
Count = Annotated[int, Field(ge=1, le=MAX_RESULTS, strict=True)]
Budget = Annotated[int, Field(ge=1, le=MAX_RECALL_TOKENS, strict=True)]
Importance = Annotated[float, Field(ge=0.0, le=1.0, strict=True)]
SessionArg = Annotated[
    SessionId | None, Field(description="The session to use; omit it for the current session.")
]
# Facts belong to the session now; "user" (every session sees it) joins this
# Literal once the store pins with no session (store.pin(None, ...)).
Scope = Literal["session", "user"]


class Memory:
    """The store the tools act through, and the current session: the one a call
    acts on when it names none (the server's ``--session``, or the last one
    ``start_session`` started)."""

    def __init__(self, store: MemoryStore, current: str | None = None) -> None:
        self.store = store
        self.current = current

    def session(self, session_id: str | None) -> str:
        """The session a call acts on: the one it names, else the current one."""
        chosen = session_id if session_id is not None else self.current
        if chosen is None:
            raise InvalidInput(
                "no session chosen: pass session_id, start one with start_session, "
                "or run the server with --session ID"
            )
        return chosen

    async def run(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``call(*args, **kwargs)`` in a worker thread (the store serialises them),
        so a wait on the file never stalls the protocol."""
        return await anyio.to_thread.run_sync(functools.partial(call, *args, **kwargs))


def add_tools(server: FastMCP, memory: Memory) -> None:
    """Register the tools on ``server``; each acts through ``memory``."""
    store = memory.store
    run = memory.run

    @server.tool(annotations=ADDS, structured_output=False)
    async def remember(
        text: Annotated[Text, Field(description="The message, exactly as said.")],
        role: Annotated[Role, Field(description="Who said it.")] = "user",
        session_id: SessionArg = None,
    ) -> str:
        """Store one message of the conversation in long-term memory.

        Store what the user says (and your own replies worth keeping) as they happen.
        Facts the user states that must never be lost (allergies, names, dates,
        "remember that ...") are pinned from it automatically.
        """
        m = await run(store.add_message, memory.session(session_id), role, text)
        return f"Stored message #{m.id} in session {m.session_id} ({m.token_count} tokens)."

    @server.tool(annotations=ADDS, structured_output=False)
    async def remember_fact(
        fact: Annotated[Fact, Field(description="The fact, as one short sentence.")],
        importance: Annotated[
            Importance, Field(description="0 to 1: the most important facts come first.")
        ] = DEFAULT_PIN_IMPORTANCE,
        scope: Annotated[
            Scope,
            Field(
                description="Who the fact belongs to: 'session' is this conversation; 'user' is"
                " the person, remembered in every conversation (allergies, names, preferences)."
            ),
        ] = "session",
        said_in: Annotated[
            Id | None,
            Field(
                description="The message id `remember` returned for the user's message that says"
                " it: needed to pin again a fact the user removed."
            ),
        ] = None,
        session_id: SessionArg = None,
    ) -> str:
        """Pin a fact so it is part of every recall of its session (scope 'user': of every
        session).

        Use it for what must never be forgotten: allergies and health needs,
        names, preferences, deadlines, decisions. Keep each fact short; a fact
        the session already holds as an automatic pin is replaced by this one.
        A fact the user removed is pinned again only from a message of theirs
        saying it since (store it with `remember`, pass its id as said_in).
        """
        # the assistant's word, not the user's own act: a fact the user removed stays removed
        # until the user says it again (store.pin(by="assistant"))
        owner = memory.session(session_id) if scope == "session" or said_in is not None else None
        p = await run(store.pin, owner, fact, said_in, importance=importance, scope=scope, by="assistant")
        return f"Pinned {mcp_text.pin_line(p)}"

    @server.tool(annotations=READS, structured_output=False)
    async def recall(
        query: Annotated[
            Query | None, Field(description="What the user asks about; older messages on it come.")
        ] = None,
        max_tokens: Annotated[
            Budget | None, Field(description="The token budget [default: 3000].")
        ] = None,
        session_id: SessionArg = None,
    ) -> str:
        """What memory holds for the next answer, within a token budget, ready to read.

        Returns the session's summaries, pinned facts, goals, the older messages
        that match the query and the newest turns, each under its role, and
        how many tokens they take. Call it at the start of a conversation and
        whenever the user refers to something said before.
        """
        ctx = await run(store.build_context, memory.session(session_id), max_tokens, query)
        return mcp_text.context_text(ctx)

    @server.tool(annotations=READS, structured_output=False)
    async def search(
        query: Annotated[Query, Field(description="Words to look for (any text).")],
        every_session: Annotated[
            bool, Field(description="Search all sessions, not only this one.")
        ] = False,
        limit: Count = 10,
        session_id: SessionArg = None,
    ) -> str:
        """Search stored messages, summaries and facts for words, best match first.

        Each match comes with its kind and id (a message's id for forget_message,
        a fact's for edit_fact and forget_fact) and a snippet.
        """
        scope = None if every_session else memory.session(session_id)
        hits = await run(store.search, query, session_id=scope, limit=limit)
        return mcp_text.hits_text(hits, query)

    @server.tool(annotations=READS, structured_output=False)
    async def list_facts(session_id: SessionArg = None) -> str:
        """List the facts pinned to a session (by hand and automatically), most important
        first, with their ids."""
        chosen = memory.session(session_id)
        return mcp_text.pins_text(await run(store.get_pins, chosen), chosen)

    @server.tool(annotations=REPLACES, structured_output=False)
    async def edit_fact(
        fact_id: Annotated[Id, Field(description="The fact's id (from list_facts or search).")],
        fact: Annotated[Fact | None, Field(description="Its new text.")] = None,
        importance: Annotated[Importance | None, Field(description="Its new importance.")] = None,
    ) -> str:
        """Correct a pinned fact's text and/or importance; the old text is not kept."""
        if fact is None and importance is None:  # the library's wording names its own parameter
            raise InvalidInput("nothing to change: give fact, importance or both")
        p = await run(store.update_pin, fact_id, content=fact, importance=importance)
        return f"Updated {mcp_text.pin_line(p)}"

    @server.tool(annotations=REPLACES, structured_output=False)
    async def forget_fact(fact_id: Annotated[Id, Field(description="The fact's id.")]) -> str:
        """Delete a pinned fact. An automatic one stays deleted unless the user says it again."""
        await run(store.unpin, fact_id)
        return f"Forgot fact #{fact_id}."

    @server.tool(annotations=REPLACES, structured_output=False)
    async def forget_message(
        message_id: Annotated[Id, Field(description="The message's id (from search).")],
    ) -> str:
        """Delete one stored message; its text also leaves the summaries, facts and checkpoints that quoted it."""
        await run(store.delete_message, message_id)
        return f"Forgot message #{message_id}."

    @server.tool(annotations=REPLACES, structured_output=False)
    async def forget_session(
        session_id: Annotated[SessionId, Field(description="The session to delete.")],
    ) -> str:
        """Delete a whole session: its messages, facts, summaries, goals and everything else.

        Only when the user asks for it; it cannot be undone.
        """
        await run(store.delete_session, session_id)
        if memory.current == session_id:
            memory.current = None
        return f"Forgot session {session_id} and everything in it."

    @server.tool(annotations=READS, structured_output=False)
    async def list_sessions(limit: Count = 20) -> str:
        """List the stored sessions (conversations), most recently active first, with ids."""
        sessions = await run(store.list_sessions)
        return mcp_text.sessions_text(sessions[:limit], len(sessions), memory.current)

    @server.tool(annotations=ADDS, structured_output=False)
    async def start_session(
        title: Annotated[Name | None, Field(description="A short title.")] = None,
        model: Annotated[Name | None, Field(description="The chat model, e.g. llama3.2.")] = None,
    ) -> str:
        """Start a new session and make it the current one for the calls that name none."""
        s = await run(store.create_session, model=model, title=title)
        memory.current = s.id
        return f"Started {mcp_text.session_name(s)}; it is now the current session."

    add_state_tools(server, memory)


def add_state_tools(server: FastMCP, memory: Memory) -> None:
    """Goals and subtasks: what a session is working towards, kept in its recall."""
    store = memory.store
    run = memory.run

    @server.tool(annotations=READS, structured_output=False)
    async def session_state(session_id: SessionArg = None) -> str:
        """Show the session's active goal, its subtasks with ids and statuses, and the
        finished goals."""
        chosen = memory.session(session_id)
        goals = await run(store.get_goals, chosen)
        subtasks = await run(store.get_subtasks, chosen)
        return mcp_text.state_text(goals, subtasks, chosen)

    @server.tool(annotations=ADDS, structured_output=False)
    async def set_goal(
        goal: Annotated[Name, Field(description="What the session now works towards.")],
        session_id: SessionArg = None,
    ) -> str:
        """Set the session's active goal; the previous one, if any, is completed and archived."""
        g = await run(store.set_goal, memory.session(session_id), goal)
        return f"Active goal #{g.id}: {g.text}"

    @server.tool(annotations=ADDS, structured_output=False)
    async def add_subtask(
        name: Annotated[Name, Field(description="The step, briefly.")],
        depends_on: Annotated[
            list[Id] | None, Field(max_length=50, description="Ids of subtasks it waits for.")
        ] = None,
        session_id: SessionArg = None,
    ) -> str:
        """Add a pending subtask to the active goal."""
        t = await run(store.add_subtask, memory.session(session_id), name, depends_on)
        return f"Added {mcp_text.subtask_line(t)}"

    @server.tool(annotations=REPLACES, structured_output=False)
    async def update_subtask(
        subtask_id: Annotated[Id, Field(description="The subtask's id (from session_state).")],
        status: SubtaskStatus,
        notes: Annotated[Name | None, Field(description="Replaces its notes.")] = None,
    ) -> str:
        """Set a subtask's status and, if given, its notes."""
        t = await run(store.update_subtask, subtask_id, status, notes)
        return f"Updated {mcp_text.subtask_line(t)}"

    @server.tool(annotations=ENDS, structured_output=False)
    async def finish_goal(
        outcome: Literal["completed", "failed", "cancelled"] = "completed",
        session_id: SessionArg = None,
    ) -> str:
        """End the session's active goal; its statistics are archived and it leaves the recall."""
        chosen = memory.session(session_id)
        if outcome == "cancelled":
            g = await run(store.cancel_goal, chosen)
        else:
            g = await run(store.complete_goal, chosen, outcome == "completed")
        return "No goal was active." if g is None else f"Goal #{g.id} {g.status}: {g.text}"
