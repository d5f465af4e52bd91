"""The ``localmem`` command line. The library raises; this module prints.

Every command takes ``--db PATH`` (default ``$LOCALMEM_DB``, else the per-user
data directory) and turns a :class:`~localmem.errors.LocalMemError` into one
line on stderr and exit code 1.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .config import default_db_path
from .context import MemoryContext
from .demo import DEMO_CONVERSATION, DEMO_MODEL, DEMO_PINS, DEMO_SESSION_ID, DEMO_TITLE
from .errors import LocalMemError, SessionNotFound
from .models import PIN_KINDS, Checkpoint, Pin
from .state import archive_line
from .store import MemoryStore
from .summarizer import FALLBACK, OFFLINE


SUMMARY_SOURCES = {
    OFFLINE: "offline (no local Ollama server answered): a deterministic summary",
    FALLBACK: "by the keyword fallback (no usable local model answer)",
}


def with_store(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--db`` to a command and hand it an open store; report errors in one line."""

    @click.option(
        "--db",
        "db_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Database file [default: $LOCALMEM_DB, else the user data directory's memory.db].",
    )
    @functools.wraps(func)
    def wrapper(db_path: Path | None, **kwargs: Any) -> Any:
        try:
            with MemoryStore(db_path) as store:
                return func(store, **kwargs)
        except LocalMemError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper


