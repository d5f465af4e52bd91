"""The file as a whole: ``maintain``, ``schema``, ``forget``, ``vacuum``, ``backup``, ``stats``,
``doctor``, ``path``.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any

import click

from ..config import default_db_path
from ..doctor import run_checks
from ..maintain import LEVEL_NAMES
from ..models import Stats
from ..store import MemoryStore
from .base import _echo_json, cli, db_option, json_option, with_store


@cli.command()
@json_option
@with_store
def maintain(store: MemoryStore, as_json: bool) -> None:
    """Compact sessions idle for 1, 7 and 30 days, more tightly the longer they were idle.

    Summarizes what is due (with the local model when it can), rolls old
    summaries into one and shows fewer tool calls and files in the idle
    sessions' contexts. Deletes nothing; running it again does nothing new.
    """
    report = store.maintain()
    if as_json:
        _echo_json(report.model_dump())
        return
    for c in report.compacted:
        click.echo(
            f"{c.session_id}\tidle {c.idle_days:g} days\tlevel {c.previous_level} -> {c.level} "
            f"({LEVEL_NAMES[c.level]})\t{c.summaries} summaries, {c.rollups} rollups"
        )
    click.echo(f"Compacted {len(report.compacted)} of {report.checked} sessions.")


@cli.command()
@with_store
def schema(store: MemoryStore) -> None:
    """Print the database's schema as SQL."""
    click.echo(store.schema(), nl=False)


# --- the file as a whole: retention, vacuum, backup, stats, doctor --------------------

AGE_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


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
@click.option("--dry-run", is_flag=True, help="List what would be deleted; delete nothing.")
@json_option
@with_store
def forget(
    store: MemoryStore,
    sessions: tuple[str, ...],
    older_than: datetime.timedelta | None,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Delete SESSIONS, or every session idle longer than --older-than, with all they hold.

    Give session ids or --older-than, not both. Last activity is a session's
    newest message or change. Prints the ids deleted (or, with --dry-run,
    that would be).
    """
    if bool(sessions) == (older_than is not None):
        raise click.UsageError("give session ids or --older-than, not both and not neither")
    if older_than is not None:
        gone = store.prune(older_than, dry_run=dry_run)
    else:
        gone = list(dict.fromkeys(sessions))
        for session_id in gone:  # every id checked before anything is deleted
            store.get_session(session_id)
        if not dry_run:
            for session_id in gone:
                store.delete_session(session_id)
    if as_json:
        _echo_json({"sessions": gone, "dry_run": dry_run})
        return
    for session_id in gone:
        click.echo(f"{'Would delete' if dry_run else 'Deleted'} session {session_id}")
    if not gone:
        click.echo("No session is idle for that long.")


@cli.command()
@json_option
@with_store
def vacuum(store: MemoryStore, as_json: bool) -> None:
    """Give the space of deleted rows back to the disk (VACUUM) and empty the log.

    Refuses, changing nothing, while another program has the file in a
    transaction.
    """
    result = store.vacuum()
    if as_json:
        _echo_json(result)
        return
    click.echo(f"{store.path}: {result['bytes_before']} -> {result['bytes_after']} bytes")
    if result["log_bytes"]:
        click.echo(f"The write-ahead log ({result['log_bytes']} bytes) is still in use by a reader.")


@cli.command()
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path))
@json_option
@with_store
def backup(store: MemoryStore, target: Path, as_json: bool) -> None:
    """Copy the database to the new file TARGET, safely while it is in use, and check the copy."""
    copy = store.backup(target)
    size = copy.stat().st_size
    if as_json:
        _echo_json({"path": str(copy), "bytes": size})
        return
    click.echo(f"Backed up {store.path} to {copy} ({size} bytes, integrity checked)")


@cli.command()
@json_option
@with_store
def stats(store: MemoryStore, as_json: bool) -> None:
    """Print what the database holds: counts, sizes, the tokenizer and the cache."""
    st = store.stats()
    if as_json:
        _echo_json(st.model_dump())
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
@click.option("--session", "session_id", default=None, help="Also check this session's model window.")
@json_option
@with_store
def doctor(store: MemoryStore, session_id: str | None, as_json: bool) -> None:
    """Check the file, the tokenizer and the local Ollama server; exit 1 if a check fails."""
    checks = run_checks(store, session_id)
    if as_json:
        _echo_json([c.model_dump() for c in checks])
    else:
        for c in checks:
            click.echo(f"[{'ok' if c.ok else 'FAIL'}] {c.name}: {c.detail}")
    if not all(c.ok for c in checks):
        click.get_current_context().exit(1)


@cli.command()
@db_option
@json_option
def path(db_path: Path | None, as_json: bool) -> None:
    """Print the database path the other commands would use (nothing is opened)."""
    used = str(db_path if db_path is not None else default_db_path())
    if as_json:
        _echo_json({"path": used})
        return
    click.echo(used)
