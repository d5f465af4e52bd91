"""memos.by_text: a function's answers kept for short texts, long ones read afresh."""

from __future__ import annotations

from localmem.memos import by_text


def test_a_short_text_is_read_once_and_a_long_one_every_time() -> None:
    read: list[str] = []

    def length(text: str) -> int:
        read.append(text)
        return len(text)

    memo = by_text(length, size=2, max_chars=5)
    assert [memo("abc"), memo("abc"), memo("abcdefgh"), memo("abcdefgh")] == [3, 3, 8, 8]
    assert read == ["abc", "abcdefgh", "abcdefgh"]  # the long text was kept nowhere


def test_only_the_latest_texts_are_kept() -> None:
    read: list[str] = []
    memo = by_text(lambda text: read.append(text) or text.upper(), size=2, max_chars=10)
    for text in ["a", "b", "c", "a"]:  # "a" fell out when "c" came
        memo(text)
    assert read == ["a", "b", "c", "a"]
    memo("c")
    assert read == ["a", "b", "c", "a"]  # "c" still kept
