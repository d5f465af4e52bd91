"""Configuration: named defaults, the environment that overrides them, and
the one function that finds the per-user data directory.

``MemoryConfig`` is a pydantic model with ``extra="forbid"``: a misspelt
option is an error, not a silent no-op. Its defaults follow the product's
origin (8 recent messages, 5 pins, 3 summaries, a 3,000-token budget, a
summary every 15 messages, a 5-second context cache).
"""

from __future__ import annotations

import math
import os
from typing import Literal
from pathlib import Path

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .errors import InvalidInput

APP_NAME = "localmem"
DB_ENV_VAR = "LOCALMEM_DB"
DEFAULT_DB_FILENAME = "memory.db"

DEFAULT_CONTEXT_TOKEN_LIMIT = 3000
DEFAULT_RECENT_MESSAGES = 8
DEFAULT_TOP_PINS = 5
DEFAULT_RECENT_SUMMARIES = 3
DEFAULT_MIN_RECENT_MESSAGES = 3
DEFAULT_RELEVANT_MESSAGES = 200
DEFAULT_EMBEDDING_TIMEOUT = 15.0
DEFAULT_SUMMARY_THRESHOLD = 15
DEFAULT_CACHE_TTL = 5.0
DEFAULT_CACHE_SIZE = 256
DEFAULT_CACHE_BYTES = 32 * 1024 * 1024
DEFAULT_OLLAMA_TIMEOUT = 60.0
DEFAULT_CLOSE_TIMEOUT = 5.0
DEFAULT_ENCODING = "cl100k_base"
DEFAULT_BUSY_TIMEOUT = 30.0
DEFAULT_PIN_IMPORTANCE = 0.8
DEFAULT_AUTO_PIN_IMPORTANCE = 0.6
DEFAULT_CONTEXT_WINDOW = 8192
DEFAULT_CONTEXT_SHARE = 0.75
DEFAULT_STRUCTURED_MIN_TOKENS = 1000
DEFAULT_COMPACTION_AGES = (1.0, 7.0, 30.0)


