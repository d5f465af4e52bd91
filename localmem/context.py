"""The context handed to a model: what fits a token budget, in what order.

``pack`` is a pure function over rows already read from the file and their
stored token counts. The budget is a hard ceiling, filled in priority order:

1. the newest ``min_recent`` messages (the oldest of them clipped, with a
   visible marker, rather than exceeding the budget);
2. pins, by importance;
3. summaries, newest first;
4. older messages relevant to the query, best first, within their own share
   of the budget (``RELEVANT_SHARE``) and while they fit whole;
5. the rest of the recent messages, newest first, as long as they fit.

Whatever order filled it, the context reads in natural order:
``to_messages()`` gives one system message holding the summaries (oldest
first), the pins and the relevant older messages (oldest first, each with its
role), then the turns oldest to newest.

``total_tokens`` counts what ``to_messages()`` carries: the stored counts of
the items plus the section headers and line breaks that join them (an upper
bound; the chat format's own per-message framing is the model's, not ours).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from .models import ROLES, Message, Pin, Summary

SUMMARIES_HEADER = "[Earlier in this conversation, summarized]"
PINS_HEADER = "[Pinned facts]"
RELEVANT_HEADER = "[Earlier messages relevant to the question]"
ROLE_SEPARATOR = ": "
CLIP_MARKER = "[… earlier part of this message clipped to fit the context …]\n"
SECTION_SEPARATOR = "\n\n"
ITEM_SEPARATOR = "\n"

SECTIONS = ("messages", "pins", "summaries", "relevant")
RELEVANT_SHARE = 1 / 3
"""The most of the budget the relevant older messages may take."""


class MemoryContext(BaseModel):
    """A context built for one model call; a read-only snapshot.

    ``recent_messages`` read oldest to newest; ``pins`` by importance;
    ``summaries`` oldest to newest (a level-2 rollup first);
    ``relevant_messages`` are older messages of the session that match
    ``query`` (given, or the newest user message with ``auto_query``), oldest
    to newest. Token figures are cl100k counts: ``breakdown`` gives each
    section's share of ``total_tokens``, which never exceeds ``max_tokens``;
    ``clipped`` says a message's text was cut to fit.
    """

    model_config = ConfigDict(frozen=True)

    session_id: str
    recent_messages: tuple[Message, ...]
    pins: tuple[Pin, ...]
    summaries: tuple[Summary, ...]
    relevant_messages: tuple[Message, ...] = ()
    query: str | None = None
    total_tokens: int
    max_tokens: int
    breakdown: dict[str, int]
    clipped: bool = False
    token_ratio: float = 1.0
    """The session model's tokens per cl100k token (1.0 until measured); the
    budget asked for was ``max_tokens * token_ratio`` of the model's tokens."""

    def memory_text(self) -> str:
        """The system content: the summaries, the pins, then the relevant older
        messages (``role: text``), each section under its header."""
        sections = []
        if self.summaries:
            sections.append(_section(SUMMARIES_HEADER, [s.text for s in self.summaries]))
        if self.pins:
            sections.append(_section(PINS_HEADER, [p.content for p in self.pins]))
        if self.relevant_messages:
            sections.append(
                _section(
                    RELEVANT_HEADER,
                    [m.role + ROLE_SEPARATOR + m.text for m in self.relevant_messages],
                )
            )
        return SECTION_SEPARATOR.join(sections)

    def to_messages(self, system_prompt: str | None = None) -> list[dict[str, str]]:
        """Chat messages ready for ``ollama.chat`` or an OpenAI-style API.

        ``system_prompt``, if given, leads the system message; it is the
        caller's own text and is not part of the budget.
        """
        system = [part for part in (system_prompt, self.memory_text()) if part]
        out = [{"role": "system", "content": SECTION_SEPARATOR.join(system)}] if system else []
        out.extend({"role": m.role, "content": m.text} for m in self.recent_messages)
        return out


def _section(header: str, items: Sequence[str]) -> str:
    return header + ITEM_SEPARATOR + ITEM_SEPARATOR.join(items)


@dataclass(frozen=True)
class Costs:
    """Token costs of the text that frames the items, counted once per store."""

    summaries_header: int
    pins_header: int
    relevant_header: int
    item: int
    clip_marker: int
    role_prefix: dict[str, int]
    """Tokens of ``role + ROLE_SEPARATOR`` before a relevant message, by role."""

    @classmethod
    def measure(cls, count: Callable[[str], int]) -> Costs:
        return cls(
            summaries_header=count(SECTION_SEPARATOR + SUMMARIES_HEADER + ITEM_SEPARATOR),
            pins_header=count(SECTION_SEPARATOR + PINS_HEADER + ITEM_SEPARATOR),
            relevant_header=count(SECTION_SEPARATOR + RELEVANT_HEADER + ITEM_SEPARATOR),
            item=count(ITEM_SEPARATOR),
            clip_marker=count(CLIP_MARKER),
            role_prefix={role: count(role + ROLE_SEPARATOR) for role in ROLES},
        )


