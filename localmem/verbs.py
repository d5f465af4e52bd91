"""Whether a phrase names an action: a verb it opens with or a finite verb it holds.

A task or a step names something to do ("book flights", "call radiology"); a noun phrase
("student loans", "rent due fri", "liver blood test") names a thing. Checkpoints, facts and
entities all ask this of a model's items, so it sits below them, on :mod:`localmem.words`
alone (pure functions; they never raise on any ``str``):

- :func:`names_action`: a finite verb ("The TV can wait") or an opening verb;
- :func:`opens_with_verb`: the first word (after "remember to", "to", "don't") is a verb:
  one of :data:`ACTION_VERBS`, a word an object follows ("dice them small"), or a word the
  conversation uses as a verb;
- :func:`drops_the_action`: an advice sentence with its opening verb cut off ("Pena Palace
  tickets online" of "Book Pena Palace tickets online").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from .words import words

ACTION_VERBS: Final = frozenset(
    """
    add apply ask avoid book bring build buy call cancel change check choose clean confirm
    contact cook draft drink eat email fill find finish fix follow get give go install keep
    leave make mention move order pack pass pay phone pick plan practice practise prepare print
    put read record refill remember remove renew replace request reserve return review run
    schedule see send set share sign start stop submit switch take talk tell test text try
    turn update use visit wait walk watch write
    """.split()
)
"""Verbs an item to do opens with ("book flights", "send w rent", "confirm the date").
A word not here is taken for a verb when the conversation uses it as one (:func:`names_action`)."""
_VERB_CUE: Final = frozenset("to i we you i'll we'll will let's please don't can should must".split())
"""Words after which the next word is a verb ("to refinance", "please dice")."""
_FINITE: Final = frozenset(
    "is are was were be can could will would should must need needs 'll 'd".split()
)
"""A finite verb's word: an item holding one says what happens ("The TV can wait")."""
_OBJECTS: Final = frozenset(
    "it them her him me us up out off back the a an my your our their his this that these those".split()
)
"""Words that follow a verb and not the first word of a noun phrase: an object pronoun, a
particle or a determiner ("dice them small", "sweep the floor"; not "car loan")."""


def names_action(item: str, conversation: Sequence[str] = ()) -> bool:
    """True when ``item`` (something to do: a task, a step) names an action: it holds a
    finite verb ("The TV can wait until the weekend") or opens with a verb
    (:func:`opens_with_verb`). A noun phrase ("student loans", "car loan", "rent due fri",
    "Metformin 500 mg twice a day") names none."""
    said = words(item)
    return any(w in _FINITE or w.endswith(("'ll", "'d")) for w in said) or opens_with_verb(item, conversation)


_LEAD = re.compile(
    r"^\W*(?:please\s+)?(?:remember to|don'?t forget to|make sure to|to|don'?t|do not|never)\s+", re.IGNORECASE
)
"""Words before an action's verb: "remember to", "to", "don't"."""


def opens_with_verb(item: str, conversation: Sequence[str] = ()) -> bool:
    """True when ``item``'s first word (after "remember to", "to", "don't") is a verb:
    one of :data:`ACTION_VERBS`, a word followed by an object pronoun, a particle or a
    determiner ("dice them small", "sweep the floor"), or a word the ``conversation`` uses as a
    verb (after "to", "I", "please", "will"..., or in an "-ed" form)."""
    said = words(_LEAD.sub("", item))
    if not said:
        return False
    first = said[0]
    if first in ACTION_VERBS or (len(said) > 1 and said[1] in _OBJECTS):
        return True
    # "-d" makes a past form only after an "e" ("baked"): "card" is no form of "car"
    past = (first + "ed", first + "d") if first.endswith("e") else (first + "ed",)
    for text in conversation:
        found = words(text)
        if any(w in past for w in found):
            return True
        if any(a in _VERB_CUE and b == first for a, b in zip(found, found[1:])):
            return True
    return False


def drops_the_action(item: str, sentence: str) -> bool:
    """True when ``item``, naming no action itself, is ``sentence`` with its opening verb
    (one of :data:`ACTION_VERBS`, with at most one more word) cut off ("Pena Palace tickets online in advance." of "Book Pena Palace tickets online
    in advance."): the rest names a thing, not the action taken on it."""
    said, whole = words(item), words(_LEAD.sub("", sentence))
    cut = len(whole) - len(said)
    if not said or not 0 < cut <= 2 or whole[cut:] != said or names_action(item):
        return False
    return whole[0] in ACTION_VERBS
