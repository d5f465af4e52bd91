"""Rows read back from the file: built as stored where the table guarantees the
fields' types, validated where it does not."""

from __future__ import annotations

import sqlite3

import pytest
from pydantic import ValidationError

from localmem import MemoryStore
from localmem.db.recall import messages_by_ids
from localmem.db.rows import FILE_COLUMNS, MESSAGE_COLUMNS, _FILE_ROWS, _MESSAGE_ROWS, _RowModels
from localmem.models import Message, TrackedFile


def test_messages_read_back_are_the_validated_models(store: MemoryStore, db_path) -> None:
    sid = store.create_session().id
    written = store.add_messages(sid, [
        {"role": "user", "text": "the garage door code is 4411"},
        {"role": "assistant", "text": "Noted.", "model_id": "m-1"},
    ])
    # An integer written straight into the REAL column comes back a float, as
    # validation would make it; a NULL model_id stays None.
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE messages SET importance_score = 1 WHERE id = ?", (written[0].id,))
    conn.commit()
    conn.close()
    read = {m.id: m for m in messages_by_ids(store._db.conn, sid, [m.id for m in written])}
    rows = store._db.conn.execute(
        f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE session_id = ? ORDER BY id", (sid,)
    ).fetchall()
    assert len(rows) == len(read) == 2
    for row in rows:
        expected = Message.model_validate(dict(zip(_MESSAGE_ROWS.fields, row)))
        got = read[row[0]]
        assert type(got) is Message
        assert got == expected and hash(got) == hash(expected)
        assert got.model_dump() == expected.model_dump()
        assert got.model_fields_set == expected.model_fields_set
        assert [type(v) for v in got.model_dump().values()] == [
            type(v) for v in expected.model_dump().values()
        ]
    assert read[written[0].id].importance_score == 1.0
    assert type(read[written[0].id].importance_score) is float
    assert read[written[0].id].model_id is None
    with pytest.raises(ValidationError):  # still frozen
        read[written[0].id].text = "changed"  # type: ignore[misc]


def test_rows_not_as_stored_are_validated() -> None:
    # Tracked files keep ``modified`` as 0/1: their rows go through validation,
    # which makes it a bool, and rejects a row the model cannot hold.
    row = (1, "s", "a.py", 1, 3, 0, "2024-01-01T00:00:00", "2024-01-01T00:00:00")
    assert _FILE_ROWS.read(row).modified is True
    strict = _RowModels(TrackedFile, FILE_COLUMNS, None)
    with pytest.raises(ValidationError):
        strict.read((1, "s", "a.py", "not a flag", 3, 0, "t", "t"))


def test_the_messages_table_refuses_what_their_model_would(store: MemoryStore, db_path) -> None:
    # What lets message rows be built as stored: a role or a text the model
    # would refuse cannot be written in the first place.
    sid = store.create_session().id
    store.add_message(sid, "user", "hello")
    conn = sqlite3.connect(db_path)
    for column, value in (("role", "robot"), ("text", None), ("token_count", -1)):
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(f"UPDATE messages SET {column} = ?", (value,))
    conn.close()
    with pytest.raises(ValidationError):  # validated, as rows of other tables are
        _RowModels(Message, MESSAGE_COLUMNS, "text").read(
            (1, sid, "robot", "hello", None, 1, 0.5, "2024-01-01T00:00:00")
        )
