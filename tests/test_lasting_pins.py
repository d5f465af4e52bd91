"""A lasting pin (health, identity, a constraint) is shown by the query-aware context
even when ``top_pins`` pins of higher importance come before it (issue 22): with a
query, the pins that neither answer it nor last wait for what the relevant messages
leave, so the lasting ones must not be cut before they are even considered."""

from __future__ import annotations

from localmem import MemoryStore

BUSY = [f"Project {name} ships on the {n}th; its owner is on the platform team."
        for n, name in enumerate(["Falcon", "Heron", "Osprey", "Kestrel", "Merlin", "Harrier"], 4)]
ALLERGY = "I am allergic to penicillin."
QUESTION = "What should we cook for dinner tonight?"


def fill(store: MemoryStore) -> str:
    s = store.create_session()
    for text in BUSY:  # six pins more important than the lasting one
        store.pin(s.id, text, importance=0.9)
    store.pin(s.id, ALLERGY, importance=0.2)
    store.add_messages(s.id, [
        {"role": "user", "text": "I was thinking about dinner: maybe a curry with lentils."},
        {"role": "assistant", "text": "A lentil curry sounds good for dinner."},
        *({"role": "user", "text": f"Status note {n} about the sprint board."} for n in range(30)),
    ])
    return s.id


def pin_texts(ctx) -> list[str]:
    return [p.content for p in ctx.pins]


def test_a_lasting_pin_beyond_top_pins_is_shown_with_a_query(db_path) -> None:
    with MemoryStore(db_path, config={"top_pins": 5, "embedding_model": None}) as store:
        sid = fill(store)
        ctx = store.build_context(sid, query=QUESTION)
        assert ALLERGY in pin_texts(ctx)
        assert any("dinner" in m.text for m in ctx.relevant_messages)
        plain = store.build_context(sid)  # without a query: the top pins, as configured
        assert ALLERGY not in pin_texts(plain) and len(plain.pins) == 5


def test_lasting_pins_stay_within_the_budget(db_path) -> None:
    with MemoryStore(db_path, config={"top_pins": 5, "embedding_model": None}) as store:
        sid = fill(store)
        shown = {}
        for budget in (40, 80, 160, 400):
            ctx = store.build_context(sid, max_tokens=budget, query=QUESTION)
            assert ctx.total_tokens <= budget
            shown[budget] = ALLERGY in pin_texts(ctx)
        assert shown[400] and not shown[40]  # taken when it fits, never past the budget


def test_top_pins_zero_still_shows_no_pin(db_path) -> None:
    with MemoryStore(db_path, config={"top_pins": 0, "embedding_model": None}) as store:
        sid = fill(store)
        assert store.build_context(sid, query=QUESTION).pins == ()


FOODS = ["peanuts", "shellfish", "sesame", "kiwi", "mustard", "celery", "lupin", "soy", "walnuts",
         "cashews", "mango", "avocado", "banana", "oats", "barley", "rye", "lentils", "chickpeas"]


def test_lasting_pins_beyond_their_share_wait_behind_the_answers(db_path) -> None:
    from localmem.packing import LASTING_SHARE

    with MemoryStore(db_path, config={"embedding_model": None, "cache_ttl": 0}) as store:
        s = store.create_session()
        for food in FOODS:  # eighteen lasting facts, none about the gate
            store.pin(s.id, f"I am allergic to {food}.")
        answer_pin = store.pin(s.id, "The gate paint gives me a rash, I am allergic to it.")
        code = store.add_message(s.id, "user", "The gate code is 4417.")
        store.add_messages(s.id, [{"role": "user", "text": f"The gate was painted on day {n}."}
                                  for n in range(120)])
        budget = 800
        ctx = store.build_context(s.id, max_tokens=budget, query="What is the gate code?")
        assert code.id in [m.id for m in ctx.relevant_messages]
        shown = [p for p in ctx.pins if p.id != answer_pin.id]
        assert answer_pin.id in [p.id for p in ctx.pins]  # it answers: no share applies
        assert 1 <= len(shown) < len(FOODS)  # the most important first, within the share
        assert sum(p.token_count + 1 for p in shown) <= max(budget * LASTING_SHARE, shown[0].token_count + 1)
        assert len(ctx.relevant_messages) > 20  # the room went to the question
        roomy = store.build_context(s.id, max_tokens=budget, query="Which foods am I allergic to?")
        assert len(roomy.pins) == len(FOODS) + 1  # pins that answer are all shown
