"""Synthetic conversations for the benchmarks: deterministic, English-like, offline.

A corpus is a list of sessions; each session holds alternating user and
assistant turns of 50-800 characters built from a fixed vocabulary, with
questions, Python snippets and "error" vocabulary sprinkled in at fixed
rates, plus five facts to pin and three texts to use as summaries. Everything
comes from one seeded ``random.Random``, so the same arguments always give
the same corpus, byte for byte.

``make_corpus`` builds the reference data set (20,000 messages over 200
sessions by default); ``iter_sessions`` streams ~100-message sessions for the
scale sweep without holding a million messages in memory.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

MIN_CHARS = 50
MAX_CHARS = 800

# A few hundred common words, so texts tokenize like ordinary prose.
_WORDS = """
the be to of and a in that have it for not on with he as you do at this but his by from they we
say her she or an will my one all would there their what so up out if about who get which go me
when make can like time no just him know take people into year your good some could them see
other than then now look only come its over think also back after use two how our work first well
way even new want because any these give day most us is was are been has had were said did getting
made find where much too very still being going why before never here more always those tell really
something nothing every each both few many such own same another while last long great little right
old big high different small large next early young important public bad able medicine doctor
morning evening week month garden kitchen recipe dinner lunch breakfast coffee tea walk train
travel ticket hotel flight meeting project deadline budget report email calendar reminder note list
file folder document database table query index memory context session message summary model
server client request response token budget cache window laptop phone screen keyboard battery
update install version package library module function class method variable value string number
array object loop test build deploy commit branch merge review release script terminal command
shell path config setting option default user assistant question answer idea plan goal task step
problem solution reason result example detail change fix support help learn read write open close
start stop run check send receive save load delete create remove add move copy print show hide
quickly slowly carefully easily exactly probably usually often sometimes almost already again
maybe perhaps actually simply clearly gently kindly warm cold bright quiet busy happy tired ready
allergic penicillin pharmacy appointment insurance prescription dose tablet symptom fever cough
grandmother daughter brother neighbour friend teacher student child family birthday holiday
weekend river mountain city village street station airport museum library park beach forest
python javascript rust sqlite json yaml http api cli docker linux windows macos editor plugin
""".split()

_ERRORS = (
    "an error",
    "an exception",
    "a traceback",
    "a failure",
    "a problem",
    "an issue",
    "a crash",
    "a timeout",
    "a bug",
    "a warning",
)
_QUESTION_OPENERS = (
    "How do I",
    "Why does",
    "What is the best way to",
    "Can you explain why",
    "Is it possible to",
    "Could you help me",
    "What happens when",
    "Should I",
    "Where can I find",
    "When should I",
)
_ASSISTANT_OPENERS = (
    "Sure.",
    "Good question.",
    "Here is what I would do.",
    "That makes sense.",
    "Let me explain.",
    "You can do that in two steps.",
    "The short answer is yes.",
    "It depends on the setup.",
)
_CODE_SNIPPETS = (
    "```python\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n```",
    '```python\nfor row in conn.execute("SELECT id, text FROM notes"):\n    print(row)\n```',
    "```python\ntry:\n    result = client.get(url, timeout=5)\nexcept TimeoutError as exc:\n"
    '    log.error("request failed: %s", exc)\n```',
    "```bash\npip install --upgrade package && python -m package --help\n```",
    "```python\nclass Cache:\n    def __init__(self):\n        self.items = {}\n```",
    "```js\nconst total = items.reduce((sum, x) => sum + x.price, 0);\n```",
    "```sql\nCREATE INDEX notes_owner ON notes (owner_id, created_at);\n```",
)
_PIN_TEMPLATES = (
    "The user's {a} is allergic to {b}.",
    "The user prefers {a} over {b}.",
    "Always answer about the {a} in short steps; mention the {b} first.",
    "The {a} deadline is next {b}.",
    "The user's {a} lives near the {b}.",
)

# Rates per message, fixed so that the corpus is the same on every run.
QUESTION_RATE = 0.35
CODE_RATE = 0.15
ERROR_RATE = 0.12

PINS_PER_SESSION = 5
SUMMARIES_PER_SESSION = 3


@dataclass(frozen=True)
class SessionData:
    """One conversation: alternating ``(role, text)`` turns, facts to pin, summary texts."""

    id: str
    messages: tuple[tuple[str, str], ...]
    pins: tuple[str, ...]
    summaries: tuple[str, ...]


@dataclass(frozen=True)
class Corpus:
    seed: int
    sessions: tuple[SessionData, ...]

    @property
    def n_messages(self) -> int:
        return sum(len(s.messages) for s in self.sessions)

    def describe(self) -> dict[str, float]:
        """Shape of the data, for the report."""
        texts = [t for s in self.sessions for _, t in s.messages]
        return {
            "messages": len(texts),
            "sessions": len(self.sessions),
            "mean_chars": round(sum(map(len, texts)) / len(texts), 1),
            "min_chars": min(map(len, texts)),
            "max_chars": max(map(len, texts)),
            "questions": sum("?" in t for t in texts),
            "code": sum("```" in t for t in texts),
        }


class _Writer:
    """Draws texts from one seeded generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def _length(self, role: str) -> int:
        # Skewed towards short user turns and longer answers, clipped to 50-800.
        mean = 160 if role == "user" else 380
        return max(MIN_CHARS, min(MAX_CHARS, int(self.rng.lognormvariate(0, 0.6) * mean)))

    def _sentence(self, words: int) -> str:
        body = " ".join(self.rng.choices(_WORDS, k=words))
        return body[0].upper() + body[1:] + "."

    def message(self, role: str) -> str:
        rng = self.rng
        target = self._length(role)
        parts: list[str] = []
        if role == "user" and rng.random() < QUESTION_RATE * 2:
            parts.append(f"{rng.choice(_QUESTION_OPENERS)} {' '.join(rng.choices(_WORDS, k=6))}?")
        elif role == "assistant":
            parts.append(rng.choice(_ASSISTANT_OPENERS))
        if rng.random() < ERROR_RATE:
            parts.append(
                f"I got {rng.choice(_ERRORS)} when I tried to {rng.choice(_WORDS)} the "
                f"{rng.choice(_WORDS)}."
            )
        if role == "assistant" and rng.random() < CODE_RATE * 2:
            parts.append(rng.choice(_CODE_SNIPPETS))
        while sum(map(len, parts)) + len(parts) - 1 < target:
            parts.append(self._sentence(rng.randint(5, 16)))
        text = " ".join(parts)
        if len(text) > MAX_CHARS:
            text = text[: MAX_CHARS - 1].rstrip() + "."
        return text

    def pin(self, i: int) -> str:
        a, b = self.rng.choices(_WORDS, k=2)
        return _PIN_TEMPLATES[i % len(_PIN_TEMPLATES)].format(a=a, b=b)

    def summary(self) -> str:
        topics = ", ".join(self.rng.sample(_WORDS, 4))
        return f"Conversation covering: {topics}. {self._sentence(12)}"

    def session(self, session_id: str, n_messages: int) -> SessionData:
        roles = ("user", "assistant")
        return SessionData(
            id=session_id,
            messages=tuple((roles[i % 2], self.message(roles[i % 2])) for i in range(n_messages)),
            pins=tuple(self.pin(i) for i in range(PINS_PER_SESSION)),
            summaries=tuple(self.summary() for _ in range(SUMMARIES_PER_SESSION)),
        )


