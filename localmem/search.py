"""Turning what a user typed into an FTS5 MATCH expression that cannot fail.

Pure functions, no SQL. Any text is a valid query: it is cut into words
(runs of letters and digits, as FTS5's ``unicode61`` tokenizer cuts it), and
the MATCH expression is built from those words alone, each one quoted, so
quotes, ``AND``/``OR``/``NOT``/``NEAR``, ``*``, ``^``, parentheses and column
filters (``text:``) in the query are only punctuation or words.

A natural question ("What was the school pickup code again?") is mostly stop
words; the rest (school, pickup, code) are ORed and ranked by BM25, so a
message holding any of them matches and one holding all of them ranks first.
Stems are the index's business: it uses the Porter stemmer, so "pickups"
finds "pickup" without prefix queries.

Words that occur in a great many documents cost the most to match (FTS5 reads
their whole document list to rank) and tell the least about relevance, so
``choose_terms`` keeps the rarest few, asking the caller for each word's
document count (capped, so asking costs little whatever the answer).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

from .words import STOP_WORDS, TOKEN, stem, tokens

MAX_QUERY_CHARS = 10_000
"""Only the start of a longer query is read (an auto-query can be a whole message)."""
MAX_TERM_CHARS = 64
"""Longer "words" (hashes, base64) are left out of a query."""
MAX_PROBED_TERMS = 6
"""At most this many words of a query have their document count looked up."""
MAX_MATCH_TERMS = 5
"""At most this many words go into the MATCH expression: the rarest ones."""
TERM_DOC_LIMIT = 1000
"""A word in more documents than this is too common to match on (see ``choose_terms``)."""

def query_terms(text: str, *, keep_stop_words: bool = False) -> list[str]:
    """The distinct index tokens of ``text`` (``words.tokens``), in order, stop words
    (``words.STOP_WORDS``) left out.

    Single Latin letters and words longer than ``MAX_TERM_CHARS`` are left out
    too. Never raises for any string.
    """
    words = dict.fromkeys(tokens(unicodedata.normalize("NFC", text[:MAX_QUERY_CHARS])))
    return [
        w
        for w in words
        if len(w) <= MAX_TERM_CHARS
        and not (len(w) == 1 and w.isascii() and w.isalpha())
        and (keep_stop_words or w not in STOP_WORDS)
    ]


def choose_terms(
    terms: Sequence[str],
    doc_count: Callable[[str], int],
    *,
    limit: int = TERM_DOC_LIMIT,
    fallback: bool = False,
) -> list[str]:
    """The words worth matching on: those in at least one and at most ``limit`` documents.

    The longest ``MAX_PROBED_TERMS`` words are looked up (``doc_count`` may
    stop counting past ``limit``); the rarest ``MAX_MATCH_TERMS`` of those in
    range are kept, rarest first. When every word is too common, ``fallback``
    keeps the rarest one anyway (a search must find something; a context can
    do without its relevant section).
    """
    probed = sorted(terms, key=len, reverse=True)[:MAX_PROBED_TERMS]
    counted = [(doc_count(t), i, t) for i, t in enumerate(probed)]
    present = sorted(c for c in counted if c[0] > 0)
    rare = [c for c in present if c[0] <= limit][:MAX_MATCH_TERMS]
    chosen = rare or (present[:1] if fallback else [])
    return [t for _, _, t in chosen]


def phrase(text: str) -> str:
    """``text`` as an FTS5 string: inside double quotes, nothing is an operator."""
    return '"' + text.replace('"', '""') + '"'


USER_KEY = "u0"
"""The key token of the user's pins (migration ``m010_scopes``): in every session's scope."""


KEY_COLUMN = "session_id"
"""The index column that holds a row's key token (migration ``m012_search_at_commit``)."""


def any_of(terms: Sequence[str], session_key: str | None = None) -> str:
    """A MATCH expression: any of ``terms`` in the text (every column but the key's:
    the text column is ``text`` or ``content``), and the session's key token (or
    the user's, whose pins every session sees) in the key's column if given, so
    no text can pass for a session's key."""
    either = " OR ".join(phrase(t) for t in terms)
    text = f"- {KEY_COLUMN} : ({either})"
    if session_key is None:
        return text
    keys = f"{phrase(session_key)} OR {phrase(USER_KEY)}"
    return f"{KEY_COLUMN} : ({keys}) AND {text}"


def message_holders(term: str, session_key: str | None = None) -> str:
    """A MATCH expression for the messages' index: ``term`` in the text, and the
    session's key token in the key's column if given. The same messages as
    ``any_of([term], session_key)``, cheaper to run (a column filter makes FTS5
    read every position of the word, an OR a second doclist):

    - a message's key column holds its session's key only, never the user's
      (``USER_KEY`` is the pins'), so the user's key is not asked for;
    - the word goes unfiltered when it cannot stand for a key token: keys are
      ``s``, hex digits and ``0`` (``session_key``), and the index's Porter
      stemmer only takes letters off or puts letters on a word's end, so a word
      that matches one begins with ``s`` and holds a ``0``. A word with a letter
      beyond ASCII (the tokenizer folds diacritics) keeps the filter too.
    """
    if term.isascii() and not (term[:1] == "s" and "0" in term):
        text = phrase(term)
    else:
        text = f"- {KEY_COLUMN} : {phrase(term)}"
    if session_key is None:
        return text
    return f"{KEY_COLUMN} : {phrase(session_key)} AND {text}"


def session_key(session_id: str) -> str:
    """The token a session's rows carry in the index.

    The same as the schema's ``'s' || hex(session_id) || '0'``
    (``migrations.SESSION_KEY_EXPR``); the tokenizer lowercases both.
    """
    return "s" + session_id.encode("utf-8").hex() + "0"


def plain_snippet(
    text: str, terms: Sequence[str], start_mark: str, end_mark: str, ellipsis: str, words: int
) -> str:
    """About ``words`` words of ``text`` around the first word that begins like one
    of ``terms`` (by ``words.stem``: "pickup" marks "pickups"), marked with ``start_mark``/``end_mark``.

    Linear in the text, whatever its size: for the texts FTS5's ``snippet()``
    would take quadratic time over. The text's start when no word matches.
    """
    stems = tuple(stem(t) for t in terms)
    found = None
    for match in TOKEN.finditer(text):
        if match.group().lower().startswith(stems):
            found = match
            break
    if found is None:
        head = text[: 20 * words].split()[:words]
        return " ".join(head) + (ellipsis if len(head) == words else "")
    start = max(0, found.start() - 10 * words)
    leading = text[start : found.start()].split()
    before = leading[-(words // 2) :] if words > 1 else []
    end = found.end() + 10 * words
    trailing = text[found.end() : end].split()
    after = trailing[: max(0, words - len(before) - 1)]
    lead = ellipsis if start > 0 or len(leading) > len(before) else ""
    tail = ellipsis if end < len(text) or len(trailing) > len(after) else ""
    return lead + " ".join([*before, start_mark + found.group() + end_mark, *after]) + tail
