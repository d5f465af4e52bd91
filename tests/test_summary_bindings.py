"""A summary's sentence is held to how the conversation binds its words (issue 21, point 2):
an event bound to another day, month, time or place, a compound name never written, another
party put in someone's place, a plan stated as done. The conversations and summaries are
written for this test; the real models' cases are replayed in tests/test_real_outputs.py
(their OPEN_IN_ISSUE_21 entries are gone)."""

from __future__ import annotations

import logging

import pytest

from localmem import MemoryConfig, MemoryStore
from localmem.summarizer.bindings import invented_name, misattributed, misbound
from localmem.summarizer.listed import unprescribed, unshared
from localmem.summarizer.amounts import counted_twice
from localmem.summarizer.support import ground
from localmem.summarizer.warned import complete_or_pin, unsaid_warnings
from localmem.summarizer.wording import naming_forms
from tests.ollama_server import FakeOllama

WEEKEND = [
    ("user", "My sister Clara arrives on Friday, and we're painting the fence."),
    ("assistant", "Nice. When do you want to paint it?"),
    ("user", "We'll paint the fence on Saturday morning. On Sunday we have a barbecue at Dan's."),
    ("assistant", "Then buy the paint on Friday. Take the coach to Reading for the hardware store."),
    ("user", "The train to Oxford is for Monday, for my dentist."),
    ("assistant", "Good. Bring the blue brush, the wide one."),
    ("user", "Let's book the cabin for August then."),
    ("assistant", "Sure. The nurse at the clinic said the cabin has no phone signal."),
    ("user", "My son Leo cut his foot. The nurse gave him a tetanus shot."),
    ("user", "I also finished the quilt I started in March."),
]


@pytest.mark.parametrize(
    ("sentence", "why"),
    [
        # the painting is Saturday; Sunday is the barbecue's
        ("They will paint the fence on Sunday.", "binds its event to a day"),
        # the coach goes to Reading; Oxford is the train's
        ("They will take the coach to Oxford.", "binds its event to a place"),
        # the quilt was started in March, not finished then
        ("The quilt was finished in March.", "binds its event to a month"),
        # "the blue brush" and "the cabin": never "the Blue Cabin"
        ("They will stay at the Blue Cabin in August.", "names a compound the conversation never wrote"),
        # the nurse gave HIM (the son) the shot, not the user
        ("The nurse gave the user a tetanus shot.", "puts the user where its source names someone else"),
        # "my sister Clara": the user's sister, not Leo's
        ("Leo's sister Clara arrives on Friday.", "names someone else where its source names the user"),
        # "Let's book the cabin" is a plan
        ("The user booked the cabin for August.", "states as done what was planned"),
    ],
)
def test_a_sentence_binding_words_the_conversation_binds_otherwise_is_dropped(sentence: str, why: str) -> None:
    kept = "Clara arrives on Friday and the fence is painted on Saturday morning."
    grounded = ground(f"{kept} {sentence} They will buy the paint on Friday.", WEEKEND)
    assert grounded.text == f"{kept} They will buy the paint on Friday."
    ((number, reason),) = grounded.dropped
    assert number == 2 and reason.startswith(why)


@pytest.mark.parametrize(
    "sentence",
    [
        "They will paint the fence on Saturday morning.",
        "They will take the coach to Reading.",
        "The user will take the train to Oxford on Monday.",  # "for Monday": the clause holds it
        "The user's sister Clara arrives on Friday.",
        "The user finished the quilt, which they started in March.",
        "The nurse gave Leo a tetanus shot.",
        "The user will book the cabin for August.",
        "They have a barbecue at Dan's on Sunday.",
    ],
)
def test_the_same_words_bound_as_the_conversation_binds_them_are_kept(sentence: str) -> None:
    assert ground(sentence, WEEKEND).dropped == ()


def test_a_paraphrased_event_is_held_by_the_clause_that_gives_its_day() -> None:
    """"wants to give her a rabies shot on Tuesday" and, later, "schedule the booster": a
    summary saying the vet will schedule the shot on Tuesday binds the day as the first
    turn does (most of its other words are there), though "schedule" is said elsewhere."""
    chat = [
        ("user", "My vet wants to give Bella a rabies shot on Tuesday."),
        ("assistant", "Good. Ask whether they also schedule the booster."),
    ]
    assert misbound("The vet will schedule a rabies shot for Bella on Tuesday", [t for _, t in chat]) is None
    assert misbound("The vet will schedule the booster on Tuesday", [t for _, t in chat]) is not None


