"""Packing a context: what fits a token budget, in what order.

``pack`` is a pure function over rows already read from the file with their
stored token counts (a :class:`Read`) and how to pack them (a :class:`Policy`).
The budget is a hard ceiling, filled in priority order:

1. the newest ``min_recent`` messages (the oldest of them clipped, with a
   visible marker, rather than exceeding the budget);
2. pins, by importance;
3. the session state (``localmem.state``): the active goal, its open
   subtasks, its recent tool calls, the tracked files, then the archives of
   finished goals, newest first, within ``STATE_SHARE`` of the budget (the
   archives within ``ARCHIVE_SHARE``); then the latest checkpoint's lines
   (``localmem.checkpoint``), in their order, within ``CHECKPOINT_SHARE``;
   a line that does not fit is left out, the next may still fit;
4. summaries, newest first;
5. the rest of the recent messages, newest first, as long as they fit (with
   relevant messages to place, within ``RECENT_SHARE`` of what is left, so
   that a few long turns cannot crowd out the answer to the question);
6. older messages relevant to the query, best first, in all that is left:
   the budget serves the question. A long one may be shown cut to the
   sentences that answer (``Policy.shorten``, ``localmem.excerpt``) so more
   answers fit; the dates the query named lead the section (``Read.dates``).

With a query, the pins, summaries and checkpoint lines that ``Policy.earns``
rejects (they neither answer the query nor hold the user's lasting facts)
wait until after the relevant messages and take what they leave: a section
earns its tokens. The pins that earn their place only as lasting facts (not
``Policy.answers``) keep it within ``LASTING_SHARE`` of the budget, by
importance (the first of them in any case); the rest of them wait too. Without a query, nothing waits.

How the result reads, and the framing's costs, are ``localmem.context``'s.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from .context import (
    CLIP_MARKER, DATES_LINE, ROLE_SEPARATOR, Costs, MemoryContext, relevant_heading,
)
from .models import Message, Pin, Summary

SECTIONS = ("messages", "pins", "summaries", "relevant", "state", "checkpoint", "framing")
RECENT_SHARE = 1 / 2
"""With relevant messages to place, the most of what is left that the rest of the
recent messages may take."""
STATE_SHARE = 1 / 4
"""The most of the budget the session state may take."""
ARCHIVE_SHARE = 1 / 10
"""The most of the budget finished goals' archives may take (within the state's share)."""
CHECKPOINT_SHARE = 1 / 5
"""The most of the budget the checkpoint may take."""
LASTING_SHARE = 1 / 20
"""With a query, the most of the budget that pins answering nothing of it may take
ahead of the relevant messages as the user's lasting facts (about ten one-line facts
at 3,000 tokens): a file's lasting pins grow with every chat, the question's answers
do not."""

Line = tuple[str, int]
"""A rendered line and its token count (stored when its row was written)."""


class Group(NamedTuple):
    """Lines of the session state under one heading (``None``: no heading).

    ``capped``: the group is held to ``ARCHIVE_SHARE`` of the budget.
    """

    heading: str | None
    lines: tuple[Line, ...]
    capped: bool = False


Clipper = Callable[[str, int], str]
"""``(text, max_tokens) -> the longest end of text within max_tokens``."""


@dataclass(frozen=True)
class Read:
    """What a context is packed from, as read from one snapshot of the file.

    ``recent`` and ``summaries`` come newest first; ``relevant`` best first, all
    older than ``recent`` (a message of another session is labelled with its
    title from ``session_titles``); ``state`` and ``checkpoint`` in the order they
    are shown. ``token_ratio``: the session model's tokens per counted token.
    """

    session_id: str
    recent: Sequence[Message]
    pins: Sequence[Pin]
    summaries: Sequence[Summary]
    token_ratio: float = 1.0
    relevant: Sequence[Message] = ()
    session_titles: Mapping[str, str] | None = None
    query: str | None = None
    state: Sequence[Group] = ()
    checkpoint: Sequence[Line] = ()
    dates: Sequence[str] = ()
    """How the query's dates were read (``periods.Period.label``), shown with the relevant."""


