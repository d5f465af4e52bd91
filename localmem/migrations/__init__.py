"""The schema, as named, append-only migrations applied when a file is opened.

:data:`MIGRATIONS` lists them in order; their statements are in the modules named by
their numbers (``m001_m003``, ``m004_m011``, ``m012``, ``m013_truth``, ``m014_sources``, ``m015_verdicts``, ``m016_scope_index``, ``m017_verdict_kinds``, ``m018_pin_endings``; the next ones in a module of their own).

``PRAGMA user_version`` holds how many migrations a file has; opening an
older file applies the missing ones in one transaction. Never edit a
migration that has shipped: add the next one, with a comment saying why.
``schema.sql`` at the top of the repository is the schema of a fresh file,
and a test fails the moment it and these migrations drift apart.

``PRAGMA application_id`` marks a file as localmem's, so another
application's SQLite file is recognised and left untouched.
"""

from __future__ import annotations

from .m001_m003 import (
    M001_INITIAL,
    M002_SUMMARIZER,
    M003_ITEMS,
)
from .m004_m011 import (
    M004_SEARCH,
    M005_SESSION_STATE,
    M006_COMPACTION,
    M007_VIEWS,
    M008_AUTO_PINS,
    M009_EMBEDDINGS,
    M010_SCOPES,
    M011_MESSAGE_IDS,
    SESSION_KEY_EXPR,
    USER_PINS_KEY_EXPR,
)
from .m012 import _m012_index
from .m013_truth import M013_TRUTH
from .m014_sources import M014_SOURCES
from .m015_verdicts import M015_VERDICTS
from .m016_scope_index import M016_SCOPE_INDEX
from .m017_verdict_kinds import M017_VERDICT_KINDS
from .m018_pin_endings import M018_PIN_ENDINGS

M012_SEARCH_AT_COMMIT = (
    *_m012_index("messages", "text", SESSION_KEY_EXPR),
    *_m012_index("summaries", "text", SESSION_KEY_EXPR),
    *_m012_index("semantic_pins", "content", USER_PINS_KEY_EXPR),
    *_m012_index("summary_facts", "text", SESSION_KEY_EXPR),
    "DROP TABLE search_state",
)

APPLICATION_ID = 0x4C4D454D  # "LMEM"

MIGRATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("m001_initial", M001_INITIAL),
    ("m002_summarizer", M002_SUMMARIZER),
    ("m003_items", M003_ITEMS),
    ("m004_search", M004_SEARCH),
    ("m005_session_state", M005_SESSION_STATE),
    ("m006_compaction", M006_COMPACTION),
    ("m007_views", M007_VIEWS),
    # Automatic pins, de-duplicated per session by content_key (see M008_AUTO_PINS).
    ("m008_auto_pins", M008_AUTO_PINS),
    ("m009_embeddings", M009_EMBEDDINGS),
    ("m010_scopes", M010_SCOPES),
    # Message ids never handed out twice (see M011_MESSAGE_IDS).
    ("m011_message_ids", M011_MESSAGE_IDS),
    # Search indexes current at commit, declared for sqlite-utils and Datasette.
    ("m012_search_at_commit", M012_SEARCH_AT_COMMIT),
    # Forgets are final; facts keep every source, removed ones stay removed (see m013_truth).
    ("m013_truth", M013_TRUTH),
    # Each line of a checkpoint and of a summary's facts names its messages (see m014_sources).
    ("m014_sources", M014_SOURCES),
    # Each model answer's verdict: a model's summaries shown once it earned it (see m015_verdicts).
    ("m015_verdicts", M015_VERDICTS),
    # A session's statistics read from its index alone (see m016_scope_index).
    ("m016_scope_index", M016_SCOPE_INDEX),
    # A model earns trust per kind: summary, checkpoint, facts (see m017_verdict_kinds).
    ("m017_verdict_kinds", M017_VERDICT_KINDS),
    # An update built from several messages is ended by each of them (see m018_pin_endings).
    ("m018_pin_endings", M018_PIN_ENDINGS),
)
SCHEMA_VERSION = len(MIGRATIONS)

__all__ = [
    "APPLICATION_ID",
    "M001_INITIAL",
    "M002_SUMMARIZER",
    "M003_ITEMS",
    "M004_SEARCH",
    "M005_SESSION_STATE",
    "M006_COMPACTION",
    "M007_VIEWS",
    "M008_AUTO_PINS",
    "M009_EMBEDDINGS",
    "M010_SCOPES",
    "M011_MESSAGE_IDS",
    "M012_SEARCH_AT_COMMIT",
    "M013_TRUTH",
    "M014_SOURCES",
    "M015_VERDICTS",
    "M016_SCOPE_INDEX",
    "M017_VERDICT_KINDS",
    "M018_PIN_ENDINGS",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "SESSION_KEY_EXPR",
    "USER_PINS_KEY_EXPR",
]
