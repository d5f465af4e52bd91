"""m013_truth: a forget is final, and a fact keeps every source (issue 21).

- ``forget_marks``: a mark per session (and ``''`` for every session), raised by each
  forget in its own transaction; a model's output is stored only if the mark it read
  with its input is unchanged (``db.provenance``). Marks come from one counter (the
  ``''`` row is never deleted), so a session deleted and created again under its id
  never repeats one.
- ``pin_sources``: every message a model's pin was built from (``source_message_id``
  keeps the first); forgetting any one of them forgets the pin.
- ``pin_tombstones``: a fact the user removed (its key, hashed: the text leaves the
  file), and the newest message id then; a model may pin it again only from a later
  message.
- ``pin_endings``: the message whose update ended a superseded pin; forgetting that
  message makes the pin current again.
"""

from __future__ import annotations

M013_TRUTH = (
    """CREATE TABLE forget_marks (
    scope TEXT PRIMARY KEY,
    mark INTEGER NOT NULL CHECK (mark > 0)
) WITHOUT ROWID""",
    """CREATE TABLE pin_sources (
    pin_id INTEGER NOT NULL REFERENCES semantic_pins(id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (pin_id, message_id)
) WITHOUT ROWID""",
    "CREATE INDEX pin_sources_message ON pin_sources (message_id)",
    """CREATE TABLE pin_tombstones (
    scope TEXT NOT NULL,
    key_hash TEXT NOT NULL,
    after_message_id INTEGER NOT NULL,
    PRIMARY KEY (scope, key_hash)
) WITHOUT ROWID""",
    """CREATE TABLE pin_endings (
    pin_id INTEGER PRIMARY KEY REFERENCES semantic_pins(id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL
)""",
    "CREATE INDEX pin_endings_message ON pin_endings (message_id)",
)
