"""The store's own lines tell the truth by structure (issue 21): a to-do done in part, a pin a
later turn changed, a name a correction denied, a warning resting on it, a reference only an
option the user turned down named. Each rule with a positive and a negative case, through the
module's pure function or ``MemoryStore`` (benchmarks/context_labels.json holds the recorded
lines they were found on; tests/test_context_truth.py replays those)."""

from __future__ import annotations

from pathlib import Path

import pytest

from localmem import MemoryConfig, MemoryStore
from localmem.acts import opens_with_its_verb
from localmem.autopins import who_named
from localmem.checkpoint import StateSnapshot, floor
from localmem.progress import done_by_one, ran_later
from localmem.replaced import Replacement, Value, month_days
from localmem.replies import refuses, takes_the_other, turned_down, turns_down
from localmem.staleness import ended_at, stale, still_holds
from localmem.summarizer.fallback import keyword_summary, said_topics
from localmem.summarizer.salient import facts_of
from localmem.summarizer.support import ground
from localmem.summarizer.warned import named, unsaid_warnings

# --- a to-do done in part is no longer what is left to do ------------------------------


def _pending(*later: str) -> list[str]:
    pairs = [("user", "I changed the wifi password."), ("assistant", "Remember to reconnect the printer and the TV."),
             *(("user", text) for text in later)]
    return floor(None, StateSnapshot(), pairs).pending_tasks


def test_a_task_done_in_part_leaves_the_rules_checkpoint() -> None:
    assert _pending("Done, the printer works again. The TV can wait until the weekend.") == []


def test_a_task_not_yet_done_stays() -> None:
    assert _pending("The TV can wait until the weekend.") == ["Remember to reconnect the printer and the TV."]


@pytest.mark.parametrize(("later", "left"), [
    ("Sent it through their online form just now.", False),  # a piece of writing sent on is written
    ("I've submitted the complaint, they reply within 28 days.", False),
    ("I'll send it tonight.", True),  # a plan
    ("They sent it back to the depot.", True),  # someone else sent something
    ("Sent the photos to Gareth.", True),  # another thing sent
])
def test_a_piece_of_writing_sent_on_is_no_longer_to_write(later: str, left: bool) -> None:
    task = "I need to write a formal complaint to the airline about our suitcase."
    pairs = [("user", task), ("assistant", 'Here is a draft: "Dear Sir or Madam, our suitcase ..."'), ("user", later)]
    assert (floor(None, StateSnapshot(), pairs).pending_tasks == [task]) is left


@pytest.mark.parametrize(("said", "task"), [
    ("And I have to own up, it was me who got us lost in Paris, not her.", False),  # the admission is made
    ("I have to say, the draft is lovely.", False),
    ("I have to book the hall for Saturday.", True),
    ("I still need to tell Declan about the photo.", True),  # a telling still to do
])
def test_an_admission_the_sentence_makes_is_no_task(said: str, task: bool) -> None:
    assert (floor(None, StateSnapshot(), [("user", said)]).pending_tasks == [said]) is task


@pytest.mark.parametrize(("later", "left"), [
    ("The sleeper does take dogs in a cabin if you book it for your party alone.", False),  # told
    ("They don't take dogs, sadly.", False),  # told the other way: nothing left to check
    ("Do they take dogs in the cabins?", True),  # asked again, not told
    ("You can check on their website whether they take dogs.", True),  # how to find out
    ("The sleeper takes bikes if you book ahead.", True),  # another thing told
])
def test_a_check_whether_something_holds_is_done_once_a_later_turn_tells_it(later: str, left: bool) -> None:
    task = "Not yet though, I need to check if they take dogs."
    pairs = [("user", task), ("assistant", later)]
    assert (floor(None, StateSnapshot(), pairs).pending_tasks == [task]) is left


@pytest.mark.parametrize(("task", "instruction"), [
    ("Remember to reconnect the printer and the TV.", True),
    ("Book the hotel and the train.", True),
    ("I'm the best man at my brother's wedding and I have to give a toast.", False),
    ("I still need to sign the form and print the plan.", False),
])
def test_done_in_part_reads_only_an_instruction(task: str, instruction: bool) -> None:
    """One verb on several things: "and" joining two clauses with a subject is no list of things."""
    assert opens_with_its_verb(task) is instruction


# --- a name a correction denies ------------------------------------------------------------

