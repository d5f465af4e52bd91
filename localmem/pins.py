"""The store's pins: facts shown in every context of their session, by importance.

``PinsMixin`` gives :class:`~localmem.store.MemoryStore` its pin methods. A
pin is ``manual`` (the host app or the user pinned it) or ``auto``: a fact
the user stated that must never be lost, found by the phrase rules of
``localmem.autopins`` in each new user message (``MemoryConfig.auto_pins``)
and by the local model when it summarizes (``localmem.summaries``). Auto pins
have a lower default importance (``auto_pin_importance``, below manual pins'
``DEFAULT_PIN_IMPORTANCE``), so the context shows manual pins first, and are
de-duplicated per session by ``content_key`` (``autopins.pin_key``): the
same fact said twice is pinned once, and a fact a manual pin already holds
is not pinned again. The rules read only new messages, so an auto pin the
user removes stays removed unless they say it again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from . import db
from .args import check_id, check_importance, check_int, check_text
from .autopins import pin_facts, pin_key
from .config import DEFAULT_PIN_IMPORTANCE
from .errors import InvalidInput, NotFound, SessionNotFound
from .mixin import StoreBase
from .models import PIN_KINDS, Pin


class PinsMixin(StoreBase):
    """Pin methods of the store; they rely on the store's lock, transactions and clock."""

    def pin(
        self,
        session_id: str,
        content: str,
        source_message_id: int | None = None,
        importance: float = DEFAULT_PIN_IMPORTANCE,
        kind: str = "manual",
    ) -> Pin:
        """Pin a fact to a session: it is shown in every context, by importance.

        ``importance`` is between 0 and 1; ``kind`` is ``manual`` or ``auto``;
        ``source_message_id``, if given, must be a message of the same session.
        Pins of one fact (the same ``autopins.pin_key``) are not kept twice
        when one of them is automatic: an ``auto`` pin whose fact the session
        already has a pin for is not added (that pin is returned), and a
        ``manual`` pin replaces the auto pin that held its fact. Raises
        :class:`SessionNotFound` or :class:`InvalidInput`; nothing is written then.
        """
        check_id(session_id)
        content = self._pin_content(content)
        importance = check_importance(importance)
        if kind not in PIN_KINDS:
            raise InvalidInput(f"kind must be one of {', '.join(PIN_KINDS)}, not {kind!r}")
        if source_message_id is not None:
            check_int("source_message_id", source_message_id)
        tokens = self.tokenizer.count(content)
        with self._write(session_id) as conn:
            now = self._now()
            if not db.touch_session(conn, session_id, now):
                raise SessionNotFound(session_id)
            if source_message_id is not None:
                owner = db.message_session(conn, source_message_id)
                if owner != session_id:
                    raise InvalidInput(
                        f"message {source_message_id} is not a message of session {session_id!r}"
                    )
            key = pin_key(content)
            if kind == "auto":
                same = self._same_fact(conn, session_id, key)
                if same is not None:
                    return same
            else:
                db.delete_auto_pins(conn, session_id, key)
            return db.insert_pin(
                conn, session_id, content, key, source_message_id, importance, kind, tokens, now
            )

    def get_pins(self, session_id: str, kind: str | None = None) -> list[Pin]:
        """A session's pins (only those of ``kind``, ``manual`` or ``auto``, if given),
        highest importance first, newest first on ties. Read-only.

        Raises :class:`SessionNotFound` or :class:`InvalidInput`.
        """
        check_id(session_id)
        if kind is not None and kind not in PIN_KINDS:
            raise InvalidInput(f"kind must be one of {', '.join(PIN_KINDS)}, not {kind!r}")
        with self._locked() as conn:
            self._require_session(session_id)
            if kind is None:
                return db.top_pins(conn, session_id, -1)
            return db.kind_pins(conn, session_id, kind)

    def update_pin(
        self, pin_id: int, *, content: str | None = None, importance: float | None = None
    ) -> Pin:
        """Edit a pin's content and/or importance and return it; its kind stays.

        New content is counted again and re-keyed, so an auto pin that was
        edited no longer matches the fact as first stated; a manual pin's new
        content replaces an auto pin that held it (as :meth:`pin` does). One
        transaction. Raises :class:`NotFound` for an unknown id,
        :class:`InvalidInput` for no change asked, empty content, an importance
        outside 0..1, or an auto pin's new content that another pin of the
        session already holds; nothing is written then.
        """
        check_int("pin_id", pin_id)
        if content is None and importance is None:
            raise InvalidInput("nothing to change: give content, importance or both")
        if content is not None:
            content = self._pin_content(content)
        if importance is not None:
            importance = check_importance(importance)
        tokens = None if content is None else self.tokenizer.count(content)
        with self._locked() as conn:
            session_id = db.pin_session(conn, pin_id)  # a pin never changes session
            if session_id is None:
                raise NotFound("pin", pin_id)
            with self._write(session_id):
                old = db.get_pin(conn, pin_id)  # inside the transaction: what we rewrite
                if old is None:
                    raise NotFound("pin", pin_id)
                if content is not None:
                    key = pin_key(content)
                    if old.kind == "manual":
                        db.delete_auto_pins(conn, session_id, key)
                    else:
                        same = self._same_fact(conn, session_id, key, besides=pin_id)
                        if same is not None:
                            raise InvalidInput(f"pin {same.id} already says this")
                db.touch_session(conn, session_id, self._now())
                new_content = old.content if content is None else content
                return db.update_pin(
                    conn,
                    old,
                    new_content,
                    pin_key(new_content),
                    old.importance_score if importance is None else importance,
                    old.token_count if tokens is None else tokens,
                )

    def unpin(self, pin_id: int) -> None:
        """Remove a pin; raises :class:`NotFound` if there is none with this id.

        An auto pin removed stays removed: the rules only read new messages.
        """
        check_int("pin_id", pin_id)
        with self._locked():
            session_id = db.pin_session(self._conn, pin_id)
            if session_id is None:
                raise NotFound("pin", pin_id)
            with self._write(session_id):
                db.delete_pin(self._conn, pin_id)

    @staticmethod
    def _same_fact(
        conn: sqlite3.Connection, session_id: str, key: str, besides: int | None = None
    ) -> Pin | None:
        """The session's pin (manual first) holding the fact ``key``, other than ``besides``."""
        for kind in PIN_KINDS:
            same = db.keyed_pin(conn, session_id, key, kind, besides)
            if same is not None:
                return same
        return None

    @staticmethod
    def _pin_content(content: object) -> str:
        text = check_text("content", content)
        if not text.strip():
            raise InvalidInput("a pin's content must not be empty")
        return text

    def _auto_pins(self, role: str, text: str) -> list[db.AutoPin]:
        """The auto pins one message would add (the rules; no I/O), counted and keyed."""
        if not self.config.auto_pins or role != "user":
            return []
        return [(fact, pin_key(fact), self.tokenizer.count(fact)) for fact in pin_facts(role, text)]

    def _add_auto_pins(
        self,
        conn: sqlite3.Connection,
        session_id: str,
        source_message_id: int | None,
        pins: Sequence[db.AutoPin],
        now: str,
    ) -> int:
        """Write auto pins inside the caller's transaction; return how many were new."""
        if not pins:
            return 0
        return db.insert_auto_pins(
            conn, session_id, source_message_id, pins, self.config.auto_pin_importance, now
        )