@click.group()
@click.version_option(package_name="localmem")
def cli() -> None:
    """localmem: an assistant's memory in one SQLite file on this machine."""


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
    click.echo(
        f"Stored {len(DEMO_CONVERSATION)} messages and {len(DEMO_PINS)} pins "
        f"in session {session.id!r} of {store.path}"
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
@with_store
def new(store: MemoryStore, model: str | None, title: str | None, session_id: str | None) -> None:
    """Create a session and print its id."""
    click.echo(store.create_session(model=model, title=title, session_id=session_id).id)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@with_store
def sessions(store: MemoryStore, as_json: bool) -> None:
    """List sessions, most recently updated first."""
    rows = store.list_sessions()
    if as_json:
        click.echo(json.dumps([s.model_dump() for s in rows], indent=2, ensure_ascii=False))
        return
    for s in rows:
        click.echo(f"{s.id}\t{s.updated_at}\t{s.model or '-'}\t{s.title or ''}")


@cli.command()
@click.argument("session")
@click.argument("role", type=click.Choice(["system", "user", "assistant", "tool"]))
@click.argument("text")
@with_store
def add(store: MemoryStore, session: str, role: str, text: str) -> None:
    """Add a message to SESSION and print its id, tokens and importance."""
    m = store.add_message(session, role, text)
    click.echo(f"{m.id}\ttokens={m.token_count}\timportance={m.importance_score}")


@cli.command()
@click.argument("session")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--limit", type=click.IntRange(min=0), default=None, help="At most this many.")
@with_store
def messages(store: MemoryStore, session: str, as_json: bool, limit: int | None) -> None:
    """Print a session's messages, oldest first."""
    rows = store.get_messages(session, limit=limit)
    if as_json:
        click.echo(json.dumps([m.model_dump() for m in rows], indent=2, ensure_ascii=False))
        return
    for m in rows:
        click.echo(f"#{m.id} {m.role} ({m.token_count} tokens, importance {m.importance_score}): {m.text}")


@cli.command()
@click.argument("session")
@click.argument("text")
@click.option("--importance", type=click.FloatRange(0, 1), default=0.8, show_default=True)
@click.option("--source", "source_message_id", type=int, default=None, help="Source message id.")
@with_store
def pin(
    store: MemoryStore, session: str, text: str, importance: float, source_message_id: int | None
) -> None:
    """Pin a fact to SESSION; it is shown in every context of that session."""
    p = store.pin(session, text, source_message_id=source_message_id, importance=importance)
    click.echo(f"{p.id}\ttokens={p.token_count}\timportance={p.importance_score}")


@cli.command()
@click.argument("session")
@click.option("--kind", type=click.Choice(PIN_KINDS), default=None, help="Only pins of this kind.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@with_store
def pins(store: MemoryStore, session: str, kind: str | None, as_json: bool) -> None:
    """List SESSION's pins, highest importance first: manual ones and those pinned
    automatically (auto) from what the user said."""
    rows = store.get_pins(session, kind=kind)
    if as_json:
        click.echo(json.dumps([p.model_dump() for p in rows], indent=2, ensure_ascii=False))
        return
    for p in rows:
        click.echo(_pin_line(p))


@cli.command()
@click.argument("pin_id", type=click.IntRange(min=0))
@with_store
def unpin(store: MemoryStore, pin_id: int) -> None:
    """Remove the pin PIN_ID (an auto pin stays removed unless the user says it again)."""
    store.unpin(pin_id)
    click.echo(f"Removed pin #{pin_id}.")


@cli.command("edit-pin")
@click.argument("pin_id", type=click.IntRange(min=0))
@click.option("--text", default=None, help="The pin's new text.")
@click.option("--importance", type=click.FloatRange(0, 1), default=None, help="Its new importance.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@with_store
def edit_pin(
    store: MemoryStore, pin_id: int, text: str | None, importance: float | None, as_json: bool
) -> None:
    """Change the text and/or importance of the pin PIN_ID; its kind stays."""
    p = store.update_pin(pin_id, content=text, importance=importance)
    click.echo(json.dumps(p.model_dump(), indent=2, ensure_ascii=False) if as_json else _pin_line(p))


def _pin_line(p: Pin) -> str:
    return f"#{p.id} {p.kind} (importance {p.importance_score}, {p.token_count} tokens): {p.content}"


@cli.command()
@click.argument("session")
@click.option("--max-tokens", type=click.IntRange(min=0), default=None, help="Token budget.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@with_store
def context(store: MemoryStore, session: str, max_tokens: int | None, as_json: bool) -> None:
    """Print the context SESSION's next model call would get, and its token breakdown."""
    ctx = store.build_context(session, max_tokens=max_tokens)
    if as_json:
        data = ctx.model_dump()
        data["messages"] = ctx.to_messages()
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    _print_context(ctx)


@cli.command()
@click.argument("session")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@with_store
def summarize(store: MemoryStore, session: str, as_json: bool) -> None:
    """Summarize every range of SESSION that is due (with the local model when it can)."""
    made = []
    while (summary := store.summarize(session)) is not None:
        made.append(summary)
    if as_json:
        click.echo(json.dumps([s.model_dump() for s in made], indent=2, ensure_ascii=False))
        return
    if not made:
        click.echo(f"Nothing to summarize: fewer than {store.config.summary_threshold} new messages.")
    _print_summaries(store.get_summaries(session) if made else [])


@cli.command()
@click.argument("session")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@with_store
def summaries(store: MemoryStore, session: str, as_json: bool) -> None:
    """List SESSION's summaries with their message range, level and source."""
    rows = store.get_summaries(session)
    facts = {f.id: f for f in store.get_summary_facts(session)}
    if as_json:
        data = [
            {**s.model_dump(), "facts": facts[s.id].model_dump() if s.id in facts else None}
            for s in rows
        ]
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    _print_summaries(rows, facts)


def _print_summaries(rows: list, facts: dict | None = None) -> None:
    for s in rows:
        click.echo(
            f"#{s.id} level {s.level} messages {s.start_message_id}-{s.end_message_id} "
            f"({s.message_count}) source={s.source}: {s.text}"
        )
        kept = (facts or {}).get(s.id)
        if kept is not None and kept.text:
            for line in kept.text.splitlines():
                click.echo(f"    {line}")


@cli.group()
def checkpoint() -> None:
    """Show, take or clear a session's checkpoints (the state kept across compactions)."""


@checkpoint.command("show")
@click.argument("session")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@with_store
def checkpoint_show(store: MemoryStore, session: str, as_json: bool) -> None:
    """Print SESSION's latest checkpoint."""
    _print_checkpoint(store.latest_checkpoint(session), as_json)


@checkpoint.command("take")
@click.argument("session")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@with_store
def checkpoint_take(store: MemoryStore, session: str, as_json: bool) -> None:
    """Take a checkpoint of SESSION now (with the local model when it can) and print it."""
    _print_checkpoint(store.checkpoint(session), as_json)


@checkpoint.command("clear")
@click.argument("session")
@with_store
def checkpoint_clear(store: MemoryStore, session: str) -> None:
    """Delete SESSION's checkpoints."""
    click.echo(f"Deleted {store.clear_checkpoints(session)} checkpoints.")


def _print_checkpoint(taken: Checkpoint | None, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(None if taken is None else taken.model_dump(), indent=2, ensure_ascii=False))
        return
    if taken is None:
        click.echo("No checkpoint yet.")
        return
    click.echo(
        f"Checkpoint #{taken.id} of {taken.created_at} (source={taken.source}, "
        f"through message {taken.through_message_id}, {taken.token_count} tokens)"
    )
    for text, _tokens, _repeats in taken.lines:
        click.echo(text)


@cli.command()
@click.argument("session")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@with_store
def goals(store: MemoryStore, session: str, as_json: bool) -> None:
    """List SESSION's goals with their status and, once ended, their archive."""
    rows = store.get_goals(session)
    if as_json:
        click.echo(json.dumps([g.model_dump() for g in rows], indent=2, ensure_ascii=False))
        return
    for g in rows:
        click.echo(f"#{g.id} {g.status}: {g.text}")
        if g.archive is not None:
            click.echo(f"    {archive_line(g.text, g.status, g.archive)[2:]}")


@cli.command()
@click.argument("session")
@with_store
def usage(store: MemoryStore, session: str) -> None:
    """Print how full SESSION's model window is with messages no summary covers."""
    u = store.context_usage(session)
    click.echo(
        f"{u['used_tokens']} of {u['context_window']} tokens ({u['share']:.0%}; "
        f"compaction at {u['threshold']:.0%}; window from {u['window_source']}), "
        f"{u['uncovered_messages']} messages not summarized"
    )


@cli.command()
@click.argument("query")
@click.option("--session", "session_id", default=None, help="Search this session only.")
@click.option(
    "--limit", type=click.IntRange(min=0), default=10, show_default=True, help="At most this many."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
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
        click.echo(json.dumps([h.model_dump() for h in hits], indent=2, ensure_ascii=False))
        return
    for h in hits:
        snippet = " ".join(h.snippet.split())
        click.echo(f"{h.kind} #{h.id}\t{h.session_id}\t{h.score:.2f}\t{snippet}")


@cli.command()
@with_store
def schema(store: MemoryStore) -> None:
    """Print the database's schema as SQL."""
    click.echo(store.schema(), nl=False)


@cli.command()
def path() -> None:
    """Print the default database path."""
    click.echo(default_db_path())


def _print_context(ctx: MemoryContext) -> None:
    for message in ctx.to_messages():
        click.secho(f"── {message['role']} ", bold=True)
        click.echo(message["content"])
    parts = ", ".join(f"{name} {tokens}" for name, tokens in ctx.breakdown.items())
    click.echo(f"\n{ctx.total_tokens} of {ctx.max_tokens} tokens ({parts})")
    if ctx.clipped:
        click.echo("A message was clipped to fit the budget.")


def main() -> None:
    cli(prog_name="localmem")