GRAPEFRUIT = [
    "The GP started him on amlodipine 5 mg. He has half a grapefruit every day. Is that a problem?",
    "With amlodipine the grapefruit effect is small, and many doctors don't ask people to stop.",
    "Hang on, I found the box. It says felodipine 5 mg, not amlodipine. Sorry, I mixed them up.",
    "That changes my answer: grapefruit raises felodipine a lot, he should stop it.",
]


def test_a_name_a_correction_denies_is_stale() -> None:
    assert stale("With amlodipine the grapefruit effect is small.", GRAPEFRUIT) is not None
    assert stale("He takes felodipine 5 mg, not amlodipine.", GRAPEFRUIT) is None  # says the new one


def test_no_denial_without_the_comma_a_correction_or_the_word_gone() -> None:
    claim = "With amlodipine the grapefruit effect is small."
    no_cue = [*GRAPEFRUIT[:2], "It says felodipine 5 mg, not amlodipine.", GRAPEFRUIT[3]]
    assert stale(claim, no_cue) is None  # "take the tablets, not the syrup" is advice, not a correction
    no_comma = [*GRAPEFRUIT[:2], "Sorry, he does not take amlodipine any more.", GRAPEFRUIT[3]]
    assert stale(claim, no_comma) is None
    said_again = [*GRAPEFRUIT, "Should he still keep the amlodipine box?"]
    assert stale(claim, said_again) is None  # still spoken of: not replaced
    assert stale("Two cats live here.", ["Two in the kitchen.", "Correction: three chairs, not two."]) is None
    other_mistake = ["Repairs have to be done at an authorized dealer.",
                     "Oh right, I had the wrong number in my head. The oil changes were done at Quick Lube, not the dealer."]
    assert stale("The repair has to be done at an authorized Kia dealer.", other_mistake) is None


def test_where_a_claim_went_stale() -> None:
    assert ended_at("With amlodipine the grapefruit effect is small.", GRAPEFRUIT) == 2
    assert ended_at("He has half a grapefruit every day.", GRAPEFRUIT) is None


# --- a warning a later turn made untrue is no warning to pin -------------------------------


def test_a_warning_a_correction_denied_is_not_pinned() -> None:
    pairs = [("user", "The GP started him on amlodipine 5 mg. Is grapefruit a problem?"),
             ("assistant", "With amlodipine the grapefruit effect is small, but avoid grapefruit juice if he gets dizzy."),
             ("user", "It says felodipine 5 mg, not amlodipine. Sorry, I mixed them up.")]
    assert unsaid_warnings("A chat about tablets.", pairs) == []
    kept = pairs[:2] + [("user", "Thanks, I'll tell him.")]
    assert [w for w, _ in unsaid_warnings("A chat about tablets.", kept)] == [
        "With amlodipine the grapefruit effect is small, but avoid grapefruit juice if he gets dizzy."]


WORT = ("The St John's wort is worth raising with his GP as well. It makes the liver clear a number of medicines "
        "faster, atorvastatin among them, so it can make the statin work less well, and it interacts with a long "
        "list of other drugs.")


def test_a_warning_whose_subject_is_a_pronoun_is_pinned_with_the_sentence_naming_it() -> None:
    pairs = [("user", "He's on atorvastatin and St John's wort."), ("assistant", WORT)]
    assert [w for w, _ in unsaid_warnings("A chat about his tablets.", pairs)] == [WORT]


def test_a_warning_with_it_as_its_object_is_pinned_with_the_sentence_naming_it() -> None:
    # the tenth set's apixaban_dentist, found there after its measure: "it" is the drug
    turn = ("Apixaban is an anticoagulant, so he'll bleed more after a filling. Most dentists don't stop it "
            "for a filling, but they may ask him to skip a dose on the day.")
    warning = "Most dentists don't stop it for a filling, but they may ask him to skip a dose on the day."
    assert named(warning, turn) == turn
    assert named("Don't stop it without asking.", "Don't stop it without asking.") == "Don't stop it without asking."


@pytest.mark.parametrize(("warning", "turn"), [
    ("St John's wort interacts with a long list of other drugs.", "Good question. St John's wort interacts with a long list of other drugs."),
    ("It interacts with a long list of other drugs.", "It interacts with a long list of other drugs."),  # nothing before it
    ("It's best to avoid ibuprofen with warfarin.", "Good question. It's best to avoid ibuprofen with warfarin."),  # impersonal
    ("Never mix warfarin with aspirin.", "Good question. Never mix warfarin with aspirin."),  # no pronoun
    ("It is not safe to mix warfarin with aspirin.", "Good question. It is not safe to mix warfarin with aspirin."),
])
def test_a_warning_naming_its_subject_or_alone_in_its_turn_is_pinned_as_said(warning: str, turn: str) -> None:
    assert named(warning, turn) == warning


