"""A context shows a pin's statement once (issue 22): pins that say the same thing in
other words (order, case, inflection, an aside like "lol") cost one pin's tokens, the
most important (or newest) kept; pins that differ by anything that could change the
meaning (a number, a name, a negation, a person, a tense, a preposition) are all shown."""

from __future__ import annotations

import pytest

from localmem import MemoryStore

QUESTION = "What should we cook for dinner tonight?"
DIFFERENT = [
    ("Project Harrier ships on the 9th.", "Project Merlin ships on the 8th."),
    ("I am allergic to penicillin.", "I am not allergic to penicillin."),
    ("My son takes 10 mg of lisinopril.", "My son takes 20 mg of lisinopril."),
    ("She takes insulin.", "I take insulin."),
    ("I had asthma.", "I have asthma."),
    ("My wifi password is hunter2.", "My wifi password is hunter3."),
    ("I take my pills before meals.", "I take my pills after meals."),
    ("I'll stop eating meat.", "I stop eating meat."),
]


def pinned(store: MemoryStore, texts: list[tuple[str, float]]) -> str:
    s = store.create_session()
    for text, importance in texts:
        store.pin(s.id, text, importance=importance)
    store.add_messages(s.id, [
        {"role": "user", "text": "I was thinking about dinner: maybe a curry with lentils."},
        {"role": "assistant", "text": "A lentil curry sounds good for dinner."},
        *({"role": "user", "text": f"Status note {n} about the sprint board."} for n in range(30)),
    ])
    return s.id


def contents(ctx) -> list[str]:
    return [p.content for p in ctx.pins]


@pytest.mark.parametrize("query", [None, QUESTION])
def test_two_pins_of_one_statement_are_shown_once(db_path, query) -> None:
    with MemoryStore(db_path, config={"embedding_model": None}) as store:
        sid = pinned(store, [
            ("I can't eat gluten, it wrecks my stomach lol.", 0.4),
            ("I cannot eat gluten: it wrecks my stomach.", 0.8),
            ("Our budget is 500 EUR.", 0.6),
        ])
        ctx = store.build_context(sid, query=query)
        kept = ["I cannot eat gluten: it wrecks my stomach.", "Our budget is 500 EUR."]
        assert contents(ctx) == kept
        assert len(store.get_pins(sid)) == 3  # nothing removed: only the context shows it once


@pytest.mark.parametrize("first, second", DIFFERENT)
def test_pins_that_differ_in_meaning_are_both_shown(db_path, first, second) -> None:
    with MemoryStore(db_path, config={"embedding_model": None}) as store:
        sid = pinned(store, [(first, 0.5), (second, 0.5)])
        for query in (None, QUESTION):
            shown = contents(store.build_context(sid, query=query))
            assert sorted(shown) == sorted([first, second])


def test_near_copies_said_in_many_sessions_are_one_lasting_pin(db_path) -> None:
    """The auto pins of one fact said in several sessions (the user's), each worded a
    little differently, are one pin in a query-aware context, however many sessions."""
    said = [
        "Got my flu shot and my arm is so sore I can't lift it.",
        "Got my flu shot and my arm is so sore I can't lift it lol.",
        "Got my flu shot and my arm is so sore I can't lift it, honestly.",
        "got my flu shot, and my arm is SO sore I can't lift it!",
    ]
    with MemoryStore(db_path, config={"embedding_model": None, "top_pins": 2}) as store:
        for text in said:
            s = store.create_session()
            store.add_message(s.id, "user", text)
        sid = pinned(store, [])
        assert len(store.get_pins(None)) == len(said)  # each pinned: the wording differs
        ctx = store.build_context(sid, query=QUESTION)
        flu = [p for p in contents(ctx) if "flu shot" in p.lower()]
        assert flu == [said[-1]]  # the newest of equally important ones


def test_the_budget_stays_a_hard_ceiling(db_path) -> None:
    with MemoryStore(db_path, config={"embedding_model": None, "top_pins": 2}) as store:
        sid = pinned(store, [
            *((f"I can't eat gluten, it wrecks my stomach{' lol' * n}.", 0.5) for n in range(6)),
            *((text, 0.3) for pair in DIFFERENT for text in pair),
        ])
        for budget in (30, 60, 120, 250, 500, 2000):
            for query in (None, QUESTION):
                ctx = store.build_context(sid, max_tokens=budget, query=query)
                assert ctx.total_tokens <= budget
                gluten = [p for p in contents(ctx) if "gluten" in p]
                assert len(gluten) <= 1
