"""A summary's clause is held to how much the conversation said (issue 21, point 2): a
portion dropped or changed ("ate a bar" for "ate half of a bar": a dose doubled), a level
stated as the size of a change ("a 78,000 raise" for "a raise to 78,000") or the reverse.
The conversations and summaries are written for this test; the real models' cases
(qwen2.5-coder:0.5b dog_chocolate, qwen2.5-coder:1.5b student_loan) are replayed in
tests/test_real_outputs.py (their OPEN_IN_ISSUE_21 entries are gone)."""

from __future__ import annotations

import logging
import pytest

from localmem.summarizer.amounts import misquantified
from localmem.summarizer.support import ground
from tests.ollama_server import FakeOllama
from tests.test_summary_support import server, summarize  # noqa: F401 - the fixture

SNACK = [
    "My toddler Ben ate half of a chocolate muffin before dinner.",
    "She also took two of the 5 mg melatonin tablets by mistake, then some of a banana.",
    "Earlier he ate a whole sandwich. He also ate part of a cookie.",
    "I bought a chocolate muffin at the bakery; Ben ate half of the muffin.",
]


@pytest.mark.parametrize(
    "clause",
    [
        "Ben ate half of a chocolate muffin.",
        "Ben ate half a muffin before dinner.",  # "half a" is "half of a"
        "Ben ate about half of the muffin.",
        "She took two of the tablets by mistake.",
        "Ben ate some of the cookie.",  # a vague portion: any portion supports it
        "He ate a sandwich.",  # said whole, with the same verb
        "The user bought a chocolate muffin at the bakery.",  # another verb than the portion's
        "A chocolate muffin is too sweet before dinner.",  # no verb done to it
        "Ben ate chocolate.",  # no determiner: no amount claimed
    ],
)
def test_the_amount_the_conversation_gives_is_supported(clause: str) -> None:
    assert misquantified(clause, SNACK) is None


RAISE = [
    "I got a raise of 5,000 to 78,000 dollars a year, so there's an extra 400 a month.",
    "My rent went up to 1,400 in May.",
    "The doctor cut her dose from 10 mg to 5 mg.",
    "Put about 130 more into the 401(k) and keep the savings at 9,000.",
]


@pytest.mark.parametrize(
    ("conversation", "clause", "why"),
    [
        (SNACK, "Ben ate a chocolate muffin before dinner.", "drops the portion"),  # half of one
        (SNACK, "Ben ate the muffin.", "drops the portion"),
        (SNACK, "Ben has eaten a cookie.", "drops the portion"),  # part of one: "eaten" is "ate"
        (SNACK, "She took the 5 mg melatonin tablets by mistake.", "drops the portion"),  # two of them
        (SNACK, "She took three of the melatonin tablets.", "changes the portion"),
        (SNACK, "Ben ate a quarter of the muffin.", "changes the portion"),
        (RAISE, "The user got a 78,000 dollar raise.", "states as a change what the conversation gives as a level"),
        (RAISE, "The user got a raise of 78,000.", "states as a change"),
        (RAISE, "The rent increased by 1,400.", "states as a change"),
        (RAISE, "The dose was cut by 10 mg.", "states as a change"),  # 10 mg was the dose before
        (RAISE, "The user now earns 5,000 a year.", "states as a level what the conversation gives as a change"),
        (RAISE, "The 401(k) contribution goes up to 130.", "states as a level"),
    ],
)
def test_an_amount_the_conversation_does_not_give_is_unsupported(
    conversation: list[str], clause: str, why: str
) -> None:
    reason = misquantified(clause, conversation)
    assert reason is not None and reason.startswith(why)


@pytest.mark.parametrize(
    "clause",
    [
        "The user got a 5,000 raise.",  # "a raise of 5,000 to 78,000": both said
        "The user got a raise to 78,000 dollars a year.",
        "The user now earns 78,000.",
        "There is an extra 400 a month.",
        "The rent rose to 1,400 in May.",
        "Her dose was cut by 5 mg.",  # from 10 to 5: a change of 5
        "Her dose was cut to 5 mg.",
        "The user will put 130 more into the 401(k).",
        "The savings stay at 9,000.",
        "The user earns 78k.",  # "78k" is 78,000
        "The rent is 1,400.",  # no role: not judged here
    ],
)
def test_a_number_in_the_role_the_conversation_gives_it_is_supported(clause: str) -> None:
    assert misquantified(clause, RAISE) is None


