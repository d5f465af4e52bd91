"""The relevant section written as a transcript: a run of one speaker's turns under a
day's heading names the speaker once (issue 22, point 1: more answers in the same
budget), and packing pays exactly the labels the rendering writes, whatever order the
ranking brings the turns in."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from localmem import MemoryStore
from localmem.context import CL100K_COSTS, RELEVANT_HEADER, relevant_heading, relevant_lines
from localmem.models import Message
from localmem.packing import Policy, Read, _take_relevant, pack
from localmem.tokens import Tokenizer

COUNT = Tokenizer().count


def turn(n: int, role: str, text: str, day: int = 14, session: str = "s") -> Message:
    return Message(id=n, session_id=session, role=role, text=text, model_id=None,
                   token_count=COUNT(text), importance_score=0.5,
                   created_at=f"2026-03-{day:02d}T09:{n % 60:02d}:00.000Z")


def test_a_run_of_one_speakers_turns_names_the_speaker_once() -> None:
    turns = [
        turn(1, "user", "We got a puppy!"), turn(2, "user", "Her name is Olive."),
        turn(3, "assistant", "Congratulations!"), turn(4, "assistant", "What breed?"),
        turn(5, "user", "A beagle."),
        turn(6, "user", "Olive chewed my shoe.", day=15),  # a new day: named again
    ]
    assert relevant_lines(turns, "s", {}) == [
        "2026-03-14:",
        "user: We got a puppy!", "Her name is Olive.",
        "assistant: Congratulations!", "What breed?",
        "user: A beagle.",
        "2026-03-15:",
        "user: Olive chewed my shoe.",
    ]


def test_each_speaker_change_is_named() -> None:
    turns = [turn(n, "user" if n % 2 else "assistant", f"Line {n}.") for n in range(1, 5)]
    lines = relevant_lines(turns, "s", {})
    assert lines[1:] == ["user: Line 1.", "assistant: Line 2.", "user: Line 3.", "assistant: Line 4."]


def test_another_chats_turns_under_their_own_heading_are_named_there() -> None:
    turns = [turn(1, "user", "Here."), turn(2, "user", "There.", session="t")]
    assert relevant_lines(turns, "s", {"t": "Trip"}) == [
        "2026-03-14:", "user: Here.", '2026-03-14, chat "Trip":', "user: There.",
    ]


def section_tokens(kept: list[Message]) -> int:
    """What the relevant section costs, from the rule itself: its header, each day's
    heading (a line break after all but the first, which the header carries), each
    turn and its line break, and a label where a run of one speaker begins in a day."""
    days: dict[str, list[Message]] = {}
    for m in sorted(kept, key=lambda m: m.id):
        days.setdefault(m.created_at[:10], []).append(m)
    total = CL100K_COSTS.relevant_header + (len(days) - 1) * CL100K_COSTS.item
    for day, run in days.items():
        total += COUNT(f"{day}:")
        for n, m in enumerate(run):
            total += m.token_count + CL100K_COSTS.item
            if n == 0 or run[n - 1].role != m.role:
                total += COUNT(m.role + ": ")
    return total


turns_strategy = st.lists(
    st.tuples(st.sampled_from(["user", "assistant"]), st.integers(10, 13),
              st.sampled_from(["Yes.", "The gate code is 4417.", "Olive chewed my shoe again!",
                               "Same here", "We moved the piano to room 6 today."])),
    min_size=1, max_size=24,
)


@settings(max_examples=150, deadline=None)
@given(turns=turns_strategy, order=st.randoms(use_true_random=False),
       budget=st.integers(20, 400))
def test_packing_pays_exactly_the_labels_the_rendering_writes(turns, order, budget) -> None:
    messages = [turn(n, role, text, day) for n, (role, day, text) in
                enumerate(sorted(turns, key=lambda t: t[1]), start=1)]
    ranked = list(messages)
    order.shuffle(ranked)
    policy = Policy(budget, 0, CL100K_COSTS, lambda text, n: text, COUNT, max_relevant=100)
    ctx = pack(Read("s", (), (), (), relevant=ranked), policy)
    kept = list(ctx.relevant_messages)
    if not kept:
        return
    assert ctx.breakdown["relevant"] == section_tokens(kept)
    assert ctx.total_tokens <= budget
    section = ctx.memory_text().split("\n\n")[-1]
    assert section.startswith(RELEVANT_HEADER)
    assert COUNT(section) <= ctx.breakdown["relevant"]  # the rendered text within what was paid


def test_a_transcript_of_one_speaker_fits_more_turns_through_the_store(db_path) -> None:
    with MemoryStore(db_path, config={"embedding_model": None, "cache_ttl": 0}) as store:
        s = store.create_session()
        facts = store.add_messages(s.id, [{"role": "user", "text": f"The gate code was {1000 + n}."}
                                          for n in range(60)])
        store.add_messages(s.id, [{"role": "assistant", "text": f"Noted, item {n}."}
                                  for n in range(10)])
        ctx = store.build_context(s.id, max_tokens=400, query="What was the gate code?")
        text = ctx.memory_text()
        shown = [m for m in ctx.relevant_messages if m in facts]
        assert len(shown) > 20
        assert text.count("user: ") == 1  # one day, one speaker: named once
        assert sum(store.count_tokens(m["content"]) for m in ctx.to_messages()) <= 400


def test_a_turn_too_long_for_the_room_left_is_passed_over_without_its_line() -> None:
    """The walk goes on past a turn that cannot fit (a shorter one after it still may),
    without building its heading: a heading and labels only add to a turn's cost."""
    asked: list[int] = []

    def heading(m: Message) -> str:
        asked.append(m.id)
        return relevant_heading(m, "s", {})

    long = turn(1, "user", "We talked about the garden for a long while. " * 12)
    short = turn(2, "user", "The gate code is 4417.")
    room = CL100K_COSTS.relevant_header + COUNT("2026-03-14:") + COUNT("user: ") + 2 * (
        short.token_count + CL100K_COSTS.item
    )
    kept, used = _take_relevant([long, short], room, CL100K_COSTS, limit=10, heading=heading,
                                tokens=COUNT)
    assert kept == [short] and asked == [2]  # the long turn's line never built
    assert used == section_tokens([short])
    kept, _ = _take_relevant([short, long], 10_000, CL100K_COSTS, limit=10, heading=heading,
                             tokens=COUNT)
    assert kept == [short, long] and asked == [2, 2, 1]  # each that fits is placed by its line
