"""Deterministic extraction: what a conversation established, by phrase rules.

The floor under checkpoints and summary facts (origins 002 and 004): it needs
no model, gives the same answer for the same messages, and is what stays when
the local model is absent or fails. :func:`extract` reads ``(role, text)``
pairs, oldest first, and finds

- **preferences** the user stated ("I prefer ...", "I'd rather ...", "please
  always/never ...", a sentence opening with "don't", "never", "always",
  "avoid");
- **decisions** either side stated ("we decided ...", "let's use/go with
  ...", "we'll use ...", "we agreed ...", "decision: ...");
- **tasks** still to do ("TODO", "we still need to", "next, we'll ...",
  "don't forget to", "remember to", "next step"; not an admission the sentence makes:
  "I have to own up, ...");
- **goals** the user named ("my goal is", "I'm trying to", "the goal is");
- **references**: files (a name with a known extension), tables (SQL's
  FROM/JOIN/INTO/UPDATE/TABLE; in prose, "the users table" or "table users" only
  where the name reads as a table's: snake_case, a digit, quoted, a plural before
  "table", or a message about a database; never "the kitchen table", "a black table
  cloth", "the kids' table" (a possessive) nor "table manners"),
  URLs, and identifiers (`backticked` names, ticket keys such as ABC-123);
- **questions** the user asked (a question is never a preference, decision, task
  or goal), and **facts** (statements with a number or a reference).

A later statement that restates an earlier one with a word or two changed
(:func:`restates`: "I prefer concise answers" → "I prefer detailed answers")
replaces it; other statements accumulate, newest last. Each message is
read up to :data:`MAX_SCAN_CHARS` characters, so a huge message costs no more
than a long one. Pure functions; nothing here raises on any string.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .words import STOP_WORDS, lowered, stem, words

MAX_SCAN_CHARS = 4000
ITEM_CHARS = 200
"""Longest statement kept (cut with an ellipsis)."""
NAME_CHARS = 120
"""Longest reference kept (longer ones are not names)."""
MIN_CONTENT_CHARS = 3
GENERIC_LABELS = frozenset({"decision", "note", "todo", "to-do", "update", "preference", "fyi", "ps"})
RESTATE_MIN_WORDS = 4
RESTATE_OVERLAP = 0.6
REFERENCE_KINDS = ("files", "tables", "urls", "identifiers")
SENTENCE_CACHE = 256
"""Messages whose sentences are kept (at most :data:`MAX_SCAN_CHARS` characters each: a
few MB at worst), so that the rules and the offline summary of a range split it once."""

_I = re.IGNORECASE
# A sentence ends at . ! ? (not after a title or a common abbreviation) or a line break.
_ABBREVIATIONS = ("Dr", "Mr", "Mrs", "Ms", "Prof", "St", "Jr", "Sr", "vs", "etc", "e.g", "i.e", "approx")
# The cheap look-behind first: the abbreviations are checked only after a . ! or ?
# (nine times faster than the other way round, with the same splits).
_SPLIT = re.compile(
    r"(?<=[.!?])" + "".join(rf"(?<!\b{re.escape(a)}\.)" for a in _ABBREVIATIONS) + r"\s+|\n+"
)
_PREFERENCE = re.compile(
    r"\bI(?: really| strongly| always| generally)? (?:prefer|like it when|want you to|hate it when)\b"
    r"|\bI(?:'d| would) (?:rather|prefer|like you to)\b|\bmy preference\b"
    r"|\bplease (?:always|never|don'?t|do not|avoid|stop|keep|use|answer|reply|respond|write)\b"
    r"|^(?:please\s+)?(?:don'?t|do not|never(?! mind)|always|avoid|stop)\b",
    _I,
)
_DECISION = re.compile(
    r"\b(?:we|I)(?:'ve| have)? (?:decided|agreed|settled on|chose|chosen)\b"
    r"|\blet'?s (?:use|go with|stick with|keep|switch to|choose|pick|adopt|call it)\b"
    r"|\bwe(?:'ll| will| are going to|'re going to) (?:use|go with|stick with|switch to|keep)\b"
    r"|\bdecision:|\bgoing (?:forward|ahead) with\b",
    _I,
)
_SAYS_IT_NOW = r"(?!\s+(?:own up|admit|confess|say|be honest|tell you)\b)"
"""What "I have to" is not a task before: an admission or a saying the sentence itself makes
("I have to own up, it was me who got us lost", "I have to say, it's lovely")."""
_TASK = re.compile(
    rf"^(?:todo|to-do|to do)\b:?|\b(?:we|I) (?:still )?(?:need|have) to\b{_SAYS_IT_NOW}"
    rf"|\bstill (?:need|have) to\b{_SAYS_IT_NOW}"
    r"|\bnext,? (?:we|I)(?:'ll| will| should| need to| can)\b|\bnext step\b"
    r"|\bdon'?t forget to\b|\bremember to\b|\bleft to do\b",
    _I,
)
_GOAL = re.compile(
    r"\bmy (?:main )?goal is\b|\bthe goal is\b|\bI'?m trying to\b|\bI am trying to\b"
    r"|\bwe(?:'re| are) (?:building|trying to)\b",
    _I,
)
# Every match of each rule holds one of its literals (lower case): a sentence holding
# none is not searched (most sentences match no rule; tests/test_extract.py checks
# these against strings generated from the patterns).
PREFERENCE_LITERALS = (
    "prefer", "like it when", "want you to", "hate it when", "rather", "like you to", "please",
    "don", "do not", "never", "always", "avoid", "stop",
)
DECISION_LITERALS = (
    "decided", "agreed", "settled on", "chose", "let", "we'll ", "we will ", "we are going to ",
    "we're going to ", "decision:", "going forward with", "going ahead with",
)
TASK_LITERALS = (
    "todo", "to-do", "to do", "need to", "have to", "next", "forget to", "remember to",
)
GOAL_LITERALS = ("goal is", "trying to", "building")
_TODO_PREFIX = re.compile(r"^(?:todo|to-do|to do)\s*:?\s*", _I)
_URL = re.compile(r"\bhttps?://[^\s<>\"'`)\]]+", _I)
_EXTENSIONS = (
    "py|pyi|ipynb|js|jsx|mjs|ts|tsx|vue|svelte|sql|md|rst|txt|json|jsonl|csv|tsv|yaml|yml|toml|ini"
    "|cfg|conf|env|html|htm|css|scss|xml|rs|go|java|kt|swift|c|h|cc|cpp|hpp|cs|rb|php|sh|bash|zsh"
    "|ps1|r|lua|pl|scala|ex|exs|hs|dart|tf|proto|xlsx|xls|docx|doc|pdf|pptx|png|jpg|jpeg|svg|gif"
    "|db|sqlite|sqlite3|parquet|log|lock|dockerfile"
)
_FILE = re.compile(rf"(?<![\w/.@-])(?:~?/?[\w.-]+/)*[\w.-]*\w\.(?:{_EXTENSIONS})(?![\w/])", _I)
_FILE_END = re.compile(rf"\.(?:{_EXTENSIONS})(?![\w/])", _I)
"""The end of every file name :data:`_FILE` finds: a text without one names no file
(this pattern, starting with a ".", is found several times faster)."""
_SQL_TABLE = re.compile(r"\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+[`\"\[]?([A-Za-z_][\w.]*)")
_SQL_KEYWORDS = ("FROM", "JOIN", "INTO", "UPDATE", "TABLE")
_TABLE_AFTER = re.compile(r"\btable\s+([`\"']?)([A-Za-z_]\w*)", _I)
_TABLE_BEFORE = re.compile(r"\b([A-Za-z_]\w*)([`\"']?)\s+table\b", _I)
_DATABASE = re.compile(
    r"\b(?:sql|database|db|query|queries|columns?|rows?|schema|index|indexes|postgres(?:ql)?|mysql"
    r"|sqlite3?|select|insert|migrations?|join|primary key|foreign key)\b",
    _I,
)
"""Words of a message about a database: there, "the kitchen table" may be a table's name."""
_BACKTICKS = re.compile(r"`([^`\s][^`\n]{0,58}[^`\s])`")
_TICKET = re.compile(r"\b[A-Z][A-Z0-9]+-\d+(?:-\d+)*\b")
"""A ticket or booking code, whole: "OPS-2291", "FT-7731-482" (not cut at its second dash)."""
_DIGIT = re.compile(r"\d")
NOT_NAMES = frozenset(
    """
    a an the this that these those my your our their its his her each every any some one new
    same other which what of in on to for from with by as is are was be it them all no not
    temp temporary lookup look following whole entire and or but then so if has had have will
    can should would could do does did at also too there here above below
    select where set values join into from update table order group by drop create alter
    truncate
    """.split()
)
@dataclass
class Extracted:
    """What :func:`extract` found; lists oldest first, except references (newest first)."""

    preferences: list[str] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)
    tasks: list[str] = field(default_factory=list)
    goals: list[str] = field(default_factory=list)
    references: dict[str, list[str]] = field(
        default_factory=lambda: {kind: [] for kind in REFERENCE_KINDS}
    )
    questions: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)