DOG = [
    ("user", "Help, my beagle Max ate part of a chocolate bar!"),
    ("assistant", "How much, and what kind? How much does he weigh?"),
    ("user", "About half of a 100 gram dark chocolate bar. He's 11 kg."),
    ("assistant", "That can be dangerous for an 11 kg dog. Call your vet now."),
    ("user", "The vet wants to see him tomorrow at 9 am."),
    ("assistant", "Keep that appointment."),
]


def test_ground_drops_the_sentence_that_doubles_a_dose() -> None:
    kept = "The vet wants to see Max tomorrow at 9 am."
    grounded = ground(f"Max ate a dark chocolate bar. {kept} Max weighs 11 kg.", DOG)
    assert grounded.text == f"{kept} Max weighs 11 kg."
    assert grounded.dropped == ((1, "drops the portion the conversation gives"),)
    assert ground(f"Max ate half of a dark chocolate bar. {kept}", DOG).dropped == ()


def test_the_store_keeps_no_summary_that_states_a_level_as_a_change(
    db_path, server: FakeOllama, caplog: pytest.LogCaptureFixture
) -> None:
    pairs = [
        ("user", "I'm 31 and just got a raise to 64,000 euros a year."),
        ("assistant", "Congratulations. What would you like to do with the extra money?"),
        ("user", "Pay off my car loan of 7,000 first."),
        ("assistant", "A good plan: the car loan goes first, then savings."),
    ]
    kept = "The car loan of 7,000 goes first, then savings. The user is 31."
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = summarize(db_path, server, f"The user got a 64,000 euro raise. {kept}", pairs)
    assert (summary.source, summary.text) == ("llama3.2:latest", kept)
    assert "sentence 1 of 3 dropped: states as a change what the conversation gives as a level" in caplog.text


# A number joined to a unit the conversation says only of other numbers (held-out 4:
# terse_phone_plan's "a 30GB plan" where 30 is a price and GB is said of 8, 15 and 21; the
# conversation below is written for this test).
INTERNET = [
    "my internet is so slow. 45/mo for 100 mbps",
    "how fast do u need? speed test says what?",
    "speed test says 38 mbps lol",
    "fiber near u is 500 mbps for 55/mo, or cable 300 mbps for 40",
    "cable it is. 40 is fine",
]


@pytest.mark.parametrize(
    "clause",
    [
        "The user pays 45 a month for 100 Mbps",  # said joined
        "the speed test shows 38 Mbps",
        "fiber offers 500 mbps",
        "cable costs 40 a month",  # a rate: not judged here
        "the user picks one of two plans",  # numbers in words are not judged
        "the user streams 4K video",  # a unit the conversation never says with a number
        "cable gives 40 Mbps",  # "40 is fine": a bare number may be of any unit
    ],
)
def test_a_number_with_the_unit_the_conversation_gives_it_is_supported(clause: str) -> None:
    assert misquantified(clause, INTERNET) is None


@pytest.mark.parametrize("clause", ["the user is on a 45 Mbps plan", "fiber is 55mbps"])  # prices: "45/mo", "55/mo"
def test_a_number_joined_to_a_unit_the_conversation_never_joins_it_to_is_unsupported(clause: str) -> None:
    assert misquantified(clause, INTERNET) is not None


def test_a_bare_number_answering_a_question_takes_the_unit_asked() -> None:
    chat = ["My plan has 20 GB.", "How much data do you use?", "15"]
    assert misquantified("The user uses 15 GB a month", chat) is None
    assert misquantified("The user uses 15 GB a month", ["My plan has 20 GB.", "Nice plan.", "it's 15/mo, fine"]) is not None


def test_the_store_keeps_no_summary_joining_a_number_to_another_unit(
    db_path, server: FakeOllama, caplog: pytest.LogCaptureFixture
) -> None:
    pairs = [("user" if i % 2 == 0 else "assistant", t) for i, t in enumerate(INTERNET)]
    kept = "The user chose cable at 300 Mbps. Fiber offers 500 Mbps."
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = summarize(db_path, server, f"The user pays for a 45 Mbps plan. {kept}", pairs)
    assert (summary.source, summary.text) == ("llama3.2:latest", kept)
    assert "sentence 1 of 3 dropped: joins 45 to a unit the conversation says only of other numbers" in caplog.text
