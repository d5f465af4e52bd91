"""A forget, an unpin or a correction holds against the paths review11 did not attack
(issue 21, points 4 and 5; the review of review12): the async store, an encrypted
file, forgets across sessions racing ``maintain``, and the command line against a
model call in another process.

The races use real threads (or a real process) and the loopback fake Ollama server
that answers only when the test says so (``tests.test_forget_race.race``). Each test
names what it attacks; the module's report in the branch says which failed first.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from localmem import AsyncMemoryStore, MemoryStore
from localmem.models import Pin
from tests.test_forget import holds, new_marker, traces
from tests.test_forget_holds import told_session
from tests.test_forget_race import CONFIG, JOIN_SECONDS, QuotingFake, fake, filler, nowhere, told

__all__ = ["fake"]  # the fixture, shared


def held(fake: QuotingFake) -> None:
    assert fake.held.wait(JOIN_SECONDS), "the model was never asked"


@pytest.mark.parametrize("same_store", [True, False])
@pytest.mark.parametrize("path_name", ["summarize", "checkpoint"])
@pytest.mark.parametrize("forget", ["delete_message", "clear_messages", "delete_session"])
def test_a_forget_on_the_async_store_is_final(
    tmp_path: Path, fake: QuotingFake, path_name: str, forget: str, same_store: bool
) -> None:
    """A summary or checkpoint in flight on the async store while a forget is asked on
    it (queued behind the call in the store's worker) or on another async store of the
    same file (a second worker, a second connection): nothing quoting the forgotten
    text is left once both returned. (Held: a guard, the suite had no async race.)"""
    word = fake.word = new_marker()
    path = tmp_path / "memory.db"
    with MemoryStore(path, config=CONFIG) as setup:
        sid, mid = told_session(setup, word)

    async def main() -> None:
        async with AsyncMemoryStore(path, config=CONFIG) as store:
            other = store if same_store else AsyncMemoryStore(path, config=CONFIG)
            fake.gate = threading.Event()
            fake.held.clear()
            call = asyncio.ensure_future(getattr(store, path_name)(sid))
            await asyncio.get_running_loop().run_in_executor(None, held, fake)
            forgets = {
                "delete_message": lambda: other.delete_message(mid),
                "clear_messages": lambda: other.clear_messages(sid),
                "delete_session": lambda: other.delete_session(sid),
            }
            forgotten = asyncio.ensure_future(forgets[forget]())
            if not same_store:
                await forgotten  # done while the model is still thinking
            fake.gate.set()
            await asyncio.gather(call, return_exceptions=True)  # the session may be gone
            await forgotten
            if not same_store:
                await other.close()

    asyncio.run(main())
    with MemoryStore(path, config=CONFIG) as store:
        nowhere(store, path, sid, word)


class OldFactFake(QuotingFake):
    """A model whose facts restate the dose as first said."""

    def reply_text(self, request: dict) -> str:
        if request.get("format") == "json":
            return json.dumps({"must_remember": [TAKES], "key_facts": [TAKES]})
        return super().reply_text(request)


TAKES = "I take lisinopril 10 mg every morning."
FACT_CONFIG = {**CONFIG, "summary_threshold": 8}  # the summary covers the eight turns


@pytest.fixture
def old_fact(monkeypatch: pytest.MonkeyPatch) -> Iterator[OldFactFake]:
    with OldFactFake() as server:
        monkeypatch.setenv("OLLAMA_HOST", server.host)
        yield server


def fact_said_last(store: MemoryStore) -> tuple[str, Pin]:
    """A session of eight turns whose last user turn says ``TAKES`` (its summary covers
    it, ``summary_threshold`` 8): (the session, the fact's pin)."""
    sid = store.create_session(model="llama3.2").id
    store.add_messages(sid, [filler(i) for i in range(2, 8)])
    store.add_message(sid, "user", TAKES)
    store.add_message(sid, "assistant", "Noted.")
    [fact] = store.get_pins(sid)
    return sid, fact


@pytest.mark.parametrize("act", ["unpin", "correct"])
def test_an_unpin_or_a_correction_on_another_async_store_holds_against_a_summary_in_flight(
    tmp_path: Path, old_fact: OldFactFake, act: str
) -> None:
    """The user unpins the fact, or corrects it ("Sorry, I meant 20 mg."), through a second
    async store while the first one's summary is with the model, whose facts restate the
    fact as it was: the removed fact stays removed, the corrected one stays corrected.
    (Held: a guard.)"""
    path = tmp_path / "memory.db"
    with MemoryStore(path, config=FACT_CONFIG) as setup:
        sid, fact = fact_said_last(setup)

    async def main() -> None:
        async with AsyncMemoryStore(path, config=FACT_CONFIG) as store, \
                AsyncMemoryStore(path, config=FACT_CONFIG) as other:
            old_fact.gate = threading.Event()
            old_fact.held.clear()
            call = asyncio.ensure_future(store.summarize(sid))
            await asyncio.get_running_loop().run_in_executor(None, held, old_fact)
            if act == "unpin":
                await other.unpin(fact.id)
            else:
                await other.add_message(sid, "user", "Sorry, I meant 20 mg.")
            old_fact.gate.set()
            summary = await call  # None after an unpin: a forget discards the answer
            assert (summary is None) == (act == "unpin")
            if summary is not None:
                assert summary.end_message_id >= fact.source_message_id

    asyncio.run(main())
    with MemoryStore(path, config=FACT_CONFIG) as store:
        shown = [p.content for p in store.get_pins(sid)]
        assert TAKES not in shown
        if act == "unpin":
            assert shown == []
        else:  # the fact with its correction, built from both messages
            [corrected] = shown
            assert "I meant 20 mg" in corrected


# --- an encrypted file -------------------------------------------------------------------

KEY = "correct horse 'battery' staple"
PAGE = 4096  # SQLCipher 4's defaults: pages of 4096 bytes, 80 reserved (IV 16, HMAC 64)
RESERVED = 80


def decrypted(path: Path, key: str) -> bytes:
    """Every page of an SQLCipher 4 file and of its write-ahead log, decrypted: the
    free pages and the log's old frames too, which no SQL reading (nor an export) shows.
    The key is derived as SQLCipher does (PBKDF2-HMAC-SHA512, 256,000 rounds, the file's
    first 16 bytes as salt); each page is AES-256-CBC with the IV in its reserved bytes."""
    ciphers = pytest.importorskip("cryptography.hazmat.primitives.ciphers")
    import hashlib

    raw = path.read_bytes()
    derived = hashlib.pbkdf2_hmac("sha512", key.encode(), raw[:16], 256_000, 32)

    def page(data: bytes, first: bool) -> bytes:
        iv = data[PAGE - RESERVED : PAGE - RESERVED + 16]
        d = ciphers.Cipher(ciphers.algorithms.AES(derived), ciphers.modes.CBC(iv)).decryptor()
        return d.update(data[16 if first else 0 : PAGE - RESERVED]) + d.finalize()

    out = [page(raw[i : i + PAGE], i == 0) for i in range(0, len(raw) - PAGE + 1, PAGE)]
    assert out and out[0][:2] == PAGE.to_bytes(2, "big"), "not SQLCipher 4's default layout"
    wal = Path(f"{path}-wal")
    log = wal.read_bytes() if wal.exists() else b""
    for at in range(32, len(log) - 24 - PAGE + 1, 24 + PAGE):  # frames after the header
        number = int.from_bytes(log[at : at + 4], "big")
        out.append(page(log[at + 24 : at + 24 + PAGE], number == 1))
    return b"".join(out)


@pytest.mark.parametrize("forget", ["delete_message", "clear_messages", "delete_session"])
def test_a_forget_in_an_encrypted_file_leaves_no_byte_in_its_decrypted_pages(
    tmp_path: Path, fake: QuotingFake, forget: str
) -> None:
    """Every byte is ciphertext; decrypted page by page (the free pages and the log's
    frames too), the file holds nothing of what was forgotten: ``secure_delete`` and the
    indexes' merge hold under SQLCipher, while a model's summary raced the forget.
    (Held: a guard; the suite's check read a decrypted export, which holds no free page.)"""
    pytest.importorskip("sqlcipher3")
    from tests.test_forget_race import race

    word = fake.word = new_marker()
    path = tmp_path / "memory.db"
    store = MemoryStore(path, config=CONFIG, key=KEY)
    sid, mid = told_session(store, word)
    store.summarize(sid)
    store.add_messages(sid, [filler(i) for i in range(8, 12)])
    assert word.encode() in decrypted(path, KEY)  # the reading works: the word is there
    forgets = {
        "delete_message": lambda: store.delete_message(mid),
        "clear_messages": lambda: store.clear_messages(sid),
        "delete_session": lambda: store.delete_session(sid),
    }
    race(fake, lambda: store.summarize(sid), forgets[forget])
    store.close()
    assert traces(path, word) == []
    assert not holds(decrypted(path, KEY).decode("latin-1"), word)


def test_an_unpin_in_an_encrypted_file_leaves_no_byte_in_its_decrypted_pages(tmp_path: Path) -> None:
    pytest.importorskip("sqlcipher3")
    word = new_marker()
    path = tmp_path / "memory.db"
    with MemoryStore(path, config={"offline": True}, key=KEY) as store:
        sid = store.create_session().id
        store.add_messages(sid, [filler(i) for i in range(4)])
        pin = store.pin(sid, f"The spare key is under the {word} pot.")
        assert word.encode() in decrypted(path, KEY)
        store.unpin(pin.id)
    assert not holds(decrypted(path, KEY).decode("latin-1"), word)


def test_encrypting_a_file_after_a_forget_brings_back_no_byte_of_it(tmp_path: Path) -> None:
    """A plain file whose forget could not empty its log (another connection was reading),
    then ``localmem encrypt``: neither the encrypted file (decrypted page by page) nor
    anything left beside it holds the forgotten word. (Held: a guard.)"""
    pytest.importorskip("sqlcipher3")
    import sqlite3

    from click.testing import CliRunner

    from localmem.cli import cli

    word = new_marker()
    path = tmp_path / "memory.db"
    with MemoryStore(path, config={"offline": True, "busy_timeout": 0.2}) as store:  # no long wait for the reader
        sid = store.create_session().id
        said = store.add_message(sid, "user", f"My bank PIN hint is {word}.")
        store.add_messages(sid, [filler(i) for i in range(8)])
        store.summarize(sid)
        reader = sqlite3.connect(path)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM messages").fetchone()  # holds the log's frames
        store.delete_message(said.id)
        reader.rollback()
        reader.close()
    out = CliRunner().invoke(cli, ["encrypt", "--db", str(path)], env={"LOCALMEM_KEY": KEY})
    assert out.exit_code == 0, out.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory.db"]
    assert traces(path, word) == []
    assert not holds(decrypted(path, KEY).decode("latin-1"), word)


# --- forgets across sessions racing maintain ---------------------------------------------


def three_sessions(store: MemoryStore, fake: QuotingFake, word: str) -> tuple[list[str], int]:
    """Three sessions with offline summaries for ``maintain`` to redo; the middle one
    holds ``word`` (a fact of the user's: every session's), and the first repeats nothing of it."""
    from tests.test_forget_race import offline_summaries

    ids = [store.create_session(model="llama3.2").id for _ in range(3)]
    mid = 0
    for k, sid in enumerate(ids):
        store.add_messages(sid, [filler(i) for i in range(10 * k, 10 * k + 4)])
        offline_summaries(store, fake, sid)
        if k == 1:
            mid = told(store, sid, word)  # a second range
            offline_summaries(store, fake, sid)
            store.add_messages(sid, [filler(i) for i in range(50, 54)])
            offline_summaries(store, fake, sid)
            assert any(holds(x.text, word) for x in store.get_summaries(sid))
    return ids, mid


@pytest.mark.parametrize("forget", ["delete_session", "clear_messages", "delete_message", "unpin"])
def test_a_forget_in_one_session_while_maintain_redoes_several_is_final(
    tmp_path: Path, fake: QuotingFake, forget: str
) -> None:
    """``maintain`` redoes the ranges of every session; while the model redoes the one
    holding the word, the user forgets it (the session, its messages, the message, or
    the user's fact learnt from it). The run goes on to the next session and finishes;
    nothing quoting the word is in any session, the user's facts, the file or a backup
    (for an unpin: no pin of it comes back)."""
    from tests.test_forget_race import race

    word = fake.word = new_marker()
    path = tmp_path / "memory.db"
    store = MemoryStore(path, config=CONFIG)
    (first, middle, last), mid = three_sessions(store, fake, word)
    [fact] = [p for p in store.get_pins(middle) if holds(p.content, word)]
    forgets = {
        "delete_session": lambda: store.delete_session(middle),
        "clear_messages": lambda: store.clear_messages(middle),
        "delete_message": lambda: store.delete_message(mid),
        "unpin": lambda: store.unpin(fact.id),
    }
    fake.gate_when = lambda body: word in json.dumps(body)
    [result] = race(fake, store.maintain, forgets[forget])
    assert not isinstance(result, Exception), result
    assert any(x.source not in ("fallback", "offline") for x in store.get_summaries(last))  # it went on
    if forget == "unpin":
        for sid in (first, middle, last):
            assert not [p for p in store.get_pins(sid, history=True) if holds(p.content, word)]
        assert not holds(store.memory_report().model_dump_json(), word)
        return
    for sid in (first, last):
        nowhere_in_session(store, sid, word)
    nowhere(store, path, middle, word)


def nowhere_in_session(store: MemoryStore, sid: str, word: str) -> None:
    shown = [
        *(s.text for s in store.get_summaries(sid)),
        *(f.text for f in store.get_summary_facts(sid)),
        *(c.data.model_dump_json() for c in store.get_checkpoints(sid)),
        *(p.content for p in store.get_pins(sid, history=True)),
        json.dumps(store.build_context(sid).to_messages()),
    ]
    assert not [t for t in shown if holds(t, word)]


@pytest.mark.parametrize("path_name", ["summarize", "maintain"])
def test_an_ephemeral_session_deleted_while_its_summary_is_with_the_model_leaves_nothing(
    tmp_path: Path, fake: QuotingFake, path_name: str
) -> None:
    """A session that keeps nothing (``persist=False``) beside persisted ones: deleted
    while the model summarizes it (``summarize``), or while ``maintain`` redoes the
    file's sessions and the private one is summarized meanwhile, no byte of it reaches
    the file, and the persisted sessions' summaries are redone. (Held: a guard.)"""
    from tests.test_forget_race import offline_summaries, race

    word = fake.word = new_marker()
    path = tmp_path / "memory.db"
    store = MemoryStore(path, config=CONFIG)
    kept = store.create_session(model="llama3.2").id
    store.add_messages(kept, [filler(i) for i in range(4)])
    offline_summaries(store, fake, kept)
    private = store.create_session(model="llama3.2", persist=False).id
    told(store, private, word)
    store.add_messages(private, [filler(i) for i in range(4, 8)])
    if path_name == "summarize":
        race(fake, lambda: store.summarize(private), lambda: store.delete_session(private))
    else:
        fake.gate_when = lambda body: word not in json.dumps(body)  # the file's session
        race(fake, store.maintain, lambda: (store.summarize(private), store.delete_session(private)))
        assert any(x.source not in ("fallback", "offline") for x in store.get_summaries(kept))
    assert private not in {s.id for s in store.list_sessions()}
    nowhere(store, path, kept, word)


# --- the command line against a model call in another process ------------------------------

CALL_IN_A_PROCESS = """
import json, sys
from localmem import MemoryStore
from localmem.errors import SessionNotFound
path, sid, call, config = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
with MemoryStore(path, config=config) as store:
    try:
        store.maintain() if call == "maintain" else getattr(store, call)(sid)
    except SessionNotFound:  # the session went meanwhile: a fine answer
        pass
print("done")
"""


@pytest.mark.parametrize("call", ["summarize", "checkpoint", "maintain"])
@pytest.mark.parametrize("command", ["forget --message", "forget session", "unpin"])
def test_the_clis_forget_holds_against_a_model_call_in_another_process(
    tmp_path: Path, fake: QuotingFake, call: str, command: str
) -> None:
    """A program (another process) has the model summarize, checkpoint or maintain the
    file; meanwhile the user runs ``localmem forget --message``, ``localmem forget
    SESSION`` or ``localmem unpin`` on it. The forget mark is in the file, so the other
    process's answer is discarded in its storing transaction: nothing quoting the word
    is left (for an unpin: no pin of the fact comes back). (Held: a guard.)"""
    import os
    import subprocess
    import sys

    from click.testing import CliRunner

    from localmem.cli import cli
    from tests.test_forget_race import offline_summaries

    word = fake.word = new_marker()
    path = tmp_path / "memory.db"
    with MemoryStore(path, config=CONFIG) as store:
        sid, mid = told_session(store, word)
        if call == "maintain":  # ranges for it to redo
            offline_summaries(store, fake, sid)
            store.add_messages(sid, [filler(i) for i in range(8, 12)])
            offline_summaries(store, fake, sid)
        [fact] = [p for p in store.get_pins(sid) if holds(p.content, word)]
    fake.gate = threading.Event()
    fake.held.clear()
    fake.gate_when = lambda body: word in json.dumps(body)
    env = {**os.environ, "OLLAMA_HOST": fake.host}
    other = subprocess.Popen(
        [sys.executable, "-c", CALL_IN_A_PROCESS, str(path), sid, call, json.dumps(CONFIG)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        held(fake)
        args = {
            "forget --message": ["forget", "--message", str(mid), "--yes"],
            "forget session": ["forget", sid, "--yes"],
            "unpin": ["unpin", str(fact.id)],
        }[command]
        out = CliRunner().invoke(cli, [*args, "--db", str(path)])
        assert out.exit_code == 0, out.output
    finally:
        fake.gate.set()
        stdout, stderr = other.communicate(timeout=JOIN_SECONDS)
    assert other.returncode == 0 and "done" in stdout, stderr
    with MemoryStore(path, config=CONFIG) as store:
        if command == "unpin":
            assert not [p for p in store.get_pins(sid, history=True) if holds(p.content, word)]
            assert not holds(store.memory_report().model_dump_json(), word)
            return
        nowhere(store, path, sid, word)


# --- a pin the user edited ---------------------------------------------------------------


@pytest.mark.parametrize("edited", [
    "My blood pressure tablet is amlodipine 5 mg now.",  # another fact: failed before the fix
    "I take lisinopril 20 mg every morning.",  # the same fact, another dose
])
@pytest.mark.parametrize("race_it", [False, True])
def test_a_fact_the_user_edited_is_not_pinned_again_as_it_was(
    tmp_path: Path, old_fact: OldFactFake, race_it: bool, edited: str
) -> None:
    """The user edits the fact learnt from their message ("10 mg" -> "20 mg",
    ``update_pin``): a model's summary of the range holding the old message (after the
    edit, or in flight during it) restates the fact as first said; it is not pinned
    again beside the edited one. The edit is the user's correction of the fact."""
    from tests.test_forget_race import race

    with MemoryStore(tmp_path / "memory.db", config=FACT_CONFIG) as store:
        sid, fact = fact_said_last(store)
        if race_it:
            race(old_fact, lambda: store.summarize(sid), lambda: store.update_pin(fact.id, content=edited))
        else:
            store.update_pin(fact.id, content=edited)
            assert store.summarize(sid) is not None
        assert [p.content for p in store.get_pins(sid)] == [edited]


def test_an_importance_edit_removes_nothing(tmp_path: Path, old_fact: OldFactFake) -> None:
    """The negative case: a new importance is no correction; the model's summary of the
    range still finds the fact as said, held by the pin (no second one, none removed)."""
    with MemoryStore(tmp_path / "memory.db", config=FACT_CONFIG) as store:
        sid, fact = fact_said_last(store)
        store.update_pin(fact.id, importance=0.9)
        assert store.summarize(sid) is not None
        assert [p.content for p in store.get_pins(sid)] == [TAKES]


def test_editing_a_pin_leaves_no_byte_of_its_old_text(tmp_path: Path) -> None:
    """A pin's old content, rewritten by the user, leaves the file as an unpinned one does
    (the pins' index merged, the log emptied)."""
    word = new_marker()
    path = tmp_path / "memory.db"
    store = MemoryStore(path, config={"offline": True})
    sid = store.create_session().id
    store.add_messages(sid, [filler(i) for i in range(4)])
    pin = store.pin(sid, f"The spare key is under the {word} pot.")
    store.update_pin(pin.id, content="The spare key is with the neighbour now.")
    nowhere(store, path, sid, word)
