"""Sessions and their conversation: ``demo``, ``new``, ``sessions``, ``add``, ``messages``,
``context``, ``search``.
"""

from __future__ import annotations

import click

from ..context import MemoryContext
from ..demo import DEMO_CONVERSATION, DEMO_MODEL, DEMO_PINS, DEMO_SESSION_ID, DEMO_TITLE
from ..errors import SessionNotFound
from ..store import MemoryStore
from ..summarizer import FALLBACK, OFFLINE
from .base import _echo_json, cli, json_option, with_store


SUMMARY_SOURCES = {
    OFFLINE: "offline (no local Ollama server answered): a deterministic summary",
    FALLBACK: "by the keyword fallback (no usable local model answer)",
}


@cli.command()
@click.option("--max-tokens", type=click.IntRange(min=0), default=None, help="Token budget.")
@with_store
def demo(store: MemoryStore, max_tokens: int | None) -> None:
    """Store a demo conversation (session 'demo') and print its context."""
    try:
        store.delete_session(DEMO_SESSION_ID)
    except SessionNotFound:
        pass
    session = store.create_session(model=DEMO_MODEL, title=DEMO_TITLE, session_id=DEMO_SESSION_ID)
    store.add_messages(session.id, [{"role": r, "text": t} for r, t in DEMO_CONVERSATION])
    for content, importance in DEMO_PINS:
        store.pin(session.id, content, importance=importance)
    automatic = len(store.get_pins(session.id, kind="auto"))
    click.echo(
        f"Stored {len(DEMO_CONVERSATION)} messages in session {session.id!r} of {store.path}; "
        f"pinned {len(DEMO_PINS)} fact by hand and {automatic} automatically."
    )
    click.echo(f"Tokens counted with {store.tokenizer_name}.")
    summary = store.summarize(session.id)
    if summary is not None:
        how = SUMMARY_SOURCES.get(summary.source, f"by the local model {summary.source}")
        click.echo(f"Messages {summary.start_message_id}-{summary.end_message_id} summarized {how}.")
    click.echo()
    _print_context(store.build_context(session.id, max_tokens=max_tokens))


@cli.command()
@click.option("--model", default=None, help="The chat model this session uses.")
@click.option("--title", default=None, help="A title for the session.")
@click.option("--id", "session_id", default=None, help="The session id [default: random].")
@json_option
@with_store
def new(
    store: MemoryStore, model: str | None, title: str | None, session_id: str | None, as_json: bool
) -> None:
    """Create a session and print its id."""
    created = store.create_session(model=model, title=title, session_id=session_id)
    if as_json:
        _echo_json(created.model_dump())
        return
    click.echo(created.id)


@cli.command()
@json_option
@with_store
def sessions(store: MemoryStore, as_json: bool) -> None:
    """List sessions, most recently updated first."""
    rows = store.list_sessions()
    if as_json:
        _echo_json([s.model_dump() for s in rows])
        return
    for s in rows:
        click.echo(f"{s.id}\t{s.updated_at}\t{s.model or '-'}\t{s.title or ''}")


@cli.command()
@click.argument("session")
@click.argument("role", type=click.Choice(["system", "user", "assistant", "tool"]))
@click.argument("text")
@json_option
@with_store
def add(store: MemoryStore, session: str, role: str, text: str, as_json: bool) -> None:
    """Add a message to SESSION and print its id, tokens and importance."""
    m = store.add_message(session, role, text)
    if as_json:
        _echo_json(m.model_dump())
        return
    click.echo(f"{m.id}\ttokens={m.token_count}\timportance={m.importance_score}")


@cli.command()
@click.argument("session")
@json_option
@click.option("--limit", type=click.IntRange(min=0), default=None, help="At most this many.")
@with_store
def messages(store: MemoryStore, session: str, as_json: bool, limit: int | None) -> None:
    """Print a session's messages, oldest first."""
    rows = store.get_messages(session, limit=limit)
    if as_json:
        _echo_json([m.model_dump() for m in rows])
        return
    for m in rows:
        click.echo(f"#{m.id} {m.role} ({m.token_count} tokens, importance {m.importance_score}): {m.text}")


@cli.command()
@click.argument("session")
@click.option("--max-tokens", type=click.IntRange(min=0), default=None, help="Token budget.")
@click.option(
    "--query", default=None, help="Also carry the older messages that best match this text."
)
@json_option
@with_store
def context(
    store: MemoryStore, session: str, max_tokens: int | None, query: str | None, as_json: bool
) -> None:
    """Print the context SESSION's next model call would get, and its token breakdown."""
    ctx = store.build_context(session, max_tokens=max_tokens, query=query)
    if as_json:
        data = ctx.model_dump()
        data["messages"] = ctx.to_messages()
        _echo_json(data)
        return
    _print_context(ctx)


@cli.command()
@click.argument("query")
@click.option("--session", "session_id", default=None, help="Search this session only.")
@click.option(
    "--limit", type=click.IntRange(min=0), default=10, show_default=True, help="At most this many."
)
@json_option
@with_store
def search(
    store: MemoryStore, query: str, session_id: str | None, limit: int, as_json: bool
) -> None:
    """Search messages, summaries and pins for QUERY's words, best first.

    Any text is a query: its words are matched, never its operators. Prints
    one line per hit (kind and id, session, score, snippet with the matched
    words in [ ]).
    """
    hits = store.search(query, session_id=session_id, limit=limit)
    if as_json:
        _echo_json([h.model_dump() for h in hits])
        return
    for h in hits:
        snippet = " ".join(h.snippet.split())
        click.echo(f"{h.kind} #{h.id}\t{h.session_id}\t{h.score:.2f}\t{snippet}")


def _print_context(ctx: MemoryContext) -> None:
    for message in ctx.to_messages():
        click.secho(f"── {message['role']} ", bold=True)
        click.echo(message["content"])
    parts = ", ".join(f"{name} {tokens}" for name, tokens in ctx.breakdown.items())
    click.echo(f"\n{ctx.total_tokens} of {ctx.max_tokens} tokens ({parts})")
    if ctx.clipped:
        click.echo("A message was clipped to fit the budget.")
