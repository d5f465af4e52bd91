"""The ``localmem`` command line. The library raises; this module prints.

Every command takes ``--db PATH`` (default ``$LOCALMEM_DB``, else the per-user
data directory) and turns a :class:`~localmem.errors.LocalMemError` into one
line on stderr and exit code 1.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import itertools
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import click

from .config import default_db_path
from .context import MemoryContext
from .demo import DEMO_CONVERSATION, DEMO_MODEL, DEMO_PINS, DEMO_SESSION_ID, DEMO_TITLE
from .doctor import run_checks
from .errors import LocalMemError, SessionNotFound
from .maintain import LEVEL_NAMES
from .models import PIN_KINDS, Checkpoint, Pin, Stats
from .state import archive_line
from .store import MemoryStore
from .summarizer import FALLBACK, OFFLINE

SUMMARY_SOURCES = {
    OFFLINE: "offline (no local Ollama server answered): a deterministic summary",
    FALLBACK: "by the keyword fallback (no usable local model answer)",
}


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


@cli.command()
@click.option("--max-tokens", type=click.IntRange(min=0), default=None, help="Token budget.")
@with_store
def demo(store: MemoryStore, max_tokens: int | None) -> None:
    """Store a demo conversation (session 'demo') and print its context."""
    try:
        store.delete_session(DEMO_SESSION_ID)
    except SessionNotFound:
        pass
    session = store.create_session(model=DEMO_MODEL, title=DEMO_TITLE, session_id=DEMO_SESSION_ID)
    store.add_messages(session.id, [{"role": r, "text": t} for r, t in DEMO_CONVERSATION])
    for content, importance in DEMO_PINS:
        store.pin(session.id, content, importance=importance)
    automatic = len(store.get_pins(session.id, kind="auto"))
    click.echo(
        f"Stored {len(DEMO_CONVERSATION)} messages in session {session.id!r} of {store.path}; "
        f"pinned {len(DEMO_PINS)} fact by hand and {automatic} automatically."
    )
    click.echo(f"Tokens counted with {store.tokenizer_name}.")
    summary = store.summarize(session.id)
    if summary is not None:
        how = SUMMARY_SOURCES.get(summary.source, f"by the local model {summary.source}")
        click.echo(f"Messages {summary.start_message_id}-{summary.end_message_id} summarized {how}.")
    click.echo()
    _print_context(store.build_context(session.id, max_tokens=max_tokens))


@cli.command()
@click.option("--model", default=None, help="The chat model this session uses.")
@click.option("--title", default=None, help="A title for the session.")
@click.option("--id", "session_id", default=None, help="The session id [default: random].")
@json_option
@with_store
def new(
    store: MemoryStore, model: str | None, title: str | None, session_id: str | None, as_json: bool
) -> None:
    """Create a session and print its id."""
    created = store.create_session(model=model, title=title, session_id=session_id)
    if as_json:
        _echo_json(created.model_dump())
        return
    click.echo(created.id)


@cli.command()
@json_option
@with_store
def sessions(store: MemoryStore, as_json: bool) -> None:
    """List sessions, most recently updated first."""
    rows = store.list_sessions()
    if as_json:
        _echo_json([s.model_dump() for s in rows])
        return
    for s in rows:
        click.echo(f"{s.id}\t{s.updated_at}\t{s.model or '-'}\t{s.title or ''}")


@cli.command()
@click.argument("session")
@click.argument("role", type=click.Choice(["system", "user", "assistant", "tool"]))
@click.argument("text")
@json_option
@with_store
def add(store: MemoryStore, session: str, role: str, text: str, as_json: bool) -> None:
    """Add a message to SESSION and print its id, tokens and importance."""
    m = store.add_message(session, role, text)
    if as_json:
        _echo_json(m.model_dump())
        return
    click.echo(f"{m.id}\ttokens={m.token_count}\timportance={m.importance_score}")


@cli.command()
@click.argument("session")
@json_option
@click.option("--limit", type=click.IntRange(min=0), default=None, help="At most this many.")
@with_store
def messages(store: MemoryStore, session: str, as_json: bool, limit: int | None) -> None:
    """Print a session's messages, oldest first."""
    rows = store.get_messages(session, limit=limit)
    if as_json:
        _echo_json([m.model_dump() for m in rows])
        return
    for m in rows:
        click.echo(f"#{m.id} {m.role} ({m.token_count} tokens, importance {m.importance_score}): {m.text}")


