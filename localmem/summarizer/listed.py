"""What a summary's sentence says of every thing it lists, held to the conversation saying it of each.

A model that read "Utilities we split equally" wrote "split rent, utilities, and deposit
equally" (the rent is split by room size, the deposit not at all); one that read "he already
gets fish oil in his food" wrote "prescribed carprofen for arthritis, ..., and fish oil". A
word saying one thing of a whole list stretches what the conversation said of one item to
all of them; word overlap (``support``) cannot see it, every word was said. Two checks
(pure; they never raise on any ``str``; ``support`` runs them on each sentence whole,
since a list crosses its clauses):

- :func:`unshared`: **a manner the conversation never gives those things.** A clause saying
  things are shared "equally" or "evenly" ("split rent, utilities, and deposit equally")
  names each thing it shares (a list's items; of its first, the last word: "split rent")
  in a sentence of the conversation that says "equally", "evenly", "50/50"... ("Utilities
  we split equally": the rent is split by room size, the deposit not at all).
- :func:`unprescribed`: **a thing said to be prescribed that the conversation never says
  was.** Each item after "prescribed" ("prescribed carprofen for arthritis, ..., and fish
  oil") is named, up to its first preposition, in a sentence of the conversation that
  speaks of a prescription ("prescribed", "Rx", "refill", "prescriber") or says someone is
  "on" it ("he was on prednisone"); "he already gets fish oil in his food" prescribes
  nothing. The list ends at an item that opens with a verb of its own ("and changed the
  dose").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from ..extract import sentences
from ..grounding import holds_word
from ..words import words
from .wording import LIST_MARKS, naming_forms


_MANNER = re.compile(r"\b(?:equally|evenly|equal (?:shares|parts|amounts)|50/50|fifty-fifty)(?!\w)", re.IGNORECASE)
"""Things shared in equal parts: "split equally", "evenly", "50/50"."""
_MANNER_SPAN = re.compile(r"[;:]|\s[-\u2013\u2014]\s|\s(?:while|whereas|because|since|but)\s", re.IGNORECASE)
"""Where the clause a manner word closes begins (the last of these before it)."""
_PRESCRIBED = re.compile(r"\bprescrib(?:ed|es|ing)\b", re.IGNORECASE)
_PRESCRIPTION = re.compile(r"\b(?:prescri\w*|rx|refills?)\b", re.IGNORECASE)
"""A sentence that speaks of a prescription."""
_ITEM_END = re.compile(r"\s(?:for|to|at|with|by|from|in|after|before|until|since|twice|once|every|daily)\b|[;:.]", re.IGNORECASE)
"""Where an item's name ends: "carprofen | for arthritis"."""
_OWN_VERB = re.compile(r"^\W*(?:[a-z]+ed|is|are|was|were|has|had|will|would|should|must|can|may|takes?|gets?|needs?)\b")
"""An item that opens with a verb of its own: a new predicate, not a thing prescribed."""


def unshared(sentence: str, conversation: Sequence[str]) -> str | None:
    """Why ``sentence`` says things are shared equally that the conversation does not say
    are, or None (the module docstring)."""
    manner = _MANNER.search(sentence)
    if manner is None:
        return None
    before = sentence[: manner.start()]
    marks = list(_MANNER_SPAN.finditer(before))
    span = before[marks[-1].end():] if marks else before
    items = [naming_forms(item) for item in LIST_MARKS.split(span)]
    things = [items[0][-1:]] + items[1:] if items else []
    said = [set(naming_forms(s)) for s in _sentences(tuple(conversation)) if _MANNER.search(s)]
    for thing in things:
        if thing and not any(any(holds_word(forms, w) for w in thing) for forms in said):
            return "says things are shared equally that the conversation does not say are"
    return None


def unprescribed(sentence: str, conversation: Sequence[str]) -> str | None:
    """Why ``sentence`` says something was prescribed that the conversation never says
    was, or None (the module docstring)."""
    verb = _PRESCRIBED.search(sentence)
    if verb is None:
        return None
    said = [
        (naming_forms(s), f" {' '.join(words(s))} ", bool(_PRESCRIPTION.search(s)))
        for s in _sentences(tuple(conversation))
    ]
    for item in LIST_MARKS.split(sentence[verb.end():]):
        if _OWN_VERB.match(item):
            break  # "and changed the dose": the list is over
        name = naming_forms(_ITEM_END.split(item, maxsplit=1)[0])
        if not name:
            continue
        if not any(all(holds_word(set(forms), w) for w in name) and (rx or _on(name, text)) for forms, text, rx in said):
            return "says something was prescribed that the conversation never says was"
    return None


def _on(name: Sequence[str], text: str) -> bool:
    """Whether ``text`` (words joined by spaces) says someone is "on" the thing ``name``
    names ("he was on prednisone")."""
    return any(re.search(rf" on (?:\w+ )?{re.escape(word)}", text) for word in name)


@functools.lru_cache(maxsize=4)
def _sentences(conversation: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(s for text in conversation for s in sentences(text))

