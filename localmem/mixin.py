"""What the store's mixins may use of :class:`~localmem.MemoryStore`, declared once.

Each feature module (pins, summaries, recall, state, checkpoints, maintenance,
admin, transfer) holds a mixin the store inherits. They share the store's
connection, lock, transactions, caches, clock and configuration through
:class:`StoreBase`: a plain ``object`` at run time, and for type checkers the
declarations below. A mixin declares only what else it needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import contextlib
    import sqlite3
    from collections.abc import Callable, Sequence
    from datetime import datetime
    from pathlib import Path

    from .cache import SessionMemo, TTLCache
    from .context import MemoryContext
    from .db import Forgotten
    from .config import MemoryConfig
    from .tokens import Tokenizer

    T = TypeVar("T")

    class StoreBase:
        config: MemoryConfig
        tokenizer: Tokenizer
        path: Path | str
        _conn: sqlite3.Connection
        _key: str | None
        _memo: SessionMemo
        _cache: TTLCache[MemoryContext]
        _clock: Callable[[], datetime]

        def _write(
            self, session_id: str | None = None, *, single_statement: bool = False
        ) -> contextlib.AbstractContextManager[sqlite3.Connection]: ...
        def _locked(self) -> contextlib.AbstractContextManager[sqlite3.Connection]: ...
        def _forgetting(
            self, session_id: str | None = None
        ) -> contextlib.AbstractContextManager[Forgotten]: ...
        def _forget_session(self, gone: Forgotten, session_id: str) -> bool: ...
        def _forget_messages(
            self, gone: Forgotten, session_id: str, message_ids: Sequence[int] | None
        ) -> int: ...
        def _now(self) -> str: ...
        def _require_session(self, session_id: str) -> None: ...
        def _read_session(
            self, session_id: str, read: Callable[[sqlite3.Connection, str], T]
        ) -> T: ...

else:
    StoreBase = object
