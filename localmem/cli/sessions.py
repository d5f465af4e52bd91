"""Sessions and their conversation: ``demo``, ``new``, ``sessions``, ``add``, ``messages``,
``context``, ``search``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, TextIO

import click

from ..context import MemoryContext
from ..demo import DEMO_CONVERSATION, DEMO_MODEL, DEMO_PINS, DEMO_SESSION_ID, DEMO_TITLE, demo_session_id
from ..errors import InvalidInput, SessionNotFound
from ..summarizer import FALLBACK, OFFLINE
from .base import cli, json_option, resolve_session, session_argument, with_store
from .output import echo_json, print_rows, rows_options

if TYPE_CHECKING:  # commands are handed the store (``with_store``): its type, for the checker
    from ..store import MemoryStore


SUMMARY_SOURCES = {
    OFFLINE: "offline (no local Ollama server answered): a deterministic summary",
    FALLBACK: "by the keyword fallback (no usable local model answer)",
}
ROLES = click.Choice(["system", "user", "assistant", "tool"])


@cli.command()
@click.option("--max-tokens", type=click.IntRange(min=0), default=None, help="Token budget.")
@with_store(create=True, model=True)
def demo(store: MemoryStore, max_tokens: int | None) -> None:
    """Store a demo conversation (session 'demo') and print its context.

    Running it again replaces the demo's own session; a session named 'demo'
    that the demo did not write is left untouched (the demo goes to 'demo-2').
    """
    sid = demo_session_id(store)
    try:
        store.delete_session(sid)  # the demo's own, from an earlier run
    except SessionNotFound:
        pass
    session = store.create_session(model=DEMO_MODEL, title=DEMO_TITLE, session_id=sid)
    store.add_messages(session.id, [{"role": r, "text": t} for r, t in DEMO_CONVERSATION])
    for content, importance in DEMO_PINS:
        store.pin(session.id, content, importance=importance)
    automatic = len(store.get_pins(session.id, kind="auto"))
    if sid != DEMO_SESSION_ID:
        click.echo(f"Session {DEMO_SESSION_ID!r} is not the demo's: left untouched.")
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
@click.option("-m", "--model", default=None, help="The chat model this session uses.")
@click.option("--title", default=None, help="A title for the session.")
@click.option("--id", "session_id", default=None, help="The session id [default: random].")
@json_option
@with_store(create=True)
def new(
    store: MemoryStore, model: str | None, title: str | None, session_id: str | None, as_json: bool
) -> None:
    """Create a session and print its id."""
    created = store.create_session(model=model, title=title, session_id=session_id)
    if as_json:
        echo_json(created.model_dump())
        return
    click.echo(created.id)


@cli.command()
@click.option("-n", "--count", type=click.IntRange(min=0), default=None, help="The newest N only.")
@rows_options
@with_store
def sessions(store: MemoryStore, count: int | None, fmt: str | None) -> None:
    """List sessions, most recently active first, with their message counts."""
    rows = [s.model_dump() for s in store.session_overview(count)]
    print_rows(
        rows,
        fmt,
        lambda s: f"{s['id']}\t{s['last_activity']}\t{s['message_count']} messages\t"
        f"{s['model'] or '-'}\t{s['title'] or ''}",
        ("id", "last_activity", "message_count", "model", "title"),
    )


@cli.command()
@click.argument("session")
@click.argument("role", type=ROLES, required=False)
@click.argument("text", required=False)
@click.option(
    "--jsonl",
    "jsonl",
    type=click.File("r", encoding="utf-8"),
    default=None,
    help='Add each line of this file (\'-\': standard input), {"role": ..., "text": ...}, '
    "all in one transaction.",
)
@click.option("--model-id", default=None, help="The model that wrote the message.")
@json_option
@with_store
def add(
    store: MemoryStore,
    session: str,
    role: str | None,
    text: str | None,
    jsonl: TextIO | None,
    model_id: str | None,
    as_json: bool,
) -> None:
    """Add a message to SESSION and print its id, tokens and importance.

    TEXT '-' reads the text from standard input (echo hi | localmem add S user -);
    --jsonl adds many messages in one process and one transaction.
    """
    sid = resolve_session(store, session)
    if jsonl is not None:
        if role is not None or text is not None:
            raise click.UsageError("give ROLE and TEXT, or --jsonl, not both")
        added = store.add_messages(sid, _jsonl_messages(jsonl, model_id))
        if as_json:
            echo_json([m.model_dump() for m in added])
        elif added:
            click.echo(f"Added {len(added)} messages (#{added[0].id}-#{added[-1].id}) to {sid}")
        else:
            click.echo("Added no message: the input is empty.")
        return
    if role is None or text is None:
        raise click.UsageError("give ROLE and TEXT ('-' reads it from standard input), or --jsonl FILE")
    if text == "-":
        with click.open_file("-", "r", encoding="utf-8") as stdin:
            text = stdin.read().rstrip("\r\n")  # echo's newline is not part of the message
    if not text:  # the MCP tool's rule (min_length 1): a person's command stores no blank
        raise click.UsageError("TEXT is empty: a message needs some text")
    m = store.add_message(sid, role, text, model_id=model_id)
    if as_json:
        echo_json(m.model_dump())
        return
    click.echo(f"{m.id}\ttokens={m.token_count}\timportance={m.importance_score}")


def _jsonl_messages(lines: TextIO, model_id: str | None) -> list[dict[str, Any]]:
    """The messages of a JSON Lines input, each a JSON object; blank lines skipped."""
    found = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as exc:
            raise InvalidInput(f"line {number}: not JSON ({exc.msg})") from None
        except RecursionError:
            raise InvalidInput(f"line {number}: not JSON (nested too deeply)") from None
        if not isinstance(item, dict):
            raise InvalidInput(f'line {number}: not an object like {{"role": "user", "text": "..."}}')
        if model_id is not None:
            item.setdefault("model_id", model_id)
        found.append(item)
    return found


@cli.command()
@session_argument
@click.option(
    "-n", "--count", type=click.IntRange(min=0), default=None,
    help="The newest N messages only (printed oldest first, so the newest is last).",
)
@rows_options
@with_store
def messages(
    store: MemoryStore, session: str | None, latest: bool, count: int | None, fmt: str | None
) -> None:
    """Print a session's messages in order, all or the newest N."""
    sid = resolve_session(store, session, latest)
    rows = store.get_messages(sid) if count is None else store.newest_messages(sid, count)
    print_rows(
        [m.model_dump() for m in rows],
        fmt,
        lambda m: f"#{m['id']} {m['role']} ({m['token_count']} tokens, "
        f"importance {m['importance_score']}): {m['text']}",
        ("id", "role", "token_count", "importance_score", "created_at", "text"),
    )


