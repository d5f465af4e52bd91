"""One summary of one span: pick the local model, ask it, check it, or fall back.

:class:`Summarizer` turns a span (``(role, text)`` pairs, or level-1 summary
texts for a rollup) into an :class:`Outcome`; it reads and writes no
database (the store does that) and never raises: every failure ends in a
deterministic summary whose ``source`` says which way it went.

- **Model choice**: the session's model if the local Ollama server has it,
  else the configured ``summary_model`` if that is local, else none. There is
  no cloud fallback: no local model, no call.
- **The call**: the strict prompt asking for what validation accepts (at most
  ``summary_limit`` characters, as words), temperature 0.1, ``num_predict``
  with room for that many characters (100 for 300), a timeout scaled to the
  request (``ollama_client.scaled_timeout``), and ``num_ctx`` sized to the
  request within the model's context length (``/api/show``). A span that
  cannot fit is split in two and its halves' summaries rolled into one.
- **Truth checks**: Ollama answers 200 OK after cutting a prompt longer than
  ``num_ctx`` from the front; a reply whose ``prompt_eval_count`` shows the
  prompt filled the window is treated as invalid. Every output is validated
  (``validation.accept_summary``: an answer cut by ``num_predict`` or too
  long keeps its whole sentences within the limit) before it may be stored.
- **What matters is kept**: where the span holds safety-relevant facts
  (allergies, medicines and warnings, appointments, decisions:
  ``salient``), a summary that mentions none of a kind gets that kind's
  best fact appended, within 300 characters; when they do not fit, the
  warnings are left to the pins the store makes of them
  (``warned.complete_or_pin``) and the rest must fit, or the deterministic
  summary (which carries them) is stored instead.
- **Outcomes**: valid → ``source`` = the model's name; rejected output, HTTP
  error or no local model → keyword summary, ``source="fallback"``; connection
  refused, DNS failure or timeout → offline summary, ``source="offline"``.

The same model choice and the same bounded call serve two more requests:
:meth:`Summarizer.ask_json` (structured JSON in Ollama's JSON mode, validated
by a pydantic model: checkpoints and a summary's facts; None when anything
fails, so the caller keeps its deterministic extraction; streamed, and dropped
as soon as the answer loops: ``guards.looping``) and
:meth:`Summarizer.session_window` (the session model's context window).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..outcome import FALLBACK, OFFLINE, JsonOutcome, M, Outcome
from ..tokens import Tokenizer
from .fallback import keyword_summary, offline_summary
from .guards import looping
from .ollama_client import (
    DEFAULT_NUM_PREDICT,
    DEFAULT_TEMPERATURE,
    OllamaBackend,
    OllamaModelError,
    OllamaUnavailable,
    scaled_timeout,
)
from .prompts import (
    build_rollup_messages,
    build_summary_messages,
    format_conversation,
    format_summaries,
)
from .support import ground
from .warned import complete_or_pin
from .validation import (
    DEFAULT_MAX_SUMMARY_CHARS,
    DEFAULT_MAX_SUMMARY_RATIO,
    accept_summary,
    summary_limit,
    trim_to_sentences,
)

logger = logging.getLogger("localmem")

DEFAULT_MIN_NUM_CTX = 2048
DEFAULT_NUM_CTX_STEP = 256
# Room for the chat template's own tokens and for a tokenizer that counts a
# little more than cl100k does before we have learnt its ratio.
PROMPT_SAFETY = 1.15
TEMPLATE_TOKENS = 64

MIN_CHARS_PER_TOKEN = 3
"""A summary of N characters needs at most N / 3 tokens (English runs near four)."""
DEFAULT_JSON_NUM_PREDICT = 512
"""Room for a structured answer: a checkpoint or a summary's facts."""
JSON_FORMAT = "json"

