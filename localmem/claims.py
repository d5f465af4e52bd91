"""Claims as their sentences make them: the values one sentence binds, the cases it covers.

A small model builds a fact from the words of a chat, and word overlap
(:mod:`localmem.grounding`) finds them all there when the model has stitched two sentences into
one claim ("start Monday with 75 mg twice a day", where Monday starts the once-a-day week),
invented a value ("for the second week") or widened one case to all ("all tests write to
/tmp/reports" of "the test hardcodes /tmp/reports"). Pure functions; they never raise on any
``str``:

- :func:`statements_of`: each sentence of a chat, with the question it answers;
- :func:`values_apart`: an item's values are not said together in any one statement;
- :func:`widens`: an item says "all", "every", "always" where its sentences do not.

What a later message replaced is ``localmem.revisions``'; what the facts keep is
``localmem.facts``'.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from .extract import sentences
from .grounding import Evidence
from .words import WEEKDAY_WORDS, value, words

_ORDINALS = frozenset("second third fourth fifth sixth seventh eighth ninth tenth twice thrice".split())
"""Words that give a value as a number does ("the second week", "twice a day"); not "first"
nor "once", which are as often "before" and "when" ("normalize the rows first", "once
he's on carprofen")."""


@functools.lru_cache(maxsize=1024)
def _values(text: str) -> frozenset[str]:
    """The values ``text`` states: numbers (in digits or words: "75", "three"), ordinals and
    counts of times ("second", "twice"), days (:data:`words.WEEKDAY_WORDS`)."""
    return frozenset(
        w for w in words(text) if value(w) is not None or w in _ORDINALS or w in WEEKDAY_WORDS
    )


def statements_of(said: Sequence[tuple[str, str]]) -> list[str]:
    """What one statement of ``said`` (a span's (role, text) messages) is: each sentence,
    with the question the message before ended on, when it did (the bare "1450" answers
    "how much this month?")."""
    out = []
    asked = ""
    for _, text in said:
        found = list(sentences(text))
        out += [f"{asked} {sentence}".strip() for sentence in found]
        asked = found[-1] if found and found[-1].rstrip().endswith("?") else ""
    return out


def values_apart(item: str, statements: Sequence[str]) -> bool:
    """Whether ``item`` states values no one of ``statements`` (:func:`statements_of`) states
    together: a value said nowhere ("for the second week" where the chat never says
    "second"), or values of different sentences bound into one claim ("start Monday with
    ... twice a day" where Monday starts the once-a-day week). Each sentence of the item
    is read on its own; an item with no value is never apart."""
    held = [_values(s) for s in statements]
    for sentence in sentences(item):  # an item of two sentences: each on its own
        wanted = _values(sentence)
        if wanted and not any(wanted <= found for found in held):
            return True
    return False


_ALL: Final = frozenset("all every each everyone everybody everything always".split())
"""Words that say a claim holds of every case ("all tests write to /tmp/reports")."""


def widens(item: str, stated: Evidence) -> bool:
    """Whether ``item`` claims of every case ("all", "every", "always") what the sentences
    stating it (``stated``: an Evidence of sentences, ``statements.by_sentence``) say of
    one ("the test hardcodes /tmp/reports"): a word of :data:`_ALL` that no sentence
    supporting it holds. An item no one sentence supports widens nothing here (grounding
    judges it)."""
    wanted = _ALL.intersection(words(item))
    if not wanted:
        return False
    support = stated.supporting(item)
    return bool(support) and not any(wanted <= set(words(s)) for s in support)
