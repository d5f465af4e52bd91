"""Sessions that keep nothing: ``create_session(..., persist=False)``.

Such a session lives in a second, private store the store owns
(``MemoryStore(":memory:")``, opened on first use, with the same
configuration and policies): its messages, pins, summaries and their facts,
goals, subtasks, tool runs, files, checkpoints, search index and vectors are
there, in RAM, for as long as the store is open. Nothing of it is written to
the file, and no fact learnt from it reaches the file's sessions or the user.
It is gone when it is deleted (``delete_session``) or the store closes.

One mechanism routes to it: :func:`routed`, applied once to
:class:`~localmem.store.MemoryStore`, lists every public method that takes a
``session_id`` (or the id of a message, pin or subtask); when a store opens its
private store, it wraps each of them (on the instance: a store that never
keeps nothing pays nothing) so that a call naming such a session (or one of
its rows) is made on the private store instead, and behaves the same. Rows there are numbered from :data:`FIRST_ID` up, a range
the file's ids never reach, so an id alone says which store holds its row.

What differs, on purpose:

- ``list_sessions()`` lists them among the file's, with ``Session.persist``
  False (so an app's list of open chats, and ``delete_session``, find them);
- calls over the whole file leave them out: ``search``, ``resummarize`` and
  ``embed_pending`` without a session, ``export_sessions()``, ``maintain``,
  ``prune``, ``session_overview``, ``find_session_ids``, ``stats``, ``backup``;
  ``export_sessions`` naming one raises :class:`InvalidInput` (an export is a
  copy meant to be kept);
- like a temporary chat, it neither teaches nor draws on the user's memory:
  its automatic pins stay in it (``user_auto_pins`` off), its contexts show
  neither the user's facts nor other sessions (``recall_scope="session"``),
  and ``pin(None, ...)`` (a fact of the user's) is the file's, as always;
- the file's learnt token ratios are copied in when the private store opens,
  and what it learns afterwards stays there.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from . import db
from .errors import InvalidInput
from .models import Session

if TYPE_CHECKING:  # what it is given (the handle, capabilities): for the type checker only
    from .forget import Forgetting
    from .handle import Handle
    from .localmodel import LocalModel
    from .recall import Recall
    from .transfer import Transfer

FIRST_ID = 2**52
"""The first row id of the private store: far above any file's (and within the
integers JSON and JavaScript hold exactly)."""
ROW_IDS = ("message_id", "pin_id", "subtask_id")
"""Parameters naming a row: routed when the row is the private store's."""
OWN = frozenset({"create_session", "delete_session", "list_sessions", "export_sessions"})
"""Public methods that handle such sessions themselves (below and in ``store``)."""

C = TypeVar("C", bound=type)


