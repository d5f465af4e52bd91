"""Long two-person conversations with questions about them, modelled on LoCoMo.

    python benchmarks/memory_corpus.py [--seed 7] [--conversations 10] [--show 3]

Deterministic (seeded, pure Python). Each conversation: two named speakers, 22-30
sessions a few days to two weeks apart (one session is one day, with a date and
times), ~20 turns a session of small talk that names the other ("Thanks, Melanie!",
"Haha yes"), chatter on recurring topics (work, home, pets, trips, books, family...)
and each person's story told across the sessions: the cities they lived in, jobs,
pets, hobbies, trips, milestones, books, family, favourites, plans and cars that
change, and facts stated in words no question will use (``memory_stories``).

Every question carries the indices of ALL the turns it needs (its evidence), of seven
kinds:

- ``single``: one turn holds the answer ("What breed is Melanie's dog?");
- ``multi``: 2 turns from different sessions ("Which companies has Caroline worked for?");
- ``spread``: 3-4 turns from different sessions ("Which cities has Caroline lived in?");
- ``dated`` and ``reply`` (``memory_asks``): a question naming the event's day or
  month, and an answer given as the reply to a question asked mid-turn;
- ``temporal``: "When did Melanie adopt her dog?", answered by the date of the
  evidence turn's session and what the turn says ("yesterday", "this morning");
- ``paraphrase``: the question shares no content word with its evidence turn
  (``content_words``: lowercased, stop words out, a light stemmer), e.g. "What pets
  wouldn't cause Joanna any discomfort?" -> "I'm allergic to most reptiles and
  animals with fur." The stored turn is prefixed with its speaker's name ("Joanna:
  ..."), so that name is the one word they share.

Only the evidence turns hold an answer: reactions, follow-ups and chatter share the
topic's words ("The dog woke me up at five again"), never a value, and ``generate``
asserts it (no other turn names a single or multi question's answer), with the
evidence ids, the sessions of multi questions and the counts per kind.

``--varied-chatter`` (off by default, so the figures stay comparable): the pooled chatter
repeats word for word, so only story turns hold words their speaker says once, a far
cleaner signal than a real transcript gives. With it, every turn of a fact's or chatter's
block that is not evidence (reactions, follow-ups, fillers, chatter; not the question an
evidence turn answers, not the greetings and closings) gets a specific, answer-free detail
sentence (``memory_details``), from a generator of its own: the stories, the evidence
turns, the questions and their answers are those of the default corpus.
"""

from __future__ import annotations

import argparse
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone

import memory_asks
import memory_details
import memory_phrases as S
from memory_stories import Ask, Fact, Person, content_words, story

KINDS = ("single", "multi", "spread", "temporal", "dated", "reply", "paraphrase")
DEFAULT_SEED = 7
DEFAULT_CONVERSATIONS = 10
MIN_PER_KIND = 40
MIN_QUESTIONS = 300


@dataclass(frozen=True)
class Turn:
    index: int
    speaker: str
    text: str
    session: int
    time: datetime

    @property
    def stored(self) -> str:
        """The turn as an app stores it: its speaker's name, then the words."""
        return f"{self.speaker}: {self.text}"


@dataclass(frozen=True)
class Conversation:
    id: str
    speakers: tuple[str, str]
    session_dates: tuple[date, ...]
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    id: str
    conversation: str
    kind: str
    text: str
    answer: str
    evidence: tuple[int, ...]  # turn indices in the conversation
    values: tuple[str, ...] = ()  # the answer's words, each in an evidence turn


@dataclass(frozen=True)
class Corpus:
    conversations: tuple[Conversation, ...]
    questions: tuple[Question, ...]


# --- layout: sessions, turns, times --------------------------------------------------


def schedule(facts: Sequence[Fact], sessions: int, rng: random.Random) -> dict[str, int]:
    """Each fact's session: a chain's facts in order, in distinct sessions, load spread;
    an echo in a session after its fact's (none if its fact is in the last one)."""
    chains: dict[str, list[Fact]] = {}
    for f in facts:
        if not f.after:
            chains.setdefault(f"{f.owner}:{f.chain}", []).append(f)
    load = Counter[int]()
    where: dict[str, int] = {}
    for chain in sorted(chains.values(), key=len, reverse=True):
        best = None
        for _ in range(12):
            picked = sorted(rng.sample(range(sessions), len(chain)))
            cost = sum(load[s] for s in picked)
            if best is None or cost < best[0]:
                best = (cost, picked)
        for f, s in zip(chain, best[1]):
            where[f.key] = s
            load[s] += 1
    for f in facts:
        later = range(where[f.after] + 1, sessions) if f.after else ()
        if later:
            where[f.key] = min(rng.sample(later, min(3, len(later))), key=lambda s: load[s])
            load[where[f.key]] += 1
    return where


