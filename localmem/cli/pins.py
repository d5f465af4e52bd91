"""Pins: ``pin``, ``pins``, ``unpin``, ``edit-pin``, and ``memory`` (what is remembered)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..models import PIN_KINDS, Pin
from .base import cli, json_option, resolve_session, session_argument, with_store
from .output import echo_json, print_rows, rows_options

if TYPE_CHECKING:  # commands are handed the store (``with_store``): its type, for the checker
    from ..store import MemoryStore


@cli.command()
@click.argument("session")
@click.argument("text")
@click.option("-i", "--importance", type=click.FloatRange(0, 1), default=0.8, show_default=True)
@click.option("--source", "source_message_id", type=int, default=None, help="Source message id.")
@click.option("--user", "for_user", is_flag=True, help="A fact of the user's: every session sees it.")
@json_option
@with_store
def pin(
    store: MemoryStore,
    session: str,
    text: str,
    importance: float,
    source_message_id: int | None,
    for_user: bool,
    as_json: bool,
) -> None:
    """Pin a fact to SESSION; it is shown in every context of that session (with
    --user, in every session's)."""
    sid = resolve_session(store, session)
    p = store.pin(
        sid, text, source_message_id=source_message_id, importance=importance,
        scope="user" if for_user else "session",
    )
    if as_json:
        echo_json(p.model_dump())
        return
    click.echo(f"{p.id}\ttokens={p.token_count}\timportance={p.importance_score}")


@cli.command()
@session_argument
@click.option("-k", "--kind", type=click.Choice(PIN_KINDS), default=None, help="Only pins of this kind.")
@click.option("--history", is_flag=True, help="Superseded pins too, each chain together.")
@rows_options
@with_store
def pins(
    store: MemoryStore,
    session: str | None,
    latest: bool,
    kind: str | None,
    history: bool,
    fmt: str | None,
) -> None:
    """List the pins a session sees, highest importance first: its own and the
    user's, manual ones and those pinned automatically (auto) from what the user
    said. With --history, the facts that no longer hold too, each chain together."""
    rows = store.get_pins(resolve_session(store, session, latest), kind=kind, history=history)
    print_rows(
        [{**p.model_dump(), "scope": p.scope} for p in rows],
        fmt,
        lambda p: _pin_line(Pin(**{k: v for k, v in p.items() if k != "scope"})),
        ("id", "scope", "kind", "importance_score", "token_count", "superseded_at", "content"),
    )


@cli.command()
@json_option
@with_store
def memory(store: MemoryStore, as_json: bool) -> None:
    """What is remembered: every fact of the user's and every session's pins, with where
    each came from (the message, its chat and date; by hand or automatically) and
    whether it still holds."""
    report = store.memory_report()
    if as_json:
        echo_json(report.model_dump())
    else:
        click.echo(report.to_text())


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
    scope = "user " if p.session_id is None else ""
    gone = "" if p.superseded_at is None else f" [no longer holds since {p.superseded_at[:10]}]"
    return (
        f"#{p.id} {scope}{p.kind} (importance {p.importance_score}, {p.token_count} tokens):"
        f" {p.content}{gone}"
    )
