"""Lexical recall of a speaker a question names (issue 22 point 4, without an embedder):
the turns they said first, and for a list question what they told once.

Transcript-style memories (an imported group chat, a meeting) label each turn with its
speaker ("Priya: ..."); the name is then in most turns and tells none apart by its
words, but it still says who said what."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from localmem import MemoryConfig, MemoryStore
from localmem.rank import speakers, speakers_of
from localmem.models import Message
from localmem.reranking import by_speaker, news


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


START = datetime(2022, 3, 1, 9, tzinfo=timezone.utc)
CHATTER = {
    "Priya": ["For real.", "My neighbors must think I'm crazy.", "Work was busy this week.",
              "Haha, same here.", "Talk soon, Hannah!"],
    "Hannah": ["Tried a new cafe today, so good.", "Haha yes.", "Thanks, Priya!",
               "Same here, Priya.", "Work was busy this week."],
}
TOLD = [  # what Priya tells once each, on three days: no word of "Which new activities ..."
    "Priya: I've taken up knitting, a group meets at the yarn store.",
    "Priya: A coworker dragged me to improv theater and now I'm hooked.",
    "Priya: Started photography lessons at the community college.",
]


def chat(db_path, config: MemoryConfig, labelled: bool = True) -> tuple[MemoryStore, str]:
    """Fourteen days of the same chatter, Priya's three pieces of news on days 3, 7, 11."""
    clock = Clock(START)
    store = MemoryStore(db_path, config=config, clock=clock)
    s = store.create_session().id
    for day in range(14):
        for n in range(5):
            for speaker in ("Hannah", "Priya"):
                clock.now = START + timedelta(days=day, minutes=2 * n + (speaker == "Priya"))
                text = CHATTER[speaker][(day + n) % 5]
                if day % 4 == 3 and n == 2 and speaker == "Priya":
                    text = TOLD[day // 4].removeprefix("Priya: ")
                role = "user" if speaker == "Priya" else "assistant"
                store.add_message(s, role, f"{speaker}: {text}" if labelled else text)
    return store, s


@pytest.mark.parametrize("scope", ["session", "user"])
def test_a_list_question_about_a_speaker_brings_what_they_told_once(db_path, scope) -> None:
    store, s = chat(db_path, MemoryConfig(cache_ttl=0, relevant_messages=8, recall_scope=scope))
    with store:
        ctx = store.build_context(s, query="Which new activities has Priya tried?")
        shown = [m.text for m in ctx.relevant_messages]
        assert all(t in shown for t in TOLD), shown


def test_for_one_thing_their_news_weigh_less_than_its_words(db_path) -> None:
    store, s = chat(db_path, MemoryConfig(cache_ttl=0, relevant_messages=1))  # the best only
    with store:  # Hannah's cafe, found by the words, before any of Priya's news
        ctx = store.build_context(s, query="Has Priya tried the new cafe?")
        assert [m.text for m in ctx.relevant_messages] == ["Hannah: " + CHATTER["Hannah"][0]]
        # a list: the news weigh as much as the words, Priya's first news first
        ctx = store.build_context(s, query="Which new activities has Priya tried?")
        assert [m.text for m in ctx.relevant_messages][0] in TOLD


def test_without_speaker_labels_a_list_question_keeps_its_words_ranking(db_path) -> None:
    store, s = chat(db_path, MemoryConfig(cache_ttl=0, relevant_messages=8), labelled=False)
    with store:  # "Priya" is only said to her: no turn is labelled as hers
        ctx = store.build_context(s, query="Which new activities has Priya tried?")
        shown = [m.text for m in ctx.relevant_messages]
        assert not any(t.removeprefix("Priya: ") in shown for t in TOLD), shown


def test_the_turn_the_named_speaker_said_comes_before_one_said_to_them(db_path) -> None:
    clock = Clock(START)
    config = MemoryConfig(cache_ttl=0, relevant_messages=1)  # the best one only
    with MemoryStore(db_path, config=config, clock=clock) as store:
        s = store.create_session().id

        def chatter() -> None:
            for n in range(20):
                clock.now += timedelta(minutes=1)
                speaker = ("Hannah", "Priya")[n % 2]
                store.add_message(s, "user", f"{speaker}: {CHATTER[speaker][n % 5]}")

        chatter()
        store.add_message(s, "user", "Hannah: Priya, the pottery class, pottery!")
        said_by = store.add_message(
            s, "user", "Priya: The pottery class ran late, we glazed bowls for an hour."
        )
        store.add_message(s, "user", "Hannah: My pottery class, pottery, pottery!")
        chatter()  # past the recent window

        def best(query: str) -> str:
            return [m.text for m in store.build_context(s, query=query).relevant_messages][0]

        # by their words alone, Hannah's short turns repeating "pottery" rank first
        assert best("How was Priya's pottery class?") == said_by.text
        assert best("How was Hannah's pottery class?").startswith("Hannah: ")


@pytest.mark.parametrize(
    ("text", "names", "found"),
    [
        ("Priya: I took up knitting.", {"priya", "hannah"}, {"priya"}),
        ("Dr Priya Rao: the results are in.", {"priya", "rao"}, {"priya", "rao"}),
        ("Hannah: Thanks, Priya!", {"priya"}, set()),  # said to her, not by her
        ("Priya said hello today.", {"priya"}, set()),  # no label
        ("A very long line that goes on, Priya: the label would end too far.", {"priya"}, set()),
    ],
)
def test_speakers(text: str, names: set[str], found: set[str]) -> None:
    assert speakers(text, names) == found


def test_speakers_of_reads_every_label() -> None:
    texts = ["Hannah: Thanks, Priya!", "no label here, Priya", "Priya: Same.", "Gabe: Hi."]
    assert speakers_of(texts, {"priya", "hannah"}) == {"priya", "hannah"}
    assert speakers_of(texts[1:2], {"priya"}) == set()


def test_news_puts_what_was_said_once_before_what_is_said_again() -> None:
    turns = (
        (1, "Priya: I took up knitting at the yarn store."),  # knitting, took, yarn, store
        (2, "Priya: For real, work was busy."),
        (3, "Priya: For real, work was busy."),
        (4, "Priya: Flew home from Lisbon."),  # flew, home, lisbon
        (5, "Priya: For real, work was busy again."),  # again
        (6, "Priya: For real."),  # nothing of its own: no news
        (7, "Hannah: Off to Rome, the Vatican tour!"),  # not hers
        (8, "Hannah: Priya, you said yarn?"),  # to her, not by her: "yarn" still hers alone
    )
    assert news(turns, frozenset({"priya"})) == [1, 4, 5]
    assert news(turns, frozenset({"hannah"})) == [7, 8]


def test_a_word_someone_else_said_too_is_no_news() -> None:
    """Said once by Priya but held by another message of the scope: the topic of the
    conversation or its small talk, not what she had to tell."""
    turns = (
        (1, "Priya: I took up knitting at the yarn store."),  # knitting, took, yarn, store
        (4, "Priya: Flew home from Lisbon."),  # flew, home, lisbon
        (5, "Priya: For real, work was busy again."),  # again
        (6, "Priya: For real, work was busy."),
    )
    shared = {"yarn", "store", "took", "again"}  # what the scope's other messages hold too
    assert news(turns, frozenset({"priya"}), shared.__contains__) == [4, 1]
    assert news(turns, frozenset({"priya"}), lambda word: False) == [1, 4, 5]


def test_what_a_speaker_tells_comes_before_what_the_other_also_talks_about(db_path) -> None:
    """Through the store: Priya says once three things Hannah talks about too (the
    conversation's topics, more words each), and her three activities once; a list
    question about her gets the activities, not the shared topics. Negative: when
    Hannah names the activities too, they are no news of Priya's."""
    shared = [
        "Priya: The bakery on Elm Street sold out of sourdough loaves early today.",
        "Priya: Our landlord finally fixed the leaking radiator in the hallway.",
        "Priya: The marathon traffic closed the bridge downtown all morning.",
    ]
    hannah = [
        "Hannah: That bakery on Elm Street sold out of sourdough loaves again.",
        "Hannah: Our landlord fixed a leaking radiator in the hallway too.",
        "Hannah: The marathon traffic closed the bridge downtown for hours.",
    ]

    def ask(echoed: bool) -> list[str]:
        clock = Clock(START)
        path = db_path.with_name(f"{db_path.stem}-{echoed}.db")
        config = MemoryConfig(cache_ttl=0, relevant_messages=3, embedding_model=None)
        with MemoryStore(path, config=config, clock=clock) as store:
            s = store.create_session().id
            for day in range(12):
                for n in range(5):
                    for speaker in ("Hannah", "Priya"):
                        clock.now = START + timedelta(days=day, minutes=2 * n + (speaker == "Priya"))
                        text = f"{speaker}: {CHATTER[speaker][(day + n) % 5]}"
                        if n == 2 and day % 4 == 1:
                            text = (shared if speaker == "Priya" else hannah)[day // 4]
                        if n == 3 and day % 4 == 2:
                            told = TOLD[day // 4]
                            text = told if speaker == "Priya" else (
                                "Hannah: " + told.removeprefix("Priya: ") if echoed
                                else f"Hannah: {CHATTER['Hannah'][1]}"
                            )
                        store.add_message(s, "user", text)
            ctx = store.build_context(s, query="Which new activities has Priya tried?")
            return [m.text for m in ctx.relevant_messages]

    assert sorted(ask(echoed=False)) == sorted(TOLD)
    assert not set(ask(echoed=True)) & set(TOLD)


def _message(i: int, text: str) -> Message:
    return Message(
        id=i, session_id="s", role="user", text=text, model_id=None, token_count=8,
        importance_score=0.5, created_at="2022-03-01T09:00:00Z",
    )


def test_by_speaker_fuses_in_the_named_speakers_turns_and_reads_the_missing() -> None:
    """The pure step recall runs: "priya" is a common word of the question and labels the
    best hits, so her turns that tell something (2, read through ``read``: not among the
    rows yet) join the lexical ranking; Hannah's turn about Priya does not."""
    rows = {i: _message(i, t) for i, t in (
        (1, "Hannah: Thanks, Priya!"), (3, "Priya: For real."), (4, "Priya: For real."),
    )}
    later = _message(2, "Priya: I took up knitting at the yarn store.")
    asked: list[list[int]] = []

    def read(ids: list[int]) -> list[Message]:
        asked.append(ids)
        return [later] if 2 in ids else []

    holders = {"priya": [4, 3, 2, 1], "activities": []}
    order = by_speaker(
        "Which new activities has Priya tried?", [1, 3, 4], ["priya", "activities"],
        ("activities",), holders, rows, read,
    )
    assert asked == [[2]]
    assert 2 in rows and order.index(2) < order.index(4)  # her news before her chatter
    assert set(order) == {1, 2, 3, 4}


def test_by_speaker_leaves_a_ranking_without_labels_as_it_is() -> None:
    rows = {i: _message(i, t) for i, t in ((1, "Thanks, Priya!"), (3, "For real, Priya."))}

    def read(ids: list[int]) -> list[Message]:
        raise AssertionError("nothing to read: no speaker named")

    holders = {"priya": [3, 1], "activities": []}
    assert by_speaker(
        "Which new activities has Priya tried?", [1, 3], ["priya", "activities"],
        ("activities",), holders, rows, read,
    ) == [1, 3]


def test_a_word_said_again_after_a_question_is_counted_again(db_path) -> None:
    """The counts recall keeps of the scope's words (``SessionMemo.held``) are read again
    once the session is written: Hannah naming Priya's activities after a first
    question makes them no news of Priya's at the next one."""
    store, s = chat(db_path, MemoryConfig(cache_ttl=0, relevant_messages=8))
    with store:
        question = "Which new activities has Priya tried?"
        shown = [m.text for m in store.build_context(s, query=question).relevant_messages]
        assert all(t in shown for t in TOLD), shown
        for told in TOLD:
            store.add_message(s, "assistant", "Hannah: " + told.removeprefix("Priya: "))
        for n in range(10):  # the echoes past the recent window
            store.add_message(s, "assistant", f"Hannah: {CHATTER['Hannah'][n % 5]}")
        shown = [m.text for m in store.build_context(s, query=question).relevant_messages]
        assert not set(shown) & set(TOLD), shown
