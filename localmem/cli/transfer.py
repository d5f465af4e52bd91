"""Export and import as JSON Lines: ``export``, ``import``."""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

import click

from ..store import MemoryStore
from .base import _echo_json, cli, json_option, with_store


@cli.command("export")
@click.argument("sessions", nargs=-1)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write to this file (readable by you alone) instead of standard output.",
)
@with_store
def export(store: MemoryStore, sessions: tuple[str, ...], output: Path | None) -> None:
    """Write SESSIONS (all sessions when none is named, oldest first) as JSON Lines.

    Everything of each session is written: messages, items, pins, summaries
    and their facts, goals, subtasks, tool runs, tracked files, checkpoints.
    `localmem import` reads it back, into this database or another.
    """
    lines = store.export_sessions(list(sessions) if sessions else None)  # checks the ids first
    written = exported = 0
    with _output(output) as out, _progress("Exporting", None) as step:
        for line in lines:
            out.write(line.encode("utf-8") + b"\n")
            written += 1
            exported += line.startswith(SESSION_LINE)
            if step is not None:
                step(1)
    if output is not None:
        click.echo(f"Exported {exported} sessions ({written} lines) to {output}")


@cli.command("import")
@click.argument("file", type=click.File("rb"))
@click.option(
    "--rename",
    is_flag=True,
    help="Give a session whose id this database already has a new random id (else it is refused).",
)
@json_option
@with_store
def import_(store: MemoryStore, file: BinaryIO, rename: bool, as_json: bool) -> None:
    """Import the sessions of FILE, written by `localmem export` ('-': standard input).

    Each session is one transaction and gets new row ids. A malformed line
    stops the import with its line number: nothing of its session is
    written, and the sessions before it stay imported.
    """
    lines = (raw.decode("utf-8", "surrogateescape") for raw in file)  # the import names bad bytes
    length = _line_count(file) if _stderr_is_terminal() and file.seekable() else None
    with _progress("Importing", length) as step:
        report = store.import_sessions(lines, on_progress=step, rename=rename)
    if as_json:
        _echo_json(report.model_dump())
        return
    for old, new in report.sessions:
        click.echo(f"Imported session {old}" + (f" as {new}" if new != old else ""))
    counts = ", ".join(f"{kind} {n}" for kind, n in report.counts.items() if kind != "session")
    click.echo(f"{len(report.sessions)} sessions" + (f": {counts}" if counts else ""))


SESSION_LINE = '{"type":"session"'


@contextlib.contextmanager
def _output(path: Path | None) -> Iterator[BinaryIO]:
    """Standard output, or ``path`` created (or emptied) with mode 0600: an export
    holds private conversations."""
    if path is None:
        with click.open_file("-", "wb") as out:
            yield out
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror}") from None
    with open(fd, "wb") as out:
        yield out


def _stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


@contextlib.contextmanager
def _progress(label: str, length: int | None) -> Iterator[Callable[[int], None] | None]:
    """A progress bar's ``update`` on stderr while stderr is a terminal, else None:
    never a bar in a pipe, a log or a test's output. With no ``length``, it counts."""
    if not _stderr_is_terminal():
        yield None
        return
    steps = range(length) if length is not None else itertools.count()  # no length: counts up
    with click.progressbar(steps, label=label, file=sys.stderr, show_pos=length is None) as bar:
        yield bar.update


def _line_count(file: BinaryIO) -> int:
    """The lines of a seekable file, which is left at its start."""
    count = sum(chunk.count(b"\n") for chunk in iter(lambda: file.read(1 << 20), b""))
    file.seek(0)
    return count
