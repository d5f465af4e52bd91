"""The ``localmem`` command line. The library raises; this module prints.

Every command takes ``-h/--help`` and ``--db PATH`` (default ``$LOCALMEM_DB``,
else the per-user data directory) and turns a
:class:`~localmem.errors.LocalMemError` into one line on stderr and exit code
1. What the commands share (opening the store, output formats, progress,
questions, session prefixes) is ``localmem.terminal``'s; the commands about
the file as a whole (export, import, backup, maintain, doctor, ...) are
``localmem.cli_file``'s. Conversations, pins, contexts and summaries are here.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

import click

from . import cli_file
from .cli_file import print_resummarized
from .context import MemoryContext
from .demo import DEMO_CONVERSATION, DEMO_MODEL, DEMO_PINS, DEMO_SESSION_ID, DEMO_TITLE, demo_session_id
from .errors import InvalidInput, SessionNotFound
from .models import PIN_KINDS, Checkpoint, Pin
from .state import archive_line
from .store import MemoryStore
from .summarizer import FALLBACK, OFFLINE
from .terminal import (
    confirm,
    echo_json,
    json_option,
    latest_option,
    model_label,
    print_rows,
    progress,
    resolve_session,
    rows_options,
    with_store,
    yes_option,
)

SUMMARY_SOURCES = {
    OFFLINE: "offline (no local Ollama server answered): a deterministic summary",
    FALLBACK: "by the keyword fallback (no usable local model answer)",
}
ROLES = click.Choice(["system", "user", "assistant", "tool"])


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="localmem")
def cli() -> None:
    """localmem: an assistant's memory in one SQLite file on this machine."""


def session_argument(func: Any) -> Any:
    """SESSION (an id, or the first characters of a random one) or ``--latest``."""
    return click.argument("session", required=False)(latest_option(func))


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
@click.argument("session")
@click.argument("text")
@click.option("-i", "--importance", type=click.FloatRange(0, 1), default=0.8, show_default=True)
@click.option("--source", "source_message_id", type=int, default=None, help="Source message id.")
@json_option
@with_store
def pin(
    store: MemoryStore,
    session: str,
    text: str,
    importance: float,
    source_message_id: int | None,
    as_json: bool,
) -> None:
    """Pin a fact to SESSION; it is shown in every context of that session."""
    sid = resolve_session(store, session)
    p = store.pin(sid, text, source_message_id=source_message_id, importance=importance)
    if as_json:
        echo_json(p.model_dump())
        return
    click.echo(f"{p.id}\ttokens={p.token_count}\timportance={p.importance_score}")


@cli.command()
@session_argument
@click.option("-k", "--kind", type=click.Choice(PIN_KINDS), default=None, help="Only pins of this kind.")
@rows_options
@with_store
def pins(store: MemoryStore, session: str | None, latest: bool, kind: str | None, fmt: str | None) -> None:
    """List a session's pins, highest importance first: manual ones and those pinned
    automatically (auto) from what the user said."""
    rows = store.get_pins(resolve_session(store, session, latest), kind=kind)
    print_rows(
        [p.model_dump() for p in rows],
        fmt,
        lambda p: _pin_line(Pin(**p)),
        ("id", "kind", "importance_score", "token_count", "content"),
    )


@cli.command()
@click.argument("pin_id", type=click.IntRange(min=0))
@json_option
@with_store
def unpin(store: MemoryStore, pin_id: int, as_json: bool) -> None:
    """Remove the pin PIN_ID (an auto pin stays removed unless the user says it again)."""
    store.unpin(pin_id)
    if as_json:
        echo_json({"removed": pin_id})
    else:
        click.echo(f"Removed pin #{pin_id}.")


@cli.command("edit-pin")
@click.argument("pin_id", type=click.IntRange(min=0))
@click.option("--text", default=None, help="The pin's new text.")
@click.option("-i", "--importance", type=click.FloatRange(0, 1), default=None, help="Its new importance.")
@json_option
@with_store
def edit_pin(
    store: MemoryStore, pin_id: int, text: str | None, importance: float | None, as_json: bool
) -> None:
    """Change the text and/or importance of the pin PIN_ID; its kind stays."""
    p = store.update_pin(pin_id, content=text, importance=importance)
    if as_json:
        echo_json(p.model_dump())
    else:
        click.echo(_pin_line(p))


def _pin_line(p: Pin) -> str:
    return f"#{p.id} {p.kind} (importance {p.importance_score}, {p.token_count} tokens): {p.content}"


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


@cli.command()
@session_argument
@json_option
@with_store(model=True)
def summarize(store: MemoryStore, session: str | None, latest: bool, as_json: bool) -> None:
    """Summarize every range of a session that is due (with the local model when it can)."""
    sid = resolve_session(store, session, latest)
    made = []
    with progress(model_label(store, "Summarizing"), store.due_ranges(sid) or None) as advance:
        while (summary := store.summarize(sid)) is not None:
            made.append(summary)
            advance(1)
    if as_json:
        echo_json([s.model_dump() for s in made])
        return
    if not made:
        click.echo(f"Nothing to summarize: fewer than {store.config.summary_threshold} new messages.")
    _print_summaries([s.model_dump() for s in store.get_summaries(sid)] if made else [])


