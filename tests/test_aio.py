"""The asyncio door (issue 25): ``AsyncMemoryStore`` mirrors ``MemoryStore`` method for
method, gives the same results on the same calls, keeps each session's order under
concurrent tasks, and leaves the event loop free while the store works."""

from __future__ import annotations

import asyncio
import inspect
from datetime import datetime, timezone
from pathlib import Path

import pytest

from localmem import AsyncMemoryStore, MemoryStore
from localmem.aio import MATERIALIZED, OWN, doc, public_methods
from localmem.errors import Closed, SessionNotFound

FIXED = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)


def fixed_clock() -> datetime:
    return FIXED


def same(value: object) -> object:
    return value


def test_every_public_method_has_an_async_twin_with_an_equal_signature() -> None:
    methods = public_methods(MemoryStore)
    assert len(methods) > 50 and "add_message" in methods and "build_context" in methods
    for name, func in methods.items():
        twin = getattr(AsyncMemoryStore, name)
        assert inspect.iscoroutinefunction(twin), name
        assert twin.__name__ == name and twin.__doc__.startswith(doc(name)) and doc(name), name
        ours, theirs = inspect.signature(twin), inspect.signature(func)
        assert ours.parameters == theirs.parameters, name
        if name not in MATERIALIZED:
            assert ours.return_annotation == theirs.return_annotation, name
    for name in OWN:
        assert inspect.iscoroutinefunction(getattr(AsyncMemoryStore, name))
    assert inspect.signature(AsyncMemoryStore) == inspect.signature(MemoryStore)


CALLS: list[tuple[str, tuple, dict]] = [
    ("create_session", (), {"model": "llama3.2", "title": "t", "session_id": "s1"}),
    *[
        ("add_message", ("s1", "user" if i % 2 == 0 else "assistant",
                         f"message {i}: my dog Biscuit likes the park {i}"), {})
        for i in range(20)
    ],
    ("pin", ("s1", "Biscuit is a beagle"), {}),
    ("summarize", ("s1",), {}),
    ("build_context", ("s1",), {"max_tokens": 400, "query": "where does Biscuit go?"}),
    ("search", ("Biscuit",), {"limit": 5}),
    ("get_messages", ("s1",), {"after_id": 3, "limit": 4}),
    ("get_pins", ("s1",), {}),
    ("export_sessions", (), {}),
    ("delete_session", ("s1",), {}),
    ("list_sessions", (), {}),
]
OPTIONS = {"config": {"offline": True}, "clock": fixed_clock}


def test_the_same_calls_give_the_same_results(tmp_path: Path) -> None:
    """One script of calls, run on a sync store and on an async one (same clock)."""
    with MemoryStore(tmp_path / "sync.db", **OPTIONS) as sync:
        # The one difference by design: the export's lines come as a list.
        expected = [MATERIALIZED.get(n, same)(getattr(sync, n)(*a, **k)) for n, a, k in CALLS]

    async def main() -> list:
        async with AsyncMemoryStore(tmp_path / "async.db", **OPTIONS) as store:
            return [await getattr(store, n)(*a, **k) for n, a, k in CALLS]

    got = asyncio.run(main())
    assert got == expected
    assert "Biscuit" in "".join(got[-3]) and got[-7].recent_messages and got[-6]  # not empty


def test_errors_and_closing(tmp_path: Path) -> None:
    async def main() -> None:
        store = AsyncMemoryStore(tmp_path / "a.db")
        with pytest.raises(SessionNotFound):
            await store.add_message("nope", "user", "hello")
        assert store.path == tmp_path / "a.db"
        await store.close()
        await store.close()  # idempotent
        with pytest.raises(Closed):
            await store.list_sessions()

    asyncio.run(main())


def test_of_wraps_an_open_store_and_leaves_it_open(store: MemoryStore, session) -> None:
    async def main() -> None:
        door = AsyncMemoryStore.of(store)
        await door.add_message(session.id, "user", "through the door")
        await door.close()

    asyncio.run(main())
    assert [m.text for m in store.get_messages(session.id)] == ["through the door"]


