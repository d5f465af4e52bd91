"""What the ``localmem`` commands share: opening the store, the output formats,
progress bars, questions, and finding a session from a few characters of its id.

- **Opening**: ``--db PATH`` (default ``$LOCALMEM_DB``, else the user data
  directory). A command that only reads refuses a missing file in one line
  rather than creating an empty one; only the commands that create sessions
  (``demo``, ``new``, ``import``) create it. Commands that may call the local
  model take ``--timeout SECONDS`` and ``--offline``.
- **Rows** print as text lines by default, or ``--json`` (one array), ``--nl``
  (one JSON object a line), ``--csv`` or ``-t/--table`` (sqlite-utils' options).
- **Progress** goes to standard error, and only when it is a terminal: never
  into a pipe, a log or a test's output. A bar has a total when one is known,
  and is redrawn at most ten times a second.
- **Questions** ("Delete 3 sessions?") are asked only on a terminal;
  ``--yes`` answers them.
- **Sessions** are named by their id, by the first characters of a random id
  (at least :data:`MIN_PREFIX`, if only one id starts with them), or with
  ``--latest`` (the most recently active).

The library raises; this module and the commands print.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import itertools
import json
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import click

from .config import default_db_path
from .errors import InvalidInput, LocalMemError, SessionNotFound
from .store import MemoryStore

MIN_PREFIX = 4
"""Characters of a random session id that may stand for it."""
REDRAW_SECONDS = 0.1
TABLE_CELL_CHARS = 60
_RANDOM_ID = re.compile(r"[0-9a-f]{32}")
_HEX = re.compile(r"[0-9a-f]+")
FORMATS = ("text", "json", "nl", "csv", "table")


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))

# --- opening the store ----------------------------------------------------------------------

db_option = click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Database file [default: $LOCALMEM_DB, else the user data directory's memory.db].",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")
yes_option = click.option("-y", "--yes", is_flag=True, help="Do not ask for confirmation.")
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
)


def with_store(
    func: Callable[..., Any] | None = None, *, create: bool = False, model: bool = False
) -> Any:
    """Add ``--db`` (and, with ``model``, ``--timeout`` and ``--offline``) to a command
    and hand it an open store (:func:`open_store`); report localmem's errors in one
    line (exit code 1)."""
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
        try:
            with open_store(db_path, create=create, config=config) as store:
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
            "(`localmem new`, `import` and `demo` create one)"
        )
    with MemoryStore(path, config=config or None) as store:
        yield store


# --- sessions by prefix ----------------------------------------------------------------------

latest_option = click.option(
    "--latest", is_flag=True, help="The most recently active session (no SESSION needed)."
)


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
        newest = store.list_sessions()[:1]
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


# --- rows --------------------------------------------------------------------------------------


def rows_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--json``, ``--nl``, ``--csv`` and ``-t/--table``, passed on as ``fmt``."""
    options = (
        click.option("--json", "fmt", flag_value="json", help="Print JSON."),
        click.option("--nl", "fmt", flag_value="nl", help="Print one JSON object a line."),
        click.option("--csv", "fmt", flag_value="csv", help="Print CSV with a header."),
        click.option("-t", "--table", "fmt", flag_value="table", help="Print a table."),
    )
    for option in reversed(options):
        func = option(func)
    return func


def print_rows(
    rows: Sequence[dict[str, Any]],
    fmt: str | None,
    text: Callable[[dict[str, Any]], str],
    columns: Sequence[str],
) -> None:
    """``rows`` in ``fmt``: text lines (``text(row)``), JSON, newline-delimited
    JSON, CSV (every field) or a table of ``columns``."""
    if fmt == "json":
        echo_json(list(rows))
    elif fmt == "nl":
        for row in rows:
            click.echo(json.dumps(row, ensure_ascii=False))
    elif fmt == "csv":
        fields = list(rows[0]) if rows else list(columns)
        out = io.StringIO()
        writer = csv.DictWriter(out, fields, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _cell(v, None) for k, v in row.items()})
        click.echo(out.getvalue(), nl=False)
    elif fmt == "table":
        click.echo(table(rows, columns))
    else:
        for row in rows:
            click.echo(text(row))


def table(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> str:
    """A plain text table of ``columns``, long cells cut to one short line."""
    cells = [[_cell(row.get(c), TABLE_CELL_CHARS) for c in columns] for row in rows]
    widths = [max([len(c), *(len(r[i]) for r in cells)]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in cells]
    return "\n".join(lines)


def _cell(value: Any, limit: int | None) -> str:
    if value is None:
        return ""
    if isinstance(value, (dict, list, tuple)):
        value = json.dumps(value, ensure_ascii=False)
    text = str(value)
    if limit is None:
        return text
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- the terminal ------------------------------------------------------------------------------


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def stdin_is_terminal() -> bool:
    return sys.stdin.isatty()


def status(message: str) -> None:
    """A line on standard error, only when it is a terminal (what the command is waiting for)."""
    if stderr_is_terminal():
        click.echo(message, err=True)


@contextlib.contextmanager
def progress(label: str, total: int | None = None) -> Iterator[Callable[[int], None]]:
    """Yield ``advance(n)``: a bar on standard error while it is a terminal, else a no-op.

    With ``total`` the bar fills; without, it counts. Redrawn at most every
    :data:`REDRAW_SECONDS`, so a million small steps do not write a million lines.
    """
    if not stderr_is_terminal():
        yield lambda n: None
        return
    steps = range(total) if total is not None else itertools.count()  # no total: it counts
    with click.progressbar(
        steps, label=label, file=sys.stderr, show_pos=True, show_eta=total is not None
    ) as bar:
        pending = 0
        drawn = time.monotonic()

        def advance(n: int) -> None:
            nonlocal pending, drawn
            pending += n
            now = time.monotonic()
            if now - drawn >= REDRAW_SECONDS:
                bar.update(pending)
                pending, drawn = 0, now

        yield advance
        if pending:
            bar.update(pending)


def model_label(store: MemoryStore, doing: str) -> str:
    """A progress label that says what a wait is for and how long it may be."""
    if store.config.offline:
        return f"{doing} (offline)"
    host = store.ollama_backend.host
    return f"{doing} (Ollama at {host}, timeout {store.config.ollama_timeout:g} s; --offline skips it)"


def confirm(question: str, yes: bool) -> bool:
    """Whether to go on: ``--yes``, or the answer on a terminal; without a terminal
    to ask on (a script, a pipe), the command goes on."""
    if yes or not stdin_is_terminal():
        return True
    return click.confirm(question, default=False, err=True)
