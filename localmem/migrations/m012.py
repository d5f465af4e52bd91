"""Migration m012 (the comment below says why); ``localmem.migrations`` builds it
from :func:`_m012_index` with m004's and m010's key expressions."""

from __future__ import annotations

# m012_search_at_commit: the search indexes are current when a write commits,
# in every process, and declared the way sqlite-utils (``Table.detect_fts``)
# and Datasette (``detect_fts``) find a table's index, so ``sqlite-utils
# search FILE messages WORD`` and Datasette's ``?_search=`` work on the file.
#
# m004 left the write path alone and indexed lazily, from a high-water mark,
# at the next search of a localmem process: another tool saw a stale index,
# and a search made while another program held the write lock missed rows.
# Now a trigger indexes each row in the transaction that writes it (what that
# costs add_message is measured in the README), and search_state goes.
#
# Each index is an external-content FTS5 table over the searched table itself
# (``content=[messages]``, ``content_rowid=[id]``), with sqlite-utils' own
# declaration and trigger names (``messages_ai``/``_ad``/``_au``, bodies
# ``INSERT INTO [messages_fts]``), so its ``disable-fts`` finds them too. Its
# columns are the table's text column and ``session_id``, which an outside
# tool reads back from the table as it is; what the index holds for
# ``session_id`` is the session's key token (m004's ``'s' || hex(id) || '0'``,
# 'u0' for the user's pins), one exact token however the id is spelled, so a
# session's search still ANDs one token into its MATCH. A 'rebuild' from the
# table would index the raw id instead: localmem never issues one, and
# ``localmem.db.fulltext.rebuild`` re-indexes with the keys.
# The m004 views (``*_fts_source``, whose hex session_key Datasette showed as
# the session column) and triggers go with the old tables. Deleting a row
# issues FTS5's 'delete' with the old values, as an external-content index
# requires; forgetting then merges the index (localmem.forget) so no entry stays.
# The generator below is frozen with this migration: never edit it.
def _m012_index(table: str, text: str, key: str) -> tuple[str, ...]:
    fts = f"{table}_fts"
    old_key, new_key = key.format("old.session_id"), key.format("new.session_id")
    delete = f"""INSERT INTO [{fts}] ([{fts}], rowid, [{text}], [session_id])
        VALUES ('delete', old.id, old.[{text}], {old_key});"""
    insert = f"""INSERT INTO [{fts}] (rowid, [{text}], [session_id])
        VALUES (new.id, new.[{text}], {new_key});"""
    return (
        f"DROP TRIGGER {table}_fts_delete",
        f"DROP TRIGGER {table}_fts_update",
        f"DROP VIEW {table}_fts_source",
        f"DROP TABLE {fts}",
        f"""CREATE VIRTUAL TABLE [{fts}] USING FTS5 (
    [{text}], [session_id],
    tokenize='porter unicode61 remove_diacritics 2',
    content=[{table}], content_rowid=[id]
)""",
        f"""INSERT INTO [{fts}] (rowid, [{text}], [session_id])
    SELECT id, [{text}], {key.format("session_id")} FROM [{table}]""",
        f"INSERT INTO [{fts}] ([{fts}]) VALUES ('optimize')",
        f"""CREATE TRIGGER [{table}_ai] AFTER INSERT ON [{table}] BEGIN
    {insert}
END""",
        f"""CREATE TRIGGER [{table}_ad] AFTER DELETE ON [{table}] BEGIN
    {delete}
END""",
        f"""CREATE TRIGGER [{table}_au] AFTER UPDATE OF id, [{text}], session_id ON [{table}] BEGIN
    {delete}
    {insert}
END""",
    )
