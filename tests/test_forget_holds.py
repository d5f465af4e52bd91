"""A forget, an unpin or a correction holds against every path that writes later
(issue 21, points 4 and 5; the review of review11).

Each test is an attack through the public API: the races with real threads and the
loopback fake Ollama server that answers only when the test says so (``race``), the
rest in sequence. Each one failed before the fix it came with.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from localmem import MemoryStore
from tests.test_forget import holds, new_marker
from tests.test_checkpoint import fake as json_fake  # noqa: F401 - the fixture
from tests.test_forget_race import CONFIG, QuotingFake, fake, filler, nowhere, offline_summaries, race, told

__all__ = ["fake", "json_fake"]  # the fixtures, shared


@pytest.mark.parametrize("path_name", ["resummarize", "maintain"])
def test_an_untrusted_models_answer_racing_a_forget_leaves_nothing(
    tmp_path: Path, fake: QuotingFake, path_name: str
) -> None:
    """Under the default (``model_trust="earned"``), a model not yet trusted that redoes a
    range is only judged and its answer cached (``Summaries.judge``): a forget while it
    answered must discard that too, or the forgotten text is in the summary cache, in
    the file's bytes and every backup after the forget returned (and the answer counts
    toward the model's record)."""
    word = fake.word = new_marker()
    path = tmp_path / "memory.db"
    store = MemoryStore(path, config={**CONFIG, "model_trust": "earned"})
    sid = store.create_session(model="llama3.2").id
    mid = told(store, sid, word)
    offline_summaries(store, fake, sid)
    store.add_messages(sid, [filler(i) for i in range(20, 24)])
    offline_summaries(store, fake, sid)
    assert any(holds(s.text, word) for s in store.get_summaries(sid))
    call = {"resummarize": lambda: store.resummarize(sid), "maintain": store.maintain}
    fake.gate_when = lambda body: word in json.dumps(body)
    [result] = race(fake, call[path_name], lambda: store.delete_message(mid))
    assert not isinstance(result, Exception), result
    # the second range, redone after the forget, counts; the raced first one does not
    assert [t.answered for t in store.model_trust() if t.kind == "summary"] == [1]
    nowhere(store, path, sid, word)


TAKES = "I take lisinopril 10 mg every morning."
STOPPED = "I no longer take lisinopril."


def current(store: MemoryStore, session_id: str) -> list[str]:
    return [p.content for p in store.get_pins(session_id)]


@pytest.mark.parametrize("forget", ["delete_message", "delete_session", "clear_messages"])
def test_forgetting_an_update_brings_back_no_fact_the_user_removed_since(
    store: MemoryStore, forget: str
) -> None:
    """Forgetting an update makes what it superseded current again (point 4), but not a
    fact the user removed after it: said again, then unpinned, it stays removed. The
    fact, the update and the removal are each in a session of their own (the user's
    facts are every session's)."""
    said = store.create_session().id
    store.add_message(said, "user", TAKES)
    changed = store.create_session().id
    update = store.add_message(changed, "user", STOPPED)
    assert current(store, said) == [STOPPED]
    other = store.create_session().id
    store.add_message(other, "user", TAKES)
    [again] = [p for p in store.get_pins(other) if p.content == TAKES]
    store.unpin(again.id)
    {
        "delete_message": lambda: store.delete_message(update.id),
        "delete_session": lambda: store.delete_session(changed),
        "clear_messages": lambda: store.clear_messages(changed),
    }[forget]()
    assert current(store, said) == [] and current(store, other) == []


def test_forgetting_an_update_restores_the_fact_it_ended(store: MemoryStore) -> None:
    """The negative case: nothing was removed meanwhile, the old fact is current again."""
    s = store.create_session().id
    store.add_message(s, "user", TAKES)
    update = store.add_message(s, "user", STOPPED)
    store.delete_message(update.id)
    assert current(store, s) == [TAKES]


def test_forgetting_an_update_adds_no_second_pin_of_a_fact_pinned_by_hand(store: MemoryStore) -> None:
    s = store.create_session().id
    store.add_message(s, "user", TAKES)
    update = store.add_message(s, "user", STOPPED)
    store.pin(s, TAKES)  # the user's own act, meanwhile
    store.delete_message(update.id)
    assert [(p.content, p.kind) for p in store.get_pins(s)] == [(TAKES, "manual")]


