"""Exact token counts from tiktoken's cl100k_base, loaded with no network."""

from __future__ import annotations

import ast
import os
import random
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import tiktoken

from localmem import MemoryStore
from localmem.tokens import ESTIMATE_NAME, PIECE_CHARS, Tokenizer, estimate_tokens

# Published cl100k_base counts (OpenAI's tiktoken cookbook and README).
KNOWN = [("tiktoken is great!", 6), ("hello world", 2), ("", 0), ("antidisestablishmentarianism", 6)]


@pytest.mark.parametrize(("text", "tokens"), KNOWN)
def test_exact_cl100k_counts(text: str, tokens: int) -> None:
    tk = Tokenizer()
    assert tk.count(text) == tokens
    assert tk.exact and tk.name == "cl100k_base"


def test_same_counts_as_tiktoken_itself() -> None:
    import tiktoken

    # tiktoken's own encoding object, built from our shipped ranks: identical vocabulary
    ours = tiktoken.get_encoding("localmem_cl100k_base")
    sample = "Grandma takes lisinopril 10 mg 💊 every morning; <|endoftext|> is just text."
    assert ours.n_vocab == 100277
    assert Tokenizer().count(sample) == len(ours.encode_ordinary(sample))


def test_special_token_text_is_counted_as_text() -> None:
    assert Tokenizer().count("<|endoftext|>") > 1


OFFLINE_PROBE = textwrap.dedent(
    """
    import sys
    attempts = []
    def deny_network(event, args):
        if event in ("socket.connect", "socket.getaddrinfo", "urllib.Request"):
            attempts.append(event)
            raise OSError("network is unreachable in this test")
    sys.addaudithook(deny_network)
    from localmem import MemoryStore
    with MemoryStore(sys.argv[1]) as store:
        s = store.create_session()
        m = store.add_message(s.id, "user", "tiktoken is great!")
        print(store.tokenizer_name, m.token_count, len(attempts))
    """
)


def test_encoder_loads_with_the_network_unreachable(tmp_path: Path) -> None:
    """A fresh process, an empty tiktoken cache, every socket refused (and, where
    the machine allows, no network namespace at all): counts are still exact."""
    cache = tmp_path / "empty-cache"
    cache.mkdir()
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(cache)}
    cmd = [sys.executable, "-c", OFFLINE_PROBE, str(tmp_path / "offline.db")]
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0:
        cmd = [unshare, "-n", *cmd]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["cl100k_base", "6", "0"]
    assert list(cache.iterdir()) == []  # nothing was downloaded or cached


NETWORK_GUARD = textwrap.dedent(
    """
    import sys
    attempts = []
    def deny_network(event, args):
        if event in ("socket.connect", "socket.getaddrinfo", "urllib.Request"):
            attempts.append((event, str(args)[:80]))
            raise OSError("network is unreachable in this test")
    sys.addaudithook(deny_network)
    from localmem import MemoryStore
    with MemoryStore(sys.argv[1], config={"encoding": sys.argv[2]}) as store:
        s = store.create_session()
        m = store.add_message(s.id, "user", "tiktoken is great!")
        print(repr((store.tokenizer_name, m.token_count, attempts)))
    """
)


@pytest.mark.parametrize("encoding", ["o200k_base", "p50k_base", "r50k_base", "gpt2"])
def test_an_encoding_localmem_does_not_ship_never_touches_the_network(
    tmp_path: Path, encoding: str
) -> None:
    """tiktoken downloads every encoding but the one localmem ships (a DNS look-up of
    its blob host first): a store asked for another counts by the estimate, offline."""
    cache = tmp_path / "empty-cache"
    cache.mkdir()
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(cache)}
    cmd = [sys.executable, "-c", NETWORK_GUARD, str(tmp_path / "guarded.db"), encoding]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    name, count, attempts = ast.literal_eval(out.stdout.strip())
    assert attempts == []  # not one DNS look-up or connection
    assert (name, count) == (ESTIMATE_NAME, estimate_tokens("tiktoken is great!"))
    assert list(cache.iterdir()) == []


