"""The ``localmem`` commands about the file as a whole: export and import, upkeep
(maintain, forget, vacuum), backup, inspection (stats, schema, doctor, path).

``localmem.cli`` adds :data:`COMMANDS` to its group. Files written for the user
(an export's ``-o``, a backup) go through ``localmem.files``: complete or not at
all, never over the database, through a symbolic link or (without ``--force``)
over an existing file, readable by their owner alone.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import click

from . import files
from .config import default_db_path
from .doctor import BROKEN, OFFLINE, run_checks, verdict
from .errors import LocalMemError, SessionNotFound
from .jsonl import check_end
from .maintain import LEVEL_NAMES
from .models import ImportReport, ResummarizeReport, Stats
from .store import MemoryStore
from .terminal import (
    confirm,
    db_option,
    echo_json,
    json_option,
    model_label,
    open_store,
    progress,
    resolve_session,
    status,
    stdin_is_terminal,
    with_store,
    yes_option,
)

SESSION_LINE = '{"type":"session"'
AGE_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
force_option = click.option(
    "-f", "--force", is_flag=True, help="Replace the file if it exists (never the database itself)."
)


# --- export and import ---------------------------------------------------------------------


@click.command("export")
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


@click.command("import")
@click.argument("file", type=click.File("rb"))
@click.option("--rename", is_flag=True, help="Give a session this file already has a new random id.")
@click.option(
    "--skip-existing", is_flag=True, help="Leave a session this file already has as it is (resumes an import)."
)
@click.option("--replace", is_flag=True, help="Replace a session this file already has with the imported one.")
@click.option(
    "--unverified",
    is_flag=True,
    help="Import a file without its end record (an older localmem's, or one cut short) as far as it goes.",
)
@db_option
@json_option
def import_(
    db_path: Path | None,
    file: BinaryIO,
    rename: bool,
    skip_existing: bool,
    replace: bool,
    unverified: bool,
    as_json: bool,
) -> None:
    """Import the sessions of FILE, written by `localmem export` ('-': standard input).

    A file is first checked whole against its end record: a cut or altered
    export is refused before anything is written. Each session is then one
    transaction. A session this database already has is refused unless
    --skip-existing (to resume an interrupted import), --replace or --rename.
    """
    chosen = [name for name, on in (("rename", rename), ("skip", skip_existing), ("replace", replace)) if on]
    if len(chosen) > 1:
        raise click.UsageError("give one of --rename, --skip-existing and --replace")
    try:
        lines_total = None
        if file.seekable() and not unverified:
            start = file.tell()
            size = file.seek(0, os.SEEK_END) - start
            file.seek(start)
            with progress("Checking the file", size) as advance:
                lines_total = check_end(_decoded(file, advance)).lines + 1
            file.seek(start)
        with open_store(db_path, create=True) as store, progress("Importing lines", lines_total) as advance:
            report = store.import_sessions(
                _decoded(file),
                on_progress=advance,
                existing=chosen[0] if chosen else "refuse",
                unverified=unverified,
            )
    except LocalMemError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        echo_json(report.model_dump())
        return
    _print_import(report)


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


# --- upkeep --------------------------------------------------------------------------------


@click.command()
@json_option
@with_store(model=True)
def maintain(store: MemoryStore, as_json: bool) -> None:
    """Compact sessions idle for 1, 7 and 30 days, more tightly the longer they were idle.

    Summarizes what is due (with the local model when it can), rolls old
    summaries into one and shows fewer tool calls and files in the idle
    sessions' contexts; then has the model redo the summaries written while it
    was not there. Deletes nothing; running it again does nothing new.
    """
    with progress(model_label(store, "Maintaining sessions")) as advance:
        done = 0

        def step(now: int, _total: int) -> None:
            nonlocal done
            advance(now - done)
            done = now

        report = store.maintain(on_progress=step)
    if as_json:
        echo_json(report.model_dump())
        return
    for c in report.compacted:
        click.echo(
            f"{c.session_id}\tidle {c.idle_days:g} days\tlevel {c.previous_level} -> {c.level} "
            f"({LEVEL_NAMES[c.level]})\t{c.summaries} summaries, {c.rollups} rollups"
        )
    click.echo(f"Compacted {len(report.compacted)} of {report.checked} sessions.")
    if report.resummarized is not None and report.resummarized.found:
        print_resummarized(report.resummarized)


def print_resummarized(report: ResummarizeReport) -> None:
    click.echo(
        f"Redid {len(report.redone)} of {report.found} offline or fallback summaries with the "
        "local model" + (f"; {report.left} left: {report.reason}" if report.left else ".")
    )


class Age(click.ParamType):
    """An age such as ``30d``, ``12h`` or ``2w`` (s, m, h, d, w), as a timedelta."""

    name = "age"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> datetime.timedelta:
        if isinstance(value, datetime.timedelta):
            return value
        found = re.fullmatch(r"\s*(\d+)\s*([smhdw])\s*", str(value))
        if found is None:
            self.fail(f"{value!r} is not an age like 30d, 12h or 2w (units: s m h d w)", param, ctx)
        try:
            return datetime.timedelta(**{AGE_UNITS[found[2]]: int(found[1])})
        except OverflowError:
            self.fail(f"{value!r} is longer than Python's longest timedelta", param, ctx)


@click.command()
@click.argument("sessions", nargs=-1)
@click.option("--older-than", type=Age(), default=None, help="Every session idle this long: 30d, 12h, 2w.")
@click.option("--dry-run", is_flag=True, help="List what would be deleted; delete nothing.")
@yes_option
@json_option
@with_store
def forget(
    store: MemoryStore,
    sessions: tuple[str, ...],
    older_than: datetime.timedelta | None,
    dry_run: bool,
    yes: bool,
    as_json: bool,
) -> None:
    """Delete SESSIONS, or every session idle longer than --older-than, with all they hold.

    Give session ids or --older-than, not both. Last activity is a session's
    newest message or change. On a terminal it lists what will go and asks
    first (--yes does not ask). Prints the ids deleted (or, with --dry-run,
    that would be).
    """
    if bool(sessions) == (older_than is not None):
        raise click.UsageError("give session ids or --older-than, not both and not neither")
    if older_than is not None:
        gone = store.prune(older_than, dry_run=True)
    else:
        gone = list(dict.fromkeys(resolve_session(store, s) for s in sessions))  # all checked first
    asked = bool(gone) and not dry_run and not yes and stdin_is_terminal()
    if asked:
        click.echo("\n".join(f"  {sid}" for sid in gone), err=True)
        if not confirm(f"Delete these {len(gone)} sessions and everything they hold?", yes):
            raise click.Abort()
    if not dry_run:
        if older_than is not None and not asked:
            gone = store.prune(older_than)  # one transaction
        else:
            for sid in gone:  # exactly what was shown
                with contextlib.suppress(SessionNotFound):
                    store.delete_session(sid)
    if as_json:
        echo_json({"sessions": gone, "dry_run": dry_run})
        return
    for sid in gone:
        click.echo(f"{'Would delete' if dry_run else 'Deleted'} session {sid}")
    if not gone:
        click.echo("No session is idle for that long.")


@click.command()
@json_option
@with_store
def vacuum(store: MemoryStore, as_json: bool) -> None:
    """Give the space of deleted rows back to the disk (VACUUM) and empty the log.

    Rewrites the whole file: seconds on a large one. Refuses, changing
    nothing, while another program has the file in a transaction.
    """
    size = sum(os.stat(p).st_size for p in (store.path, f"{store.path}-wal") if os.path.exists(p))
    status(f"Vacuuming {store.path} ({size / 1e6:.1f} MB): the whole file is rewritten...")
    result = store.vacuum()
    if as_json:
        echo_json(result)
        return
    click.echo(f"{store.path}: {result['bytes_before']} -> {result['bytes_after']} bytes")
    if result["log_bytes"]:
        click.echo(f"The write-ahead log ({result['log_bytes']} bytes) is still in use by a reader.")


@click.command()
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path))
@force_option
@json_option
@with_store
def backup(store: MemoryStore, target: Path, force: bool, as_json: bool) -> None:
    """Copy the database to the new file TARGET, safely while it is in use, and check the copy.

    The copy takes its name only once complete and checked: an interrupted
    backup leaves nothing under TARGET, and running it again works.
    """
    with progress("Backing up pages") as advance:
        done = 0

        def step(copied: int, _total: int) -> None:
            nonlocal done
            advance(copied - done)
            done = copied

        copy = store.backup(target, force=force, on_progress=step)
    size = copy.stat().st_size
    if as_json:
        echo_json({"path": str(copy), "bytes": size})
        return
    click.echo(f"Backed up {store.path} to {copy} ({size} bytes, integrity checked)")


# --- inspection ------------------------------------------------------------------------------


@click.command()
@with_store
def schema(store: MemoryStore) -> None:
    """Print the database's schema as SQL."""
    click.echo(store.schema(), nl=False)