@dataclass(frozen=True)
class Policy:
    """How a context is packed: the budget ``max_tokens``, the newest ``min_recent``
    messages kept first, the framing's ``costs``, how a message is clipped and text
    counted; at most ``max_relevant`` relevant messages, each paying its label's
    tokens, ``label_cost(label)`` (by default ``count``); ``shorten(message)``: the
    message as a relevant one is shown (cut to what answers, its tokens recounted);
    ``earns(text)``: whether a pin, summary or checkpoint line keeps its place ahead
    of the relevant messages (None: all do); ``answers(text)``: whether it answers the
    query (None: all do), the pins that earn their place otherwise keeping it within
    ``LASTING_SHARE``."""

    max_tokens: int
    min_recent: int
    costs: Costs
    clip: Clipper
    count: Callable[[str], int]
    max_relevant: int = 0
    label_cost: Callable[[str], int] | None = None
    shorten: Callable[[Message], Message] | None = None
    earns: Callable[[str], bool] | None = None
    answers: Callable[[str], bool] | None = None


def pack(read: Read, policy: Policy) -> MemoryContext:
    """Fill ``policy.max_tokens`` with what was ``read``, in priority order (the module's)."""
    session_id, recent, pins, summaries, token_ratio = (
        read.session_id, read.recent, read.pins, read.summaries, read.token_ratio
    )
    relevant, session_titles, query, state, checkpoint = (
        read.relevant, read.session_titles, read.query, read.state, read.checkpoint
    )
    max_tokens, min_recent, costs, clip, count = (
        policy.max_tokens, policy.min_recent, policy.costs, policy.clip, policy.count
    )
    max_relevant, label_cost = policy.max_relevant, policy.label_cost
    late_pins: Sequence[Pin] = ()
    late_summaries: Sequence[Summary] = ()
    late_lines: Sequence[Line] = ()
    if policy.earns is not None and relevant:
        earns = policy.earns
        pins, late_pins = _split(pins, lambda p: earns(p.content))
        if policy.answers is not None:
            more_pins = _beyond_share(pins, policy.answers, math.floor(max_tokens * LASTING_SHARE),
                                      costs.item)
            if more_pins:
                waiting = {id(p) for p in more_pins}
                pins = [p for p in pins if id(p) not in waiting]
                late_pins = _merged(read.pins, list(late_pins), more_pins)
        summaries, late_summaries = _split(summaries, lambda s: earns(s.text))
        checkpoint, late_lines = _split(checkpoint, lambda line: earns(line[0]))
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

    # The remembered material comes under its preamble: reserved if there is any to
    # show, given back below if none fitted; none at all if the preamble cannot fit.
    framing = 0
    if pins or summaries or relevant or state or checkpoint:
        if costs.preamble <= left:
            framing = costs.preamble
            left -= framing
        else:
            pins, summaries, relevant, state, checkpoint = (), (), (), (), ()

    kept_pins, pin_tokens = _take(pins, left, costs.pins_header, costs.item)
    left -= pin_tokens

    kept_state: list[str] = []
    state_tokens = 0
    if state:
        room = min(left, math.floor(max_tokens * STATE_SHARE))
        archive_room = math.floor(max_tokens * ARCHIVE_SHARE)
        state_tokens = _fill(state, room, archive_room, costs.state_header, costs, kept_state)
        left -= state_tokens
    kept_checkpoint: list[str] = []
    checkpoint_tokens = 0
    if checkpoint:
        room = min(left, math.floor(max_tokens * CHECKPOINT_SHARE))
        groups = (Group(None, tuple(checkpoint)),)
        checkpoint_tokens = _fill(groups, room, 0, costs.checkpoint_header, costs, kept_checkpoint)
        left -= checkpoint_tokens

    kept_summaries, summary_tokens = _take(summaries, left, costs.summaries_header, costs.item)
    left -= summary_tokens
    if not (pins or summaries or checkpoint or state) and not relevant:
        late_pins, late_summaries, late_lines = (), (), ()  # the preamble could not fit

    if not clipped:
        # Older recent messages only while they fit: the turns must stay contiguous.
        room = left if not relevant else math.floor(left * RECENT_SHARE)
        for message in recent[min_recent:]:
            if message.token_count > room:
                break
            kept.append(message)
            left -= message.token_count
            room -= message.token_count

    # Relevant older messages, best first, in whatever is left; the query's dates
    # lead them when there is room.
    titles = dict(session_titles or {})
    dates_line = DATES_LINE.format("; ".join(read.dates)) if read.dates else ""
    dates_tokens = count(dates_line) + costs.item if dates_line else 0
    if dates_tokens > left:
        dates_line, dates_tokens = "", 0
    kept_relevant, relevant_tokens = _take_relevant(
        relevant,
        left - dates_tokens,
        costs,
        limit=max_relevant,
        heading=functools.partial(relevant_heading, session_id=session_id, titles=titles),
        tokens=label_cost or count,
        shorten=policy.shorten,
    )
    if kept_relevant and dates_line:
        relevant_tokens += dates_tokens
    else:
        dates_line = ""
    left -= relevant_tokens

    # What did not earn its place ahead takes what the relevant messages left.
    if late_pins:
        header = costs.item if kept_pins else costs.pins_header
        more, tokens = _take(late_pins, left, header, costs.item)
        kept_pins, pin_tokens, left = _merged(read.pins, kept_pins, more), pin_tokens + tokens, left - tokens
    if late_lines:
        room = min(left, math.floor(max_tokens * CHECKPOINT_SHARE) - checkpoint_tokens)
        header = costs.item if kept_checkpoint else costs.checkpoint_header
        more_lines: list[str] = []
        tokens = _fill((Group(None, tuple(late_lines)),), room, 0, header, costs, more_lines)
        if more_lines:
            order = {text: n for n, (text, _) in enumerate(read.checkpoint)}
            kept_checkpoint = sorted([*kept_checkpoint, *more_lines], key=lambda t: order.get(t, 0))
            checkpoint_tokens += tokens
            left -= tokens
    if late_summaries:
        header = costs.item if kept_summaries else costs.summaries_header
        more, tokens = _take(late_summaries, left, header, costs.item)
        kept_summaries = _merged(read.summaries, kept_summaries, more)
        summary_tokens, left = summary_tokens + tokens, left - tokens

    if framing and not (kept_pins or kept_summaries or kept_relevant or kept_state or kept_checkpoint):
        left += framing
        framing = 0
    message_tokens = sum(m.token_count for m in kept)
    breakdown = {
        "messages": message_tokens,
        "pins": pin_tokens,
        "summaries": summary_tokens,
        "relevant": relevant_tokens,
        "state": state_tokens,
        "checkpoint": checkpoint_tokens,
        "framing": framing,
    }
    # The optional fields only when set: a default costs no validation.
    extra: dict = {} if query is None else {"query": query}
    if kept_relevant:
        extra["relevant_messages"] = tuple(sorted(kept_relevant, key=lambda m: m.id))
        if dates_line:
            extra["dates"] = tuple(read.dates)
        others = {m.session_id for m in kept_relevant} - {session_id}
        if others:
            extra["session_titles"] = {s: titles[s] for s in others if s in titles}
    if kept_state:
        extra["state"] = tuple(kept_state)
    if kept_checkpoint:
        extra["checkpoint"] = tuple(kept_checkpoint)
    return MemoryContext(
        session_id=session_id,
        recent_messages=tuple(reversed(kept)),
        pins=tuple(kept_pins),
        summaries=tuple(reversed(kept_summaries)),
        **extra,
        total_tokens=max_tokens - left,
        max_tokens=max_tokens,
        breakdown=breakdown,
        clipped=clipped,
        token_ratio=token_ratio,
    )


