"""The store's messages: validated, counted, scored and stored, their auto pins with them.

A message's tokens are counted and its importance scored once, when it is
written (the handle's tokenizer and scorer). A user message's facts that must
never be lost are found by ``pins`` and written in the same transaction. With
``auto_summarize``, each write tells the summaries' background worker which
session it wrote to (``localmem.summarizer.background``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from . import db
from .args import as_list, check_id, check_int, check_text, describe
from .errors import InvalidInput, NotFound, SessionNotFound
from .models import Message, NewMessage

if TYPE_CHECKING:  # what it is given (the handle, capabilities): for the type checker only
    from .handle import Handle
    from .pins import PlannedPin, Pins
    from .summaries import Summaries


class Messages:
    """Adding and reading messages; auto pins through ``pins``, the background
    worker through ``summaries``."""

    def __init__(self, handle: Handle, pins: Pins, summaries: Summaries) -> None:
        self._db = handle
        self._pins = pins
        self._summaries = summaries

    def row(self, session_id: str, item: object) -> db.MessageRow:
        """Validate one message, count its tokens and score it (no I/O)."""
        try:
            new = item if isinstance(item, NewMessage) else NewMessage.model_validate(item)
        except ValidationError as exc:
            raise InvalidInput(f"invalid message: {describe(exc)}") from None
        check_text("text", new.text)
        return (
            session_id,
            new.role,
            new.text,
            new.model_id,
            self._db.tokenizer.count(new.text),
            self._db.score(new.role, new.text),
        )

    def _pinned_row(self, row: db.MessageRow) -> db.MessageRow:
        """A message an auto pin is taken from scores at least that pin's importance:
        a stated fact ("My son is allergic to peanuts.") is not "ok"."""
        importance = max(row[5], self._db.config.auto_pin_importance)
        return (*row[:5], importance) if importance != row[5] else row

    def rows_and_pins(
        self, rows: list[db.MessageRow]
    ) -> tuple[list[db.MessageRow], list[list[PlannedPin]]]:
        """The rows, each scored at least its auto pins' importance, and those pins."""
        pins = [self._pins.auto_pins(row[1], row[2]) for row in rows]
        return [self._pinned_row(r) if p else r for r, p in zip(rows, pins)], pins

    def add_message(
        self, session_id: str, role: str, text: str, model_id: str | None = None
    ) -> Message:
        """Store one message (role: system, user, assistant or tool) and return it.

        Its tokens are counted and its importance scored now, once. A user
        message's facts that must never be lost are pinned with it, in the
        same transaction (``auto_pins``; ``localmem.pins``), and the message
        then scores at least ``auto_pin_importance``. Raises
        :class:`SessionNotFound` or :class:`InvalidInput`; nothing is written then.
        """
        check_id(session_id)
        row = self.row(session_id, {"role": role, "text": text, "model_id": model_id})
        pins = self._pins.auto_pins(row[1], row[2])
        if pins:
            row = self._pinned_row(row)
        # One statement (the fast path) unless a rule found a fact to pin with it.
        with self._db.write(session_id, single_statement=not pins, pins=bool(pins)) as conn:
            now = self._db.now()
            message = db.insert_message(conn, row, now)
            if message is None:
                raise SessionNotFound(session_id)
            if self._pins.add_auto_pins(conn, session_id, message.id, pins, now):
                self._db.cache.clear()  # a fact of the user's: every session's context
        background = self._summaries.background
        if background is not None:
            background.notify(session_id)
        return message

    def add_messages(
        self, session_id: str, messages: Iterable[Mapping[str, Any] | NewMessage]
    ) -> list[Message]:
        """Store several messages in one transaction, in order: all of them or none.

        Their auto pins (as for :meth:`add_message`) are written in the same transaction.
        """
        check_id(session_id)
        items = as_list(messages, "messages must be a list of {'role': ..., 'text': ...} items")
        rows, pins = self.rows_and_pins([self.row(session_id, item) for item in items])
        with self._db.write(session_id, pins=any(pins)) as conn:
            if not db.session_exists(conn, session_id):
                raise SessionNotFound(session_id)
            stored = self.insert(conn, session_id, rows, pins, self._db.now())
        self.written(session_id)
        return stored

    def insert(
        self,
        conn: sqlite3.Connection,
        session_id: str,
        rows: list[db.MessageRow],
        pins: list[list[PlannedPin]],
        now: str,
    ) -> list[Message]:
        """Insert ``rows`` (from :meth:`rows_and_pins`) and their auto pins, inside the
        caller's write transaction."""
        stored = db.insert_messages(conn, rows, now)
        user_changed = False
        for message, found in zip(stored, pins):
            user_changed |= self._pins.add_auto_pins(conn, session_id, message.id, found, now)
        if user_changed:
            self._db.cache.clear()  # a fact of the user's: every session's context
        return stored

    def written(self, session_id: str) -> None:
        """Tell the background worker (``auto_summarize``) the session was written to."""
        background = self._summaries.background
        if background is not None:
            background.notify(session_id)

    def get_message(self, message_id: int) -> Message:
        """One message by its id (a search hit's, a pin's source). Read-only; raises
        :class:`~localmem.errors.NotFound` when there is none with this id."""
        check_int("message_id", message_id)
        with self._db.locked() as conn:
            message = db.get_message(conn, message_id)
        if message is None:
            raise NotFound("message", message_id)
        return message

    def get_messages(
        self, session_id: str, after_id: int | None = None, limit: int | None = None
    ) -> list[Message]:
        """A session's messages, oldest first, optionally after an id and at most ``limit``."""
        check_id(session_id)
        after = 0 if after_id is None else check_int("after_id", after_id)
        count = -1 if limit is None else check_int("limit", limit)
        with self._db.locked():
            rows = db.messages_after(self._db.conn, session_id, after, count)
            if not rows:
                self._db.require_session(session_id)
        return rows