def test_a_compound_name_must_be_written_together() -> None:
    said = "We stayed at Hotel Aurora near the Last Supper. The red one, by the smoothie place."
    assert invented_name("They stayed at the Hotel Aurora.", said) is None
    assert invented_name("The Last Supper is near.", said) is None
    assert invented_name("They want the Red Smoothie.", said) is not None
    assert invented_name("Hotel Aurora's bar is near the Supper Hall.", said) is not None
    # a sentence's first word is capitalized for the sentence, not for a name
    assert invented_name("Yesterday Hotel Aurora was full.", said) is None


def test_warnings_that_do_not_fit_are_left_to_pins() -> None:
    """A summary that lacks two warnings and has no room for them is kept as it is: the
    store pins each warning (``unsaid_warnings``); a fact of another kind must still fit."""
    pairs = [
        ("user", "Dad, 81, takes warfarin every evening and is allergic to penicillin, he says."),
        ("assistant", "Never give him ibuprofen with warfarin: it raises the risk of serious bleeding."),
        ("user", "We walked by the lake and fed the ducks, and he told me about his years at sea."),
    ]
    summary = "x" * 200 + " Dad, 81, walked by the lake, fed the ducks and told stories of his years at sea."
    assert complete_or_pin(summary, pairs, 300) == summary
    assert [w for w, _ in unsaid_warnings(summary, pairs)] == [
        "Dad, 81, takes warfarin every evening and is allergic to penicillin, he says.",
        "Never give him ibuprofen with warfarin: it raises the risk of serious bleeding.",
    ]
    short = "Dad walked by the lake."
    assert complete_or_pin(short, pairs, 300) == (
        f"{short} Dad, 81, takes warfarin every evening and is allergic to penicillin, he says. "
        "Never give him ibuprofen with warfarin: it raises the risk of serious bleeding."
    )  # when they fit, the summary says them


def test_a_dropped_binding_is_logged_by_number_and_reason(db_path, caplog) -> None:
    with FakeOllama(models=["llama3.2:latest"]) as server:
        server.reply = (
            "Clara arrives on Friday and the fence is painted on Saturday morning. "
            "They will paint the fence on Sunday. They will buy the paint on Friday."
        )
        config = MemoryConfig(ollama_host=server.host, summary_threshold=len(WEEKEND), model_trust="checked")
        with MemoryStore(db_path, config=config) as store, caplog.at_level(logging.INFO, logger="localmem"):
            session = store.create_session(model="llama3.2:latest").id
            store.add_messages(session, [{"role": r, "text": t} for r, t in WEEKEND])
            summary = store.summarize(session)
    assert summary.source == "llama3.2:latest" and "Sunday" not in summary.text
    assert "sentence 2 of 3 dropped: binds its event to a day" in caplog.text
    assert "paint the fence on Sunday" not in caplog.text


TRIP = [
    ("user", "My husband and I want to spend a week in Porto in June."),
    ("assistant", "Lovely. Do you have dates?"),
    ("user", "June 2 to June 9. We found a guesthouse in Ribeira for 80 euros a night."),
    ("assistant", "Have you booked the flights?"),
    ("user", "Yes, we booked TP1331. Dad takes metformin at breakfast, and he is allergic to sulfa drugs."),
    ("assistant", "Noted. The move of the car to the long-term lot on June 1 will cost 40 euros."),
]


@pytest.mark.parametrize(
    "sentence",
    [
        # the dates answer "Do you have dates?": said bare, they belong to what was asked
        "They will spend a week in Porto from June 2 to June 9.",
        # the guesthouse was found (done); staying there is the plan: not the same action
        "They will stay at a guesthouse in Ribeira for 80 euros a night.",
        # two predicates of one subject, each from its own place
        "Dad takes metformin at breakfast and is allergic to sulfa drugs.",
        # June 1 is the move's (the subject's), not the cost's
        "The move of the car on June 1 will cost 40 euros.",
    ],
)
def test_a_faithful_paraphrase_across_turns_is_kept(sentence: str) -> None:
    assert ground(sentence, TRIP).dropped == ()


def test_a_plan_of_what_was_done_is_still_dropped() -> None:
    """The action the source reports done, told as a plan: "will book the flights"."""
    assert ground("They will book the flights.", TRIP).dropped == (
        (1, "states as planned what was done"),
    )


