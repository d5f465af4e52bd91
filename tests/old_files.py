"""Files as an older localmem left them, for the migration tests."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

from localmem.autopins import pin_key
from localmem.migrations import APPLICATION_ID, MIGRATIONS


def file_at_version(
    path: Path, version: int, rows: Iterable[tuple[str, tuple | list]] = ()
) -> Path:
    """A localmem file with the first ``version`` migrations applied, then ``rows``
    (``(sql, params)`` pairs) written the way that version's code could have written them."""
    conn = sqlite3.connect(path)
    conn.create_function("pin_key", 1, pin_key, deterministic=True)  # m008's back-fill
    for _name, statements in MIGRATIONS[:version]:
        for statement in statements:
            conn.execute(statement)
    for sql, params in rows:
        conn.execute(sql, params)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()
    return path
