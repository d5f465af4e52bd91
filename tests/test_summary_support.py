"""A model's summary is held to the conversation sentence by sentence (issue 21, point 2):
an unsupported sentence is dropped and logged (its number and why, never its words); a
summary with too little left is replaced by the deterministic one. Through the store, the
real ``ollama`` client and the fake server over loopback; the conversation and the summaries
are written for this test."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from localmem import MemoryConfig, MemoryStore, Summary
from localmem.summarizer import FALLBACK
from localmem.summarizer.fallback import keyword_summary
from localmem.summarizer.support import ground
from localmem.summarizer.warned import unsaid_warnings
from tests.ollama_server import FakeOllama

MODEL = "llama3.2:latest"
CHAT = [
    ("user", "I'm hosting dinner for six on Saturday, and my brother Paul is coming."),
    ("assistant", "Nice. Is anyone vegetarian or allergic to anything?"),
    ("user", "Paul is allergic to shellfish."),
    ("assistant", "Then skip the shrimp starter and make a mushroom risotto instead."),
    ("user", "Can I still serve shrimp to the others?"),
    ("assistant", "Better not: keep shellfish out of the kitchen, cross-contact is a real risk for him."),
    ("user", "Okay. I already bought the wine, a Rioja."),
    ("assistant", "Good pick. Do you have a dessert?"),
    ("user", "I'll bake a lemon tart on Friday evening and send you the recipe tomorrow."),
    ("assistant", "Great, I look forward to it."),
]
GOOD = (
    "Paul is allergic to shellfish, so no shrimp starter but a mushroom risotto. "
    "The user bought a Rioja and will bake a lemon tart on Friday."
)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOllama]:
    with FakeOllama() as fake:
        monkeypatch.setenv("OLLAMA_HOST", fake.host)
        yield fake


def summarize(db_path, server: FakeOllama, reply: str, pairs=CHAT):
    return summarize_and_pin(db_path, server, reply, pairs)[0]


def summarize_and_pin(db_path, server: FakeOllama, reply: str, pairs=CHAT) -> tuple[Summary, list[str]]:
    """The summary the store keeps when the model answers ``reply``, and the pins then."""
    server.reply = reply
    with MemoryStore(db_path, config=MemoryConfig(summary_threshold=len(pairs), model_trust="checked")) as store:
        session = store.create_session(model="llama3.2").id
        store.add_messages(session, [{"role": r, "text": t} for r, t in pairs])
        return store.summarize(session), [p.content for p in store.get_pins(session)]


def test_a_summary_the_turns_support_is_kept_whole(db_path, server: FakeOllama) -> None:
    summary = summarize(db_path, server, GOOD)
    assert (summary.source, summary.text) == (MODEL, GOOD)


def test_an_invented_combination_is_dropped_and_logged_without_its_words(
    db_path, server: FakeOllama, caplog: pytest.LogCaptureFixture
) -> None:
    invented = "Paul is hosting the wine for the kitchen."
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = summarize(db_path, server, f"{GOOD} {invented}")
    assert (summary.source, summary.text) == (MODEL, GOOD)
    assert "sentence 3 of 3 dropped: not supported by any one message" in caplog.text
    assert "kitchen" not in caplog.text


@pytest.mark.parametrize(
    ("sentence", "why"),
    [
        ("The user baked the lemon tart on Friday.", "states as done what was planned"),
        ("The user will buy a Rioja.", "states as planned what was done"),
        ("The user will send Paul the recipe.", "names someone else where its source says 'you'"),
        ("Paul is not allergic to shellfish.", "negation flipped"),
    ],
)
def test_a_sentence_that_changes_status_party_or_polarity_is_dropped(
    db_path, server: FakeOllama, caplog, sentence: str, why: str
) -> None:
    kept = "Dinner for six is on Saturday. The user already bought a Rioja."
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = summarize(db_path, server, f"{kept} {sentence}")
    assert summary.source == MODEL and summary.text.startswith(kept)
    assert sentence not in summary.text  # (the allergy the summary lacks is added to it)
    assert f"sentence 3 of 3 dropped: {why}" in caplog.text


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("The user decided to bake a lemon tart.", True),  # "I'll bake a lemon tart": decided, still to do
        ("The user wanted to bake a lemon tart.", True),
        ("The user baked a lemon tart.", False),  # the act stated as done: planned
    ],
)
def test_a_decision_to_do_a_planned_act_is_no_claim_it_was_done(
    db_path, server: FakeOllama, sentence: str, kept: bool
) -> None:
    assert (ground(sentence, CHAT).text == sentence) is kept
    first = "Dinner for six is on Saturday. The user already bought a Rioja."
    summary = summarize(db_path, server, f"{first} {sentence}")
    assert summary.source == MODEL and (sentence in summary.text) is kept


def test_a_question_answered_better_not_is_no_source(db_path, server: FakeOllama, caplog) -> None:
    """"Can I still serve shrimp to the others?" "Better not": restating it is denied."""
    assert ground("The others may still get shrimp.", CHAT).text is None
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = summarize(db_path, server, "Dinner is on Saturday. The others may still get shrimp.")
    assert summary.source == FALLBACK and "answered no to" in caplog.text


def test_a_summary_with_most_sentences_unsupported_is_replaced(db_path, server: FakeOllama, caplog) -> None:
    reply = (
        "Paul is allergic to shellfish. Paul is hosting the wine for the kitchen. "
        "The user baked the lemon tart on Friday."
    )
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = summarize(db_path, server, reply)
    assert summary.source == FALLBACK and summary.text == keyword_summary(CHAT)
    assert "2 of its 3 sentences are not supported" in caplog.text


def test_a_terse_chat_supports_a_sentence_across_its_turns(db_path, server: FakeOllama) -> None:
    terse = [
        ("user", "pizza tonight?"), ("assistant", "sure"), ("user", "luigi's?"),
        ("assistant", "ok. what time"), ("user", "7pm"), ("assistant", "fine"),
        ("user", "pepperoni"), ("assistant", "and a veggie half"), ("user", "ok"),
        ("assistant", "can u pick it up"), ("user", "yes"), ("assistant", "k"),
    ]
    good = "Pizza from Luigi's at 7pm tonight, pepperoni and a veggie half; one picks it up."
    assert ground(good, terse).text == good
    # The same words in a relation no run of turns states: dropped, nothing left.
    assert ground("Luigi's delivers the veggie half.", terse).text is None


@pytest.mark.parametrize("answer", ["skip, have some", "nah, we have some", "no need, have some"])
def test_a_terse_question_answered_skip_states_nothing(answer: str) -> None:
    """"sour cream?" "skip, have some": a short answer that declines says no; "yes, 2
    tubs" says yes."""
    terse = [
        ("user", "tacos sat"), ("assistant", "ok. salsa?"), ("user", "yes 2 jars"),
        ("assistant", "sour cream?"), ("user", answer), ("assistant", "k"),
    ]
    assert ground("Tacos on Saturday with 2 jars of salsa. Sour cream.", terse).dropped == ((2, "not supported by any one message"),)
    said = [*terse[:4], ("user", "yes, 2 tubs"), terse[5]]
    assert ground("Tacos on Saturday with 2 jars of salsa. Sour cream.", said).dropped == ()