Pairs = Sequence[tuple[str, str]]
CacheLookup = Callable[[str], "str | None"]


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
        limit = span.limit()
        messages = span.messages(limit)
        key = cache_key(model, messages)
        if lookup is not None:
            hit = lookup(key)
            if hit is not None:
                return Outcome(hit, model, model, cache_key=key, cached=True)
        num_predict = min(self.num_predict, max(1, -(-limit // MIN_CHARS_PER_TOKEN)))
        local_tokens = sum(self.tokenizer.count(m["content"]) for m in messages)
        num_ctx = self._num_ctx(model, local_tokens, ratio, num_predict)
        if num_ctx is None:
            if len(span) > 1:
                return self._split(span, model, ratio, lookup)
            return span.fallback(f"one item is larger than {model}'s context window", model)
        result = self.backend.chat(
            model,
            messages,
            num_ctx=num_ctx,
            num_predict=num_predict,
            temperature=self.temperature,
            think=None,
            timeout=self._timeout(local_tokens, ratio, num_predict),
        )
        used = result.prompt_eval_count
        if used is not None and used + num_predict >= num_ctx:
            reason = f"prompt cut by the server ({used} tokens read, num_ctx {num_ctx})"
            logger.warning("%s: %s; fallback summary", model, reason)
            return span.fallback(reason, model)
        tokens = {"local_tokens": local_tokens, "model_tokens": used}
        text, reason = accept_summary(
            result.text, span.conversation(), span.max_ratio, cut=result.done_reason == "length"
        )
        if text is None:
            logger.info("%s's summary rejected: %s; fallback summary", model, reason)
            return span.fallback(str(reason), model, **tokens)
        dropped = 0
        if span.pairs:  # a rollup's sentences join summaries already held to their turns
            text, reason, dropped = _supported(text, result.text, span, model, result.done_reason == "length")
            if text is None:
                logger.info("%s's summary rejected: %s; fallback summary", model, reason)
                return span.fallback(str(reason), model, **tokens)
        completed = complete_or_pin(text, span.as_pairs(), DEFAULT_MAX_SUMMARY_CHARS)
        if completed is None:
            reason = "drops the span's safety-relevant facts"
            logger.info("%s's summary %s; fallback summary", model, reason)
            return span.fallback(reason, model, **tokens)
        note = None if completed == text else "completed with the span's safety-relevant facts"
        return Outcome(completed, model, model, local_tokens, used, cache_key=key, reason=note, dropped=dropped)

    def ask_json(
        self,
        messages: Sequence[dict[str, str]],
        session_model: str | None,
        schema: type[M],
        *,
        ratio: float = 1.0,
        num_predict: int = DEFAULT_JSON_NUM_PREDICT,
    ) -> JsonOutcome[M]:
        """Ask the local model (chosen as for summaries) for JSON matching ``schema``.

        One bounded call in Ollama's JSON mode, ``num_ctx`` sized as for a
        summary, streamed so that a looping answer is dropped at once. Never
        raises: no local model, an unreachable server, a prompt too long for
        the window or cut by the server, a reply that loops or is cut by
        ``num_predict``, invalid JSON or a reply ``schema`` rejects all give
        ``data=None`` with the reason (logged without the text).
        """
        try:
            model = self.choose_model(session_model)
        except Exception as exc:  # noqa: BLE001 - the host app never sees a model failure
            logger.info("no local model reachable (%s): no structured answer", exc)
            return JsonOutcome(None, None, str(exc))
        if model is None:
            return JsonOutcome(None, None, "no local model")
        try:
            local_tokens = sum(self.tokenizer.count(m["content"]) for m in messages)
            num_ctx = self._num_ctx(model, local_tokens, ratio, num_predict)
            if num_ctx is None:
                return JsonOutcome(None, model, f"the prompt is larger than {model}'s window")
            result = self.backend.chat(
                model,
                messages,
                num_ctx=num_ctx,
                num_predict=num_predict,
                temperature=self.temperature,
                format=JSON_FORMAT,
                think=None,
                timeout=self._timeout(local_tokens, ratio, num_predict),
                stop=looping,
            )
            used = result.prompt_eval_count
            if result.stopped is not None:
                reason = f"{result.stopped}, dropped after {len(result.text)} characters"
            elif used is not None and used + num_predict >= num_ctx:
                reason = f"prompt cut by the server ({used} tokens read, num_ctx {num_ctx})"
            elif result.done_reason == "length":
                reason = f"answer cut at {num_predict} tokens"
            else:
                return JsonOutcome(schema.model_validate_json(result.text), model)
        except Exception as exc:  # noqa: BLE001
            reason = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
        logger.info("%s's structured answer not used: %s", model, reason)
        return JsonOutcome(None, model, reason)

    def session_window(self, session_model: str | None) -> int | None:
        """The session model's context window as the local server reports it, else None.

        Only the session's own model counts (not ``summary_model``: its window
        says nothing about the conversation's). Never raises.
        """
        try:
            model = self.backend.resolve_model(session_model)
            return None if model is None else self.backend.context_length(model)
        except Exception as exc:  # noqa: BLE001
            logger.debug("context window of %r unknown: %s", session_model, type(exc).__name__)
            return None

    def _timeout(self, local_tokens: int, ratio: float, num_predict: int) -> float:
        """This request's timeout: the backend's, scaled to what the model reads and writes."""
        prompt = math.ceil(local_tokens * max(ratio, 1.0))
        return scaled_timeout(self.backend.timeout, prompt, num_predict)

    def _num_ctx(self, model: str, local_tokens: int, ratio: float, num_predict: int) -> int | None:
        """The ``num_ctx`` for a prompt of ``local_tokens``, or None if it cannot fit the window."""
        needed = math.ceil(local_tokens * max(ratio, 1.0) * PROMPT_SAFETY) + TEMPLATE_TOKENS
        window = self.backend.context_length(model)
        if window is not None and needed + num_predict > window:
            return None
        num_ctx = _round_up(max(needed + num_predict, DEFAULT_MIN_NUM_CTX), DEFAULT_NUM_CTX_STEP)
        return num_ctx if window is None else min(num_ctx, window)

    def _split(self, span: _Span, model: str, ratio: float, lookup: CacheLookup | None) -> Outcome:
        """Summarize each half, then roll the two summaries into one."""
        first, second = span.halves()
        parts = [self._ask(half, model, ratio, lookup) for half in (first, second)]
        if not all(part.from_model for part in parts):
            return span.fallback("a half of the split span fell back", model)
        rolled = self._ask(_Span(texts=tuple(p.text for p in parts)), model, ratio, lookup)
        # the halves' dropped sentences are the answer's: a kept-whole verdict needs none
        return dataclasses.replace(rolled, dropped=sum(p.dropped for p in parts))


@dataclass(frozen=True)
class _Span:
    """What one summary covers: conversation pairs, or summary texts for a rollup."""

    pairs: tuple[tuple[str, str], ...] = ()
    texts: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.pairs) if self.pairs else len(self.texts)

    def messages(self, limit: int) -> list[dict[str, str]]:
        if self.pairs:
            return build_summary_messages(self.pairs, limit)
        return build_rollup_messages(self.texts, limit)

    @property
    def max_ratio(self) -> float | None:
        # Rolling three 300-character summaries into one is already a 3x cut.
        return DEFAULT_MAX_SUMMARY_RATIO if self.pairs else None

    def limit(self) -> int:
        """The most characters this span's summary may have."""
        return summary_limit(self.conversation(), self.max_ratio)

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


def _supported(
    text: str, answer: str, span: _Span, model: str, cut: bool
) -> tuple[str | None, str | None, int]:
    """The accepted ``text`` of the model's ``answer`` without the sentences the span's
    turns do not support (``support.ground``, on the answer's whole sentences, so that a
    dropped sentence leaves room for the next; each dropped one logged by number and
    reason, never its words), checked again as a summary, with how many were dropped;
    or ``(None, reason, dropped)`` when too little is supported."""
    whole = answer.strip()
    if cut:  # its last sentence is unfinished
        whole = trim_to_sentences(whole, len(whole))
    grounded = ground(whole, span.pairs)
    for number, why in grounded.dropped:
        logger.info("%s's summary: sentence %d of %d dropped: %s", model, number, grounded.sentences, why)
    dropped = len(grounded.dropped)
    if grounded.text is None:
        return None, f"{dropped} of its {grounded.sentences} sentences are not supported", dropped
    if not grounded.dropped:
        return text, None, 0
    kept, reason = accept_summary(grounded.text, span.conversation(), span.max_ratio)
    return kept, reason, dropped


def cache_key(model: str, messages: Sequence[dict[str, str]]) -> str:
    """Content hash of a request: the same span sent to the same model has the same key."""
    payload = json.dumps([model, list(messages)], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()


def _round_up(value: int, step: int) -> int:
    return -(-value // step) * step