Counted = TypeVar("Counted", Message, Pin, Summary)
Item = TypeVar("Item")


def _split(items: Sequence[Item], keep: Callable[[Item], bool]) -> tuple[list[Item], list[Item]]:
    """``items`` that ``keep`` accepts, and the rest, each in order."""
    kept: list[Item] = []
    rest: list[Item] = []
    for item in items:
        (kept if keep(item) else rest).append(item)
    return kept, rest


def _merged(order: Sequence[Counted], first: list[Counted], more: list[Counted]) -> list[Counted]:
    """``first`` and ``more`` in the order of ``order`` (by identity)."""
    if not more:
        return first
    position = {id(item): n for n, item in enumerate(order)}
    return sorted([*first, *more], key=lambda item: position[id(item)])


def _beyond_share(
    pins: Sequence[Pin], answers: Callable[[str], bool], room: int, separator: int
) -> list[Pin]:
    """The ``pins`` that do not ``answer`` and, in order, no longer fit in ``room``
    (each paying its tokens and a ``separator``); the first of them always fits (a
    small budget still shows the user's most important lasting fact)."""
    beyond: list[Pin] = []
    used = 0
    for pin in pins:
        if answers(pin.content):
            continue
        cost = pin.token_count + separator
        if used + cost <= room or not used:
            used += cost
        else:
            beyond.append(pin)
    return beyond


