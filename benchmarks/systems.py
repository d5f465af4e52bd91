"""The systems under test, behind one small adapter interface, and the table of them.

Every adapter stores ``(session id, role, text)`` messages in its own file and
offers the same three operations the scenarios time:

- ``add_one(session_id, item)``: one message, one call (one transaction);
- ``add_batch(session_id, items)``: a batch in one call (one transaction);
- ``last8(session_id)``: the read an assistant does before each model call.

``native(session_id, role, text)`` turns a message into the form the
system's API takes (a tuple, a dict, a LangChain message); it runs before
timing starts, so a peer is never charged for building its own objects.
``durability()`` reads the journal mode and ``synchronous`` level from the
system's real connection, so "equal durability" is checked, not assumed.

The peers are imported lazily: a missing package makes ``open_system`` return
a status of "not installed" and the suite runs on without it.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

SYNCHRONOUS_NAMES = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}
LAST_N = 8
CREATED_AT = "2026-01-01T00:00:00.000Z"  # raw rows carry a fixed timestamp: the limit does no work


class NotInstalled(Exception):
    """A peer's package is missing."""


class System(Protocol):
    def prepare(self, session_ids: Iterable[str]) -> None: ...
    def native(self, session_id: str, role: str, text: str) -> Any: ...
    def add_one(self, session_id: str, item: Any) -> None: ...
    def add_batch(self, session_id: str, items: Sequence[Any]) -> None: ...
    def last8(self, session_id: str) -> Any: ...
    def durability(self) -> dict[str, str]: ...
    def close(self) -> None: ...


def _pragmas(execute: Callable[[str], Any]) -> dict[str, str]:
    sync = execute("PRAGMA synchronous")
    return {
        "journal_mode": str(execute("PRAGMA journal_mode")).upper(),
        "synchronous": SYNCHRONOUS_NAMES.get(sync, str(sync)),
    }


# --- raw sqlite3: the limit -----------------------------------------------------

RAW_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS messages (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL,
        role TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS messages_session_id ON messages (session_id, id)",
)
RAW_INSERT_SQL = "INSERT INTO messages (session_id, role, text, created_at) VALUES (?, ?, ?, ?)"
RAW_LAST_SQL = (
    "SELECT id, role, text, created_at FROM messages WHERE session_id = ? ORDER BY id DESC LIMIT ?"
)


class RawSQLite:
    """The same table and index as localmem's messages, with nothing around them."""

    def __init__(self, path: Path, synchronous: str) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute(f"PRAGMA synchronous = {synchronous}")
        for statement in RAW_SCHEMA:
            self.conn.execute(statement)

    def prepare(self, session_ids: Iterable[str]) -> None:
        pass  # no sessions table: a message row is all the limit writes

    def native(self, session_id: str, role: str, text: str) -> tuple:
        return (session_id, role, text, CREATED_AT)

    def add_one(self, session_id: str, item: tuple) -> None:
        execute = self.conn.execute
        execute("BEGIN")
        execute(RAW_INSERT_SQL, item)
        execute("COMMIT")

    def add_batch(self, session_id: str, items: Sequence[tuple]) -> None:
        self.conn.execute("BEGIN")
        self.conn.executemany(RAW_INSERT_SQL, items)
        self.conn.execute("COMMIT")

    def last8(self, session_id: str) -> list:
        return self.conn.execute(RAW_LAST_SQL, (session_id, LAST_N)).fetchall()

    def durability(self) -> dict[str, str]:
        return _pragmas(lambda sql: self.conn.execute(sql).fetchone()[0])

    def close(self) -> None:
        self.conn.close()


# --- localmem ---------------------------------------------------------------------


class LocalMem:
    """localmem's public API; ``config`` and ``policies`` (tokenizer, scorer) as
    ``MemoryStore`` takes them."""

    def __init__(self, path: Path, config: dict[str, Any], **policies: Any) -> None:
        from localmem import MemoryStore

        self.path = path
        self.store = MemoryStore(path, config=config, **policies)

    def prepare(self, session_ids: Iterable[str]) -> None:
        for sid in session_ids:
            self.store.create_session(session_id=sid)

    def native(self, session_id: str, role: str, text: str) -> dict[str, str]:
        return {"role": role, "text": text}

    def add_one(self, session_id: str, item: dict[str, str]) -> None:
        self.store.add_message(session_id, item["role"], item["text"])

    def add_batch(self, session_id: str, items: Sequence[dict[str, str]]) -> None:
        self.store.add_messages(session_id, items)

    def last8(self, session_id: str) -> Any:
        return self.store.build_context(session_id)

    def durability(self) -> dict[str, str]:
        handle = getattr(self.store, "_db", None)  # private, read only to verify the pragma
        conn = getattr(handle, "conn", None)
        if conn is None:
            return {"journal_mode": "?", "synchronous": self.store.config.synchronous}
        return _pragmas(lambda sql: conn.execute(sql).fetchone()[0])

    def close(self) -> None:
        self.store.close()


# --- openai-agents SQLiteSession ----------------------------------------------------