# --- a pin a later turn changed ends when the range is summarized --------------------------


def _club(store: MemoryStore, correction: str) -> tuple[str, list[int]]:
    session = store.create_session(title="book club").id
    added = store.add_messages(session, [
        {"role": "user", "text": "We picked the next book."},
        {"role": "assistant", "text": "Nice. When and where do you meet?"},
        {"role": "user", "text": "Next meeting is 12 March at Graham's."},
        {"role": "assistant", "text": "Noted."},
        {"role": "user", "text": correction},
        {"role": "assistant", "text": "Got it."},
    ])
    store.summarize(session)
    return session, [m.id for m in added]


@pytest.fixture
def club_store(db_path: Path):
    config = MemoryConfig(ollama_host="http://127.0.0.1:9", summary_threshold=6, structured_min_tokens=0)
    with MemoryStore(db_path, config=config) as store:
        yield store


def test_a_pin_a_later_turn_replaced_leaves_the_context_and_comes_back_if_that_turn_is_forgotten(club_store) -> None:
    session, ids = _club(club_store, "Oh wait, I got the place wrong, it's at Kemi's. Still 12 March.")
    assert "Next meeting is 12 March at Graham's." not in [p.content for p in club_store.get_pins(session)]
    assert "Next meeting is 12 March at Graham's." in [p.content for p in club_store.get_pins(session, history=True)]
    club_store.delete_message(ids[4])  # the correction forgotten: the pin holds again
    assert "Next meeting is 12 March at Graham's." in [p.content for p in club_store.get_pins(session)]


def test_a_pin_nothing_changed_stays(club_store) -> None:
    session, _ = _club(club_store, "Kemi will bring snacks.")
    assert "Next meeting is 12 March at Graham's." in [p.content for p in club_store.get_pins(session)]


def test_a_pin_of_the_users_words_is_not_ended_by_the_assistant_restating_a_change(db_path: Path) -> None:
    """The user's own words change only by the user's words: an assistant's turn that reads
    like a change does not end the user's pin (the same turn said by the user does)."""
    config = MemoryConfig(ollama_host="http://127.0.0.1:9", summary_threshold=6, structured_min_tokens=0)
    turn = "Oh wait, the place is wrong, it's at Kemi's. Still 12 March."
    for role, ended in (("assistant", False), ("user", True)):
        with MemoryStore(db_path.with_name(f"{role}.db"), config=config) as store:
            session = store.create_session(title="book club").id
            store.add_messages(session, [
                {"role": "user", "text": "We picked the next book."},
                {"role": "assistant", "text": "Nice. When and where do you meet?"},
                {"role": "user", "text": "Next meeting is 12 March at Graham's."},
                {"role": "assistant", "text": "Noted."},
                {"role": "user" if role == "assistant" else "assistant", "text": "Good."},
                {"role": role, "text": turn},
            ])
            store.summarize(session)
            current = [p.content for p in store.get_pins(session)]
            assert ("Next meeting is 12 March at Graham's." not in current) is ended, role


@pytest.mark.parametrize(("later", "ended"), [
    ("Bad news, the appointment has moved to 26 May, the officer is off sick.", True),
    ("Sabine will send the employer declaration by Friday.", False),
])
def test_a_pin_whose_day_said_of_it_a_later_turn_moved_ends(db_path: Path, later: str, ended: bool) -> None:
    """"... a renewal appointment but it's on 12 May": the day is the appointment's, so the
    user's "the appointment has moved to 26 May" ends the pin; a turn moving nothing does not."""
    config = MemoryConfig(ollama_host="http://127.0.0.1:9", summary_threshold=4, structured_min_tokens=0)
    pin = "The office finally gave me a renewal appointment but it's on 12 May, after it expires."
    with MemoryStore(db_path, config=config) as store:
        session = store.create_session(title="permit").id
        store.add_messages(session, [
            {"role": "user", "text": f"My permit runs out on 30 April. {pin}"},
            {"role": "assistant", "text": "Send the form before 30 April."},
            {"role": "user", "text": later},
            {"role": "assistant", "text": "Noted."},
        ])
        store.summarize(session)
        assert (pin in [p.content for p in store.get_pins(session)]) is not ended


