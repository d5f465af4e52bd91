"""Each embedding model's unit vectors held in memory, kept current: :class:`Vectors`.

Reading 100,000 vectors from SQLite for every query costs 0.75-2 s; scoring
them in memory costs milliseconds. One matrix per (model, vector size): loaded
once, on the first query that needs it, then kept current without reading the
file again:

- this connection's own changes are logged by two TEMP triggers (they live in
  this connection only; the file's schema is untouched) on ``embeddings``: a
  vector stored is read and appended, a vector deleted (its message forgotten,
  its text rewritten, its session deleted) leaves the matrix at the next query;
- another connection's commits (``PRAGMA data_version`` moved) are checked by
  the vectors' count and highest id, and the matrix is read again if they differ.

With numpy, the matrix is one float32 array and a query one product; without
it, rows are tuples and scoring is plain Python (the fallback: correct, slower).
Call every method with the store's lock held.
"""

from __future__ import annotations

import heapq
import math
import operator
import sqlite3
import struct
from collections.abc import Sequence

try:
    import numpy as np
except ImportError:  # pragma: no cover - the plain Python fallback
    np = None  # type: ignore[assignment]

from . import db

_dot = getattr(math, "sumprod", None) or (lambda a, b: sum(map(operator.mul, a, b)))
"""A dot product in plain Python (``math.sumprod`` from 3.12): 14 µs for 384 dimensions
where ``math.fsum`` over a generator took 77 (its exactness changes no ranking)."""

COMPACT_SHARE = 0.25
"""Deleted rows are dropped from the matrix once they are this share of it."""


class _Matrix:
    """One model's vectors of one size: ids, sessions and rows, with room to grow."""

    def __init__(self, nbytes: int) -> None:
        self.nbytes = nbytes
        self.dims = nbytes // 4
        self.ids: list[int] = []
        self.sessions: list[str] = []
        self.where: dict[int, int] = {}  # message id -> row
        self.dead = 0
        self.other = 0
        self.count = 0  # rows in use (alive or dead)
        self.rows = np.zeros((0, self.dims), dtype=np.float32) if np is not None else []
        self._codes: dict[str, int] = {}
        self.codes = np.zeros(0, dtype=np.int32) if np is not None else []
        self.id_array = np.zeros(0, dtype=np.int64) if np is not None else []

    def add(self, rows: Sequence[tuple[int, str, bytes]]) -> None:
        fresh = [(i, s, b) for i, s, b in rows if len(b) == self.nbytes]
        self.other += len(rows) - len(fresh)  # another size: a model changed under its name
        for i, _, _ in fresh:
            if i in self.where:
                self.remove([i])
        if not fresh:
            return
        if np is None:
            for i, s, b in fresh:
                self.where[i] = len(self.ids)
                self.ids.append(i)
                self.sessions.append(s)
                self.rows.append(struct.unpack(f"<{self.dims}f", b))
            self.count = len(self.ids)
            return
        need = self.count + len(fresh)
        if need > len(self.rows):
            size = max(need, 2 * len(self.rows), 64)
            rows = np.zeros((size, self.dims), dtype=np.float32)
            rows[: self.count] = self.rows[: self.count]
            codes = np.full(size, -1, dtype=np.int32)
            codes[: self.count] = self.codes[: self.count]
            ids = np.zeros(size, dtype=np.int64)
            ids[: self.count] = self.id_array[: self.count]
            self.rows, self.codes, self.id_array = rows, codes, ids
        block = np.frombuffer(b"".join(b for _, _, b in fresh), dtype="<f4")
        self.rows[self.count : need] = block.reshape(len(fresh), self.dims)
        for n, (i, s, _) in enumerate(fresh, start=self.count):
            self.where[i] = n
            self.ids.append(i)
            self.sessions.append(s)
            self.codes[n] = self._codes.setdefault(s, len(self._codes))
            self.id_array[n] = i
        self.count = need

    def remove(self, ids: Sequence[int]) -> None:
        for i in ids:
            n = self.where.pop(i, None)
            if n is None:
                continue
            self.dead += 1
            if np is None:
                self.rows[n] = ()
                self.sessions[n] = ""
            else:
                self.codes[n] = -1
        if self.dead and self.dead >= COMPACT_SHARE * max(self.count, 1):
            self._compact()

    def _compact(self) -> None:
        alive = sorted(self.where.items(), key=lambda item: item[1])
        keep = [(i, self.sessions[n], n) for i, n in alive]
        old_rows, other = self.rows, self.other
        self.__init__(self.nbytes)  # type: ignore[misc]
        self.other = other
        if np is None:
            for i, s, n in keep:
                self.where[i] = len(self.ids)
                self.ids.append(i)
                self.sessions.append(s)
                self.rows.append(old_rows[n])
            self.count = len(self.ids)
            return
        self.add([(i, s, old_rows[n].tobytes()) for i, s, n in keep])

    def top(self, query: bytes, session_id: str | None, before_id: int, k: int) -> list[tuple[int, float]]:
        """The ``k`` best (id, cosine) of ``session_id``'s rows below ``before_id`` (None:
        every session's rows), best first."""
        if np is None:
            q = struct.unpack(f"<{self.dims}f", query)
            scored = (
                (_dot(q, row), i)
                for i, s, row in zip(self.ids, self.sessions, self.rows)
                if row and (session_id is None or (s == session_id and i < before_id))
            )
            return [(i, s) for s, i in heapq.nlargest(k, scored)]
        n = self.count
        q = np.frombuffer(query, dtype="<f4")
        if session_id is None:
            positions = np.flatnonzero(self.codes[:n] >= 0)
        else:
            code = self._codes.get(session_id)
            if code is None:
                return []
            positions = np.flatnonzero((self.codes[:n] == code) & (self.id_array[:n] < before_id))
        if not len(positions):
            return []
        # einsum, not `rows @ q`: the product goes to BLAS, whose threads (OpenBLAS starts
        # one per core) wait on one another when the cores are busy (a local model
        # generating, other apps): 18 ms for 5,000 rows on a loaded 2-core machine,
        # where einsum's own single-threaded loop takes 0.4 ms (12 ms for 100,000).
        first, last = int(positions[0]), int(positions[-1])
        if last - first + 1 == len(positions):  # one run of rows (a session's, as embedded)
            rows = self.rows[first : last + 1]  # a view: no copy of the rows scored
        else:
            rows = self.rows[positions]
        scores = np.einsum("ij,j->i", rows, q)
        best = np.argpartition(-scores, k - 1)[:k] if len(scores) > k else np.arange(len(scores))
        best = best[np.argsort(-scores[best], kind="stable")]
        ids = self.id_array[positions[best]]
        return list(zip(ids.tolist(), scores[best].tolist()))


