"""Forgetting really forgets (issue 13, point 5).

A unique word is written into a message, and from it into an automatic pin, a
summary the local model wrote (the fake Ollama server over a real loopback
socket), the rollups that carry that summary forward, the summary's facts, the
checkpoints, the full-text indexes and the vectors. It is then forgotten each
way a user or an app can forget it, and no byte of it may be left in the
database file, its ``-wal`` (or ``-shm``), or a backup taken afterwards, while
everything else the file holds stays.
"""

from __future__ import annotations

import datetime
import json
import random
import sqlite3
import string
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from localmem import MemoryStore
from localmem.cli import cli
from tests.ollama_server import FakeOllama

DAYS_AGO = datetime.timedelta(days=60)
PIECE = 10
"""Letters of a marker searched for at a time: FTS5 stores a term after the
prefix it shares with the term before it, so the whole word need not be there."""


def new_marker() -> str:
    """A random 16-letter word no stemmer changes (no 's', ends in 'q')."""
    rng = random.SystemRandom()
    return "".join(rng.choice(string.ascii_lowercase.replace("s", "")) for _ in range(15)) + "q"


def traces(path: Path, word: str) -> list[str]:
    """The files (``path`` and its ``-wal`` and ``-shm``) holding any ``PIECE``
    letters of ``word`` in a row, in any case."""
    pieces = {word[i : i + PIECE] for i in range(len(word) - PIECE + 1)}
    needles = {p.encode() for p in pieces} | {p.upper().encode() for p in pieces}
    found = []
    for name in (str(path), f"{path}-wal", f"{path}-shm"):
        try:
            data = Path(name).read_bytes()
        except FileNotFoundError:
            continue
        if any(needle in data for needle in needles):
            found.append(name)
    return found


class Clock:
    """The store's clock: 60 days ago, until a test moves it to now (as the CLI's is)."""

    def __init__(self) -> None:
        self.now = datetime.datetime.now(datetime.timezone.utc) - DAYS_AGO

    def __call__(self) -> datetime.datetime:
        return self.now


@dataclass
class Remembered:
    """A file where ``word`` is everywhere a message's text can reach."""

    path: Path
    store: MemoryStore
    clock: Clock
    word: str
    session: str
    other: str
    message_id: int


CONFIG = {
    "summary_threshold": 4,
    "recent_summaries": 1,  # every level-1 summary but the newest is rolled up at once
    "structured_min_tokens": 1_000_000,  # facts and checkpoints by the rules
    "embedding_model": "nomic-embed-text",
    "model_trust": "checked",  # the model's summary as the checks keep it (tests/test_earned.py: what "earned" shows)
}


def filler(i: int) -> dict[str, str]:
    role = "user" if i % 2 == 0 else "assistant"
    return {"role": role, "text": f"Turn {i}: the garden needs watering and the fence painting soon."}


@pytest.fixture
def remembered(tmp_path: Path, fake_ollama: FakeOllama) -> Iterator[Remembered]:
    fake_ollama.models.append("nomic-embed-text:latest")
    word = new_marker()
    path = tmp_path / "memory.db"
    clock = Clock()
    store = MemoryStore(path, config=CONFIG, clock=clock)
    other = store.create_session(model="llama3.2", title="the other chat").id
    store.add_messages(other, [filler(i) for i in range(4)])
    store.add_message(other, "user", "I prefer window seats on trains.")
    assert store.summarize(other) is not None
    s = store.create_session(model="llama3.2", title="a chat").id
    # An item (as the agent adapters store turns), so that pop_item can take it.
    [said] = store.add_items(s, "k", [(
        {"role": "user", "text": f"I'm allergic to {word} pollen since 2019. I prefer {word} tea in the morning."},
        "{}",
    )])
    store.add_messages(s, [filler(i) for i in range(1, 4)])
    assert store.summarize(s) is not None
    store.add_messages(s, [filler(i) for i in range(4, 16)])  # 4 summaries, 2 rollups
    while store.summarize(s) is not None:
        pass
    store.add_message(s, "user", "I prefer short answers.")
    store.embed_pending()
    assert store.search(word)  # the index caught up, the word in it
    yield Remembered(path, store, clock, word, s, other, said.id)
    store.close()


def holds(text: str, word: str) -> bool:
    """True when ``text`` quotes ``PIECE`` letters of ``word`` or more (a summary
    quotes the first 30 characters of a message)."""
    return any(word[i : i + PIECE] in text for i in range(len(word) - PIECE + 1))


