"""m018_pin_endings: an update built from several messages is ended by each of them
(issue 21 point 4; review11).

``pin_endings`` held one message per ended pin: a model's update built from two of the
user's messages recorded only the first, so forgetting the second removed the update
(``pin_sources``) but left the fact it had replaced superseded for good, gone from
every context. A pin is now ended by every message the update rests on, and forgetting
any one of them makes it current again (``db.provenance.restore_ended``). The rows
m013 wrote are kept as they are.
"""

from __future__ import annotations

M018_PIN_ENDINGS = (
    """CREATE TABLE pin_endings_by_message (
    pin_id INTEGER NOT NULL REFERENCES semantic_pins(id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (pin_id, message_id)
) WITHOUT ROWID""",
    "INSERT INTO pin_endings_by_message (pin_id, message_id) SELECT pin_id, message_id FROM pin_endings",
    "DROP TABLE pin_endings",
    "ALTER TABLE pin_endings_by_message RENAME TO pin_endings",
    "CREATE INDEX pin_endings_message ON pin_endings (message_id)",
)
