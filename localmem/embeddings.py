"""Embeddings for semantic recall: the policy, and vectors as stored.

An :class:`Embedder` turns texts into vectors. The default,
:class:`OllamaEmbedder`, asks the local Ollama server's embedding model
(``MemoryConfig.embedding_model``) through the summarizer's network boundary,
so it inherits its rules: loopback only, a bounded timeout, every failure one
of two errors. A host application with its own model passes any object with
the same two methods and a ``model`` name (``MemoryStore(embedder=...)``).

Vectors are stored normalized to unit length as float32 little-endian bytes
(``pack``), so a cosine is a dot product. ``similarities`` scores a query
against stored vectors with numpy when it is installed, else in plain Python
(a few milliseconds per thousand vectors of 384 dimensions).

Some models are trained with task prefixes: nomic-embed-text wants
``search_query:`` before a question and ``search_document:`` before a
passage; mxbai-embed-large an instruction before queries. ``PREFIXES`` holds
the known ones; any other model gets the texts as they are.
"""

from __future__ import annotations

import math
import struct
import time
from collections.abc import Iterable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Protocol

try:
    import numpy as np
except ImportError:  # pragma: no cover - the plain Python fallback
    np = None  # type: ignore[assignment]

from .summarizer.ollama_client import (
    OllamaBackend, OllamaModelError, OllamaUnavailable, tagged, waiting_at_most,
)

PREFIXES: dict[str, tuple[str, str]] = {
    "nomic-embed-text": ("search_query: ", "search_document: "),
    "mxbai-embed-large": ("Represent this sentence for searching relevant passages: ", ""),
    "snowflake-arctic-embed": ("Represent this sentence for searching relevant passages: ", ""),
}
"""Model family -> (query prefix, document prefix)."""
MAX_EMBED_CHARS = 8_000
"""Only the start of a longer text is embedded (embedding models read a few hundred tokens)."""


class Embedder(Protocol):
    """What semantic recall needs of an embedding model.

    ``model`` names the vectors it makes: stored vectors of another name are
    never compared with its own. Both methods raise
    :class:`~localmem.errors.LocalMemError` (any subclass) when they cannot
    answer; the store then recalls lexically.
    """

    model: str

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


AUTO = "auto"
"""``MemoryConfig.embedding_model``'s default: an embedding model the local Ollama
server already has, if any (``pick_model``); none is ever downloaded."""
EMBEDDING_FAMILIES = (
    "all-minilm", "nomic-embed-text", "mxbai-embed-large", "bge-m3", "bge-large",
    "snowflake-arctic-embed2", "snowflake-arctic-embed", "granite-embedding",
    "paraphrase-multilingual", "embeddinggemma", "qwen3-embedding",
)
"""Ollama's embedding model families, in the order ``auto`` prefers them (small and
fast first: a query waits for its embedding)."""


def pick_model(installed: Iterable[str]) -> str | None:
    """The installed model ``auto`` would use by names alone: the first of
    ``EMBEDDING_FAMILIES`` present (by family name, any tag, any namespace); None when
    none is."""
    by_name = candidates(installed)
    return by_name[0] if by_name and _known(by_name[0]) else None


def candidates(installed: Iterable[str]) -> list[str]:
    """The installed models in the order ``auto`` asks the server about them: the
    known embedding families first (``EMBEDDING_FAMILIES``' order), then names that
    say "embed", then the rest by name."""
    def rank(name: str) -> tuple[int, str]:
        family = _family(name)
        if family in EMBEDDING_FAMILIES:
            return EMBEDDING_FAMILIES.index(family), name
        return len(EMBEDDING_FAMILIES) + ("embed" not in family), name

    return sorted(installed, key=rank)


def _family(name: str) -> str:
    return model_family(name).rsplit("/", 1)[-1].casefold()


def _known(name: str) -> bool:
    return _family(name) in EMBEDDING_FAMILIES


AUTO_PROBE_TIMEOUT = 1.0
"""With ``embedding_model="auto"``, the most seconds the questions to the local server
(its installed models, what they can do) may take together."""
BY_CAPABILITIES = "/api/show says it embeds"
BY_NAME = "by its name: this Ollama does not report capabilities"
BY_NAME_LATE = "by its name: Ollama did not show its capabilities in time"


@dataclass(frozen=True, slots=True)
class Found:
    """What ``auto`` found on the local server: ``model`` (None: none), ``how`` it was
    told (``BY_CAPABILITIES``, ``BY_NAME``, ``BY_NAME_LATE``; for None, why not)."""

    model: str | None
    how: str


Shown = MutableMapping[tuple[str, str], "frozenset[str] | None"]
"""(model, digest) -> its capabilities as shown (None: not reported): kept between two
questions, so that a model is shown once."""