FASTING = [
    ("user", "I have a blood test on Monday. Do I have to fast before it?"),
    ("assistant", "For a basic panel the lab does not ask people to fast before the blood test. Drink water."),
    ("user", "And should I stop my aspirin before the dental cleaning?"),
    ("assistant", "You don't need to stop aspirin before a cleaning; tell the dentist you take it."),
]


@pytest.mark.parametrize(
    "sentence",
    ["The user must fast before the blood test.", "The user should stop aspirin before the dental cleaning."],
)
def test_a_requirement_the_conversation_denies_is_dropped(sentence: str) -> None:
    """"does not ask people to fast", "don't need to stop": what is not required is not a
    must."""
    assert ground(f"The user has a blood test on Monday. {sentence}", FASTING).dropped == (
        (2, "states as required what the conversation says is not"),
    )


def test_a_requirement_the_conversation_states_is_kept() -> None:
    said = [("user", "Do I have to fast before the blood test?"), ("assistant", "Yes, you need to fast for 8 hours before the blood test.")]
    assert ground("The user must fast before the blood test.", said).dropped == ()
    assert ground("The user should drink water before the blood test.", FASTING).dropped == ()
    assert ground("The lab does not ask people to fast before the blood test.", FASTING).dropped == ()


def test_a_clause_reporting_talk_may_rest_on_a_question() -> None:
    asked = [("user", "Can I freeze the lemon tart?"), ("user", "Also, how long does it keep?")]
    assert ground("The user asked about freezing the lemon tart.", asked).dropped == ()
    assert ground("The lemon tart freezes well.", asked).text is None  # a question states nothing