def test_estimate_only_when_the_encoder_cannot_load(tmp_path: Path) -> None:
    tk = Tokenizer("no_such_encoding")
    assert tk.count("abcdefghi") == estimate_tokens("abcdefghi") == 3
    assert not tk.exact and tk.name == ESTIMATE_NAME
    with MemoryStore(tmp_path / "est.db", config={"encoding": "no_such_encoding"}) as store:
        assert store.tokenizer_name == ESTIMATE_NAME
        s = store.create_session()
        assert store.add_message(s.id, "user", "x" * 10).token_count == 3


def test_tail_keeps_the_end_within_the_limit() -> None:
    tk = Tokenizer()
    text = "first part of the message, then the important end"
    tail = tk.tail(text, 4)
    assert text.endswith(tail) and 0 < tk.count(tail) <= 4
    assert tk.tail(text, 0) == "" and tk.tail(text, 1000) == text
    emoji = "👩‍👩‍👧" * 5
    assert tk.count(tk.tail(emoji, 3)) <= 3


def test_precounted_framing_costs_match_the_encoder() -> None:
    from localmem.context import PRECOUNTED_COSTS, Costs

    for encoding, costs in PRECOUNTED_COSTS.items():
        assert Costs.measure(Tokenizer(encoding).count) == costs


def test_reading_contexts_does_not_load_the_encoder(tmp_path: Path) -> None:
    """A process that only reads (the CLI's `context`, a second app window) stays light."""
    with MemoryStore(tmp_path / "r.db") as store:
        s = store.create_session()
        store.add_messages(s.id, [{"role": "user", "text": f"message {i}"} for i in range(10)])
        store.pin(s.id, "a pinned fact")
    probe = textwrap.dedent(
        """
        import sys
        from localmem import MemoryStore
        with MemoryStore(sys.argv[1]) as store:
            (session,) = store.list_sessions()
            ctx = store.build_context(session.id)
            assert ctx.pins and ctx.recent_messages
            print(store.tokenizer._loaded)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "r.db")], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def _long_text(seed: int, size: int) -> str:
    words = ["hello", "world", "  ", "\n", "\n\n", "don't", "I'm", "123456", "3.14", "!!!", "...",
             "é", "日本語", "👩‍👩‍👧", "\t", " \n", "x=1;", "http://a.b/c?d=e", "  indented", "'s",
             "—", ")", "(", "\r\n", "a" * 3000]
    rng = random.Random(seed)
    out: list[str] = []
    while sum(map(len, out)) < size:
        out.append(rng.choice(words) + rng.choice([" ", " ", "", "\n", "  "]))
    return "".join(out)


@pytest.mark.parametrize("seed", range(5))
def test_a_long_text_counts_what_tiktoken_counts(seed: int) -> None:
    """Long texts are counted piece by piece: the same count as one call."""
    text = _long_text(seed, 150_000)
    enc = tiktoken.get_encoding("localmem_cl100k_base")
    assert Tokenizer().count(text) == len(enc.encode_ordinary(text))


@pytest.fixture
def encoded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every text handed to tiktoken's encoder (observed, not changed)."""
    seen: list[int] = []
    real = tiktoken.Encoding.encode_ordinary

    def observed(self: tiktoken.Encoding, text: str) -> list[int]:
        seen.append(len(text))
        return real(self, text)

    monkeypatch.setattr(tiktoken.Encoding, "encode_ordinary", observed)
    return seen


@pytest.mark.parametrize(
    "size", [pytest.param(4_000_000, id="4MB"), pytest.param(20_000_000, id="20MB", marks=pytest.mark.slow)]
)
def test_a_huge_run_of_one_letter_costs_a_context_what_its_budget_does(
    tmp_path: Path, encoded: list[int], size: int
) -> None:
    """One letter, millions of times: tiktoken's BPE costs 0.5 µs a character on such a
    run, so counting it took 13 s for 20 MB and every cold context 12.6 s more (the
    clip encoded it whole). Now no single call sees more than PIECE_CHARS, and a
    context encodes what its budget needs, however long the message."""
    with MemoryStore(tmp_path / "big.db", config={"cache_ttl": 0}) as store:
        s = store.create_session()
        message = store.add_message(s.id, "user", "a" * size)
        assert message.token_count == size // 8  # exact: "aaaaaaaa" is one token
        assert max(encoded) <= PIECE_CHARS
        for budget in (3000, 100_000):
            encoded.clear()
            ctx = store.build_context(s.id, max_tokens=budget)
            assert ctx.clipped and ctx.total_tokens <= budget
            assert sum(encoded) <= 64 * budget, sum(encoded)
