"""localmem as an OpenAI Agents SDK session, proven with the SDK's real classes.

A real ``Runner`` runs a real ``Agent`` (with a real function tool) over a
model stub in the SDK's own testing style (``tests/agents_fakes.py``);
sessions are compared with the SDK's own ``SQLiteSession`` on the same
operations. Skipped when the SDK is not installed.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import Runner  # noqa: E402
from agents.memory import Session, SessionSettings, SQLiteSession  # noqa: E402
from click.testing import CliRunner  # noqa: E402

from localmem import MemoryStore  # noqa: E402
from localmem.cli import cli  # noqa: E402
from localmem.errors import Closed, InvalidInput, LocalMemError  # noqa: E402
from localmem.integrations.openai_agents import KIND, LocalMemSession  # noqa: E402
from tests.agents_fakes import (  # noqa: E402
    RUN_CONFIG,
    FakeModel,
    function_call,
    make_agent,
    reasoning,
    text_message,
)

ROOT = Path(__file__).resolve().parents[1]


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.fixture
def session(db_path: Path):
    with LocalMemSession("rosa", db_path) as s:
        yield s


# --- item shapes ------------------------------------------------------------------

# (item, the role and text of the localmem message that carries it)
SHAPES: dict[str, tuple[dict[str, Any], str, str]] = {
    "string content": ({"role": "user", "content": "Hi, I'm Rosa."}, "user", "Hi, I'm Rosa."),
    "developer": (
        {"type": "message", "role": "developer", "content": "Answer briefly."},
        "system",
        "Answer briefly.",
    ),
    "list of parts": (
        {
            "type": "message",
            "role": "user",
            "content": [
                {"type": "input_text", "text": "What is in this picture?"},
                {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=",
                 "detail": "auto"},
                {"type": "input_file", "filename": "notes.pdf",
                 "file_data": "data:application/pdf;base64,JVBERi0="},
            ],
        },
        "user",
        "What is in this picture?\n[image]\n[file notes.pdf]",
    ),
    "assistant output": (
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "status": "completed",
            "content": [
                {"type": "output_text", "text": "Amoxicillin is a penicillin.",
                 "annotations": [{"type": "url_citation", "url": "https://example.invalid",
                                  "title": "t", "start_index": 0, "end_index": 3}]},
                {"type": "refusal", "refusal": "I cannot prescribe."},
            ],
        },
        "assistant",
        "Amoxicillin is a penicillin.\nI cannot prescribe.",
    ),
    "function_call": (
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
         "arguments": '{"city": "Paris"}', "status": "completed"},
        "tool",
        '[tool call get_weather] {"city": "Paris"}',
    ),
    "function_call_output": (
        {"type": "function_call_output", "call_id": "call_1", "output": "Sunny, 22 degrees"},
        "tool",
        "[tool result call_1] Sunny, 22 degrees",
    ),
    "function_call_output with parts": (
        {"type": "function_call_output", "call_id": "call_2",
         "output": [{"type": "input_text", "text": "The chart:"},
                    {"type": "input_image", "image_url": "https://example.invalid/c.png"}]},
        "tool",
        "[tool result call_2] The chart:\n[image]",
    ),
    "reasoning": (
        {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAAAB...",
         "summary": [{"type": "summary_text", "text": "The user asks about an allergy."}]},
        "assistant",
        "[reasoning] The user asks about an allergy.",
    ),
    "reasoning without summary": (
        {"type": "reasoning", "id": "rs_2", "summary": []},
        "assistant",
        "[reasoning]",
    ),
    "custom tool call": (
        {"type": "custom_tool_call", "call_id": "call_3", "name": "apply_patch",
         "input": "*** Begin Patch"},
        "tool",
        "[tool call apply_patch] *** Begin Patch",
    ),
    "an item type of the future": (
        {"type": "hologram_call", "name": "beam", "arguments": {"to": "Mars", "n": 2}},
        "tool",
        '[hologram_call beam] {"to": "Mars", "n": 2}',
    ),
    "item reference": ({"type": "item_reference", "id": "msg_9"}, "assistant", "[item_reference]"),
    "unicode, NUL and numbers": (
        {"role": "assistant", "content": "café ☕ \x00 <|endoftext|>",
         "x": [0.1, 1e-300, 2**70, None, True]},
        "assistant",
        "café ☕ \x00 <|endoftext|>",
    ),
}


def test_is_an_agents_sdk_session(session: LocalMemSession) -> None:
    assert isinstance(session, Session)
    assert session.session_id == "rosa"
    assert session.session_settings == SessionSettings()


@pytest.mark.parametrize("name", list(SHAPES))
def test_each_item_shape_round_trips_and_its_text_is_a_message(
    session: LocalMemSession, name: str
) -> None:
    item, role, text = SHAPES[name]
    run(session.add_items([item]))
    assert run(session.get_items()) == [item]
    (message,) = session.store.get_messages("rosa")
    assert (message.role, message.text) == (role, text)
    assert message.token_count == session.store.count_tokens(text)


def test_all_shapes_in_one_batch_keep_their_order(session: LocalMemSession) -> None:
    items = [item for item, _, _ in SHAPES.values()]
    run(session.add_items(items))
    assert run(session.get_items()) == items
    texts = [m.text for m in session.store.get_messages("rosa")]
    # In one batch an output names the tool its call named.
    assert "[tool result get_weather] Sunny, 22 degrees" in texts


def test_items_sdk_objects_produce_round_trip(session: LocalMemSession) -> None:
    from agents.items import ModelResponse
    from agents.usage import Usage

    response = ModelResponse(
        output=[reasoning("Look it up."), function_call("get_weather", '{"city": "Oslo"}'),
                text_message("Cold in Oslo.")],
        usage=Usage(),
        response_id=None,
    )
    items = response.to_input_items()
    run(session.add_items(items))
    assert run(session.get_items()) == items


def test_item_json_is_readable_by_sqlite(session: LocalMemSession, db_path: Path) -> None:
    run(session.add_items([SHAPES["function_call"][0], SHAPES["string content"][0]]))
    rows = sqlite3.connect(db_path).execute(
        "SELECT kind, json_extract(data, '$.name'), json_extract(data, '$.role') FROM items"
        " ORDER BY message_id"
    ).fetchall()
    assert rows == [(KIND, "get_weather", None), (KIND, None, "user")]


@pytest.mark.parametrize("bad", [["not a dict"], [{"role": "user", "content": {1, 2}}]])
def test_a_bad_item_writes_nothing(session: LocalMemSession, bad: list) -> None:
    with pytest.raises(InvalidInput):
        run(session.add_items([{"role": "user", "content": "first"}, *bad]))
    assert run(session.get_items()) == []


# --- the same behaviour as the SDK's SQLiteSession ---------------------------------


async def _script(session: Any) -> list[Any]:
    """Every protocol operation, with what each returned."""
    items = [item for item, _, _ in SHAPES.values()]
    seen: list[Any] = [await session.get_items(), await session.pop_item()]
    await session.add_items([])
    await session.add_items(items[:5])
    await session.add_items(items[5:])
    for limit in (None, 1, 3, 0, -1, len(items), len(items) + 5):
        seen.append(await session.get_items(limit))
    seen += [await session.pop_item(), await session.pop_item(), await session.get_items(2)]
    await session.clear_session()
    seen += [await session.get_items(), await session.pop_item()]
    await session.add_items(items[:2])
    seen.append(await session.get_items())
    return seen


@pytest.mark.parametrize("settings", [None, {"limit": 3}, SessionSettings(limit=1)])
def test_behaves_like_the_sdks_sqlite_session(tmp_path: Path, settings: Any) -> None:
    ours = LocalMemSession("s", tmp_path / "ours.db", settings)
    theirs = SQLiteSession("s", tmp_path / "theirs.db", session_settings=settings)
    try:
        assert run(_script(ours)) == run(_script(theirs))
        assert ours.session_settings == theirs.session_settings
    finally:
        ours.close()
        theirs.close()


def test_settings_limit_applies_when_no_limit_is_given(db_path: Path) -> None:
    with LocalMemSession("s", db_path, {"limit": 2}) as s:
        run(s.add_items([{"role": "user", "content": str(i)} for i in range(5)]))
        assert [i["content"] for i in run(s.get_items())] == ["3", "4"]
        assert [i["content"] for i in run(s.get_items(4))] == ["1", "2", "3", "4"]


@pytest.mark.parametrize(
    "settings", [{"limit": 2, "lmit": 3}, {"colour": "red"}, {"limit": "many"}, ["limit", 2]]
)
def test_bad_settings_are_refused(db_path: Path, settings: Any) -> None:
    with pytest.raises(InvalidInput, match="settings"):
        LocalMemSession("s", db_path, settings)


@pytest.mark.parametrize("session_class", [SQLiteSession, LocalMemSession])
def test_unknown_settings_raise_the_sdks_type_error(session_class: Any) -> None:
    # The SDK's own test (tests/test_session.py), run against both classes.
    with pytest.raises(TypeError, match="Unknown session settings: limitt"):
        session_class("invalid_settings_test", session_settings={"limitt": 1})


def test_unknown_settings_are_also_a_localmem_error(db_path: Path) -> None:
    for bad in ({"limitt": 1}, ["limit", 1]):
        with pytest.raises(LocalMemError) as caught:
            LocalMemSession("s", db_path, session_settings=bad)
        assert isinstance(caught.value, TypeError) and isinstance(caught.value, InvalidInput)


def test_runner_sends_only_the_settings_limit_of_history(db_path: Path) -> None:
    model = FakeModel([[text_message(f"reply {i}", f"msg_{i}")] for i in range(3)])
    with LocalMemSession("s", db_path, {"limit": 2}) as s:
        for i in range(3):
            run(Runner.run(make_agent(model), f"question {i}", session=s, run_config=RUN_CONFIG))
        assert len(run(s.get_items(100))) == 6
    # the last call saw the 2 newest stored items, then its new question
    assert [item.get("content") for item in model.inputs[-1]][-1] == "question 2"
    assert len(model.inputs[-1]) == 3


# --- a real Runner over several turns, resumed in a new process --------------------

RESUME = """
import asyncio, json, sys
from agents import Runner
from localmem.integrations.openai_agents import LocalMemSession
from tests.agents_fakes import RUN_CONFIG, FakeModel, make_agent, text_message