def test_a_session_that_keeps_nothing_leaves_no_verdict_in_the_file(db_path: Path, fake_ollama) -> None:
    """A verdict holds no text, but it is what a session's model calls taught the file:
    an ephemeral session's answers count in its private store only, and go with it; a
    persisted session's count in the file (the negative case)."""
    from tests.test_earned import conversation, summary_record

    with MemoryStore(db_path, config={"recent_summaries": 0}) as store:
        private = store.create_session(model="llama3.2", persist=False).id
        store.add_messages(private, conversation(45))
        for _ in range(3):
            assert store.summarize(private) is not None
        store.checkpoint(private)
        assert store.model_trust() == []
        store.delete_session(private)
        kept = store.create_session(model="llama3.2").id
        store.add_messages(kept, conversation(15))
        store.summarize(kept)
        assert [r.answered for r in summary_record(store)] == [1]
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM model_verdicts WHERE kind = 'summary'").fetchone() == (1,)


ALLERGY = "I'm allergic to penicillin."


def said_then_exported(store: MemoryStore) -> tuple[str, list[str]]:
    s = store.create_session(title="health").id
    store.add_message(s, "user", ALLERGY)
    store.add_message(s, "assistant", "Noted.")
    return s, list(store.export_sessions([s]))


@pytest.mark.parametrize("existing", ["replace", "rename"])
def test_importing_an_old_export_brings_back_no_fact_the_user_removed(
    store: MemoryStore, existing: str
) -> None:
    """An export taken before the user removed a fact, imported again (a backup restored
    over the session, or beside it): the fact stays removed, and the report says so. An
    import is a record of what was said before, never the user saying it again."""
    s, lines = said_then_exported(store)
    [fact] = store.get_pins(s)
    store.unpin(fact.id)
    report = store.import_sessions(lines, existing=existing)
    assert report.removed == 1
    assert current(store, store.create_session().id) == []
    assert all(current(store, new) == [] for _, new in report.sessions)


def test_importing_an_export_keeps_the_facts_nobody_removed(store: MemoryStore) -> None:
    s, lines = said_then_exported(store)
    report = store.import_sessions(lines, existing="replace")
    assert report.removed == 0 and current(store, s) == [ALLERGY]


@pytest.mark.parametrize("removed", [True, False])
def test_importing_another_assistants_history_brings_back_no_fact_the_user_removed(
    store: MemoryStore, removed: bool
) -> None:
    from localmem.exports import Conversation
    from localmem.exports.common import Turn

    s = store.create_session().id
    said = store.add_message(s, "user", ALLERGY)
    if removed:
        store.delete_message(said.id)  # the fact goes with its message
    t = "2026-01-05T10:00:00.000Z"
    old = Conversation("c1", "antibiotics", None, t, t, (
        Turn("user", ALLERGY, t), Turn("assistant", "Then amoxicillin is out too.", t),
    ))
    report = store.import_conversations([old])
    assert report.removed == (1 if removed else 0)
    assert current(store, store.create_session().id) == ([] if removed else [ALLERGY])