def find_model(backend: OllamaBackend, seconds: float, shown: Shown | None = None) -> Found:
    """The embedding model the local server already has, within ``seconds``.

    One ``/api/tags``, then ``/api/show`` for the installed models in ``candidates``
    order until one says ``"embedding"`` in its capabilities: a model with a known
    embedding name that says only ``"completion"`` is passed over, a model of any name
    that says ``"embedding"`` is taken. A server that reports no capabilities (before
    Ollama 0.6.4) is read by names alone (``pick_model``); so is one that does not
    answer in time. ``shown`` remembers what each (model, digest) said. Never pulls.
    Raises ``OllamaUnavailable`` / ``OllamaModelError`` when the listing fails.
    """
    deadline = time.monotonic() + seconds
    memo: Shown = {} if shown is None else shown
    listing = backend.model_digests()
    refuted: set[str] = set()
    for name in candidates(listing):
        key = (name, listing[name])
        if key not in memo:
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise OllamaUnavailable("out of time")
                with waiting_at_most(left):
                    memo[key] = backend.capabilities(name)
            except OllamaModelError:  # removed meanwhile, or an odd answer: not this one
                refuted.add(name)
                continue
            except OllamaUnavailable:
                late = next((n for n in candidates(listing) if _known(n) and n not in refuted), None)
                return Found(late, BY_NAME_LATE if late else "the local Ollama server did not answer")
        said = memo[key]
        if said is None:  # an older server: names alone
            named = pick_model(listing)
            return Found(named, BY_NAME if named else "no embedding model installed (by name)")
        if "embedding" in said:
            return Found(name, BY_CAPABILITIES)
        refuted.add(name)
    return Found(None, "no embedding model installed")


def model_family(model: str) -> str:
    """``"nomic-embed-text:v1.5"`` -> ``"nomic-embed-text"`` (a namespace is kept)."""
    return model.rsplit(":", 1)[0] if ":" in model.rsplit("/", 1)[-1] else model


class OllamaEmbedder:
    """Embeddings from the local Ollama server's ``model`` (``/api/embed``)."""

    def __init__(self, model: str, backend: OllamaBackend) -> None:
        self._name = model.strip()
        self.model = tagged(self._name)  # "all-minilm" and "all-minilm:latest" are one model
        self._backend = backend
        self._query_prefix, self._document_prefix = PREFIXES.get(
            model_family(self._name), ("", "")
        )

    def __repr__(self) -> str:
        return f"OllamaEmbedder({self._name!r})"

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        inputs = [self._document_prefix + t[:MAX_EMBED_CHARS] for t in texts]
        return self._backend.embed(self._name, inputs)

    def embed_query(self, text: str) -> list[float]:
        return self._backend.embed(self._name, [self._query_prefix + text[:MAX_EMBED_CHARS]])[0]


def pack(vector: Sequence[float]) -> bytes | None:
    """``vector`` at unit length as float32 bytes; None for a zero, empty or non-finite
    vector. The norm is the exact sum of the squares (``math.fsum``), each element
    divided by it in double precision, then rounded to float32: the same bytes with
    numpy as in plain Python (a query is packed on every semantic context: numpy's
    arithmetic takes a third of the time for 384 dimensions)."""
    if np is None:
        norm = math.sqrt(math.fsum(x * x for x in vector))
        if not vector or not math.isfinite(norm) or norm == 0:
            return None
        return struct.pack(f"<{len(vector)}f", *(x / norm for x in vector))
    values = np.asarray(vector, dtype=np.float64)
    if values.ndim != 1:
        raise ValueError(f"a vector has one dimension, not {values.ndim}")
    norm = math.sqrt(math.fsum((values * values).tolist()))
    if not len(values) or not math.isfinite(norm) or norm == 0:
        return None
    return (values / norm).astype("<f4").tobytes()


def unpack(blob: bytes) -> tuple[float, ...]:
    return struct.unpack(f"<{len(blob) // 4}f", blob)


def similarities(query: bytes, blobs: Sequence[bytes]) -> list[float]:
    """Cosine of the packed ``query`` with each packed vector of ``blobs``.

    A vector of another length than the query's scores -inf: it came from a
    model that changed under the same name, and is never compared.
    """
    if not blobs:
        return []
    same = [len(b) == len(query) for b in blobs]
    try:
        import numpy as np
    except ImportError:
        q = unpack(query)
        return [
            math.fsum(a * b for a, b in zip(q, unpack(blob))) if ok else -math.inf
            for blob, ok in zip(blobs, same)
        ]
    dims = len(query) // 4
    rows = [blob if ok else bytes(len(query)) for blob, ok in zip(blobs, same)]
    matrix = np.frombuffer(b"".join(rows), dtype="<f4").reshape(len(rows), dims)
    scores = (matrix @ np.frombuffer(query, dtype="<f4")).tolist()
    return [s if ok else -math.inf for s, ok in zip(scores, same)]