def fact_block(f: Fact, people: Sequence[Person], rng: random.Random) -> list[tuple[int, str, str]]:
    """(speaker, text, evidence key or "") lines: maybe a prompt, the fact, its echoes."""
    owner, other = people[f.owner], people[1 - f.owner]
    lines = []
    if f.asked:  # the fact answers the other's question
        lines.append((other.index, f.asked, ""))
    elif rng.random() < 0.35:
        lines.append((other.index, rng.choice(S.PROMPTS).format(other=owner.name), ""))
    lines.append((owner.index, f.text, f.key))
    reaction = rng.choice(f.reactions).format(A=owner.name)
    lines.append((other.index, join(reaction, S.REACTION_TAILS, 0.65, rng), ""))
    if f.followups and rng.random() < 0.5:
        lines.append((owner.index, join(rng.choice(f.followups), S.ASIDES, 0.5, rng), ""))
    if rng.random() < 0.2:
        lines.append((other.index, rng.choice(S.FILLERS).format(other=owner.name), ""))
    return lines


def join(text: str, more: Sequence[str], odds: float, rng: random.Random) -> str:
    """``text``, followed with ``odds`` by a sentence of ``more``."""
    return sentences(text, rng.choice(more)) if rng.random() < odds else text


def sentences(first: str, second: str) -> str:
    return f"{first} {second}" if first[-1] in ".!?" else f"{first}! {second}"


def chatter_block(
    speaker: Person, listener: Person, open_tags: set[str], said: set[str], rng: random.Random
) -> list[tuple[int, str, str]]:
    """A few turns on a topic ``speaker`` may bring up; none of ``said`` (added to it)."""
    topics = [t for t in S.CHATTER if t[1] is None or t[1] in open_tags]
    _, _, lines = rng.choice(topics)
    fresh = [line for line in lines if line not in said]
    first, second, third = rng.sample(fresh if len(fresh) >= 3 else lines, 3)
    said.update((first, second, third))
    opener = vary(first, rng)
    opener = sentences(opener, third) if rng.random() < 0.75 else opener
    say = [(speaker.index, opener.format(other=listener.name), "")]
    odds = rng.random()  # the other relates with the topic's own words, or just answers
    reply = rng.choice(S.CHATTER_REPLIES)
    reply = sentences(reply, second) if odds < 0.5 else second if odds < 0.85 else reply
    say.append((listener.index, reply.format(other=speaker.name), ""))
    if rng.random() < 0.3:
        more = rng.choice(S.FILLERS) if rng.random() < 0.4 else rng.choice(S.ASIDES)
        say.append((speaker.index, more.format(other=listener.name), ""))
    return say


def vary(line: str, rng: random.Random) -> str:
    """The line with an opening ("Oh, ...") if a question, else maybe a closing ("... lol.")."""
    if line.endswith("?"):
        head = rng.choice(S.CHATTER_HEADS)
        keep = line.split(" ", 1)[0] in ("I", "I'm", "I've")
        return head + (line if keep or not head else line[0].lower() + line[1:])
    tail = rng.choice(S.CHATTER_TAILS) if line.endswith(".") and "{other}" not in line else ""
    return line[:-1] + tail if tail else line


