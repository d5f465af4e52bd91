"""The ``localmem`` command line. The library raises; this module prints.

Every command takes ``-h/--help`` and ``--db PATH`` (default ``$LOCALMEM_DB``,
else the per-user data directory) and turns a
:class:`~localmem.errors.LocalMemError` into one line on stderr and exit code
1. Here: the ``localmem`` group, opening the store, the options every command
shares, naming a session, and ``main``; row formats, progress and questions are
``output``'s; the commands are in the modules beside it, by group.

- **Opening**: a command that only reads refuses a missing file in one line
  rather than creating an empty one; only the commands that create sessions
  (``demo``, ``new``, ``import``, ``mcp``) create it. Commands that may call
  the local model take ``--timeout SECONDS``, ``--offline``, ``--model-trust earned|checked``
  and ``--facts-apart`` (``MemoryConfig.model_trust``, ``facts_apart``).
- **Sessions** are named by their id, by the first characters of a random id
  (at least :data:`MIN_PREFIX`, if only one id starts with them), or with
  ``--latest`` (the most recently active).
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..config import default_db_path
from ..errors import InvalidInput, LocalMemError, SessionNotFound
from .output import announce_waits

if TYPE_CHECKING:
    from ..store import MemoryStore

MIN_PREFIX = 4
"""Characters of a random session id that may stand for it."""
_RANDOM_ID = re.compile(r"[0-9a-f]{32}")
_HEX = re.compile(r"[0-9a-f]+")

DB_HELP = "Database file [default: $LOCALMEM_DB, else the user data directory's memory.db]."


def _or_before(ctx: click.Context, _param: click.Parameter, value: Path | None) -> Path | None:
    """``--db`` given before the subcommand (``localmem --db F sessions``) serves it
    too; given after it, that one wins."""
    return value if value is not None else ctx.find_root().params.get("db_path")


db_option = click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    callback=_or_before,
    help=DB_HELP + " Before or after the command.",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")
yes_option = click.option("-y", "--yes", is_flag=True, help="Do not ask for confirmation.")
latest_option = click.option(
    "--latest", is_flag=True, help="The most recently active session (no SESSION needed)."
)
model_options = (
    click.option(
        "--timeout",
        type=click.FloatRange(min=0, min_open=True),
        default=None,
        metavar="SECONDS",
        help="Wait at most this long for each answer of the local model [default: 60].",
    ),
    click.option(
        "--offline", is_flag=True, help="Do not call the local model: deterministic summaries only."
    ),
    click.option(
        "--model-trust",
        type=click.Choice(["earned", "checked"]),
        default=None,
        help="What the local model wrote reaches the memory once it has earned trust on this file "
        "(earned), or whenever it passes the checks (checked) [default: earned].",
    ),
    click.option(
        "--facts-apart", is_flag=True,
        help="Ask the local model for a span's facts even when its summary was rejected.",
    ),
)



force_option = click.option(
    "-f", "--force", is_flag=True, help="Replace the file if it exists (never the database itself)."
)


def with_store(
    func: Callable[..., Any] | None = None, *, create: bool = False, model: bool = False
) -> Any:
    """Add ``--db`` (and, with ``model``, :data:`model_options`) to a command
    and hand it an open store (:func:`open_store`); report localmem's errors in one
    line (exit code 1). With ``model``, each wait for the local model is said on
    standard error as it starts (``output.announce_waits``). Use bare
    (``@with_store``) or with options."""
    if func is None:
        return functools.partial(with_store, create=create, model=model)

    @functools.wraps(func)
    def wrapper(db_path: Path | None, **kwargs: Any) -> Any:
        config: dict[str, Any] = {}
        if model:
            timeout, offline = kwargs.pop("timeout"), kwargs.pop("offline")
            if timeout is not None:
                config["ollama_timeout"] = timeout
            if offline:
                config["offline"] = True
            trust, apart = kwargs.pop("model_trust"), kwargs.pop("facts_apart")
            if trust is not None:
                config["model_trust"] = trust
            if apart:
                config["facts_apart"] = True
        waits = announce_waits() if model else contextlib.nullcontext()
        try:
            with waits, open_store(db_path, create=create, config=config) as store:
                return func(store, **kwargs)
        except LocalMemError as exc:
            raise click.ClickException(str(exc)) from None

    if model:
        for option in reversed(model_options):
            wrapper = option(wrapper)
    return db_option(wrapper)


@contextlib.contextmanager
def open_store(
    db_path: Path | None, *, create: bool, config: dict[str, Any] | None = None
) -> Iterator[MemoryStore]:
    """The store of ``--db`` (else the default file). Unless ``create``, a file that
    does not exist is refused in one line, and nothing (not even its directory) is
    created: reading never creates."""
    path = db_path if db_path is not None else default_db_path()
    if not create and str(path) != ":memory:" and not path.exists():
        raise click.ClickException(
            f"no database at {path}: check --db or $LOCALMEM_DB "
            "(`localmem new`, `import`, `demo` and `mcp` create one)"
        )
    # The one use of the class at run time, when a command opens its file: the
    # command modules are handed the store (``with_store``) and name it as a type
    # only, so the CLI's shared base need not stand above the whole library.
    # (It saves no import time: ``localmem/__init__`` imports the store.)
    from ..store import MemoryStore

    with MemoryStore(path, config=config or None) as store:
        yield store


def session_argument(func: Callable[..., Any]) -> Callable[..., Any]:
    """SESSION (an id, or the first characters of a random one), or ``--latest``."""
    return click.argument("session", required=False)(latest_option(func))


def resolve_session(store: MemoryStore, given: str | None, latest: bool = False) -> str:
    """The id a command's SESSION argument (or ``--latest``) stands for.

    An existing id is itself; otherwise at least :data:`MIN_PREFIX` hex
    characters stand for the one random (32-hex) id they begin. An id a
    person chose ("demo") is never completed: ``demo`` must not become
    ``demo-2``.
    """
    if latest:
        if given is not None:
            raise click.UsageError("give SESSION or --latest, not both")
        newest = store.session_overview(1)
        if not newest:
            raise click.ClickException(f"{store.path} has no session yet")
        return newest[0].id
    if given is None:
        raise click.UsageError("missing SESSION (an id, its first characters, or --latest)")
    try:
        store.get_session(given)
        return given
    except (SessionNotFound, InvalidInput):
        pass
    if len(given) >= MIN_PREFIX and _HEX.fullmatch(given):
        found = [sid for sid in store.find_session_ids(given, limit=6) if _RANDOM_ID.fullmatch(sid)]
        if len(found) == 1:
            return found[0]
        if found:
            shown = ", ".join(found[:5]) + (", ..." if len(found) > 5 else "")
            raise click.ClickException(f"{given!r} begins several session ids ({shown}): give more of it")
    raise click.ClickException(str(SessionNotFound(given)))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="localmem")
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=DB_HELP + " For every command (also accepted after it).")
def cli(db_path: Path | None) -> None:
    """localmem: an assistant's memory in one SQLite file on this machine."""


def main() -> None:
    cli(prog_name="localmem")