# The framing text counted in cl100k_base, so that a process that only reads
# contexts never loads the encoder (~40 MB and ~0.15 s); a test checks them.
CL100K_COSTS = Costs(
    summaries_header=9,
    pins_header=5,
    relevant_header=9,
    item=1,
    clip_marker=13,
    role_prefix={"system": 3, "user": 3, "assistant": 3, "tool": 3},
)
PRECOUNTED_COSTS = {"cl100k_base": CL100K_COSTS}


Clipper = Callable[[str, int], str]
"""``(text, max_tokens) -> the longest end of text within max_tokens``."""


def pack(
    session_id: str,
    recent: Sequence[Message],
    pins: Sequence[Pin],
    summaries: Sequence[Summary],
    *,
    max_tokens: int,
    min_recent: int,
    costs: Costs,
    clip: Clipper,
    count: Callable[[str], int],
    token_ratio: float = 1.0,
    relevant: Sequence[Message] = (),
    max_relevant: int = 0,
    query: str | None = None,
) -> MemoryContext:
    """Fill ``max_tokens`` in priority order. ``recent`` and ``summaries`` come newest first;
    ``relevant`` best first, all older than ``recent`` (at most ``max_relevant`` are kept)."""
    left = max_tokens
    kept: list[Message] = []
    clipped = False

    for message in recent[:min_recent]:
        if message.token_count <= left:
            kept.append(message)
            left -= message.token_count
            continue
        cut = _clip(message, left, costs, clip, count)
        if cut is not None:
            kept.append(cut)
            left -= cut.token_count
        clipped = True
        break

    kept_pins: list[Pin] = []
    for pin in pins:
        cost = pin.token_count + (costs.item if kept_pins else costs.pins_header)
        if cost <= left:
            kept_pins.append(pin)
            left -= cost

    kept_summaries: list[Summary] = []
    for summary in summaries:
        cost = summary.token_count + (costs.item if kept_summaries else costs.summaries_header)
        if cost <= left:
            kept_summaries.append(summary)
            left -= cost

    # Relevant older messages whole or not at all (the matching words may be
    # anywhere in one), best first, within their share of the budget.
    kept_relevant: list[Message] = []
    relevant_tokens = 0
    if relevant:
        room = min(left, math.floor(max_tokens * RELEVANT_SHARE))
        for message in relevant:
            if len(kept_relevant) >= max_relevant:
                break
            cost = costs.role_prefix[message.role] + message.token_count
            cost += costs.item if kept_relevant else costs.relevant_header
            if cost <= room:
                kept_relevant.append(message)
                relevant_tokens += cost
                room -= cost
        left -= relevant_tokens

    if not clipped:
        # Older recent messages only while they fit: the turns must stay contiguous.
        for message in recent[min_recent:]:
            if message.token_count > left:
                break
            kept.append(message)
            left -= message.token_count

    message_tokens = sum(m.token_count for m in kept)
    pin_tokens = sum(p.token_count for p in kept_pins)
    if kept_pins:
        pin_tokens += costs.pins_header + costs.item * (len(kept_pins) - 1)
    summary_tokens = sum(s.token_count for s in kept_summaries)
    if kept_summaries:
        summary_tokens += costs.summaries_header + costs.item * (len(kept_summaries) - 1)
    breakdown = {
        "messages": message_tokens,
        "pins": pin_tokens,
        "summaries": summary_tokens,
        "relevant": relevant_tokens,
    }
    # The query fields only when there is a query: a default costs no validation.
    extra: dict = {} if query is None else {"query": query}
    if kept_relevant:
        extra["relevant_messages"] = tuple(sorted(kept_relevant, key=lambda m: m.id))
    return MemoryContext(
        session_id=session_id,
        recent_messages=tuple(reversed(kept)),
        pins=tuple(kept_pins),
        summaries=tuple(reversed(kept_summaries)),
        **extra,
        total_tokens=message_tokens + pin_tokens + summary_tokens + relevant_tokens,
        max_tokens=max_tokens,
        breakdown=breakdown,
        clipped=clipped,
        token_ratio=token_ratio,
    )


def _clip(
    message: Message, allowed: int, costs: Costs, clip: Clipper, count: Callable[[str], int]
) -> Message | None:
    """The message cut to its newest part within ``allowed`` tokens, or None if nothing fits."""
    room = allowed - costs.clip_marker
    while room > 0:
        text = CLIP_MARKER + clip(message.text, room)
        tokens = count(text)
        if tokens <= allowed:
            return message.model_copy(update={"text": text, "token_count": tokens})
        room -= tokens - allowed
    return None
