"""Who did what (issue 21, points 2 and 4): a summary's sentence or a model's fact that gives a
named person an act, a possession or a name the conversation gives someone else is dropped
(``localmem.roles``). The conversations and claims are written for this test; the real
models' cases are replayed in tests/test_real_outputs.py."""

from __future__ import annotations

import json
import logging

import pytest

from localmem import MemoryConfig, MemoryStore
from localmem.roles import miscast
from localmem.summarizer.support import ground
from tests.real_replay import Replay

MATCH = [
    ("user", "My son Tom is 9 and his team plays in Leeds on Saturday, coached by Mr Lewis."),
    ("assistant", "Sounds fun. Who is driving?"),
    ("user", "I'm driving the minibus. Ana from the team booked the pitch, and her dad Raj paid the £60 fee."),
    ("assistant", "Great. Do you need a packing list?"),
    ("user", "Yes please. My wife packed the kit bag last night. The team's mascot is a fox, they named it Rusty."),
    ("assistant", "Then pack water, snacks and plasters. Check the boots still fit."),
    ("user", "Planning a barbecue after the match with Ana and Raj too."),
]


@pytest.mark.parametrize(
    ("claim", "why"),
    [
        ("Tom is driving the minibus.", "gives an act"),  # "I'm driving": the user
        ("Raj booked the pitch for Saturday.", "gives an act"),  # Ana booked it
        ("Tom and Ana booked the pitch.", "gives an act"),  # each name of the subject
        ("Ana and Raj are planning a barbecue after the match.", "gives an act"),  # the user's "Planning ..."
        ("Tom prepared the kit bag.", "gives an act"),  # never "prepared": who acts on the bag? the wife
        ("Tom's wife packed the kit bag.", "gives a thing"),  # "My wife": the user's
        ("Ana's fee was £60.", "gives a thing"),  # no: "Ana's" never, and "the £60 fee" is nobody's
        ("Tom is called Rusty.", "gives a name"),  # "named it Rusty": a person is never "it"
        ("The minibus is called Rusty.", "gives a name"),  # "it" is the fox
        ('The match, "Rusty", is in Leeds.', "gives a name"),  # a title never said of the match
    ],
)
def test_a_claim_giving_someone_else_s_role_is_miscast(claim: str, why: str) -> None:
    if claim == "Ana's fee was £60.":
        assert miscast(claim, MATCH) is None  # a thing no one's in the chat: nothing to say
        return
    reason = miscast(claim, MATCH)
    assert reason is not None and reason.startswith(why)


@pytest.mark.parametrize(
    "claim",
    [
        "Ana booked the pitch.",
        "The user is driving the minibus.",
        "Raj paid the £60 fee.",
        "Ana's dad Raj paid the fee.",  # "her dad Raj": "her" may be Ana
        "The user's wife packed the kit bag last night.",
        "The user is planning a barbecue with Ana and Raj.",
        "The fox is called Rusty.",
        "The team's mascot is named Rusty.",
        "Tom scored twice.",  # no clause scores: the other checks decide
        "Mr Lewis coaches the team.",  # "coached by Mr Lewis": a passive's doer is not read
    ],
)
def test_a_claim_binding_as_the_conversation_binds_is_not_miscast(claim: str) -> None:
    assert miscast(claim, MATCH) is None


def test_a_transcript_s_label_is_who_says_i() -> None:
    """A label said on two lines or more is a transcript's speaker; one "Note: ..." is not."""
    pairs = [
        ("user", "Priya: I collected £240 for the present.\nHassan: I signed the card and bought the bell."),
        ("user", "Priya: Lovely, I'll wrap it tonight.\nHassan: Thanks!"),
    ]
    assert miscast("Priya collected £240 for the present.", pairs) is None
    assert miscast("Hassan collected £240 for the present.", pairs) is not None
    assert miscast("Hassan signed the card.", pairs) is None
    once = [("assistant", "Got it: I booked the hall for Friday."), ("user", "Great, Got can come too.")]
    assert miscast("Got booked the hall.", once) is not None  # "Got it: " once is no label: the assistant booked


def test_the_user_may_be_a_name_the_user_never_says() -> None:
    """A tool's record names the patient; the user's "I" may be them, never someone the
    user speaks of by name."""
    pairs = [
        ("tool", "pharmacy_lookup: patient Daniel Brandt, refill ready Saturday."),
        ("user", "Thanks. I'll pick it up on Saturday with my brother Leon."),
    ]
    assert miscast("Daniel Brandt will pick up the refill on Saturday.", pairs) is None
    assert miscast("Leon will pick up the refill on Saturday.", pairs) is not None


def test_a_miscast_sentence_is_dropped_from_a_summary() -> None:
    summary = "Tom's team plays in Leeds on Saturday. Raj booked the pitch. Raj paid the £60 fee."
    grounded = ground(summary, MATCH)
    assert grounded.text == "Tom's team plays in Leeds on Saturday. Raj paid the £60 fee."
    ((number, why),) = grounded.dropped
    assert number == 2 and why.startswith("gives an act")


