"""Which names a model lists are entities, and which items only name a thing
(``localmem.entities``, issue 21 point 4). Conversations written for these tests."""

from __future__ import annotations

from localmem.entities import bare_name, is_entity, names_things
from localmem.facts import ModelFacts, must_remember, user_evidence

CI = [
    ("user", "We run pytest -n 4 on CI, with pytest-xdist. Locally I just run pytest."),
    ("assistant", "Use pytest's tmp_path fixture so each test gets its own directory."),
    ("user", "Done. My laptop is a ThinkPad X1 and my sister's laptop is a MacBook."),
]


def test_a_command_line_is_no_entity() -> None:
    assert not is_entity("pytest -n 4", CI)  # how a program is run, not a name
    assert not is_entity("pytest -n 4 --maxfail=2", [("user", "pytest -n 4 --maxfail=2 fails.")])
    assert is_entity("Lindenhof-5G", [("user", "The wifi is called Lindenhof-5G.")])  # a hyphen inside a name
    assert is_entity("ThinkPad X1", CI)


def test_a_command_line_or_a_possessive_phrase_alone_is_a_bare_name() -> None:
    assert bare_name("pytest -n 4")  # its program, named
    assert bare_name("pytest's tmp_path fixture")  # a possessive opens the noun phrase
    assert not bare_name("pytest -n 4 on CI")  # where it runs: said of it
    assert not bare_name("my sister's laptop is a MacBook")  # a statement
    assert not bare_name("Fritz!Box 7590")  # a model number is a value


def test_a_pin_that_only_names_a_command_or_a_fixture_is_not_kept() -> None:
    answer = ModelFacts(must_remember=[
        "pytest -n 4", "pytest's tmp_path fixture", "runs pytest -n 4 on CI", "My laptop is a ThinkPad X1",
    ])
    evidence = user_evidence(CI + [("user", "I tried pytest's tmp_path fixture.")])
    assert must_remember(answer, evidence) == ["runs pytest -n 4 on CI", "My laptop is a ThinkPad X1"]


def test_a_clause_is_no_entity() -> None:
    """Issue 21, point 4: a phrase with a finite verb says something of a thing and names
    none; the thing itself, said in the same message, is one."""
    garden = [("user", "The Sungold plants are very sweet once they ripen, and the Genovese basil has started flowering.")]
    assert not is_entity("Sungold plants are very sweet", garden)
    assert not is_entity("Genovese basil has started flowering", garden)
    assert is_entity("Genovese basil", garden)
    assert is_entity("Sungold plants", garden)


def test_only_naming_things_states_nothing() -> None:
    """Issue 21, point 4: three or more nouns, whatever their number, name things; a verb
    form, a number, a time or a relation makes a statement."""
    assert names_things("bleach and limescale spray")
    assert names_things("bathroom job rotation")
    assert names_things("Sungold cherry tomatoes")
    assert not names_things("bleach and limescale spray mixed")  # a verb form
    assert not names_things("four people in the house")  # a number, a preposition
    assert not names_things("bin collection due Tuesday")  # a date, a relation
    assert not names_things("Hotel Aurora near Milano Centrale")  # a relation
    assert not names_things("Brother HL-L2350DW printer")  # a model's code
    assert not names_things("grey clouds gather slow")  # a plural before its verb: a subject
    assert not names_things("bathroom rota")  # two words: bare_name's to judge
    assert not names_things("the bathroom rota is on the whiteboard")  # a statement


def test_a_key_fact_or_pin_that_only_names_things_is_not_kept() -> None:
    chores = [
        ("user", "Never mix the bleach and the limescale spray, the fumes are toxic."),
        ("user", "The bathroom job rotation starts Monday with Sam."),
    ]
    answer = ModelFacts(
        key_facts=["bleach and limescale spray", "never mix the bleach and the limescale spray",
                   "bathroom job rotation", "bathroom job rotation starts Monday with Sam"],
        must_remember=["bleach and limescale spray", "never mix the bleach and the limescale spray"],
    )
    assert answer.grounded(chores).key_facts == [
        "never mix the bleach and the limescale spray", "bathroom job rotation starts Monday with Sam"]
    assert must_remember(answer, user_evidence(chores)) == ["never mix the bleach and the limescale spray"]


def test_a_thing_a_wish_names_is_not_pointed_at() -> None:
    """Issue 21, point 4: "Enjoy the pizza!" wishes; it points at no pizza of the chat. The
    same words in a statement ("the pizza is in the oven") do."""
    wished = [("user", "Ran my first 5k today!"), ("assistant", "Well done! Enjoy the pizza tonight.")]
    assert not is_entity("pizza", wished)
    stated = [("user", "Ran my first 5k today! The pizza is in the oven."), ("assistant", "Well done!")]
    assert is_entity("pizza", stated)
