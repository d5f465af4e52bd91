"""The store's pins: facts shown in every context of their session, by importance.

Scopes: a pin belongs to a session, or to the user (``session_id`` None),
and then every session's context shows it, under the same budget and order.
Automatic pins of lasting personal facts (health, names and relations,
stable preferences and constraints: ``autopins.is_lasting``) are the user's
by default (``MemoryConfig.user_auto_pins``); session-bound ones (this
trip's dates, "remember that ...") stay in their session. A fact that
updates an earlier one ("my new wifi password is ...", "we moved to Leeds",
"I no longer take lisinopril": ``localmem.updates``) supersedes it: the old
pin is kept in history with when it stopped holding, only the current one
is in contexts.

:class:`Pins` holds the store's pin methods. A
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
from typing import TYPE_CHECKING, NamedTuple

from . import db
from .args import check_id, check_importance, check_int, check_text
from .autopins import is_lasting, message_words, pin_facts, pin_key
from .config import DEFAULT_PIN_IMPORTANCE
from .corrections import CUE_WORDS as CORRECTION_WORDS
from .corrections import Correction, corrected, corrects, find_correction
from .errors import FactRemoved, InvalidInput, NotFound, SessionNotFound
from .models import PIN_KINDS, Pin
from .reports import MemoryReport, RememberedFact, SessionMemory
from .staleness import ended_at, still_holds
from .updates import Update, superseded, updates_in

if TYPE_CHECKING:  # what it is given (the handle, capabilities): for the type checker only
    from .forget import Forgetting
    from .handle import Handle

SCOPES = ("session", "user")
PINNED_BY = ("user", "assistant")
"""Whose word a pin is asked on: the user's own act, or the assistant's (:meth:`Pins.pin`)."""
STALE_REACH = 64
"""How many of a session's messages, up to the newest summarized, an auto pin learnt from
them is read against for a later change (:meth:`Pins.end_stale`): the cost of a summary
stays bounded however long the session."""


class PlannedPin(NamedTuple):
    """An automatic pin to write: its content, key and tokens, whether it is a lasting
    personal fact (the user's), and the earlier facts it updates, if it updates any.
    A ``correction`` pins nothing by itself: it rewrites the pins of the user's previous
    message that it corrects (its content is the correcting sentence)."""

    content: str
    key: str
    tokens: int
    lasting: bool = False
    update: Update | None = None
    correction: Correction | None = None


class Pins:
    """Pins: written, edited, read and reported; removing one is a forget (``forgetting``)."""

    def __init__(self, handle: Handle, forgetting: Forgetting) -> None:
        self._db = handle
        self._forget = forgetting

    def pin(
        self,
        session_id: str | None,
        content: str,
        source_message_id: int | None = None,
        importance: float = DEFAULT_PIN_IMPORTANCE,
        kind: str = "manual",
        *,
        scope: str | None = None,
        by: str = "user",
    ) -> Pin:
        """Pin a fact: to a session (shown in its every context), or to the user
        (``session_id`` None, or ``scope="user"``: shown in every session's context),
        by importance.

        ``importance`` is between 0 and 1; ``kind`` is ``manual`` or ``auto``;
        ``source_message_id``, if given, must be a message of ``session_id``
        (with ``scope="user"``, the session the user said it in). Pins of one
        fact (the same ``autopins.pin_key``) are not kept twice when one of
        them is automatic: an ``auto`` pin whose fact the session already
        sees (its own pins and the user's) is not added (that pin is
        returned), and a ``manual`` pin replaces the auto pin of its scope
        that held its fact. A fact the user removed (``unpin``, or a forget of
        the message it came from) stays removed until the user says it again: an
        ``auto`` pin of it needs a ``source_message_id`` newer than the removal,
        else :class:`~localmem.errors.FactRemoved` is raised (a ``manual`` pin is
        the user's own act, and is made). ``by="assistant"`` says the pin is asked on
        the assistant's word (an MCP client's ``remember_fact``), not the user's: a fact
        the user removed then needs a ``source_message_id`` newer than the removal, as
        an ``auto`` pin does. Raises :class:`SessionNotFound` or :class:`InvalidInput`;
        nothing is written then.
        """
        if session_id is not None:
            check_id(session_id)
        scope = ("user" if session_id is None else "session") if scope is None else scope
        if scope not in SCOPES:
            raise InvalidInput(f"scope must be one of {', '.join(SCOPES)}, not {scope!r}")
        if scope == "session" and session_id is None:
            raise InvalidInput("a session-scoped pin needs a session id")
        content = self._pin_content(content)
        importance = check_importance(importance)
        if kind not in PIN_KINDS:
            raise InvalidInput(f"kind must be one of {', '.join(PIN_KINDS)}, not {kind!r}")
        if by not in PINNED_BY:
            raise InvalidInput(f"by must be one of {', '.join(PINNED_BY)}, not {by!r}")
        if source_message_id is not None:
            check_int("source_message_id", source_message_id)
            if session_id is None:
                raise InvalidInput("source_message_id needs the session the message is in")
        tokens = self._db.tokenizer.count(content)
        owner = None if scope == "user" else session_id
        with self._db.write(owner) as conn:
            now = self._db.now()
            if session_id is not None and not db.touch_session(conn, session_id, now):
                raise SessionNotFound(session_id)
            if source_message_id is not None:
                if db.message_session(conn, source_message_id) != session_id:
                    raise InvalidInput(
                        f"message {source_message_id} is not a message of session {session_id!r}"
                    )
            key = pin_key(content)
            if kind == "auto":
                same = self._same_fact(conn, session_id, key)
                if same is not None:
                    return same
            if kind == "auto" or by == "assistant":  # not the user's own act
                removed = db.buried_after(conn, session_id or db.EVERY_SESSION, key)
                if removed is not None and (source_message_id is None or source_message_id <= removed):
                    how = "automatically" if kind == "auto" else "on the assistant's word"
                    raise FactRemoved(
                        f"the user removed this fact: pinning it again {how} needs the user's "
                        f"message saying it since (a source_message_id after {removed})"
                    )
            if kind != "auto":  # the explicit pin replaces the automatic one (its scope's, or the user's)
                db.delete_auto_pins(conn, owner, key)
                if owner is not None and db.delete_auto_pins(conn, None, key):
                    self._db.cache.clear()  # the user's pins changed: every session's context
            return db.insert_pin(
                conn, db.PinRow(owner, content, key, source_message_id, importance, kind, tokens, now)
            )

    def get_pins(
        self, session_id: str | None, kind: str | None = None, *, history: bool = False
    ) -> list[Pin]:
        """The pins a session sees: its own and the user's (``session_id`` None: the
        user's alone), highest importance first, newest first on ties; only those of
        ``kind`` (``manual`` or ``auto``) if given. Read-only.

        With ``history``, superseded pins too, each chain (``slot``) together,
        oldest first. Raises :class:`SessionNotFound` or :class:`InvalidInput`.
        """
        if session_id is not None:
            check_id(session_id)
        if kind is not None and kind not in PIN_KINDS:
            raise InvalidInput(f"kind must be one of {', '.join(PIN_KINDS)}, not {kind!r}")
        with self._db.locked() as conn:
            if session_id is not None:
                self._db.require_session(session_id)
            if history:
                return [p for p in db.pin_history(conn, session_id) if kind in (None, p.kind)]
            if kind is None:
                return db.top_pins(conn, session_id, -1)
            return db.kind_pins(conn, session_id, kind)

    def update_pin(
        self, pin_id: int, *, content: str | None = None, importance: float | None = None
    ) -> Pin:
        """Edit a pin's content and/or importance and return it; its kind and scope stay.

        New content is counted again and re-keyed, so an auto pin that was
        edited no longer matches the fact as first stated; a manual pin's new
        content replaces an auto pin of its scope that held it (as :meth:`pin`
        does). New content that says another fact removes the fact as it was, as
        :meth:`unpin` does: its old text leaves the file, and no model pins it again
        from the messages said before (a tombstone; a model's answer in flight is
        discarded). One transaction. Raises :class:`NotFound` for an unknown id,
        :class:`InvalidInput` for no change asked, empty content, an importance
        outside 0..1, or an auto pin's new content that another pin already
        holds; nothing is written then.
        """
        check_int("pin_id", pin_id)
        if content is None and importance is None:
            raise InvalidInput("nothing to change: give content, importance or both")
        if content is not None:
            content = self._pin_content(content)
        if importance is not None:
            importance = check_importance(importance)
        tokens = None if content is None else self._db.tokenizer.count(content)
        with self._db.locked() as conn:
            exists, session_id = db.pin_scope(conn, pin_id)  # a pin never changes scope
            if not exists:
                raise NotFound("pin", pin_id)
            with self._forget.forgetting(session_id) as gone:  # new content: the old fact goes
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
                    if key != pin_key(old.content):  # the user's correction removes the fact as it was
                        gone.touch("semantic_pins", [pin_id])
                        gone.removed.append((session_id, pin_key(old.content)))
                if session_id is not None:
                    db.touch_session(conn, session_id, self._db.now())
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
        """Remove a pin (a session's or the user's, current or superseded); raises
        :class:`NotFound` if there is none with this id.

        A fact removed stays removed until the user says it again: the rules
        only read new messages, and a local model's summary pins it again only
        from a message written after the unpin (a tombstone keeps a hash of its
        key, ``db.provenance``).
        """
        check_int("pin_id", pin_id)
        with self._db.locked():
            exists, session_id = db.pin_scope(self._db.conn, pin_id)
            if not exists:
                raise NotFound("pin", pin_id)
            with self._forget.forgetting(session_id) as gone:  # its text leaves the file
                pin = db.get_pin(self._db.conn, pin_id)
                db.delete_pin(self._db.conn, pin_id)
                gone.touch("semantic_pins", [pin_id])
                if pin is not None:
                    gone.removed.append((session_id, pin_key(pin.content)))

    def memory_report(self) -> MemoryReport:
        """Everything remembered: every fact of the user's and every session's pins,
        current and superseded, each with where it came from (the message, its
        session and date; manual or automatic). Read-only. ``report.to_text()``
        is what an app can show the user as is; ``report.model_dump()`` its JSON."""
        with self._db.locked() as conn:
            rows = db.pins_with_sources(conn)
            sessions = {s.id: s for s in db.list_sessions(conn)}
        user: list[RememberedFact] = []
        by_session: dict[str, list[RememberedFact]] = {sid: [] for sid in sessions}
        for pin, source_session, title, said_at in rows:
            fact = RememberedFact(
                pin=pin,
                status="current" if pin.superseded_at is None else "superseded",
                source_session_id=source_session,
                source_session_title=title,
                said_at=said_at,
            )
            if pin.session_id is None:
                user.append(fact)
            elif pin.session_id in by_session:
                by_session[pin.session_id].append(fact)
        return MemoryReport(
            generated_at=self._db.now(),
            user_facts=user,
            sessions=[SessionMemory(session=sessions[sid], facts=f) for sid, f in by_session.items()],
        )

    def _correct(
        self, conn: sqlite3.Connection, session_id: str, message_id: int, correction: Correction, now: str
    ) -> bool:
        """Rewrite the pins of the user's message before ``message_id`` that ``correction``
        corrects (``localmem.corrections``): each is kept in history, ended by the
        correction, and the fact with the correction takes its place, built from both
        messages. Return whether the user's pins changed."""
        user_changed = False
        for old in db.previous_user_pins(conn, session_id, message_id):
            if not corrects(correction, old.content):
                continue
            db.supersede_pin(conn, old.id, "correction", now)
            db.end_pin(conn, old.id, message_id)  # forgetting the correction restores it
            self._rewritten(conn, session_id, old, corrected(old.content, correction), message_id, "correction", now)
            user_changed |= old.session_id is None
        return user_changed

    def _rewritten(
        self, conn: sqlite3.Connection, session_id: str, old: Pin, content: str, message_id: int, slot: str | None,
        now: str,
    ) -> None:
        """Pin ``content``, what ``old`` (just ended by ``message_id``) says once that message
        changed it, in ``old``'s scope, built from both messages (``pin_sources``: forgetting
        ``message_id`` removes it as it restores ``old``; forgetting ``old``'s removes both),
        unless a current pin holds that fact already."""
        key = pin_key(content)
        if self._same_fact(conn, old.session_id, key) is None:
            db.insert_pin(conn, db.PinRow(
                old.session_id, content, key, old.source_message_id, old.importance_score,
                "auto", self._db.tokenizer.count(content), now, slot,
            ))
            db.add_pin_sources(conn, session_id, key, [old.source_message_id, message_id])

    @staticmethod
    def _same_fact(
        conn: sqlite3.Connection, session_id: str | None, key: str, besides: int | None = None
    ) -> Pin | None:
        """The current pin (manual first) holding the fact ``key`` that the session sees
        (its own or the user's; None: the user's), other than ``besides``."""
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

    def planned(self, fact: str, update: Update | None = None) -> PlannedPin:
        return PlannedPin(fact, pin_key(fact), self._db.tokenizer.count(fact), is_lasting(fact), update)

    def auto_pins(self, role: str, text: str) -> list[PlannedPin]:
        """The auto pins one message would add, and the updates it states (the rules;
        no I/O), counted and keyed."""
        if not self._db.config.auto_pins or role != "user":
            return []
        words = message_words(text)
        found = updates_in(text, words)
        facts = pin_facts(role, text, words)
        correction = None if words.isdisjoint(CORRECTION_WORDS) else find_correction(text)
        fixes = [] if correction is None else [self.planned(correction.sentence)._replace(correction=correction)]
        if not found:  # the common case
            return [*fixes, *(self.planned(fact) for fact in facts)]
        keys = {pin_key(sentence) for sentence, _ in found}
        return [
            *fixes,
            *(self.planned(sentence, update) for sentence, update in found),
            *(self.planned(fact) for fact in facts if pin_key(fact) not in keys),
        ]

    def end_stale(self, conn: sqlite3.Connection, session_id: str, end: int, now: str) -> bool:
        """End, inside the caller's transaction, the current auto pins learnt from the
        session's last :data:`STALE_REACH` messages through ``end`` that a later one of them
        made untrue (``staleness.ended_at``: "Next meeting is 12 March at Graham's." after "I
        got the place wrong, it's at Kemi's"; a pin of the user's words only by a later user
        message): each is kept in history, ended by that message
        (forgetting it makes the pin current again), as an update ends what it replaces. The
        rules pin a message when it is written, before the turns that change it. What of
        such a pin still holds (``staleness.still_holds``: "Ollie has asthma." of "Ollie
        sleeps there and he has asthma." once he moved rooms) takes its place, built from
        both messages, as a correction's rewrite is. Return whether the user's pins changed."""
        pins = [p for p in db.session_pins(conn, session_id)
                if p.kind == "auto" and p.superseded_at is None and p.source_message_id is not None
                and p.source_message_id <= end]
        if not pins:
            return False
        first = min(p.source_message_id for p in pins if p.source_message_id is not None)
        messages = db.messages_between(conn, session_id, first, end)[-STALE_REACH:]
        index = {m.id: k for k, m in enumerate(messages)}
        user_changed = False
        for pin in pins:
            at = index.get(pin.source_message_id or 0)
            if at is None:
                continue  # learnt beyond the reach
            later = messages[at:]
            if later[0].role == "user":
                # the user's own words change only by the user's words: an assistant restating
                # a change ("So 26 May at 10:15.") does not end the user's report of it
                later = [later[0], *(m for m in later[1:] if m.role == "user")]
            texts = [m.text for m in later]
            ended = ended_at(pin.content, texts)
            if not ended:
                continue  # nothing later changed it (its own message does not)
            db.supersede_pin(conn, pin.id, pin.slot or "stale", now)
            db.end_pin(conn, pin.id, later[ended].id)
            held = still_holds(pin.content, texts[: ended + 1])  # what the change left true
            if held is not None:
                self._rewritten(conn, session_id, pin, held, later[ended].id, pin.slot or "stale", now)
            user_changed |= pin.session_id is None
        return user_changed

    def add_auto_pins(
        self,
        conn: sqlite3.Connection,
        session_id: str,
        source_message_id: int | None,
        pins: Sequence[PlannedPin],
        now: str,
        ended_by: Sequence[int] = (),
    ) -> bool:
        """Write auto pins inside the caller's transaction: lasting facts as the user's
        (``user_auto_pins``), the rest in the session; an update supersedes the
        current pins it replaces, each ended by ``source_message_id`` and every message
        of ``ended_by`` (an update built from several messages: forgetting any one of
        them makes what it replaced current again). Return whether the user's pins
        changed (every session's cached contexts are then stale)."""
        if not pins:
            return False
        user_changed = False
        importance = self._db.config.auto_pin_importance
        to_user = self._db.config.user_auto_pins
        for p in pins:
            if p.correction is not None and source_message_id is not None:
                user_changed |= self._correct(conn, session_id, source_message_id, p.correction, now)
        pins = [p for p in pins if p.correction is None]
        for lasting in (True, False):
            group = [p[:3] for p in pins if p.update is None and p.lasting == lasting]
            owner = None if lasting and to_user else session_id
            if group:
                added = db.insert_auto_pins(
                    conn, owner, source_message_id, group, importance, now, session_id
                )
                user_changed |= owner is None and added > 0
        for p in pins:
            if p.update is None:
                continue
            old = superseded(p.update, db.top_pins(conn, session_id, -1), p.key)
            for pin in old:
                db.supersede_pin(conn, pin.id, p.update.slot, now)
                db.end_pin(conn, pin.id, source_message_id, *ended_by)  # forgetting one restores it
            users = p.lasting or p.update.slot == "home" or any(o.session_id is None for o in old)
            owner = None if users and to_user else session_id
            if self._same_fact(conn, session_id, p.key) is None:
                row = db.PinRow(
                    owner, p.content, p.key, source_message_id, importance, "auto", p.tokens, now,
                    p.update.slot,
                )
                db.insert_pin(conn, row)
                user_changed |= owner is None
            user_changed |= any(o.session_id is None for o in old)
        return user_changed