# --- a reference only an option the user turned down named ---------------------------------

COMPOSE = [
    ("user", "The api starts before Postgres is ready."),
    ("assistant", "Add a healthcheck to db with pg_isready. Or you could add a wait-for-it.sh script to the entrypoint."),
]


def test_an_option_the_user_turned_down_is_no_reference() -> None:
    pairs = [*COMPOSE, ("user", "I'd rather not put a shell script in the image. Went with the healthcheck.")]
    assert turned_down("wait-for-it.sh", pairs)
    assert floor(None, StateSnapshot(), pairs).context_references.files == []


@pytest.mark.parametrize("reply", [
    "Sure, I added wait-for-it.sh and it works.",  # taken up
    "Thanks, trying the healthcheck first.",  # no refusal, no choice made
    "Going with the wait-for-it.sh script.",  # the alternative chosen
])
def test_an_option_taken_up_or_not_refused_stays(reply: str) -> None:
    pairs = [*COMPOSE, ("user", reply)]
    assert not turned_down("wait-for-it.sh", pairs)
    assert floor(None, StateSnapshot(), pairs).context_references.files == ["wait-for-it.sh"]


@pytest.mark.parametrize("reply", ["Went with the healthcheck.", "Going with the healthcheck, it's one line."])
def test_an_alternative_offered_last_is_turned_down_when_the_reply_chooses_the_first(reply: str) -> None:
    """Choosing what was offered first turns down the alternative offered after it (the
    validation set's "Going with timeZone UTC" after "Another way is ... `new Date(y, m - 1, d)`";
    this case was a negative one, "no refusal", before rules10 read a choice as one)."""
    pairs = [*COMPOSE, ("user", reply)]
    assert turned_down("wait-for-it.sh", pairs)
    assert takes_the_other(reply, ["Add a healthcheck to db with pg_isready.", "Or you could add a wait-for-it.sh script."])
    assert not takes_the_other(reply, ["Add a healthcheck to db.", "Also add a wait-for-it.sh script."])  # no alternative


def test_a_refusal_answers_the_last_offer_not_what_came_before_it() -> None:
    pairs = [("user", "Rows repeat."),
             ("assistant", "Use `INSERT OR IGNORE` to skip repeats. I'd also print the skipped rows. Want me to add that?"),
             ("user", "Nah, I'll eyeball it.")]
    assert not turned_down("INSERT OR IGNORE", pairs)


@pytest.mark.parametrize(("reply", "refused"), [
    ("I'd rather not put a shell script in the image.", True),
    ("I would rather not.", True),
    ("I'd rather go by train.", False),
])
def test_rather_not_turns_down_the_last_offer(reply: str, refused: bool) -> None:
    assert turns_down(reply) is refused
    assert not refuses(reply)  # it names what it refuses: nothing else of the message is ruled out


# --- a day a stay moves to is no place (found on validation set 7, after its figures) ------


def test_a_day_moved_to_is_no_new_place() -> None:
    texts = ["Gwen's found a B&B in Penzance for the Wednesday night.",
             "I'll email the guest house and ask if we can move to Friday to Monday."]
    assert stale("Gwen's found a B&B in Penzance for the Wednesday night.", texts) is None
    moved = [texts[0], "Change of plan: we moved it to Truro."]
    assert stale("We stay in Penzance on Wednesday.", moved) is not None  # a place moved to still is


# --- found on validation sets 7-8, after their figures were taken ----------------------------


def test_a_line_of_a_quoted_draft_is_no_decision() -> None:
    draft = ("The Paris part could go:\n\n\"At fifteen, on the school trip, I decided I knew the Metro better "
             "than the teachers. Three hours later we were lost. Niamh found a map and got us home.\"")
    pairs = [("user", "Can you help with my speech for Niamh?"), ("assistant", draft), ("user", "Love it.")]
    assert floor(None, StateSnapshot(), pairs).key_decisions == []
    said = [("user", "We talked it over. I decided I'd take the train."), ("assistant", "Good.")]
    assert floor(None, StateSnapshot(), said).key_decisions == ["I decided I'd take the train."]


@pytest.mark.parametrize(("text", "code"), [
    ("Booked, reference FT-7731-482.", "FT-7731-482"),
    ("I'll write up the plan in the ticket OPS-2291.", "OPS-2291"),
])
def test_a_booking_code_is_kept_whole(text: str, code: str) -> None:
    pairs = [("user", "Book it."), ("assistant", text)]
    assert floor(None, StateSnapshot(), pairs).context_references.identifiers == [code]