@cli.command()
@session_argument
@click.option("-m", "--max-tokens", type=click.IntRange(min=0), default=None, help="Token budget.")
@click.option(
    "-q", "--query", default=None, help="Also carry the older messages that best match this text."
)
@json_option
@with_store
def context(
    store: MemoryStore,
    session: str | None,
    latest: bool,
    max_tokens: int | None,
    query: str | None,
    as_json: bool,
) -> None:
    """Print the context a session's next model call would get, and its token breakdown."""
    ctx = store.build_context(resolve_session(store, session, latest), max_tokens=max_tokens, query=query)
    if as_json:
        data = ctx.model_dump()
        data["messages"] = ctx.to_messages()
        echo_json(data)
        return
    _print_context(ctx)


@cli.command()
@click.argument("query")
@click.option("-s", "--session", "session", default=None, help="Search this session only.")
@click.option(
    "-n", "--count", "--limit", "limit", type=click.IntRange(min=0), default=10,
    show_default=True, help="At most this many.",
)
@rows_options
@with_store
def search(store: MemoryStore, query: str, session: str | None, limit: int, fmt: str | None) -> None:
    """Search messages, summaries and pins for QUERY's words, best first.

    Any text is a query: its words are matched, never its operators. Prints
    one line per hit (kind and id, session, score, snippet with the matched
    words in [ ]).
    """
    sid = None if session is None else resolve_session(store, session)
    hits = store.search(query, session_id=sid, limit=limit)
    print_rows(
        [h.model_dump() for h in hits],
        fmt,
        lambda h: f"{h['kind']} #{h['id']}\t{h['session_id']}\t{h['score']:.2f}\t"
        + " ".join(h["snippet"].split()),
        ("kind", "id", "session_id", "score", "snippet"),
    )


def _print_context(ctx: MemoryContext) -> None:
    for message in ctx.to_messages():
        click.secho(f"── {message['role']} ", bold=True)
        click.echo(message["content"])
    parts = ", ".join(f"{name} {tokens}" for name, tokens in ctx.breakdown.items())
    click.echo(f"\n{ctx.total_tokens} of {ctx.max_tokens} tokens ({parts})")
    if ctx.clipped:
        click.echo("A message was clipped to fit the budget.")