CLINIC = [
    ("user", "Ana is allergic to shellfish, and Ben can't have dairy."),
    ("user", "Grandpa Joe takes insulin at 7 am and lisinopril at 9 pm."),
    ("assistant", "Don't give him ibuprofen: with lisinopril it can harm his kidneys."),
    ("user", "His eye exam is Thursday at 3 pm. I'll call the clinic on Monday."),
    ("assistant", "Good. The nurse will phone Joe tomorrow at 10 am."),
    ("user", "He walks twice a day, and we give him his eye drops daily."),
    ("user", "I'm knitting a scarf for my grandfather."),
]


@pytest.mark.parametrize(
    ("sentence", "why"),
    [
        ("Ben is allergic to shellfish.", "says of someone what the conversation says of another"),
        # the user knits; Joe is whom the scarf is for
        ("Joe is knitting a scarf.", "says of someone what a party of the conversation does"),
        ("Joe takes insulin at 9 pm.", "binds its event to a time"),  # the lisinopril's time
        ("His eye exam is on Monday.", "binds its event to a day"),  # the call is Monday's
        ("The nurse will phone Joe today at 10 am.", "binds its event to a day"),  # tomorrow
        # the drops are daily; "twice a day" is the walks'
        ("Joe's eye drops are given twice a day.", "binds its event to a frequency"),
    ],
)
def test_a_person_or_a_time_moved_to_another_is_dropped(sentence: str, why: str) -> None:
    ((number, reason),) = ground(sentence, CLINIC).dropped
    assert number == 1 and reason.startswith(why)


@pytest.mark.parametrize(
    "sentence",
    [
        "Ana is allergic to shellfish and Ben can't have dairy.",
        "Joe takes insulin at 7 am and lisinopril at 9 pm.",  # each item its own time
        "Joe must not take ibuprofen with lisinopril.",  # "him": a pronoun names no one else
        "The eye exam is on Thursday at 3 pm.",
        "The nurse will phone Joe tomorrow at 10 am.",  # "Joe" is whom, not what
        "Joe's eye drops are given daily.",
        "The user is knitting a scarf for Joe.",
    ],
)
def test_a_person_or_a_time_as_said_is_kept(sentence: str) -> None:
    assert ground(sentence, CLINIC).dropped == ()


STORY = [
    ("user", "In my story, Omar has to decide whether to sell the bakery."),
    ("assistant", "Good tension. Keep the ending open."),
    ("user", "Should I enter it in the Lantern prize? My sister entered hers last year."),
    ("assistant", "If it is under 3,000 words, compare their rules with the other contests first."),
    ("user", "Should I cut the prologue?"),
    ("assistant", "Probably not: it sets up the bakery."),
    ("assistant", "For the last scene, he could lock the door and walk to the sea, for example."),
]


@pytest.mark.parametrize(
    ("sentence", "why"),
    [
        ("Omar decides to sell the bakery.", "states as settled what is still open"),
        # a question answered with "If ...": neither granted nor denied
        ("The story is entered in the Lantern prize.", "not supported by any one message"),
        ("The user will cut the prologue.", "not supported by any one message"),  # "Probably not"
        # an example offered is no scene written
        ("In the last scene, Omar locks the door and walks to the sea.", "states as settled what is still open"),
    ],
)
def test_what_the_conversation_left_open_or_hedged_is_not_settled(sentence: str, why: str) -> None:
    assert ground(sentence, STORY).dropped == ((1, why),)


def test_what_was_left_open_may_be_said_open() -> None:
    assert ground("Omar has to decide whether to sell the bakery.", STORY).dropped == ()
    assert ground("The user asked whether to enter it in the Lantern prize.", STORY).dropped == ()


SIDE_JOB = [
    "I tutor maths on the side. My coworker said tutoring income under 5,000 isn't taxed.",
    "That's not right: all of it is taxable. Do you keep records?",
    "Yes. I also raised my rate from 30 to 40 pounds an hour in May.",
    "Good. My sister booked a tax adviser for you?",
    "My sister booked one for Friday, yes.",
]


@pytest.mark.parametrize(
    "sentence",
    [
        "The coworker has raised his rate to 40 pounds an hour.",  # the user raised their own
        "Their coworker raised the rate from 30 to 40 pounds.",
    ],
)
def test_the_users_own_act_said_of_someone_they_speak_of_is_dropped(sentence: str) -> None:
    assert misattributed(sentence, SIDE_JOB) == "says of someone what a party of the conversation does"
    assert ground(sentence, [("user", t) for t in SIDE_JOB]).text is None


