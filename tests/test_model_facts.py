"""A model's summary facts are grounded like a checkpoint's items (issue 21, points 1 and 4):
each stands on one message with its negations, and as what its field is: a key fact is a
statement (not a bare value, not turned round), a decision is one someone made, an entity
is a name said as such, an open question was asked and is still open; an update replaces
something said before it; a must-remember fact is lasting. Conversations written for these
tests; the model is the fake Ollama server over a real socket."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from localmem import MemoryStore
from localmem.facts import ModelFacts
from localmem.remember import model_updates, must_remember
from localmem.testimony import user_evidence
from tests.test_checkpoint import JsonFake, fake  # noqa: F401 - the fixture

KITCHEN = [
    ("user", "We're redoing the kitchen. The old tiles are cracked."),
    ("assistant", "Granite is the hardest common countertop because of its quartz content."),
    ("user", "Our contractor is Bauwerk Meier. Let's keep the old sink."),
    ("assistant", "You can pick oak cabinets, or go with walnut if the budget allows."),
    ("user", "The plumber came yesterday. They replaced the valve under the sink."),
    ("assistant", "Good. What budget do you have for the cabinets?"),
    ("user", "About 12000 euros for everything."),
    ("user", "Which grout colour hides stains best?"),
]

# these tests hold the checks: every summary that passes them is the model's (what a
# context shows by default, model_trust="earned": tests/test_earned.py)
CHECKED = {"model_trust": "checked"}


def test_a_models_facts_stand_as_what_their_field_is(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    fake.reply = "We are redoing the kitchen: the old tiles are cracked. Our contractor is Bauwerk Meier. Let's keep the old sink."
    fake.json_reply = {
        "key_facts": [
            "The old tiles are cracked",
            "quartz is the hardest common countertop",  # turned round: granite is
            "12000",  # a bare value
        ],
        "decisions": [
            "keep the old sink",
            "pick oak cabinets",  # only offered
            "replace the valve under the sink",  # the plumber did it; nobody decided it here
        ],
        "entities": ["Bauwerk Meier", "the kitchen's budget", "go with walnut if the budget allows"],
        "open_questions": ["What budget do you have for the cabinets?", "Which grout colour hides stains best?"],
    }
    with MemoryStore(db_path, config={**CHECKED, "summary_threshold": 8, "structured_min_tokens": 0}) as store:
        s = store.create_session(model="llama3.2").id
        store.add_messages(s, [{"role": r, "text": t} for r, t in KITCHEN])
        assert store.summarize(s).source == "llama3.2:latest"
        (facts,) = store.get_summary_facts(s)
    data = facts.data
    assert facts.source == "llama3.2:latest"
    assert data.key_facts[0] == "The old tiles are cracked"
    assert not any("quartz" in f or f == "12000" for f in data.key_facts)
    assert data.decisions[0] == "keep the old sink"
    assert not any("oak" in d or "valve" in d for d in data.decisions)
    assert "Bauwerk Meier" in data.entities
    assert not any("budget" in e or "walnut" in e for e in data.entities)
    assert data.open_questions == ["Which grout colour hides stains best?"]  # the other was answered


LOCKER = [
    ("user", "My gym locker code is 5150."),
    ("assistant", "Noted."),
    ("user", "I changed it: my new gym locker code is 2718."),
    ("user", "The locker room is next to the pool. I'm driving to the gym right now."),
    ("user", "I swam 20 lengths an hour ago."),
]


def test_an_update_replaces_what_was_said_before_it() -> None:
    answer = ModelFacts(updates=[
        {"new": "my gym locker code is 2718", "old": "gym locker code is 5150"},  # said before
        {"new": "my gym locker code is 2718", "old": "locker room next to the pool"},  # said after
        {"new": "the locker room is next to the pool", "old": "a sauna"},  # no change said
    ])
    assert model_updates(answer, user_evidence(LOCKER)) == [
        ("my gym locker code is 2718", "gym locker code is 5150")
    ]


def test_a_fact_of_the_moment_is_no_pin() -> None:
    answer = ModelFacts(must_remember=[
        "driving to the gym right now", "swam 20 lengths an hour ago", "gym locker code is 2718",
    ])
    assert must_remember(answer, user_evidence(LOCKER)) == ["gym locker code is 2718"]


def test_a_value_an_update_replaced_is_no_current_fact() -> None:
    answer = ModelFacts(key_facts=["gym locker code is 5150", "gym locker code is 2718"])
    assert answer.grounded(LOCKER).key_facts == ["gym locker code is 5150", "gym locker code is 2718"]
    assert answer.grounded(LOCKER, ["gym locker code is 5150"]).key_facts == ["gym locker code is 2718"]


BOOK_CLUB = [
    ("user", "book club thursday?"),
    ("assistant", "ok"),
    ("user", "Harbourside Library is quiet but cramped. The cafe on Elm Street has a big table."),
    ("assistant", "The cafe on Elm Street stays open until ten."),
    ("user", "Let's meet at the cafe on Elm Street at seven."),
    ("assistant", "Great. Maybe the Ishiguro novel next. Ishiguro it is."),
    ("user", "thx. same as always"),
    ("assistant", "yep"),
]


def _summarized_with_pins(db_path: Path, talk: list[tuple[str, str]]) -> tuple[Any, list[str]]:
    """``talk`` summarized by the fake model, auto pins on: the summary's facts and the pins."""
    config = {**CHECKED, "summary_threshold": 8, "structured_min_tokens": 0, "auto_pins": True}
    with MemoryStore(db_path, config=config) as store:
        s = store.create_session(model="llama3.2").id
        store.add_messages(s, [{"role": r, "text": t} for r, t in talk])
        assert store.summarize(s).source == "llama3.2:latest"
        (facts,) = store.get_summary_facts(s)
        return facts, [p.content for p in store.get_pins(s)]


