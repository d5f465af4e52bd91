"""Token counting: exact, offline, computed once when a row is written.

The default :class:`Tokenizer` uses tiktoken's ``cl100k_base``, loaded from
the copy shipped in localmem's wheel (see ``tiktoken_ext/localmem_encodings.py``),
so counting works with no network. Text is encoded as ordinary text:
``<|endoftext|>`` typed by a user is counted, never treated as a control token.

Only if the encoder truly cannot load does the tokenizer fall back to the
documented estimate of one token per four characters (rounded up); ``name``
and ``exact`` say which one is active, and the store reports it. An encoding
localmem does not ship (``o200k_base``, ``p50k_base``...) counts by the
estimate too, without asking tiktoken: tiktoken would download it, and
localmem never touches the network to count.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Iterator

import tiktoken

logger = logging.getLogger("localmem")

ESTIMATE_CHARS_PER_TOKEN = 4
ESTIMATE_NAME = "estimate (1 token per 4 characters)"
# Encodings whose files ship with localmem, by tiktoken name -> plugin name.
SHIPPED_ENCODINGS = {"cl100k_base": "localmem_cl100k_base"}


MODEL_RATIO_BOUNDS = (0.5, 2.0)
"""A local model's tokens per cl100k token, as learnt from its ``prompt_eval_count``,
is believed within these bounds: real tokenizers differ from cl100k by tens of
percent. A reply outside them is not learnt from (Ollama reports 1 token for a
515-token prompt whose prefix it had cached), and a ratio is never used outside."""


def plausible_ratio(local_tokens: int, model_tokens: int) -> bool:
    """Whether one reply's token counts are worth learning a model's ratio from."""
    low, high = MODEL_RATIO_BOUNDS
    return local_tokens > 0 and low <= model_tokens / local_tokens <= high


def bounded_ratio(ratio: float | None) -> float:
    """A learnt ratio (None: never measured, 1.0) held within ``MODEL_RATIO_BOUNDS``."""
    low, high = MODEL_RATIO_BOUNDS
    return 1.0 if ratio is None else min(high, max(low, ratio))


LONG_TEXT_CHARS = 65_536
"""Texts up to this many characters are encoded in one call (every chat message)."""
PIECE_CHARS = 8_192
"""A longer text is counted in pieces of at most this many characters, cut between words."""
RUN_CHARS = 1_024
"""Where a piece holds no place to cut (a run without spaces), it is cut after this many."""
TAIL_CHARS_PER_TOKEN = 8
"""Characters a token of the end of a text is first given when clipping it."""


def pieces(text: str) -> Iterator[str]:
    """``text`` in consecutive pieces of at most ``PIECE_CHARS`` characters.

    A piece ends before a space that follows a non-space, where cl100k's
    pre-tokenizer starts a new word anyway, so the pieces' counts add up to
    the text's. Only a stretch of ``PIECE_CHARS`` with no such place is cut
    elsewhere, every ``RUN_CHARS`` characters (a token or so more per cut):
    no text of words has one, and BPE's cost grows with the run's length.
    """
    start, size = 0, len(text)
    while size - start > PIECE_CHARS:
        cut = text.rfind(" ", start + 1, start + PIECE_CHARS + 1)
        while cut > start and text[cut - 1].isspace():
            cut = text.rfind(" ", start + 1, cut)
        if cut <= start:
            cut = start + RUN_CHARS
        yield text[start:cut]
        start = cut
    yield text[start:]


def estimate_tokens(text: str) -> int:
    """The fallback estimate: ``ceil(len(text) / 4)``."""
    return math.ceil(len(text) / ESTIMATE_CHARS_PER_TOKEN)


class Tokenizer:
    """Counts tokens with a tiktoken encoding, loaded on first use.

    Thread-safe. ``name`` is the encoding in use, or ``ESTIMATE_NAME`` when
    the encoder could not load; ``exact`` tells the two apart.
    """

    def __init__(self, encoding: str = "cl100k_base") -> None:
        self.encoding = encoding
        self._enc: tiktoken.Encoding | None = None
        self._loaded = False
        self._lock = threading.Lock()

    def _encoder(self) -> tiktoken.Encoding | None:
        if self._loaded:
            return self._enc
        with self._lock:
            if not self._loaded:
                shipped = SHIPPED_ENCODINGS.get(self.encoding)
                if shipped is None:
                    logger.warning(
                        "tiktoken encoding %r is not shipped with localmem and loading it would "
                        "need the network; counting tokens by estimate (shipped: %s)",
                        self.encoding,
                        ", ".join(SHIPPED_ENCODINGS),
                    )
                else:
                    try:
                        self._enc = tiktoken.get_encoding(shipped)
                    except Exception as exc:  # noqa: BLE001 - any failure means "no encoder"
                        logger.warning(
                            "tiktoken encoding %r could not load (%s); counting tokens by estimate",
                            self.encoding,
                            exc,
                        )
                self._loaded = True
        return self._enc

    @property
    def exact(self) -> bool:
        """True when counts come from tiktoken, False when they are estimates."""
        return self._encoder() is not None

    @property
    def name(self) -> str:
        """The encoding in use, e.g. ``cl100k_base``, or the estimate's name."""
        return self.encoding if self.exact else ESTIMATE_NAME

    def count(self, text: str) -> int:
        """The number of tokens in ``text``.

        A text longer than ``LONG_TEXT_CHARS`` is counted piece by piece (see
        :func:`pieces`): the same count for text with spaces, and bounded time
        and memory for any text (tiktoken takes 0.5 µs a character, and a list
        entry a token, on one 20 MB run of a letter).
        """
        enc = self._enc if self._loaded else self._encoder()
        if enc is None:
            return estimate_tokens(text)
        if len(text) <= LONG_TEXT_CHARS:
            return len(enc.encode_ordinary(text))
        return sum(len(enc.encode_ordinary(piece)) for piece in pieces(text))

    @staticmethod
    def _encode(enc: tiktoken.Encoding, text: str) -> list[int]:
        """Token ids of ``text``; a long text piece by piece, as :meth:`count` counts it."""
        if len(text) <= LONG_TEXT_CHARS:
            return enc.encode_ordinary(text)
        ids: list[int] = []
        for piece in pieces(text):
            ids += enc.encode_ordinary(piece)
        return ids

    def tail(self, text: str, max_tokens: int) -> str:
        """The longest end of ``text`` that counts at most ``max_tokens`` tokens.

        Only the end is encoded: a window of ``TAIL_CHARS_PER_TOKEN`` characters a
        token, widened until it holds more tokens than asked, so clipping a huge
        message costs what the budget does, not what the message does.
        """
        if max_tokens <= 0 or not text:
            return ""
        enc = self._encoder()
        if enc is None:
            return text[-max_tokens * ESTIMATE_CHARS_PER_TOKEN :]
        window = (max_tokens + 1) * TAIL_CHARS_PER_TOKEN
        while True:
            end = text[-window:] if window < len(text) else text
            ids = self._encode(enc, end)
            if len(ids) > max_tokens or end is text:
                break
            window *= 4
        keep = min(max_tokens, len(ids))
        # A cut can split a multi-byte character, and decoded text may
        # re-tokenize differently: shrink until the count really fits.
        while keep > 0:
            piece = enc.decode(ids[-keep:]).lstrip("\ufffd")
            if self.count(piece) <= max_tokens:
                return piece
            keep -= 1
        return ""