def test_the_warnings_a_summary_does_not_say() -> None:
    pairs = [
        ("user", "Dad takes warfarin. Can he take ibuprofen?"),
        ("assistant", "Never give him ibuprofen with warfarin: it raises the risk of bleeding."),
        ("tool", "pharmacy_lookup: Allergies: none recorded."),
        ("assistant", "Bring his medication list and ask about side effects."),
        ("user", "He is allergic to penicillin."),
    ]
    said = "Dad takes warfarin, must not take ibuprofen and is allergic to penicillin."
    assert unsaid_warnings(said, pairs) == []
    assert unsaid_warnings("Dad takes warfarin.", pairs) == [
        ("Never give him ibuprofen with warfarin: it raises the risk of bleeding.", 1),
        ("He is allergic to penicillin.", 4),
    ]  # not the tool's record, not advice about side effects, not the question


# The failures of the live runs named in issue 21 (two runs, three models, eight
# conversations), in conversations written for this test, each through the store's whole
# path (the model's answer, ``accept_summary``, ``ground``, the warnings pinned).
BAKE = [
    ("user", "I'm baking a cake for my son's class. One boy has a peanut allergy."),
    ("assistant", "Then read every label for peanuts, including 'may contain'."),
    ("user", "The chocolate chips say 'made in a facility that processes peanuts'."),
    ("assistant", "Then leave the chocolate chips out and use strawberries instead."),
    ("user", "Good idea, strawberries it is. I'll bake it on Friday."),
    ("assistant", "Sounds lovely."),
]


def test_a_reversed_fact_is_dropped(db_path, server: FakeOllama, caplog) -> None:
    """The chocolate chips were left out for the peanuts; "strawberries are left out" (and
    the cake made in the facility) reverses it."""
    kept = "The user will bake the cake on Friday with strawberries. One boy has a peanut allergy."
    reversed_ = "The cake is made in a facility that processes peanuts, so strawberries are left out."
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = summarize(db_path, server, f"{kept} {reversed_}", BAKE)
    assert summary.source == MODEL and summary.text.startswith(kept) and reversed_ not in summary.text
    assert "sentence 3 of 3 dropped: not supported by any one message" in caplog.text
    faithful = "The chocolate chips are made in a facility that processes peanuts, so strawberries are used instead."
    assert ground(faithful, BAKE).dropped == ()


def test_a_claim_answered_not_quite_is_not_kept(db_path, server: FakeOllama, caplog) -> None:
    pairs = [
        ("user", "I want to write a poem for my grandfather's funeral."),
        ("assistant", "I'm sorry for your loss. A sonnet or free verse could both work."),
        ("user", "My cousin says free verse is just prose with line breaks."),
        ("assistant", "Not quite. Free verse drops fixed meter and rhyme, but it still relies on rhythm."),
        ("user", "Then I'll try free verse about his workshop."),
        ("assistant", "Good choice. Start with one image from the workshop."),
    ]
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = summarize(
            db_path, server, "The user will write free verse about the workshop. Free verse is prose with line breaks.", pairs
        )
    assert summary.source == FALLBACK and "line breaks" not in summary.text
    assert "answered no to" in caplog.text
    assert ground("The user will try free verse about the grandfather's workshop.", pairs).dropped == ()


