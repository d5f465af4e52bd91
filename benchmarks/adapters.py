"""The framework adapters beside the frameworks' own SQLite memories, same items, one process.

- openai-agents: ``LocalMemSession`` vs the SDK's ``SQLiteSession``: ``add_items`` of
  1,000 items of every shape (user message, function call, its output, assistant message
  with content parts), ``get_items()`` of all of them, ``get_items(20)``.
- LangChain: ``LocalMemChatMessageHistory`` vs langchain-community's
  ``SQLChatMessageHistory``: ``add_messages`` of 1,000 messages with tool calls, then
  ``.messages``.

    python benchmarks/adapters.py [N]        # needs the bench extra
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")

REPEAT = 7


def agent_items(n: int) -> list[dict]:
    out: list[dict] = []
    for i in range(n // 4):
        out += [
            {"role": "user", "content": f"Question {i}: weather in Paris today, umbrella or not?"},
            {"type": "function_call", "id": f"fc_{i}", "call_id": f"c{i}", "name": "get_weather",
             "arguments": '{"city": "Paris"}'},
            {"type": "function_call_output", "call_id": f"c{i}", "output": "Sunny, 22 degrees."},
            {"id": f"msg_{i}", "type": "message", "role": "assistant", "status": "completed",
             "content": [{"type": "output_text", "text": f"Answer {i}: sunny, no umbrella.",
                          "annotations": []}]},
        ]
    return out


def chat_messages(n: int) -> list:
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    out: list = []
    for i in range(n // 4):
        call = {"name": "get_weather", "args": {"city": "Paris"}, "id": f"c{i}", "type": "tool_call"}
        out += [
            HumanMessage(f"Question {i}: weather in Paris today?"),
            AIMessage("", tool_calls=[call]),
            ToolMessage("Sunny, 22 degrees.", tool_call_id=f"c{i}", name="get_weather"),
            AIMessage(f"Answer {i}: sunny."),
        ]
    return out


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1e3


async def agents_run(make: Callable[[Path], object], items: list[dict]) -> dict[str, float]:
    add, get_all, get_20 = [], [], []
    for _ in range(REPEAT):
        with tempfile.TemporaryDirectory() as tmp:
            session = make(Path(tmp) / "agents.db")
            start = time.perf_counter()
            await session.add_items(items)
            add.append(time.perf_counter() - start)
            start = time.perf_counter()
            assert await session.get_items() == items
            get_all.append(time.perf_counter() - start)
            start = time.perf_counter()
            for _ in range(100):
                await session.get_items(20)
            get_20.append((time.perf_counter() - start) / 100)
            session.close()
    return {"add_items": median_ms(add), "get_items()": median_ms(get_all), "get_items(20)": median_ms(get_20)}


def langchain_run(make: Callable[[Path], object], messages: list) -> dict[str, float]:
    add, read = [], []
    for _ in range(REPEAT):
        with tempfile.TemporaryDirectory() as tmp:
            history = make(Path(tmp) / "lc.db")
            start = time.perf_counter()
            history.add_messages(messages)
            add.append(time.perf_counter() - start)
            start = time.perf_counter()
            assert len(history.messages) == len(messages)
            read.append(time.perf_counter() - start)
    return {"add_messages": median_ms(add), ".messages": median_ms(read)}


def table(title: str, rows: dict[str, dict[str, float]]) -> None:
    print(title)
    names = list(next(iter(rows.values())))
    print(f"  {'system':34s}" + "".join(f"{n:>16s}" for n in names))
    for system, figures in rows.items():
        print(f"  {system:34s}" + "".join(f"{figures[n]:13.2f} ms" for n in names))
    base, *others = rows.values()
    for (system, figures) in list(rows.items())[1:]:
        ratios = ", ".join(f"{n} {figures[n] / base[n]:.2f}×" for n in names)
        print(f"  {system} ÷ {next(iter(rows))}: {ratios} (time; lower is faster)")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print(f"{n} items per run, median of {REPEAT} runs, files in {tempfile.gettempdir()}\n")
    from agents.memory import SQLiteSession

    from localmem.integrations.openai_agents import LocalMemSession

    items = agent_items(n)
    rows = {
        "agents SQLiteSession": asyncio.run(agents_run(lambda p: SQLiteSession("s", p), items)),
        "localmem LocalMemSession": asyncio.run(agents_run(lambda p: LocalMemSession("s", p), items)),
    }
    table("OpenAI Agents SDK sessions", rows)
    print()
    from localmem.integrations.langchain import LocalMemChatMessageHistory

    messages = chat_messages(n)
    rows = {}
    try:
        from langchain_community.chat_message_histories import SQLChatMessageHistory

        rows["langchain SQLChatMessageHistory"] = langchain_run(
            lambda p: SQLChatMessageHistory(session_id="s", connection=f"sqlite:///{p}"), messages
        )
    except ImportError:
        print("  langchain-community is not installed: its row is skipped")
    rows["localmem LocalMemChatMessageHistory"] = langchain_run(
        lambda p: LocalMemChatMessageHistory("s", p), messages
    )
    table("LangChain chat histories", rows)


if __name__ == "__main__":
    main()