@cli.command()
@click.argument("session")
@click.argument("text")
@click.option("--importance", type=click.FloatRange(0, 1), default=0.8, show_default=True)
@click.option("--source", "source_message_id", type=int, default=None, help="Source message id.")
@json_option
@with_store
def pin(
    store: MemoryStore,
    session: str,
    text: str,
    importance: float,
    source_message_id: int | None,
    as_json: bool,
) -> None:
    """Pin a fact to SESSION; it is shown in every context of that session."""
    p = store.pin(session, text, source_message_id=source_message_id, importance=importance)
    if as_json:
        _echo_json(p.model_dump())
        return
    click.echo(f"{p.id}\ttokens={p.token_count}\timportance={p.importance_score}")


@cli.command()
@click.argument("session")
@click.option("--kind", type=click.Choice(PIN_KINDS), default=None, help="Only pins of this kind.")
@json_option
@with_store
def pins(store: MemoryStore, session: str, kind: str | None, as_json: bool) -> None:
    """List SESSION's pins, highest importance first: manual ones and those pinned
    automatically (auto) from what the user said."""
    rows = store.get_pins(session, kind=kind)
    if as_json:
        _echo_json([p.model_dump() for p in rows])
        return
    for p in rows:
        click.echo(_pin_line(p))


@cli.command()
@click.argument("pin_id", type=click.IntRange(min=0))
@json_option
@with_store
def unpin(store: MemoryStore, pin_id: int, as_json: bool) -> None:
    """Remove the pin PIN_ID (an auto pin stays removed unless the user says it again)."""
    store.unpin(pin_id)
    if as_json:
        _echo_json({"removed": pin_id})
    else:
        click.echo(f"Removed pin #{pin_id}.")


@cli.command("edit-pin")
@click.argument("pin_id", type=click.IntRange(min=0))
@click.option("--text", default=None, help="The pin's new text.")
@click.option("--importance", type=click.FloatRange(0, 1), default=None, help="Its new importance.")
@json_option
@with_store
def edit_pin(
    store: MemoryStore, pin_id: int, text: str | None, importance: float | None, as_json: bool
) -> None:
    """Change the text and/or importance of the pin PIN_ID; its kind stays."""
    p = store.update_pin(pin_id, content=text, importance=importance)
    if as_json:
        _echo_json(p.model_dump())
    else:
        click.echo(_pin_line(p))


def _pin_line(p: Pin) -> str:
    return f"#{p.id} {p.kind} (importance {p.importance_score}, {p.token_count} tokens): {p.content}"


@cli.command()
@click.argument("session")
@click.option("--max-tokens", type=click.IntRange(min=0), default=None, help="Token budget.")
@click.option(
    "--query", default=None, help="Also carry the older messages that best match this text."
)
@json_option
@with_store
def context(
    store: MemoryStore, session: str, max_tokens: int | None, query: str | None, as_json: bool
) -> None:
    """Print the context SESSION's next model call would get, and its token breakdown."""
    ctx = store.build_context(session, max_tokens=max_tokens, query=query)
    if as_json:
        data = ctx.model_dump()
        data["messages"] = ctx.to_messages()
        _echo_json(data)
        return
    _print_context(ctx)


@cli.command()
@click.argument("session")
@json_option
@with_store
def summarize(store: MemoryStore, session: str, as_json: bool) -> None:
    """Summarize every range of SESSION that is due (with the local model when it can)."""
    made = []
    while (summary := store.summarize(session)) is not None:
        made.append(summary)
    if as_json:
        _echo_json([s.model_dump() for s in made])
        return
    if not made:
        click.echo(f"Nothing to summarize: fewer than {store.config.summary_threshold} new messages.")
    _print_summaries(store.get_summaries(session) if made else [])


@cli.command()
@click.argument("session")
@json_option
@with_store
def summaries(store: MemoryStore, session: str, as_json: bool) -> None:
    """List SESSION's summaries with their message range, level and source."""
    rows = store.get_summaries(session)
    facts = {f.id: f for f in store.get_summary_facts(session)}
    if as_json:
        data = [
            {**s.model_dump(), "facts": facts[s.id].model_dump() if s.id in facts else None}
            for s in rows
        ]
        _echo_json(data)
        return
    _print_summaries(rows, facts)


def _print_summaries(rows: list, facts: dict | None = None) -> None:
    for s in rows:
        click.echo(
            f"#{s.id} level {s.level} messages {s.start_message_id}-{s.end_message_id} "
            f"({s.message_count}) source={s.source}: {s.text}"
        )
        kept = (facts or {}).get(s.id)
        if kept is not None and kept.text:
            for line in kept.text.splitlines():
                click.echo(f"    {line}")


@cli.group()
def checkpoint() -> None:
    """Show, take or clear a session's checkpoints (the state kept across compactions)."""


