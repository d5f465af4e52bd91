"""Summaries in the background: writes never wait on the local model.

With ``MemoryConfig(auto_summarize=True)`` the store tells a
:class:`BackgroundSummarizer` which session it wrote to; a single worker
thread summarizes every range that became due. ``notify`` only puts the
session id in a queue, so ``add_message`` returns in the time of its
insert even while the model hangs. The worker survives any failure (it logs
and goes on) and ``close`` lets it drain the queue before it stops.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

logger = logging.getLogger("localmem")

_STOP = object()


class BackgroundSummarizer:
    """One worker thread running ``work(session_id)`` for each notified session."""

    def __init__(self, work: Callable[[str], object]) -> None:
        self._work = work
        self._queue: queue.Queue[object] = queue.Queue()
        self._pending: set[str] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False

    def notify(self, session_id: str) -> None:
        """Ask for ``session_id`` to be summarized if it is due; returns at once."""
        with self._lock:
            if self._closed or session_id in self._pending:
                return
            self._pending.add(session_id)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="localmem-summarizer", daemon=True
                )
                self._thread.start()
        self._queue.put(session_id)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            session_id = str(item)
            with self._lock:
                self._pending.discard(session_id)
            try:
                self._work(session_id)
            except Exception:  # noqa: BLE001 - the worker outlives any failure
                logger.exception("background summary of a session failed; the worker goes on")

    def close(self) -> None:
        """Finish the queued work, then stop the worker. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            thread = self._thread
        if thread is not None:
            self._queue.put(_STOP)
            thread.join()
