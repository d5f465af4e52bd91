"""Pins: ``pin``, ``pins``, ``unpin``, ``edit-pin``."""

from __future__ import annotations

import click

from ..models import PIN_KINDS, Pin
from ..store import MemoryStore
from .base import cli, echo_json, json_option, resolve_session, session_argument, with_store
from .output import print_rows, rows_options


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
