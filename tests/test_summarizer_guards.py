"""guards.looping: a model's answer that goes round in circles is recognised while it streams."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from localmem.summarizer.guards import looping


@pytest.mark.parametrize(
    "text",
    [
        '{\n  "user_preferences": {\n    "files": [\n      {\n        "id": "1' + "0" * 60,
        '{"completed_steps": [' + '"I\'m leaving, but the porch light stays the same.", ' * 3,
        '{"next_steps": [' + ", ".join(f'"step {i}: check the log"' for i in range(6)),
        '{"a": 1,' + "\n" * 60,
        '{"files": {' + '"files": {\n  ' * 6,
    ],
)
def test_a_loop_is_recognised(text: str) -> None:
    assert looping(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(
            {
                "active_goals": ["Ship the reporting feature"],
                "pending_tasks": ["Add the CSV export", "Write tests for export.py", "Deploy"],
                "key_decisions": ["Use PostgreSQL"],
                "context_references": {"files": ["export.py", "report.py"], "tables": ["reports"]},
            },
            indent=2,
        ),
        '{"numbers": [1, 22, 333, 4444]}',
        "aaa",
        "",
    ],
)
def test_a_normal_answer_is_not_a_loop(text: str) -> None:
    assert looping(text) is None


@given(st.text(max_size=500), st.text(min_size=1, max_size=60))
def test_any_text_ending_in_a_repeated_unit_loops(head: str, unit: str) -> None:
    copies = max(3, -(-48 // len(unit)))
    assert looping(head + unit * copies) is not None
