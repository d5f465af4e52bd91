"""What a remembered line rests on, and what a forget leaves behind it (m013_truth).

- **Forget marks** (``forget_marks``): each forget raises its session's mark (and the
  mark ``''`` of every session when it deleted sessions or acted on the user's
  facts) in its own transaction. A model's output is stored only if the mark read
  before its input is still the mark in the storing transaction
  (``Summaries.store_summary``, ``Checkpoints.take``). Marks come from one counter that never goes down
  (the ``''`` row is never deleted), so no mark repeats, even for a session
  deleted and created again under its id.
- **Pin sources** (``pin_sources``): every message a model's pin was built from;
  forgetting any one of them deletes the pin (``localmem.forget``).
- **Pin endings** (``pin_endings``, m018): the messages whose update ended a pin (every
  one an update was built from); forgetting any one makes the pin current again, unless the user removed that fact since
  (a tombstone newer than its messages) or a current pin holds it meanwhile.
  A model's fact that restates an ended pin and rests only on messages said before
  its ending is not pinned (``Summaries.store_summary``): it would bring back what
  the user updated or corrected.
- **Line sources** (``checkpoint_sources``, ``fact_sources``, m014): the messages each
  line of a checkpoint or of a summary's facts rests on, the line named by its JSON
  path in the owner's ``data`` (``localmem.sources``). They go with their owner
  (``ON DELETE CASCADE``); a summary's facts rewritten by a forget get theirs anew.
- **Tombstones** (``pin_tombstones``): a fact the user removed, by a hash of its
  key (its text leaves the file), with the newest message id at the time: a model
  may pin the fact again only from a later message. An unpin removes the fact; a
  forget of messages removes it only when no message left still holds it
  (:func:`still_said`): forgetting a repetition, then the update, brings back the
  fact as first said, as forgetting both at once does.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Sequence

EVERY_SESSION = ""
"""The scope of a mark or a tombstone that holds for every session (the user's facts)."""

FORGET_MARK_SQL = "SELECT coalesce(max(mark), 0) FROM forget_marks WHERE scope IN (?, '')"
RAISE_MARK_SQL = """INSERT INTO forget_marks (scope, mark)
    VALUES (?, (SELECT coalesce(max(mark), 0) + 1 FROM forget_marks))
    ON CONFLICT (scope) DO UPDATE SET mark = excluded.mark"""
DROP_MARK_SQL = "DELETE FROM forget_marks WHERE scope = ? AND scope != ''"

INSERT_PIN_SOURCE_SQL = "INSERT OR IGNORE INTO pin_sources (pin_id, message_id) VALUES (?, ?)"
# The current auto pin a session sees with this key and first source: the one just written.
SOURCED_PIN_SQL = """SELECT id FROM semantic_pins WHERE (session_id = ?1 OR session_id IS NULL)
    AND content_key = ?2 AND kind = 'auto' AND superseded_at IS NULL
    AND source_message_id IS ?3 ORDER BY id DESC LIMIT 1"""

INSERT_CHECKPOINT_SOURCE_SQL = """INSERT OR IGNORE INTO checkpoint_sources
    (checkpoint_id, item, message_id) VALUES (?, ?, ?)"""
INSERT_FACT_SOURCE_SQL = """INSERT OR IGNORE INTO fact_sources
    (summary_id, item, message_id) VALUES (?, ?, ?)"""
CHECKPOINT_SOURCES_SQL = """SELECT item, message_id FROM checkpoint_sources
    WHERE checkpoint_id = ? ORDER BY item, message_id"""
# Every fact line's sources of a session's summaries (summary_facts_session, then the key).
FACT_SOURCES_SQL = """SELECT s.summary_id, s.item, s.message_id FROM summary_facts f
    JOIN fact_sources s ON s.summary_id = f.id WHERE f.session_id = ?
    ORDER BY s.summary_id, s.item, s.message_id"""
DROP_FACT_SOURCES_SQL = "DELETE FROM fact_sources WHERE summary_id = ?"

END_PIN_SQL = "INSERT OR IGNORE INTO pin_endings (pin_id, message_id) VALUES (?, ?)"
# The pins these messages ended: (id, scope, key, the newest message it was built from).
_ENDED_COLUMNS = """SELECT DISTINCT p.id, p.session_id, p.content_key,
    max(coalesce(p.source_message_id, 0),
        coalesce((SELECT max(message_id) FROM pin_sources s WHERE s.pin_id = p.id), 0))
    FROM semantic_pins p JOIN pin_endings e ON e.pin_id = p.id"""
ENDED_BY_SQL = f"{_ENDED_COLUMNS} WHERE e.message_id = ?"
ENDED_BY_SESSION_SQL = f"""{_ENDED_COLUMNS}
    WHERE e.message_id IN (SELECT id FROM messages WHERE session_id = ?)"""
# Whether a current pin holds the fact meanwhile (said again, or pinned by hand): that
# one stays, the old one history. As ``Pins.pin`` has it, a manual pin in any session
# holds the user's fact too.
HELD_ELSEWHERE_SQL = """SELECT 1 FROM semantic_pins WHERE content_key = ?2 AND id != ?3
    AND superseded_at IS NULL
    AND (session_id IS ?1 OR session_id IS NULL OR (?1 IS NULL AND kind = 'manual')) LIMIT 1"""
RESTORE_PIN_SQL = "UPDATE OR IGNORE semantic_pins SET superseded_at = NULL WHERE id = ?"
# A pin made current again (or left in history) is ended by none of its messages any more.
DROP_ENDINGS_SQL = "DELETE FROM pin_endings WHERE pin_id = ?"

# The facts a session sees that a later message ended (an update, a correction), each
# with that message: a model's fact resting only on what came before it is stale.
ENDED_PINS_SQL = """SELECT p.content, e.message_id FROM semantic_pins p
    JOIN pin_endings e ON e.pin_id = p.id
    WHERE (p.session_id = ?1 OR p.session_id IS NULL) AND p.superseded_at IS NOT NULL"""

BURY_SQL = """INSERT INTO pin_tombstones (scope, key_hash, after_message_id) VALUES (?, ?, ?)
    ON CONFLICT (scope, key_hash) DO UPDATE SET after_message_id = excluded.after_message_id"""
BURIED_SQL = """SELECT max(after_message_id) FROM pin_tombstones
    WHERE scope IN (?, '') AND key_hash = ?"""
DROP_TOMBSTONES_SQL = "DELETE FROM pin_tombstones WHERE scope = ? AND scope != ''"
# A pin of the fact in this scope that a message left still holds: current, or in history
# ended by an update (``pin_endings``: what forgetting the update brings back).
STILL_SAID_SQL = """SELECT 1 FROM semantic_pins p WHERE p.session_id IS ?1 AND p.content_key = ?2
    AND (p.superseded_at IS NULL OR EXISTS (SELECT 1 FROM pin_endings e WHERE e.pin_id = p.id))
    LIMIT 1"""
NEWEST_MESSAGE_ID_SQL = """SELECT max(coalesce((SELECT max(id) FROM messages), 0),
    (SELECT max_id FROM used_ids WHERE name = 'messages'))"""


def forget_mark(conn: sqlite3.Connection, session_id: str) -> int:
    """The session's forget mark: raised by every forget that reached it (0: none yet)."""
    return conn.execute(FORGET_MARK_SQL, (session_id,)).fetchone()[0]


def raise_mark(conn: sqlite3.Connection, scope: str) -> None:
    """Raise a session's mark (``EVERY_SESSION``: every session's), in a forget's transaction."""
    conn.execute(RAISE_MARK_SQL, (scope,))


def drop_session_marks(conn: sqlite3.Connection, session_id: str) -> None:
    """A deleted session's mark and tombstones go with it (its id leaves the file);
    the caller raises ``EVERY_SESSION``'s mark instead."""
    conn.execute(DROP_MARK_SQL, (session_id,))
    conn.execute(DROP_TOMBSTONES_SQL, (session_id,))


def add_pin_sources(
    conn: sqlite3.Connection, seen_from: str, key: str, sources: Sequence[int]
) -> None:
    """Record every source of the current auto pin of ``key`` that session ``seen_from``
    sees and that was written from ``sources[0]`` (none: nothing is recorded)."""
    if len(sources) < 2:
        return  # source_message_id alone holds it
    row = conn.execute(SOURCED_PIN_SQL, (seen_from, key, sources[0])).fetchone()
    if row is not None:
        conn.executemany(INSERT_PIN_SOURCE_SQL, [(row[0], mid) for mid in sources])


def end_pin(conn: sqlite3.Connection, pin_id: int, *message_ids: int | None) -> None:
    """Record the messages whose update ended pin ``pin_id``: every one it rests on, so
    that forgetting any one makes the pin current again (None: none recorded)."""
    conn.executemany(END_PIN_SQL, [(pin_id, mid) for mid in message_ids if mid is not None])


def restore_ended(conn: sqlite3.Connection, message_ids: Iterable[int]) -> int:
    """Make the pins these messages' updates ended current again; return how many.

    A pin whose fact the user removed since the messages it was built from (a tombstone,
    :func:`buried_after`), or that its scope holds current meanwhile (pinned by hand, or
    said again), stays in history: forgetting an update brings back what it ended,
    never what the user removed after it."""
    return sum(_restore(conn, conn.execute(ENDED_BY_SQL, (mid,)).fetchall()) for mid in message_ids)


def restore_session_ended(conn: sqlite3.Connection, session_id: str) -> int:
    """:func:`restore_ended` for every message of a session."""
    return _restore(conn, conn.execute(ENDED_BY_SESSION_SQL, (session_id,)).fetchall())


def _restore(conn: sqlite3.Connection, ended: Iterable[tuple[int, str | None, str, int]]) -> int:
    restored = 0
    for pin_id, scope, key, newest_source in ended:
        conn.execute(DROP_ENDINGS_SQL, (pin_id,))
        removed = buried_after(conn, EVERY_SESSION if scope is None else scope, key)
        if removed is not None and newest_source <= removed:
            continue  # the user removed the fact after it was said
        if conn.execute(HELD_ELSEWHERE_SQL, (scope, key, pin_id)).fetchone() is not None:
            continue
        restored += conn.execute(RESTORE_PIN_SQL, (pin_id,)).rowcount
    return restored


def ended_pins(conn: sqlite3.Connection, session_id: str) -> list[tuple[str, int]]:
    """(content, the id of the message that ended it) of each fact the session sees that
    an update or a correction ended."""
    return [(row[0], row[1]) for row in conn.execute(ENDED_PINS_SQL, (session_id,))]


def key_hash(key: str) -> str:
    """A tombstone's key: a hash of the pin's ``content_key`` (its text is not kept)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def bury(conn: sqlite3.Connection, facts: Iterable[tuple[str | None, str]]) -> None:
    """Tombstone facts the user removed, as (session id or None: the user's, content_key),
    after the newest message id so far."""
    after = conn.execute(NEWEST_MESSAGE_ID_SQL).fetchone()[0] or 0
    rows = [
        (EVERY_SESSION if scope is None else scope, key_hash(key), after)
        for scope, key in facts
        if key
    ]
    conn.executemany(BURY_SQL, rows)


def still_said(conn: sqlite3.Connection, scope: str | None, key: str) -> bool:
    """Whether a pin of this fact (scope: a session id, None for the user's) is left after
    a forget of messages: current, or ended by an update. Forgetting a message forgets
    that message, not the fact as another one said it: such a fact is not tombstoned
    (its ended pin already keeps a model from pinning it again from before the update,
    ``ended_pins``), so forgetting the update later still brings it back."""
    return conn.execute(STILL_SAID_SQL, (scope, key)).fetchone() is not None


def buried_after(conn: sqlite3.Connection, session_id: str, key: str) -> int | None:
    """The message id after which a removed fact may be pinned again in this session
    (its own tombstone or the user's), or None if it was never removed."""
    return conn.execute(BURIED_SQL, (session_id, key_hash(key))).fetchone()[0]


def add_checkpoint_sources(conn: sqlite3.Connection, rows: Iterable[tuple[int, str, int]]) -> None:
    """Record (checkpoint id, JSON path of a line, message id) rows."""
    conn.executemany(INSERT_CHECKPOINT_SOURCE_SQL, rows)


def add_fact_sources(conn: sqlite3.Connection, rows: Iterable[tuple[int, str, int]]) -> None:
    """Record (summary id, JSON path of a line of its facts, message id) rows."""
    conn.executemany(INSERT_FACT_SOURCE_SQL, rows)


def drop_fact_sources(conn: sqlite3.Connection, summary_id: int) -> None:
    """Forget a summary's fact sources (its facts are being rewritten in place)."""
    conn.execute(DROP_FACT_SOURCES_SQL, (summary_id,))


def checkpoint_sources(conn: sqlite3.Connection, checkpoint_id: int) -> dict[str, tuple[int, ...]]:
    """A checkpoint's lines (JSON paths) with the ids of the messages each rests on."""
    return _grouped(conn.execute(CHECKPOINT_SOURCES_SQL, (checkpoint_id,)))


def fact_sources(conn: sqlite3.Connection, session_id: str) -> dict[int, dict[str, tuple[int, ...]]]:
    """By summary id, the session's fact lines (JSON paths) with the ids of the messages
    each rests on."""
    out: dict[int, list[tuple[str, int]]] = {}
    for summary_id, item, message_id in conn.execute(FACT_SOURCES_SQL, (session_id,)):
        out.setdefault(summary_id, []).append((item, message_id))
    return {summary_id: _grouped(rows) for summary_id, rows in out.items()}


def _grouped(rows: Iterable[tuple[str, int]]) -> dict[str, tuple[int, ...]]:
    out: dict[str, list[int]] = {}
    for item, message_id in rows:
        out.setdefault(item, []).append(message_id)
    return {item: tuple(ids) for item, ids in out.items()}
