"""``localmem doctor``: is this file sound, and is everything around it there?

:func:`run_checks` asks a store and the local Ollama server a few questions
and returns one :class:`~localmem.reports.Check` per question, in order:

- ``file``: SQLite's ``quick_check`` and ``foreign_key_check`` find nothing;
- ``schema``: the file is at this localmem's schema version;
- ``tokenizer``: the exact token counter loaded offline (not the estimate);
- ``search``: each searched table's full-text index is found the way
  sqlite-utils and Datasette find it (sqlite-utils' own ``detect_fts``, on a
  read-only connection), holds every row of its table, and holds them under
  their sessions' key tokens (another tool's 'rebuild' would not);
- ``ollama``: the configured local server answers (loopback only unless
  ``allow_remote_ollama``: the store's own backend refuses anything else
  without sending a byte);
- ``models``: which models it has, and whether ``summary_model`` is one;
- ``semantic recall``: the embedding model recall uses (``auto``: one installed, told
  by what ``/api/show`` says it can do, or by its name on an older Ollama), or that
  recall is lexical and why;
- ``context window`` (with a session): the session model's window, from the
  server's ``/api/show``, or the configured fallback, saying why;
- ``model trust``: each model's record on this file per kind (its summaries,
  checkpoints and facts the checks kept whole) and whether it has earned trust for
  each (``model_trust="earned"``: only then is what it writes of that kind stored as
  its own); never a failure (a record is not a fault).

A failing or absent server is a failed check, never an exception: the only
errors raised are about the arguments (an unknown session) and the file. A
check that failed only because no local model is there (no server, none
installed, ``MemoryConfig.offline``) is marked ``offline``: localmem works
without one, so :func:`verdict` tells that apart from something broken.
Nothing is written; the server is asked through the store's
:class:`~localmem.summarizer.OllamaBackend` (its caches), each request waiting
at most :data:`PROBE_TIMEOUT` seconds, not the store's model timeout: a hung
server (it takes the connection and never answers) is reported as such within
seconds, and is broken, not offline.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

import sqlite_utils

from .args import check_id
from .db.fulltext import SEARCH_TABLES, keyed
from .embeddings import AUTO, AUTO_PROBE_TIMEOUT, find_model
from .migrations import SCHEMA_VERSION
from .reports import Check
from .summarizer.ollama_client import OllamaModelError, OllamaTimeout, OllamaUnavailable, waiting_at_most

if TYPE_CHECKING:
    from .store import MemoryStore
    from .summarizer import OllamaBackend

MAX_LISTED_MODELS = 20
PROBE_TIMEOUT = 3.0
"""Seconds each request of the checks may wait for the server: a server on this machine
lists its models and shows one in milliseconds, loaded model or not."""
OK, BROKEN, OFFLINE = 0, 1, 3
"""``localmem doctor``'s exit codes: all good; something is broken; no local model
(fine: summaries are made offline)."""


def verdict(checks: list[Check]) -> int:
    """:data:`OK`, :data:`BROKEN` (a check failed for another reason than no local
    model) or :data:`OFFLINE` (only the local model is missing)."""
    failed = [c for c in checks if not c.ok]
    if not failed:
        return OK
    return OFFLINE if all(c.offline for c in failed) else BROKEN


def run_checks(store: MemoryStore, session_id: str | None = None) -> list[Check]:
    """Every check, in order; with ``session_id``, the session model's window too.

    Raises :class:`~localmem.errors.SessionNotFound` (before asking anything)
    for an unknown session, :class:`~localmem.errors.DatabaseError` if the
    file cannot be read at all. Read-only.
    """
    session = None if session_id is None else store.get_session(check_id(session_id))
    checks = [check_file(store), check_schema(store), check_tokenizer(store), check_search(store)]
    backend = store.ollama_backend
    with waiting_at_most(PROBE_TIMEOUT):
        reachable, models = _ask_models(backend, store.config.ollama_timeout)
        checks.append(reachable)
        checks.append(check_models(store, backend, models))
        checks.append(check_semantic(store, backend, models))
        if session is not None:
            checks.append(check_window(store, session.id, session.model, backend, reachable))
    checks.append(check_trust(store))
    return checks


def check_trust(store: MemoryStore) -> Check:
    """Each model's record on this file per kind of answer (summaries, checkpoints, facts),
    and whether what it writes of that kind is stored as its own."""
    records = store.model_trust()
    if store.config.model_trust == "checked":
        policy = "model_trust=checked: every summary, checkpoint item and fact that passes the checks is the model's"
    else:
        policy = ("model_trust=earned: a model's summaries, checkpoint items and facts are its own "
                  "once it has earned trust for each here")
    if not records:
        return Check(name="model trust", ok=True, detail=f"no model has answered here yet; {policy}")
    lines = [
        f"{r.model} {r.kind}: {r.whole} of {r.answered} answers kept whole (last {r.recent}: {r.recent_whole}), "
        + ("earned" if r.earned else "not earned")
        for r in records
    ]
    return Check(name="model trust", ok=True, detail="; ".join(lines) + f"; {policy}")


def check_file(store: MemoryStore) -> Check:
    problems = store.check_file()
    if problems:
        shown = "; ".join(problems[:5]) + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else "")
        return Check(name="file", ok=False, detail=f"{store.path}: {shown}")
    return Check(name="file", ok=True, detail=f"{store.path}: quick_check and foreign keys ok")


def check_schema(store: MemoryStore) -> Check:
    version = store.stats().schema_version
    ok = version == SCHEMA_VERSION
    detail = f"schema version {version}" + ("" if ok else f", expected {SCHEMA_VERSION}")
    return Check(name="schema", ok=ok, detail=detail)


def check_tokenizer(store: MemoryStore) -> Check:
    if store.tokenizer.exact:
        return Check(name="tokenizer", ok=True, detail=f"{store.tokenizer_name}, loaded offline")
    return Check(
        name="tokenizer",
        ok=False,
        detail=f"encoding {store.tokenizer.encoding!r} did not load: counting by {store.tokenizer_name}",
    )


def check_search(store: MemoryStore) -> Check:
    """Whether outside tools see each search index, and whether it is complete."""
    if not Path(store.path).is_file():
        return Check(name="search", ok=True, detail="in-memory store: no file for other tools")
    uri = Path(store.path).resolve().as_uri() + "?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True)) as conn:
        tools = sqlite_utils.Database(conn)
        problems = []
        for table in SEARCH_TABLES:
            index = tools[table].detect_fts()
            if index is None:
                problems.append(f"{table} has no index sqlite-utils or Datasette can find")
            elif tools[f"{index}_docsize"].count != tools[table].count:
                problems.append(f"{index} does not hold every row of {table}")
            elif not keyed(conn, table):
                problems.append(f"{index} was rebuilt without its session keys: run localmem vacuum")
    if problems:
        return Check(name="search", ok=False, detail="; ".join(problems))
    return Check(
        name="search",
        ok=True,
        detail="current; sqlite-utils search and Datasette's _search see " + ", ".join(SEARCH_TABLES),
    )


def _ask_models(backend: OllamaBackend, model_timeout: float) -> tuple[Check, frozenset[str] | None]:
    """The ``ollama`` check and the installed models (None when the server did not say)."""
    try:
        models = backend.local_models()
    except OllamaTimeout:
        detail = (
            f"{backend.host} took the connection but did not answer within "
            f"{min(PROBE_TIMEOUT, backend.timeout):g} s: the server is hung (or overloaded); "
            f"each model call waits up to {model_timeout:g} s for it before falling back. "
            "Restart Ollama, or pass --offline"
        )
        return Check(name="ollama", ok=False, detail=detail), None
    except OllamaUnavailable as exc:
        return Check(name="ollama", ok=False, detail=f"{backend.host}: {exc}", offline=True), None
    except OllamaModelError as exc:
        return Check(name="ollama", ok=False, detail=f"{backend.host}: {exc}"), None
    return Check(name="ollama", ok=True, detail=f"{backend.host} answers"), models


def check_models(
    store: MemoryStore, backend: OllamaBackend, models: frozenset[str] | None
) -> Check:
    if models is None:
        return Check(
            name="models", ok=False, detail="unknown: the Ollama server did not answer", offline=True
        )
    if not models:
        return Check(
            name="models",
            ok=False,
            detail="no model installed: summaries fall back to keywords",
            offline=True,
        )
    names = sorted(models)
    listed = ", ".join(names[:MAX_LISTED_MODELS]) + (" ..." if len(names) > MAX_LISTED_MODELS else "")
    wanted = store.config.summary_model
    if wanted is not None and _installed(backend, wanted) is None:
        return Check(name="models", ok=False, detail=f"{listed}; summary_model {wanted!r} is not one of them")
    return Check(name="models", ok=True, detail=listed)


def check_window(
    store: MemoryStore, session_id: str, model: str | None, backend: OllamaBackend, reachable: Check
) -> Check:
    """The window ``context_usage`` measures the session against, and where it comes from."""
    usage = store.context_usage(session_id)
    window = usage["context_window"]
    if usage["window_source"] == "ollama":
        return Check(name="context window", ok=True, detail=f"{model}: {window} tokens (Ollama /api/show)")
    if model is None:
        why = "the session has no model"
    elif not reachable.ok:
        why = f"{model}: the Ollama server did not answer"
    elif _installed(backend, model) is None:
        why = f"{model} is not installed locally"
    else:
        why = f"{model}: Ollama does not report its context length"
    return Check(
        name="context window",
        ok=False,
        detail=f"{why}; using MemoryConfig.context_window, {window} tokens",
        offline=reachable.ok or reachable.offline,  # a fallback that works, unless the server is faulty
    )


def check_semantic(
    store: MemoryStore, backend: OllamaBackend, models: frozenset[str] | None
) -> Check:
    """Which embedding model semantic recall uses, or that recall is lexical and why.
    ``auto`` with no embedding model installed is fine (lexical); a configured model
    that is not installed is not."""
    cfg = store.config
    wanted = cfg.embedding_model
    if cfg.offline or wanted is None:
        why = "offline mode" if cfg.offline else "embedding_model=None"
        return Check(name="semantic recall", ok=True, detail=f"lexical ({why})")
    if models is None:
        return Check(
            name="semantic recall", ok=wanted == AUTO, offline=True,
            detail="lexical: the Ollama server did not answer",
        )
    if wanted == AUTO:  # what the store finds: the same question, the same time
        try:
            found = find_model(backend, AUTO_PROBE_TIMEOUT)
        except (OllamaUnavailable, OllamaModelError) as exc:
            return Check(
                name="semantic recall", ok=True, offline=True, detail=f"lexical: {exc}"
            )
        if found.model is None:
            return Check(
                name="semantic recall", ok=True,
                detail=f"lexical: {found.how} (auto never downloads one;"
                " `ollama pull all-minilm` adds one)",
            )
        return Check(name="semantic recall", ok=True, detail=f"auto: {found.model} ({found.how})")
    installed = _installed(backend, wanted)
    if installed is None:
        return Check(
            name="semantic recall", ok=False, offline=True,
            detail=f"lexical: embedding_model {wanted!r} is not installed",
        )
    return Check(name="semantic recall", ok=True, detail=installed)


def _installed(backend: OllamaBackend, model: str) -> str | None:
    try:
        return backend.resolve_model(model)
    except (OllamaUnavailable, OllamaModelError):
        return None
