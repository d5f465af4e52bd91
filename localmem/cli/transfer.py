"""Export and import: ``export``, ``import``.

Files written for the user (``-o``) go through ``localmem.files``: complete or
not at all, never over the database, through a symbolic link or (without
``--force``) over an existing file, readable by their owner alone.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import click

from .. import exports, files
from ..config import default_db_path
from ..errors import LocalMemError
from ..exports import FORMATS
from ..jsonl import check_end
from ..models import ImportReport
from .base import (
    cli,
    db_option,
    force_option,
    json_option,
    open_store,
    resolve_session,
    with_store,
)
from .output import echo_json, progress

if TYPE_CHECKING:  # commands are handed the store (``with_store``): its type, for the checker
    from ..store import MemoryStore


SESSION_LINE = '{"type":"session"'


def _holds_nothing(path: Path) -> bool:
    """Whether a file this import created holds no session (a stream cut short keeps
    the sessions imported before the cut)."""
    with open_store(path, create=True) as store:
        return not store.list_sessions()


@cli.command("export")
@click.argument("sessions", nargs=-1)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write to this new file (readable by you alone) instead of standard output.",
)
@force_option
@with_store
def export(store: MemoryStore, sessions: tuple[str, ...], output: Path | None, force: bool) -> None:
    """Write SESSIONS (all sessions when none is named, oldest first) as JSON Lines.

    Everything of each session is written: messages, items, pins, summaries
    and their facts, goals, subtasks, tool runs, tracked files, checkpoints,
    then an end record with the counts and a checksum. With -o the file gets
    its name only once complete: an interrupted export leaves no file behind.
    `localmem import` reads it back, into this database or another.
    """
    ids = list(dict.fromkeys(resolve_session(store, s) for s in sessions)) or None
    lines = store.export_sessions(ids)  # checks the ids before anything is written
    total = len(ids) if ids is not None else len(store.list_sessions())
    written = exported = 0
    with _output(output, store, force) as out, progress("Exporting sessions", total) as advance:
        for line in lines:
            out.write(line.encode("utf-8") + b"\n")
            written += 1
            if line.startswith(SESSION_LINE):
                exported += 1
                advance(1)
    if output is not None:
        click.echo(f"Exported {exported} sessions ({written} lines) to {output}")


@contextlib.contextmanager
def _output(path: Path | None, store: MemoryStore, force: bool) -> Iterator[BinaryIO]:
    """Standard output, or the new private file ``path`` (``localmem.files``)."""
    if path is None:
        with click.open_file("-", "wb") as out:
            yield out
        return
    with files.private_file(path, database=store.path, force=force) as out:
        yield out


@cli.command("import")
@click.argument("file", type=click.File("rb"))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", *FORMATS]),
    default="auto",
    show_default=True,
    help="What FILE is: a localmem export, or a ChatGPT or Claude data export "
    "(its conversations.json or its .zip); auto tells them apart by content.",
)
@click.option("--rename", is_flag=True, help="Give a session this file already has a new random id.")
@click.option(
    "--skip-existing", is_flag=True, help="Leave a session this file already has as it is (resumes an import)."
)
@click.option("--replace", is_flag=True, help="Replace a session this file already has with the imported one.")
@click.option(
    "--unverified",
    is_flag=True,
    help="Import a localmem export without its end record (an older localmem's, or one cut short) as far as it goes.",
)
@db_option
@json_option
def import_(
    db_path: Path | None,
    file: BinaryIO,
    fmt: str,
    rename: bool,
    skip_existing: bool,
    replace: bool,
    unverified: bool,
    as_json: bool,
) -> None:
    """Import the sessions of FILE ('-': standard input): an export written by
    `localmem export`, or a ChatGPT or Claude data export.

    A localmem export is first checked whole against its end record: a cut or
    altered export is refused before anything is written; each session is then
    one transaction. A ChatGPT or Claude export (conversations.json, or the .zip
    you downloaded) is read and checked whole, then each conversation becomes a
    session (its current branch only), facts are learnt from your messages as
    they would be today, and long chats get offline summaries. A session this
    database already has is refused unless --skip-existing (which also resumes
    an interrupted import), --replace or --rename.
    """
    chosen = [name for name, on in (("rename", rename), ("skip", skip_existing), ("replace", replace)) if on]
    if len(chosen) > 1:
        raise click.UsageError("give one of --rename, --skip-existing and --replace")
    existing = chosen[0] if chosen else "refuse"
    source = None  # a ChatGPT or Claude export: which
    try:
        if fmt == "localmem" or fmt == "auto" and exports.sniff(exports.peek(file)) == "localmem":
            report = _import_lines(db_path, file, existing, unverified)
        else:
            if unverified:
                raise click.UsageError("--unverified is for localmem exports only")
            found, conversations = exports.read_conversations(file, fmt)
            source = exports.NAMES[found] if found else "an export with no conversation"
            with _no_empty_file(db_path), open_store(db_path, create=True) as store, progress(
                "Importing conversations", len(conversations)
            ) as advance:
                report = store.import_conversations(conversations, existing=existing, on_progress=advance)
    except LocalMemError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        echo_json(report.model_dump())
        return
    if source is None:
        _print_import(report)
    else:
        _print_conversations(report, source)


def _import_lines(db_path: Path | None, file: BinaryIO, existing: str, unverified: bool) -> ImportReport:
    """A localmem export: checked whole against its end record first when it can be read twice."""
    lines_total = None
    if file.seekable() and not unverified:
        start = file.tell()
        size = file.seek(0, os.SEEK_END) - start
        file.seek(start)
        with progress("Checking the file", size) as advance:
            lines_total = check_end(_decoded(file, advance)).lines + 1
        file.seek(start)
    with _no_empty_file(db_path), open_store(db_path, create=True) as store, progress(
        "Importing lines", lines_total
    ) as advance:
        return store.import_sessions(
            _decoded(file), on_progress=advance, existing=existing, unverified=unverified
        )


@contextlib.contextmanager
def _no_empty_file(db_path: Path | None) -> Iterator[None]:
    """A refused import leaves no empty database file it created behind."""
    target = db_path if db_path is not None else default_db_path()
    created = str(target) != ":memory:" and not target.exists()
    try:
        yield
    except LocalMemError:
        if created and _holds_nothing(target):
            for name in (target, Path(f"{target}-wal"), Path(f"{target}-shm")):
                name.unlink(missing_ok=True)
        raise


def _print_conversations(report: ImportReport, source: str) -> None:
    counts = report.counts
    line = f"Imported {len(report.sessions)} conversations from {source}"
    if report.replaced:
        line += f" ({len(report.replaced)} replaced)"
    line += f": {counts.get('message', 0)} messages, {counts.get('summary', 0)} offline summaries"
    if report.skipped:
        line += f"; {len(report.skipped)} skipped (this file has them already)"
    click.echo(line)
    _print_removed(report)


def _decoded(file: BinaryIO, advance: Any = None) -> Iterator[str]:
    """The lines of a binary file as text; bytes that are not UTF-8 are kept, for the
    import to name the line. ``advance(bytes)`` as they are read."""
    for raw in file:
        if advance is not None:
            advance(len(raw))
        yield raw.decode("utf-8", "surrogateescape")


def _print_import(report: ImportReport) -> None:
    replaced = set(report.replaced)
    for old, new in report.sessions:
        verb = "Replaced" if old in replaced else "Imported"
        click.echo(f"{verb} session {old}" + (f" as {new}" if new != old else ""))
    for sid in report.skipped:
        click.echo(f"Skipped session {sid}: this file has it already")
    counts = ", ".join(f"{kind} {n}" for kind, n in report.counts.items() if kind != "session")
    line = f"{len(report.sessions)} sessions" + (f": {counts}" if counts else "")
    if report.skipped:
        line += f"; {len(report.skipped)} skipped"
    if not report.verified:
        line += " (unverified: the input had no end record)"
    click.echo(line)
    _print_removed(report)


def _print_removed(report: ImportReport) -> None:
    if report.removed:
        click.echo(
            f"{report.removed} automatic pin(s) left out: their facts were removed in this file "
            "(an import does not say them again; pin them by hand to keep them)"
        )
    if report.ended_elsewhere:
        click.echo(
            f"{report.ended_elsewhere} superseded pin(s) kept in history for good: the update "
            "that ended each was said in another session, which an export does not link (pin one by hand if it holds)"
        )
