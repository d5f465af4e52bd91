"""Which names a model lists are entities, and which items only name a thing
(``localmem.entities``, issue 21 point 4). Conversations written for these tests."""

from __future__ import annotations

import pytest

from localmem import entities
from localmem.entities import bare_name, common_word, identifies, is_entity, names_things
from localmem.facts import ModelFacts
from localmem.remember import must_remember
from localmem.testimony import user_evidence
from localmem.tokens import Tokenizer

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
    """Issue 21, point 4: "Enjoy your pizza!" wishes; it points at no pizza of the chat. The
    same words in a statement ("my pizza is in the oven") do."""
    wished = [("user", "Ran my first 5k today!"), ("assistant", "Well done! Enjoy your pizza tonight.")]
    assert not is_entity("pizza", wished)
    stated = [("user", "Ran my first 5k today! My pizza is in the oven."), ("assistant", "Well done!")]
    assert is_entity("pizza", stated)


HOUSE = [
    ("user", "Jobs: bins, bathroom, and the kitchen. Sam took the bins out last night."),
    ("assistant", "Then shift it: week 1 you on the bathroom, Sam on the kitchen."),
    ("user", "I owe 2,400 on a credit card and put 500 a month into the holiday fund."),
    ("user", "The router is a Fritz!Box 7590. My car repair savings are low."),
    ("user", "I stopped the glipizide in January; Mr Okafor gave me the basil."),
]


def test_everyday_words_name_a_thing_only_when_someones_counted_or_named() -> None:
    """Issue 21, point 4: words of the common vocabulary ("the kitchen", "the bins", "the
    basil") point at a thing every chat has; they name an entity when a sentence makes it
    someone's ("my car repair savings"), gives it an amount ("2,400 on a credit card", "500
    a month into the holiday fund") or says it is a named thing ("The router is a
    Fritz!Box 7590"). A rarer word pointed at with "the" is one ("the glipizide")."""
    for thing in ("savings", "credit card", "holiday fund", "router", "glipizide"):
        assert is_entity(thing, HOUSE), thing
    for thing in ("bins", "kitchen", "bathroom", "basil"):
        assert not is_entity(thing, HOUSE), thing  # "week 1 you on the bathroom": the week's number


def test_a_thing_brought_in_as_one_of_a_kind_is_no_name() -> None:
    """Issue 21, point 4: a rarer word the chat writes after "a" ("a whiteboard on the
    fridge") is one of a kind; "the whiteboard" then points back at it and names nothing. Made
    someone's ("our whiteboard"), it is a thing of theirs; never said with "a", "the" is
    enough ("the glipizide")."""
    assert not common_word("whiteboard")
    brought = [("user", "We've got a whiteboard on the fridge."), ("user", "I'm drawing the grid on the whiteboard.")]
    assert not is_entity("whiteboard", brought)
    owned = [("user", "We've got a whiteboard on the fridge."), ("user", "Our whiteboard is full.")]
    assert is_entity("whiteboard", owned)
    assert is_entity("whiteboard", [("user", "I'm drawing the grid on the whiteboard.")])


def test_the_common_vocabulary_is_the_tokenizers_whole_words() -> None:
    """A word cl100k holds whole after a space is an everyday word; a drug or a rare word is
    cut in pieces."""
    assert common_word("kitchen") and common_word("router") and common_word("bread")
    assert not common_word("glipizide") and not common_word("carprofen") and not common_word("limescale")


def test_without_the_tokenizer_no_word_is_taken_for_common(monkeypatch) -> None:
    """When cl100k cannot load, nothing is known to be an everyday word: "the kitchen" is
    pointed at, as before the rule."""
    monkeypatch.setattr(entities, "_VOCABULARY", Tokenizer("o200k_base"))  # not shipped: the estimate
    assert not common_word("kitchen")
    assert is_entity("kitchen", HOUSE)


def test_a_relation_between_everyday_things_states_nothing() -> None:
    """Issue 21, point 4: "park near place" (cut from "the park near my place") places one
    everyday thing by another, with no name; a relation with a name states where it is."""
    assert names_things("park near place")
    assert not names_things("Hotel Aurora near Milano Centrale")
    assert not names_things("park near Elm Street")
    said = [("user", "I go birdwatching in the park near my place, and stay at the Hotel Aurora near Milano Centrale.")]
    data = ModelFacts(key_facts=["park near place", "Hotel Aurora near Milano Centrale"]).grounded(said)
    assert data.key_facts == ["Hotel Aurora near Milano Centrale"]


CHAT = [
    "Josh took dated photos of the carpet on the first day, and the tenancy agreement lists it.",
    "Run lpstat -v, then sudo apt install sane-airscan. The ticket is OPS-2291.",
    "We stay at the Granvia near the station, postcode LS6 2QT.",
]


@pytest.mark.parametrize(
    ("name", "identifier"),
    [
        ("OPS-2291", True),  # a code
        ("LS6 2QT", True),
        ("lpstat -v", True),  # an option's dash
        ("sane-airscan", True),  # a compound with a part outside the common vocabulary
        ("the Granvia booking", True),  # a name the chat writes as one
        ("Josh's dated photos", False),  # whose photos, not which
        ("tenancy agreement", False),  # a common noun phrase, however rare its words
        ("Tenancy Agreement", False),  # capitals the chat never wrote
        ("check-in report", False),  # a compound of everyday words
        ("We stay", False),  # a capital owed to a sentence's start
    ],
)
def test_an_identifier_names_a_thing_by_a_code_or_a_name(name: str, identifier: bool) -> None:
    """Issue 21, point 1: a checkpoint's identifiers are codes, numbers and names, not the
    documents and photos the chat speaks of."""
    assert identifies(name, CHAT) is identifier
