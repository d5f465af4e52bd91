"""store.summarize end to end: the real ollama client over loopback to a fake
Ollama server (tests/ollama_server.py), or to nothing at all."""

from __future__ import annotations

import logging
from collections.abc import Iterator
import threading
from pathlib import Path

import pytest

from localmem import MemoryConfig, MemoryStore
from localmem.errors import LocalMemError
from localmem.summarizer import FALLBACK, OFFLINE
from localmem.summarizer.validation import validate_summary
from tests.ollama_server import FakeOllama

TOPICS = [
    "How do I add an index to the franchisees table in the database?",
    "Use CREATE INDEX on the columns you filter by, for example region and opened_at.",
    "The query still takes four seconds, what else could be wrong?",
    "Check EXPLAIN QUERY PLAN to see whether the index is used at all.",
    "It says SCAN franchisees. Why would it ignore the index?",
]

# these tests hold the checks: every summary that passes them is the model's (what a
# context shows by default, model_trust="earned": tests/test_earned.py)
CHECKED = {"model_trust": "checked"}


@pytest.fixture
def store(db_path: Path) -> Iterator[MemoryStore]:
    """The store of these tests: ``model_trust="checked"`` (see ``CHECKED``)."""
    with MemoryStore(db_path, config=CHECKED) as s:
        yield s


def conversation(n: int) -> list[dict[str, str]]:
    return [
        {"role": "user" if i % 2 == 0 else "assistant", "text": f"Turn {i}: {TOPICS[i % len(TOPICS)]}"}
        for i in range(n)
    ]


def chats(server: FakeOllama) -> list[dict]:
    return [body for method, path, body in server.requests if path == "/api/chat"]


@pytest.fixture
def filled(store: MemoryStore):
    s = store.create_session(model="llama3.2", title="indexes")
    store.add_messages(s.id, conversation(30))
    return s


def test_ranges_of_fifteen_by_message_id(store: MemoryStore, fake_ollama: FakeOllama, filled) -> None:
    ids = [m.id for m in store.get_messages(filled.id)]
    assert store.needs_summarization(filled.id)
    first = store.summarize(filled.id)
    second = store.summarize(filled.id)
    assert (first.start_message_id, first.end_message_id, first.message_count) == (ids[0], ids[14], 15)
    assert (second.start_message_id, second.end_message_id) == (ids[15], ids[29])
    assert store.summarize(filled.id) is None
    assert not store.needs_summarization(filled.id)
    assert first.source == "llama3.2:latest" and first.level == 1
    assert validate_summary(first.text, "\n".join(m["text"] for m in conversation(15))) is None
    assert store.get_summaries(filled.id) == [first, second]
    assert first.token_count == store.count_tokens(first.text)


def test_the_call_is_strict_bounded_and_local(store, fake_ollama: FakeOllama, filled) -> None:
    store.summarize(filled.id)
    (body,) = chats(fake_ollama)
    assert body["model"] == "llama3.2:latest" and body["stream"] is False
    options = body["options"]
    assert options["temperature"] == 0.1 and options["num_predict"] == 100
    assert 2048 <= options["num_ctx"] <= fake_ollama.context_length
    system = body["messages"][0]["content"]
    assert body["messages"][0]["role"] == "system"
    assert "ONLY" in system and "poems" in system
    assert "franchisees" in body["messages"][-1]["content"]


def test_summary_model_when_the_session_model_is_not_local(db_path: Path, fake_ollama) -> None:
    fake_ollama.models = ["qwen2.5:0.5b"]
    with MemoryStore(db_path, config={**CHECKED, "summary_model": "qwen2.5:0.5b"}) as store:
        s = store.create_session(model="gpt-4o")  # a cloud model is never sent anything
        store.add_messages(s.id, conversation(15))
        assert store.summarize(s.id).source == "qwen2.5:0.5b"
    assert {b["model"] for b in chats(fake_ollama)} == {"qwen2.5:0.5b"}


def test_no_local_model_means_no_call(store, fake_ollama: FakeOllama) -> None:
    s = store.create_session(model="gpt-4o")
    store.add_messages(s.id, conversation(15))
    summary = store.summarize(s.id)
    assert summary.source == FALLBACK and chats(fake_ollama) == []
    assert "database" in summary.text  # the keyword topic table: "about: database, ..."


@pytest.mark.parametrize("mode", ["poem", "ramble"])
def test_creative_output_is_rejected_and_logged(store, fake_ollama, filled, mode, caplog) -> None:
    fake_ollama.mode = mode
    with caplog.at_level(logging.INFO, logger="localmem"):
        summary = store.summarize(filled.id)
    assert summary.source == FALLBACK
    assert "rejected" in caplog.text
    # the reason is logged, never the conversation
    assert "franchisees" not in caplog.text and "roses" not in summary.text.lower()