class Vectors:
    """Every loaded model's matrix, over one connection (module docstring)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._matrices: dict[tuple[str, int], _Matrix] = {}
        self._logging = False
        self._version: int | None = None

    def top(
        self, model: str, query: bytes, session_id: str | None, before_id: int, k: int
    ) -> list[tuple[int, float]]:
        """The ``k`` message ids (and cosines) of ``model`` nearest ``query``, best first:
        ``session_id``'s messages older than ``before_id``, or (None) every session's."""
        matrix = self._current(model, len(query))
        return matrix.top(query, session_id, before_id, k)

    def __len__(self) -> int:
        return sum(len(m.where) for m in self._matrices.values())

    def _current(self, model: str, nbytes: int) -> _Matrix:
        conn = self._conn
        if not self._logging:
            db.log_vector_changes(conn)
            self._logging = True
        version = db.data_version(conn)
        changes = db.vector_changes(conn)
        matrix = self._matrices.get((model, nbytes))
        if matrix is None:
            return self._load(model, nbytes, version)
        if changes:
            added: dict[str, list[int]] = {}
            for kind, changed_model, row_id in changes:
                for m in self._for_model(changed_model):
                    m.remove([row_id])
                if kind == "insert":
                    added.setdefault(changed_model, []).append(row_id)
            for changed_model, ids in added.items():
                rows = db.vectors_by_ids(conn, changed_model, ids)
                for m in self._for_model(changed_model):
                    m.add(rows)
        if version != self._version:  # another connection committed: check, reload if moved
            self._version = version
            count, highest = db.vector_extent(conn, model)
            if count != len(matrix.where) + matrix.other or (
                matrix.where and highest != max(matrix.where)
            ):
                return self._load(model, nbytes, version)
        return matrix

    def _for_model(self, model: str) -> list[_Matrix]:
        return [m for (name, _), m in self._matrices.items() if name == model]

    def _load(self, model: str, nbytes: int, version: int) -> _Matrix:
        matrix = _Matrix(nbytes)
        matrix.add(db.all_vectors(self._conn, model))
        self._matrices[(model, nbytes)] = matrix
        self._version = version
        return matrix