async def _ticks_while(work) -> int:
    """Ticks of a 1 ms ticker while ``work`` (a coroutine) runs."""
    ticks = 0
    running = True

    async def ticker() -> None:
        nonlocal ticks
        while running:
            await asyncio.sleep(0.001)
            ticks += 1

    tick = asyncio.create_task(ticker())
    try:
        await work
    finally:
        running = False
        await tick
    return ticks


async def _work_with_ticker(store: AsyncMemoryStore, tasks: int, calls: int) -> tuple[int, list[list[str]]]:
    """``tasks`` tasks, two per session, each awaiting ``calls`` add_message + build_context;
    returns the ticks of a 1 ms ticker while they ran, and each session's texts."""
    sessions = [(await store.create_session(session_id=f"s{i}")).id for i in range(tasks // 2)]

    async def writer(task: int) -> None:
        session = sessions[task // 2]
        for i in range(calls):
            await store.add_message(session, "user", f"task {task} message {i}")
            await store.build_context(session)

    ticks = await _ticks_while(asyncio.gather(*(writer(t) for t in range(tasks))))
    return ticks, [[m.text for m in await store.get_messages(s)] for s in sessions]


def test_concurrent_tasks_lose_nothing_keep_order_and_the_loop_ticks(tmp_path: Path) -> None:
    tasks, calls = 8, 40

    async def main() -> tuple[int, list[list[str]]]:
        async with AsyncMemoryStore(tmp_path / "c.db", config={"auto_pins": False}) as store:
            return await _work_with_ticker(store, tasks, calls)

    ticks, texts = asyncio.run(main())
    for index, session_texts in enumerate(texts):
        assert len(session_texts) == 2 * calls  # nothing lost
        for task in (2 * index, 2 * index + 1):  # each task's own order kept
            own = [t for t in session_texts if t.startswith(f"task {task} ")]
            assert own == [f"task {task} message {i}" for i in range(calls)]
    # 640 calls ran in the worker while the ticker kept going: it ticked many times
    # (called in the loop, the sync store lets it tick only between calls).
    assert ticks >= 20, ticks



@pytest.mark.parametrize("adapter", ["openai-agents", "langchain"])
def test_the_framework_adapters_do_not_block_the_loop(tmp_path: Path, adapter: str) -> None:
    """8 conversations, each writing and reading back 30 turns through the adapter's
    async methods, on one file: the loop keeps ticking and every turn is kept in order."""
    db = tmp_path / "adapters.db"
    turns = 30
    if adapter == "openai-agents":
        pytest.importorskip("agents")
        from localmem.integrations.openai_agents import LocalMemSession

        def make(i: int):
            return LocalMemSession(f"c{i}", db)

        async def write(conversation, i: int) -> None:
            await conversation.add_items([{"role": "user", "content": f"turn {i}"}])
            await conversation.get_items()

        async def read(conversation) -> list[str]:
            return [item["content"] for item in await conversation.get_items()]
    else:
        pytest.importorskip("langchain_core")
        from langchain_core.messages import HumanMessage

        from localmem.integrations.langchain import LocalMemChatMessageHistory

        def make(i: int):
            return LocalMemChatMessageHistory(f"c{i}", db)

        async def write(conversation, i: int) -> None:
            await conversation.aadd_messages([HumanMessage(f"turn {i}")])
            await conversation.aget_messages()

        async def read(conversation) -> list[str]:
            return [m.content for m in await conversation.aget_messages()]

    conversations = [make(i) for i in range(8)]

    async def talk(conversation) -> None:
        for i in range(turns):
            await write(conversation, i)

    async def main() -> tuple[int, list[list[str]]]:
        ticks = await _ticks_while(asyncio.gather(*(talk(c) for c in conversations)))
        return ticks, [await read(c) for c in conversations]

    try:
        ticks, texts = asyncio.run(main())
    finally:
        for conversation in conversations:
            conversation.close()
    assert texts == [[f"turn {i}" for i in range(turns)]] * len(conversations)
    assert ticks >= 20, ticks