def test_the_store_drops_a_miscast_summary_sentence_and_fact(db_path, caplog) -> None:
    facts = {
        "key_facts": [
            "Tom's wife packed the kit bag last night",
            "The user's wife packed the kit bag last night",
            "Raj booked the pitch",
            "Ana booked the pitch",
        ]
    }
    with Replay(models=["llama3.2:latest"]) as server:
        server.reply = "Tom's team plays in Leeds on Saturday. Raj booked the pitch. Raj paid the £60 fee."
        server.json_reply = json.dumps(facts)
        config = MemoryConfig(
            ollama_host=server.host, summary_threshold=len(MATCH), structured_min_tokens=0, model_trust="checked"
        )
        with MemoryStore(db_path, config=config) as store, caplog.at_level(logging.INFO, logger="localmem"):
            session = store.create_session(model="llama3.2:latest").id
            store.add_messages(session, [{"role": r, "text": t} for r, t in MATCH])
            summary = store.summarize(session)
            (kept,) = store.get_summary_facts(session)
    assert summary is not None and summary.source == "llama3.2:latest"
    assert summary.text == "Tom's team plays in Leeds on Saturday. Raj paid the £60 fee."
    assert "sentence 2 of 3 dropped: gives an act" in caplog.text
    assert "The user's wife packed the kit bag last night" in kept.data.key_facts
    assert "Ana booked the pitch" in kept.data.key_facts
    assert "Tom's wife packed the kit bag last night" not in kept.data.key_facts
    assert "Raj booked the pitch" not in kept.data.key_facts


def test_the_parties_are_read_as_the_turns_say_i_and_you() -> None:
    pairs = [
        ("user", "coupon?"),
        ("assistant", "i'll bring it"),
        ("user", "Can you book the table? I'll order the cake."),
        ("assistant", "Sure, I booked the table for 7."),
    ]
    assert miscast("The user brings a coupon.", pairs) is not None  # the assistant's "i'll bring it"
    assert miscast("The assistant brings a coupon.", pairs) is None
    assert miscast("User booked the table.", pairs) is not None
    assert miscast("The user will order the cake.", pairs) is None
    assert miscast("The assistant will order the cake.", pairs) is not None


def test_a_place_is_given_no_act() -> None:
    """A name the chat writes after "in", "at", "near" or "into" is a place, not someone
    whose acts are read; a person's are."""
    pairs = [("user", "We're staying in Leeds with Ana. I'm hosting the match party.")]
    assert miscast("Leeds is hosting the match party.", pairs) is None
    assert miscast("Ana is hosting the match party.", pairs) is not None


def test_the_user_is_the_name_they_give_as_theirs() -> None:
    pairs = [("user", "I'm Leo. I taught Ana to drive, and Tomas taught her to swim.")]
    assert miscast("Leo taught Ana to drive.", pairs) is None
    assert miscast("Tomas taught Ana to drive.", [("user", "I taught Ana to drive. Tomas is her husband.")]) is not None


def test_an_object_is_a_thing_a_determiner_opens() -> None:
    """With no clause using the verb, the clauses acting on its object stand for it; a
    question's "whether ..." is no object."""
    pairs = [("user", "In my story, Omar has to decide whether to sell the bakery. Should I enter it in a prize?")]
    assert miscast("The user asked whether to enter it in the Lantern prize.", pairs) is None
    assert miscast("Omar is selling the bakery.", pairs) is None
    assert miscast("The user is preparing the bakery.", pairs) is not None  # only Omar acts on the bakery


TEAM = [
    ("user", "We lost 7-3 again. We've got a new girl joining, Jess, she played for her uni team."),
    ("assistant", "A uni player is a real signing. Who organises the games?"),
    ("user", "We never bothered before, we just turned up and played. Now Sam books the pitch every week."),
    ("assistant", "Then the team has its organiser. Anything else to sort?"),
    ("user", "She played in goal for them last year, our new girl, so Dan will run the warm-up."),
]


@pytest.mark.parametrize(
    ("claim", "why"),
    [
        # "she" is Jess, the name before it in its sentence; "we ... played" says nothing
        # of the uni team: the act is the verb with what it is done for
        ("Sam played for his uni team.", "gives an act"),
        ("Dan plays for the uni team.", "gives an act"),
        ("Jess played for her uni team.", None),
        ("Sam played with four for most of it.", None),  # no clause says it: nothing said
        ("Sam books the pitch every week.", None),
        # "She played in goal ...": no name before "she" in her sentence, so she may be
        # anyone named: nothing said
        ("Sam played in goal last year.", None),
    ],
)
def test_he_or_she_is_the_name_before_them_and_the_act_is_done_to_something(claim: str, why: str | None) -> None:
    found = miscast(claim, TEAM)
    assert (found is None) if why is None else (found is not None and found.startswith(why))


def test_the_store_pins_no_miscast_must_remember_item(db_path) -> None:
    """A model's must-remember item is held to who did what as its summary facts are."""
    facts = {"must_remember": ["Sam played for his uni team", "Jess played for her uni team"]}
    with Replay(models=["llama3.2:latest"]) as server:
        server.reply = "Jess is joining the team; Sam books the pitch every week."
        server.json_reply = json.dumps(facts)
        config = MemoryConfig(ollama_host=server.host, summary_threshold=len(TEAM), structured_min_tokens=0, model_trust="checked")
        with MemoryStore(db_path, config=config) as store:
            session = store.create_session(model="llama3.2:latest").id
            store.add_messages(session, [{"role": r, "text": t} for r, t in TEAM])
            store.summarize(session)
            pinned = [p.content for p in store.get_pins(session)]
    assert any("Jess played for her uni team" in p for p in pinned)
    assert not any("Sam" in p for p in pinned)
