"""What a fact about the user rests on: the user's own messages of a span, each one
source, with the same negation (``localmem.grounding``), and "the user" of a model's
fact standing for the speaker. A summary's must-remember items (``localmem.remember``)
and the sources of the pins they become (``localmem.drafts``) are held to it. Pure
functions; a leaf above ``grounding``, so the drafts' chain stays short.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .grounding import Evidence, support


THE_USER = re.compile(r"\b(?:the\s+)?user(?:'s|\u2019s|s)?\b", re.IGNORECASE)
"""How a model names the user in a fact ("The user is allergic to ..."): no word to ground."""


def user_evidence(pairs: Sequence[tuple[str, str]]) -> Evidence:
    """What a fact about the user may rest on: the user's own messages of a span, each
    one source (never a tool's output or the assistant's). No warning of the span
    blocks a fact (``grounding`` rule 4): the user may end their own ("I'm no longer
    allergic to penicillin"); the source's own polarity decides (rule 3)."""
    return Evidence([text for role, text in pairs if role == "user"])


def fact_sources(item: str, evidence: Evidence) -> tuple[int, ...] | None:
    """The indexes of the user's messages (``evidence``, :func:`user_evidence`) a fact
    is built from, with the same negation (``grounding.support``); None when they do
    not support it. "The user" in a model's fact stands for the speaker."""
    return support(THE_USER.sub(" ", item), evidence)