def everywhere(r: Remembered) -> dict[str, bool]:
    """Where the word is, through the store."""
    s, w = r.session, r.word
    summaries = r.store.get_summaries(s)
    return {
        "message": any(holds(m.text, w) for m in r.store.get_messages(s)),
        "auto pin": any(holds(p.content, w) for p in r.store.get_pins(s, kind="auto")),
        "model summary": any(holds(x.text, w) for x in summaries if x.level == 1),
        "rollup": any(holds(x.text, w) for x in summaries if x.level == 2),
        "facts": any(holds(f.text, w) for f in r.store.get_summary_facts(s)),
        "checkpoint": any(holds(c.data.model_dump_json(), w) for c in r.store.get_checkpoints(s)),
        "index": bool(r.store.search(w)),
    }


def backup_traces(r: Remembered, name: str) -> list[str]:
    return traces(r.store.backup(r.path.parent / name), r.word)


def forget_by_cli(r: Remembered, *args: str) -> str:
    r.store.close()
    result = CliRunner().invoke(cli, ["forget", *args, "--db", str(r.path)])
    assert result.exit_code == 0, result.output
    r.store = MemoryStore(r.path, config=CONFIG, clock=r.clock)
    return result.output


def age_everything_but_the_other_session(r: Remembered) -> None:
    r.clock.now = datetime.datetime.now(datetime.timezone.utc)
    r.store.add_message(r.other, "user", "Still here.")


WAYS: dict[str, Callable[[Remembered], object]] = {
    "delete_message": lambda r: r.store.delete_message(r.message_id),
    "pop_item": lambda r: r.store.pop_item(r.session, "k"),
    "clear_messages": lambda r: r.store.clear_messages(r.session),
    "delete_session": lambda r: r.store.delete_session(r.session),
    "prune": lambda r: (
        age_everything_but_the_other_session(r),
        r.store.prune(datetime.timedelta(days=30)),
    ),
    "cli forget SESSION": lambda r: forget_by_cli(r, r.session, "--yes"),
    "cli forget --older-than": lambda r: (
        age_everything_but_the_other_session(r),
        forget_by_cli(r, "--older-than", "30d", "--yes"),
    ),
}


