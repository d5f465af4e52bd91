"""A copy elsewhere, kept by Litestream: ``replicate``, ``restore`` (``localmem.replica``)."""

from __future__ import annotations

from pathlib import Path

import click

from .. import replica
from ..config import default_db_path
from ..errors import LocalMemError
from .base import cli, db_option, json_option, open_store
from .output import echo_json


@cli.command("replicate")
@click.option("--to", "target", required=True, help="The replica: a folder, or a Litestream URL (s3://..., sftp://...).")
@click.option(
    "--retention",
    default=replica.DEFAULT_RETENTION,
    show_default=True,
    help="How long the replica keeps snapshots (a Litestream duration: 1h, 24h...).",
)
@click.option("--print-config", is_flag=True, help="Print Litestream's configuration (for a service manager) and exit.")
@db_option
def replicate(target: str, retention: str, print_config: bool, db_path: Path | None) -> None:
    """Keep a copy of the memory file in TO with Litestream, in the foreground until
    Ctrl-C (or SIGTERM), which stops Litestream after its last sync.

    Needs `pip install 'localmem[replicate]'`. The replica keeps what Litestream
    retains (--retention): a message you forget leaves it only once its snapshots
    are past that. One device writes the file; restore it elsewhere with
    `localmem restore`, never write one file from two devices.
    """
    path = db_path if db_path is not None else default_db_path()
    if print_config:
        click.echo(replica.config(path, target, retention=retention), nl=False)
        return
    if not Path(path).is_file():
        raise click.ClickException(f"no database at {path}: check --db or $LOCALMEM_DB")
    with open_store(path, create=False):  # a localmem file, migrated and in WAL mode, before Litestream reads it
        pass
    try:
        click.echo(f"Replicating {path} to {target} (Ctrl-C stops)", err=True)
        code = replica.replicate(path, target, retention=retention)
    except LocalMemError as exc:
        raise click.ClickException(str(exc)) from None
    if code not in (0, -2, -15):  # stopped by SIGINT or SIGTERM: a normal end
        raise click.ClickException(f"litestream exited with status {code}")


@cli.command("restore")
@click.option("--from", "source", required=True, help="The replica: a folder, or a Litestream URL.")
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="The new database file to write (never an existing one) [default: --db's file].",
)
@click.option(
    "--at", "moment", default=None, metavar="TIME",
    help="Its state at this moment instead (ISO-8601, UTC unless it names an offset: "
    "2026-05-04T18:30:00Z), while the replica retains it.",
)
@db_option
@json_option
def restore(
    source: str, output: Path | None, moment: str | None, db_path: Path | None, as_json: bool
) -> None:
    """Restore the newest state of a replica (or its state --at a moment) into a new file
    (-o, else --db's, else the default database on a new machine), checked before it gets
    its name. A moment before a forget brings back what was forgotten, while the replica
    retains it (replicate's --retention)."""
    target = output or db_path
    if target is None:  # a new machine: the default database's folder may not exist yet
        target = default_db_path()
        target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        path = replica.restore(source, target, at=moment)
    except LocalMemError as exc:
        raise click.ClickException(str(exc)) from None
    with open_store(path, create=False) as store:
        stats = store.stats()
    if as_json:
        echo_json({"path": str(path), "sessions": stats.sessions, "messages": stats.messages})
        return
    click.echo(f"Restored {path}: {stats.sessions} sessions, {stats.messages} messages; integrity check ok")
