"""ChatGPT and Claude data exports in: through the Python API and the command line, on
real files (tests/data/exports: both real formats, with a regenerated answer, an
edited question, hidden system and context messages, an image part, attached
files, a tool message, hidden reasoning and non-Latin text)."""

from __future__ import annotations

import copy
import json
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from localmem import MemoryStore
from localmem.cli import cli
from localmem.errors import InvalidInput

DATA = Path(__file__).parent / "data" / "exports"
CHATGPT = DATA / "chatgpt_conversations.json"
CLAUDE = DATA / "claude_conversations.json"
PEANUTS = "6650a1b2-0000-4000-8000-000000000001"
TOKYO = "6650a1b2-0000-4000-8000-000000000002"
MEDS = "0c4d8e2a-1111-4c2b-9a55-2f0e6c1a7b01"
HAIKU = "0c4d8e2a-2222-4c2b-9a55-2f0e6c1a7b02"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def everything(store: MemoryStore) -> str:
    """Every message's text in the file, to look for what must not be there."""
    return "\n".join(m.text for s in store.list_sessions() for m in store.get_messages(s.id))


def test_chatgpt_export_becomes_sessions_of_the_current_branch(store: MemoryStore) -> None:
    report = store.import_file(CHATGPT)
    assert [old for old, _new in report.sessions] == [PEANUTS, TOKYO]  # oldest first
    session = store.get_session(PEANUTS)
    assert session.title == "Peanut allergy and school lunch" and session.model == "gpt-4o"
    assert session.created_at == "2024-06-10T06:13:20.123Z"
    messages = store.get_messages(PEANUTS)
    assert [m.role for m in messages] == ["user", "assistant", "user", "assistant", "tool", "assistant"]
    assert messages[0].text.startswith("My son Tom is allergic to peanuts.")
    assert messages[0].created_at == "2024-06-10T06:13:30.500Z"  # each message its own time
    assert messages[1].text == "Try hummus wraps.\nCheese and crackers, or sunflower-seed butter sandwiches."
    assert messages[1].model_id == "gpt-4o" and messages[5].model_id == "o3" and messages[0].model_id is None
    assert messages[2].text == "[image]\nIs this granola bar safe for him?\n[file: school-menu.pdf]"
    assert messages[4].text == "The label says: may contain traces of peanuts."
    text = everything(store)
    for absent in ("REGENERATED-AWAY", "EDITED-AWAY", "HIDDEN-REASONING", "I live in Leeds"):
        assert absent not in text  # other branches, hidden reasoning, hidden context
    tokyo = store.get_messages(TOKYO)
    assert [m.text for m in tokyo] == ["来月、東京で三日間過ごします。おすすめの美術館は？", "森美術館と東京国立博物館がおすすめです。"]
    assert store.get_session(TOKYO).title == "東京旅行の計画"
    assert store.search("granola")  # the search index takes imported rows


def test_a_fact_said_in_an_old_chat_becomes_the_users_with_its_source_and_date(store: MemoryStore) -> None:
    store.import_file(CHATGPT)
    facts = store.memory_report().user_facts
    allergy = [f for f in facts if "allergic to peanuts" in f.pin.content]
    assert len(allergy) == 1
    said = store.get_messages(PEANUTS)[0]
    assert allergy[0].pin.source_message_id == said.id
    assert allergy[0].pin.created_at == said.created_at == allergy[0].said_at
    assert said.importance_score >= store.config.auto_pin_importance
    other = store.create_session()
    assert "allergic to peanuts" in str(store.build_context(other.id).to_messages())


def test_claude_export_through_the_command_line(db_path: Path) -> None:
    code, out = run("import", str(CLAUDE), "--db", str(db_path))
    assert code == 0, out
    assert "Imported 2 conversations from a Claude export: 6 messages" in out
    with MemoryStore(db_path) as store:
        meds = store.get_messages(MEDS)
        assert [m.role for m in meds] == ["user", "assistant", "user", "user"]
        assert meds[0].text.endswith("\n[file: prescription.txt]")  # in attachments and files: once
        assert meds[1].text.startswith("[tool use: web_search]\n[tool result: web_search]\nIbuprofen")
        assert meds[2].text == "[file: knee-xray.png]"
        assert meds[3].text == "Спасибо! Я спрошу врача завтра." and meds[3].created_at == "2024-05-02T08:20:30.333Z"
        assert "HIDDEN-THINKING" not in everything(store)
        assert store.get_session(MEDS).title == "Mum's medication schedule"
        assert store.get_session(HAIKU).title is None
        assert [m.text for m in store.get_messages(HAIKU)][0] == "Write a haiku about rain."


@pytest.mark.parametrize("export", [CHATGPT, CLAUDE])
def test_the_zip_as_downloaded_is_read_by_content(export: Path, tmp_path: Path, db_path: Path) -> None:
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("user.json", "{}")
        z.writestr("chat.html", "<html></html>")
        z.write(export, "data-2026/conversations.json")
    code, out = run("import", str(archive), "--db", str(db_path))
    assert code == 0, out
    with MemoryStore(db_path) as store, MemoryStore(tmp_path / "direct.db") as direct:
        direct.import_file(export)
        assert everything(store) == everything(direct) != ""