def _lengths(rng: random.Random, n_messages: int, n_sessions: int) -> list[int]:
    """Session lengths between half and one and a half times the mean, adding up exactly."""
    mean = n_messages // n_sessions
    lengths = [rng.randint(max(8, mean // 2), max(8, mean * 3 // 2)) for _ in range(n_sessions)]
    # Move single messages in or out of random sessions until the total is exact.
    diff = n_messages - sum(lengths)
    while diff:
        i = rng.randrange(n_sessions)
        if diff > 0:
            lengths[i] += 1
            diff -= 1
        elif lengths[i] > 8:
            lengths[i] -= 1
            diff += 1
    return lengths


def make_corpus(n_messages: int = 20_000, n_sessions: int = 200, seed: int = 1234) -> Corpus:
    """The reference corpus: ``n_messages`` over ``n_sessions`` sessions of varied length."""
    if n_messages < 8 * n_sessions:
        raise ValueError("every session needs at least 8 messages")
    rng = random.Random(seed)
    writer = _Writer(rng)
    lengths = _lengths(rng, n_messages, n_sessions)
    sessions = tuple(writer.session(f"s{seed}-{i:05d}", n) for i, n in enumerate(lengths))
    return Corpus(seed=seed, sessions=sessions)


def iter_sessions(n_messages: int, per_session: int = 100, seed: int = 99) -> Iterator[SessionData]:
    """Sessions of ``per_session`` +-20% messages until ``n_messages`` are out (the last is cut)."""
    rng = random.Random(seed)
    writer = _Writer(rng)
    left, i = n_messages, 0
    while left > 0:
        n = min(left, rng.randint(per_session * 4 // 5, per_session * 6 // 5))
        if left - n < 8:  # never leave a tail too short to read a context from
            n = left
        yield writer.session(f"w{seed}-{i:07d}", n)
        left -= n
        i += 1
