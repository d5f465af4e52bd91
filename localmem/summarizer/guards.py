"""Guards on a model's answer while it is being written.

Small models in JSON mode sometimes loop: the same list item, the same key, a run of blank
lines, again and again until ``num_predict`` (512 tokens: minutes on a desktop CPU) ends an
answer that cannot be parsed anyway. :func:`looping` spots such a tail while the answer is
streamed (``OllamaBackend.chat(stop=...)``) so the request is dropped early.

Pure functions; fast enough to run every few dozen characters of a streamed answer.
"""

from __future__ import annotations

import re
from typing import Final

LOOP_MIN_CHARS: Final = 48
"""A repetition shorter than this is not yet a loop (three list items may repeat a word)."""
LOOP_MIN_COPIES: Final = 3
LOOP_MAX_PERIOD: Final = 400
"""The longest repeated unit looked for (a list item of a few sentences)."""
_DIGITS = re.compile(r"\d")
_SPACE = re.compile(r"\s")


def looping(text: str) -> str | None:
    """A reason when ``text`` ends in a loop, else None.

    A loop is the same unit of 1 to :data:`LOOP_MAX_PERIOD` characters repeated at least
    :data:`LOOP_MIN_COPIES` times back to back at the end, over :data:`LOOP_MIN_CHARS`
    characters or more. Digits count as equal ("step 3", "step 4", ...; a number that never
    ends), whitespace too (a model's blank lines or spaces).
    """
    tail = _DIGITS.sub("0", text[-LOOP_MAX_PERIOD * LOOP_MIN_COPIES - 8 :])
    tail = _SPACE.sub(" ", tail)
    size = len(tail)
    for period in range(1, min(LOOP_MAX_PERIOD, size // LOOP_MIN_COPIES) + 1):
        copies = max(LOOP_MIN_COPIES, -(-LOOP_MIN_CHARS // period))
        if copies * period > size:
            continue
        unit = tail[size - period :]
        if all(
            tail[size - (k + 1) * period : size - k * period] == unit for k in range(1, copies)
        ):
            return f"the answer repeats itself ({copies} times {period} characters)"
    return None