def test_the_cli_import_says_which_removed_facts_it_left_out(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from localmem.cli import cli

    path = tmp_path / "m.db"
    with MemoryStore(path) as store:
        s, lines = said_then_exported(store)
        store.unpin(store.get_pins(s)[0].id)
    (tmp_path / "old.jsonl").write_text("".join(x if x.endswith("\n") else x + "\n" for x in lines), encoding="utf-8")
    out = CliRunner().invoke(cli, ["import", str(tmp_path / "old.jsonl"), "--replace", "--db", str(path)])
    assert out.exit_code == 0, out.output
    assert "1 automatic pin(s) left out" in out.output
    with MemoryStore(path) as store:
        assert current(store, s) == []


NEW_TABLET = "My new blood pressure tablet is amlodipine 5 mg each morning"


@pytest.mark.parametrize("forgotten", ["first source", "second source", "another message"])
def test_forgetting_either_message_of_a_models_update_brings_back_what_it_replaced(
    db_path: Path, json_fake, forgotten: str
) -> None:
    """A model's update built from two of the user's messages ("New blood pressure tablet:
    amlodipine." then "Dose is 5 mg each morning.") names both (``pin_sources``) and ends
    what it replaced by both: forgetting either removes the update and makes the old
    fact current again, not gone from every context. Forgetting a message the update does
    not rest on changes neither."""
    json_fake.json_reply = {
        "must_remember": [NEW_TABLET],
        "updates": [{"new": NEW_TABLET, "old": TAKES.rstrip(".")}],
    }
    config = {"summary_threshold": 4, "structured_min_tokens": 0, "model_trust": "checked"}
    with MemoryStore(db_path, config=config) as store:
        s = store.create_session(model="llama3.2").id
        ids = [m.id for m in store.add_messages(s, [
            {"role": "user", "text": TAKES},
            {"role": "assistant", "text": "Noted."},
            {"role": "user", "text": "The garden needs watering."},
            {"role": "assistant", "text": "Sure."},
            {"role": "user", "text": "New blood pressure tablet: amlodipine."},
            {"role": "assistant", "text": "OK."},
            {"role": "user", "text": "Dose is 5 mg each morning."},
            {"role": "assistant", "text": "Noted."},
            *filler_turns(4),
        ])]
        while store.summarize(s) is not None:
            pass
        assert current(store, s) == [NEW_TABLET]
        store.delete_message({"first source": ids[4], "second source": ids[6], "another message": ids[2]}[forgotten])
        assert current(store, s) == ([NEW_TABLET] if forgotten == "another message" else [TAKES])


def filler_turns(n: int) -> list[dict[str, str]]:
    return [filler(i) for i in range(100, 100 + n)]


@pytest.mark.parametrize("changed", [False, True])
def test_replacing_a_session_by_import_keeps_what_rests_on_its_messages(
    store: MemoryStore, changed: bool
) -> None:
    """``import_sessions(..., existing="replace")`` deletes the session and imports it anew.
    The user's facts learnt from it (kept outside the session) and the pins its updates
    ended follow its messages when the import brings them again: forgetting the update
    afterwards still brings the old fact back, instead of leaving the update a fact of
    the user's with no message at all. A message the import does not bring again (an
    export of another version) takes them as a forget would."""
    said = store.create_session().id
    store.add_message(said, "user", TAKES)
    changed_in = store.create_session().id
    store.add_message(changed_in, "user", STOPPED)
    lines = list(store.export_sessions([changed_in]))
    if changed:  # an export of another version of the session: the update is not in it
        with MemoryStore(":memory:") as elsewhere:
            elsewhere.create_session(session_id=changed_in)
            elsewhere.add_message(changed_in, "user", "The garden needs watering.")
            lines = list(elsewhere.export_sessions([changed_in]))
    report = store.import_sessions(lines, existing="replace")
    assert report.replaced == [changed_in]
    if changed:
        assert current(store, said) == [TAKES]
        return
    assert current(store, said) == [STOPPED]
    assert all(p.source_message_id is not None for p in store.get_pins(None, history=True))
    [update] = store.get_messages(changed_in)
    store.delete_message(update.id)
    assert current(store, said) == [TAKES]


@pytest.mark.parametrize("forget", ["delete_message", "clear_messages", "delete_session"])
def test_an_untrusted_checkpoint_racing_a_forget_counts_nothing(
    tmp_path: Path, fake: QuotingFake, forget: str
) -> None:
    """Under the default, the model's checkpoint is judged and the rules' stored: a forget
    during the call discards the verdict with the checkpoint (the verdict is written in
    the transaction that checks the forget mark), and nothing quotes the forgotten text."""
    word = fake.word = new_marker()
    path = tmp_path / "memory.db"
    store = MemoryStore(path, config={**CONFIG, "model_trust": "earned"})
    sid = store.create_session(model="llama3.2").id
    mid = told(store, sid, word)
    forgets = {
        "delete_message": lambda: store.delete_message(mid),
        "clear_messages": lambda: store.clear_messages(sid),
        "delete_session": lambda: store.delete_session(sid),
    }
    race(fake, lambda: store.checkpoint(sid), forgets[forget])
    assert [t for t in store.model_trust() if t.kind == "checkpoint"] == []
    nowhere(store, path, sid, word)


def test_an_export_carries_no_verdict(db_path: Path, fake_ollama, tmp_path: Path) -> None:
    """A model's record is this file's: an export holds none, an import makes none."""
    from tests.test_earned import conversation

    with MemoryStore(db_path, config={"recent_summaries": 0}) as store:
        s = store.create_session(model="llama3.2").id
        store.add_messages(s, conversation(15))
        store.summarize(s)
        assert store.model_trust() != []
        lines = list(store.export_sessions([s]))
    assert not any("verdict" in line or "kept_whole" in line for line in lines)
    with MemoryStore(tmp_path / "other.db") as other:
        other.import_sessions(lines)
        assert other.model_trust() == []


@pytest.mark.parametrize("scope", ["session", "user"])
def test_the_assistants_pin_brings_back_no_fact_the_user_removed(store: MemoryStore, scope: str) -> None:
    """A pin asked on the assistant's word (``by="assistant"``: an MCP client's
    ``remember_fact``) is not the user's own act: a fact the user removed needs the user's
    message saying it since; the user's own manual pin is made (tests/test_removed_facts.py)."""
    from localmem.errors import FactRemoved

    s = store.create_session().id
    said = store.add_message(s, "user", ALLERGY)
    [fact] = store.get_pins(s)
    store.unpin(fact.id)
    with pytest.raises(FactRemoved, match="on the assistant's word"):
        store.pin(s, ALLERGY, scope=scope, by="assistant")
    with pytest.raises(FactRemoved):
        store.pin(s, ALLERGY, said.id, scope=scope, by="assistant")  # said before the removal
    assert current(store, s) == []
    again = store.add_message(s, "user", "To be clear: penicillin, I'm allergic.")
    pinned = store.pin(s, ALLERGY, again.id, scope=scope, by="assistant")
    assert pinned.kind == "manual" and ALLERGY in current(store, s)


def test_the_assistants_pin_of_a_fact_never_removed_is_made(store: MemoryStore) -> None:
    s = store.create_session().id
    assert store.pin(s, "Answer in short sentences.", by="assistant").kind == "manual"


def test_an_mcp_client_cannot_pin_again_what_the_user_removed(db_path: Path) -> None:
    pytest.importorskip("mcp")
    from tests.test_mcp import connect, ok, run

    with MemoryStore(db_path) as store:
        store.create_session(session_id="chat")
        store.add_message("chat", "user", ALLERGY)
        store.unpin(store.get_pins("chat")[0].id)

    async def main() -> None:
        async with connect(db_path, "--session", "chat") as client:
            refused = await client.call_tool("remember_fact", {"fact": ALLERGY, "scope": "user"})
            assert refused.isError and "the user removed this fact" in refused.content[0].text
            said = await ok(client, "remember", text="Yes, I'm still allergic to penicillin.")
            message_id = int(said.split("#")[1].split()[0])
            pinned = await ok(client, "remember_fact", fact=ALLERGY, scope="user", said_in=message_id)
            assert pinned.startswith("Pinned fact #")

    run(main)
    with MemoryStore(db_path) as store:
        assert ALLERGY in [p.content for p in store.get_pins(None)]


@pytest.mark.parametrize("forget", ["clear_messages", "delete_session"])
def test_forgetting_an_update_and_a_repetition_of_the_old_fact_keeps_the_old_fact(
    store: MemoryStore, forget: str
) -> None:
    """The fact said in one chat, ended in another, then said again there: forgetting that
    chat takes the update and the repetition, and the fact as first said is current again:
    the repetition going does not keep it in history. (Forgetting the repetition alone
    first, then the update, gives the same: below.)"""
    said = store.create_session().id
    store.add_message(said, "user", TAKES)
    other = store.create_session().id
    store.add_message(other, "user", STOPPED)
    store.add_message(other, "user", TAKES)
    {
        "clear_messages": lambda: store.clear_messages(other),
        "delete_session": lambda: store.delete_session(other),
    }[forget]()
    assert current(store, said) == [TAKES]


@pytest.mark.parametrize("forget_update", ["delete_message", "clear_messages", "delete_session"])
def test_forgetting_the_repetition_then_the_update_brings_back_the_first_statement(
    store: MemoryStore, forget_update: str
) -> None:
    """The fact said in one chat, ended by an update in another, said again there, then
    the repetition forgotten first and the update after: forgetting a message is
    forgetting that message, not the fact as first said, so the order of the two forgets
    does not matter (forgetting both at once restores it, above). The first statement
    is current again."""
    said = store.create_session().id
    store.add_message(said, "user", TAKES)
    other = store.create_session().id
    update = store.add_message(other, "user", STOPPED)
    repeated = store.add_message(other, "user", TAKES)
    store.delete_message(repeated.id)
    assert current(store, said) == [STOPPED]
    {
        "delete_message": lambda: store.delete_message(update.id),
        "clear_messages": lambda: store.clear_messages(other),
        "delete_session": lambda: store.delete_session(other),
    }[forget_update]()
    assert current(store, said) == [TAKES]


def test_unpinning_the_repetition_then_forgetting_the_update_keeps_the_fact_removed(store: MemoryStore) -> None:
    """The negative case: the user removed the fact itself (an unpin of the repetition),
    so forgetting the update later brings nothing back."""
    said = store.create_session().id
    store.add_message(said, "user", TAKES)
    other = store.create_session().id
    update = store.add_message(other, "user", STOPPED)
    store.add_message(other, "user", TAKES)
    [again] = [p for p in store.get_pins(other) if p.content == TAKES]
    store.unpin(again.id)
    store.delete_message(update.id)
    assert current(store, said) == []


def test_forgetting_the_only_message_of_a_fact_keeps_it_removed_from_a_models_summary(
    store: MemoryStore,
) -> None:
    """The tombstone a forget leaves stays when no message of the fact is left: a
    model's fact resting on older messages may not pin it again (``Pins.pin`` with a
    source before the forget is refused on the assistant's word)."""
    from localmem.errors import FactRemoved

    s = store.create_session().id
    before = store.add_message(s, "user", "Hello there.")
    said = store.add_message(s, "user", TAKES)
    store.delete_message(said.id)
    with pytest.raises(FactRemoved):
        store.pin(s, TAKES, before.id, scope="user", by="assistant")


def test_an_imports_counts_say_what_landed(store: MemoryStore, tmp_path: Path) -> None:
    """``ImportReport.counts`` says what the import wrote: a pin it left out (its fact
    removed here) is not counted as a pin imported; the same export imported into
    another file counts the pin it writes there (the negative case)."""
    s, lines = said_then_exported(store)
    store.unpin(store.get_pins(s)[0].id)
    report = store.import_sessions(lines, existing="replace")
    assert report.removed == 1 and report.counts == {"session": 1, "message": 2}
    assert store.get_pins(s, history=True) == []
    with MemoryStore(tmp_path / "other.db") as other:
        report = other.import_sessions(lines)
        assert report.counts == {"session": 1, "message": 2, "pin": 1}
        assert current(other, s) == [ALLERGY]


def test_an_import_beside_the_users_fact_counts_no_second_pin(store: MemoryStore) -> None:
    """Imported beside the session it came from (``rename``), the user's fact is there
    already: the import writes no second pin, and counts none."""
    s, lines = said_then_exported(store)
    report = store.import_sessions(lines, existing="rename")
    [(_, new)] = report.sessions
    assert current(store, new) == [ALLERGY] and len(store.get_pins(None, history=True)) == 1
    assert report.counts.get("pin", 0) == 0


def test_the_cli_import_counts_no_pin_it_left_out(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from localmem.cli import cli

    path = tmp_path / "m.db"
    with MemoryStore(path) as store:
        s, lines = said_then_exported(store)
        store.unpin(store.get_pins(s)[0].id)
    (tmp_path / "old.jsonl").write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    out = CliRunner().invoke(cli, ["import", str(tmp_path / "old.jsonl"), "--replace", "--db", str(path)])
    assert out.exit_code == 0, out.output
    assert "1 sessions: message 2\n" in out.output


def another_version(session_id: str) -> list[str]:
    """An export of another version of the session: the word is not in it."""
    with MemoryStore(":memory:") as elsewhere:
        elsewhere.create_session(session_id=session_id)
        elsewhere.add_messages(session_id, [filler(i) for i in range(40, 44)])
        return list(elsewhere.export_sessions([session_id]))


def told_in_a_file(tmp_path: Path, fake: QuotingFake) -> tuple[MemoryStore, Path, str, str]:
    """A store on a file, a session whose first message holds a new word the model quotes."""
    word = fake.word = new_marker()
    path = tmp_path / "memory.db"
    store = MemoryStore(path, config=CONFIG)
    sid, _ = told_session(store, word)
    return store, path, sid, word


def told_session(store: MemoryStore, word: str) -> tuple[str, int]:
    """A new session: the message holding ``word``, then seven turns; (its id, the message's)."""
    sid = store.create_session(model="llama3.2").id
    mid = told(store, sid, word)
    store.add_messages(sid, [filler(i) for i in range(4, 8)])
    return sid, mid


def test_replacing_a_session_by_import_leaves_no_byte_of_its_old_text(tmp_path: Path, fake: QuotingFake) -> None:
    """``existing="replace"`` deletes the old session: its text leaves the file as a
    forget's does (the full-text indexes merged, the summary cache emptied, the log
    emptied), not only its rows."""
    store, path, sid, word = told_in_a_file(tmp_path, fake)
    store.summarize(sid)
    assert any(holds(s.text, word) for s in store.get_summaries(sid))
    report = store.import_sessions(another_version(sid), existing="replace")
    assert report.replaced == [sid]
    nowhere(store, path, sid, word)


@pytest.mark.parametrize("path_name", ["summarize", "checkpoint"])
def test_a_model_call_racing_an_import_replace_stores_nothing_of_the_old_text(
    tmp_path: Path, fake: QuotingFake, path_name: str
) -> None:
    """A summary or checkpoint computed from the session's old messages while an import
    replaced it is discarded when it would be stored (the replace raises the forget
    mark, as a forget does)."""
    store, path, sid, word = told_in_a_file(tmp_path, fake)
    lines = another_version(sid)
    call = {"summarize": lambda: store.summarize(sid), "checkpoint": lambda: store.checkpoint(sid)}
    race(fake, call[path_name], lambda: store.import_sessions(lines, existing="replace"))
    nowhere(store, path, sid, word)


@pytest.mark.parametrize("update_in", ["another session", "the same session"])
def test_an_import_reports_the_facts_it_keeps_in_history_for_good(
    store: MemoryStore, tmp_path: Path, update_in: str
) -> None:
    """A superseded pin whose update was said in another session lands in history with
    nothing that could make it current again (an export links a pin only to its own
    session's messages): the report says how many (``ended_elsewhere``), and the CLI
    too. An update in the same session is carried, and forgetting it restores the fact."""
    said = store.create_session().id
    store.add_message(said, "user", TAKES)
    changed = store.create_session().id if update_in == "another session" else said
    store.add_message(changed, "user", STOPPED)
    lines = list(store.export_sessions([said]))
    with MemoryStore(tmp_path / "other.db") as other:
        report = other.import_sessions(lines)
        if update_in == "another session":
            assert report.ended_elsewhere == 1
            assert [p.content for p in other.get_pins(said, history=True)] == [TAKES]
            return
        assert report.ended_elsewhere == 0
        [update] = [m for m in other.get_messages(said) if m.text == STOPPED]
        other.delete_message(update.id)
        assert current(other, said) == [TAKES]


def test_the_cli_import_says_which_facts_stay_in_history(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from localmem.cli import cli

    with MemoryStore(tmp_path / "m.db") as store:
        said = store.create_session().id
        store.add_message(said, "user", TAKES)
        store.add_message(store.create_session().id, "user", STOPPED)
        lines = list(store.export_sessions([said]))
    (tmp_path / "old.jsonl").write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    out = CliRunner().invoke(cli, ["import", str(tmp_path / "old.jsonl"), "--db", str(tmp_path / "new.db")])
    assert out.exit_code == 0, out.output
    assert "1 superseded pin(s) kept in history for good" in out.output


def test_replacing_a_conversation_of_another_assistant_racing_a_checkpoint_stores_nothing_of_the_old_text(
    tmp_path: Path, fake: QuotingFake
) -> None:
    """``import_conversations(..., existing="replace")`` (a ChatGPT or Claude history
    imported again) replaces the session as ``import_sessions`` does: a checkpoint computed
    from the old turns meanwhile is discarded, and no byte of them stays."""
    from localmem.exports import Conversation
    from localmem.exports.common import Turn

    word = fake.word = new_marker()
    path = tmp_path / "memory.db"
    store = MemoryStore(path, config=CONFIG)
    t = "2026-01-05T10:00:00.000Z"

    def version(*texts: str) -> Conversation:
        turns = [Turn("user" if k % 2 == 0 else "assistant", x, t) for k, x in enumerate(texts)]
        return Conversation("c1", "garden", "llama3.2", t, t, tuple(turns))

    fillers = [filler(i)["text"] for i in range(1, 8)]
    [(_, sid)] = store.import_conversations([version(f"My locker code is {word} now.", *fillers)]).sessions
    newer = version("The garden needs watering.", *fillers)
    fake.gate_when = lambda body: word in json.dumps(body)
    race(fake, lambda: store.checkpoint(sid), lambda: store.import_conversations([newer], existing="replace"))
    nowhere(store, path, sid, word)
