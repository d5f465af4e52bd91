"""What the store knows of the local model: :class:`LocalModel`.

The summarizer (``localmem.summarizer``, made on first use from the
configuration), the token ratios learnt from the local server's counts (per
model, and per session, memoized), the summary cache a call may be answered
from, and the model's context window with the window-share compaction trigger
(:meth:`LocalModel.window_span`). Summaries, checkpoints, the session state's
``context_usage`` and contexts ask it; it asks nothing of them.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import db
from .errors import SessionNotFound
from .models import Session
# From the modules that define them (the package's __init__ lists them for callers outside).
from .summarizer.engine import Summarizer
from .summarizer.ollama_client import OllamaBackend
from .tokens import bounded_ratio

if TYPE_CHECKING:  # what it is given: for the type checker only
    from .handle import Handle

logger = logging.getLogger("localmem")

OFFLINE_MODE = "offline mode (MemoryConfig.offline): the local model is not called"
MIN_WINDOW = 2048
"""No local model has a smaller window: below its share, the trigger asks no server."""


class LocalModel:
    """The summarizer, the token ratios, the summary cache and the window of one store."""

    def __init__(self, handle: Handle, summarizer: Summarizer | None = None) -> None:
        self._db = handle
        self._summarizer = summarizer

    def summarizer(self) -> Summarizer:
        """The summarizer in use: the one given, else one made now from the configuration."""
        if self._summarizer is None:
            cfg = self._db.config
            backend = OllamaBackend(
                cfg.ollama_host,
                timeout=cfg.ollama_timeout,
                allow_remote=cfg.allow_remote_ollama,
                disabled=OFFLINE_MODE if cfg.offline else None,
            )
            self._summarizer = Summarizer(backend, self._db.tokenizer, cfg.summary_model)
        return self._summarizer

    def close(self) -> None:
        """Close the summarizer's connections, if a summarizer was made or given."""
        if self._summarizer is not None:
            self._summarizer.backend.close()

    def let_go(self) -> None:
        """Forget the summarizer without closing it: another store owns it."""
        self._summarizer = None

    def cached_summary(self, key: str) -> str | None:
        with self._db.locked() as conn:
            return db.cached_summary(conn, key)

    def model_ratio(self, model: str | None) -> float:
        if model is None:
            return 1.0
        with self._db.locked() as conn:
            return bounded_ratio(db.model_ratio(conn, model))

    def session_ratio(self, session_id: str, stamp: int) -> float:
        """The session model's token ratio (1.0 until measured); SessionNotFound if none.

        Read with the session's compaction level (``memo.levels``) and
        memoized until another connection commits (``stamp``) or this store
        deletes the session, writes to a compacted one or learns a new ratio.
        Call with the lock held.
        """
        memo = self._db.memo
        memo.sync(stamp)
        ratio = memo.ratios.get(session_id)
        if ratio is None:
            exists, measured, level = db.session_profile(self._db.conn, session_id)
            if not exists:
                raise SessionNotFound(session_id)
            ratio = memo.ratios[session_id] = bounded_ratio(measured)
            if level:
                memo.levels[session_id] = level
        return ratio

    def window(self, session: Session) -> tuple[int, str]:
        """The session model's context window and where it comes from (``ollama``, ``config``)."""
        window = self.summarizer().session_window(session.model)
        return (window, "ollama") if window else (self._db.config.context_window, "config")

    def window_span(self, session: Session, uncovered: Sequence[Any]) -> list[Any]:
        """The range the window-share trigger cuts from ``uncovered`` (all the messages
        no summary covers, fewer than ``summary_threshold``), or [] if not due.

        Due when they fill ``context_share`` of the window; the newest
        ``min_recent_messages`` are never in the range.
        """
        cfg = self._db.config
        keep = cfg.min_recent_messages
        if len(uncovered) <= keep:
            return []
        with self._db.locked() as conn:
            ratio = self.session_ratio(session.id, db.data_version(conn))
        used = sum(m.token_count for m in uncovered) * ratio
        share = cfg.context_share
        if used < share * min(MIN_WINDOW, cfg.context_window):
            return []  # far below any window: no need to ask the server
        window, source = self.window(session)
        if used < share * window:
            return []
        logger.info(
            "session %s: %d uncovered tokens fill %.0f%% of the %s window (%d): compacting",
            session.id, used, 100 * used / window, source, window,
        )
        return list(uncovered[: len(uncovered) - keep])