def extract(pairs: Iterable[tuple[str, str]]) -> Extracted:
    """Run every rule over the messages, oldest first (see the module docstring)."""
    found = Extracted()
    for role, text in pairs:
        user = role == "user"
        head = text[:MAX_SCAN_CHARS]
        refs = references(head)
        for kind, names in refs.items():
            found.references[kind] = unique(names + found.references[kind])
        for sentence in sentences(head):
            if sentence.endswith("?"):  # asks: never a preference, decision, task or goal
                if user:
                    found.questions.append(sentence)
                continue
            low = lowered(sentence)
            if user and _holds(low, PREFERENCE_LITERALS) and _PREFERENCE.search(sentence):
                found.preferences = update(found.preferences, [sentence])
            elif _holds(low, DECISION_LITERALS) and _DECISION.search(sentence):
                found.decisions = update(found.decisions, [sentence])
            elif _holds(low, TASK_LITERALS) and _TASK.search(sentence):
                found.tasks.append(_TODO_PREFIX.sub("", sentence) or sentence)
            elif user and _holds(low, GOAL_LITERALS) and _GOAL.search(sentence):
                found.goals.append(sentence)
            elif _DIGIT.search(sentence) or any(_mentions(sentence, refs)):
                found.facts.append(sentence)
    found.tasks = unique(found.tasks)
    found.goals = unique(found.goals)
    found.questions = unique(found.questions)
    found.facts = unique(found.facts)
    return found


