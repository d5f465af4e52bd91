"""localmem as a LangChain chat message history, proven with langchain-core's real classes.

A real ``RunnableWithMessageHistory`` runs a prompt and a fake chat model from
langchain-core over several turns; every message type round-trips through
``messages_to_dict`` / ``messages_from_dict``. Skipped when langchain-core is
not installed.
"""

from __future__ import annotations

import asyncio
import sqlite3
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.chat_history import BaseChatMessageHistory  # noqa: E402
from langchain_core.language_models.fake_chat_models import FakeListChatModel  # noqa: E402
from langchain_core.messages import (  # noqa: E402
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    ChatMessage,
    FunctionMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder  # noqa: E402
from langchain_core.runnables import RunnableLambda  # noqa: E402

from localmem import MemoryStore  # noqa: E402
from localmem.errors import Closed, InvalidInput  # noqa: E402
from localmem.integrations.langchain import KIND, LocalMemChatMessageHistory  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # deprecated in langchain-core 1.x, still what people use
    from langchain_core.runnables.history import RunnableWithMessageHistory  # noqa: E402


TOOL_CALL_AI = AIMessage(
    content="",
    tool_calls=[
        {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1", "type": "tool_call"}
    ],
    additional_kwargs={"refusal": None, "custom": {"nested": [1, 2.5, "x"]}},
    response_metadata={"model_name": "fake", "finish_reason": "tool_calls"},
    usage_metadata={"input_tokens": 10, "output_tokens": 5, "total_tokens": 15},
    id="run-1",
    name="assistant",
)

# (message, the role and text of the localmem message that carries it)
SHAPES: dict[str, tuple[BaseMessage, str, str]] = {
    "human": (HumanMessage("Hi, I'm Rosa.", id="h1"), "user", "Hi, I'm Rosa."),
    "human with parts": (
        HumanMessage(
            content=[
                {"type": "text", "text": "What is this?"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA=="}},
            ]
        ),
        "user",
        "What is this?",
    ),
    "system": (
        SystemMessage("Be brief.", additional_kwargs={"cache": True}), "system", "Be brief."
    ),
    "ai": (AIMessage("Hello Rosa!", response_metadata={"model": "fake"}), "assistant",
           "Hello Rosa!"),
    "ai with tool calls": (TOOL_CALL_AI, "assistant",
                           '[tool call get_weather] {"city": "Paris"}'),
    "ai with invalid tool call": (
        AIMessage("Let me check.", invalid_tool_calls=[
            {"name": "get_weather", "args": "{not json", "id": "call_9", "error": "bad json",
             "type": "invalid_tool_call"}]),
        "assistant",
        "Let me check.",
    ),
    "tool": (
        ToolMessage("Sunny, 22 degrees", tool_call_id="call_1", name="get_weather",
                    artifact={"raw": [1, 2]}, status="success",
                    additional_kwargs={"source": "api"}),
        "tool",
        "[tool result get_weather] Sunny, 22 degrees",
    ),
    "tool error without name": (
        ToolMessage("timeout", tool_call_id="call_2", status="error"),
        "tool",
        "[tool result call_2] timeout",
    ),
    "function": (FunctionMessage("42", name="answer"), "tool", "[tool result answer] 42"),
    "chat with a role": (ChatMessage("I remember.", role="assistant"), "assistant", "I remember."),
    "ai chunk": (AIMessageChunk("partial"), "assistant", "partial"),
    "unicode and NUL": (HumanMessage("café ☕ \x00 <|endoftext|>"), "user",
                        "café ☕ \x00 <|endoftext|>"),
}


@pytest.fixture
def history(db_path: Path):
    with LocalMemChatMessageHistory("rosa", db_path) as h:
        yield h


def test_is_a_base_chat_message_history(history: LocalMemChatMessageHistory) -> None:
    assert isinstance(history, BaseChatMessageHistory)
    assert history.messages == []


@pytest.mark.parametrize("name", list(SHAPES))
def test_each_message_type_round_trips_and_its_text_is_a_message(
    history: LocalMemChatMessageHistory, name: str
) -> None:
    message, role, text = SHAPES[name]
    history.add_messages([message])
    (loaded,) = history.messages
    assert loaded == message and type(loaded) is type(message)
    (stored,) = history.store.get_messages("rosa")
    assert (stored.role, stored.text) == (role, text)


def test_tool_calls_and_additional_kwargs_survive_a_reopen(db_path: Path) -> None:
    tool = SHAPES["tool"][0]
    with LocalMemChatMessageHistory("rosa", db_path) as h:
        h.add_messages([HumanMessage("Weather in Paris?"), TOOL_CALL_AI, tool])
    with LocalMemChatMessageHistory("rosa", db_path) as h:
        _, ai, back = h.messages
    assert ai.tool_calls == TOOL_CALL_AI.tool_calls
    assert ai.additional_kwargs == {"refusal": None, "custom": {"nested": [1, 2.5, "x"]}}
    assert ai.usage_metadata == TOOL_CALL_AI.usage_metadata and ai.id == "run-1"
    assert back.tool_call_id == "call_1" and back.artifact == {"raw": [1, 2]}
    assert back.additional_kwargs == {"source": "api"}


def test_all_types_in_one_batch_keep_their_order(history: LocalMemChatMessageHistory) -> None:
    messages = [m for m, _, _ in SHAPES.values()]
    history.add_messages(messages)
    assert history.messages == messages
    texts = [m.text for m in history.store.get_messages("rosa")]
    assert texts == [t for _, _, t in SHAPES.values()]


def test_the_convenience_methods(history: LocalMemChatMessageHistory) -> None:
    history.add_user_message("Hello")
    history.add_ai_message("Hi!")
    history.add_message(SystemMessage("Be brief."))
    assert [m.type for m in history.messages] == ["human", "ai", "system"]
    assert "Human: Hello" in str(history)


def test_async_methods(history: LocalMemChatMessageHistory) -> None:
    async def go() -> list[BaseMessage]:
        await history.aadd_messages([HumanMessage("a"), AIMessage("b")])
        first = await history.aget_messages()
        await history.aclear()
        assert await history.aget_messages() == []
        return first

    assert asyncio.run(go()) == [HumanMessage("a"), AIMessage("b")]


def test_clear_keeps_the_session_and_its_pins(history: LocalMemChatMessageHistory) -> None:
    history.add_messages([HumanMessage("Rosa is allergic to penicillin.")])
    history.store.pin("rosa", "Rosa is allergic to penicillin.")
    history.clear()
    assert history.messages == [] and history.store.get_messages("rosa") == []
    assert len(history.store.get_pins("rosa")) == 1
    with LocalMemChatMessageHistory("new", store=history.store) as fresh:
        fresh.clear()  # nothing stored yet: nothing to clear
        assert fresh.messages == [] and [s.id for s in fresh.store.list_sessions()] == ["rosa"]


def test_a_bad_message_writes_nothing(history: LocalMemChatMessageHistory) -> None:
    with pytest.raises(InvalidInput):
        history.add_messages([HumanMessage("ok"), "not a message"])  # type: ignore[list-item]
    with pytest.raises(InvalidInput, match="JSON"):
        history.add_messages([HumanMessage("ok"), AIMessage("x", additional_kwargs={"s": {1}})])
    assert history.messages == []


def test_histories_sharing_a_file_are_isolated(db_path: Path) -> None:
    with MemoryStore(db_path) as store:
        a = LocalMemChatMessageHistory("a", store=store)
        b = LocalMemChatMessageHistory("b", db_path)
        a.add_messages([HumanMessage("for a")])
        b.add_messages([HumanMessage("for b")])
        store.add_message("a", "user", "written by the app, not a LangChain message")
        assert a.messages == [HumanMessage("for a")] and b.messages == [HumanMessage("for b")]
        b.clear()
        assert a.messages == [HumanMessage("for a")]
        a.close()
        b.close()
        store.get_session("a")  # the shared store is still open


def test_a_closed_history_refuses_work(db_path: Path) -> None:
    h = LocalMemChatMessageHistory("s", db_path)
    h.close()
    h.close()
    with pytest.raises(Closed):
        h.add_messages([HumanMessage("x")])
    with pytest.raises(Closed):
        h.messages  # noqa: B018


def test_the_default_file_is_localmems_default(isolated_env: Path) -> None:
    with LocalMemChatMessageHistory("s") as h:
        h.add_messages([HumanMessage("hello")])
        assert Path(h.db_path) == isolated_env / "default.db"


def test_message_json_is_readable_by_sqlite(history: LocalMemChatMessageHistory,
                                            db_path: Path) -> None:
    history.add_messages([TOOL_CALL_AI])
    row = sqlite3.connect(db_path).execute(
        "SELECT kind, json_extract(data, '$.type'), json_extract(data, '$.data.tool_calls[0].name')"
        " FROM items"
    ).fetchone()
    assert row == (KIND, "ai", "get_weather")


# --- a real chain over several turns -------------------------------------------------------


def _chain(db_path: Path, replies: list[str], seen: list[list[BaseMessage]]) -> Any:
    prompt = ChatPromptTemplate.from_messages(
        [("system", "You are a helpful assistant."), MessagesPlaceholder("history"),
         ("human", "{question}")]
    )

    def record(value: Any) -> Any:
        seen.append(value.to_messages())
        return value

    model = FakeListChatModel(responses=replies)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return RunnableWithMessageHistory(
            prompt | RunnableLambda(record) | model,
            lambda session_id: LocalMemChatMessageHistory(session_id, db_path),
            input_messages_key="question",
            history_messages_key="history",
        )


def test_runnable_with_message_history_over_several_turns(db_path: Path) -> None:
    seen: list[list[BaseMessage]] = []
    chain = _chain(db_path, ["Hello Rosa!", "Amoxicillin is a penicillin.", "You're welcome."],
                   seen)
    config = {"configurable": {"session_id": "rosa"}}
    questions = ["Hi, I'm Rosa.", "Can I take amoxicillin? I'm allergic to penicillin.", "Thanks!"]
    replies = [chain.invoke({"question": q}, config=config).content for q in questions]
    assert replies == ["Hello Rosa!", "Amoxicillin is a penicillin.", "You're welcome."]
    # the last turn's prompt held the two earlier turns
    assert [m.content for m in seen[-1]] == [
        "You are a helpful assistant.",
        "Hi, I'm Rosa.", "Hello Rosa!",
        "Can I take amoxicillin? I'm allergic to penicillin.", "Amoxicillin is a penicillin.",
        "Thanks!",
    ]

    # a new chain (a new history object) over the same file carries on
    seen.clear()
    again = _chain(db_path, ["Your name is Rosa."], seen)
    assert again.invoke({"question": "What is my name?"}, config=config).content == \
        "Your name is Rosa."
    assert [m.content for m in seen[0]][1:3] == ["Hi, I'm Rosa.", "Hello Rosa!"]

    with MemoryStore(db_path) as store:
        stored = store.get_messages("rosa")
        assert [(m.role, m.text) for m in stored][:2] == [("user", "Hi, I'm Rosa."),
                                                          ("assistant", "Hello Rosa!")]
        assert len(stored) == 8 and all(m.token_count > 0 for m in stored)
        context = store.build_context("rosa")
        assert context.to_messages()[-1] == {"role": "assistant", "content": "Your name is Rosa."}


def test_runnable_with_message_history_async(db_path: Path) -> None:
    seen: list[list[BaseMessage]] = []
    chain = _chain(db_path, ["one", "two"], seen)
    config = {"configurable": {"session_id": "s"}}

    async def go() -> list[str]:
        return [(await chain.ainvoke({"question": q}, config=config)).content for q in "ab"]

    assert asyncio.run(go()) == ["one", "two"]
    with LocalMemChatMessageHistory("s", db_path) as h:
        assert [m.content for m in h.messages] == ["a", "one", "b", "two"]


@pytest.mark.parametrize("data", ['{"foo": 1}', "[1, 2]", '{"type": "nonsense", "data": {}}'])
def test_an_item_that_is_not_a_message_is_skipped(db_path: Path, data: str) -> None:
    """An item of the history's kind that LangChain cannot read (written by hand or by
    another program) is left out with a warning, not a KeyError on every read."""
    with LocalMemChatMessageHistory("s", db_path) as history:
        history.add_messages([HumanMessage("before")])
        history.store.add_items("s", KIND, [({"role": "user", "text": "by hand"}, data)])
        history.add_messages([AIMessage("after")])
        assert history.messages == [HumanMessage("before"), AIMessage("after")]
