"""How the memory reads as plain text, for a model's tool results and an app's resources.

Pure functions from the store's records to text; the MCP server
(``localmem.mcp_server``) returns what they build. Ids are always shown, so
a model can act on what it reads (edit or forget a fact, forget a message).

Stored text is data, never a voice: what recall, search and the transcript
return starts with localmem's memory preamble (``context.MEMORY_PREAMBLE``),
each block stands under a header line that begins at the line's start, and
every line of stored text is indented (:func:`as_data`), so no stored text
("\n\n[system]\n...") can read as a header, and a message stored with the
role "system" reads as a remembered message that said so, not as a system
block. Titles and snippets are single lines (quoted, whitespace collapsed).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .context import MEMORY_PREAMBLE, MemoryContext
from .models import Goal, Message, Pin, SearchHit, Session, Subtask


DATA_INDENT = "    "


def as_data(text: str) -> str:
    """Stored text, every line indented: it can never begin a line the way a header does."""
    return "\n".join(DATA_INDENT + line if line else "" for line in text.splitlines() or [""])


def one_line(text: str) -> str:
    """A stored string on one line (titles, ids, snippets): whitespace collapsed."""
    return " ".join(text.split())


def session_name(session: Session) -> str:
    title = f" {one_line(session.title)!r}" if session.title else ""
    return f"session{title} (id {one_line(session.id)})"


def context_text(ctx: MemoryContext) -> str:
    """A built context as one text: the memory preamble, then localmem's notes and each
    remembered message under its own header (their text as data), then the tokens spent."""
    blocks = [MEMORY_PREAMBLE]
    for n, m in enumerate(ctx.to_messages()):
        content = m["content"]
        if n == 0 and m["role"] == "system" and content.startswith(MEMORY_PREAMBLE):
            blocks.append("[localmem's notes: summaries, facts, state]\n"
                          + as_data(content[len(MEMORY_PREAMBLE):].strip("\n")))
        else:
            blocks.append(f"[remembered message, said by: {m['role']}]\n{as_data(content)}")
    parts = ", ".join(f"{name} {tokens}" for name, tokens in ctx.breakdown.items() if tokens)
    footer = f"({ctx.total_tokens} of {ctx.max_tokens} tokens: {parts or 'nothing stored yet'}"
    footer += "; a message was clipped to fit)" if ctx.clipped else ")"
    return "\n\n".join([*blocks, footer])


def pin_line(p: Pin) -> str:
    return f"fact #{p.id} ({p.kind}, importance {p.importance_score:g}): {p.content}"


def pins_text(pins: Sequence[Pin], session_id: str) -> str:
    if not pins:
        return f"No facts are pinned to session {session_id}."
    return "\n".join([f"{len(pins)} facts of session {session_id}, most important first:"]
                     + [pin_line(p) for p in pins])


def hit_line(h: SearchHit) -> str:
    kind = "fact" if h.kind == "pin" else h.kind
    where = "of the user (every session)" if h.session_id is None else f"in session {h.session_id!r}"
    return f"{kind} #{h.id} {where}:\n{as_data(one_line(h.snippet))}"


def hits_text(hits: Sequence[SearchHit], query: str) -> str:
    if not hits:
        return f"Nothing in memory matches {query!r}."
    head = f"{len(hits)} matches for {query!r}, best first (matched words in [ ]):"
    return "\n".join([MEMORY_PREAMBLE, "", head] + [hit_line(h) for h in hits])


def sessions_text(sessions: Sequence[Session], total: int, current: str | None) -> str:
    if not sessions:
        return "No sessions yet: start one with start_session."
    lines = [f"{len(sessions)} of {total} sessions, most recently active first:"]
    for s in sessions:
        mark = " (current)" if s.id == current else ""
        title = repr(one_line(s.title)) if s.title else ""
        lines.append(f"{one_line(s.id)}{mark}\tlast active {s.updated_at}\t{s.model or '-'}\t{title}")
    return "\n".join(lines)


def subtask_line(t: Subtask) -> str:
    after = f", after #{', #'.join(map(str, t.dependencies))}" if t.dependencies else ""
    notes = f" ({t.notes})" if t.notes else ""
    return f"subtask #{t.id} [{t.status}{after}]: {t.name}{notes}"


def state_text(goals: Sequence[Goal], subtasks: Sequence[Subtask], session_id: str) -> str:
    """The active goal and its subtasks (and those of no goal), then the finished goals."""
    active = next((g for g in goals if g.status == "active"), None)
    lines = [f"Session {session_id}:"]
    lines.append(f"active goal #{active.id}: {active.text}" if active else "no active goal")
    current = None if active is None else active.id
    lines += [subtask_line(t) for t in subtasks if t.goal_id in (None, current)]
    finished = [g for g in goals if g.status != "active"]
    if finished:
        lines.append(f"{len(finished)} finished goals, newest first:")
        lines += [f"goal #{g.id} [{g.status}]: {g.text}" for g in reversed(finished)]
    return "\n".join(lines)


def transcript_text(session: Session, messages: Iterable[Message]) -> str:
    lines = [MEMORY_PREAMBLE, "", f"Transcript of {session_name(session)}, oldest first", ""]
    for m in messages:
        lines += [f"[message #{m.id}, said by: {m.role}, {m.created_at}]", as_data(m.text), ""]
    return "\n".join(lines)
