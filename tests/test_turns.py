"""turns: a short reply reports done the instruction of the turn right before it (issue 21,
point 1): read by where the reply stands, not by a list of its words."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from localmem.turns import instructions, names, reported_done, reports
from localmem.words import stem

TRIPPING = [
    ("user", "the kitchen sockets keep tripping the RCD"),
    ("assistant", "Unplug everything on that circuit, then push the RCD switch back up."),
]


@pytest.mark.parametrize(
    ("text", "acts"),
    [
        ("Unplug everything on that circuit, then push the RCD switch back up.", ["unplug", "push"]),
        ("Bin the mouldy bread and wipe the shelf with vinegar.", ["bin", "wipe"]),
        ("Bin anything mouldy.", ["bin"]),  # a verb before a word pointing at things
        ("Try unplugging the kettle.", ["unplugging"]),
        ("You should also check the fuse.", ["check"]),
        ("Can you reset it?", ["reset"]),
        ("Did you reset it?", []),  # asks what was done
        ("Don't touch the fuse box.", []),  # forbids
        ("If it trips again, call an electrician.", []),  # a case that may not come
        ("The RCD protects the circuit.", []),
    ],
)
def test_the_acts_a_turn_tells_the_reader_to_do(text: str, acts: list[str]) -> None:
    assert [i.verb for i in instructions(text)] == [stem(a) for a in acts]


@pytest.mark.parametrize(
    ("reply", "done"),
    [
        ("did that", True),
        ("done", True),
        ("yep. did that", True),
        ("ok unplugged all. stays on now", True),
        ("unplugged everything, still trips", True),
        ("done?", False),  # asks
        ("will do", False),  # a plan
        ("didn't help", False),  # negated
        ("ok", False),  # an acknowledgement reports nothing
        ("tripped again", False),  # another act
        ("unplugged the kettle", False),  # a thing the instruction did not name
        ("I unplugged everything last night before I went to bed and the next morning", False),  # tells more
    ],
)
def test_a_short_reply_reports_the_instruction_done(reply: str, done: bool) -> None:
    unplug = instructions("Unplug everything on that circuit.")[0]
    assert reports(reply, unplug) is done


def test_a_report_naming_its_verb_reports_that_instruction_only() -> None:
    push, = [i for i in instructions(TRIPPING[1][1]) if i.verb == "push"]
    unplug, = [i for i in instructions(TRIPPING[1][1]) if i.verb == "unplug"]
    assert reports("unplugged all", unplug) and not reports("unplugged all", push)
    assert reports("did that", unplug) and reports("did that", push)  # a bare report: the whole turn


@pytest.mark.parametrize(
    ("item", "named"),
    [
        ("Unplug all appliances on the circuit", True),
        ("Unplugged all appliances", True),  # done form: the same act
        ("User unplugged the appliances", True),
        ("Remember to unplug everything", True),
        ("Push the RCD switch back up", False),  # another act
        ("Call an electrician", False),
    ],
)
def test_an_item_names_an_instruction_by_its_act(item: str, named: bool) -> None:
    unplug = instructions("Unplug everything on that circuit.")[0]
    assert names(item, unplug) is named


def test_an_item_names_an_instruction_with_its_object() -> None:
    bread = instructions("Bin the mouldy bread.")[0]
    assert names("bin the bread", bread) and not names("bin the cheese", bread)


@pytest.mark.parametrize(
    ("reply", "item", "done"),
    [
        ("did that", "Unplug all appliances on the circuit", True),
        ("ok unplugged all. stays on now", "Unplug all appliances on the circuit", True),
        ("ok unplugged all. stays on now", "Push the RCD switch back up", False),  # its own verb only
        ("did that", "Push the RCD switch back up", True),
        ("what do you mean by the circuit?", "Unplug all appliances on the circuit", False),
        ("will do after dinner", "Unplug all appliances on the circuit", False),
    ],
)
def test_reported_done_reads_the_reply_right_after_the_instruction(reply: str, item: str, done: bool) -> None:
    assert reported_done(item, [*TRIPPING, ("user", reply)]) is done


def test_an_instruction_asked_again_after_its_report_is_to_do_again() -> None:
    talk = [*TRIPPING, ("user", "did that"), ("assistant", "It tripped again? Unplug everything once more."),
            ("user", "why?")]
    assert not reported_done("Unplug all appliances", talk)


def test_a_report_not_right_after_the_instruction_is_not_its_report() -> None:
    talk = [*TRIPPING, ("assistant", "Tell me what happens."), ("user", "did that")]
    assert not reported_done("Unplug all appliances", talk)  # it answers "Tell me what happens."


@given(st.text(max_size=200), st.text(max_size=60))
def test_turns_never_raise(text: str, reply: str) -> None:
    for instruction in instructions(text, [reply]):
        reports(reply, instruction)
        names(reply, instruction)
    reported_done(reply, [("assistant", text), ("user", reply)])


def test_a_report_naming_its_act_answers_the_latest_instruction_of_that_act() -> None:
    """Issue 21 (seventh set, seen after its run: terse_fuse): "binned." two turns after
    "bin it or get it checked" reports the binning; "did that" there reports nothing of it."""
    talk = [("user", "kettle trips it the second i plug it in"),
            ("assistant", "thats your culprit. bin it or get it checked."),
            ("user", "was leaking out the bottom yesterday"),
            ("assistant", "water in a kettle base does exactly that. dont use it")]
    assert reported_done("bin the kettle", [*talk, ("user", "binned. new one tmrw")])
    assert not reported_done("bin the kettle", [*talk, ("user", "did that")])
    assert not reported_done("bin the kettle", [*talk, ("user", "not binning it yet")])
