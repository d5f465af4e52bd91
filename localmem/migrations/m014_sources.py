"""m014_sources: every line of a checkpoint and of a summary's facts names its messages
(issue 21 point 4).

Until now a checkpoint recorded only ``through_message_id`` and a summary's facts only
their summary's range, although the grounding that kept each item had found the
message(s) supporting it. These tables keep them, one row per (line, message):

- ``checkpoint_sources``: ``item`` is the line's JSON path in ``checkpoints.data``
  (``$.user_preferences[0]``, ``$.workflow_state.current_step``), so
  ``json_extract(data, item)`` reads the line;
- ``fact_sources``: the same for ``summary_facts.data`` (``$.key_facts[1]``).

One table per owner rather than one ``line_sources(kind, owner_id, ...)``: a foreign
key names one table, so each row goes with its checkpoint or its facts (the newest
ten checkpoints kept, a forget, a deleted session) by ``ON DELETE CASCADE``, as
``pin_sources`` rows go with their pin. No index on ``message_id``: a forget reaches
these rows through their owner (every source of a line is within its owner's range,
which the forget already drops or rewrites), and a source is read by owner (the
primary key). The view ``line_sources`` shows both with the line's text, for
``sqlite3`` and Datasette.
"""

from __future__ import annotations

M014_SOURCES = (
    """CREATE TABLE checkpoint_sources (
    checkpoint_id INTEGER NOT NULL REFERENCES checkpoints(id) ON DELETE CASCADE,
    item TEXT NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (checkpoint_id, item, message_id)
) WITHOUT ROWID""",
    """CREATE TABLE fact_sources (
    summary_id INTEGER NOT NULL REFERENCES summary_facts(id) ON DELETE CASCADE,
    item TEXT NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (summary_id, item, message_id)
) WITHOUT ROWID""",
    """CREATE VIEW line_sources AS
    SELECT 'checkpoint' AS kind, c.session_id, s.checkpoint_id AS owner_id, s.item,
        json_extract(c.data, s.item) AS line, s.message_id
    FROM checkpoint_sources s JOIN checkpoints c ON c.id = s.checkpoint_id
    UNION ALL
    SELECT 'facts', f.session_id, s.summary_id, s.item,
        json_extract(f.data, s.item), s.message_id
    FROM fact_sources s JOIN summary_facts f ON f.id = s.summary_id""",
)