# --- a run's outcome a later run replaced (statuses.outcome_replaced) -------------------------

RUNS = (
    "installs now but the tests blow up",
    "$ pytest -q tests/test_orders.py\nE   AttributeError: no attribute 'model_validate'\n1 failed in 0.41s",
    "Keep pydantic 2 and upgrade FastAPI instead.",
    "pip check clean, 46 passed locally. CI is still running",
    "ok",
    "CI green.",
)


@pytest.mark.parametrize(("claim", "is_stale"), [
    ("1 failed in 0.41s", True),  # the later tally is the outcome
    ("CI is still running", True),  # the later status is
    ("pip check clean, 46 passed locally.", False),  # the latest tally
    ("CI green.", False),
    ("Keep pydantic 2 and upgrade FastAPI instead.", False),  # no run's outcome
])
def test_a_runs_outcome_a_later_run_replaced_is_stale(claim: str, is_stale: bool) -> None:
    assert (stale(claim, RUNS) is not None) is is_stale


def test_the_same_outcome_again_or_an_outcome_of_another_kind_replaces_nothing() -> None:
    again = ("$ pytest\n1 failed in 0.41s", "Try clearing the cache.", "$ pytest\n1 failed in 0.39s")
    assert stale("1 failed in 0.41s", again) is None  # the later run failed the same way
    other = ("$ pytest\n1 failed in 0.41s", "The build failed too.", "exit code 2")
    assert stale("1 failed in 0.41s", other) is None  # a build's status and an exit code are other runs
    asked = ("$ pytest\n1 failed in 0.41s", "Did the tests pass after that?")
    assert stale("1 failed in 0.41s", asked) is None  # a question reports no run


def test_a_later_run_told_another_way_replaces_an_exit_code_or_a_tally() -> None:
    """An exit code tells its run's outcome as a status does (0 passed, any other failed): a
    later run that passes, or a new run started on the fix, replaces the failed one's code
    and its tally; a later run that failed again replaces neither."""
    first = "$ pytest -q\n2 failed, 11 passed in 4.21s\nError: Process completed with exit code 1."
    fixed = (first, "Fixed the fixture, pushed it.", "pushed the overdue fix, CI running")
    assert stale("Error: Process completed with exit code 1.", fixed) is not None
    assert stale("2 failed, 11 passed in 4.21s", fixed) is not None
    red = (first, "Fixed the fixture, pushed it.", "CI is red again")
    assert stale("Error: Process completed with exit code 1.", red) is None
    assert stale("exit code 0", ("$ make\nexit code 0", "The build passed too.")) is None


def test_a_tool_output_whose_run_was_replaced_gives_the_keyword_summary_no_fact() -> None:
    """Every line of a tool's output tells its run: once a later run replaced it (the fix
    pushed, "CI running"), its failures' details ("E assert 3 == 2") are no fact of the
    conversation. A run nothing replaced keeps its lines; a user's own sentence beside a
    failed tally is not a tool's output."""
    run = "Run pytest -q\nE   assert 3 == 2\nFAILED tests/test_reports.py::test_overdue_report\n1 failed, 12 passed in 4.87s"
    replaced = [
        ("user", "CI reran:"), ("tool", run), ("assistant", "Only the overdue report is left."),
        ("user", "Found it, the query used <= instead of <. Pushed the overdue fix, CI running"),
    ]
    assert "assert 3 == 2" not in keyword_summary(replaced)
    standing = replaced[:3] + [("user", "Looking at the overdue report next.")]
    assert "assert 3 == 2" in keyword_summary(standing)
    said = [("user", "Going with the session-scoped fixture, Priya owns conftest.py. 1 failed, 12 passed."),
            ("assistant", "Look at the due-today boundary."), ("user", "Pushed the overdue fix, CI running")]
    candidates = [f.text for f in facts_of(said, stale)]
    assert "Going with the session-scoped fixture, Priya owns conftest.py." in candidates  # still holds
    assert "1 failed, 12 passed." not in candidates  # the tally a later run replaced


# --- a topic word said only as a name is no topic (summarizer.fallback.said_topics) --------