class Incognito:
    """The private store of a door (``door``, the :class:`~localmem.MemoryStore` whose
    calls it routes), opened on first use with the door's configuration and
    policies (the summarizer from ``model``, the embedder from ``recall``); and the
    calls that see both stores: deleting, exporting, listing."""

    def __init__(
        self,
        handle: Handle,
        door: Any,
        forgetting: Forgetting,
        transfer: Transfer,
        model: LocalModel,
        recall: Recall,
    ) -> None:
        self._db = handle
        self._door = door
        self._forget = forgetting
        self._transfer = transfer
        self._model = model
        self._recall = recall
        self._inner: Any = None
        """The private in-memory store, once a session that keeps nothing was created."""
        self._owned: set[str] = set()
        """The ids of the sessions the private store holds for the door."""

    def keeps_nothing(self, session_id: object) -> bool:
        """True when ``session_id`` names a session that keeps nothing."""
        return self._inner is not None and isinstance(session_id, str) and session_id in self._owned

    def create(self, model: str | None, title: str | None, session_id: str | None) -> Session:
        """``create_session(..., persist=False)``, its arguments checked."""
        with self._db.lock:
            if session_id is not None:
                with self._db.locked() as conn:
                    taken = db.session_exists(conn, session_id)
                if taken or self.keeps_nothing(session_id):
                    raise InvalidInput(f"a session with id {session_id!r} already exists")
            inner = self._inner or self._open()
            session = inner.create_session(model, title, session_id)
            self._owned.add(session.id)
        return kept_nowhere(session)

    def _open(self) -> Any:
        """Open the private store, numbering its rows from :data:`FIRST_ID`."""
        # Each of its sessions to itself: no fact of the user's learnt from one,
        # no recall drawn from another (it holds no session of the file's).
        handle = self._db
        config = handle.config.model_copy(update={"user_auto_pins": False, "recall_scope": "session"})
        door = self._door
        inner = type(door)(
            db.MEMORY,
            config,
            tokenizer=handle.tokenizer,
            scorer=handle.score,
            clock=handle.clock,
            summarizer=self._model.summarizer(),  # shared: closing it only drops connections
            embedder=self._recall.embedder,
        )
        with handle.locked() as conn:
            ratios = db.token_stats(conn)
        with inner._db.write() as conn:
            db.reserve_ids(conn, FIRST_ID)
            db.put_token_stats(conn, ratios)
        # From now on the door's calls naming a session go through the router;
        # a store that never keeps nothing pays nothing for it.
        for name, (key, position) in door._routes.items():
            setattr(door, name, _route(name, getattr(door, name), inner, self._owned, key, position))
        self._inner = inner
        return inner

    def with_kept_nowhere(self, sessions: list[Session]) -> list[Session]:
        """The file's sessions and those that keep nothing, most recently updated first."""
        inner = self._inner
        if inner is None or not self._owned:
            return sessions
        extra = [kept_nowhere(inner.get_session(sid)) for sid in sorted(self._owned)]
        merged = sorted(sessions + extra, key=lambda s: s.id)
        return sorted(merged, key=lambda s: s.updated_at, reverse=True)

    def delete_session(self, session_id: str) -> None:
        """``Forgetting.delete_session``, or the private store's for a session that keeps nothing."""
        inner = self._inner
        if inner is not None and self.keeps_nothing(session_id):
            inner.delete_session(session_id)
            self._owned.discard(session_id)
            return
        self._forget.delete_session(session_id)


    def export_sessions(self, session_ids: Sequence[str] | None = None) -> Iterator[str]:
        """``Transfer.export_sessions``; :class:`InvalidInput` for a session that keeps nothing."""
        if session_ids is not None and self._inner is not None and not isinstance(session_ids, str):
            try:
                session_ids = list(session_ids)
            except TypeError:
                pass  # the export says what is wrong with it
            else:
                for sid in session_ids:
                    if self.keeps_nothing(sid):
                        raise InvalidInput(
                            f"session {sid!r} keeps nothing (persist=False): it cannot be exported"
                        )
        return self._transfer.export_sessions(session_ids)


    def close(self) -> None:
        inner, self._inner = self._inner, None
        if inner is not None:
            door = self._door
            for name in door._routes:
                vars(door).pop(name, None)
            inner._model.let_go()  # the summarizer is shared with the door, which closes it
            inner.close()


def kept_nowhere(result: Any) -> Any:
    """A record of the private store as the store returns it (a session says it keeps nothing)."""
    if isinstance(result, Session):
        return result.model_copy(update={"persist": False})
    return result


def routed(cls: C) -> C:
    """Find every public method of ``cls`` that names a session or a row of one
    (``cls._routes``); a store routes them once it opens its private store."""
    routes: dict[str, tuple[str, int | None]] = {}
    for name, func in inspect.getmembers(cls, inspect.isfunction):
        if name.startswith("_") or name in OWN:
            continue
        code = func.__code__
        params = code.co_varnames[1 : code.co_argcount + code.co_kwonlyargcount]
        key = next((p for p in ("session_id", *ROW_IDS) if p in params), None)
        if key is not None:
            index = params.index(key)
            routes[name] = (key, index if index < code.co_argcount - 1 else None)
    cls._routes = routes
    return cls


def _route(
    name: str,
    own: Callable[..., Any],
    inner: Any,
    owned: set[str],
    key: str,
    position: int | None,
) -> Callable[..., Any]:
    """``own`` (a store's bound method), made to call the private store's
    instead when its argument ``key`` names a session (one of ``owned``) or a
    row of ``inner``."""
    other = getattr(inner, name)
    by_row = key != "session_id"

    @functools.wraps(own)
    def method(*args: Any, **kwargs: Any) -> Any:
        value = args[position] if position is not None and len(args) > position else kwargs.get(key)
        if (
            type(value) is int and value >= FIRST_ID
            if by_row
            else isinstance(value, str) and value in owned
        ):
            return kept_nowhere(other(*args, **kwargs))
        return own(*args, **kwargs)

    return method