def test_a_split_chatgpt_export_is_read_in_the_order_of_its_parts(tmp_path: Path, db_path: Path) -> None:
    """ChatGPT's larger exports (2026) split conversations.json into numbered parts
    (conversations-000.json, -001, ...) beside export_manifest.json, user.json and
    chat.html: every part is read, in the order of its number, as one list."""
    conversations = json.loads(CHATGPT.read_text(encoding="utf-8"))
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("export_manifest.json", "{}")
        z.writestr("user.json", "{}")
        z.writestr("chat.html", "<html></html>")
        # Stored out of order, with a part of another folder and macOS's resource forks.
        z.writestr("conversations-001.json", json.dumps(conversations[1:]))
        z.writestr("conversations-000.json", json.dumps(conversations[:1]))
        z.writestr("old/conversations-002.json", "not read")
        z.writestr("__MACOSX/._conversations-000.json", "junk")
    code, out = run("import", str(archive), "--db", str(db_path))
    assert code == 0, out
    assert "Imported 2 conversations from a ChatGPT export" in out
    with MemoryStore(db_path) as store, MemoryStore(tmp_path / "direct.db") as direct:
        direct.import_file(CHATGPT)
        assert everything(store) == everything(direct) != ""
        assert [s.id for s in store.list_sessions()] == [s.id for s in direct.list_sessions()]
    # A broken part is named, and nothing is written.
    broken = tmp_path / "broken.zip"
    with zipfile.ZipFile(broken, "w") as z:
        z.writestr("conversations-000.json", json.dumps(conversations[:1]))
        z.writestr("conversations-001.json", "[{")
    code, out = run("import", str(broken), "--db", str(tmp_path / "broken.db"))
    assert code == 1 and "conversations-001.json is not valid JSON" in out
    assert not (tmp_path / "broken.db").exists()


def test_reimporting_skips_or_replaces_and_refuses_by_default(db_path: Path) -> None:
    assert run("import", str(CHATGPT), "--db", str(db_path))[0] == 0
    with MemoryStore(db_path) as store:
        before = everything(store)
        store.delete_message(store.get_messages(PEANUTS)[0].id)
    code, out = run("import", str(CHATGPT), "--db", str(db_path))
    assert code == 1 and "already exists; nothing was imported" in out and len(out.strip().splitlines()) == 1
    code, out = run("import", "--skip-existing", str(CHATGPT), "--db", str(db_path))
    assert code == 0 and "Imported 0 conversations" in out and "2 skipped" in out
    with MemoryStore(db_path) as store:
        assert len(store.get_messages(PEANUTS)) == 5  # nothing added
    code, out = run("import", "--replace", str(CHATGPT), "--db", str(db_path))
    assert code == 0 and "(2 replaced)" in out
    with MemoryStore(db_path) as store:
        assert everything(store) == before
        assert len(store.list_sessions()) == 2


def chatgpt_chat(n: int, cid: str = "long-chat") -> dict:
    """A ChatGPT conversation of ``n`` messages on one branch."""
    mapping: dict = {"root": {"id": "root", "message": None, "parent": None, "children": []}}
    parent = "root"
    for k in range(n):
        role = "user" if k % 2 == 0 else "assistant"
        node = f"m{k}"
        mapping[parent]["children"].append(node)
        mapping[node] = {
            "id": node, "parent": parent, "children": [],
            "message": {"id": node, "author": {"role": role}, "create_time": 1_700_000_000 + 60 * k,
                        "content": {"content_type": "text", "parts": [f"Message {k} about the garden plan number {k}."]},
                        "metadata": {}},
        }
        parent = node
    return {"id": cid, "title": "Long", "create_time": 1_700_000_000, "mapping": mapping, "current_node": parent}


def test_long_chats_get_offline_summaries_and_a_rollup(tmp_path: Path) -> None:
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps([chatgpt_chat(47), chatgpt_chat(9, "short")]))
    with MemoryStore(tmp_path / "m.db", config={"summary_threshold": 10, "recent_summaries": 2}) as store:
        report = store.import_file(export)
        assert report.counts["summary"] == 5
        summaries = store.get_summaries("long-chat")
        ids = [m.id for m in store.get_messages("long-chat")]
        level1 = [s for s in summaries if s.level == 1]
        assert [(s.start_message_id, s.end_message_id) for s in level1] == [
            (ids[k], ids[k + 9]) for k in (0, 10, 20, 30)
        ]  # 47 messages: four full ranges, the last 7 stay uncovered as they would live
        assert {s.source for s in summaries} == {"offline"}  # resummarize redoes them with a model
        (rollup,) = [s for s in summaries if s.level == 2]
        assert (rollup.start_message_id, rollup.end_message_id, rollup.message_count) == (ids[0], ids[29], 30)
        assert len(store.get_summary_facts("long-chat")) == 4
        assert store.get_summaries("short") == []
        assert not store.needs_summarization("long-chat")