@checkpoint.command("show")
@click.argument("session")
@json_option
@with_store
def checkpoint_show(store: MemoryStore, session: str, as_json: bool) -> None:
    """Print SESSION's latest checkpoint."""
    _print_checkpoint(store.latest_checkpoint(session), as_json)


@checkpoint.command("take")
@click.argument("session")
@json_option
@with_store
def checkpoint_take(store: MemoryStore, session: str, as_json: bool) -> None:
    """Take a checkpoint of SESSION now (with the local model when it can) and print it."""
    _print_checkpoint(store.checkpoint(session), as_json)


@checkpoint.command("clear")
@click.argument("session")
@json_option
@with_store
def checkpoint_clear(store: MemoryStore, session: str, as_json: bool) -> None:
    """Delete SESSION's checkpoints."""
    deleted = store.clear_checkpoints(session)
    if as_json:
        _echo_json({"deleted": deleted})
        return
    click.echo(f"Deleted {deleted} checkpoints.")


def _print_checkpoint(taken: Checkpoint | None, as_json: bool) -> None:
    if as_json:
        _echo_json(None if taken is None else taken.model_dump())
        return
    if taken is None:
        click.echo("No checkpoint yet.")
        return
    click.echo(
        f"Checkpoint #{taken.id} of {taken.created_at} (source={taken.source}, "
        f"through message {taken.through_message_id}, {taken.token_count} tokens)"
    )
    for text, _tokens, _repeats in taken.lines:
        click.echo(text)


@cli.command()
@click.argument("session")
@json_option
@with_store
def goals(store: MemoryStore, session: str, as_json: bool) -> None:
    """List SESSION's goals with their status and, once ended, their archive."""
    rows = store.get_goals(session)
    if as_json:
        _echo_json([g.model_dump() for g in rows])
        return
    for g in rows:
        click.echo(f"#{g.id} {g.status}: {g.text}")
        if g.archive is not None:
            click.echo(f"    {archive_line(g.text, g.status, g.archive)[2:]}")


@cli.command()
@click.argument("session")
@json_option
@with_store
def usage(store: MemoryStore, session: str, as_json: bool) -> None:
    """Print how full SESSION's model window is with messages no summary covers."""
    u = store.context_usage(session)
    if as_json:
        _echo_json(u)
        return
    click.echo(
        f"{u['used_tokens']} of {u['context_window']} tokens ({u['share']:.0%}; "
        f"compaction at {u['threshold']:.0%}; window from {u['window_source']}), "
        f"{u['uncovered_messages']} messages not summarized"
    )


@cli.command()
@click.argument("query")
@click.option("--session", "session_id", default=None, help="Search this session only.")
@click.option(
    "--limit", type=click.IntRange(min=0), default=10, show_default=True, help="At most this many."
)
@json_option
@with_store
def search(
    store: MemoryStore, query: str, session_id: str | None, limit: int, as_json: bool
) -> None:
    """Search messages, summaries and pins for QUERY's words, best first.

    Any text is a query: its words are matched, never its operators. Prints
    one line per hit (kind and id, session, score, snippet with the matched
    words in [ ]).
    """
    hits = store.search(query, session_id=session_id, limit=limit)
    if as_json:
        _echo_json([h.model_dump() for h in hits])
        return
    for h in hits:
        snippet = " ".join(h.snippet.split())
        click.echo(f"{h.kind} #{h.id}\t{h.session_id}\t{h.score:.2f}\t{snippet}")


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
@click.option(
    "--session",
    "session_id",
    default=None,
    help="The session tools act on when a call names none (created if missing).",
)
@with_store
def mcp(store: MemoryStore, session_id: str | None) -> None:
    """Serve the memory to a desktop assistant over MCP (stdio).

    For Claude Desktop, LM Studio, VS Code and other MCP clients: they start
    this command and speak the protocol on its stdin and stdout; logs go to
    stderr. Needs the mcp extra: pip install 'localmem[mcp]'.
    """
    from .mcp_server import serve  # the SDK loads for this command only

    serve(store, session_id)


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


def _print_context(ctx: MemoryContext) -> None:
    for message in ctx.to_messages():
        click.secho(f"── {message['role']} ", bold=True)
        click.echo(message["content"])
    parts = ", ".join(f"{name} {tokens}" for name, tokens in ctx.breakdown.items())
    click.echo(f"\n{ctx.total_tokens} of {ctx.max_tokens} tokens ({parts})")
    if ctx.clipped:
        click.echo("A message was clipped to fit the budget.")


def main() -> None:
    cli(prog_name="localmem")