def conversation(
    number: int, rng: random.Random, taken: set[str], varied: str | None = None
) -> tuple[Conversation, list[Question]]:
    """Conversation ``number`` between two people whose names are not in ``taken`` (added);
    with ``varied`` (a seed), its chatter turns carry details (module docstring)."""
    cid = f"conv-{number:02d}"
    free = [p for p in S.PEOPLE if p[0] not in taken]
    people = [Person(i, *p) for i, p in enumerate(rng.sample(free, 2))]
    taken.update(p.name for p in people)
    used: set[str] = {p.name for p in people}
    stories = [story(p, rng, used) for p in people]
    facts = [f for st in stories for f in st.facts]
    sessions = rng.randint(22, 30)
    day = date(2022, 1, 3) + timedelta(days=rng.randrange(500))
    dates = []
    for _ in range(sessions):
        dates.append(day)
        day += timedelta(days=rng.randint(3, 16))
    where = schedule(facts, sessions, rng)
    details = varied and memory_details.Details(asked_words(stories), random.Random(varied))
    answered = {f.asked for f in facts if f.asked}
    lines: list[tuple[int, str, str, int]] = []  # speaker, text, key, session
    opened: list[set[str]] = [set(), set()]
    for s in range(sessions):
        here = [f for f in facts if where.get(f.key) == s]
        blocks = [fact_block(f, people, rng) for f in here]
        target, said = rng.randint(18, 30) - 4, set()
        while sum(map(len, blocks)) < target:
            a = rng.randrange(2)
            blocks.append(chatter_block(people[a], people[1 - a], opened[a], said, rng))
        if details:  # own generator: ``rng`` draws what it draws without the option
            blocks = [
                [(sp, details.rewrite(sp, text) if not key and text not in answered else text, key)
                 for sp, text, key in block]
                for block in blocks
            ]
        rng.shuffle(blocks)
        a = rng.randrange(2)
        (x, y) = people[a], people[1 - a]
        greeting = join(rng.choice(S.GREETINGS), S.ASIDES, 0.5, rng)
        session_lines = [(x.index, greeting.format(other=y.name), "")]
        reply = join(rng.choice(S.GREETING_REPLIES), S.ASIDES, 0.4, rng)
        session_lines.append((y.index, reply.format(other=x.name), ""))
        for block in blocks:
            session_lines.extend(block)
        b = rng.randrange(2)
        (x, y) = people[b], people[1 - b]
        session_lines.append((x.index, rng.choice(S.CLOSINGS).format(other=y.name), ""))
        session_lines.append((y.index, rng.choice(S.CLOSING_REPLIES).format(other=x.name), ""))
        lines.extend((sp, text, key, s) for sp, text, key in session_lines)
        for f in here:  # topics a speaker may bring up from the next session on
            if f.tag:
                opened[f.owner].add(f.tag)
    turns, index_of, clock, session = [], {}, None, -1
    for i, (sp, text, key, s) in enumerate(lines):
        if s != session:
            session = s
            start = time(rng.randint(8, 20), rng.randrange(60))
            clock = datetime.combine(dates[s], start, tzinfo=timezone.utc)
        clock += timedelta(seconds=rng.randint(20, 180))
        turns.append(Turn(i, people[sp].name, text, s, clock))
        if key:
            index_of[key] = i
    offsets = {f.key: f.offset for f in facts}
    questions = []
    for st in stories:
        for ask in st.asks:
            evidence = tuple(sorted(index_of[k] for k in ask.keys))
            answer, text = ask.answer, ask.text
            if answer is None:
                (key,) = ask.keys
                answer = day_text(dates[where[key]] - timedelta(days=offsets[key]))
            if "{period}" in text:
                text = text.replace("{period}", period(ask.keys[0], facts, where, offsets, dates, rng))
            qid = f"{cid}-q{len(questions):03d}"
            questions.append(
                Question(qid, cid, ask.kind, text, answer, evidence, tuple(ask.values))
            )
            check_values(ask, evidence, turns, qid)
    convo = Conversation(cid, (people[0].name, people[1].name), tuple(dates), tuple(turns))
    return convo, questions


def asked_words(stories) -> set[str]:
    """The content words of every question, answer and answer value of ``stories``."""
    words: set[str] = set()
    for st in stories:
        for ask in st.asks:
            words |= content_words(" ".join((ask.text, ask.answer or "", *ask.values)))
    return words


def period(key: str, facts, where, offsets, dates, rng: random.Random) -> str:
    """How a dated question names the day of fact ``key``'s event: by its month when
    no other fact of its chain happened that month, else (and often anyway) by day."""
    def day(k: str) -> date:
        return dates[where[k]] - timedelta(days=offsets[k])

    chain = key.split(":")[1]
    month = {(day(f.key).year, day(f.key).month) for f in facts
             if f.key != key and f.key.split(":")[1] == chain and f.key in where and not f.after}
    by_month = rng.random() < 0.4 and (day(key).year, day(key).month) not in month
    return memory_asks.period_text(day(key), by_month)


def day_text(day: date) -> str:
    return f"{day.day} {day:%B %Y}"


def check_values(ask: Ask, evidence: tuple[int, ...], turns: Sequence[Turn], qid: str) -> None:
    """An answer's values are in its evidence and in no other turn of the conversation."""
    for value in ask.values:
        pattern = re.compile(rf"\b{re.escape(value)}\b", re.IGNORECASE)
        holders = {t.index for t in turns if pattern.search(t.text)}
        assert holders and holders <= set(evidence), (qid, value, holders, evidence)


# --- the corpus ------------------------------------------------------------------------