class AgentsSession:
    """``agents.SQLiteSession``, one object per conversation, on one shared file.

    Its API is async (each call hops to a worker thread with
    ``asyncio.to_thread``); the adapter drives it from one persistent event
    loop. ``loop_overhead_us`` measures what entering that loop costs per call.
    """

    def __init__(self, path: Path) -> None:
        try:
            from agents import SQLiteSession
        except ImportError as exc:
            raise NotInstalled("openai-agents") from exc
        self._cls = SQLiteSession
        self.path = path
        self.loop = asyncio.new_event_loop()
        self.sessions: dict[str, Any] = {}

    def prepare(self, session_ids: Iterable[str]) -> None:
        for sid in session_ids:
            self.sessions[sid] = self._cls(sid, self.path)

    def native(self, session_id: str, role: str, text: str) -> dict[str, str]:
        return {"role": role, "content": text}

    def add_one(self, session_id: str, item: dict[str, str]) -> None:
        self.loop.run_until_complete(self.sessions[session_id].add_items([item]))

    def add_batch(self, session_id: str, items: Sequence[dict[str, str]]) -> None:
        self.loop.run_until_complete(self.sessions[session_id].add_items(list(items)))

    def last8(self, session_id: str) -> list:
        return self.loop.run_until_complete(self.sessions[session_id].get_items(limit=LAST_N))

    def loop_overhead_us(self, n: int = 2000) -> float:
        """Median cost of ``run_until_complete`` on a coroutine that does nothing."""
        from timer import Job, Latency, each

        async def nothing() -> None:
            return None

        job = Job(lambda: self.loop.run_until_complete(nothing()), [[()] * n])
        return Latency.of([each(job, job.rounds[0])]).p50_us

    def durability(self) -> dict[str, str]:
        session = next(iter(self.sessions.values()), None) or self._cls("probe", self.path)
        # A connection made exactly as the session makes its per-thread ones.
        conn = session._get_connection()
        return _pragmas(lambda sql: conn.execute(sql).fetchone()[0])

    def close(self) -> None:
        for session in self.sessions.values():
            session.close()
        self.loop.run_until_complete(self.loop.shutdown_default_executor())
        self.loop.close()


# --- langchain-community SQLChatMessageHistory ----------------------------------------


class LangChainHistory:
    """``SQLChatMessageHistory``, one object per conversation, sharing one engine.

    ``connection="sqlite:///path"`` would build one SQLAlchemy engine per
    history object; sharing one engine built from the same URL is the same
    configuration with fewer connections, the kinder setup for the peer.
    It has no "last N" read: ``.messages`` returns the whole session, and its
    table has no index on ``session_id``.
    """

    def __init__(self, path: Path) -> None:
        try:
            from langchain_community.chat_message_histories import SQLChatMessageHistory
            from langchain_core.messages import AIMessage, HumanMessage
            from sqlalchemy import create_engine
        except ImportError as exc:
            raise NotInstalled("langchain-community / langchain-core") from exc
        self._cls = SQLChatMessageHistory
        self._kinds = {"user": HumanMessage, "assistant": AIMessage}
        self.engine = create_engine(f"sqlite:///{path}")
        self.histories: dict[str, Any] = {}

    def prepare(self, session_ids: Iterable[str]) -> None:
        for sid in session_ids:
            self.histories[sid] = self._cls(session_id=sid, connection=self.engine)

    def native(self, session_id: str, role: str, text: str) -> Any:
        return self._kinds[role](content=text)

    def add_one(self, session_id: str, item: Any) -> None:
        self.histories[session_id].add_message(item)

    def add_batch(self, session_id: str, items: Sequence[Any]) -> None:
        self.histories[session_id].add_messages(items)

    def last8(self, session_id: str) -> list:
        return self.histories[session_id].messages  # all of them: the API has no limit

    def durability(self) -> dict[str, str]:
        with self.engine.connect() as conn:
            return _pragmas(lambda sql: conn.exec_driver_sql(sql).scalar())

    def close(self) -> None:
        self.engine.dispose()


# --- the table of systems ----------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """One system under test. ``family`` groups durability variants of one library."""

    key: str
    label: str
    family: str
    open: Callable[[Path], System]
    read_op: str | None = None
    """What ``last8`` does, for systems whose reads are measured (one per family)."""


SYSTEMS: tuple[Spec, ...] = (
    Spec(
        "raw",
        "raw sqlite3",
        "raw",
        lambda p: RawSQLite(p, "NORMAL"),
        read_op="SELECT ... WHERE session_id=? ORDER BY id DESC LIMIT 8",
    ),
    Spec("raw-full", "raw sqlite3", "raw", lambda p: RawSQLite(p, "FULL")),
    Spec(
        "localmem",
        "localmem (default)",
        "localmem",
        lambda p: LocalMem(p, {}),
        read_op="build_context (see cold/warm)",
    ),
    Spec(
        "localmem-full", "localmem FULL", "localmem", lambda p: LocalMem(p, {"synchronous": "FULL"})
    ),
    Spec(
        "agents",
        "openai-agents SQLiteSession",
        "agents",
        AgentsSession,
        read_op="await get_items(limit=8)",
    ),
    Spec(
        "langchain",
        "langchain SQLChatMessageHistory",
        "langchain",
        LangChainHistory,
        read_op=".messages (whole session, ~100 rows; no session index)",
    ),
)
PEERS = ("agents", "langchain")


@dataclass
class Opened:
    spec: Spec
    system: System | None
    status: str  # "ok", "not installed: ...", or "closed" once done with


_missing: dict[str, str] = {}  # family -> status, so a failed import is not retried


def open_system(spec: Spec, path: Path) -> Opened:
    """Open one system on a fresh file; a missing peer is a status, not a crash.

    A failed import is remembered: importing again could find a half-initialised
    module in ``sys.modules`` and "succeed" (SQLAlchemy's asyncio shim does that
    without greenlet).
    """
    if spec.family in _missing:
        return Opened(spec, None, _missing[spec.family])
    try:
        return Opened(spec, spec.open(path), "ok")
    except NotInstalled as exc:
        cause = f" ({exc.__cause__})" if exc.__cause__ else ""
        _missing[spec.family] = f"not installed: {exc}{cause}"
        return Opened(spec, None, _missing[spec.family])