def _take(
    items: Sequence[Counted],
    room: int,
    header: int,
    separator: int,
    *,
    limit: int | None = None,
) -> tuple[list[Counted], int]:
    """The items that fit in ``room``, in order (at most ``limit``), and their tokens.

    The first item kept pays the section's ``header``, every later one a line break.
    """
    kept: list[Counted] = []
    used = 0
    for item in items:
        if limit is not None and len(kept) >= limit:
            break
        cost = item.token_count + (separator if kept else header)
        if used + cost <= room:
            kept.append(item)
            used += cost
    return kept, used


def _take_relevant(
    messages: Sequence[Message],
    room: int,
    costs: Costs,
    *,
    limit: int,
    heading: Callable[[Message], str],
    tokens: Callable[[str], int],
    shorten: Callable[[Message], Message] | None = None,
) -> tuple[list[Message], int]:
    """The relevant messages that fit in ``room``, best first (at most ``limit``), and
    their tokens, as ``relevant_lines`` renders them: the section's header once, each
    distinct heading once, a ``role: `` label where a run of one speaker's turns begins
    under its heading (in id order); a line break between. A message placed inside a
    run pays no label, and one placed between two turns of one speaker makes the second
    pay one. Each as ``shorten`` shows it, when given."""
    kept: list[Message] = []
    runs: dict[str, tuple[list[int], list[str]]] = {}  # a heading: its ids and roles, in order
    labels: dict[str, int] = {}  # a role: its label's tokens
    used = 0
    item = costs.item
    for m in messages:
        if len(kept) >= limit or used >= room:
            break
        if shorten is not None:
            m = shorten(m)
        if used + m.token_count + item > room:
            # Its heading and labels only add (a label it saves the next turn, it pays
            # itself): it cannot fit, and the walk goes on without building its line.
            continue
        line = heading(m)
        run = runs.get(line)
        role = m.role
        label = labels.get(role)
        if label is None:
            label = labels[role] = tokens(role + ROLE_SEPARATOR)
        cost = m.token_count + item
        if run is None:
            cost += tokens(line) + (item if kept else costs.relevant_header) + label
            if used + cost <= room:
                kept.append(m)
                used += cost
                runs[line] = ([m.id], [role])
            continue
        ids, roles = run
        at = bisect.bisect(ids, m.id)
        before = roles[at - 1] if at else None
        if before != role:
            cost += label
        if at < len(roles):  # the next turn's label: needed now, or no longer
            after = roles[at]
            cost += labels[after] * ((after != role) - (after != before))
        if used + cost <= room:
            kept.append(m)
            used += cost
            ids.insert(at, m.id)
            roles.insert(at, role)
    return kept, used


def _fill(
    groups: Sequence[Group],
    room: int,
    capped_room: int,
    header: int,
    costs: Costs,
    out: list[str],
) -> int:
    """Append to ``out`` the lines of ``groups`` that fit in ``room``; return their tokens.

    The first line kept pays the section's ``header``, every later one a line
    break; a group's heading is kept with its first line that fits. A
    ``capped`` group's lines take at most ``capped_room`` in all.
    """
    used = 0
    item = costs.item
    for heading, lines, capped in groups:
        heading_cost = 0 if heading is None else costs.headings[heading] + item
        limit = min(room, used + capped_room) if capped else room
        for text, tokens in lines:
            cost = tokens + (item if out else header) + heading_cost
            if used + cost > limit:
                continue
            if heading_cost:
                out.append(heading)  # type: ignore[arg-type]
                heading_cost = 0
            out.append(text)
            used += cost
    return used


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
