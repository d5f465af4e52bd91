"""What a local Ollama server's answers say, read defensively.

A chat answer becomes a :class:`ChatResult` (:func:`read_answer`, or
:func:`read_stream` for a streamed one that a guard may drop early); a token
count the server reports is kept only when it can be one (:func:`_token_count`);
a model's context length is read from its ``model_info``
(:func:`context_length_from`). An answer over :data:`DEFAULT_MAX_REPLY_CHARS`
characters is refused with :class:`OllamaModelError`. No I/O here: the
request side is ``ollama_client`` (and its guarded transport).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .transport import OllamaModelError

DEFAULT_MAX_REPLY_CHARS: Final = 1_000_000
STOP_CHECK_CHARS: Final = 32
"""A streamed answer is shown to its guard every this many new characters."""


@dataclass(frozen=True, slots=True)
class ChatResult:
    """One non-streamed ``/api/chat`` answer.

    ``prompt_eval_count`` is the number of prompt tokens the model read: lower than the
    prompt's size means Ollama truncated the prompt to ``num_ctx``. ``done_reason`` is
    ``"stop"`` for a finished answer and ``"length"`` when ``num_predict`` cut it.
    """

    text: str
    model: str
    prompt_eval_count: int | None
    eval_count: int | None
    done_reason: str | None
    stopped: str | None = None
    """Why the answer was dropped before its end (the ``stop`` guard's reason), or None."""


def read_answer(response: Any, model: str) -> ChatResult:
    """A non-streamed answer as a :class:`ChatResult` (an over-long one refused)."""
    text = response.message.content or ""
    if len(text) > DEFAULT_MAX_REPLY_CHARS:
        raise OllamaModelError(f"reply longer than {DEFAULT_MAX_REPLY_CHARS} characters")
    return ChatResult(
        text=text,
        model=response.model or model,
        prompt_eval_count=_token_count(response.prompt_eval_count),
        eval_count=_token_count(response.eval_count),
        done_reason=response.done_reason,
    )


def read_stream(parts: Iterable[Any], model: str, stop: Callable[[str], str | None]) -> ChatResult:
    """Read a streamed answer, dropping it as soon as ``stop`` gives a reason."""
    pieces: list[str] = []
    size = checked = 0
    last: Any = None
    stream = iter(parts)
    try:
        for part in stream:
            last = part
            piece = part.message.content or ""
            pieces.append(piece)
            size += len(piece)
            if size > DEFAULT_MAX_REPLY_CHARS:
                raise OllamaModelError(f"reply longer than {DEFAULT_MAX_REPLY_CHARS} characters")
            if size - checked >= STOP_CHECK_CHARS and not part.done:
                checked = size
                reason = stop("".join(pieces))
                if reason is not None:
                    return ChatResult("".join(pieces), model, None, None, None, stopped=reason)
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()  # hangs up: Ollama stops generating
    if last is None:
        raise OllamaModelError("empty streamed answer")
    return ChatResult(
        text="".join(pieces),
        model=last.model or model,
        prompt_eval_count=_token_count(last.prompt_eval_count),
        eval_count=_token_count(last.eval_count),
        done_reason=last.done_reason,
    )


def context_length_from(model_info: Mapping[str, Any]) -> int | None:
    """``<architecture>.context_length``, else the first ``*.context_length`` key."""
    architecture = model_info.get("general.architecture")
    keys = [f"{architecture}.context_length"] if isinstance(architecture, str) else []
    keys += sorted(key for key in model_info if key.endswith(".context_length"))
    for key in keys:
        value = model_info.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


def _token_count(value: int | None) -> int | None:
    """A token count the server reported, or None when it cannot be one.

    A faulty server (or a proxy in front of one) may report a negative or a
    zero count; passed on, it would be stored as a model's token ratio (a
    CHECK constraint refuses it, aborting the summary's whole transaction).
    """
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return None
