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
from pathlib import Path

import pytest

from localmem import AsyncMemoryStore, MemoryStore
from tests.test_forget import holds, new_marker, traces
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
        sid = setup.create_session(model="llama3.2").id
        mid = told(setup, sid, word)
        setup.add_messages(sid, [filler(i) for i in range(4, 8)])

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


@pytest.mark.parametrize("act", ["unpin", "correct"])
def test_an_unpin_or_a_correction_on_another_async_store_holds_against_a_summary_in_flight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, act: str
) -> None:
    """The user unpins the fact, or corrects it ("Sorry, I meant 20 mg."), through a second
    async store while the first one's summary is with the model, whose facts restate the
    fact as it was: the removed fact stays removed, the corrected one stays corrected.
    (Held: a guard.)"""
    path = tmp_path / "memory.db"
    config = {**CONFIG, "summary_threshold": 8}
    with OldFactFake() as server:
        monkeypatch.setenv("OLLAMA_HOST", server.host)
        with MemoryStore(path, config=config) as setup:
            sid = setup.create_session(model="llama3.2").id
            setup.add_messages(sid, [filler(i) for i in range(2, 8)])
            setup.add_message(sid, "user", TAKES)
            setup.add_message(sid, "assistant", "Noted.")
            [fact] = setup.get_pins(sid)

        async def main() -> None:
            async with AsyncMemoryStore(path, config=config) as store, \
                    AsyncMemoryStore(path, config=config) as other:
                server.gate = threading.Event()
                server.held.clear()
                call = asyncio.ensure_future(store.summarize(sid))
                await asyncio.get_running_loop().run_in_executor(None, held, server)
                if act == "unpin":
                    await other.unpin(fact.id)
                else:
                    await other.add_message(sid, "user", "Sorry, I meant 20 mg.")
                server.gate.set()
                summary = await call  # None after an unpin: a forget discards the answer
                assert (summary is None) == (act == "unpin")
                if summary is not None:
                    assert summary.end_message_id >= fact.source_message_id  # it read the fact

        asyncio.run(main())
        with MemoryStore(path, config=config) as store:
            shown = [p.content for p in store.get_pins(sid)]
            assert TAKES not in shown
            if act == "unpin":
                assert shown == []
            else:  # the fact with its correction, built from both messages
                [corrected] = shown
                assert "I meant 20 mg" in corrected
