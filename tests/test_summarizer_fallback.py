"""Deterministic fallback and offline summaries."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from localmem.staleness import stale
from localmem.summarizer.salient import complete, dropped_kinds, facts_of, salient_facts
from localmem.summarizer.fallback import (
    NO_MESSAGES_SUMMARY,
    extract_topics,
    keyword_summary,
    offline_summary,
    said_topics,
)

Messages = list[tuple[str, str]]
Summarize = Callable[[Messages], str]

TECH_CHAT: Messages = [
    ("user" if i % 2 == 0 else "assistant", text)
    for i, text in enumerate(
        [
            "How do I write a function that reads the orders table?",
            "Use a SELECT with a WHERE clause.",
            "The SQL query throws an error on the date column.",
            "Cast the column to DATE first.",
            "Now the code runs, but there's a bug with time zones.",
            "Store timestamps in UTC.",
            "Can I fix it in the database itself?",
            "Yes, with a migration.",
            "What about the API endpoint that returns orders?",
            "Convert to local time there.",
            "Should the request carry the user's time zone?",
            "Yes, as a header.",
            "Great, I'll build that.",
            "Good luck.",
            "Thanks, this helps a lot.",
        ]
    )
]
PLAIN_CHAT: Messages = [
    ("user", "Good morning! My grandmother gets bored in the evenings lately."),
    ("assistant", "Card games or a jigsaw puzzle could keep her company."),
    ("user", "Thanks, she will love that"),
]
CAREGIVER_CHAT: Messages = [
    ("user", "Hi! I'm setting up a medication schedule for my mom, Rosa. She's 82."),
    ("assistant", "Happy to help. What does she take, and when?"),
    ("user", "Warfarin 5 mg every evening at 6 pm, and metoprolol 25 mg in the morning."),
    (
        "assistant",
        "Okay. Warfarin needs regular INR checks; never give her ibuprofen or aspirin with it, "
        "since that raises the bleeding risk.",
    ),
    ("user", "Good to know. She is also allergic to penicillin."),
    ("assistant", "Noted: penicillin allergy. Tell every doctor and pharmacist about it."),
    ("user", "Her next INR check is Tuesday March 12 at 10:30 at Dr. Patel's clinic."),
    ("assistant", "I'll remind you on Monday evening. Acetaminophen is safer than ibuprofen for her."),
    ("user", "Thanks, that's great."),
    ("assistant", "You're welcome. Take care of yourself too."),
]
STRANGE_TEXTS = [
    "",
    "   \n\t  ",
    "x" * 200_000,
    " " * 200_000 + "late start",
    "line one\nline two\r\nline three",
    "\U0001f48a\U0001f475\U0001f3fd pills for grandma \u2764\ufe0f",
    "\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627",
    "e\u0301" * 100,
    "\ud800 lone surrogate \udfff",
    "\x00\x01\x1b[31m control",
    "\"quoted\" 'text' with \\ backslashes",
]


@pytest.mark.parametrize(
    ("text", "topics"),
    [
        ("How do I fix this SQL error in my code?", ["programming", "database", "troubleshooting"]),
        ("Write a POEM about a song", ["poetry", "music"]),
        ("Tell me a story about a dragon character", ["creative writing"]),
        ("Can you help me explain why the sky is blue?", ["help/explanation", "Q&A"]),
        ("My debugging of the MySQL table", ["database", "troubleshooting"]),
        ("the therapist chopped vegetables rapidly", []),
        ("", []),
    ],
)
def test_extract_topics_uses_the_origin_table(text: str, topics: list[str]) -> None:
    assert extract_topics(text) == topics


@pytest.mark.parametrize(("limit", "expected"), [(0, []), (1, ["programming"]), (5, 4)])
def test_extract_topics_respects_the_limit(limit: int, expected: list[str] | int) -> None:
    text = "code, a sql table, an api request, a bug"
    topics = extract_topics(text, limit=limit)
    assert topics == expected if isinstance(expected, list) else len(topics) == expected


def test_keyword_summary_with_topics_has_the_origin_wording() -> None:
    assert keyword_summary(TECH_CHAT) == (
        "Conversation with 15 messages (8 user, 7 assistant) about: "
        "programming, database, API."
    )


def test_keyword_summary_without_topics_or_facts_quotes_first_and_last_user_messages() -> None:
    assert keyword_summary(PLAIN_CHAT) == (
        'Conversation with 3 messages. Started with: "Good morning! My grandmother g..."'
        ' Recent topic: "Thanks, she will love that"'
    )


def test_offline_summary_gives_count_topics_and_samples() -> None:
    summary = offline_summary(TECH_CHAT)
    assert summary.startswith("Offline summary: 15 messages about: programming, database, API.")
    assert 'Started: "How do I write a function that reads the orders ta..."' in summary
    assert 'Recent: "Thanks, this helps a lot."' in summary


def test_offline_summary_without_topics_or_facts() -> None:
    assert offline_summary(PLAIN_CHAT) == (
        'Offline summary: 3 messages. Started: "Good morning! My grandmother gets bored in the '
        'eve..." Recent: "Thanks, she will love that"'
    )


# --- the salient facts (issue 12, point 5) ----------------------------------------------------


@pytest.mark.parametrize(
    ("summarize", "head"),
    [
        (
            keyword_summary,
            'Conversation with 10 messages. Started with: "Hi! I\'m setting up a medicatio..." '
            'Recent topic: "Thanks, that\'s great." Facts: ',
        ),
        (
            offline_summary,
            'Offline summary: 10 messages. Started: "Hi! I\'m setting up a medication schedule '
            'for my mo..." Recent: "You\'re welcome. Take care of yourself too." Facts: ',
        ),
    ],
)
def test_fallbacks_carry_the_spans_facts_after_the_origins_wording(
    summarize: Summarize, head: str
) -> None:
    summary = summarize(CAREGIVER_CHAT)
    assert summary.startswith(head)
    facts = summary[len(head):]
    for fact in (
        "She is also allergic to penicillin.",
        "Her next INR check is Tuesday March 12 at 10:30 at Dr. Patel's clinic.",
    ):
        assert fact in facts
    # in the conversation's order, and nothing said twice ("Noted: penicillin allergy.")
    assert facts.index("allergic") < facts.index("Tuesday")
    assert facts.count("penicillin") == 1
    assert "Happy to help" not in facts and "Thanks" not in facts
    _assert_storable(summary)


def test_the_warning_is_kept_without_its_explanation() -> None:
    facts = keyword_summary(CAREGIVER_CHAT).split("Facts: ", 1)[1]
    assert "Never give her ibuprofen or aspirin with it." in facts
    assert "bleeding" not in facts


def test_topics_stay_and_facts_follow() -> None:
    chat = [*TECH_CHAT[:-1], ("user", "We decided to ship the fix on Friday, June 7.")]
    assert keyword_summary(chat) == (
        "Conversation with 15 messages (8 user, 7 assistant) about: programming, database, API."
        " Facts: We decided to ship the fix on Friday, June 7."
    )


def test_the_most_important_facts_win_the_room() -> None:
    # Fourteen facts with prices crowd the span; the allergy, said last, is kept all the same.
    chat: Messages = [
        ("user" if i % 2 == 0 else "assistant", f"Option {i} costs ${100 + i} and ships in {i + 2} days.")
        for i in range(14)
    ]
    chat.append(("user", "Important: my son Leo is allergic to peanuts and tree nuts."))
    summary = keyword_summary(chat)
    assert "Leo is allergic to peanuts and tree nuts." in summary
    assert "costs $100" in summary  # the room left goes to the others, oldest first on ties
    _assert_storable(summary)


def test_a_long_fact_that_does_not_fit_gives_way_to_shorter_ones() -> None:
    long_fact = "The contract with Harlow Logistics renews on 2025-09-01 " + "and then " * 30 + "ends."
    chat = [("user", long_fact), ("user", "The deposit is $450, paid on May 2.")]
    summary = offline_summary(chat)
    assert summary.split("Facts: ", 1)[1] == "The deposit is $450, paid on May 2."
    _assert_storable(summary)


VET_CHAT: Messages = [
    ("user", "The vet appointment is on Monday June 3 at 9 am with Dr. Brown at Elm Clinic."),
    ("assistant", "Never give him chocolate or grapes: both are toxic to dogs."),
    ("user", "He takes 20 mg of Rimadyl twice a day with food, Dr. Brown said."),
    ("user", "The booster shot is booked for Friday July 12 at 4 pm at Elm Clinic."),
]
WARNING = "Never give him chocolate or grapes: both are toxic to dogs."
BOOSTER = "The booster shot is booked for Friday July 12 at 4 pm at Elm Clinic."


def test_a_warning_is_not_lost_to_higher_scoring_facts_when_the_room_is_short() -> None:
    # The two appointments and the dose score above the warning; by score alone, the room
    # for two facts would hold the appointments and no warning.
    assert salient_facts(VET_CHAT, 160, stale) == [WARNING, BOOSTER]
    assert salient_facts(VET_CHAT, 100, stale) == [WARNING]
    # With room for all, the order and the choice are the scores' and the conversation's.
    assert salient_facts(VET_CHAT, 300, stale) == [text for _, text in VET_CHAT]


def test_a_caution_already_kept_or_a_warning_that_cannot_fit_changes_nothing() -> None:
    # An allergy kept by score is a caution: the facts stay the best by score.
    chat = [*VET_CHAT, ("user", "Max is allergic to chicken.")]
    kept = salient_facts(chat, 100, stale)
    assert "Max is allergic to chicken." in kept and WARNING not in kept
    # A warning longer than the room is not forced in: the room goes by score.
    long_warning = "Never give him chocolate or grapes: both are toxic to dogs " + "and cats " * 12 + "alike."
    chat = [*VET_CHAT[:1], ("assistant", long_warning), *VET_CHAT[2:]]
    assert salient_facts(chat, 100, stale) == [BOOSTER]
    # No warning in the span: the facts by score.
    assert salient_facts([m for m in VET_CHAT if m[1] != WARNING], 160, stale) == [VET_CHAT[0][1], BOOSTER]


@pytest.mark.parametrize("summarize", [keyword_summary, offline_summary])
def test_facts_are_deterministic_whatever_the_container(summarize: Summarize) -> None:
    first = summarize(CAREGIVER_CHAT)
    assert summarize(tuple(CAREGIVER_CHAT)) == first
    assert summarize([(r, t) for r, t in CAREGIVER_CHAT]) == first


def test_a_system_prompt_is_not_a_fact() -> None:
    chat = [("system", "You are Ada, born 1815 in London; answer in 3 sentences."), *PLAIN_CHAT]
    assert "Ada" not in keyword_summary(chat) and "Ada" not in offline_summary(chat)


@pytest.mark.parametrize("summarize", [keyword_summary, offline_summary])
def test_the_same_messages_give_the_same_summary(summarize: Summarize) -> None:
    assert summarize(TECH_CHAT) == summarize(list(TECH_CHAT)) == summarize(tuple(TECH_CHAT))
    assert summarize(PLAIN_CHAT) == summarize([tuple(m) for m in PLAIN_CHAT])


@pytest.mark.parametrize("summarize", [keyword_summary, offline_summary])
def test_no_messages(summarize: Summarize) -> None:
    assert summarize([]) == NO_MESSAGES_SUMMARY


@pytest.mark.parametrize("summarize", [keyword_summary, offline_summary])
@pytest.mark.parametrize("text", STRANGE_TEXTS)
@pytest.mark.parametrize("role", ["user", "assistant", "", "TOOL"])
def test_strange_input_gives_a_short_single_line_summary(
    summarize: Summarize, text: str, role: str
) -> None:
    summary = summarize([(role, text), ("user", text)])
    _assert_storable(summary)


@given(
    st.lists(
        st.tuples(st.sampled_from(["user", "assistant", "system", "tool", "x"]), st.text()),
        max_size=20,
    )
)
def test_any_messages_give_a_storable_deterministic_summary(messages: Messages) -> None:
    for summarize in (keyword_summary, offline_summary):
        summary = summarize(messages)
        _assert_storable(summary)
        assert summarize(messages) == summary


def _assert_storable(summary: str) -> None:
    assert 0 < len(summary) < 300
    assert "\n" not in summary
    summary.encode("utf-8")  # no lone surrogates: SQLite would refuse them


# --- what a model's summary must keep (issue 17, point 2) -------------------------------------


def test_the_safety_kinds_a_summary_drops() -> None:
    facts = facts_of(CAREGIVER_CHAT, stale)
    assert dropped_kinds("We talked about Rosa.", facts) == [
        "allergy", "medication", "warning", "appointment"
    ]
    # warfarin is named, but the warning is about ibuprofen and the visit has no date here
    assert dropped_kinds("Rosa takes warfarin and needs INR checks.", facts) == [
        "allergy", "warning", "appointment"
    ]
    kept = (
        "Rosa takes warfarin 5 mg; she is allergic to penicillin, must avoid ibuprofen and "
        "has an INR check on Tuesday March 12."
    )
    assert dropped_kinds(kept, facts) == []


def test_a_summary_is_completed_with_what_it_dropped_or_not_at_all() -> None:
    facts = facts_of(CAREGIVER_CHAT, stale)
    summary = (
        "Rosa takes warfarin 5 mg at 6 pm, must avoid ibuprofen, and sees Dr. Patel on Tuesday "
        "March 12 at 10:30."
    )
    assert complete(summary, facts, 300) == summary + " She is also allergic to penicillin."
    assert complete(summary, facts, len(summary) + 10) is None  # does not fit
    completed = complete("Rosa's week was planned.", facts, 300)
    assert completed is not None and completed.startswith("Rosa's week was planned. ")
    # the best fact of each kind dropped (the ibuprofen warning is a medication fact too),
    # in the conversation's order
    assert completed.split(". ", 1)[1] == (
        "Never give her ibuprofen or aspirin with it. She is also allergic to penicillin. "
        "Her next INR check is Tuesday March 12 at 10:30 at Dr. Patel's clinic."
    )
    assert complete(summary + " She is allergic to penicillin.", facts, 300) == (
        summary + " She is allergic to penicillin."
    )


def test_a_question_is_no_fact_to_keep() -> None:
    facts = facts_of([("user", "Does she have any allergies?"), ("assistant", "None that we know.")], stale)
    assert dropped_kinds("We talked.", facts) == []


def test_a_span_without_safety_facts_needs_nothing() -> None:
    assert dropped_kinds("Orders and time zones.", facts_of(TECH_CHAT, stale)) == []


def test_health_conditions_code_names_and_counts_are_facts_too() -> None:
    chat: Messages = [
        ("user", "My partner gets seasick, so no boat trips please."),
        ("assistant", "Understood. Take the train instead."),
        ("user", "The test failed 3 times in 100 runs before the fix and 0 times after."),
        ("assistant", "I'll open PR 517 with the fix to get_price()."),  # a number and a code name
        ("user", "Nice weather today."),
    ]
    summary = keyword_summary(chat)
    for fact in ("seasick", "failed 3 times in 100 runs", "PR 517 with the fix to get_price()"):
        assert fact in summary
    facts = summary.split("Facts: ", 1)[1]  # issue 21: no topic is said, so the samples lead
    assert "weather" not in facts and "train" not in summary


FRIENDS_CHAT = [
    ("user", "Booked a table for two at the Thai place, can you fix the time with Sam?"),
    ("assistant", "Sure, 8 pm works. Did you finish that story you were reading?"),
    ("user", "Yes! Also my bike chain needs a fix, I put it back wrong."),
    ("assistant", "Bring it over on Sunday, I have the tools."),
]


def test_offline_summaries_name_no_topic_the_range_does_not_say() -> None:
    """Issue 21, point 3: one keyword is no topic ("a table for two" is no database, "fix
    the time" and "my bike chain needs a fix" no troubleshooting); a topic the user names, or two
    of its keywords, is said."""
    assert said_topics("\n".join(t for r, t in FRIENDS_CHAT if r == "user")) == []
    for summary in (keyword_summary(FRIENDS_CHAT), offline_summary(FRIENDS_CHAT)):
        assert "about:" not in summary and "database" not in summary
    named = FRIENDS_CHAT + [("user", "Then some poetry: what rhymes with chain?")]
    assert said_topics("\n".join(t for r, t in named if r == "user")) == ["poetry"]
    assert said_topics("the SQL table has a bug; the debug log shows it") == ["database", "troubleshooting"]


USER_ALLERGY: Messages = [
    ("user", "I'm allergic to penicillin and I take warfarin 5 mg."),
    ("assistant", "Let me check your pharmacy record."),
    ("tool", "Patient record: Allergies: none recorded."),
    ("assistant", "Your record shows no allergies, so you can take amoxicillin."),
    ("user", "Can I take ibuprofen for my knee?"),
    ("assistant", "No: ibuprofen with warfarin raises bleeding risk."),
    ("user", "You said I have diabetes, right?"),
    ("assistant", "Yes, you told me you have type 2 diabetes."),
]


def test_another_voice_never_states_the_users_health_for_them() -> None:
    """A tool's record or the assistant denying the allergy the user stated, or telling the
    user of a condition they never named, is no fact of the span (the user's facts come
    from the user's own words); the user's own words and the warning are."""
    facts = [f.text for f in facts_of(USER_ALLERGY, stale)]
    assert "I'm allergic to penicillin and I take warfarin 5 mg." in facts
    assert "No: ibuprofen with warfarin raises bleeding risk." in facts
    assert not [f for f in facts if "none recorded" in f or "no allergies" in f or "told me" in f]
    for summarize in (keyword_summary, offline_summary):
        facts_part = summarize(USER_ALLERGY).split("Facts:", 1)[1]
        assert "amoxicillin" not in facts_part and "diabetes" not in facts_part


@pytest.mark.parametrize("said", [
    ("assistant", "Never give her amoxicillin: she is allergic to penicillin."),  # a warning
    ("assistant", "You take metformin 500 mg with breakfast, as you said."),  # the user's words
    ("assistant", "Amoxicillin is a penicillin, so it is not an option for you."),  # not a health fact denied
])
def test_another_voice_may_repeat_or_warn(said: tuple[str, str]) -> None:
    span = [("user", "She is allergic to penicillin. I take metformin 500 mg with breakfast."), said]
    assert said[1] in [f.text for f in facts_of(span, stale)]


@pytest.mark.parametrize(
    "sentence",
    [
        "Sam books the pitch for £48 a week and Kofi collects the money, so that's £9.60 each.",
        "Tickets for Anna and Ben are booked for Friday, which is $3.50 more than last year.",
        "Mum takes amlodipine 5 mg every morning, which is 2.5 mg less than before.",
        "The train leaves at 07:58 on Saturday, since the 09:12 is full.",
    ],
)
def test_a_reason_tail_holding_a_number_is_kept_whole(sentence: str) -> None:
    """A tail with a figure states a fact of its own: never dropped, never cut at a decimal
    point or a time's colon (issue 21: "£9.60" became ".60 each")."""
    assert salient_facts([("user", sentence)], 300, stale) == [sentence]
    for summarize in (keyword_summary, offline_summary):
        assert sentence in summarize([("user", sentence), ("assistant", "Noted.")])


def test_a_reason_tail_without_a_number_is_still_dropped_and_no_amount_is_cut() -> None:
    """An explanation that ends the sentence and holds no number is dropped as before, and
    an amount before it stays whole."""
    said = "Tickets cost $3.50 each for Anna and Ben, since it is a weekday."
    assert salient_facts([("user", said)], 300, stale) == ["Tickets cost $3.50 each for Anna and Ben."]