async def main():
    model = FakeModel([[text_message("Your name is Rosa.", "msg_4")]])
    with LocalMemSession("rosa", sys.argv[1]) as session:
        result = await Runner.run(
            make_agent(model), "What is my name?", session=session, run_config=RUN_CONFIG
        )
        print(json.dumps({"input": model.inputs[0], "final": result.final_output,
                          "items": await session.get_items()}))

asyncio.run(main())
"""


def test_runner_turns_then_resumed_from_the_file_in_a_new_process(db_path: Path) -> None:
    model = FakeModel(
        [
            [text_message("Hello Rosa!", "msg_1")],
            [
                reasoning("The user wants the weather."),
                function_call("get_weather", '{"city": "Paris"}'),
            ],
            [text_message("It is sunny and 22 degrees in Paris.", "msg_2")],
            [text_message("You're welcome, Rosa.", "msg_3")],
        ]
    )
    agent = make_agent(model)
    with LocalMemSession("rosa", db_path) as session:
        finals = [
            run(Runner.run(agent, text, session=session, run_config=RUN_CONFIG)).final_output
            for text in ("Hi, I'm Rosa.", "What's the weather in Paris?", "Thanks!")
        ]
        assert finals == ["Hello Rosa!", "It is sunny and 22 degrees in Paris.",
                          "You're welcome, Rosa."]
        items = run(session.get_items())
        # Each call saw the whole history before it: the last one, all but the newest reply.
        assert model.inputs[-1] == items[:-1]
        assert [i.get("type", "message") for i in items] == [
            "message", "message", "message", "reasoning", "function_call",
            "function_call_output", "message", "message", "message",
        ]
        messages = session.store.get_messages("rosa")
    assert [(m.role, m.text) for m in messages] == [
        ("user", "Hi, I'm Rosa."),
        ("assistant", "Hello Rosa!"),
        ("user", "What's the weather in Paris?"),
        ("assistant", "[reasoning] The user wants the weather."),
        ("tool", '[tool call get_weather] {"city": "Paris"}'),
        ("tool", "[tool result get_weather] Sunny and 22 degrees in Paris"),
        ("assistant", "It is sunny and 22 degrees in Paris."),
        ("user", "Thanks!"),
        ("assistant", "You're welcome, Rosa."),
    ]
    result = CliRunner().invoke(cli, ["context", "rosa", "--db", str(db_path)])
    assert result.exit_code == 0 and "You're welcome, Rosa." in result.output

    paths = [str(ROOT), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    out = subprocess.run(
        [sys.executable, "-c", RESUME, str(db_path)],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    resumed = json.loads(out.stdout)
    assert resumed["final"] == "Your name is Rosa."
    assert resumed["input"] == [*items, {"role": "user", "content": "What is my name?"}]
    assert resumed["items"][: len(items)] == items and len(resumed["items"]) == len(items) + 2
    with MemoryStore(db_path) as store:
        assert store.get_messages("rosa")[-1].text == "Your name is Rosa."


# --- pop, clear, isolation -----------------------------------------------------------


def test_pop_removes_the_newest_item_and_its_message(session: LocalMemSession) -> None:
    a, b = {"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}
    run(session.add_items([a, b]))
    assert run(session.pop_item()) == b
    assert [m.text for m in session.store.get_messages("rosa")] == ["a"]
    assert run(session.pop_item()) == a
    assert run(session.pop_item()) is None
    run(session.add_items([{"role": "user", "content": "c"}]))
    assert run(session.get_items()) == [{"role": "user", "content": "c"}]


def test_pop_drops_a_summary_that_covered_the_popped_message(db_path: Path) -> None:
    with LocalMemSession("s", db_path, config={"summary_threshold": 4}) as s:
        run(s.add_items([{"role": "user", "content": f"question {i} about Paris?"}
                         for i in range(4)]))
        summary = s.store.summarize("s")
        assert summary is not None and summary.end_message_id == 4
        run(s.pop_item())
        assert s.store.get_summaries("s") == []
        run(s.add_items([{"role": "user", "content": "a new fourth question?"}]))
        again = s.store.summarize("s")
        # 1-3 and the new message 5 (was 1-4: the popped id handed out again)
        assert again is not None and (again.start_message_id, again.end_message_id) == (1, 5)


def test_clear_forgets_items_and_summaries_but_keeps_the_session_and_its_pins(
    db_path: Path,
) -> None:
    with LocalMemSession("s", db_path, config={"summary_threshold": 2}) as s:
        run(s.add_items([{"role": "user", "content": "Rosa is allergic to penicillin."},
                         {"role": "assistant", "content": "Noted."}]))
        first = s.store.get_messages("s")[0]
        s.store.pin("s", "Rosa is allergic to penicillin.", source_message_id=first.id)
        assert s.store.summarize("s") is not None
        run(s.clear_session())
        assert run(s.get_items()) == []
        assert s.store.get_messages("s") == [] and s.store.get_summaries("s") == []
        (pin,) = s.store.get_pins("s")
        assert pin.source_message_id is None
        run(s.clear_session())  # twice is fine
    with LocalMemSession("never-used", db_path) as s:
        run(s.clear_session())  # a session that does not exist yet: nothing to clear
        assert run(s.get_items()) == [] and run(s.pop_item()) is None


def test_sessions_sharing_a_file_never_see_each_others_items(db_path: Path) -> None:
    with MemoryStore(db_path) as store:
        a = LocalMemSession("a", store=store)
        b = LocalMemSession("b", db_path)
        c = LocalMemSession("c", store=store)
        run(a.add_items([{"role": "user", "content": "for a"}]))
        run(b.add_items([{"role": "user", "content": "for b"}]))
        run(c.add_items([{"role": "user", "content": "for c"}]))
        # a plain message and another framework's item in a's session are not a's items
        store.add_message("a", "user", "written by the app")
        store.add_items("a", "langchain", [({"role": "user", "text": "x"}, "{}")])
        assert run(a.get_items()) == [{"role": "user", "content": "for a"}]
        assert run(b.pop_item()) == {"role": "user", "content": "for b"}
        run(c.clear_session())
        assert run(a.get_items()) == [{"role": "user", "content": "for a"}]
        assert run(b.get_items()) == [] and run(c.get_items()) == []
        for s in (a, b, c):
            s.close()
        store.get_session("a")  # the shared store is still open


def test_threads_each_with_its_own_event_loop(db_path: Path) -> None:
    shared = LocalMemSession("shared", db_path)
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        async def work() -> None:
            own = LocalMemSession("own", db_path)  # another connection to the same file
            try:
                for batch in range(20):
                    items = [{"role": "user", "content": f"{n}:{batch}:{k}"} for k in range(3)]
                    await shared.add_items(items)
                    await own.add_items(items)
                    await shared.get_items(5)
            finally:
                own.close()

        try:
            asyncio.run(work())
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    with LocalMemSession("own", db_path) as own:
        for items in (run(shared.get_items()), run(own.get_items())):
            texts = [i["content"] for i in items]
            assert len(texts) == 4 * 20 * 3
            for start in range(0, len(texts), 3):  # each batch stored whole and in order
                n, batch, _ = texts[start].split(":")
                assert texts[start:start + 3] == [f"{n}:{batch}:{k}" for k in range(3)]
            for n in range(4):  # each thread's batches in its order
                mine = [t for t in texts if t.startswith(f"{n}:")]
                assert mine == [f"{n}:{b}:{k}" for b in range(20) for k in range(3)]
    shared.close()


# --- lifecycle -------------------------------------------------------------------------


def test_a_closed_session_refuses_work(db_path: Path) -> None:
    s = LocalMemSession("s", db_path)
    s.close()
    s.close()
    for call in (s.get_items(), s.add_items([]), s.pop_item(), s.clear_session()):
        with pytest.raises(Closed) as caught:
            run(call)
        assert isinstance(caught.value, RuntimeError) and isinstance(caught.value, LocalMemError)


def test_store_or_path_not_both(db_path: Path) -> None:
    with MemoryStore(db_path) as store:
        with pytest.raises(InvalidInput, match="not both"):
            LocalMemSession("s", db_path, store=store)
        with pytest.raises(InvalidInput, match="not both"):
            LocalMemSession("s", store=store, config={"recent_messages": 2})
    with pytest.raises(InvalidInput, match="session_id"):
        LocalMemSession("", db_path)


def test_memory_is_the_default_like_sqlite_session() -> None:
    a, b = LocalMemSession("s"), LocalMemSession("s")
    run(a.add_items([{"role": "user", "content": "only in a"}]))
    assert run(b.get_items()) == [] and str(a.db_path) == ":memory:"
    a.close()
    b.close()


def test_a_cancelled_write_still_completes(session: LocalMemSession) -> None:
    async def cancel_mid_write() -> None:
        task = asyncio.ensure_future(session.add_items([{"role": "user", "content": "kept"}]))
        await asyncio.sleep(0)  # the write has started in its thread
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run(cancel_mid_write())
    assert run(session.get_items()) == [{"role": "user", "content": "kept"}]


# --- compacting ------------------------------------------------------------------------


def test_compacting_returns_memory_then_the_newest_items_within_budget(db_path: Path) -> None:
    config = {"summary_threshold": 6, "recent_messages": 5, "context_token_limit": 400}
    with LocalMemSession("s", db_path, config=config, compacting=True) as s:
        items: list[dict[str, Any]] = []
        for i in range(6):
            items += [
                {"role": "user", "content": f"Question {i}: what about Paris?"},
                {"type": "function_call", "call_id": f"c{i}", "name": "get_weather",
                 "arguments": '{"city": "Paris"}'},
                {"type": "function_call_output", "call_id": f"c{i}", "output": "Sunny"},
                {"role": "assistant", "content": f"Answer {i}: sunny."},
            ]
        run(s.add_items(items))
        s.store.pin("s", "Rosa lives in Paris.", importance=1.0)
        assert s.store.summarize("s") is not None
        compact = run(s.get_items())
        memory, rest = compact[0], compact[1:]
        assert memory["role"] == "system"
        assert "[Pinned facts]" in memory["content"] and "Rosa lives in Paris." in memory["content"]
        assert "[Earlier in this conversation, summarized]" in memory["content"]
        # the newest items, verbatim, starting at a message: no output without its call
        assert rest == items[-len(rest):] and "role" in rest[0] and len(rest) < len(items)
        calls = {i["call_id"] for i in rest if i.get("type") == "function_call"}
        assert all(i["call_id"] in calls for i in rest if i.get("type") == "function_call_output")
        # with a limit, the newest items come back exactly
        assert run(s.get_items(3)) == items[-3:]
        assert len(run(s.get_items(-1))) == len(items)


def test_a_runner_over_a_compacting_session_stores_every_item(tmp_path: Path) -> None:
    def turns(session: LocalMemSession) -> FakeModel:
        model = FakeModel([[text_message(f"reply {i}", f"msg_{i}")] for i in range(4)])
        for i in range(4):
            run(Runner.run(make_agent(model), f"question {i}", session=session,
                           run_config=RUN_CONFIG))
        return model

    config = {"recent_messages": 3}
    with LocalMemSession("s", tmp_path / "a.db", config=config, compacting=True) as compacting, \
            LocalMemSession("s", tmp_path / "b.db", config=config) as plain:
        compacting.store.create_session(session_id="s", model="llama3.2")
        compacting.store.pin("s", "The user is called Rosa.")
        model = turns(compacting)
        turns(plain)
        assert run(compacting.get_items(-1)) == run(plain.get_items())
        # The last call saw the memory, then the 3 newest stored items (recent_messages),
        # then its new question.
        first, *rest = model.inputs[-1]
        assert first["role"] == "system" and "The user is called Rosa." in first["content"]
        history = run(plain.get_items())[:6]
        assert rest == [*history[-3:], {"role": "user", "content": "question 3"}]


def test_items_with_odd_types_and_call_ids_never_break_the_session(db_path: Path) -> None:
    """A list ``type`` or ``call_id`` (a buggy tool, a hand-written item) is stored and
    read back like any item; before, every compacting get_items() failed after it."""
    odd = [
        {"role": "user", "content": "Question: what about Paris?"},
        {"type": ["function_call"], "call_id": ["c1"], "name": "get_weather", "arguments": "{}"},
        {"type": "function_call_output", "call_id": ["c1"], "output": "Sunny"},
        {"type": {"nested": 1}, "call_id": 7},
        {"role": "assistant", "content": "It is sunny."},
    ]
    with LocalMemSession("s", db_path, compacting=True) as s:
        run(s.add_items(odd))
        assert run(s.get_items(-1)) == odd
        compact = run(s.get_items())
        assert compact[0] == odd[0] and compact[-1] == odd[-1]
        assert run(s.pop_item()) == odd[-1]


def test_a_stored_item_that_is_not_an_object_is_skipped(db_path: Path) -> None:
    with LocalMemSession("s", db_path, compacting=True) as s:
        run(s.add_items([{"role": "user", "content": "hello"}]))
        s.store.add_items("s", KIND, [({"role": "user", "text": "by hand"}, "[1, 2]")])
        assert run(s.get_items(-1)) == [{"role": "user", "content": "hello"}]
        assert run(s.get_items()) == [{"role": "user", "content": "hello"}]
