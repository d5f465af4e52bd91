"""Summaries and session state: ``summarize``, ``resummarize``, ``summaries``,
``checkpoint show|take|clear``, ``goals``, ``usage``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ..models import Checkpoint, LineSource
from ..state_lines import archive_line
from .base import cli, json_option, resolve_session, session_argument, with_store, yes_option
from .output import (
    by_position,
    confirm,
    echo_json,
    model_label,
    print_resummarized,
    print_rows,
    progress,
    rows_options,
)

if TYPE_CHECKING:  # commands are handed the store (``with_store``): its type, for the checker
    from ..store import MemoryStore

SOURCES_HELP = "Name the messages each line rests on (store.line_sources)."
LABELS = {
    "active_goals": "Goal", "pending_tasks": "Pending", "key_decisions": "Decision",
    "user_preferences": "Preference", "files": "File", "tables": "Table", "urls": "URL",
    "identifiers": "Identifier", "current_step": "Current step", "completed_steps": "Done",
    "next_steps": "Next", "key_facts": "Key fact", "decisions": "Decision", "entities": "Entity",
    "open_questions": "Open question",
}
"""A line's label in a listing of sources, by the field its JSON path names."""


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
        report = store.resummarize(sid, on_progress=by_position(advance))
    if as_json:
        echo_json(report.model_dump())
        return
    print_resummarized(report)


@cli.command()
@session_argument
@click.option("--sources", "with_sources", is_flag=True, help=SOURCES_HELP)
@rows_options
@with_store
def summaries(
    store: MemoryStore, session: str | None, latest: bool, with_sources: bool, fmt: str | None
) -> None:
    """List a session's summaries with their message range, level and source (with
    --sources: each line of their facts and its messages)."""
    sid = resolve_session(store, session, latest)
    facts = {f.id: f for f in store.get_summary_facts(sid)}
    rows = [
        {**s.model_dump(), "facts": facts[s.id].model_dump() if s.id in facts else None}
        for s in store.get_summaries(sid)
    ]
    if with_sources:
        found = [x for x in store.line_sources(sid) if x.kind == "facts"]
        for row in rows:
            row["sources"] = [x.model_dump() for x in found if x.owner_id == row["id"]]
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
        if "sources" in s:
            _print_sources([LineSource(**x) for x in s["sources"]], "    ")
        elif kept and kept["text"]:
            for line in kept["text"].splitlines():
                click.echo(f"    {line}")


@cli.group()
def checkpoint() -> None:
    """Show, take or clear a session's checkpoints (the state kept across compactions)."""




@checkpoint.command("show")
@session_argument
@click.option("--sources", "with_sources", is_flag=True, help=SOURCES_HELP)
@json_option
@with_store
def checkpoint_show(
    store: MemoryStore, session: str | None, latest: bool, with_sources: bool, as_json: bool
) -> None:
    """Print a session's latest checkpoint (with --sources: each line and its messages)."""
    sid = resolve_session(store, session, latest)
    taken = store.latest_checkpoint(sid)
    if not with_sources or taken is None:
        _print_checkpoint(taken, as_json)
        return
    found = [x for x in store.line_sources(sid) if x.kind == "checkpoint"]
    if as_json:
        echo_json({"checkpoint": taken.model_dump(), "sources": [x.model_dump() for x in found]})
        return
    _print_checkpoint(taken, as_json, lines=False)
    _print_sources(found, "")


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


def _print_sources(found: list[LineSource], indent: str) -> None:
    """Each line with the messages it rests on, or what it rests on when none."""
    for x in found:
        field = x.item.split(".")[-1].split("[")[0]
        rests = (
            f"message{'s' if len(x.message_ids) > 1 else ''} {', '.join(map(str, x.message_ids))}"
            if x.message_ids else "no message (the session state, or stored before sources)"
        )
        click.echo(f"{indent}{LABELS.get(field, field)}: {x.text}  <- {rests}")


def _print_checkpoint(taken: Checkpoint | None, as_json: bool, lines: bool = True) -> None:
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
    for text, _tokens, _repeats in taken.lines if lines else ():
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