def test_a_fact_that_says_nothing_is_no_fact(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    """Issue 21, points 1 and 4: a question, filler ("thx", "yep", a lone letter), a copied
    transcript line ("user: ...", a whole message of two sentences) is no fact, decision,
    entity or pin; a decision is one someone made, not a place's description nor a bare
    noun phrase."""
    fake.reply = "The book club meets at the cafe on Elm Street at seven."
    fake.json_reply = {
        "key_facts": [
            "The cafe on Elm Street stays open until ten",
            "book club thursday?",  # a question
            "thx. same as always",  # filler, and a whole message
            "Great. Maybe the Ishiguro novel next. Ishiguro it is.",  # a whole message, copied
            "user: Let's meet at the cafe on Elm Street at seven.",  # a transcript line
        ],
        "decisions": [
            "meet at the cafe on Elm Street at seven",
            "Harbourside Library is quiet but cramped",  # a description
            "The Ishiguro novel",  # a bare noun phrase, "maybe": nothing decided
        ],
        "entities": ["Elm Street", "k", "yep", "thursday?"],
        "must_remember": ["book club thursday?", "same as always", "the cafe on Elm Street at seven"],
    }
    facts, pins = _summarized_with_pins(db_path, BOOK_CLUB)
    data = facts.data
    assert "The cafe on Elm Street stays open until ten" in data.key_facts
    assert not any("?" in f or "thx" in f or "Ishiguro" in f or "user:" in f for f in data.key_facts)
    assert "meet at the cafe on Elm Street at seven" in data.decisions
    assert not any("Harbourside" in d or "Ishiguro" in d for d in data.decisions)
    assert "Elm Street" in data.entities
    assert not {"k", "yep", "thursday?"} & set(data.entities)
    assert not any("?" in p or p == "same as always" for p in pins)


def test_filler_and_questions_are_no_pins() -> None:
    answer = ModelFacts(must_remember=["thx", "my locker code?", "gym locker code is 2718"])
    talk = [*LOCKER, ("user", "thx"), ("user", "my locker code?")]
    assert must_remember(answer, user_evidence(talk)) == ["gym locker code is 2718"]


def test_a_bare_name_is_no_key_fact_nor_pin() -> None:
    """Issue 21, point 4: "gym locker" names a thing and states nothing of it: no key fact,
    no pin; "gym locker code is 2718" and "locker room next to the pool" state something."""
    answer = ModelFacts(
        key_facts=["gym locker", "gym locker code is 2718", "locker room next to the pool"],
        must_remember=["gym locker", "gym locker code is 2718"],
    )
    assert answer.grounded(LOCKER).key_facts == ["gym locker code is 2718", "locker room next to the pool"]
    assert must_remember(answer, user_evidence(LOCKER)) == ["gym locker code is 2718"]


def test_a_fact_cut_from_advice_without_its_verb_is_no_fact() -> None:
    """Issue 21, point 4: "ferry tickets online a week ahead" of "Book the ferry tickets
    online a week ahead." names tickets, not what to do with them: no fact, no decision."""
    talk = [("user", "We're going to Hydra in June."),
            ("assistant", "Book the ferry tickets online a week ahead. The port is busy in June.")]
    answer = ModelFacts(
        key_facts=["ferry tickets online a week ahead", "The port is busy in June"],
        decisions=["ferry tickets online a week ahead", "Book the ferry tickets online a week ahead"],
    )
    kept = answer.grounded(talk)
    assert kept.key_facts == ["The port is busy in June"]
    assert kept.decisions == ["Book the ferry tickets online a week ahead"]


ERRANDS = [
    ("user", "rent due fri. My bank, Northgate Savings, sends the transfer."),
    ("assistant", "For the printer, use the Wi-Fi setup wizard on its panel."),
    ("user", "Done, it prints again. Maybe the new Ghibli one tonight."),
    ("assistant", "You have 2 refills left on the allergy spray."),
    ("user", "Please request one."),
    ("assistant", "Your spray refill is submitted and ready on Saturday. Send me your share of the rent."),
    ("user", "will do thurs night"),
    ("assistant", "Harbour Park is flat and quiet, close to the river."),
    ("user", "Nice. What about the museum?"),
    ("assistant", "For lunch, try the noodle bar on Quay Street."),
    ("user", "Great, we also bought the museum tickets."),
    ("assistant", "Then try booking the Vermeer room for the morning."),
    ("user", "Sure, the Vermeer room it is. cheery thx for the chat!"),
]


def test_a_models_facts_name_things_as_they_were_said(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    """Issue 21, point 4: a noun phrase is no key fact ("Wi-Fi setup wizard", "the new
    Ghibli one"), nor thanks; a count of what is left goes stale once the thing is
    requested; one place's description is not another's; a suggestion is a decision only
    once the user took it up, and "will do thurs night" says when, not what; an entity is
    no time, no amount and no common word capitalised into a name."""
    fake.reply = "Rent is due Friday. The spray refill is submitted and ready on Saturday."
    fake.json_reply = {
        "key_facts": [
            "Wi-Fi setup wizard", "The new Ghibli one", "Cheery thx for the chat!",
            "You have 2 refills left on the allergy spray", "The museum is flat and quiet",
            "Harbour Park is flat and quiet",
        ],
        "decisions": [
            "try the noodle bar on Quay Street", "book the Vermeer room for the morning",
            "will do thurs night", "use the Wi-Fi setup wizard on its panel",
        ],
        "entities": ["Bank", "Northgate Savings", "Saturday", "rent due fri", "2 refills", "Quay Street"],
    }
    with MemoryStore(db_path, config={**CHECKED, "summary_threshold": len(ERRANDS), "structured_min_tokens": 0}) as store:
        s = store.create_session(model="llama3.2").id
        store.add_messages(s, [{"role": r, "text": t} for r, t in ERRANDS])
        assert store.summarize(s).source == "llama3.2:latest"
        (facts,) = store.get_summary_facts(s)
    data = facts.data
    assert "Harbour Park is flat and quiet" in data.key_facts
    for dropped in ("Wi-Fi setup wizard", "The new Ghibli one", "Cheery thx for the chat!",
                    "You have 2 refills left on the allergy spray", "The museum is flat and quiet"):
        assert dropped not in data.key_facts
    assert not any("refills left" in f for f in data.key_facts)  # the rules' quote of it too
    assert "book the Vermeer room for the morning" in data.decisions
    assert "use the Wi-Fi setup wizard on its panel" in data.decisions
    assert "try the noodle bar on Quay Street" not in data.decisions
    assert "will do thurs night" not in data.decisions
    assert {"Northgate Savings", "Quay Street"} <= set(data.entities)
    assert not {"Bank", "Saturday", "rent due fri", "2 refills"} & set(data.entities)  # an amount is no thing


def test_a_count_of_what_is_left_is_stale_once_the_thing_is_used() -> None:
    from localmem.facts import used_up

    said = ["You have 2 refills left on the allergy spray.", "Please request one.", "Your spray refill is submitted."]
    assert used_up("2 refills left on the allergy spray", said)
    assert not used_up("2 refills left on the allergy spray", said[:2])  # only asked for
    assert not used_up("The allergy spray has a refill", said)  # no count of what is left


def test_a_name_typed_in_lower_case_stays_a_name() -> None:
    """A writer who types everything in lower case gives no evidence that a word is no
    name: "Luigi's" of "luigi's at 7?" stands; "Bank" of "My bank, Harbor Credit Union"
    (a writer who capitalises names) does not."""
    said = [("user", "pizza from luigi's at 7?"), ("assistant", "Sure."), ("user", "My bank, Harbor Credit Union, pays 3.8%.")]
    data = ModelFacts(entities=["Luigi's", "Bank", "Harbor Credit Union"]).grounded(said)
    assert data.entities == ["Luigi's", "Harbor Credit Union"]


GARDEN = [
    ("user", "My tomatoes are wilting and my back hurts from weeding. My sister says to water more."),
    ("assistant", "Wilting in heat is common. Water early, deeply, at the roots. Check the soil first."),
    ("user", "The greenhouse gets hot by noon. I use a drip hose from Gardena."),
    ("assistant", "Then open the greenhouse vents by ten. Your drip hose can run at dawn."),
    ("user", "I'm allergic to bee stings, so I keep an EpiPen in the shed."),
    ("assistant", "Good. Aphids on the leaves? Try neem oil, not a spray with imidacloprid."),
    ("user", "And I should water the seedlings every evening, right?"),
    ("assistant", "Not quite. In the evening, wet leaves invite mildew. Save the watering of seedlings for mornings."),
    ("user", "pepperoni"),
]


def test_an_entity_of_common_words_is_a_particular_thing_of_the_chat() -> None:
    """Issue 21, point 4: an entity is a thing worth remembering: a name ("Gardena",
    "EpiPen"), or, in common words, a particular thing the chat makes someone's ("your drip
    hose") or a user's answer of a rarer word alone ("pepperoni"); not a kind of thing said
    in passing ("water", "neem oil", "aphids"), an everyday thing only pointed at ("the
    greenhouse": ``entities.common_word``), a body part or what it does ("back hurts"), a
    tie to someone ("sister"), an allergy ("bee sting allergy"), nor an action ("check the
    soil")."""
    named = ["Gardena", "EpiPen", "drip hose", "pepperoni"]
    not_things = ["water", "neem oil", "greenhouse", "back hurts", "sister", "bee sting allergy", "check the soil",
                  "aphids"]
    data = ModelFacts(entities=[*named, *not_things]).grounded(GARDEN)
    assert data.entities == named


def test_an_entity_names_a_drug_an_illness_or_a_code_however_written() -> None:
    """A drug's name, an illness or a code is worth naming without "the": "ibuprofen",
    "urinary tract infection", "grid_size"; a body part ("knee") never is."""
    said = [("user", "I take ibuprofen for my knee. Mum has a urinary tract infection."),
            ("assistant", "Set grid_size to 4 in the config.")]
    data = ModelFacts(entities=["ibuprofen", "urinary tract infection", "grid_size", "knee"]).grounded(said)
    assert data.entities == ["ibuprofen", "urinary tract infection", "grid_size"]


def test_what_a_refusing_answer_restates_is_no_fact() -> None:
    """Issue 21, point 4: "water the seedlings every evening" stands only on the answer
    that says "Not quite" to it (its words restated to correct them): no key fact, no
    decision; what the answer says instead is one."""
    answer = ModelFacts(
        key_facts=["water the seedlings every evening", "wet leaves invite mildew"],
        decisions=["water the seedlings every evening"],
    )
    data = answer.grounded(GARDEN)
    assert data.key_facts == ["wet leaves invite mildew"]
    assert data.decisions == []


def test_a_quoted_draft_line_is_no_fact() -> None:
    """Issue 21, point 4: the words of a piece the user quotes as one (a toast's opening
    line) are the piece's, not a fact; the same words said outside a quote are one."""
    toast = [
        ("user", "I'm giving the toast at my sister Ana's wedding. Her husband is Tomas."),
        ("user", "Here's my opening line: 'I'm Leo, the brother who taught Ana to drive, so Tomas, I'm sorry.'"),
        ("assistant", "That's a good opening: it gets a smile."),
    ]
    answer = ModelFacts(key_facts=["Leo taught Ana to drive", "Tomas is Ana's husband"])
    assert answer.grounded(toast).key_facts == ["Tomas is Ana's husband"]
    stated = [toast[0], ("user", "I'm Leo. I taught Ana to drive, so Tomas, I'm sorry.")]
    assert answer.grounded(stated).key_facts == ["Leo taught Ana to drive", "Tomas is Ana's husband"]


def test_a_bare_name_decides_nothing() -> None:
    """Issue 21, point 4: "shrimp allergy" names a thing; "mention the shrimp allergy to
    radiology" is what was decided."""
    said = [("user", "I'll mention the shrimp allergy to radiology tomorrow.")]
    data = ModelFacts(decisions=["shrimp allergy", "mention the shrimp allergy to radiology"]).grounded(said)
    assert data.decisions == ["mention the shrimp allergy to radiology"]


def test_a_step_for_a_day_is_no_pin() -> None:
    """Issue 21, point 4: "call radiology tomorrow ..." is a next step (the checkpoint's),
    not a lasting fact shown in every chat; a standing rule with a time ("take warfarin
    every evening") and a dated fact that is no action are pins."""
    talk = [("user", "I take warfarin every evening. I'll call radiology tomorrow to confirm the scan. "
                     "The scan is on Thursday at 9:15.")]
    answer = ModelFacts(must_remember=[
        "call radiology tomorrow to confirm the scan", "take warfarin every evening", "The scan is on Thursday at 9:15",
    ])
    assert must_remember(answer, user_evidence(talk)) == ["take warfarin every evening", "The scan is on Thursday at 9:15"]


def test_a_wish_or_pleasantry_is_no_fact(db_path: Path, fake: JsonFake) -> None:  # noqa: F811
    """Issue 21, point 4: "reward yourself with a slice of cake", "Enjoy the race!" are what
    the assistant wishes the user, not facts; what the chat states beside them is one."""
    talk = [
        ("user", "I ran my first 10k this morning in 58 minutes."),
        ("assistant", "Great time! Reward yourself with a slice of cake tonight."),
        ("user", "The next race is the Harbour Half in October."),
        ("assistant", "Enjoy the Harbour Half! Keep the long runs easy."),
    ] * 2
    fake.reply = "The user ran a first 10k in 58 minutes; the next race is the Harbour Half in October."
    fake.json_reply = {
        "key_facts": ["reward yourself with a slice of cake", "ran a first 10k in 58 minutes",
                      "Enjoy the Harbour Half", "Keep the long runs easy"],
        "decisions": ["reward yourself with a slice of cake"],
        "must_remember": ["Enjoy the Harbour Half", "The next race is the Harbour Half in October"],
    }
    facts, pins = _summarized_with_pins(db_path, talk)
    assert "ran a first 10k in 58 minutes" in facts.data.key_facts
    assert not any("cake" in f or "Enjoy" in f for f in facts.data.key_facts + facts.data.decisions)
    assert "The next race is the Harbour Half in October" in pins
    assert not any("Enjoy" in p for p in pins)


def test_a_choice_turned_down_is_no_decision() -> None:
    """Issue 21, point 4 (sixth set, seen: leaving_speech): a choice the chat offered and the
    answer to it refused ("You could: ..." "Actually no, leave it out") is no decision, as a
    checkpoint's decision is held (``replies.ruled_out``); the same offer taken is one."""
    offered = [
        ("user", "Should I add a bit about his parking? He takes two spaces."),
        ("assistant", "You could: a bit about his parking would get a laugh."),
    ]
    refused = [*offered, ("user", "Actually no, leave it out, I don't want it to sting.")]
    taken = [*offered, ("user", "Great, I'll add it at the end.")]
    answer = ModelFacts(decisions=["add a bit about his parking"])
    assert answer.grounded(refused).decisions == []
    assert answer.grounded(taken).decisions == ["add a bit about his parking"]


def test_what_another_person_is_or_did_is_no_decision() -> None:
    """Issue 21, point 4 (sixth set, seen: five_a_side): a statement whose subject is another
    person and whose verb says what is, what happened or what is under way ("Liam's ankle is
    swollen", "Liam lost the bet", "Jess is joining the team") is a fact, not a decision;
    the same words are kept as key facts. Someone's future ("Dan will run a warm-up") and
    the user's own acts stay decisions."""
    said = [
        ("user", "Liam lost the bet on the score, so he's buying the first round. His ankle is swollen."),
        ("user", "Jess is joining the team next week. Dan will run a warm-up before every game."),
        ("user", "We switched the game to Thursday at 9."),
    ]
    reports = ["Liam lost the bet on the score", "Jess is joining the team"]
    choices = ["Dan will run a warm-up before every game", "We switched the game to Thursday at 9"]
    data = ModelFacts(key_facts=reports, decisions=[*reports, *choices]).grounded(said)
    assert data.decisions == choices
    assert data.key_facts == reports


def test_a_fact_is_judged_whole_and_stored_clipped() -> None:
    """Issue 21, point 4 (sixth set, seen: cottage_split): a model's item longer than a stored
    line is judged on all it says: a tail past the cut that flips what the chat said (an
    allergy denied) drops it; a long item the chat supports whole is kept, clipped."""
    sister = ("Ana lives in Porto, where she works night shifts as a nurse at the Santo Antonio hospital near "
              "the river, and she keeps two cats called Figo and Nata in her small flat above the old bakery on the hill")
    said = [("user", f"About my sister. {sister}. She is allergic to penicillin.")]
    assert len(sister) >= 200  # the cut falls before the tail
    assert ModelFacts(key_facts=[f"{sister}. She is not allergic to penicillin."]).grounded(said).key_facts == []
    kept = ModelFacts(key_facts=[f"{sister}. She is allergic to penicillin."]).grounded(said).key_facts
    assert len(kept) == 1 and kept[0].startswith("Ana lives in Porto") and len(kept[0]) <= 200
    pins = ModelFacts(must_remember=[f"{sister}. She is not allergic to penicillin."])
    assert must_remember(pins, user_evidence(said), said) == []


def test_a_clause_cut_short_is_no_entity() -> None:
    """Issue 21, point 4 (sixth set, seen: five_a_side): "Liam's buying" of "Liam's buying the
    first round" is a clause ("'s" is "is", "buying" takes an object), not a thing; "Liam's
    painting" of "Liam's painting is on the wall" names one."""
    said = [("user", "Liam's buying the first round on Thursday. Liam's painting is on the wall at the club.")]
    data = ModelFacts(entities=["Liam's buying", "Liam's painting"]).grounded(said)
    assert "Liam's buying" not in data.entities
    assert "Liam's painting" in data.entities
