"""The question kinds added for recall's second round (issue 22): dates, replies, spread.

- ``dated``: a question naming the day or the month of an event ("Which city did
  Melanie move to on March 16, 2022?", "... in May 2023?"). The event's fact is told
  on that day or the day after ("yesterday"); its topic's words are in other turns
  too (the other moves, the echoes), so the date is what tells them apart. The
  question is planned with a ``{period}`` slot that ``memory_corpus`` fills once
  the sessions are dated (``period_text``).
- ``reply``: the other person asks mid-turn, a sentence or an image caption after
  the "?" ("Did you end up running the harbour half marathon? [image: runners at a
  start line]"), and the answer is the owner's reply, which shares no content word
  with the question: only the asking turn matches it, the reply must come along.
- ``spread``: answers told in three or more sessions ("Which dishes has Melanie
  learned to cook?"); the multi questions of three or more turns count here too.
"""

from __future__ import annotations

from datetime import date

# (what the other asks mid-turn, the owner's reply with {value}, questions, values)
REPLIES = (
    (
        "How did the community theatre audition go? I saw your post about it last night.",
        "They cast me as {value}! I still can't quite believe it.",
        ("Which role did {A} land after auditioning for the community theatre?",),
        ("Lady Macbeth", "the Mad Hatter", "Captain Hook", "Mary Poppins", "Nurse Ratched"),
    ),
    (
        "Did you end up running the harbour half marathon? [image: a crowd of runners at a start line]",
        "Yep, finished in {value}, a personal best!",
        ("How long did the harbour half marathon take {A}?",),
        ("one hour fifty-two", "two hours and four minutes", "one hour thirty-eight"),
    ),
    (
        "Have you picked a name for the boat yet? [image: a small sailboat on a trailer]",
        "We're calling her {value}, my dad's idea.",
        ("What name did {A} give the boat?", "What is {A}'s boat named?"),
        ("Sea Biscuit", "Wave Dancer", "Salty Pretzel", "Marigold Star"),
    ),
    (
        "So how was the county fair bake-off? The pictures looked amazing, by the way.",
        "I took {value} with my lemon drizzle, the judges were tough.",
        ("How did {A} do in the county fair bake-off?",),
        ("second prize", "third prize", "an honourable mention", "the blue ribbon"),
    ),
    (
        "Did you get your certification exam results back? You looked so nervous last week.",
        "Passed with {value}, what a relief.",
        ("What result did {A} get on the certification exam?",),
        ("a distinction", "flying colours", "ninety-one percent", "a perfect score"),
    ),
)
REPLY_REACTIONS = ("No way, congrats!", "Wow, {A}, amazing!", "Haha, love that.", "So proud of you!")

DISHES = ("pad thai", "beef wellington", "shakshuka", "paella", "gnocchi", "moussaka", "pierogi",
          "jambalaya", "bibimbap", "ratatouille")
DISH_FACTS = (
    "Finally learned to make {dish} from scratch, took me all afternoon.",
    "I made {dish} for the first time tonight and it actually worked!",
    "My cooking class this week was {dish}, I'm weirdly proud of it.",
)
DISH_REACTIONS = ("Save me some!", "Look at you go, {A}.", "Yum, recipe please!")
DISH_QUESTIONS = ("Which dishes has {A} learned to cook?", "What has {A} learned to make?")

# (chain, question with {period}) for the facts told with a day, asked by their date
DATED_QUESTIONS = {
    "move": "Which city did {A} move to {period}?",
    "job": "Where did {A} start working {period}?",
    "trip": "Where did {A} come back from {period}?",
    "car": "What car did {A} get {period}?",
    "pet": "What kind of pet did {A} adopt {period}?",
}


def period_text(day: date, by_month: bool) -> str:
    """How a dated question names when: "on March 16, 2022" or "in May 2023"."""
    return f"in {day:%B %Y}" if by_month else f"on {day:%B} {day.day}, {day.year}"


def replies(st, count: int = 3) -> None:
    """``count`` answers given as replies to a question asked mid-turn."""
    from memory_stories import fill

    chosen = st.rng.sample(REPLIES, count)
    for asked, reply, questions, values in chosen:
        fresh = [v for v in values if v not in st.used]
        if not fresh:
            continue
        value = st.rng.choice(fresh)
        st.used.add(value)
        text = fill(reply, st.person, value=value)
        key = st.fact(f"reply{len(st.facts)}", text, REPLY_REACTIONS)
        st.facts[-1].text, st.facts[-1].asked = text, asked  # no aside: no shared word
        st.ask("reply", questions, value, [key], (value,))


def dishes(st) -> None:
    """Three or four dishes learned, each in its own session: a spread question."""
    names = tuple(st.pick(DISHES) for _ in range(st.rng.choice((3, 4))))
    keys = [
        st.fact("dish", st.say(DISH_FACTS, dish=name), DISH_REACTIONS) for name in names
    ]
    st.ask("spread", DISH_QUESTIONS, ", ".join(names), keys, names)


def dated(st, chain: str, key: str, value: str) -> None:
    """A question naming the day (or month) of fact ``key``, whose answer is ``value``."""
    st.ask("dated", (DATED_QUESTIONS[chain],), value, [key], (value,), period="{period}")
