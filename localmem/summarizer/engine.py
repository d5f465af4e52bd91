"""One summary of one span: pick the local model, ask it, check it, or fall back.

:class:`Summarizer` turns a span (``(role, text)`` pairs, or level-1 summary
texts for a rollup) into an :class:`Outcome`; it reads and writes no
database (the store does that) and never raises: every failure ends in a
deterministic summary whose ``source`` says which way it went.

- **Model choice**: the session's model if the local Ollama server has it,
  else the configured ``summary_model`` if that is local, else none. There is
  no cloud fallback: no local model, no call.
- **The call**: the strict prompt, temperature 0.1, ``num_predict`` 100, an
  explicit timeout, and ``num_ctx`` sized to the request within the model's
  context length (``/api/show``). A span that cannot fit is split in two and
  its halves' summaries rolled into one.
- **Truth checks**: Ollama answers 200 OK after cutting a prompt longer than
  ``num_ctx`` from the front; a reply whose ``prompt_eval_count`` shows the
  prompt filled the window is treated as invalid. Every output is validated
  (``validation.validate_summary``) before it may be stored.
- **Outcomes**: valid → ``source`` = the model's name; rejected output, HTTP
  error or no local model → keyword summary, ``source="fallback"``; connection
  refused, DNS failure or timeout → offline summary, ``source="offline"``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..tokens import Tokenizer
from .fallback import keyword_summary, offline_summary
from .ollama_client import (
    DEFAULT_NUM_PREDICT,
    DEFAULT_TEMPERATURE,
    OllamaBackend,
    OllamaModelError,
    OllamaUnavailable,
)
from .prompts import (
    build_rollup_messages,
    build_summary_messages,
    format_conversation,
    format_summaries,
)
from .validation import DEFAULT_MAX_SUMMARY_RATIO, validate_summary

logger = logging.getLogger("localmem")

FALLBACK = "fallback"
OFFLINE = "offline"
DEFAULT_MIN_NUM_CTX = 2048
DEFAULT_NUM_CTX_STEP = 256
# Room for the chat template's own tokens and for a tokenizer that counts a
# little more than cl100k does before we have learnt its ratio.
PROMPT_SAFETY = 1.15
TEMPLATE_TOKENS = 64

Pairs = Sequence[tuple[str, str]]
CacheLookup = Callable[[str], "str | None"]


@dataclass(frozen=True)
class Outcome:
    """A summary text and where it came from.

    ``local_tokens`` (cl100k count of the prompt sent) and ``model_tokens``
    (the server's ``prompt_eval_count``) are set when a model read the prompt
    in full: the store keeps their ratio per model. ``cache_key`` is set for
    a valid model output the store may cache; ``cached`` says it came from there.
    """

    text: str
    source: str
    model: str | None = None
    local_tokens: int | None = None
    model_tokens: int | None = None
    cache_key: str | None = None
    cached: bool = False
    reason: str | None = None

    @property
    def from_model(self) -> bool:
        return self.source not in (FALLBACK, OFFLINE)


class Summarizer:
    """Summaries of spans by the local model, with deterministic fallbacks."""

    def __init__(
        self,
        backend: OllamaBackend,
        tokenizer: Tokenizer,
        summary_model: str | None = None,
        *,
        num_predict: int = DEFAULT_NUM_PREDICT,
        temperature: float = DEFAULT_TEMPERATURE,
    ) -> None:
        self.backend = backend
        self.tokenizer = tokenizer
        self.summary_model = summary_model
        self.num_predict = num_predict
        self.temperature = temperature

    def choose_model(self, session_model: str | None) -> str | None:
        """The local model to use, or None. Raises ``OllamaUnavailable``/``OllamaModelError``."""
        for candidate in (session_model, self.summary_model):
            resolved = self.backend.resolve_model(candidate)
            if resolved is not None:
                return resolved
        return None

    def summarize(
        self,
        pairs: Pairs,
        session_model: str | None,
        *,
        ratio: float = 1.0,
        lookup: CacheLookup | None = None,
    ) -> Outcome:
        """A level-1 summary of ``pairs``. Never raises."""
        return self._run(_Span(pairs=tuple(pairs)), session_model, ratio, lookup)

    def rollup(
        self,
        texts: Sequence[str],
        session_model: str | None,
        *,
        ratio: float = 1.0,
        lookup: CacheLookup | None = None,
    ) -> Outcome:
        """A level-2 summary rolling ``texts`` (oldest first) into one. Never raises."""
        return self._run(_Span(texts=tuple(texts)), session_model, ratio, lookup)

    def _run(
        self, span: _Span, session_model: str | None, ratio: float, lookup: CacheLookup | None
    ) -> Outcome:
        try:
            model = self.choose_model(session_model)
        except OllamaUnavailable as exc:
            logger.info("no local model reachable (%s): offline summary", exc)
            return Outcome(offline_summary(span.as_pairs()), OFFLINE, reason=str(exc))
        except Exception as exc:  # noqa: BLE001 - a faulty server never reaches the host app
            logger.warning("Ollama could not list its models (%s): fallback summary", exc)
            return span.fallback(str(exc))
        if model is None:
            logger.info("no local model for %r: fallback summary", session_model)
            return span.fallback("no local model")
        try:
            return self._ask(span, model, ratio, lookup)
        except OllamaUnavailable as exc:
            logger.info("%s unreachable (%s): offline summary", model, exc)
            return Outcome(offline_summary(span.as_pairs()), OFFLINE, model, reason=str(exc))
        except Exception as exc:  # noqa: BLE001
            kind = "an HTTP error" if isinstance(exc, OllamaModelError) else type(exc).__name__
            logger.warning("%s failed with %s (%s): fallback summary", model, kind, exc)
            return span.fallback(str(exc), model)

    def _ask(self, span: _Span, model: str, ratio: float, lookup: CacheLookup | None) -> Outcome:
        messages = span.messages()
        key = cache_key(model, messages)
        if lookup is not None:
            hit = lookup(key)
            if hit is not None:
                return Outcome(hit, model, model, cache_key=key, cached=True)
        local_tokens = sum(self.tokenizer.count(m["content"]) for m in messages)
        needed = math.ceil(local_tokens * max(ratio, 1.0) * PROMPT_SAFETY) + TEMPLATE_TOKENS
        window = self.backend.context_length(model)
        if window is not None and needed + self.num_predict > window:
            if len(span) > 1:
                return self._split(span, model, ratio, lookup)
            return span.fallback(f"one item is larger than {model}'s context window", model)
        num_ctx = _round_up(max(needed + self.num_predict, DEFAULT_MIN_NUM_CTX), DEFAULT_NUM_CTX_STEP)
        if window is not None:
            num_ctx = min(num_ctx, window)
        result = self.backend.chat(
            model,
            messages,
            num_ctx=num_ctx,
            num_predict=self.num_predict,
            temperature=self.temperature,
            think=None,
        )
        used = result.prompt_eval_count
        if used is not None and used + self.num_predict >= num_ctx:
            reason = f"prompt cut by the server ({used} tokens read, num_ctx {num_ctx})"
            logger.warning("%s: %s; fallback summary", model, reason)
            return span.fallback(reason, model)
        text = result.text.strip()
        reason = validate_summary(text, span.conversation(), span.max_ratio)
        if reason is not None:
            logger.info("%s's summary rejected: %s; fallback summary", model, reason)
            return span.fallback(reason, model, local_tokens=local_tokens, model_tokens=used)
        return Outcome(text, model, model, local_tokens, used, cache_key=key)

    def _split(self, span: _Span, model: str, ratio: float, lookup: CacheLookup | None) -> Outcome:
        """Summarize each half, then roll the two summaries into one."""
        first, second = span.halves()
        parts = [self._ask(half, model, ratio, lookup) for half in (first, second)]
        if not all(part.from_model for part in parts):
            return span.fallback("a half of the split span fell back", model)
        return self._ask(_Span(texts=tuple(p.text for p in parts)), model, ratio, lookup)


@dataclass(frozen=True)
class _Span:
    """What one summary covers: conversation pairs, or summary texts for a rollup."""

    pairs: tuple[tuple[str, str], ...] = ()
    texts: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.pairs) if self.pairs else len(self.texts)

    def messages(self) -> list[dict[str, str]]:
        if self.pairs:
            return build_summary_messages(self.pairs)
        return build_rollup_messages(self.texts)

    @property
    def max_ratio(self) -> float | None:
        # Rolling three 300-character summaries into one is already a 3x cut.
        return DEFAULT_MAX_SUMMARY_RATIO if self.pairs else None

    def conversation(self) -> str:
        return format_conversation(self.pairs) if self.pairs else format_summaries(self.texts)

    def as_pairs(self) -> list[tuple[str, str]]:
        # A rollup's deterministic summary samples the summaries as if users said them.
        return list(self.pairs) if self.pairs else [("user", t) for t in self.texts]

    def halves(self) -> tuple[_Span, _Span]:
        mid = len(self) // 2
        if self.pairs:
            return _Span(pairs=self.pairs[:mid]), _Span(pairs=self.pairs[mid:])
        return _Span(texts=self.texts[:mid]), _Span(texts=self.texts[mid:])

    def fallback(self, reason: str, model: str | None = None, **tokens: int | None) -> Outcome:
        return Outcome(keyword_summary(self.as_pairs()), FALLBACK, model, reason=reason, **tokens)


def cache_key(model: str, messages: Sequence[dict[str, str]]) -> str:
    """Content hash of a request: the same span sent to the same model has the same key."""
    payload = json.dumps([model, list(messages)], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()


def _round_up(value: int, step: int) -> int:
    return -(-value // step) * step
