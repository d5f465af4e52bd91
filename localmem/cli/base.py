"""The ``localmem`` command line. The library raises; this module prints.

Every command takes ``--db PATH`` (default ``$LOCALMEM_DB``, else the per-user
data directory) and turns a :class:`~localmem.errors.LocalMemError` into one
line on stderr and exit code 1. Here: the ``localmem`` group, the options and
helpers every command shares, and ``main``; the commands are in the modules
beside it, by group.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..errors import LocalMemError
from ..store import MemoryStore


db_option = click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Database file [default: $LOCALMEM_DB, else the user data directory's memory.db].",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def _echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def with_store(func: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--db`` to a command and hand it an open store; report errors in one line."""

    @db_option
    @functools.wraps(func)
    def wrapper(db_path: Path | None, **kwargs: Any) -> Any:
        try:
            with MemoryStore(db_path) as store:
                return func(store, **kwargs)
        except LocalMemError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper


@click.group()
@click.version_option(package_name="localmem")
def cli() -> None:
    """localmem: an assistant's memory in one SQLite file on this machine."""


def main() -> None:
    cli(prog_name="localmem")
