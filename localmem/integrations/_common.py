"""What both framework adapters share: opening the store and writing items.

No framework is imported here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..config import MemoryConfig
from ..errors import Closed, InvalidInput
from ..store import MemoryStore

if TYPE_CHECKING:  # the adapters make the door (``AsyncMemoryStore.of``); here it is a type
    from ..aio import AsyncMemoryStore


def open_store(
    db_path: str | Path | None,
    store: MemoryStore | None,
    config: MemoryConfig | Mapping[str, Any] | None,
    *,
    default_path: str | Path | None,
) -> tuple[MemoryStore, bool]:
    """The store to use and whether the adapter owns it (and so closes it).

    An adapter is given a ``store`` (shared, left open) or a ``db_path`` and
    an optional ``config`` (its own store); giving both is an error.
    """
    if store is not None:
        if not isinstance(store, MemoryStore):
            raise InvalidInput(f"store must be a MemoryStore, not {type(store).__name__}")
        if config is not None or (db_path is not None and str(db_path) != str(default_path)):
            raise InvalidInput("give either store or db_path/config, not both")
        return store, False
    return MemoryStore(db_path, config), True


def check_session_id(session_id: object) -> str:
    if not isinstance(session_id, str) or not session_id:
        raise InvalidInput(f"session_id must be a non-empty string, not {session_id!r}")
    return session_id


def to_json(record: Any, what: str) -> str:
    """A framework record as JSON text: readable UTF-8 when it can be, else ASCII escapes.

    A record holding a lone surrogate cannot be stored as UTF-8; its escaped
    form (``\\ud800``) still reads back to the same record.
    """
    try:
        text = json.dumps(record, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidInput(f"{what} is not JSON-serializable: {exc}") from None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(record)
    return text


def clean_text(text: str) -> str:
    """Text fit for a message: a lone surrogate (not valid UTF-8) becomes U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


T = TypeVar("T")


class StoreOwner:
    """Closing, ``with``, the closed check and the work of async methods, shared by
    the adapters.

    Subclasses set ``session_id``, ``store``, ``_owns_store`` and ``_closed``, and
    ``_door = AsyncMemoryStore.of(store)``: their async methods run their work
    through it (:meth:`_off_loop`), in the store's worker thread.
    """

    session_id: str
    store: MemoryStore
    _owns_store: bool
    _closed: bool
    _door: AsyncMemoryStore

    async def _off_loop(self, func: Callable[..., T], *args: Any) -> T:
        """``func(*args)`` in the worker thread of this adapter's async store: the
        event loop goes on meanwhile, and calls run in the order they were made."""
        return await self._door.run(func, *args)

    def close(self) -> None:
        """Close this adapter (and the store, if it opened it). Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._door.shutdown()
        if self._owns_store:
            self.store.close()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise Closed(f"{type(self).__name__} {self.session_id!r} is closed")