@pytest.mark.parametrize(
    "sentence",
    [
        "The user raised the rate from 30 to 40 pounds an hour.",
        "The coworker said tutoring income under 5,000 is not taxed.",  # the coworker's words
        "The sister booked a tax adviser for Friday.",  # "My sister booked one": hers
        "The patient stopped the lessons in May.",  # no "my patient": the user by a role
    ],
)
def test_what_someone_did_said_of_them_is_kept(sentence: str) -> None:
    assert misattributed(sentence, SIDE_JOB) is None


def test_what_we_did_may_be_said_of_one_of_us() -> None:
    trip = ["My husband and I fly to Rome in May.", "We booked the hotel near the station."]
    assert misattributed("The husband booked the hotel near the station.", trip) is None
    mine = ["My husband and I fly to Rome in May.", "I booked the hotel near the station."]
    assert misattributed("The husband booked the hotel near the station.", mine) is not None


ESSAY = [
    ("user", "I'm writing a short essay for my evening class, 600 words max, about my grandfather's boat."),
    ("assistant", "Nice. Who tells it, and how does it open?"),
    ("user", "I tell it myself. It opens at the harbour at dawn."),
    ("assistant", "You could open on the smell of diesel instead."),
    ("user", "The course tutor just said the limit is 500 words now."),
    ("user", "My brother rebuilt the engine in 2019, and the tutor liked that part."),
    ("user", "My mother-in-law wants a copy."),
]


@pytest.mark.parametrize(
    ("sentence", "dropped"),
    [
        ("The course tutor tells the story of a grandfather's boat.", True),  # "Who tells it?" "I tell it"
        ("The tutor just tells the story of the boat.", True),  # an adverb is no part of the role
        ("The tutor opens on the smell of diesel.", True),  # what the assistant said the user could do
        ("The tutor said the limit is 500 words.", False),  # the tutor's own act
        ("The brother rebuilt the engine in 2019.", False),  # a third person did it
        ("The tutor liked the part about the engine.", False),  # said of the tutor
        ("The essay opens at the harbour at dawn.", False),  # a thing, not a person
        ("The teacher tells the story of the boat.", False),  # no teacher in the conversation
        ("The mother tells the story of the boat.", False),  # "my mother-in-law" is no "mother"
    ],
)
def test_an_act_of_the_users_side_given_to_someone_named_by_a_role(sentence: str, dropped: bool) -> None:
    """Issue 21, point 2: a clause giving someone the conversation names by a role an act
    that only the user, the assistant or a question does there ("Who tells it?" "I tell it
    myself") is unfaithful; an act a third person does there, the role's own, or a
    thing's is not this rule's."""
    texts = [text for _, text in ESSAY]
    assert (misattributed(sentence, texts) is not None) is dropped
    if dropped:
        assert ground(sentence, ESSAY).text is None


FLAT = [
    "Three of us share the flat. The rent is split by room size: 700, 800 and 900.",
    "Groceries we split evenly, and the cleaner is paid 50/50 by Ana and me.",
    "The deposit is paid; I covered mine.",
]


@pytest.mark.parametrize(
    ("sentence", "dropped"),
    [
        ("They split groceries equally.", False),  # "Groceries we split evenly"
        ("Ana and the user pay the cleaner equally.", False),  # "paid 50/50"
        ("They split groceries and the cleaner evenly.", False),
        ("Nothing is said of any share.", False),  # no manner word: not this check's
        ("They split the rent equally.", True),  # by room size
        ("They split groceries, rent and the deposit evenly.", True),  # groceries only
    ],
)
def test_things_said_shared_equally_are_so_in_the_conversation(sentence: str, dropped: bool) -> None:
    assert (unshared(sentence, FLAT) is not None) is dropped


PET = [
    "Our cat Miso was prescribed gabapentin for her hips, 50 mg at night.",
    "She was on amoxicillin for a tooth infection until Friday.",
    "She also gets salmon oil in her food, and I give her a probiotic.",
    "The vet's Rx note says: meloxicam drops, 2 refills.",
]


@pytest.mark.parametrize(
    ("sentence", "dropped"),
    [
        ("Miso was prescribed gabapentin for her hips.", False),
        ("The vet prescribed gabapentin, amoxicillin for a tooth infection and meloxicam drops.", False),
        ("Miso was prescribed gabapentin and changed to a new food.", False),  # the list ends at a verb
        ("Miso gets salmon oil in her food.", False),  # not said to be prescribed
        ("Miso was prescribed gabapentin and salmon oil for her hips.", True),  # in her food
        ("The vet prescribed a probiotic.", True),  # the user gives it
    ],
)
def test_things_said_prescribed_are_so_in_the_conversation(sentence: str, dropped: bool) -> None:
    assert (unprescribed(sentence, PET) is not None) is dropped


