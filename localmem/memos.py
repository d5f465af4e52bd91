"""Memos of pure functions of one text, kept for short texts only.

A context is rebuilt after every write over mostly the same texts (the user's pins in
every session, the best hits, the question asked again): reading them again is most of
what some steps cost. :func:`by_text` keeps a function's answers for the latest short
texts; a long text is read afresh each time, so what is kept stays bounded (at most
``size`` answers of texts up to ``max_chars`` characters). Pure; no state but the memo.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def by_text(function: Callable[[str], T], size: int, max_chars: int) -> Callable[[str], T]:
    """``function``, its answers kept for the ``size`` latest texts (an LRU) of at most
    ``max_chars`` characters; a longer text is read afresh. A kept answer is given to
    every caller of the same text: the caller copies a mutable one before changing it."""
    kept = functools.lru_cache(maxsize=size)(function)

    @functools.wraps(function)
    def memoized(text: str) -> T:
        return kept(text) if len(text) <= max_chars else function(text)

    return memoized