KNEE = "The mother takes warfarin 3 mg and may take ibuprofen for her knee."


@pytest.mark.parametrize(
    "advice",
    [
        # answered "Better not" to the question
        [("user", "My mother takes warfarin 3 mg every evening. Can she take ibuprofen for her knee?"),
         ("assistant", "Better not: NSAIDs raise the risk of bleeding with warfarin. Acetaminophen is safer.")],
        # warned against the class, the drug named as an example of it
        [("user", "My mother takes warfarin 3 mg every evening. Her knee hurts."),
         ("assistant", "With warfarin she should avoid NSAIDs like ibuprofen; they raise the risk of bleeding.")],
        # she takes it, and is told to stop: a report is no permission
        [("user", "My mother takes warfarin 3 mg every evening. She's been taking ibuprofen for her knee."),
         ("assistant", "She should stop the ibuprofen: NSAIDs with warfarin raise the risk of serious bleeding.")],
    ],
)
def test_a_permission_the_conversation_warned_against_is_not_kept(
    db_path, server: FakeOllama, advice: list[tuple[str, str]]
) -> None:
    pairs = [*advice, ("user", "Okay, I'll call her doctor tomorrow."), ("assistant", "Good. A cold pack helps too.")]
    assert ground(KNEE, pairs).text is None
    summary = summarize(db_path, server, f"{KNEE} The user will call her doctor tomorrow.", pairs)
    assert "may take ibuprofen" not in summary.text


def test_a_permission_its_source_gives_is_kept() -> None:
    pairs = [
        ("user", "My father has knee surgery on Monday. He takes ibuprofen for the pain."),
        ("assistant", "He must not take ibuprofen in the week before the surgery. After the surgery he can take ibuprofen again."),
    ]
    assert ground("He can take ibuprofen again after the surgery.", pairs).dropped == ()


def test_a_summary_naming_what_a_warning_forbids_keeps_the_warning_in_a_pin(db_path, server: FakeOllama) -> None:
    pairs = [
        ("user", "My mother takes warfarin 3 mg every evening. She's been taking ibuprofen for her knee."),
        ("assistant", "She should stop the ibuprofen: NSAIDs with warfarin raise the risk of serious bleeding."),
        ("user", "Okay, I'll call her doctor tomorrow."),
        ("assistant", "Good. A cold pack helps too."),
    ]
    reply = "The mother takes warfarin 3 mg and has been taking ibuprofen for her knee. The user will call her doctor tomorrow."
    summary, pins = summarize_and_pin(db_path, server, reply, pairs)
    assert (summary.source, summary.text) == (MODEL, reply)  # a true report
    assert pairs[1][1] in pins  # the warning it names the object of, without warning
    said = "The mother takes warfarin 3 mg and must stop the ibuprofen."
    assert unsaid_warnings(said, pairs) == []


def test_a_cut_answer_keeps_the_sentence_with_the_fix(db_path, server: FakeOllama) -> None:
    pairs = [
        ("user", "My pandas script reads orders.csv and the March totals are wrong by a few hundred euros."),
        ("assistant", "How do you read the date column, and what do the dates look like in the file?"),
        ("user", "pd.read_csv('orders.csv', parse_dates=['day']). The dates look like 04/03/2024, from our Lyon shop."),
        ("assistant", "pandas reads that month first, so 04/03/2024 becomes April 3 instead of March 4."),
        ("user", "Some rows are also written 2024-03-15, so one format string does not fit them all."),
        ("assistant", "Then parse each format separately with errors='coerce' and combine the two with fillna."),
        ("user", "Done. March now adds up to 51,300 euros, the same as the bookkeeping says."),
        ("assistant", "Good: the fix was parsing both formats day first. Add a test with both formats."),
        ("user", "I'll add the test and mention the formats in the README for whoever runs it next."),
        ("assistant", "Sounds good."),
    ]
    fix = "The fix was parsing both formats day first."
    answer = (
        "The pandas script reads orders.csv and the March totals were wrong by a few hundred euros. "
        "The dates look like 04/03/2024, from the Lyon shop, and pandas read them month first. "
        "Some rows are written 2024-03-15, so each format is parsed separately with errors='coerce'. "
        f"{fix} The user will add a test"
    )
    server.done_reason = "length"  # cut by num_predict
    summary = summarize(db_path, server, answer, pairs)
    assert summary.source == MODEL and fix in summary.text and len(summary.text) <= 300