class MemoryConfig(BaseModel):
    """Tunable behaviour of a :class:`~localmem.MemoryStore`.

    Every field has a safe desktop default; pass only what you change::

        MemoryConfig(context_token_limit=2000, summary_model="llama3.2")
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    context_token_limit: int = Field(DEFAULT_CONTEXT_TOKEN_LIMIT, ge=0)
    """Token budget of ``build_context`` when the call gives none."""
    recent_messages: int = Field(DEFAULT_RECENT_MESSAGES, ge=0)
    """How many of the newest messages the context may carry."""
    top_pins: int = Field(DEFAULT_TOP_PINS, ge=0)
    """How many pins, by importance, the context may carry; a query-aware context also
    considers the lasting ones beyond them (health, identity, constraints). 0: none."""
    recent_summaries: int = Field(DEFAULT_RECENT_SUMMARIES, ge=0)
    """How many of the newest summaries the context may carry."""
    min_recent_messages: int = Field(DEFAULT_MIN_RECENT_MESSAGES, ge=0)
    """The newest messages that take the budget first (clipped rather than dropped)."""
    summary_threshold: int = Field(DEFAULT_SUMMARY_THRESHOLD, ge=2)
    """Uncovered messages that make a session need a summary; also the size of one range."""
    cache_ttl: float = Field(DEFAULT_CACHE_TTL, ge=0, allow_inf_nan=False)
    """Seconds a built context is served from the cache (0 disables the cache)."""
    cache_size: int = Field(DEFAULT_CACHE_SIZE, ge=0)
    """Most contexts kept in the cache at once."""
    cache_bytes: int = Field(DEFAULT_CACHE_BYTES, ge=0)
    """Most bytes of text the cached contexts hold together; a larger context is not cached."""
    summary_model: str | None = None
    """A local Ollama model for summaries when the session's own model is not local."""
    auto_summarize: bool = False
    """Summarize in the background after writes, never blocking them."""
    close_timeout: float = Field(DEFAULT_CLOSE_TIMEOUT, ge=0, allow_inf_nan=False)
    """Seconds ``close()`` lets background summaries go on; the ranges not summarized by
    then stay due."""
    ollama_timeout: float = Field(DEFAULT_OLLAMA_TIMEOUT, gt=0, allow_inf_nan=False)
    """Seconds one summary-sized call to the local model may take; a bigger request (a
    checkpoint: more to read, 512 tokens to write) gets proportionally more, at most 10x
    (``ollama_client.scaled_timeout``). Never unbounded."""
    offline: bool = False
    """Never call the local model: summaries are the deterministic ones (source
    ``offline``, redone by ``resummarize`` later), checkpoints and facts the rules',
    recall lexical (no embeddings)."""
    ollama_host: str | None = None
    """The Ollama server; None reads ``OLLAMA_HOST`` like the ollama client does."""
    allow_remote_ollama: bool = False
    """Allow an Ollama host that is not on the loopback (a conversation then leaves the machine)."""
    relevant_messages: int = Field(DEFAULT_RELEVANT_MESSAGES, ge=0)
    """Most older messages a query-aware context may carry (0 turns the section off);
    they take whatever budget the other sections leave."""
    embedding_model: str | None = "auto"
    """A local Ollama embedding model (``all-minilm``, ``nomic-embed-text``...) for
    semantic recall, fused with the lexical ranking; ``"auto"`` (the default): one the
    local server already has, if any, else lexical (never a download, never a wait at
    write time; the server is asked once, briefly, and again after a few minutes);
    None: lexical recall only."""
    embedding_timeout: float = Field(DEFAULT_EMBEDDING_TIMEOUT, gt=0, allow_inf_nan=False)
    """Seconds one call to the embedding model may take (a context with a query waits
    for it: a hung server costs this once, then semantic recall rests a while)."""
    auto_query: bool = False
    """Without a ``query``, ``build_context`` uses the newest user message among the
    recent messages as its query, adding the older messages relevant to it."""
    context_window: int = Field(DEFAULT_CONTEXT_WINDOW, gt=0)
    """The session model's context window (tokens) when the local Ollama server cannot
    say (``/api/show``): the window-share compaction trigger measures against it."""
    context_share: float = Field(DEFAULT_CONTEXT_SHARE, gt=0, le=1, allow_inf_nan=False)
    """Compact once the messages no summary covers fill this share of the model's window
    (besides every ``summary_threshold`` messages)."""
    structured_min_tokens: int = Field(DEFAULT_STRUCTURED_MIN_TOKENS, ge=0)
    """A compaction asks the local model for structured JSON (the checkpoint, a summary's
    facts) only when at least this many new tokens are at stake (origin 004's minimum
    delta); below that, and whenever the model fails, deterministic extraction alone."""
    facts_apart: bool = False
    """Ask the local model for a span's facts whenever it read the span and answered,
    its summary kept or rejected (each fact is judged on its own); off, only beside a
    summary of its that was kept. Off by default: on the recorded real-model answers
    it keeps about twice the true facts, and more false ones (benchmarks/results/real_models.md)."""
    model_trust: Literal["earned", "checked"] = "earned"
    """Whether what the local model wrote and the checks passed reaches the context at
    once, or only once the model has earned it on this file, for each kind of answer apart
    (``localmem.trust``, ``localmem.verdicts``: at least 3 earlier answers of that kind
    here, and the checks kept at least 8 of its last 10 whole).
    ``"earned"`` (the default): until then a summary is the store's own summary of the
    range (``Summary.source`` ``fallback``); the checkpoint is the rules' (the model's items
    are not added: ``Checkpoint.source`` ``rules``); the span's facts are the rules' and no
    fact or update of the model's is pinned. Each answer is still judged and counts toward
    the model's record. ``"checked"``: every summary, item and fact that passes the
    checks is stored as the model's. Small models rarely earn it: on the recorded
    real-model answers none earns any kind, on one file of 84 conversations or on any set
    (benchmarks/results/real_models.md, benchmarks/file_trust.py)."""
    auto_pins: bool = True
    """Pin the facts a user states that must never be lost (allergies, names, dates,
    "remember that ...", constraints) as ``auto`` pins: by phrase rules over each new
    user message, and by the local model when it writes a summary's facts."""
    user_auto_pins: bool = True
    """Automatic pins of lasting personal facts (health, names and relations, stable
    constraints) are the user's, shown in every session; False keeps each in the
    session it was said in."""
    recall_scope: Literal["session", "user"] = "session"
    """Where a query-aware context looks for older messages: its own session, or
    ("user") every session of the file, each item marked with its session's title
    and date. Off by default: sessions stay private from each other."""
    auto_pin_importance: float = Field(DEFAULT_AUTO_PIN_IMPORTANCE, ge=0, le=1, allow_inf_nan=False)
    """Importance of an auto pin; below manual pins' default (0.8), so they show first."""
    compaction_ages: tuple[float, float, float] = DEFAULT_COMPACTION_AGES
    """Days a session must be idle before ``maintain`` compacts it at level 1, 2 and 3
    (light, heavy, archival; origin 000's 1, 7 and 30 days), increasing."""
    encoding: str = DEFAULT_ENCODING
    """tiktoken encoding used to count tokens. localmem ships ``cl100k_base``; any other
    counts by the estimate (tiktoken would download it, and localmem never does)."""
    busy_timeout: float = Field(DEFAULT_BUSY_TIMEOUT, gt=0, allow_inf_nan=False)
    """Seconds a write waits for another process's write to finish."""
    synchronous: str = Field("NORMAL", pattern="^(OFF|NORMAL|FULL|EXTRA)$")
    """SQLite ``synchronous`` pragma: NORMAL survives an app crash; FULL also a power cut."""

    @field_validator("compaction_ages")
    @classmethod
    def _increasing(cls, ages: tuple[float, float, float]) -> tuple[float, float, float]:
        if not all(math.isfinite(a) and a >= 0 for a in ages) or list(ages) != sorted(set(ages)):
            raise ValueError("must be three increasing, finite numbers of days, at least 0")
        return ages


def make_config(config: MemoryConfig | dict | None) -> MemoryConfig:
    """Coerce ``None``, a dict or a ``MemoryConfig`` into a ``MemoryConfig``.

    Raises :class:`InvalidInput` for unknown keys or out-of-range values.
    """
    if config is None:
        return MemoryConfig()
    if isinstance(config, MemoryConfig):
        return config
    if isinstance(config, dict):
        try:
            return MemoryConfig(**config)
        except ValidationError as exc:
            raise InvalidInput(f"invalid configuration: {_first_error(exc)}") from None
    raise InvalidInput(f"config must be a MemoryConfig or a dict, not {type(config).__name__}")


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(part) for part in err["loc"]) or "value"
    return f"{where}: {err['msg']}"


def user_data_dir() -> Path:
    """The per-user directory localmem keeps its default database in."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_db_path() -> Path:
    """``$LOCALMEM_DB`` if set, else ``user_data_dir()/memory.db``."""
    env = os.environ.get(DB_ENV_VAR)
    if env:
        return Path(env).expanduser()
    return user_data_dir() / DEFAULT_DB_FILENAME
