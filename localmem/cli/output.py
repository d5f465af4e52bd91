"""How the ``localmem`` commands print: rows in several formats, progress bars, and
the questions a destructive command asks.

- **Rows** print as text lines by default, or ``--json`` (one array), ``--nl``
  (one JSON object a line), ``--csv`` or ``-t/--table`` (sqlite-utils' options).
- **Progress** goes to standard error, and only when it is a terminal: never
  into a pipe, a log or a test's output. A bar has a total when one is known,
  and is redrawn at most ten times a second.
- **Questions** ("Delete 3 sessions?") are asked only on a terminal;
  ``--yes`` answers them.
- **Waits** for the local model are said at once on standard error, terminal or
  not (:func:`announce_waits`): which model, which server, how long at most.
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import json
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import click

from ..summarizer.ollama_client import WAITING_LOGGER

if TYPE_CHECKING:
    from ..reports import ResummarizeReport
    from ..store import MemoryStore

REDRAW_SECONDS = 0.1
TABLE_CELL_CHARS = 60


# --- rows --------------------------------------------------------------------------------------


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def print_resummarized(report: ResummarizeReport) -> None:
    click.echo(
        f"Redid {len(report.redone)} of {report.found} offline or fallback summaries with the "
        "local model" + (f"; {report.left} left: {report.reason}" if report.left else ".")
    )


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
    _drawing.set()  # its label says what a wait is for: announce_waits stays quiet
    try:
        with _bar(label, total) as advance:
            yield advance
    finally:
        _drawing.clear()


@contextlib.contextmanager
def _bar(label: str, total: int | None) -> Iterator[Callable[[int], None]]:
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


_drawing = threading.Event()
"""Set while a progress bar is drawn on the terminal."""


class _WaitNotice(logging.Handler):
    """Says on standard error what the library waits for (the records of
    ``WAITING_LOGGER``): once per model and server, and again when a wait may be
    longer than the one said."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self._said: dict[tuple[str, str | None], float] = {}
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        host, model = getattr(record, "ollama_host", None), getattr(record, "ollama_model", None)
        timeout = getattr(record, "ollama_timeout", None)
        if host is None or timeout is None:
            return
        with self._guard:
            if self._said.get((host, model), 0.0) >= timeout:
                return
            self._said[host, model] = timeout
        if _drawing.is_set():
            return
        what = "Ollama to list its models" if model is None else model
        click.echo(
            f"Waiting up to {timeout:g} s for {what} at {host} (--offline skips the local model)...",
            err=True,
        )


@contextlib.contextmanager
def announce_waits() -> Iterator[None]:
    """While it lasts, each wait for the local model is said at once on standard error,
    a terminal or a pipe (the library logs it; it never prints)."""
    logger = logging.getLogger(WAITING_LOGGER)
    handler = _WaitNotice()
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def confirm(question: str, yes: bool) -> bool:
    """Whether to go on with a destructive command: ``--yes``, or the answer on a
    terminal. Without a terminal to ask on (a script, a pipe) and without
    ``--yes``, refuse (as gh, terraform and apt do): a ``ClickException`` saying
    to pass ``--yes``, before anything is deleted."""
    if yes:
        return True
    if not stdin_is_terminal():
        raise click.ClickException(
            "refusing to delete without a terminal to confirm on: pass --yes to go ahead"
        )
    return click.confirm(question, default=False, err=True)


def by_position(advance: Callable[[int], None]) -> Callable[[int, int], None]:
    """An ``on_progress(done, total)`` callback that moves a :func:`progress` bar by
    what is new since its last call."""
    done = 0

    def step(now: int, _total: int) -> None:
        nonlocal done
        advance(now - done)
        done = now

    return step