STORY = [
    ("user", "Can you help me write a story for my son Felix? He is scared of the dark."),
    ("assistant", "Of course. What animal should it be about?"),
    ("user", "A hedgehog. My vet Dr Osei has one, and she is afraid of the night, like him."),
]


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("The user wants a bedtime story for a son named Felix.", True),  # "my son Felix": the name beside the thing
        ("The user wants a bedtime story for a son called Felix.", True),
        ("The user wants a bedtime story for a son named Oscar.", False),  # a name the chat never gave
        ("The user called Dr Osei.", False),  # phoned: a verb of its own, no naming
    ],
)
def test_the_verb_that_names_a_thing_is_no_word_to_support(sentence: str, kept: bool) -> None:
    assert (ground(sentence, STORY).text == sentence) is kept


@pytest.mark.parametrize(("name", "kept"), [("Felix", True), ("Oscar", False)])
def test_a_summary_naming_a_thing_as_the_chat_names_it_is_kept(
    db_path, server: FakeOllama, name: str, kept: bool
) -> None:
    answer = f"The user wants a bedtime story for a son named {name}, who is scared of the dark."
    summary = summarize(db_path, server, answer, STORY)
    assert (summary.text == answer) is kept and (summary.source == FALLBACK) is not kept


BRAKE = [
    ("user", "My rear brake squeals like crazy when I stop."),
    ("assistant", "Probably contaminated pads. Replace them and clean the rotor."),
    ("user", "Done: new pads in, rotor cleaned, and no squeal now."),
]


@pytest.mark.parametrize(
    ("sentence", "pairs", "kept"),
    [
        ("The new pads resolved the squealing.", BRAKE, True),  # there, then gone
        ("The new pads fixed the squeal.", BRAKE, True),
        # never said to be there: "no squeal" is no ending of one
        ("The new pads resolved the squealing.", [BRAKE[1], BRAKE[2]], False),
        # the problem ended as its source says it ("the squeal is resolved"), and a repair
        ("The new pads resolved the squealing.", [BRAKE[0], ("user", "New pads resolved the squealing.")], True),
        ("The user fixed the printer by reinstalling the driver.", [("user", "Reinstalled the driver, printer works.")], True),
        # gone before it was said to be there
        ("The new pads resolved the squealing.", [BRAKE[2], BRAKE[0]], False),
        # "fixed" of a noun ends nothing: read as written
        ("The user pays the fixed costs first.", [("user", "I pay my fixed costs first, then save.")], True),
        ("The mechanic was fixed by the rotor.", BRAKE, False),
    ],
)
def test_a_thing_resolved_is_one_said_there_then_gone(
    sentence: str, pairs: list[tuple[str, str]], kept: bool
) -> None:
    assert (ground(sentence, pairs).text == sentence) is kept


@pytest.mark.parametrize(("last", "kept"), [(BRAKE[2][1], True), ("New pads in, no rattle now.", False)])
def test_a_summary_saying_a_problem_was_resolved_is_kept_when_it_was(
    db_path, server: FakeOllama, last: str, kept: bool
) -> None:
    answer = "The user replaced the pads and cleaned the rotor, which resolved the squealing."
    summary = summarize(db_path, server, answer, [*BRAKE[:2], ("user", last)])
    assert (summary.text == answer) is kept and (summary.source == FALLBACK) is not kept
