"""Summaries in the background: writes never wait on the local model.

With ``MemoryConfig(auto_summarize=True)`` the store tells a
:class:`BackgroundSummarizer` which session it wrote to; a single worker
thread summarizes every range that became due. ``notify`` only puts the
session id in a queue, so ``add_message`` returns in the time of its
insert even while the model hangs. The worker survives any failure (it logs
and goes on).

``close`` is bounded: the worker goes on with the queued sessions for at
most ``timeout`` seconds, then stops after the range it is on, and ``close``
returns (a hung model would otherwise hold it one full model timeout per
due range, and forever while another thread keeps writing). Nothing is
lost: what the worker did not store stays due, and the next write to the
session (in this process or another) queues it again.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from ..config import DEFAULT_CLOSE_TIMEOUT

logger = logging.getLogger("localmem")

_STOP = object()


class BackgroundSummarizer:
    """One worker thread running ``work(session_id)`` for each notified session.

    ``work`` should look at :attr:`stopping` between two ranges and return
    once it is set.
    """

    def __init__(self, work: Callable[[str], object]) -> None:
        self._work = work
        self._queue: queue.Queue[object] = queue.Queue()
        self._pending: set[str] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._stop = threading.Event()

    @property
    def stopping(self) -> bool:
        """True once :meth:`close` gave up waiting: finish the current range, start no other."""
        return self._stop.is_set()

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
            if item is _STOP or self._stop.is_set():
                return
            session_id = str(item)
            with self._lock:
                self._pending.discard(session_id)
            try:
                self._work(session_id)
            except Exception:  # noqa: BLE001 - the worker outlives any failure
                if self._stop.is_set():  # e.g. the store closed its file under a late write
                    logger.debug("background summary abandoned at close", exc_info=True)
                    return
                logger.exception("background summary of a session failed; the worker goes on")

    def close(self, timeout: float = DEFAULT_CLOSE_TIMEOUT) -> bool:
        """Let the worker go on with the queued sessions for at most ``timeout``
        seconds, then stop it after the range it is on; no new work is taken.

        Returns True when the worker has stopped, False when it was left to
        finish its model call on its own (a daemon thread; whatever it tries
        to write after the store closed is not written, and its range stays
        due). Idempotent.
        """
        with self._lock:
            thread = self._thread
            if self._closed:
                return thread is None or not thread.is_alive()
            self._closed = True
        if thread is not None:
            self._queue.put(_STOP)
            thread.join(timeout)
        self._stop.set()  # past the deadline: start no other range
        if thread is not None and thread.is_alive():
            logger.info(
                "background summaries still running after %.1f s; the ranges left stay due",
                timeout,
            )
            return False
        return True
