"""What a call to the local model came to: a summary and where it came from, or a
structured answer (records: the summarizer makes them, the store keeps what they say).

A summary's ``source`` is the model's name when the model wrote it, else
:data:`FALLBACK` (the model answered badly, or there is no local model: the
keyword summary) or :data:`OFFLINE` (the server could not be reached: the
offline summary).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel

FALLBACK = "fallback"
OFFLINE = "offline"
M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class JsonOutcome(Generic[M]):
    """A structured answer: ``data`` (validated) from ``model``, or None and the ``reason``."""

    data: M | None
    model: str | None = None
    reason: str | None = None


@dataclass(frozen=True)
class Outcome:
    """A summary text and where it came from.

    ``local_tokens`` (cl100k count of the prompt sent) and ``model_tokens``
    (the server's ``prompt_eval_count``) are set when a model read the prompt
    in full: the store keeps their ratio per model. ``cache_key`` is set for
    a valid model output the store may cache; ``cached`` says it came from there.
    ``dropped`` counts the sentences of the model's answer the checks dropped as
    unsupported (``support.ground``) before keeping the rest (0 for a rollup, which is
    not grounded, and for a summary the checks rejected whole: its source says so).
    """

    text: str
    source: str
    model: str | None = None
    local_tokens: int | None = None
    model_tokens: int | None = None
    cache_key: str | None = None
    cached: bool = False
    reason: str | None = None
    dropped: int = 0

    @property
    def from_model(self) -> bool:
        return self.source not in (FALLBACK, OFFLINE)

    @property
    def answered(self) -> bool:
        """The model read this prompt in full just now and answered, whatever became of
        its summary (kept, or judged and rejected: a ``fallback`` that carries the
        model's token counts). False with no model, an unreachable server, an HTTP
        error, a prompt the server cut or one too large for the window, and for a
        summary from the cache (no call was made)."""
        return self.model is not None and self.local_tokens is not None and not self.cached

    @property
    def kept_whole(self) -> bool:
        """The checks kept the model's summary with none of its sentences dropped: the
        model wrote it (``from_model``) and ``dropped`` is 0. A summary cut to its whole
        sentences for length, or completed with the span's safety-relevant facts, is
        kept whole: the checks found nothing in it unsupported."""
        return self.from_model and self.dropped == 0
