"""Issue 22's points 1-4 measured on what a context shows: figures for the audit
(``results/issue22_audit.md``), where ``memory.py`` gives only a share per kind.

    python benchmarks/issue22_audit.py [--quick]

On the memory benchmark's store (``memory.py``'s corpus and ingest, lexical: no
embedder), every question's ``build_context(session, max_tokens=3000, query=q)``:

1. packing: how many relevant turns are shown cut to their sentences (``…`` where
   words were left out), each under its day heading in the rendered text; how many
   evidence turns are held by such an excerpt with the answer's words; the most
   tokens any context took at 3,000, 1,000 and 300 tokens (the hard ceiling). Then
   a synthetic store of long turns (``LONG_TURNS``, one answering sentence among
   filler each, one a day): how many answer turns a 3,000-token context holds, and
   how many whole turns that budget would fit.
2. dates: the ``dated`` questions whose context names the dates it used
   (``MemoryContext.dates``, the line leading the relevant messages).
4. spread: per context, the most relevant turns from one session and day, and the
   most near-copies (word overlap ``reranking.NEAR_COPY``) from one day.

Points 3, 5, 6 and 7 are measured by ``memory.py`` (the ``reply`` kind), the tests
and ``query.py`` / ``mcp_server.py``: the audit names each command.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import tempfile
from collections import Counter
from pathlib import Path

os.environ["OLLAMA_HOST"] = "http://127.0.0.1:9"  # nothing listens: no model, no embedder

import memory  # noqa: E402
import memory_corpus  # noqa: E402

from localmem import MemoryConfig, MemoryStore  # noqa: E402
from localmem.reranking import NEAR_COPY, words  # noqa: E402

BUDGETS = (3000, 1000, 300)
LONG_TURNS = 40
"""Answer turns of the synthetic long-turn store (one a day)."""
OTHER_TURNS = 400
"""Other turns of that store, long ones among them: the answer's words stay specific
(held by at most a tenth of the messages, what ``Recall`` cuts excerpts by)."""
FILLER = (
    "The weather was grey again and the bus ran late as it always does on Mondays. "
    "We talked for a while about the neighbours and their endless renovation project. "
    "Then somebody brought up the football scores and the whole table groaned at once. "
    "Later we argued about whether to repaint the hallway before the winter sets in. "
)
_HEADING = re.compile(r"^\d{4}-\d{2}-\d{2}\b")


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _under_heading(text: str, rendered: list[str]) -> bool:
    """Whether the line showing ``text`` in ``rendered`` stands under a day heading."""
    for n, line in enumerate(rendered):
        if text.splitlines()[0] in line:
            return any(_HEADING.match(before) for before in rendered[:n][::-1])
    return False


def corpus_figures(quick: bool) -> None:
    n = memory.QUICK_CONVERSATIONS if quick else memory_corpus.DEFAULT_CONVERSATIONS
    corpus = memory_corpus.generate(memory_corpus.DEFAULT_SEED, n)
    turns = {c.id: c.turns for c in corpus.conversations}
    cut = under = held_by_cut = dated_named = dated = 0
    most_tokens = dict.fromkeys(BUDGETS, 0)
    most_day = Counter()
    most_copies = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        clock = memory.Clock()
        config = MemoryConfig(embedding_model=None)
        with MemoryStore(Path(tmp) / "m.db", config=config, clock=clock) as store:
            ids, _ = memory.ingest(store, clock, corpus)
            stored = {ids[key]: turns[key[0]][key[1]].stored for key in ids}
            for q in corpus.questions:
                for budget in BUDGETS:
                    ctx = store.build_context(q.conversation, max_tokens=budget, query=q.text)
                    most_tokens[budget] = max(most_tokens[budget], ctx.total_tokens)
                    if budget != 3000:
                        continue
                    rendered = "\n".join(m["content"] for m in ctx.to_messages()).splitlines()
                    evidence = {ids[q.conversation, i] for i in q.evidence}
                    per_day = Counter((m.session_id, m.created_at[:10]) for m in ctx.relevant_messages)
                    most_day[max(per_day.values(), default=0)] += 1
                    copies = 0
                    for m in ctx.relevant_messages:
                        mine = words(m.text)
                        near = sum(
                            1 for o in ctx.relevant_messages
                            if o.id != m.id and o.created_at[:10] == m.created_at[:10]
                            and _jaccard(mine, words(o.text)) >= NEAR_COPY
                        )
                        copies = max(copies, near + 1 if near else 0)
                    most_copies[copies] += 1
                    for m in ctx.relevant_messages:
                        if m.text != stored[m.id]:
                            cut += 1
                            under += _under_heading(m.text, rendered)
                            held_by_cut += m.id in evidence and memory.holds(
                                m.text, stored[m.id], q.values
                            )
                    if q.kind == "dated":
                        dated += 1
                        dated_named += bool(ctx.dates)
    print(f"memory corpus ({len(corpus.questions)} questions, lexical):")
    print(f"  1. relevant turns shown cut: {cut}; under a day heading: {under}; "
          f"evidence turns held by a cut with the answer's words: {held_by_cut}")
    for budget, most in most_tokens.items():
        print(f"  1. most tokens of any context at {budget:,}: {most:,}")
    print(f"  2. dated questions whose context names the dates used: {dated_named}/{dated}")
    print(f"  4. contexts by the most relevant turns from one session and day: "
          f"{dict(sorted(most_day.items()))}")
    print(f"  4. contexts by the most near-copies from one day (0: none): "
          f"{dict(sorted(most_copies.items()))}")


def long_turns(others: int = OTHER_TURNS) -> None:
    """Long turns, one answering sentence each: answers held at 3,000 tokens, among
    ``others`` turns (with few, the answer's words are held by over a tenth of them)."""
    start = dt.datetime(2025, 1, 1, 9, tzinfo=dt.timezone.utc)
    now = [start]
    with tempfile.TemporaryDirectory() as tmp:
        config = MemoryConfig(embedding_model=None)
        with MemoryStore(Path(tmp) / "l.db", config=config, clock=lambda: now[0]) as store:
            s = store.create_session()
            answers = []
            for day in range(LONG_TURNS):
                now[0] = start + dt.timedelta(days=day)
                text = f"{FILLER}I planted {day + 2} tulip bulbs by the shed today. {FILLER}"
                answers.append(store.add_message(s.id, "user", text))
            for n in range(others):  # the rest of the chat, then recent chatter
                now[0] = start + dt.timedelta(days=LONG_TURNS, minutes=n)
                text = FILLER if n % 2 else f"Noted, item {n}."
                store.add_message(s.id, "assistant" if n % 2 else "user", text)
            ctx = store.build_context(s.id, max_tokens=3000, query="How many tulip bulbs did I plant?")
            shown = {m.id: m.text for m in ctx.relevant_messages}
            held = sum(a.id in shown and f"{n + 2} tulip" in shown[a.id] for n, a in enumerate(answers))
            whole = 3000 // answers[0].token_count
            cut = sum(a.id in shown and shown[a.id] != a.text for a in answers)
    print(f"  1. long turns ({answers[0].token_count} tokens, one answering sentence each, "
          f"{LONG_TURNS} of them among {LONG_TURNS + others} turns): {held} answers held at "
          f"3,000 tokens ({cut} cut), whole turns would fit at most {whole}; context "
          f"{ctx.total_tokens} tokens")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="three conversations")
    args = parser.parse_args()
    long_turns()
    long_turns(others=40)  # the answer's words in 40 of 80 turns: none of them specific
    corpus_figures(args.quick)


if __name__ == "__main__":
    main()