def test_a_topic_word_said_only_as_a_name_names_no_topic() -> None:
    tool = "Tomasz says we should move the whole thing to Poetry. We're not doing Poetry, too much churn."
    assert said_topics(tool) == []
    chat = [("user", tool), ("assistant", "Fair."), ("user", "ok")]
    assert "about:" not in keyword_summary(chat) and "poetry" not in keyword_summary(chat)


@pytest.mark.parametrize("text", [
    "I've been reading a lot of poetry lately.",  # the word
    "Poetry is where I started.",  # opening a sentence
    "Notes:\nPoetry workshop on Friday",  # opening a line
])
def test_a_topic_word_said_as_a_word_names_its_topic(text: str) -> None:
    assert said_topics(text) == ["poetry"]


def test_an_acronym_or_a_name_with_capitals_inside_is_said_as_the_word() -> None:
    assert said_topics("The API returns 500 when the endpoint gets a list") == ["API"]
    assert said_topics("we moved the orders table to PostgreSQL") == ["database"]
    assert said_topics("we watched Toy Story and then an Apple Music playlist") == []


# --- a pin keeps what still holds once a later turn changed part of it ----------------------

FLAT = [
    {"role": "user", "text": "Need help with an email to the agent about mould in the back bedroom."},
    {"role": "assistant", "text": "Is anyone sleeping in that room?"},
    {"role": "user", "text": "Ollie sleeps there and he has asthma."},
    {"role": "assistant", "text": "Then it would be safer if he slept elsewhere."},
]


def _flat(db_path: Path, later: str) -> tuple[MemoryStore, str, list[int]]:
    config = MemoryConfig(ollama_host="http://127.0.0.1:9", summary_threshold=6, structured_min_tokens=0)
    store = MemoryStore(db_path, config=config)
    session = store.create_session(title="damp").id
    added = store.add_messages(session, [*FLAT, {"role": "user", "text": later}, {"role": "assistant", "text": "OK."}])
    store.summarize(session)
    return store, session, [m.id for m in added]


def _pinned(store: MemoryStore, session: str) -> list[str]:
    return [p.content for p in store.build_context(session).pins]


def test_a_pin_shrinks_to_the_clause_that_still_holds_and_forgetting_either_message_holds(db_path: Path) -> None:
    """"Ollie sleeps there and he has asthma." once "He's moved his mattress into the living
    room": the place no longer holds, the asthma does, named ("Ollie has asthma."). The new
    pin rests on both messages: forgetting the move brings the whole pin back, forgetting
    the first statement takes both away."""
    later = "I'll tell Ollie. He's already moved his mattress into the living room as of last night."
    store, session, ids = _flat(db_path, later)
    with store:
        assert _pinned(store, session) == ["Ollie has asthma."]
        store.delete_message(ids[4])  # the move forgotten: the whole pin holds again
        assert _pinned(store, session) == ["Ollie sleeps there and he has asthma."]
    store, session, ids = _flat(db_path.with_name("again.db"), later)
    with store:
        store.delete_message(ids[2])  # the statement forgotten: nothing of it stays
        assert not [p for p in store.get_pins(session, history=True) if "Ollie" in p.content]


@pytest.mark.parametrize("later", [
    "Ollie hasn't moved his mattress into the living room yet.",  # denied
    "If he moved his mattress into the living room he'd sleep better.",  # on a condition
    "Ollie's sister moved to Leeds.",  # someone else
])
def test_a_pin_no_move_ended_stays_whole(db_path: Path, later: str) -> None:
    store, session, _ = _flat(db_path, later)
    with store:
        assert _pinned(store, session) == ["Ollie sleeps there and he has asthma."]


def test_what_holds_names_its_subject_or_is_not_kept() -> None:
    texts = ("Ollie sleeps there and he has asthma.", "Ollie moved into the living room.")
    assert still_holds("Ollie sleeps there and he has asthma.", texts) == "Ollie has asthma."
    assert still_holds("Ollie sleeps there and has asthma.", texts) is None  # one clause: nothing to keep apart
    assert still_holds("Ollie sleeps there and it is damp.", texts) is None  # "It is damp." names nothing


# --- a task laid on several people, done by one (progress.done_by_one) --------------------

SHARED = "The referencing is the next step: you'll each need payslips or an employer reference."


def _shared_pending(later: str) -> list[str]:
    pairs = [("user", "Offer accepted on the flat."), ("assistant", SHARED), ("user", later)]
    return floor(None, StateSnapshot(), pairs).pending_tasks


