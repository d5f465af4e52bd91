"""Every line of a checkpoint and of a summary's facts names the messages it rests on
(issue 21 point 4): ``store.line_sources``, the ``checkpoint_sources`` and
``fact_sources`` tables and their ``line_sources`` view, kept through forgets and
migrations; ``localmem.sources`` (pure)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from localmem import LineSource, MemoryStore
from localmem.cli import cli
from localmem.migrations import SCHEMA_VERSION
from localmem.models import CheckpointData, FactsData, WorkflowState
from localmem.sources import Span, by_text, checkpoint_items, checkpoint_sources, facts_sources
from tests.old_files import file_at_version
from tests.test_checkpoint import JsonFake

RULES_ONLY = {"structured_min_tokens": 1_000_000, "summary_threshold": 4}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[JsonFake]:
    with JsonFake() as server:
        monkeypatch.setenv("OLLAMA_HOST", server.host)
        yield server


def lines(store: MemoryStore, session_id: str, kind: str) -> dict[str, list[int]]:
    return {s.text: s.message_ids for s in store.line_sources(session_id) if s.kind == kind}


def dangling(path: Path) -> list[tuple]:
    """Source rows naming a message the file no longer holds."""
    with sqlite3.connect(path) as raw:
        return raw.execute(
            "SELECT kind, owner_id, item, message_id FROM line_sources "
            "WHERE message_id NOT IN (SELECT id FROM messages)"
        ).fetchall()


# --- the pure part ------------------------------------------------------------------


def test_a_name_is_quoted_as_a_word() -> None:
    span = Span([10, 11], ["Rows go in the users table.", "Only superusers may drop it."])
    assert span.quoting("users") == (10,)
    assert span.quoting("superusers") == (11,)
    assert span.quoting("admins") == ()


def test_a_model_s_line_rests_on_the_sentences_supporting_it() -> None:
    span = Span(
        [1, 2, 3],
        ["My mother takes warfarin every evening.", "Nice weather today.", "Can she take ibuprofen?"],
    )
    assert span.of("Mother takes warfarin each evening") == (1,)  # grounded, not quoted
    assert span.of("Never give ibuprofen") == ()  # the conversation says no such thing
    assert span.of("Whether she can take ibuprofen") == (3,)  # an open question: asked there
    allergy = Span([4, 5], ["I am allergic to penicillin since childhood.", "We went to Lisbon."])
    assert allergy.of("The user is allergic to penicillin") == (4,)  # "the user": the speaker
    assert allergy.of("The user is allergic to Lisbon") == ()


def test_a_carried_line_keeps_its_sources_and_a_state_line_names_none() -> None:
    previous = CheckpointData(user_preferences=["I prefer metric units."])
    carried = by_text(previous, {"$.user_preferences[0]": (4,)})
    data = CheckpointData(
        active_goals=["Ship v2"],  # the session state's goal: no message says it
        user_preferences=["I prefer metric units.", "Please answer briefly."],
    )
    span = Span([9, 12], ["Please answer briefly.", "ok"])
    found = checkpoint_sources(data, span, carried)
    assert found == {"$.user_preferences[0]": (4,), "$.user_preferences[1]": (9,)}


def test_a_model_line_takes_what_judged_it_and_the_lines_it_leaned_on() -> None:
    data = CheckpointData(
        key_decisions=["Use PostgreSQL for reports"],
        workflow_state=WorkflowState(current_step="Writing the reports export"),
    )
    carried = {"Use PostgreSQL for reports": (2,)}
    judged = {"Writing the reports export": ((7,), ("Use PostgreSQL for reports",))}
    found = checkpoint_sources(data, Span([7], ["I am writing the export now."]), carried, judged)
    assert found["$.workflow_state.current_step"] == (2, 7)
    assert [path for path, _ in checkpoint_items(data)] == [
        "$.key_decisions[0]", "$.workflow_state.current_step",
    ]


def test_facts_lines_name_every_message_saying_them() -> None:
    data = FactsData(key_facts=["The build takes 12 minutes."], entities=["ci.yml", "nowhere.txt"])
    span = Span([3, 4, 5], ["The build takes 12 minutes.", "Edit ci.yml first.", "The build takes 12 minutes."])
    assert facts_sources(data, span) == {"$.key_facts[0]": (3, 5), "$.entities[0]": (4,)}


# --- through the store --------------------------------------------------------------


def test_rules_lines_name_their_messages_and_the_view_reads_them(db_path: Path) -> None:
    with MemoryStore(db_path, config=RULES_ONLY) as store:
        s = store.create_session().id
        said = store.add_messages(s, [
            {"role": "user", "text": "I prefer concise answers."},
            {"role": "assistant", "text": "We decided to keep the logs in the events table."},
            {"role": "user", "text": "The nightly job takes 40 minutes."},
            {"role": "assistant", "text": "Noted."},
        ])
        store.set_goal(s, "Ship the nightly report")
        taken = store.checkpoint(s)
        assert store.summarize(s) is not None
        got = store.line_sources(s)
    assert all(isinstance(x, LineSource) for x in got)
    checkpoint = {x.text: x.message_ids for x in got if x.kind == "checkpoint"}
    assert checkpoint["I prefer concise answers."] == [said[0].id]
    assert checkpoint["We decided to keep the logs in the events table."] == [said[1].id]
    assert checkpoint["events"] == [said[1].id]  # a table's name, where it was said
    assert checkpoint["Ship the nightly report"] == []  # the state's goal: no message
    facts = {x.text: x.message_ids for x in got if x.kind == "facts"}
    assert facts["The nightly job takes 40 minutes."] == [said[2].id]
    with sqlite3.connect(db_path) as raw:  # what sqlite3 and Datasette show
        rows = raw.execute(
            "SELECT line, message_id FROM line_sources WHERE kind = 'checkpoint' AND owner_id = ?",
            (taken.id,),
        ).fetchall()
    assert ("I prefer concise answers.", said[0].id) in rows


def test_the_model_s_lines_name_the_messages_its_judgement_found(db_path: Path, fake: JsonFake) -> None:
    fake.json_reply = {
        "pending_tasks": ["Add CSV export to export.py"],  # quoted nowhere: grounded
        "user_preferences": ["short answers"],
    }
    with MemoryStore(db_path, config={"model_trust": "checked"}) as store:  # the checks' view
        s = store.create_session(model="llama3.2").id
        said = store.add_messages(s, [
            {"role": "user", "text": "Let's keep the reports in PostgreSQL."},
            {"role": "assistant", "text": "Fine. The CSV export goes in export.py."},
            {"role": "user", "text": "Short answers please. I am writing the CSV export now."},
        ])
        taken = store.checkpoint(s)
        got = lines(store, s, "checkpoint")
    assert taken.source == "llama3.2:latest"
    # Each of the two messages holds a sentence supporting the task on its own.
    assert got["Add CSV export to export.py"] == [said[1].id, said[2].id]
    assert got["short answers"] == [said[2].id]
    assert got["Let's keep the reports in PostgreSQL."] == [said[0].id]  # the rules' decision


def test_a_line_carried_forward_keeps_its_message(db_path: Path) -> None:
    with MemoryStore(db_path, config=RULES_ONLY) as store:
        s = store.create_session().id
        first = store.add_message(s, "user", "I prefer answers in British English.")
        store.checkpoint(s)
        store.add_messages(s, [{"role": "user", "text": "The data is in sales.csv."}])
        second = store.checkpoint(s)
        got = lines(store, s, "checkpoint")
    assert second.data.user_preferences == ["I prefer answers in British English."]
    assert got["I prefer answers in British English."] == [first.id]


def test_a_line_said_twice_names_both_and_a_forget_of_one_rewrites_it(db_path: Path) -> None:
    with MemoryStore(db_path, config=RULES_ONLY) as store:
        s = store.create_session().id
        one = store.add_message(s, "user", "Remember to renew the passport.")
        store.add_message(s, "assistant", "Sure.")
        two = store.add_message(s, "user", "Remember to renew the passport.")
        store.checkpoint(s)
        task = "Remember to renew the passport."
        assert lines(store, s, "checkpoint")[task] == [one.id, two.id]
        store.delete_message(one.id)
        assert lines(store, s, "checkpoint")[task] == [two.id]
        store.delete_message(two.id)
        assert task not in lines(store, s, "checkpoint")
        assert dangling(db_path) == []


def test_a_forget_rewrites_an_older_summary_s_fact_sources(db_path: Path) -> None:
    with MemoryStore(db_path, config=RULES_ONLY) as store:
        s = store.create_session().id
        said = store.add_messages(s, [
            {"role": "user", "text": "The boiler was serviced on 3 May."},
            {"role": "assistant", "text": "The warranty covers 24 months."},
            {"role": "user", "text": "Fine."},
            {"role": "assistant", "text": "Ok."},
        ])
        older = store.summarize(s)
        store.add_messages(s, [{"role": "user", "text": f"Turn {i}."} for i in range(4)])
        assert store.summarize(s) is not None
        assert lines(store, s, "facts")["The boiler was serviced on 3 May."] == [said[0].id]
        store.delete_message(said[0].id)
        facts = [x for x in store.line_sources(s) if x.kind == "facts" and x.owner_id == older.id]
    assert {x.text: x.message_ids for x in facts} == {"The warranty covers 24 months.": [said[1].id]}
    assert dangling(db_path) == []


def test_sources_go_with_their_owners(db_path: Path) -> None:
    with MemoryStore(db_path, config=RULES_ONLY) as store:
        s = store.create_session().id
        store.add_messages(s, [{"role": "user", "text": f"Invoice {i} totals 40 EUR."} for i in range(4)])
        store.checkpoint(s)
        store.summarize(s)
        store.clear_checkpoints(s)
        with sqlite3.connect(db_path) as raw:
            assert raw.execute("SELECT count(*) FROM checkpoint_sources").fetchone() == (0,)
            assert raw.execute("SELECT count(*) FROM fact_sources").fetchone()[0] > 0
        store.delete_session(s)
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("SELECT count(*) FROM fact_sources").fetchone() == (0,)


def test_a_file_of_the_previous_version_opens_and_records_sources_from_then_on(tmp_path: Path) -> None:
    data = CheckpointData(user_preferences=["I prefer tea."]).model_dump_json()
    path = file_at_version(tmp_path / "old.db", SCHEMA_VERSION - 1, [
        ("INSERT INTO sessions (id, title, model, created_at, updated_at) VALUES ('s', NULL, NULL, "
         "'2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')", ()),
        ("INSERT INTO messages (id, session_id, role, text, token_count, importance_score, created_at) "
         "VALUES (1, 's', 'user', 'I prefer tea.', 4, 0.5, '2026-01-01T00:00:00.000Z')", ()),
        ("INSERT INTO checkpoints (session_id, data, source, through_message_id, token_count, lines, "
         "created_at) VALUES ('s', ?, 'rules', 1, 5, ?, '2026-01-01T00:00:00.000Z')",
         (data, json.dumps([["Preference: I prefer tea.", 5, False]]))),
    ])
    with MemoryStore(path, config=RULES_ONLY) as store:
        assert lines(store, "s", "checkpoint") == {"I prefer tea.": []}  # stored before sources
        new = store.add_message("s", "user", "I prefer tea.")
        store.checkpoint("s")
        assert lines(store, "s", "checkpoint") == {"I prefer tea.": [new.id]}
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_cli_shows_each_line_s_messages(tmp_path: Path, dead_ollama_host, monkeypatch) -> None:
    path = tmp_path / "m.db"
    with MemoryStore(path, config=RULES_ONLY) as store:
        s = store.create_session().id
        said = store.add_message(s, "user", "I prefer metric units.")
        store.checkpoint(s)
    result = CliRunner().invoke(cli, ["checkpoint", "show", s, "--sources", "--db", str(path)])
    assert result.exit_code == 0, result.output
    assert f"Preference: I prefer metric units.  <- message {said.id}" in result.output
    plain = CliRunner().invoke(cli, ["checkpoint", "show", s, "--db", str(path)])
    assert "<- message" not in plain.output


def test_an_export_carries_each_line_s_messages_and_an_import_maps_them(tmp_path: Path) -> None:
    with MemoryStore(tmp_path / "a.db", config=RULES_ONLY) as a:
        s = a.create_session().id
        a.add_message(s, "user", "Padding before the session starts.")
        a.delete_message(a.get_messages(s)[0].id)  # the ids differ between the two files
        a.add_messages(s, [
            {"role": "user", "text": "I prefer metric units."},
            {"role": "assistant", "text": "The scale reads 3 kg."},
            {"role": "user", "text": "Remember to weigh the parcel."},
            {"role": "assistant", "text": "Ok."},
        ])
        a.checkpoint(s)
        assert a.summarize(s) is not None
        lines_out = list(a.export_sessions([s]))
        before = a.line_sources(s)
        texts = {m.id: m.text for m in a.get_messages(s)}
    kinds = {json.loads(line)["type"] for line in lines_out}
    assert {"checkpoint_source", "fact_source"} <= kinds
    with MemoryStore(tmp_path / "b.db", config=RULES_ONLY) as b:
        b.import_sessions(lines_out)
        after = b.line_sources(s)
        new_texts = {m.id: m.text for m in b.get_messages(s)}
    assert [(x.kind, x.item, x.text) for x in after] == [(x.kind, x.item, x.text) for x in before]
    assert [[new_texts[i] for i in x.message_ids] for x in after] == [
        [texts[i] for i in x.message_ids] for x in before
    ]
    assert any(x.message_ids for x in after)


def test_a_forget_in_a_summary_kept_without_facts_records_no_sources(db_path: Path) -> None:
    with MemoryStore(db_path, config=RULES_ONLY) as store:
        s = store.create_session().id
        said = store.add_messages(s, [{"role": "user", "text": f"Invoice {i} totals 40 EUR."} for i in range(8)])
        older = store.summarize(s)
        assert store.summarize(s) is not None
        with sqlite3.connect(db_path) as raw:  # as an import may bring it: a summary without facts
            raw.execute("PRAGMA foreign_keys = ON")
            raw.execute("DELETE FROM summary_facts WHERE id = ?", (older.id,))
        store.delete_message(said[0].id)  # rewrites that older summary by the rules
        assert [x for x in store.line_sources(s) if x.owner_id == older.id and x.kind == "facts"] == []
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("SELECT count(*) FROM fact_sources WHERE summary_id = ?", (older.id,)).fetchone() == (0,)
