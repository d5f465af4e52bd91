"""The file as a whole: ``maintain``, ``forget``, ``vacuum``, ``backup``, ``schema``,
``stats``, ``doctor``, ``path``."""

from __future__ import annotations

import contextlib
import datetime
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..config import default_db_path
from ..doctor import BROKEN, OFFLINE, run_checks, verdict
from ..errors import SessionNotFound
from ..maintain import LEVEL_NAMES
from ..reports import Stats
from .base import (
    cli,
    db_option,
    force_option,
    json_option,
    resolve_session,
    with_store,
    yes_option,
)
from .output import (
    by_position,
    confirm,
    echo_json,
    model_label,
    print_resummarized,
    progress,
    status,
    stdin_is_terminal,
)

if TYPE_CHECKING:  # commands are handed the store (``with_store``): its type, for the checker
    from ..store import MemoryStore


AGE_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


@cli.command()
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
        report = store.maintain(on_progress=by_position(advance))
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


@cli.command()
@click.argument("sessions", nargs=-1)
@click.option("--older-than", type=Age(), default=None, help="Every session idle this long: 30d, 12h, 2w.")
@click.option("--message", "message_id", type=int, default=None, metavar="ID",
              help="One message, and its text wherever it was quoted.")
@click.option("--dry-run", is_flag=True, help="List what would be deleted; delete nothing.")
@yes_option
@json_option
@with_store
def forget(
    store: MemoryStore,
    sessions: tuple[str, ...],
    older_than: datetime.timedelta | None,
    message_id: int | None,
    dry_run: bool,
    yes: bool,
    as_json: bool,
) -> None:
    """Delete SESSIONS, every session idle longer than --older-than, or the
    message --message names, with everything that quoted it.

    Give one of: session ids, --older-than, --message. Last activity is a
    session's newest message or change. On a terminal it lists what will go
    and asks first; without a terminal (a script, a pipe) it refuses unless
    --yes is given. Prints what was deleted (or, with --dry-run, would be).
    """
    if sum((bool(sessions), older_than is not None, message_id is not None)) != 1:
        raise click.UsageError("give session ids, --older-than or --message: one of them")
    if message_id is not None:
        _forget_message(store, message_id, dry_run, yes, as_json)
        return
    if older_than is not None:
        gone = store.prune(older_than, dry_run=True)
    else:
        gone = list(dict.fromkeys(resolve_session(store, s) for s in sessions))  # all checked first
    asked = bool(gone) and not dry_run and not yes
    if asked:
        if stdin_is_terminal():
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


def _forget_message(store: MemoryStore, message_id: int, dry_run: bool, yes: bool, as_json: bool) -> None:
    """``forget --message ID``; a missing id is the library's NotFound (one line)."""
    if not dry_run and not confirm(f"Delete message {message_id} and what quoted it?", yes):
        raise click.Abort()
    if not dry_run:
        store.delete_message(message_id)
    if as_json:
        echo_json({"message": message_id, "dry_run": dry_run})
        return
    click.echo(f"{'Would delete' if dry_run else 'Deleted'} message {message_id}")


@cli.command()
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


@cli.command()
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
        copy = store.backup(target, force=force, on_progress=by_position(advance))
    size = copy.stat().st_size
    if as_json:
        echo_json({"path": str(copy), "bytes": size})
        return
    click.echo(f"Backed up {store.path} to {copy} ({size} bytes, integrity checked)")


# --- inspection ------------------------------------------------------------------------------


@cli.command()
@with_store
def schema(store: MemoryStore) -> None:
    """Print the database's schema as SQL."""
    click.echo(store.schema(), nl=False)


@cli.command()
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


@cli.command()
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


@cli.command()
@db_option
@json_option
def path(db_path: Path | None, as_json: bool) -> None:
    """Print the database path the other commands would use (nothing is opened)."""
    used = str(db_path if db_path is not None else default_db_path())
    if as_json:
        echo_json({"path": used})
        return
    click.echo(used)
