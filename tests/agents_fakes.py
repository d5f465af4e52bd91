"""A model stub for the OpenAI Agents SDK, in the SDK's own testing style.

``FakeModel`` is a real ``agents.models.interface.Model`` that returns canned
``ModelResponse`` outputs turn by turn and records the input of every call,
so a test sees exactly what history the session handed the model. Nothing
here opens a socket. Imported only by tests that have checked the SDK is
installed, and by the resumed-run subprocess.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from typing import Any

os.environ.setdefault("OPENAI_AGENTS_DISABLE_TRACING", "1")  # no trace export, ever

from agents import Agent, RunConfig, function_tool, set_tracing_disabled  # noqa: E402
from agents.items import ModelResponse  # noqa: E402
from agents.models.interface import Model  # noqa: E402
from agents.usage import Usage  # noqa: E402
from openai.types.responses import (  # noqa: E402
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)
from openai.types.responses.response_reasoning_item import (  # noqa: E402
    ResponseReasoningItem,
    Summary,
)

set_tracing_disabled(True)
RUN_CONFIG = RunConfig(tracing_disabled=True)


class FakeModel(Model):
    """Returns the queued outputs, one list per model call; records each call's input."""

    def __init__(self, outputs: list[list[Any]] | None = None) -> None:
        self.outputs = list(outputs or [])
        self.inputs: list[Any] = []

    async def get_response(
        self,
        system_instructions,
        input,
        model_settings,
        tools,
        output_schema,
        handoffs,
        tracing,
        *,
        previous_response_id=None,
        conversation_id=None,
        prompt=None,
        **_: Any,
    ) -> ModelResponse:
        self.inputs.append(input)
        output = self.outputs.pop(0) if self.outputs else []
        return ModelResponse(output=output, usage=Usage(), response_id=None)

    async def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError("these tests run Runner.run, not streamed runs")
        yield  # pragma: no cover  (an async generator)


def text_message(text: str, message_id: str = "msg_1") -> ResponseOutputMessage:
    return ResponseOutputMessage(
        id=message_id,
        type="message",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


def function_call(name: str, arguments: str, call_id: str = "call_1") -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(
        id=f"fc_{call_id}", type="function_call", name=name, arguments=arguments, call_id=call_id
    )


def reasoning(text: str, item_id: str = "rs_1") -> ResponseReasoningItem:
    return ResponseReasoningItem(
        id=item_id, type="reasoning", summary=[Summary(type="summary_text", text=text)]
    )


@function_tool
def get_weather(city: str) -> str:
    """The weather in a city."""
    return f"Sunny and 22 degrees in {city}"


def make_agent(model: FakeModel) -> Agent:
    return Agent(name="assistant", instructions="Be brief.", model=model, tools=[get_weather])