def sentences(text: str) -> Iterator[str]:
    """The sentences of ``text`` (split at . ! ? and line breaks), one line each, clipped."""
    return iter(_sentences(text[:MAX_SCAN_CHARS]))


@functools.lru_cache(maxsize=SENTENCE_CACHE)
def _sentences(head: str) -> tuple[str, ...]:
    # Cached: a range's offline summary and its rules' facts both split each message.
    out = []
    for part in _SPLIT.split(head):
        sentence = " ".join(part.split()).lstrip("-*•> ").strip()
        if len(sentence) >= MIN_CONTENT_CHARS:
            out.append(clip(sentence, ITEM_CHARS))
    return tuple(out)


def references(text: str) -> dict[str, list[str]]:
    """Files, tables, URLs and identifiers named in ``text``, newest (last) first."""
    head = text[:MAX_SCAN_CHARS]
    # Each pattern runs only where the text holds what any match of it must hold
    # (the same results; most messages name no URL, table or ticket).
    web = "://" in head
    urls = [u.rstrip(".,;:!?") for u in _URL.findall(head)] if web else []
    rest = _URL.sub(" ", head) if web else head
    files = [f for f in _FILE.findall(rest) if len(f) <= NAME_CHARS] if _FILE_END.search(rest) else []
    found_tables = _SQL_TABLE.findall(rest) if any(k in rest for k in _SQL_KEYWORDS) else []
    if "table" in rest.lower():
        about_data = _DATABASE.search(rest) is not None
        found_tables += [  # "table manners" names no table, "table log_2024" does
            n for q, n in _TABLE_AFTER.findall(rest) if about_data or q or _table_like(n, plural=False)
        ]
        for m in _TABLE_BEFORE.finditer(rest):
            n, q = m.groups()
            if q and rest[m.start(1) - 1 : m.start(1)] != q:
                continue  # "the kids' table": a possessive, no name quoted; nor a table's
            if about_data or q or _table_like(n):
                found_tables.append(n)
    tables = [
        t for t in (m.rstrip(".") for m in found_tables) if t.casefold() not in NOT_NAMES and len(t) >= 2
    ]
    named = {n.casefold() for n in files + tables + urls}
    idents = [
        i.strip()
        for i in (_BACKTICKS.findall(rest) if "`" in rest else ())
        if i.strip() and i.strip().casefold() not in named and not _FILE.fullmatch(i.strip())
    ]
    if "-" in rest:
        idents += _TICKET.findall(rest)
    found = {"files": files, "tables": tables, "urls": urls, "identifiers": idents}
    return {kind: unique(list(reversed(names))) for kind, names in found.items()}


