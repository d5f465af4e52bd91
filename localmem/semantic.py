"""The store's semantic side: which embedding model is in use, and vectors caught up.

:class:`Semantic` holds the embedder (the host's, or one of the local Ollama
server's: ``embedding_model``, by default ``"auto"``: a model the server already
has, found by one bounded question and never pulled), embeds the messages that
have no vector yet (``embed_pending``: in bulk, the model called without the
store's lock, never by a write), and embeds a query. ``Recall`` scores the
vectors (``localmem.vectors``).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from . import db
from .args import check_id, check_int
from .embeddings import (
    AUTO, AUTO_PROBE_TIMEOUT, Embedder, Found, OllamaEmbedder, Shown, find_model, pack,
)
from .errors import LocalMemError

if TYPE_CHECKING:  # what it is given: for the type checker only
    from .handle import Handle

logger = logging.getLogger("localmem")

EMBED_BATCH = 32
"""Texts per /api/embed call."""
EMBED_CATCH_UP = 512
"""With ``recall_scope="user"``, the most messages a context embeds first (the whole
file can wait: ``embed_pending()`` does it in bulk)."""
EMBED_RETRY_AFTER = 30.0
"""Seconds semantic recall stays off after the embedding model failed."""
AUTO_RECHECK = 300.0
"""Seconds ``auto`` keeps its answer (a model, or none) before asking again."""


class Semantic:
    """The embedder in use (``auto`` resolved), its failures, vectors caught up."""

    def __init__(self, handle: Handle, embedder: Embedder | None = None) -> None:
        self._db = handle
        self.embedder = embedder
        """The host's embedder, or the one made from ``embedding_model`` on first use."""
        self._embedder_down_until = 0.0
        self._auto: tuple[float, Found] | None = None  # (until, what auto found)
        self._shown: Shown = {}  # (model, digest) -> its capabilities: each shown once
        self._told: str | None | bool = False  # what the log was last told of auto
        self._caught_up: dict[tuple[str, str | None], int] = {}
        """(model, session or None) -> every message up to this id had a vector then."""

    def embedder_in_use(self) -> Embedder | None:
        """The embedder in use, or None: no model configured (or none found by
        ``auto``), offline mode, or it failed lately."""
        cfg = self._db.config
        if cfg.offline:
            return None  # the model is not called: recall is lexical
        if self.embedder is None and cfg.embedding_model:
            name = self.auto_model() if cfg.embedding_model == AUTO else cfg.embedding_model
            if name is None:
                return None
            from .summarizer.ollama_client import OllamaBackend

            backend = OllamaBackend(
                cfg.ollama_host, timeout=cfg.embedding_timeout, allow_remote=cfg.allow_remote_ollama
            )
            self.embedder = OllamaEmbedder(name, backend)
        if self.embedder is None or time.monotonic() < self._embedder_down_until:
            return None
        return self.embedder

    def may_embed(self) -> bool:
        """Whether a query may be embedded at all, without asking anything: False when
        offline, with no model configured, while ``auto`` knows the server has none,
        or while the model rests after a failure."""
        cfg = self._db.config
        if cfg.offline or (self.embedder is None and not cfg.embedding_model):
            return False
        if time.monotonic() < self._embedder_down_until:
            return False
        auto = self._auto
        return not (
            self.embedder is None and cfg.embedding_model == AUTO
            and auto is not None and auto[1].model is None and time.monotonic() < auto[0]
        )

    def auto_model(self) -> str | None:
        """With ``embedding_model="auto"``: the embedding model the local Ollama server
        already has (``embeddings.find_model``: its capabilities, else its name), or None;
        asked within ``AUTO_PROBE_TIMEOUT``, kept ``AUTO_RECHECK`` seconds, never pulled.
        Said once in the log each time the answer changes."""
        now = time.monotonic()
        if self._auto is not None and now < self._auto[0]:
            return self._auto[1].model
        from .summarizer.ollama_client import OllamaBackend, OllamaModelError, OllamaUnavailable

        cfg = self._db.config
        timeout = min(cfg.embedding_timeout, AUTO_PROBE_TIMEOUT)
        try:
            with OllamaBackend(
                cfg.ollama_host, timeout=timeout, allow_remote=cfg.allow_remote_ollama
            ) as backend:
                found = find_model(backend, timeout, self._shown)
                where = backend.host
        except (OllamaUnavailable, OllamaModelError) as exc:
            found, where = Found(None, f"the local Ollama server did not answer ({exc})"), ""
        self._auto = (time.monotonic() + AUTO_RECHECK, found)
        if found.model != self._told:
            self._told = found.model
            if found.model is None:
                logger.info("semantic recall: lexical, %s%s", found.how, f" ({where})" * bool(where))
            else:
                logger.info(
                    "semantic recall: %s (found on the local Ollama server: %s)", found.model, found.how
                )
        return found.model

    def _embedding_failed(self, exc: Exception) -> None:
        self._embedder_down_until = time.monotonic() + EMBED_RETRY_AFTER
        logger.info("semantic recall off for %.0fs: %s", EMBED_RETRY_AFTER, exc)

    def embed_pending(self, session_id: str | None = None, limit: int | None = None) -> int:
        """Embed the messages (of one session, or all) that have no vector of the
        configured model yet; return how many were stored.

        In batches: each batch is read under the store's lock, embedded with
        the lock released (a write never waits for the model), and stored in
        one transaction, skipping a message deleted or rewritten meanwhile.
        Returns 0 with no embedding model; stops early, without raising, when
        the model fails (semantic recall then stays off for a while).
        """
        if session_id is not None:
            check_id(session_id)
        most = None if limit is None else check_int("limit", limit)
        return self._embed(session_id, most, 0)

    def _embed(self, session_id: str | None, most: int | None, after: int) -> int:
        """``embed_pending`` from message id ``after`` on; when it ends caught up, the
        highest message id it knew of is remembered (``_caught_up``), so that the next
        context's catch-up reads only what is newer."""
        embedder = self.embedder_in_use()
        stored = 0
        if embedder is None:
            return 0
        with self._db.locked() as conn:
            highest = db.highest_message_id(conn)
        while most is None or stored < most:
            size = EMBED_BATCH if most is None else min(EMBED_BATCH, most - stored)
            with self._db.locked() as conn:
                rows = db.pending_messages(conn, session_id, embedder.model, after, size)
            if not rows:
                self._caught_up[(embedder.model, session_id)] = highest
                break
            after = rows[-1][0]
            try:
                vectors = embedder.embed_documents([text for _, _, text in rows])
                if len(vectors) != len(rows):
                    raise LocalMemError(f"{len(vectors)} vectors for {len(rows)} texts")
                packed = [(i, text, pack(v)) for (i, _, text), v in zip(rows, vectors)]
            except Exception as exc:  # noqa: BLE001 - a host's embedder may raise anything
                self._embedding_failed(exc)
                break
            with self._db.write() as conn:  # a session's contexts may rank anew: the cache goes
                stored += db.insert_embeddings(
                    conn, embedder.model, [(i, t, v) for i, t, v in packed if v], self._db.now()
                )
        return stored

    def query_vector(self, session_id: str, query: str) -> tuple[str, bytes] | None:
        """(model, the query's packed vector), with the session's vectors caught up
        first; None when no model answers. Call without the store's lock."""
        embedder = self.embedder_in_use()
        if embedder is None:
            return None
        scope = None if self._db.config.recall_scope == "user" else session_id
        most = EMBED_CATCH_UP if scope is None else None  # across sessions: the rest later
        self._embed(scope, most, self._caught_up.get((embedder.model, scope), 0))
        try:
            vector = pack(embedder.embed_query(query))
        except Exception as exc:  # noqa: BLE001 - a host's embedder may raise anything
            self._embedding_failed(exc)
            return None
        return None if vector is None else (embedder.model, vector)