@pytest.mark.parametrize(("later", "left"), [
    ("Sam's done his referencing, mine's not done yet.", False),  # one of the two: the line says it of both
    ("Priya has already completed the referencing.", False),
    ("Sam hasn't done his referencing yet.", True),  # denied
    ("Sam's done the washing up.", True),  # something else done
    ("Has Sam done his referencing?", True),  # asked
])
def test_a_task_laid_on_several_people_done_by_one_leaves_the_rules_checkpoint(later: str, left: bool) -> None:
    assert (SHARED in _shared_pending(later)) is left


def test_a_task_laid_on_one_person_is_not_done_by_someone_else() -> None:
    assert not done_by_one("You'll need payslips for the referencing.", ["Sam's done his referencing."])
    assert done_by_one("You'll both need payslips for the referencing.", ["Sam's done his referencing."])


@pytest.mark.parametrize(("later", "is_stale"), [
    ("Priya moved out last week.", True),  # no new place: the old one is over all the same
    ("My neighbour Priya moved into the flat upstairs in 2019.", False),  # where she lives now
    ("Tom moved out last week.", False),  # someone else
])
def test_where_someone_stays_ends_when_they_moved(later: str, is_stale: bool) -> None:
    texts = ("My neighbour Priya lives in the flat upstairs.", later)
    assert (stale("Priya lives in the flat upstairs.", texts) is not None) is is_stale


# --- a bare day of the month corrected stands for that day of the month said before ---------

BAG = (
    "It was delivered to the villa on 6 August, four days later, with a wheel snapped off.",
    "A damage claim is due within 7 days: 6 August plus 7 days is 13 August.",
    "Two fixes. The bag came on the 7th, not the 6th.",
)


def test_a_bare_day_corrected_replaces_that_day_of_the_month_said_before() -> None:
    assert stale("6 August plus 7 days is 13 August.", BAG) is not None
    assert stale("It was delivered to the villa on 6 August.", BAG) is not None
    assert stale("It was delivered on 7 August.", BAG) is None  # the new day, in that month
    assert stale("6 August plus 7 days is 13 August, now 7 August.", BAG) is None  # the change told


def test_a_bare_day_corrected_leaves_other_days_and_days_said_after_it() -> None:
    other = ("The flight was on 2 August.", "It came on the 7th, not the 6th.")
    assert stale("The flight was on 2 August.", other) is None  # another day of the month
    after = ("It came on the 7th, not the 6th.", "The courier comes back on 6 September.")
    assert stale("The courier comes back on 6 September.", after) is None  # said after the correction
    unsaid = ("It came on the 7th, not the 6th.",)
    assert stale("It came on 6 August.", unsaid) is None  # no month said before: nothing to stand for


def test_month_days_reads_the_month_of_the_latest_day_said_before() -> None:
    def day(value: str, text: int) -> Value:
        return Value("day", value, None, frozenset(), text, 0, 0)

    said = [day("jul 6", 0), day("aug 6", 1), day("the 6", 2), day("the 7", 2)]
    found = month_days(said, [Replacement(said[2], said[3])])
    assert [(r.old.value, r.new.value) for r in found] == [("aug 6", "aug 7")]
    with_month = month_days(said, [Replacement(said[2], day("nov 14", 2))])
    assert [(r.old.value, r.new.value) for r in with_month] == [("aug 6", "nov 14")]


# --- a run told by its outcome was done (progress.ran_later) --------------------------------


@pytest.mark.parametrize(("item", "later", "ran"), [
    ("run tests", "rebased, tests green, force pushed with lease.", True),
    ("Run the tests again", "46 passed, 2 skipped in 3.1s", True),
    ("rerun CI", "CI is red again, same flaky test.", True),  # failed, but it ran
    ("rerun CI", "CI is still running", False),  # not over yet
    ("run tests", "I'll run them after lunch.", False),  # a plan
    ("run the migration", "46 passed", False),  # no outcome of what it runs
])
def test_a_run_told_by_its_outcome_was_done(item: str, later: str, ran: bool) -> None:
    assert ran_later(item, [later]) is ran


def test_a_run_reported_by_its_outcome_leaves_the_rules_checkpoint() -> None:
    pairs = [("user", "Rebase done."), ("assistant", "Remember to run the tests before you push."),
             ("user", "tests green, pushed.")]
    assert floor(None, StateSnapshot(), pairs).pending_tasks == []
    pairs[-1] = ("user", "pushing now.")
    assert floor(None, StateSnapshot(), pairs).pending_tasks == ["Remember to run the tests before you push."]


