"""validate_summary: what a local model's answer must look like before it is stored."""

from __future__ import annotations


import pytest
from hypothesis import given
from hypothesis import strategies as st

from localmem.summarizer.prompts import (
    ROLLUP_SYSTEM_PROMPT,
    SUMMARY_SYSTEM_PROMPT,
    build_rollup_messages,
    build_summary_messages,
    format_conversation,
    format_summaries,
)
from localmem.summarizer.validation import (
    DEFAULT_MAX_SUMMARY_CHARS,
    accept_summary,
    said_once,
    summary_limit,
    trim_to_sentences,
    validate_summary,
)

MEDICATION_CHAT = [
    ("user", "What medications does grandma take? She has blood pressure problems."),
    (
        "assistant",
        "Your grandmother is currently taking Lisinopril 10mg for blood pressure, once daily "
        "in the morning. A weekly pill organizer helps her keep track.",
    ),
    ("user", "What time should she take it, and what about side effects?"),
    (
        "assistant",
        "The Lisinopril should be taken once daily at 8am. Watch for dizziness, a dry cough "
        "or swelling, and note any side effects in a notebook for her doctor.",
    ),
    ("user", "Can we set up a medication schedule with reminders on her phone?"),
]
FIFTEEN_MESSAGES = (MEDICATION_CHAT * 3)[:15]
TERSE_CHAT = [
    "pizza tonight? I'm starving", "sure, sounds good", "luigi's again or the new place?",
    "luigi's. what time works", "7pm is fine for me", "ok 7pm then", "pepperoni for me",
    "and a veggie half for Ana", "ok noted", "can you pick it up on your way",
    "Sam picks it up, fine", "k", "do we still have that coupon?",
    "I'll remind you: bring the coupon", "thx",
]


