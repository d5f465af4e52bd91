"""The store's sessions: created, read and listed, those that keep nothing among them.

A session is a conversation's record (an id, a model, a title); its rows are
the other capabilities'. ``create_session(..., persist=False)`` hands over to
``localmem.incognito``, which keeps such sessions in a private in-memory
store; ``list_sessions`` lists them beside the file's.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from . import db
from .args import check_id, check_text
from .errors import InvalidInput
from .models import Session

if TYPE_CHECKING:  # what it is given (the handle, capabilities): for the type checker only
    from .handle import Handle
    from .incognito import Incognito


class Sessions:
    """Creating, reading and listing sessions; those that keep nothing go to ``incognito``."""

    def __init__(self, handle: Handle, incognito: Incognito) -> None:
        self._db = handle
        self._incognito = incognito

    def create_session(
        self,
        model: str | None = None,
        title: str | None = None,
        session_id: str | None = None,
        *,
        persist: bool = True,
    ) -> Session:
        """Create a session; ``session_id`` defaults to a new random id.

        With ``persist=False`` the session keeps nothing: it lives in memory
        only, for as long as this store is open (or until it is deleted), and
        nothing of it is ever written to the file (``localmem.incognito``);
        every method taking its id works on it as on any other session.
        Raises :class:`InvalidInput` if the id is taken or an argument is not text.
        """
        for name, value in (("model", model), ("title", title), ("session_id", session_id)):
            if value is not None:
                check_text(name, value)
        if not isinstance(persist, bool):
            raise InvalidInput(f"persist must be True or False, not {type(persist).__name__}")
        if session_id == "":
            raise InvalidInput("session_id must not be empty")
        if not persist:
            return self._incognito.create(model, title, session_id)
        session_id = session_id if session_id is not None else uuid.uuid4().hex
        with self._db.write(session_id) as conn:
            if db.session_exists(conn, session_id) or self._incognito.keeps_nothing(session_id):
                raise InvalidInput(f"a session with id {session_id!r} already exists")
            return db.insert_session(conn, session_id, title, model, self._db.now())

    def get_session(self, session_id: str) -> Session:
        """The session; raises :class:`SessionNotFound` if there is none."""
        check_id(session_id)
        return self._db.session(session_id)

    def list_sessions(self) -> list[Session]:
        """Every session, most recently updated first; those that keep nothing
        (``persist=False``, this store's) among them."""
        with self._db.locked():
            sessions = db.list_sessions(self._db.conn)
        return self._incognito.with_kept_nowhere(sessions)