# --- a price set anew on "it" by any verb with "down to" / "up to"; a total of it plus more ---------

VAN = (
    "We move on Friday. Booked a van with a driver for 8am, £420.",
    "Check the van can park at both ends.",
    "They had a breakdown, so they've moved us to Saturday, same time, and knocked it down to £380.",
)


def test_a_verb_with_down_to_on_it_sets_its_value_anew() -> None:
    assert stale("Booked a van with a driver for 8am, £420.", VAN) is not None
    assert stale("Booked a van with a driver for 8am, £420, now £380.", VAN) is None  # the change told
    put_up = ("The gym is £30 a month.", "They put it up to £35 in January.")
    assert stale("The gym is £30 a month.", put_up) is not None


def test_up_to_without_a_pronoun_it_sets_is_no_change() -> None:
    capacity = ("The room is £150 for the afternoon.", "It holds up to 40 people, so 30 is fine.")
    assert stale("The room is £150 for the afternoon.", capacity) is None
    assert stale("Booked a van with a driver for 8am, £420.", VAN[:2]) is None  # nothing set it anew
    carried = ("The piano is 148 cm tall.", "They carried it up to the landing, 2 men.")
    assert stale("The piano is 148 cm tall.", carried) is None  # no value after "up to"


SECOND_MAN = VAN + (
    "My brother can't help now. The driver says he'll bring a second man for £60 extra.",
    "Then it's £440 in all, the £380 plus £60 for the second man.",
)


def test_a_total_of_a_value_plus_more_replaces_that_value() -> None:
    assert stale("Moved to Saturday at 8am for £380.", SECOND_MAN) is not None
    assert stale("The van is £440 in all, the £380 plus £60 for the second man.", SECOND_MAN) is None
    assert stale("The second man is £60 extra.", SECOND_MAN) is None  # what is added is not replaced


def test_a_sum_without_its_total_replaces_nothing() -> None:
    offered = VAN + ("So the £380 plus £60 for a second man, if you want one.",)
    assert stale("Moved to Saturday at 8am for £380.", offered) is None
    other = VAN + ("Then it's £500 in all, the £380 plus £60 and the parking.",)
    assert stale("Moved to Saturday at 8am for £380.", other) is None  # 380 + 60 is not 500


def test_a_summary_sentence_told_only_by_a_stale_one_is_stale_too() -> None:
    summary = "Booked a van for 8am, £420. They knocked it down to £380. The loft is left."
    pairs = [("user", text) for text in (*SECOND_MAN, "Packed the kitchen, the loft is left.")]
    kept = ground(summary, pairs).text or ""
    assert "£420" not in kept and "£380" not in kept
    told = "Booked a van for 8am, £420. It is £440 in all now, the £380 plus £60."
    assert "£420" in (ground(told, pairs).text or "")  # a kept sentence tells the change


# --- a fact pin standing on he/she/his/her names whom it means (autopins.who_named) ----------------


def test_a_pronoun_fact_is_pinned_with_the_sentence_naming_its_person(tmp_path: Path) -> None:
    with MemoryStore(tmp_path / "m.db") as store:
        session = store.create_session().id
        store.add_message(session, "user", "Planning mum's 70th with my sister. Her birthday's Sunday 8 June. Lunch for 30.")
        pins = [p.content for p in store.get_pins(session)]
    assert "Planning mum's 70th with my sister. Her birthday's Sunday 8 June." in pins
    assert "Her birthday's Sunday 8 June." not in pins


def test_who_named_leaves_a_named_fact_and_one_without_a_person_before() -> None:
    assert who_named("My son is allergic to peanuts.", ["Hi there."]) == "My son is allergic to peanuts."
    # nothing before names anyone: whom it means may be in an earlier message
    assert who_named("She has asthma.", ["The form is due Friday."]) == "She has asthma."
    assert who_named("He takes metformin.", []) == "He takes metformin."
    # the nearest sentence naming a person, not the one right before
    assert who_named("She has asthma.", ["My daughter Leila is 13.", "The form is due Friday."]) == (
        "My daughter Leila is 13. She has asthma."
    )
    # a sentence standing on such a pronoun itself names no one ("Her friend" is whose friend?)
    assert who_named("She has asthma.", ["Her friend Maya goes too."]) == "She has asthma."
    long = "My daughter " + "x" * 200 + "."
    assert who_named("She has asthma.", [long]) == "She has asthma."  # too long to pin whole