def _words(size: int, summary: bool = False) -> str:
    """``size`` characters of real, distinct words (the overlap check counts whole words); a
    summary's in the reverse order (six words in the conversation's order are a copy)."""
    words = [f"term{i}" for i in range(1, 400)]
    text = " ".join(reversed(words[: size // 5 + 2]) if summary else words)[:size]
    return text[:-1] + "s" if text.endswith(" ") else text  # no space for strip() to eat


CONVERSATION = format_conversation(FIFTEEN_MESSAGES)

GOOD_SUMMARY = (
    "User asked about medication management for grandma's blood pressure. Discussed taking "
    "Lisinopril at 8am, tracking side effects like dizziness, and a pill organizer schedule."
)
POEM = """Title: A Spring Day

In fields where flowers gently sway,
The sun shines bright on this spring day.
With colors vibrant, nature's art,
Brings warmth and joy to every heart."""


@pytest.mark.parametrize(
    "summary",
    [
        GOOD_SUMMARY,
        "User discussed medication schedule for grandmother's blood pressure pills.",
        "Summary: grandma takes Lisinopril 10mg each morning; side effects are noted.",
        '"Grandma takes Lisinopril at 8am; reminders on her phone were discussed."',
        "  Grandma's Lisinopril schedule and side effects were discussed.\n",
        "The user asked when grandma should take her Lisinopril.\n"
        "The assistant suggested 8am and a pill organizer.",
        "In a time-sensitive exchange, grandma's Lisinopril schedule was set for 8am.",
    ],
)
def test_a_good_summary_passes(summary: str) -> None:
    assert validate_summary(summary, CONVERSATION) is None


@pytest.mark.parametrize(
    ("summary", "reason_word"),
    [
        ("", "empty"),
        ("   \n\t ", "empty"),
        ("Lisinopril " * 40, "300 characters"),
        (POEM, "title"),
        ("In fields of green where flowers bloom, nature's beauty fills the room", "words"),
        (
            "Grandma's pills in morning light,\nLisinopril keeps her pressure right,\n"
            "A dizzy spell, a cough at night,\nThe doctor's notebook holds it tight.",
            "poem",
        ),
        ("Grandma takes her pills each day\nto keep the pressure far away", "poem"),
        ("Sure! Grandma takes Lisinopril at 8am.", "assistant reply"),
        ("Here is a summary of the medication discussion.", "assistant reply"),
        ("Here's a summary: grandma takes Lisinopril.", "assistant reply"),
        ("Here\u2019s what grandma takes: Lisinopril.", "assistant reply"),
        ("As an AI, I note grandma takes Lisinopril.", "assistant reply"),
        ("I'd be happy to summarize: grandma takes Lisinopril.", "assistant reply"),
        ("Certainly. Grandma takes Lisinopril at 8am.", "assistant reply"),
        ("Let me summarize: grandma takes Lisinopril.", "assistant reply"),
        ('"Grandma\'s Pills"\nShe takes Lisinopril at 8am.', "title"),
        ("**Grandma's Medication**\nLisinopril at 8am.", "title"),
        ("Grandma takes **Lisinopril** at 8am.", "bold"),
        ("Once upon a time, grandma took Lisinopril.", "story"),
        ("In a world where pills rule, grandma takes Lisinopril.", "story"),
        ("Chapter 1: grandma's medication schedule.", "story"),
        ("[Chorus]\nLisinopril, Lisinopril", "song"),
        ("```\nschedule = '8am'\n```", "code"),
        ("# Medication\nGrandma takes Lisinopril at 8am.", "heading"),
        ("1. Lisinopril at 8am\n2. Pill organizer", "numbered list"),
        ("- Lisinopril at 8am\n- Pill organizer", "list"),
        ("\u2022 Lisinopril at 8am", "list"),
        ("User: what does grandma take?\nAssistant: Lisinopril.", "script"),
        ("GRANDMA: Where are my pills?", "script"),
        ("Grandma: where are my pills?\nNurse: in the organizer.", "script"),
        ("<think>The user wants a summary.</think> Grandma takes Lisinopril.", "reasoning"),
        ("It was discussed.", "content words"),
    ],
)
def test_generated_content_is_rejected_with_a_reason(summary: str, reason_word: str) -> None:
    reason = validate_summary(summary, CONVERSATION)
    assert reason is not None
    assert reason_word in reason
    assert len(reason) < 80


def test_the_reason_never_quotes_the_summary() -> None:
    reason = validate_summary("Once upon a time Lisinopril", CONVERSATION)
    assert reason is not None and "Lisinopril" not in reason


@pytest.mark.parametrize(("length", "accepted"), [(300, True), (301, False)])
def test_a_summary_may_be_at_most_30_percent_of_a_long_conversation(
    length: int, accepted: bool
) -> None:
    conversation = format_conversation([("user", _words(994))])
    assert len(conversation) == 1000
    assert summary_limit(conversation) == 300
    reason = validate_summary(_words(length, summary=True), conversation)
    assert (reason is None) is accepted


@pytest.mark.parametrize(
    ("size", "limit"), [(2000, 300), (1000, 300), (700, 210), (560, 180), (300, 150), (100, 50)]
)
def test_a_terse_conversation_may_have_a_useful_summary(size: int, limit: int) -> None:
    """30% of a long conversation; a terse one may have 180 characters, never half of it."""
    conversation = format_conversation([("user", _words(size - 6))])
    assert summary_limit(conversation) == limit
    assert validate_summary(_words(limit, summary=True), conversation) is None
    reason = validate_summary(_words(limit + 1, summary=True), conversation)
    assert reason is not None and f"longer than {limit} characters" in reason


def test_the_good_summary_of_a_terse_chat_the_origin_rejected_is_kept() -> None:
    """Issue 17: a faithful 168-character summary of a terse chat was thrown away."""
    chat = format_conversation(
        [("user" if i % 2 == 0 else "assistant", text) for i, text in enumerate(TERSE_CHAT)]
    )
    summary = (
        "Sam and the assistant planned dinner: pizza from Luigi's at 7pm, pepperoni and a "
        "veggie half, Sam picks it up, and the assistant reminds Sam to bring the coupon."
    )
    assert len(summary) > 0.3 * len(chat)  # the origin's ratio rejects it
    assert validate_summary(summary, chat) is None


def test_a_short_conversation_is_held_to_the_ratio_too() -> None:
    """As in the origin: a summary that does not compress is not stored."""
    short = format_conversation([("user", "Does grandma take Lisinopril?"), ("assistant", "Yes.")])
    assert validate_summary("Grandma takes Lisinopril daily, the user asked.", short) is not None


@pytest.mark.parametrize(
    "summary",
    [
        "User asked why __init__ runs twice; the fix was calling super().__init__ once.",
        "User asked how **kwargs reach __init__; explained unpacking into the call.",
        "Explained that 3.5 hours between doses of __init__ code is not a schedule.",
    ],
)
def test_code_names_are_not_mistaken_for_markdown(summary: str) -> None:
    conversation = format_conversation(
        [
            ("user", "Why does my __init__ run twice? I pass **kwargs to super().__init__."),
            ("assistant", "You call super().__init__(**kwargs) twice; call it once. The fix "
             "is removing the second call. Unpacking passes kwargs into the call. Doses of "
             "3.5 hours are unrelated, this is code not a schedule."),
        ]
        * 3
    )
    assert validate_summary(summary, conversation) is None


def test_overlap_counts_plain_word_forms() -> None:
    assert validate_summary("Medications for grandmothers were reviewed.", CONVERSATION) is None


def test_overlap_handles_text_without_spaces() -> None:
    conversation = format_conversation(
        [
            ("user", "祖母吃什么药物？她有血压问题。"),
            ("assistant", "她每天早上服用降压药物，注意头晕等副作用。"),
        ]
    )
    assert validate_summary("祖母的血压药物。", conversation) is None
    assert validate_summary("春天的花朵在田野里。", conversation) is not None


@given(summary=st.text(max_size=400), conversation=st.text(max_size=2000))
def test_any_text_gets_a_deterministic_answer(summary: str, conversation: str) -> None:
    first = validate_summary(summary, conversation)
    assert first is None or (isinstance(first, str) and first)
    assert validate_summary(summary, conversation) == first


def test_format_conversation_renders_role_lines() -> None:
    assert format_conversation([("user", "hi"), ("assistant", "hello")]) == (
        "user: hi\nassistant: hello"
    )
    assert format_conversation([]) == ""


def test_summary_messages_carry_the_strict_prompt_and_the_conversation() -> None:
    messages = build_summary_messages(FIFTEEN_MESSAGES)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert messages[0]["content"] == SUMMARY_SYSTEM_PROMPT
    assert "DO NOT" in SUMMARY_SYSTEM_PROMPT and "poems" in SUMMARY_SYSTEM_PROMPT
    assert CONVERSATION in messages[1]["content"]
    assert messages[1]["content"].endswith("Provide only the summary, at most 50 words:")
    assert "EXAMPLE" not in SUMMARY_SYSTEM_PROMPT  # nothing a model can copy as its answer


def test_rollup_messages_carry_every_summary_in_order() -> None:
    summaries = ["Grandma's Lisinopril schedule.", "Phone reminders {with braces}."]
    messages = build_rollup_messages(summaries)
    assert messages[0] == {"role": "system", "content": ROLLUP_SYSTEM_PROMPT}
    assert format_summaries(summaries) in messages[1]["content"]
    content = messages[1]["content"]
    assert content.index(summaries[0]) < content.index(summaries[1])


# --- issue 17: what a real model's answer must also be --------------------------------------


@pytest.mark.parametrize(
    ("text", "limit", "kept"),
    [
        ("One. Two. Three.", 100, "One. Two. Three."),
        ("One. Two. Three.", 9, "One. Two."),
        ("Dr. Patel sees her. Then home.", 20, "Dr. Patel sees her."),  # not cut after "Dr."
        ('She said "stop." Then left.', 17, 'She said "stop."'),
        ("No sentence end at all", 100, ""),
        ("A first sentence that is far too long for the limit.", 10, ""),
        ("Costs 3.5 dollars. Done.", 19, "Costs 3.5 dollars."),
    ],
)
def test_trim_to_sentences_keeps_whole_sentences_within_the_limit(
    text: str, limit: int, kept: str
) -> None:
    assert trim_to_sentences(text, limit) == kept


def test_an_answer_cut_mid_sentence_loses_its_unfinished_sentence() -> None:
    answer = GOOD_SUMMARY + " The user then asked whether the pill organ"
    assert accept_summary(answer, CONVERSATION, cut=True) == (GOOD_SUMMARY, None)
    # not cut, and within the limit: kept whole, unfinished or not
    assert accept_summary("Grandma takes Lisinopril daily", CONVERSATION)[0] == (
        "Grandma takes Lisinopril daily"
    )


def test_an_answer_over_the_limit_is_trimmed_then_validated() -> None:
    long = (
        GOOD_SUMMARY + " Reminders on her phone were set up for the morning dose."
        " The doctor's notebook holds any dizziness or cough."
        " Her phone organizer and the weekly pill box keep her on track."
    )
    assert len(long) > DEFAULT_MAX_SUMMARY_CHARS
    text, reason = accept_summary(long, CONVERSATION)
    assert reason is None and text is not None and len(text) <= DEFAULT_MAX_SUMMARY_CHARS
    assert long.startswith(text)
    assert accept_summary("x" * 400 + ".", CONVERSATION) == (
        None, "no whole sentence within 300 characters"
    )


def test_the_form_checks_read_the_whole_answer_not_only_what_is_kept() -> None:
    answer = GOOD_SUMMARY + "\n\n- Lisinopril at 8am\n- Pill organizer\n- Reminders"
    assert accept_summary(answer, CONVERSATION, cut=True) == (None, "contains a list")


def test_word_overlap_counts_whole_words() -> None:
    """Issue 17: "free" matched "freedom" and "them" matched "theme"."""
    conversation = format_conversation(
        [("user", "Freedom is the theme of the festival posters. Themes matter to them.")] * 3
    )
    assert validate_summary("Free verse and sonnets were written.", conversation) is not None
    assert validate_summary("Festival posters and their themes.", conversation) is None


def test_a_number_the_conversation_never_states_is_rejected() -> None:
    reason = validate_summary("Grandma takes 20mg Lisinopril at 9 each morning.", CONVERSATION)
    assert reason == "states a number the conversation does not"
    assert validate_summary("Grandma takes Lisinopril 10mg at 8am daily.", CONVERSATION) is None


@pytest.mark.parametrize(
    "summary",
    [
        "Grandma takes Lisinopril for blood pressure and grandma takes Lisinopril for blood pressure.",
        "Side effects were noted, side effects were noted, and side effects were noted daily.",
    ],
)
def test_a_summary_that_repeats_itself_is_rejected(summary: str) -> None:
    assert validate_summary(summary, CONVERSATION) == "repeats itself"


def test_a_sentence_said_twice_word_for_word_is_said_once() -> None:
    """A slip, not a loop (issue 21: the 0.5B's faithful migration summary said "The column
    goes in 0041_orders_status.sql." twice and was refused as repeating itself)."""
    first = "Grandma takes Lisinopril 10mg at 8am for blood pressure."
    second = "Side effects like dizziness go in a notebook."
    twice = f"{first} {second} {first.upper()}"  # the same words, whatever the case
    assert said_once(twice) == f"{first} {second}"
    assert accept_summary(twice, CONVERSATION) == (f"{first} {second}", None)
    unfinished = f"{first} {second} {first} Pill organizer"
    assert said_once(unfinished) == f"{first} {second} Pill organizer"
    assert said_once(f"{first} {second}") == f"{first} {second}"
    # three times is a loop: refused as it is
    assert said_once(f"{first} {first} {first}") == f"{first} {first} {first}"
    assert accept_summary(f"{first} {second} {first} {first}", CONVERSATION) == (None, "repeats itself")
    # one sentence said again with a word changed is not the same sentence
    changed = f"{first} {second} Grandma takes Lisinopril 10mg at 9am for blood pressure."
    assert said_once(changed) == changed


def test_a_passage_copied_from_the_conversation_is_rejected() -> None:
    copied = (
        "The Lisinopril should be taken once daily at 8am. Watch for dizziness, a dry cough or "
        "swelling."
    )
    assert validate_summary(copied, CONVERSATION) == "copies a passage of the conversation"
    # quoting a few words inside a real summary is fine
    quoting = "Grandma takes Lisinopril once daily at 8am and watches for dizziness or swelling."
    assert validate_summary(quoting, CONVERSATION) is None


def test_repeating_the_prompts_instructions_is_rejected() -> None:
    echo = "Grandma takes Lisinopril. Focus only on what was discussed, not generating new content."
    assert validate_summary(echo, CONVERSATION) == "repeats the prompt's instructions"


@pytest.mark.parametrize(
    "summary",
    [
        "I need Lisinopril once daily at 8am and a pill organizer.",  # the user's voice
        "Grandma takes Lisinopril at 8am; my advice is a weekly pill organizer.",
        "Grandma takes Lisinopril once daily, and I\u2019ll set reminders on her phone.",
    ],
)
def test_an_answer_in_the_first_person_is_no_summary(summary: str) -> None:
    """The prompt asks for the third person: an answer saying "I" or "my" repeats a turn's
    words or answers as the assistant (issue 21: every recorded answer that did was no
    summary)."""
    assert validate_summary(summary, CONVERSATION) == "speaks in the first person"


@pytest.mark.parametrize(
    "summary",
    [
        "Grandma takes Lisinopril at 8am; she asked \"Can we set up reminders on my phone?\"",
        "Grandma takes Lisinopril at 8am, noted in 'my notebook' for her doctor.",
        "Grandma, who has blood pressure problems, takes Lisinopril at 8am (MI risk aside).",
    ],
)
def test_quoted_words_and_capital_letters_are_not_the_first_person(summary: str) -> None:
    assert validate_summary(summary, CONVERSATION) != "speaks in the first person"


def test_a_long_answer_stitched_from_the_assistants_turns_is_a_copy() -> None:
    """A copy lifts a passage of one turn, or stitches the assistant's explanations into a
    long answer (recorded: "three assistant turns copied word for word"); the user's own
    facts said again in their words, or a short join of phrases, are a summary, held
    sentence by sentence instead (``support``)."""
    stitched = (
        "Your grandmother is currently taking Lisinopril 10mg for blood pressure, once daily "
        "in the morning. A weekly pill organizer helps her keep track. The Lisinopril should "
        "be taken once daily at 8am. Watch for dizziness, a dry cough or swelling."
    )
    assert validate_summary(stitched, CONVERSATION, max_ratio=None) == (
        "copies passages of the conversation, stitched together"
    )
    joined = "Grandma takes Lisinopril 10mg once daily at 8am; a weekly pill organizer helps her keep track."
    assert validate_summary(joined, CONVERSATION) is None
    told = [
        ("user", "My dad Henry is 74 and has a urinary tract infection."),
        ("assistant", "Does he take any other medicines?"),
        ("user", "He takes metformin 500 mg twice a day and lisinopril 10 mg in the morning."),
        ("assistant", "Thanks, noted."),
        ("user", "The clinic switched his antibiotic to nitrofurantoin 100 mg twice a day for 5 days."),
    ]
    facts = (
        "Henry is 74 and has a urinary tract infection. He takes metformin 500 mg twice a day and "
        "lisinopril 10 mg in the morning. The clinic switched his antibiotic to nitrofurantoin 100 mg "
        "twice a day for 5 days."
    )
    assert validate_summary(facts, format_conversation(told), max_ratio=None) is None


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "The app is slow. Pages load in 9 seconds. Users complain daily. "
            "The fix was an index on orders.user_id.",
            "The app is slow. The fix was an index on orders.user_id.",
        ),
        (
            "The cache is a dict. A thread refills it. Readers share it. "
            "The bug was that clear() ran before the refill.",
            "The cache is a dict. The bug was that clear() ran before the refill.",
        ),
        (
            "They compared three flats. Two were too far. One had no lift. They booked the flat on Elm Street.",
            "They compared three flats. They booked the flat on Elm Street.",
        ),
        (
            "Ida has an ear infection. Amoxicillin was prescribed. She is allergic to it. "
            "The doctor switched it to azithromycin.",
            "Ida has an ear infection. Amoxicillin was prescribed. The doctor switched it to azithromycin.",
        ),
    ],
)
def test_trimming_keeps_the_sentence_that_carries_the_outcome(text: str, kept: str) -> None:
    """Issue 21, point 2: a cut to whole sentences keeps "the fix was ...", "the bug was
    ...", "booked", "switched it to" in place of the plain sentences before it (from the
    last back; the first one stays)."""
    assert trim_to_sentences(text, len(kept)) == kept