def names_a(kind: str, name: str) -> bool:
    """Whether ``name`` can be a reference of ``kind`` at all: a file has a known
    extension ("sales.csv"), a table's name is no SQL keyword nor function word ("ALTER",
    "the"); URLs and identifiers are taken as given."""
    if kind == "files":
        return _FILE.fullmatch(name.strip()) is not None
    if kind == "tables":
        return name.strip().casefold() not in NOT_NAMES
    return True


def _table_like(name: str, plural: bool = True) -> bool:
    """Whether a word beside "table" in prose reads as a table's name: snake_case, a
    digit, or (``plural``: before "table") a plural ("the orders table"; not "glass")."""
    low = name.casefold()
    return "_" in name or _DIGIT.search(name) is not None or (
        plural and low.endswith("s") and not low.endswith("ss") and len(low) > 3
    )


def restates(new: str, old: str) -> bool:
    """True when ``new`` says the same thing as ``old`` with a word or two changed.

    Either both start with the same ``topic:`` (a model's keyed statement), or
    both have at least :data:`RESTATE_MIN_WORDS` words and share at least
    :data:`RESTATE_OVERLAP` of them (Jaccard, case-folded): "please answer in
    metric units" restates "please answer in imperial units"; "don't use
    emojis" and "don't use semicolons" are too short to tell, and both stay.
    """
    new_key, old_key = _key(new), _key(old)
    if new_key is not None or old_key is not None:
        return new_key == old_key
    a = set(words(new, numbers=False))
    b = set(words(old, numbers=False))
    if min(len(a), len(b)) < RESTATE_MIN_WORDS:
        return a == b
    return len(a & b) / len(a | b) >= RESTATE_OVERLAP


def update(items: list[str], new: Iterable[str]) -> list[str]:
    """``items`` with each of ``new`` appended, replacing an item it restates (or equals)."""
    out = list(items)
    for item in new:
        out = [old for old in out if old.casefold() != item.casefold() and not restates(item, old)]
        out.append(item)
    return out


def _key(statement: str) -> str | None:
    """The ``topic`` of a ``topic: statement`` (one word, not a generic label), else None."""
    head, sep, _ = statement.partition(": ")
    key = head.strip().casefold()
    if not sep or not key or len(key) > 40 or " " in key or key in GENERIC_LABELS:
        return None
    return key


def content_words(text: str) -> list[str]:
    """Case-folded words of four letters or more that are not stop words (nor numbers)."""
    return [w for w in words(text, numbers=False) if len(w) >= 4 and w not in STOP_WORDS]


def held(content: Iterable[str], haystack: str) -> int:
    """How many of the words ``content`` ``haystack`` (case-folded) holds, whole or by
    their stem."""
    return sum(1 for w in content if w in haystack or stem(w) in haystack)


def grounded(item: str, haystack: str, share: float = 0.0) -> bool:
    """True when ``item`` shares a content word with ``haystack`` (case-folded) and,
    with ``share``, at least that share of its content words; or has none to share:
    a model's item about nothing it was shown is dropped."""
    content = content_words(item)
    found = held(content, haystack)
    return not content or (found > 0 and found >= share * len(content))


def clip(text: str, limit: int) -> str:
    """``text`` on one line within ``limit`` characters (an ellipsis marks a cut),
    as valid UTF-8 (a lone surrogate, which a model's JSON can carry, becomes "?")."""
    line = " ".join(text.split())
    if len(line) > limit:
        line = line[: limit - 1].rstrip() + "…"
    return line.encode("utf-8", "replace").decode("utf-8")


def _holds(lowered: str, literals: tuple[str, ...]) -> bool:
    for literal in literals:  # a loop: a third faster than any() over a generator
        if literal in lowered:
            return True
    return False


def _mentions(sentence: str, refs: dict[str, list[str]]) -> Iterator[bool]:
    for names in refs.values():
        for name in names:
            yield name in sentence


def unique(items: list[str]) -> list[str]:
    """The items in order, each once (compared case-insensitively)."""
    seen: set[str] = set()
    out = []
    for item in items:
        key = item.casefold()
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out