def generate(
    seed: int = DEFAULT_SEED, conversations: int = DEFAULT_CONVERSATIONS, check: bool = True,
    varied_chatter: bool = False,
) -> Corpus:
    """The corpus; with ``check``, asserts what every question promises (module docstring);
    with ``varied_chatter``, the chatter turns carry specific details."""
    rng = random.Random(seed)
    convos, questions, taken = [], [], set()
    for n in range(conversations):
        c, qs = conversation(n, rng, taken, f"varied-{seed}-{n}" if varied_chatter else None)
        convos.append(c)
        questions.extend(qs)
    corpus = Corpus(tuple(convos), tuple(questions))
    if check:
        sanity(corpus, full=conversations >= DEFAULT_CONVERSATIONS)
    return corpus


def sanity(corpus: Corpus, full: bool) -> None:
    by_id = {c.id: c for c in corpus.conversations}
    for q in corpus.questions:
        turns = by_id[q.conversation].turns
        assert q.kind in KINDS and q.evidence, q
        assert all(0 <= i < len(turns) for i in q.evidence), q
        sessions = {turns[i].session for i in q.evidence}
        if q.kind in ("multi", "spread"):
            assert 2 <= len(q.evidence) <= 4 and len(sessions) == len(q.evidence), q
            assert (len(q.evidence) >= 3) == (q.kind == "spread"), q
        else:
            assert len(q.evidence) == 1, q
        if q.kind == "paraphrase":
            shared = content_words(q.text) & content_words(turns[q.evidence[0]].text)
            assert not shared, (q, shared)
        if q.kind == "reply":  # asked mid-turn, just before
            asked = turns[q.evidence[0] - 1].text
            assert "?" in asked and not asked.endswith("?"), q
            assert not content_words(q.text) & content_words(turns[q.evidence[0]].text), q
        if q.kind == "dated":
            assert re.search(r" (on|in) [A-Z][a-z]+ ", q.text), q
        if q.kind == "temporal":
            assert re.search(
                r"today|yesterday|this |last night", turns[q.evidence[0]].text, re.I
            ), q
    for c in corpus.conversations:
        assert len({t.session for t in c.turns}) == len(c.session_dates) >= 20, c.id
        assert all(t.time.date() == c.session_dates[t.session] for t in c.turns), c.id
        assert [t.time for t in c.turns] == sorted(t.time for t in c.turns), c.id
    if full:
        counts = Counter(q.kind for q in corpus.questions)
        assert len(corpus.questions) >= MIN_QUESTIONS, counts
        assert all(counts[k] >= MIN_PER_KIND for k in KINDS), counts


def said_once(corpus: Corpus) -> dict[str, float]:
    """% of the evidence turns and of the other turns holding a content word their speaker
    says in no other turn of the conversation (what ``reranking.news`` reads as news)."""
    evidence = {(q.conversation, i) for q in corpus.questions for i in q.evidence}
    held = {"evidence": [0, 0], "other": [0, 0]}
    for c in corpus.conversations:
        words = [content_words(t.text) for t in c.turns]
        count = Counter((t.speaker, w) for t, ws in zip(c.turns, words) for w in ws)
        for t, ws in zip(c.turns, words):
            side = held["evidence" if (c.id, t.index) in evidence else "other"]
            side[0] += any(count[t.speaker, w] == 1 for w in ws)
            side[1] += 1
    return {k: 100 * n / total for k, (n, total) in held.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--conversations", type=int, default=DEFAULT_CONVERSATIONS)
    parser.add_argument("--show", type=int, default=0, help="print N questions of each kind")
    parser.add_argument("--varied-chatter", action="store_true",
                        help="chatter turns carry specific, answer-free details")
    args = parser.parse_args()
    corpus = generate(args.seed, args.conversations, varied_chatter=args.varied_chatter)
    kinds = Counter(q.kind for q in corpus.questions)
    for c in corpus.conversations:
        days = (c.session_dates[-1] - c.session_dates[0]).days
        print(
            f"{c.id}: {' & '.join(c.speakers)}, {len(c.session_dates)} sessions over {days}"
            f" days, {len(c.turns)} turns"
        )
    print(
        f"{sum(len(c.turns) for c in corpus.conversations)} turns, "
        f"{len(corpus.questions)} questions: {dict(kinds)}"
    )
    once = said_once(corpus)
    print(
        f"turns holding a word their speaker says nowhere else: evidence {once['evidence']:.1f}%,"
        f" the others {once['other']:.1f}%"
    )
    by_id = {c.id: c for c in corpus.conversations}
    for kind in KINDS:
        for q in [q for q in corpus.questions if q.kind == kind][: args.show]:
            turns = by_id[q.conversation].turns
            print(f"\n[{kind}] {q.text} -> {q.answer}")
            for i in q.evidence:
                t = turns[i]
                print(f"    #{i} ({by_id[q.conversation].session_dates[t.session]}) {t.stored}")


if __name__ == "__main__":
    main()