@pytest.mark.parametrize(
    "source, edit, expected",
    [
        (CHATGPT, lambda d: d[1].update(current_node="nowhere"),
         f"conversation 1 ('{TOKYO}'): current_node: 'nowhere' names no node of mapping"),
        (CHATGPT, lambda d: d[0]["mapping"]["u2"]["message"].pop("author"),
         f"conversation 0 ('{PEANUTS}'): mapping['u2'].message.author: missing"),
        (CHATGPT, lambda d: d[0]["mapping"]["a1"].update(parent="gone"),
         f"conversation 0 ('{PEANUTS}'): mapping['a1'].parent: 'gone' names no node of mapping"),
        (CHATGPT, lambda d: d[0]["mapping"]["u1"]["message"]["author"].update(role="critic"),
         f"conversation 0 ('{PEANUTS}'): mapping['u1'].message.author.role: 'critic' is not one of"),
        (CLAUDE, lambda d: d[0]["chat_messages"][1].pop("sender"),
         f"conversation 0 ('{MEDS}'): chat_messages[1].sender: missing"),
        (CLAUDE, lambda d: d[1]["chat_messages"][0].pop("created_at"),
         f"conversation 1 ('{HAIKU}'): chat_messages[0].created_at: null, not an ISO-8601 time"),
        (CLAUDE, lambda d: d[0].update(current_leaf_message_uuid="nope"),
         f"conversation 0 ('{MEDS}'): current_leaf_message_uuid: 'nope' names no message"),
    ],
)
def test_a_malformed_export_is_refused_in_one_line_naming_the_conversation_and_the_field(
    source: Path, edit, expected: str, tmp_path: Path  # noqa: ANN001
) -> None:
    data = json.loads(source.read_text(encoding="utf-8"))
    edit(data)
    bad = tmp_path / "conversations.json"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with MemoryStore(tmp_path / "api.db") as store:
        with pytest.raises(InvalidInput) as caught:
            store.import_file(bad)
        assert str(caught.value).startswith(expected)
        assert store.list_sessions() == []  # nothing written, not even the good conversation
    code, out = run("import", str(bad), "--db", str(tmp_path / "cli.db"))
    assert code == 1 and out.startswith(f"Error: {expected}") and len(out.strip().splitlines()) == 1


def test_claude_branches_follow_the_current_leaf(store: MemoryStore, tmp_path: Path) -> None:
    data = json.loads(CLAUDE.read_text(encoding="utf-8"))
    chat = data[1]
    first, answer = chat["chat_messages"]
    retry = copy.deepcopy(answer) | {"uuid": "retry", "text": "Grey clouds gather low"}
    first["parent_message_uuid"] = "00000000-0000-4000-8000-000000000000"
    answer["parent_message_uuid"] = retry["parent_message_uuid"] = first["uuid"]
    chat["chat_messages"].append(retry)
    chat["current_leaf_message_uuid"] = "retry"
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([chat]))
    store.import_file(path, format="claude")
    assert [m.text for m in store.get_messages(HAIKU)] == ["Write a haiku about rain.", "Grey clouds gather low"]


def test_the_format_asked_for_must_be_the_files(store: MemoryStore, tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="this is a Claude export, not a ChatGPT export"):
        store.import_file(CLAUDE, format="chatgpt")
    other = tmp_path / "conversations.json"
    other.write_text('[{"messages": []}]')
    with pytest.raises(InvalidInput, match="not a ChatGPT or Claude export"):
        store.import_file(other)
    other.write_text('[{"mapping": {}, "broken"')
    with pytest.raises(InvalidInput, match="conversations.json is not valid JSON: line 1"):
        store.import_file(other)
    assert store.list_sessions() == []


def test_a_localmem_export_still_imports_through_import_file(store: MemoryStore, tmp_path: Path) -> None:
    store.import_file(CLAUDE)
    out = tmp_path / "x.jsonl"
    out.write_text("\n".join(store.export_sessions()) + "\n", encoding="utf-8")
    with MemoryStore(tmp_path / "copy.db") as copy_store:
        report = copy_store.import_file(out)
        assert report.verified and everything(copy_store) == everything(store)


def test_a_conversation_refused_by_the_store_leaves_no_new_database_file(tmp_path: Path) -> None:
    """Read whole, then refused while the store checks it (a time in the future): the
    file the command would have created is not left behind, empty."""
    chat = chatgpt_chat(4)
    chat["create_time"] = 4_000_000_000  # the year 2096
    bad = tmp_path / "conversations.json"
    bad.write_text(json.dumps([chat]), encoding="utf-8")
    target = tmp_path / "new.db"
    code, out = run("import", str(bad), "--db", str(target))
    assert code == 1 and "conversation 0" in out and len(out.strip().splitlines()) == 1
    assert not target.exists()
