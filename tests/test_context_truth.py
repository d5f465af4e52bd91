"""What a context shows as memory with no model answering is labelled and true (issue 21).

Each conversation of a set whose lines are labelled (all 102: the written-on ones and sets 1-11) (``benchmarks/context_labels*.json``: a
set is labelled once any of its conversations is) is summarized with no model answering and
its context built (``tests/context_replay.shown_lines``, as ``benchmarks/context_truth.py``
does); every line it shows as memory (summaries, pins, checkpoint, state) must be labelled
and true. A line still false is listed in :data:`OPEN_IN_CONTEXT` (strict xfail: fixing
it fails the suite until its entry goes); an unlabelled line always fails: a change of the
rules that shows a new line is labelled before it is merged.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.context_replay import conversation_pairs, conversation_set, judge, load_labels, shown_lines
from tests.real_replay import RECORDINGS

LABELS = load_labels()
LABELLED_SETS = frozenset(conversation_set(c) for c in LABELS)
CONVERSATIONS = tuple(
    c for c in next(iter(RECORDINGS.values()))["conversations"] if conversation_set(c) in LABELLED_SETS
)

OPEN_IN_CONTEXT: dict[str, str] = {
    # conversation -> why one of its lines is still false (labelled false in context_labels.json).
}


def _case(conversation: str) -> object:
    reason = OPEN_IN_CONTEXT.get(conversation)
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(conversation, id=conversation, marks=marks)


def test_every_labelled_set_is_replayed_whole() -> None:
    assert LABELLED_SETS >= {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"}
    assert len(CONVERSATIONS) == 102


@pytest.mark.parametrize("conversation", [_case(c) for c in CONVERSATIONS])
def test_every_line_a_context_shows_without_a_model_is_labelled_true(tmp_path: Path, conversation: str) -> None:
    lines = shown_lines(tmp_path / "c.db", conversation_pairs(conversation), conversation)
    verdicts = {(section, line): judge(conversation, section, line, LABELS) for section, line in lines}
    unlabelled = [f"{s}: {line}" for (s, line), v in verdicts.items() if v is None]
    false = [f"{s}: {line}" for (s, line), v in verdicts.items() if v is False]
    assert not unlabelled, f"label these lines in benchmarks/context_labels*.json: {unlabelled}"
    assert not false, f"false lines shown as memory: {false}"