def test_a_summary_sentence_sharing_or_prescribing_what_the_conversation_does_not_is_dropped() -> None:
    pairs = [("user", text) for text in PET] + [("assistant", "Noted: gabapentin at night, with her food.")]
    kept = "Miso takes gabapentin 50 mg at night for her hips."
    grounded = ground(f"{kept} Miso was prescribed gabapentin and salmon oil for her hips. She was on amoxicillin until Friday.", pairs)
    assert grounded.text == f"{kept} She was on amoxicillin until Friday."
    ((number, reason),) = grounded.dropped
    assert number == 2 and reason.startswith("says something was prescribed")


GARDEN = [
    "A finch just landed on the feeder while I'm typing.",
    "Small and yellow? Then it's probably a goldfinch.",
    "We also had a sparrow and a house sparrow fighting, two birds.",
]


@pytest.mark.parametrize(
    ("sentence", "dropped"),
    [
        ("The user saw a finch and a goldfinch.", False),  # another word, not the same named
        ("The user saw a robin, a cardinal and a blue jay.", False),
        ("The user saw a sparrow and a house sparrow.", False),  # the conversation says both
        ("The user saw a yellow finch.", False),  # one item
        ("The user saw a finch, and a yellow finch.", True),  # one bird, twice
        ("The user has seen a heron, a finch and a small yellow finch.", True),
    ],
)
def test_a_list_naming_one_thing_plain_and_named_counts_it_twice(sentence: str, dropped: bool) -> None:
    assert (counted_twice(sentence, GARDEN) is not None) is dropped


def test_a_summary_sentence_counting_one_thing_twice_is_dropped() -> None:
    pairs = [("user", GARDEN[0]), ("assistant", GARDEN[1]), ("user", "Yes, small and yellow. I feed them sunflower seeds.")]
    kept = "A finch landed on the feeder while the user was typing."
    grounded = ground(f"{kept} The user saw a finch, and a yellow finch. The user feeds them sunflower seeds.", pairs)
    assert grounded.text == f"{kept} The user feeds them sunflower seeds."
    ((number, reason),) = grounded.dropped
    assert number == 2 and reason.startswith("counts one thing twice")


# A story retold as facts about the chat's people (held-out 4 bedtime_story: SmolLM2's "Felix's
# a brave little hedgehog" where Felix is the user's son and the hedgehog the story's; the
# conversation below is written for this test).
FOX_STORY = [
    "Help me write a story for my daughter Maya? She's 6. It's about a fox who loses her way.",
    "Lovely. Does the fox have a name?",
    "She wants it called Ember.",
    "Ember it is. The fox finds her way home by following the river.",
]


@pytest.mark.parametrize("clause", ["Maya's a clever little fox who finds her way home", "Maya is a fox"])
def test_a_person_made_a_thing_the_chat_speaks_of_is_misattributed(clause: str) -> None:
    assert misattributed(clause, FOX_STORY) is not None


@pytest.mark.parametrize(
    "clause",
    [
        "Ember is a fox who follows the river",  # the story's fox: not a person named by a tie
        "Maya is a 6-year-old girl",  # a kind the conversation never says
        "Maya is a daughter who loves foxes",  # her tie
    ],
)
def test_what_a_named_one_is_as_the_chat_says_it_is_not_misattributed(clause: str) -> None:
    assert misattributed(clause, FOX_STORY) is None


def test_a_kind_said_of_the_person_too_is_not_judged() -> None:
    chat = ["My son Leo is a night owl, always up late.", "Try a fixed bedtime, even for a night owl."]
    assert misattributed("Leo is a night owl", chat) is None


def test_ground_drops_the_story_retold_as_facts_about_the_chats_people() -> None:
    pairs = [("user" if i % 2 == 0 else "assistant", t) for i, t in enumerate(FOX_STORY)]
    kept = "The user is writing a story about a fox for Maya. The fox finds her way home by following the river."
    grounded = ground(f"Maya's a fox who loses her way. {kept}", pairs)
    assert grounded.dropped == ((1, "makes a person of the conversation a thing it speaks of"),)
    assert ground(kept, pairs).dropped == ()


def test_the_words_of_a_clause_that_name_something_leave_out_what_every_summary_says() -> None:
    assert naming_forms("The user asked about the rent, the deposit and 2 rents.") == ["rent", "deposit", "rent"]
    assert naming_forms("The user asked about it.") == []