@click.command()
@json_option
@with_store
def stats(store: MemoryStore, as_json: bool) -> None:
    """Print what the database holds: counts, sizes, the tokenizer and the cache."""
    st = store.stats()
    if as_json:
        echo_json(st.model_dump())
        return
    _print_stats(st)


def _print_stats(st: Stats) -> None:
    def split(counts: dict) -> str:
        return ", ".join(f"{key} {n}" for key, n in counts.items()) or "none"

    click.echo(f"File: {st.path} ({st.file_bytes} bytes with its log; "
               f"{st.page_count} pages of {st.page_size}), schema version {st.schema_version}")
    click.echo(f"Sessions: {st.sessions}, messages: {st.messages}, checkpoints: {st.checkpoints}")
    levels = {f"level {level}": n for level, n in st.summaries_by_level.items()}
    click.echo(f"Summaries: {split(levels)}; by source: {split(st.summaries_by_source)}")
    click.echo(f"Pins: {split(st.pins_by_kind)}")
    click.echo(f"Goals: {split(st.goals_by_status)}")
    click.echo(f"Tokenizer: {st.tokenizer}")
    rate = "n/a" if st.cache_hit_rate is None else f"{st.cache_hit_rate:.0%}"
    click.echo(f"Context cache (this process): {st.cache_hits} hits, {st.cache_misses} misses, hit rate {rate}")