@pytest.mark.parametrize("mode", ["error500", "notfound", "invalid_json", "huge"])
def test_server_errors_fall_back(store, fake_ollama, filled, mode) -> None:
    fake_ollama.mode = mode
    assert store.summarize(filled.id).source == FALLBACK


@pytest.mark.parametrize("mode", ["hang", "close_mid", "slow_bytes"])
def test_a_stalled_server_is_offline_within_the_timeout(db_path, fake_ollama, mode) -> None:
    fake_ollama.mode = mode
    with MemoryStore(db_path, config={**CHECKED, "ollama_timeout": 0.5}) as store:
        s = store.create_session(model="llama3.2")
        store.add_messages(s.id, conversation(15))
        summary = store.summarize(s.id)
    assert summary.source == OFFLINE
    assert summary.text.startswith("Offline summary: 15 messages")


def test_nothing_listening_is_offline(db_path, dead_ollama_host, monkeypatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", dead_ollama_host)
    with MemoryStore(db_path, config=CHECKED) as store:
        s = store.create_session(model="llama3.2")
        store.add_messages(s.id, conversation(30))
        a, b = store.summarize(s.id), store.summarize(s.id)
    assert a.source == b.source == OFFLINE
    assert a.text != b.text  # each range its own samples


def test_fallbacks_are_deterministic(tmp_path, dead_ollama_host, monkeypatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", dead_ollama_host)
    texts = []
    for name in ("a.db", "b.db"):
        with MemoryStore(tmp_path / name, config=CHECKED) as store:
            s = store.create_session(model="llama3.2")
            store.add_messages(s.id, conversation(15))
            texts.append(store.summarize(s.id).text)
    assert texts[0] == texts[1]


def test_a_remote_host_is_never_contacted(db_path, monkeypatch) -> None:
    # 192.0.2.1 is TEST-NET-1: the policy refuses it before any packet is sent.
    monkeypatch.setenv("OLLAMA_HOST", "http://192.0.2.1:11434")
    with MemoryStore(db_path, config=CHECKED) as store:
        s = store.create_session(model="llama3.2")
        store.add_messages(s.id, conversation(15))
        assert store.summarize(s.id).source == OFFLINE


def test_identical_spans_are_served_from_the_cache(store, fake_ollama) -> None:
    for _ in range(2):
        s = store.create_session(model="llama3.2")
        store.add_messages(s.id, conversation(15))
        summary = store.summarize(s.id)
        assert summary.source == "llama3.2:latest"
    assert len(chats(fake_ollama)) == 1


def test_a_span_too_large_for_the_window_is_split(db_path, fake_ollama) -> None:
    fake_ollama.context_length = 1024  # smaller than 15 long messages
    with MemoryStore(db_path, config=CHECKED) as store:
        s = store.create_session(model="llama3.2")
        store.add_messages(s.id, [{"role": "user", "text": TOPICS[i % 5] * 4} for i in range(15)])
        summary = store.summarize(s.id)
    assert summary.source == "llama3.2:latest"
    sent = chats(fake_ollama)
    assert len(sent) >= 3  # each half, then the halves rolled into one
    assert all(b["options"]["num_ctx"] <= 1024 for b in sent)


def test_a_prompt_cut_by_the_server_is_not_trusted(store, fake_ollama, filled) -> None:
    fake_ollama.prompt_eval_count = 2048  # the whole window: Ollama cut the prompt's front
    assert store.summarize(filled.id).source == FALLBACK


@pytest.mark.parametrize("count", [-1, -(2**40)])
def test_an_impossible_prompt_eval_count_is_ignored(store, fake_ollama, filled, count) -> None:
    fake_ollama.prompt_eval_count = count  # a faulty server, or a proxy in front of one
    first = store.summarize(filled.id)
    assert first is not None and first.source == "llama3.2:latest"  # stored, not aborted
    assert store.count_tokens("some words", model="llama3.2") == store.count_tokens("some words")
    assert store.summarize(filled.id).source == "llama3.2:latest"
    assert len(store.get_summaries(filled.id)) == 2


def test_token_ratio_per_model_corrects_counts_and_budgets(store, fake_ollama, filled) -> None:
    fake_ollama.prompt_eval_count = 500
    summary = store.summarize(filled.id)
    assert summary.source == "llama3.2:latest"
    sent = chats(fake_ollama)[0]["messages"]
    ours = sum(store.count_tokens(m["content"]) for m in sent)
    ratio = 500 / ours
    text = "a budget in the model's own tokens"
    assert store.count_tokens(text, model="llama3.2") == -(-store.count_tokens(text) * ratio // 1)
    ctx = store.build_context(filled.id, max_tokens=3000)
    assert ctx.token_ratio == pytest.approx(ratio)
    assert ctx.max_tokens == int(3000 / ratio) and ctx.total_tokens <= ctx.max_tokens


def test_an_implausible_token_count_is_not_learnt(store, fake_ollama, filled) -> None:
    """Ollama reports 1 prompt token when it reused a cached prefix: learning from it
    turned max_tokens=200 into 103,000 for every later context of that model."""
    before = store.build_context(filled.id, max_tokens=200)
    fake_ollama.prompt_eval_count = 1
    assert store.summarize(filled.id).source == "llama3.2:latest"
    ctx = store.build_context(filled.id, max_tokens=200)
    assert ctx.token_ratio == 1.0 and ctx.max_tokens == 200 == before.max_tokens
    assert store.count_tokens("one two three", model="llama3.2") == 3


def test_a_learnt_ratio_is_bounded(store, filled) -> None:
    from localmem.tokens import MODEL_RATIO_BOUNDS

    store._db.conn.execute(  # a ratio learnt by an older localmem, far outside the bounds
        "INSERT INTO model_token_stats VALUES ('llama3.2:latest', 1000, 9000, 1, 'x')"
    )
    ctx = store.build_context(filled.id, max_tokens=3000)
    assert ctx.token_ratio == MODEL_RATIO_BOUNDS[1] and ctx.max_tokens == 1500


def test_a_new_ratio_reaches_the_cached_contexts_at_once(store, fake_ollama, filled) -> None:
    other = store.create_session(model="llama3.2")  # the same model, another session
    store.add_message(other.id, "user", "hello")
    assert store.config.cache_ttl > 0
    assert store.build_context(other.id, max_tokens=3000).token_ratio == 1.0  # now cached
    fake_ollama.prompt_eval_count = 500
    store.summarize(filled.id)  # learns the model's ratio
    assert store.build_context(other.id, max_tokens=3000).token_ratio > 1.0


def test_two_writers_never_store_overlapping_ranges(db_path, fake_ollama) -> None:
    fake_ollama.delay = 0.2  # both ask the model about the same range at once
    with MemoryStore(db_path, config=CHECKED) as setup:
        s = setup.create_session(model="llama3.2")
        setup.add_messages(s.id, conversation(45))
    stores = [MemoryStore(db_path, config=CHECKED) for _ in range(2)]
    try:
        def work(store: MemoryStore) -> None:
            while store.summarize(s.id) is not None or store.needs_summarization(s.id):
                pass

        threads = [threading.Thread(target=work, args=(st,)) for st in stores]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        ranges = sorted((x.start_message_id, x.end_message_id) for x in stores[0].get_summaries(s.id) if x.level == 1)
    finally:
        for st in stores:
            st.close()
    assert len(ranges) == 3
    assert all(a[1] < b[0] for a, b in zip(ranges, ranges[1:]))


def test_long_sessions_roll_up_and_reach_back(db_path, dead_ollama_host, monkeypatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", dead_ollama_host)
    with MemoryStore(db_path, config=CHECKED) as store:
        s = store.create_session(model="llama3.2")
        store.add_messages(s.id, conversation(1000))
        while store.summarize(s.id) is not None:
            pass
        summaries = store.get_summaries(s.id)
        level1 = [x for x in summaries if x.level == 1]
        level2 = [x for x in summaries if x.level == 2]
        assert len(level1) == 66 and level2
        first_id = store.get_messages(s.id, limit=1)[0].id
        # the rollups tile the rolled ranges from the very first message
        assert level2[0].start_message_id == first_id
        assert all(a.end_message_id < b.start_message_id for a, b in zip(level2, level2[1:]))
        ctx = store.build_context(s.id)
        shown = ctx.summaries
        assert shown[0].level == 2 and shown[0] == level2[-1]
        # no gap between the rollup and the level-1 summaries shown after it
        assert shown[1].start_message_id == shown[0].end_message_id + 1
        assert [x.level for x in shown[1:]] == [1] * (len(shown) - 1) and len(shown) <= 4
        assert ctx.total_tokens <= 3000


def test_background_summaries_never_block_writes(db_path, fake_ollama) -> None:
    fake_ollama.mode = "hang"
    config = MemoryConfig(**CHECKED, auto_summarize=True, ollama_timeout=1.0)
    store = MemoryStore(db_path, config=config)
    s = store.create_session(model="llama3.2")
    store.add_messages(s.id, conversation(15))
    for _ in range(500):  # until the worker's call reaches the (hanging) model
        if chats(fake_ollama):
            break
        threading.Event().wait(0.01)
    assert len(chats(fake_ollama)) == 1
    for i in range(5):  # writes go through while the model hangs
        store.add_message(s.id, "user", f"still typing {i}")
    assert len(store.get_messages(s.id)) == 20
    assert store.get_summaries(s.id) == []
    store.close()  # drains: the hung call times out, the offline summary is stored
    with MemoryStore(db_path, config=CHECKED) as reopened:
        (summary,) = reopened.get_summaries(s.id)
    assert summary.source == OFFLINE


def test_the_background_worker_survives_failures(db_path, dead_ollama_host, monkeypatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", dead_ollama_host)
    store = MemoryStore(db_path, config={**CHECKED, "auto_summarize": True})
    calls = []
    real = store._summaries.summarize_due

    def flaky(session_id: str) -> None:
        calls.append(session_id)
        if len(calls) == 1:
            raise RuntimeError("a bug in a policy")
        real(session_id)

    store._summaries.background._work = flaky
    s = store.create_session(model="llama3.2")
    store.add_messages(s.id, conversation(15))
    store._summaries.background.close()  # first job failed; the queue was empty then
    store._summaries.background = type(store._summaries.background)(real)
    store.add_message(s.id, "user", "one more")
    store.close()
    with MemoryStore(db_path, config=CHECKED) as reopened:
        assert len(reopened.get_summaries(s.id)) == 1
    assert calls == [s.id]


def _keep_writing(store: MemoryStore, session_id: str, stop: threading.Event) -> None:
    """Another thread of the app, adding messages until the store closes under it."""
    i = 0
    while not stop.is_set():
        try:
            store.add_message(session_id, "user", f"{TOPICS[i % len(TOPICS)]} ({i})")
        except LocalMemError:
            return  # closed
        i += 1


@pytest.mark.parametrize("mode", ["hang", "ok"])
def test_close_is_bounded_and_leaves_the_rest_due(db_path, fake_ollama, mode) -> None:
    """A hung model, or a slow one while another thread keeps writing, never holds close():
    it returns within close_timeout; what the worker did not store stays due."""
    fake_ollama.mode = mode
    fake_ollama.delay = 0.2
    config = MemoryConfig(**CHECKED, auto_summarize=True, ollama_timeout=60.0, close_timeout=0.5)
    store = MemoryStore(db_path, config=config)
    s = store.create_session(model="llama3.2")
    store.add_messages(s.id, conversation(150))  # ten ranges due
    stop = threading.Event()
    writer = threading.Thread(target=_keep_writing, args=(store, s.id, stop), daemon=True)
    writer.start()
    for _ in range(500):  # until the worker's first call reaches the model
        if chats(fake_ollama):
            break
        threading.Event().wait(0.01)
    closing = threading.Thread(target=store.close, daemon=True)
    closing.start()
    closing.join(10)  # 0.5 s asked; the old close took 60 s per range against the hung model
    stop.set()
    assert not closing.is_alive(), "close() did not return"
    writer.join(10)
    with MemoryStore(db_path, config=CHECKED) as reopened:
        assert reopened.needs_summarization(s.id)  # what was not summarized stays due
        stored = reopened.get_summaries(s.id)
        assert len(stored) < 10
        assert all(x.source == "llama3.2:latest" for x in stored)
        assert reopened.check_file() == []


def test_an_offline_summary_quotes_an_amount_whole(db_path, dead_ollama_host, monkeypatch) -> None:
    """Issue 21: a fact's reason tail holding an amount is kept whole ("£9.60 each", never
    ".60 each"); one holding no number is still left out."""
    monkeypatch.setenv("OLLAMA_HOST", dead_ollama_host)
    said = [
        "Sam books the pitch for £48 a week and Kofi collects the money, so that's £9.60 each.",
        "Tickets cost $3.50 each for Anna and Ben, since it is a weekday.",
    ]
    with MemoryStore(db_path, config=CHECKED) as store:
        s = store.create_session(model="llama3.2")
        store.add_messages(s.id, [{"role": "user", "text": said[i % 2]} if i < 2 else
                                  {"role": "user" if i % 2 == 0 else "assistant", "text": "ok then"}
                                  for i in range(15)])
        summary = store.summarize(s.id)
    assert summary.source == OFFLINE
    assert said[0] in summary.text and ".60 each" not in summary.text.replace("£9.60", "")
    assert "Tickets cost $3.50 each for Anna and Ben." in summary.text and "weekday" not in summary.text
