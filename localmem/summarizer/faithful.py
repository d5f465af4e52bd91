"""Whether a summary restates a denied claim, or copies one turn: the checks that read turns.

``validation`` reads a summary against the conversation as one text; two things a small
model gets wrong can only be seen turn by turn:

- **a denied claim stated as true**: the conversation asked "Should she stop the warfarin
  before the visit?" and the answer began "No."; the summary says "Greta should stop
  warfarin before the GP visit." A sentence of the summary restates a denied claim
  (:func:`denied`: a yes/no question answered "no", or a claim answered "Not
  quite") when it holds most of the claim's content words (``grounding``'s share) with the
  same negations (a negated negation asserts: "she must not stop warfarin" is the answer,
  not the claim);
- **a copy of one turn**: a summary is a copy when :data:`COPY_SHARE` of its words, and
  :data:`COPY_MIN_WORDS` at least, lie in runs of :data:`COPY_RUN_WORDS` words that ONE
  turn holds in the same order (a passage lifted from it), or when nearly all of a long
  summary (:data:`STITCH_SHARE`, :data:`STITCH_MIN_WORDS`) is runs lifted from the
  assistant's turns (its explanations stitched together in place of what was said and
  decided). The user's facts said again in the user's words ("He takes metformin 500 mg
  twice a day ...") are a summary of them, and a short faithful restatement that reuses a
  phrase or two of several turns is no copy; one that speaks as the user ("I need a refill
  of my inhaler") is refused for its voice (``validation``: the first person).

``conversation`` is the text the model was given (``prompts.format_conversation``: one
``role: text`` turn a line; a turn's own line breaks stay in it). Pure; never raises.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from ..extract import sentences
from ..grounding import Evidence
from ..words import words

COPY_RUN_WORDS: Final = 6
"""Words in a row, in the same order, that make a run copied from a turn."""
COPY_SHARE: Final = 0.6
"""Share of a summary's words copied from one turn that makes it a copy of that turn..."""
COPY_MIN_WORDS: Final = 15
"""... when they are this many at least: a long passage, not a short restatement."""
STITCH_SHARE: Final = 0.85
"""Share of a summary's words in runs copied from the assistant's turns (any of them) that
makes a long summary a stitched copy..."""
STITCH_MIN_WORDS: Final = 30
"""... when it has this many words at least."""

NO_ANSWER: Final = re.compile(
    r"^\W*(?:no\b|nope\b|not (?:quite|really|exactly|yet|necessarily|at all)\b"
    r"|actually,? no\b|that's not\b|that is not\b|definitely not\b|better not\b|rather not\b"
    r"|probably not\b|i wouldn'?t\b|i would not\b|nah\b|skip\b|no need\b)",
    re.IGNORECASE,
)
"""An answer that denies what a question asked ("No.", "Not quite.", "Better not"; "sour
cream?" "skip, have some")."""
HEDGED: Final = re.compile(
    r"^\W*(?:if\b|only if\b|it depends\b|that depends\b|depends\b|maybe\b|perhaps\b|not sure\b"
    r"|hard to say\b|it's hard to say\b)",
    re.IGNORECASE,
)
"""An answer that neither grants nor denies what a question asked ("If they are federal
loans, ...", "It depends"): the question is not stated by it."""
_QUESTION_HEAD = re.compile(
    r"^\W*(?:should|can|could|is|are|was|were|does|do|did|will|would|may|must|has|have)\s+"
    r"(?:(?:i|we|she|he|they|it|you|this|that)\s+)?",
    re.IGNORECASE,
)
"""The inversion a yes/no question opens with ("Should she ...", "Is it ...")."""

_TURN = re.compile(r"^(user|assistant|system|tool): ", re.MULTILINE)


def turns(conversation: str) -> list[tuple[str, str]]:
    """The ``(role, text)`` turns of a formatted conversation (a rollup's summaries, which
    have no roles, give none)."""
    parts = _TURN.split(conversation)
    return [(parts[i], parts[i + 1].strip()) for i in range(1, len(parts) - 1, 2)]


def check_denied(summary: str, pairs: Sequence[tuple[str, str]]) -> str | None:
    """The reason when a sentence of ``summary`` states a claim the conversation denied."""
    claims = [c for c in denied(pairs) if len(Evidence([c]).supporting(c)) == 1]
    if not claims:
        return None
    said = list(sentences(summary))
    for claim in claims:
        if Evidence(said).supporting(claim):
            return "states what the conversation answered no to"
    return None


def denied(pairs: Sequence[tuple[str, str]]) -> list[str]:
    """The yes/no questions of ``pairs`` the next turn (of the other side) answers "no",
    each as its statement ("Should she stop the warfarin before the visit?" -> "she stop
    the warfarin before the visit"); a user's "X, since Y?"-less claim answered "Not
    quite" is denied whole ("free verse is just prose with line breaks")."""
    out: list[str] = []
    for (role, text), (answer_role, answer) in zip(pairs, pairs[1:]):
        if role == answer_role or not NO_ANSWER.search(answer):
            continue
        said = list(sentences(text))
        questions = [s for s in said if s.endswith("?")]
        if questions:
            out += [_QUESTION_HEAD.sub("", q).rstrip("?") for q in questions]
        elif said:  # a claim, not a question, answered "Not quite": its last sentence
            out.append(said[-1])
    return out


def check_copy(summary_words: Sequence[str], pairs: Sequence[tuple[str, str]]) -> str | None:
    """The reason when the summary (its words, case-folded) copies one turn, or is
    stitched from the assistant's sentences."""
    if len(summary_words) < COPY_RUN_WORDS or not pairs:
        return None
    texts = [words(text) for _, text in pairs]
    shares = [copied_share(summary_words, t) for t in texts]
    if max(shares) >= COPY_SHARE and max(shares) * len(summary_words) >= COPY_MIN_WORDS:
        return "copies a passage of the conversation"  # of one turn
    if len(summary_words) >= STITCH_MIN_WORDS:
        # the assistant's explanations copied in place of what was said and decided; the
        # user's own facts said again in their words are a summary of them
        joined = [w for (role, _), t in zip(pairs, texts) if role != "user" for w in (*t, "\n")]
        if copied_share(summary_words, joined) >= STITCH_SHARE:
            return "copies passages of the conversation, stitched together"
    return None


def copied_share(summary_words: Sequence[str], source: Sequence[str]) -> float:
    """Share of ``summary_words`` inside a run of :data:`COPY_RUN_WORDS` of them that
    ``source`` (a text's words) holds in the same order."""
    return run_share(summary_words, f" {' '.join(source)} ", set(source))


def run_share(
    words: Sequence[str], source: str, vocabulary: set[str] | frozenset[str]
) -> float:
    """Share of ``words`` inside a run of :data:`COPY_RUN_WORDS` of them that ``source``
    (its words joined by single spaces, a space at each end; ``vocabulary``: their set)
    holds in the same order: the one measure of copying, for one turn or a whole span."""
    if not words:
        return 0.0
    covered = 0
    run_end = 0  # words before this index are counted already
    present = 0  # words in a row, up to here, that the source has at all
    for end, word in enumerate(words, 1):
        present = present + 1 if word in vocabulary else 0
        start = end - COPY_RUN_WORDS
        if present >= COPY_RUN_WORDS and f" {' '.join(words[start:end])} " in source:
            covered += end - max(start, run_end)
            run_end = end
    return covered / len(words)