@click.command()
@click.option("-s", "--session", "session", default=None, help="Also check this session's model window.")
@json_option
@with_store(model=True)
def doctor(store: MemoryStore, session: str | None, as_json: bool) -> None:
    """Check the file, the tokenizer and the local Ollama server.

    Exit code 0: all good; 1: something is broken; 3: no local model (no
    Ollama server, or no model installed), which is fine: localmem then
    summarizes offline.
    """
    sid = None if session is None else resolve_session(store, session)
    if not store.config.offline:
        status(f"Asking Ollama at {store.ollama_backend.host} (timeout {store.config.ollama_timeout:g} s)...")
    checks = run_checks(store, sid)
    if as_json:
        echo_json([c.model_dump() for c in checks])
    else:
        for c in checks:
            mark = "ok" if c.ok else "offline" if c.offline else "FAIL"
            click.echo(f"[{mark}] {c.name}: {c.detail}")
    code = verdict(checks)
    if code == OFFLINE and not as_json:
        click.echo("No local model: localmem works offline (deterministic summaries, redone by "
                   "`localmem resummarize` once a model runs).")
    if code == BROKEN and not as_json:
        click.echo("Something is broken: see the FAIL lines.")
    if code:
        click.get_current_context().exit(code)


@click.command()
@db_option
@json_option
def path(db_path: Path | None, as_json: bool) -> None:
    """Print the database path the other commands would use (nothing is opened)."""
    used = str(db_path if db_path is not None else default_db_path())
    if as_json:
        echo_json({"path": used})
        return
    click.echo(used)


COMMANDS: Iterable[click.Command] = (
    export, import_, maintain, forget, vacuum, backup, schema, stats, doctor, path,
)
