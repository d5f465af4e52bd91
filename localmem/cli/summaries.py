"""What a session keeps of itself: ``summarize``, ``summaries``, ``checkpoint``, ``goals``,
``usage``.
"""

from __future__ import annotations

import click

from ..models import Checkpoint
from ..state import archive_line
from ..store import MemoryStore
from .base import _echo_json, cli, json_option, with_store


@cli.command()
@click.argument("session")
@json_option
@with_store
def summarize(store: MemoryStore, session: str, as_json: bool) -> None:
    """Summarize every range of SESSION that is due (with the local model when it can)."""
    made = []
    while (summary := store.summarize(session)) is not None:
        made.append(summary)
    if as_json:
        _echo_json([s.model_dump() for s in made])
        return
    if not made:
        click.echo(f"Nothing to summarize: fewer than {store.config.summary_threshold} new messages.")
    _print_summaries(store.get_summaries(session) if made else [])


@cli.command()
@click.argument("session")
@json_option
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
        _echo_json(data)
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
@json_option
@with_store
def checkpoint_show(store: MemoryStore, session: str, as_json: bool) -> None:
    """Print SESSION's latest checkpoint."""
    _print_checkpoint(store.latest_checkpoint(session), as_json)


@checkpoint.command("take")
@click.argument("session")
@json_option
@with_store
def checkpoint_take(store: MemoryStore, session: str, as_json: bool) -> None:
    """Take a checkpoint of SESSION now (with the local model when it can) and print it."""
    _print_checkpoint(store.checkpoint(session), as_json)


@checkpoint.command("clear")
@click.argument("session")
@json_option
@with_store
def checkpoint_clear(store: MemoryStore, session: str, as_json: bool) -> None:
    """Delete SESSION's checkpoints."""
    deleted = store.clear_checkpoints(session)
    if as_json:
        _echo_json({"deleted": deleted})
        return
    click.echo(f"Deleted {deleted} checkpoints.")


def _print_checkpoint(taken: Checkpoint | None, as_json: bool) -> None:
    if as_json:
        _echo_json(None if taken is None else taken.model_dump())
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
@json_option
@with_store
def goals(store: MemoryStore, session: str, as_json: bool) -> None:
    """List SESSION's goals with their status and, once ended, their archive."""
    rows = store.get_goals(session)
    if as_json:
        _echo_json([g.model_dump() for g in rows])
        return
    for g in rows:
        click.echo(f"#{g.id} {g.status}: {g.text}")
        if g.archive is not None:
            click.echo(f"    {archive_line(g.text, g.status, g.archive)[2:]}")


@cli.command()
@click.argument("session")
@json_option
@with_store
def usage(store: MemoryStore, session: str, as_json: bool) -> None:
    """Print how full SESSION's model window is with messages no summary covers."""
    u = store.context_usage(session)
    if as_json:
        _echo_json(u)
        return
    click.echo(
        f"{u['used_tokens']} of {u['context_window']} tokens ({u['share']:.0%}; "
        f"compaction at {u['threshold']:.0%}; window from {u['window_source']}), "
        f"{u['uncovered_messages']} messages not summarized"
    )