@pytest.mark.parametrize("way", list(WAYS))
def test_a_forgotten_word_leaves_no_byte_in_the_file_its_log_or_a_backup(
    remembered: Remembered, way: str
) -> None:
    r = remembered
    assert all(everywhere(r).values()), everywhere(r)
    assert traces(r.path, r.word), "the word must be in the file before it is forgotten"
    # The lines quoting it name its message (issue 21 point 4)...
    assert any(r.message_id in x.message_ids for x in r.store.line_sources(r.session))
    other_before = (r.store.get_messages(r.other), r.store.get_summaries(r.other))
    WAYS[way](r)
    assert traces(r.path, r.word) == []
    assert Path(f"{r.path}-wal").stat().st_size == 0  # the log was emptied into the file
    assert backup_traces(r, "after.db") == []
    # Through the store too, and nothing else was lost.
    if way in ("delete_message", "pop_item", "clear_messages"):
        assert not any(everywhere(r).values()), everywhere(r)
        left = r.store.get_messages(r.session)
        assert len(left) == (0 if way == "clear_messages" else 16)
    else:
        assert r.session not in {s.id for s in r.store.list_sessions()}
    messages, summaries = r.store.get_messages(r.other), r.store.get_summaries(r.other)
    assert messages[: len(other_before[0])] == other_before[0] and summaries == other_before[1]
    assert [h.id for h in r.store.search("window seats")] == [other_before[0][-1].id]
    with sqlite3.connect(r.path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        vectors = raw.execute(
            "SELECT count(*) FROM embeddings WHERE kind = 'message' AND row_id = ?", (r.message_id,)
        ).fetchone()
        assert vectors == (0,)
        assert raw.execute("SELECT count(*) FROM summary_cache").fetchone() == (0,)
        # ...and no line is left naming a message that is gone.
        assert raw.execute(
            "SELECT count(*) FROM line_sources WHERE message_id NOT IN (SELECT id FROM messages)"
        ).fetchone() == (0,)


def test_a_dry_run_lists_what_would_go_and_forgets_nothing(remembered: Remembered) -> None:
    r = remembered
    age_everything_but_the_other_session(r)
    out = forget_by_cli(r, "--older-than", "30d", "--dry-run")
    assert out == f"Would delete session {r.session}\n"
    assert traces(r.path, r.word) and all(everywhere(r).values())


def test_the_rest_of_the_conversation_keeps_its_summaries_and_checkpoint(remembered: Remembered) -> None:
    """An older summary over the message is rewritten by the rules from what is left,
    the rollup and the checkpoint are rebuilt by the rules; nothing is lost but the message."""
    r = remembered
    before = r.store.get_summaries(r.session)
    [first, *_] = [s for s in before if s.level == 1]
    assert first.start_message_id == r.message_id and first.source == "llama3.2:latest"
    r.store.delete_message(r.message_id)
    after = r.store.get_summaries(r.session)
    # The level-1 ranges stay; the two rollups (each quoting the one before) become one.
    ends = [s.end_message_id for s in before if s.level == 1]
    assert [(s.level, s.end_message_id) for s in before if s.level == 2] == [(2, ends[1]), (2, ends[3])]
    assert [(s.level, s.end_message_id) for s in after] == [(1, end) for end in ends] + [(2, ends[3])]
    rewritten = after[0]
    assert rewritten.id == first.id and rewritten.source == "fallback"
    assert rewritten.start_message_id == r.message_id + 1 and rewritten.message_count == 3
    assert "garden" in rewritten.text.casefold() or "Turn 1" in rewritten.text
    [rollup] = [s for s in after if s.level == 2]
    assert rollup.source == "fallback" and r.word not in rollup.text
    assert after[1:4] == before[1:4]  # the later level-1 summaries are untouched
    checkpoint = r.store.latest_checkpoint(r.session)
    assert checkpoint is not None and checkpoint.source == "rules"
    assert checkpoint.data.user_preferences == ["I prefer short answers."]
    ctx = r.store.build_context(r.session)
    assert r.word not in json.dumps(ctx.to_messages())
    assert ctx.summaries and ctx.checkpoint
    assert r.store.get_pins(r.session, kind="auto") == []  # it was taken from the message


def test_the_newest_summary_is_dropped_and_summarized_again(remembered: Remembered) -> None:
    r = remembered
    newest = r.store.get_summaries(r.session)
    newest = max((s for s in newest if s.level == 1), key=lambda s: s.end_message_id)
    covered = [m for m in r.store.get_messages(r.session) if m.id <= newest.end_message_id]
    r.store.delete_message(covered[-1].id)
    level1 = [(s.level, s.start_message_id) for s in r.store.get_summaries(r.session) if s.level == 1]
    assert (1, newest.start_message_id) not in level1
    r.store.add_message(r.session, "assistant", "Noted.")
    again = r.store.summarize(r.session)
    assert again is not None and again.start_message_id == newest.start_message_id


def test_a_manual_pin_stays_when_its_message_goes(store: MemoryStore, session) -> None:
    word = new_marker()
    m = store.add_message(session.id, "user", f"I'm allergic to {word} pollen.")
    [auto] = store.get_pins(session.id, kind="auto")
    assert auto.source_message_id == m.id
    manual = store.pin(session.id, "Carries an inhaler.", source_message_id=m.id)
    store.delete_message(m.id)
    assert store.get_pins(session.id) == [manual.model_copy(update={"source_message_id": None})]


def test_unpin_leaves_no_byte(store: MemoryStore, session, db_path: Path, tmp_path: Path) -> None:
    word = new_marker()
    store.add_messages(session.id, [filler(i) for i in range(30)])
    pin = store.pin(session.id, f"The door code word is {word}.")
    store.pin(session.id, "The door code is on the fridge.")
    assert [h.kind for h in store.search(word)] == ["pin"]
    assert traces(db_path, word)
    store.unpin(pin.id)
    assert traces(db_path, word) == []
    assert traces(store.backup(tmp_path / "after.db"), word) == []
    assert [h.kind for h in store.search("fridge")] == ["pin"]


def test_without_the_merge_the_index_would_keep_it(store: MemoryStore, session, db_path: Path) -> None:
    """What the FTS5 merge is for: a plain delete leaves the term in the index's
    segments (the reason for 'optimize' after a forget)."""
    word = new_marker()
    store.add_messages(session.id, [filler(i) for i in range(30)])
    m = store.add_message(session.id, "user", f"The password is {word} for now.")
    store.add_messages(session.id, [filler(i) for i in range(30, 40)])
    store.search("garden")
    raw = sqlite3.connect(db_path)
    raw.execute("PRAGMA foreign_keys = ON")
    raw.execute("PRAGMA secure_delete = ON")
    raw.execute("DELETE FROM messages WHERE id = ?", (m.id,))
    raw.commit()
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    assert traces(db_path, word) == [str(db_path)]  # the index's segment still holds it
    store.delete_message(store.get_messages(session.id)[0].id)  # any forget merges the index
    assert traces(db_path, word) == []


def test_a_forget_on_a_file_another_program_reads_logs_what_is_left(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A reader holding a snapshot keeps the log from being emptied (after
    ``busy_timeout``): the store says so, and a later forget empties it."""
    word = new_marker()
    with MemoryStore(db_path, config={"busy_timeout": 0.1}) as store:
        s = store.create_session()
        m = store.add_message(s.id, "user", f"The password is {word} for now.")
        reader = sqlite3.connect(db_path, isolation_level=None)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM messages").fetchone()
        store.delete_message(m.id)
        assert "write-ahead log still holds deleted text" in caplog.text
        assert word not in caplog.text
        reader.execute("COMMIT")
        reader.close()
        store.delete_message(store.add_message(s.id, "user", "scratch").id)
        assert traces(db_path, word) == []


SECOND_APP = """
import json, sys
from localmem import MemoryStore
store = MemoryStore(sys.argv[1])
said = lambda: sys.argv[3] in json.dumps(store.build_context(sys.argv[2]).to_messages())
print(json.dumps(said()), flush=True)
sys.stdin.readline()
print(json.dumps(said()), flush=True)
store.close()
"""


def test_another_app_open_on_the_file_neither_keeps_it_nor_sees_it(db_path: Path) -> None:
    """A second process with the file open (an MCP server, another window), idle
    between its calls, does not keep the forgotten text in the file or the log,
    and its next context no longer holds it."""
    word = new_marker()
    with MemoryStore(db_path) as store:
        s = store.create_session()
        store.add_messages(s.id, [filler(i) for i in range(4)])
        m = store.add_message(s.id, "user", f"The alarm code is {word}, remember it.")
        store.search("garden")
        other = subprocess.Popen(
            [sys.executable, "-c", SECOND_APP, str(db_path), s.id, word],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        try:
            assert other.stdout.readline() == "true\n"  # it has read it
            store.delete_message(m.id)
            assert traces(db_path, word) == []
            assert Path(f"{db_path}-wal").stat().st_size == 0
            other.stdin.write("again\n")
            other.stdin.flush()
            assert other.stdout.readline() == "false\n"
        finally:
            other.stdin.close()
            other.wait(timeout=30)
    assert other.returncode == 0
    assert traces(db_path, word) == []


def test_clearing_checkpoints_is_a_forget(store: MemoryStore, session, db_path: Path) -> None:
    """Their rows go (zeroed: secure_delete) and the log is emptied into the file."""
    word = new_marker()
    store.add_message(session.id, "user", f"I prefer {word} over everything else.")
    assert word in store.checkpoint(session.id).data.user_preferences[0]
    assert Path(f"{db_path}-wal").stat().st_size > 0
    assert store.clear_checkpoints(session.id) == 1
    assert store.get_checkpoints(session.id) == []
    assert Path(f"{db_path}-wal").stat().st_size == 0
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("SELECT count(*) FROM checkpoints").fetchone() == (0,)


@pytest.mark.parametrize("how", ["delete_message", "delete_session", "clear_messages"])
def test_a_fact_of_the_users_learnt_from_a_forgotten_message_goes(
    store: MemoryStore, db_path: Path, how: str
) -> None:
    """A lasting fact becomes the user's (every session sees it); forgetting the
    message it was taken from forgets it, in every session."""
    word = new_marker()
    told = store.create_session()
    later = store.create_session()
    m = store.add_message(told.id, "user", f"I'm allergic to {word} pollen.")
    [fact] = store.get_pins(later.id)
    assert fact.session_id is None and fact.source_message_id == m.id  # the user's
    store.add_message(later.id, "user", "Any advice for a picnic?")
    assert word in json.dumps(store.build_context(later.id).to_messages())
    {"delete_message": lambda: store.delete_message(m.id),
     "delete_session": lambda: store.delete_session(told.id),
     "clear_messages": lambda: store.clear_messages(told.id)}[how]()
    assert store.get_pins(later.id) == []
    assert word not in json.dumps(store.build_context(later.id).to_messages())
    assert word not in store.memory_report().model_dump_json()
    assert traces(db_path, word) == []
