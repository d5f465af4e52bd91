"""The store's items: an agent framework's own records, each beside the message
carrying its text (the OpenAI Agents SDK and LangChain adapters keep theirs here).

:class:`Items` holds ``add_items``, ``get_items`` and ``pop_item``; the SQL is
``localmem.db.messages``'.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from . import db
from .args import as_list, check_id, check_int, check_kind, check_text
from .errors import InvalidInput, SessionNotFound
from .models import Item, Message, NewMessage

if TYPE_CHECKING:  # what it is given (the handle, capabilities): for the type checker only
    from .forget import Forgetting
    from .handle import Handle
    from .messages import Messages


class Items:
    """Items: written as ``messages`` writes its rows (auto pins, the background
    worker told), each beside its message; popped as ``forgetting`` forgets."""

    def __init__(self, handle: Handle, messages: Messages, forgetting: Forgetting) -> None:
        self._db = handle
        self._messages = messages
        self._forget = forgetting

    def add_items(
        self,
        session_id: str,
        kind: str,
        items: Iterable[tuple[Mapping[str, Any] | NewMessage, str]],
        *,
        create_session: bool = False,
    ) -> list[Message]:
        """Store an agent framework's records, each beside the message carrying its text.

        Each entry is ``(message, data)``: the message (``{"role": ..., "text":
        ...}``) is stored, counted and scored like any other; ``data``, the
        framework's record as JSON text, is kept verbatim as an :class:`Item`
        of ``kind``. One transaction, in order: all of them or none (their
        auto pins, as for :meth:`add_message`, included). A missing
        session is created (no model, no title) when ``create_session`` is
        true, else :class:`SessionNotFound` is raised. Raises
        :class:`InvalidInput` before anything is written.
        """
        check_id(session_id)
        check_kind(kind)
        entries = as_list(items, "items must be a list of (message, data) pairs")
        rows: list[db.MessageRow] = []
        data: list[str] = []
        for entry in entries:
            if not isinstance(entry, tuple) or len(entry) != 2:
                raise InvalidInput("items must be a list of (message, data) pairs")
            rows.append(self._messages.row(session_id, entry[0]))
            data.append(check_text("item data", entry[1]))
        rows, pins = self._messages.rows_and_pins(rows)
        with self._db.write(session_id) as conn:
            now = self._db.now()
            if not db.session_exists(conn, session_id):
                if not create_session:
                    raise SessionNotFound(session_id)
                db.insert_session(conn, session_id, None, None, now)
            stored = self._messages.insert(conn, session_id, rows, pins, now)
            db.insert_items(conn, session_id, kind, stored, data)
        if stored:
            self._messages.written(session_id)
        return stored

    def get_items(
        self,
        session_id: str,
        kind: str,
        *,
        newest: int | None = None,
        after_id: int | None = None,
    ) -> list[Item]:
        """A session's items of ``kind``, oldest first.

        All of them, or those whose message id is above ``after_id``; with
        ``newest``, only the newest that many. Read-only. A session that does
        not exist has no items: the result is empty, not an error.
        """
        check_id(session_id)
        check_kind(kind)
        after = 0 if after_id is None else check_int("after_id", after_id)
        with self._db.locked() as conn:
            if newest is None:
                return db.items_after(conn, session_id, kind, after)
            count = check_int("newest", newest)
            return db.newest_items(conn, session_id, kind, after, count)[::-1]

    def pop_item(self, session_id: str, kind: str) -> Item | None:
        """Delete the session's newest item of ``kind`` with its message; return it.

        None when the session has no such item (or does not exist). One
        transaction. The message is forgotten as :meth:`delete_message`
        forgets one: what quoted it is gone or rewritten.
        """
        check_id(session_id)
        check_kind(kind)
        with self._forget.forgetting(session_id) as gone:
            newest = db.newest_items(gone.conn, session_id, kind, 0, 1)
            if not newest:
                return None
            self._forget.forget_messages(gone, session_id, [newest[0].message_id])
            return newest[0]
