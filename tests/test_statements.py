"""What a sentence says of an item besides its words (localmem.statements, localmem.progress), on examples
written for these tests (issue 21: status, aspect, who likes what, what an item names)."""

from __future__ import annotations

import pytest

from localmem import progress, statements


@pytest.mark.parametrize(
    ("item", "later", "done"),
    [
        ("Remember to water the tomatoes", [("Watered.", True)], True),  # an elliptical reply
        ("Remember to water the tomatoes", [("Watered.", False)], False),  # not an answer to it
        ("Book seats for the concert on Friday", [("We booked the seats this morning.", False)], True),
        ("Configure the north gateway", [("I configured the north router.", False)], False),
        ("Send the invoice to Marta", [("I sent it.", True)], False),  # nothing of it named
        ("Send the invoice to Marta", [("I sent the invoice.", True)], True),
        ("Reserve a table at Nando's on June 9", [("We reserved the hotel for June 2.", True)], False),
    ],
)
def test_done_later(item: str, later: list[tuple[str, bool]], done: bool) -> None:
    assert progress.done_later(item, later) is done


@pytest.mark.parametrize(
    ("item", "later", "partly"),
    [
        ("Wash the car and mow the lawn", ["Done, the car is shiny again."], True),
        ("Wash the car and mow the lawn", ["Done: the car is washed and the lawn is mowed."], False),
        ("Wash the car and mow the lawn", ["I will wash the car tomorrow."], False),  # a plan
        ("Wash the car", ["Done, the car is shiny again."], False),  # one thing: done_later's
    ],
)
def test_partly_done(item: str, later: list[str], partly: bool) -> None:
    assert progress.partly_done(item, later) is partly


@pytest.mark.parametrize(
    ("item", "sentence", "now"),
    [
        ("email the landlord about the heating", "OK, I'm emailing the landlord right now.", True),
        ("ring the dentist", "I am ringing the dentist.", True),
        ("write a novel", "I'm writing a novel about my town.", False),  # lasts: still to do
        ("email the landlord", "I will email the landlord.", False),
        ("ring the dentist", "I'm ringing the dentist tomorrow morning.", False),  # a plan
    ],
)
def test_under_way(item: str, sentence: str, now: bool) -> None:
    assert progress.under_way(item, sentence) is now


@pytest.mark.parametrize(
    ("item", "later", "made"),
    [
        ("bake a lemon cake", ["That's a gorgeous lemon cake!"], True),
        ("draft a cover letter", ["Your letter reads well; send it."], True),
        ("write a limerick about cats", ["It's a good idea to write a limerick first."], False),
        ("write a limerick about cats", ["The limerick is in five lines."], False),  # described
        ("write a limerick about cats", ["It will be a fine limerick."], False),  # a plan
        ("write a limerick about cats", ["Is it a good limerick?"], False),  # asked
    ],
)
def test_made_later(item: str, later: list[str], made: bool) -> None:
    assert progress.made_later(item, later) is made


@pytest.mark.parametrize(
    ("sentence", "item", "prefers"),
    [
        ("My sister gets carsick, so please no long drives.", "no long drives", True),
        ("My sister gets carsick, so please no long drives.", "carsick", False),  # the reason
        ("I love window seats because I sleep badly.", "window seats", True),
        ("I prefer green tea, not coffee.", "not coffee", True),  # a list, one stance
        ("Do you like window seats?", "window seats", False),  # a question
        ("The flight leaves at noon.", "flight at noon", False),  # a fact, no stance
    ],
)
def test_prefers(sentence: str, item: str, prefers: bool) -> None:
    assert statements.prefers(sentence, item) is prefers


@pytest.mark.parametrize(
    ("item", "names"),
    [("budget_2024_final.xlsx", False), ("Fix the budget sheet", True), ("thx", False), ("leg day", True)],
)
def test_names_something(item: str, names: bool) -> None:
    assert statements.names_something(item) is names


def test_a_status_is_read_where_the_action_is_said() -> None:
    support = ["We got two offers from Nordbank.", "Let's open the Nordbank account then."]
    assert progress.placed("completed_steps", support, "open the Nordbank account") == (
        None, "not said to be done")
    assert progress.placed("completed_steps", support) == ("completed_steps", None)  # any sentence


@pytest.mark.parametrize(
    ("sentence", "undecided"),
    [
        ("You could paint it white, or leave the brick bare.", True),  # an option offered
        ("Landlords usually ask for two months of rent.", True),  # a generality
        ("The night nurse changed the dressing at six.", True),  # someone else did it
        ("Let's paint it white.", False),
        ("You could paint it white, or leave it; I'll paint it white.", False),  # decided after all
        ("Keep the receipt for the warranty.", False),  # advice, no option
    ],
)
def test_undecided(sentence: str, undecided: bool) -> None:
    assert statements.undecided(sentence) is undecided


def test_a_part_that_advises_is_decided() -> None:
    assert not statements.undecided("Plumbers often use copper; ask yours which pipe fits.")