@cli.command()
@click.argument("session", required=False)
@json_option
@with_store(model=True)
def resummarize(store: MemoryStore, session: str | None, as_json: bool) -> None:
    """Have the local model redo the summaries written while it was not there.

    Ranges summarized offline (no model answered) or by the keyword fallback
    are summarized again by the model, in place, when its summary is valid;
    the rest stays as it was. Of SESSION, or of every session.
    """
    sid = None if session is None else resolve_session(store, session)
    with progress(model_label(store, "Resummarizing")) as advance:
        done = 0

        def step(now: int, _total: int) -> None:
            nonlocal done
            advance(now - done)
            done = now

        report = store.resummarize(sid, on_progress=step)
    if as_json:
        echo_json(report.model_dump())
        return
    print_resummarized(report)


@cli.command()
@session_argument
@rows_options
@with_store
def summaries(store: MemoryStore, session: str | None, latest: bool, fmt: str | None) -> None:
    """List a session's summaries with their message range, level and source."""
    sid = resolve_session(store, session, latest)
    facts = {f.id: f for f in store.get_summary_facts(sid)}
    rows = [
        {**s.model_dump(), "facts": facts[s.id].model_dump() if s.id in facts else None}
        for s in store.get_summaries(sid)
    ]
    if fmt is None:
        _print_summaries(rows)
        return
    print_rows(rows, fmt, str, ("id", "level", "start_message_id", "end_message_id", "source", "text"))


def _print_summaries(rows: list[dict[str, Any]]) -> None:
    for s in rows:
        click.echo(
            f"#{s['id']} level {s['level']} messages {s['start_message_id']}-{s['end_message_id']} "
            f"({s['message_count']}) source={s['source']}: {s['text']}"
        )
        kept = s.get("facts")
        if kept and kept["text"]:
            for line in kept["text"].splitlines():
                click.echo(f"    {line}")


@cli.group()
def checkpoint() -> None:
    """Show, take or clear a session's checkpoints (the state kept across compactions)."""


@checkpoint.command("show")
@session_argument
@json_option
@with_store
def checkpoint_show(store: MemoryStore, session: str | None, latest: bool, as_json: bool) -> None:
    """Print a session's latest checkpoint."""
    _print_checkpoint(store.latest_checkpoint(resolve_session(store, session, latest)), as_json)


@checkpoint.command("take")
@session_argument
@json_option
@with_store(model=True)
def checkpoint_take(store: MemoryStore, session: str | None, latest: bool, as_json: bool) -> None:
    """Take a checkpoint of a session now (with the local model when it can) and print it."""
    _print_checkpoint(store.checkpoint(resolve_session(store, session, latest)), as_json)


@checkpoint.command("clear")
@session_argument
@yes_option
@json_option
@with_store
def checkpoint_clear(
    store: MemoryStore, session: str | None, latest: bool, yes: bool, as_json: bool
) -> None:
    """Delete a session's checkpoints (asks first on a terminal)."""
    sid = resolve_session(store, session, latest)
    if not confirm(f"Delete every checkpoint of session {sid}?", yes):
        raise click.Abort()
    deleted = store.clear_checkpoints(sid)
    if as_json:
        echo_json({"deleted": deleted})
        return
    click.echo(f"Deleted {deleted} checkpoints.")


def _print_checkpoint(taken: Checkpoint | None, as_json: bool) -> None:
    if as_json:
        echo_json(None if taken is None else taken.model_dump())
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
@session_argument
@rows_options
@with_store
def goals(store: MemoryStore, session: str | None, latest: bool, fmt: str | None) -> None:
    """List a session's goals with their status and, once ended, their archive."""

    def line(g: dict[str, Any]) -> str:
        text = f"#{g['id']} {g['status']}: {g['text']}"
        if g["archive"] is not None:
            text += f"\n    {archive_line(g['text'], g['status'], g['archive'])[2:]}"
        return text

    rows = store.get_goals(resolve_session(store, session, latest))
    print_rows([g.model_dump() for g in rows], fmt, line, ("id", "status", "text", "ended_at"))


@cli.command()
@session_argument
@json_option
@with_store
def usage(store: MemoryStore, session: str | None, latest: bool, as_json: bool) -> None:
    """Print how full a session's model window is with messages no summary covers."""
    u = store.context_usage(resolve_session(store, session, latest))
    if as_json:
        echo_json(u)
        return
    click.echo(
        f"{u['used_tokens']} of {u['context_window']} tokens ({u['share']:.0%}; "
        f"compaction at {u['threshold']:.0%}; window from {u['window_source']}), "
        f"{u['uncovered_messages']} messages not summarized"
    )


def _print_context(ctx: MemoryContext) -> None:
    for message in ctx.to_messages():
        click.secho(f"── {message['role']} ", bold=True)
        click.echo(message["content"])
    parts = ", ".join(f"{name} {tokens}" for name, tokens in ctx.breakdown.items())
    click.echo(f"\n{ctx.total_tokens} of {ctx.max_tokens} tokens ({parts})")
    if ctx.clipped:
        click.echo("A message was clipped to fit the budget.")


for _command in cli_file.COMMANDS:
    cli.add_command(_command)


def main() -> None:
    cli(prog_name="localmem")
