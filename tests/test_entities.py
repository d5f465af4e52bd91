"""Which names a model lists are entities, and which items only name a thing
(``localmem.entities``, issue 21 point 4). Conversations written for these tests."""

from __future__ import annotations

from localmem.entities import bare_name, is_entity
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
