"""Which messages each line of a checkpoint or of a summary's facts rests on (pure).

A line is named by its JSON path in the stored data (:func:`checkpoint_items`,
:func:`facts_items`: ``$.user_preferences[0]``, ``$.workflow_state.current_step``,
``$.key_facts[1]``), so ``json_extract(data, item)`` reads it in the file
(``checkpoint_sources``, ``fact_sources``: migration ``m014_sources``). Its sources
are found the way the line was kept:

- **quoted**: the rules' lines (``localmem.extract``) are sentences, or names, of the
  messages they were read from: the messages with a sentence that holds the line
  (case aside) are its sources;
- **grounded**: a model's line was kept because sentences support it
  (``localmem.grounding``: most of its words, with the same negations;
  ``statements.by_sentence``); a checkpoint carries the messages the judgement found
  out of it (``model_checkpoint.ModelCheckpoint.supported``), a summary's facts are read
  against their span the same way here (:meth:`Span.of`);
- **carried**: a checkpoint's line carried forward from the previous checkpoint keeps
  that line's sources (with the new messages that say it again).

A line of the session state (a goal, a subtask, a tracked file set through the API)
that no message says names none: the host's own act, as a manual pin without a
source is. Every source is a message of the owner's range: a checkpoint's are at or
before its ``through_message_id`` (carried ones too), a summary's facts' within its
span, so a forget that drops or rewrites every owner over a message (``localmem.forget``)
leaves no line on it. Nothing here raises on any ``str``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from . import extract as rules
from .grounding import SUPPORT_SHARE, Evidence, content_words, word_forms
from .models import CheckpointData, FactsData, Message
from .words import stem

_SPEAKER = re.compile(r"\b(?:the\s+)?user(?:'s|\u2019s|s)?\b", re.IGNORECASE)
"""How a model names the one who speaks ("The user is allergic to ..."): no word of what
was said (a model's fact is grounded without it too: ``facts``)."""

Sources = dict[str, tuple[int, ...]]
"""A line's JSON path -> the ids of the messages it rests on (oldest first)."""

CHECKPOINT_LISTS = ("active_goals", "pending_tasks", "key_decisions", "user_preferences")
FACTS_LISTS = ("key_facts", "decisions", "entities", "open_questions")


def checkpoint_items(data: CheckpointData) -> Iterator[tuple[str, str]]:
    """(JSON path, text) of every line of a checkpoint, in the order of its fields."""
    for name in CHECKPOINT_LISTS:
        yield from _listed(f"$.{name}", getattr(data, name))
    for kind in rules.REFERENCE_KINDS:
        yield from _listed(f"$.context_references.{kind}", getattr(data.context_references, kind))
    flow = data.workflow_state
    if flow.current_step:
        yield "$.workflow_state.current_step", flow.current_step
    yield from _listed("$.workflow_state.completed_steps", flow.completed_steps)
    yield from _listed("$.workflow_state.next_steps", flow.next_steps)


def facts_items(data: FactsData) -> Iterator[tuple[str, str]]:
    """(JSON path, text) of every line of a summary's facts."""
    for name in FACTS_LISTS:
        yield from _listed(f"$.{name}", getattr(data, name))


def _listed(path: str, items: Sequence[str]) -> Iterator[tuple[str, str]]:
    for index, text in enumerate(items):
        yield f"{path}[{index}]", text


@dataclass
class Span:
    """Messages (their ``ids`` and ``texts``, in order) read once, sentence by sentence,
    to find which of them a line rests on."""

    ids: Sequence[int]
    texts: Sequence[str]
    _said: list[str] = field(init=False, repr=False)
    _owners: list[int] = field(init=False, repr=False)
    _lowered: list[str] = field(init=False, repr=False)
    _read: Evidence | None = field(default=None, init=False, repr=False)

    @classmethod
    def over(cls, messages: Sequence[Message]) -> Span:
        """The span of ``messages``, in their order."""
        return cls([m.id for m in messages], [m.text for m in messages])

    def __post_init__(self) -> None:
        said = [(k, s) for k, text in enumerate(self.texts) for s in rules.sentences(text)]
        self._said = [s for _, s in said]
        self._owners = [k for k, _ in said]
        self._lowered = [s.casefold() for s in self._said]

    @property
    def _sentences(self) -> Evidence:
        """The sentences read as grounding reads them: only when a line quotes none
        (the rules' lines always quote theirs)."""
        if self._read is None:
            self._read = Evidence(self._said)
        return self._read

    def quoting(self, line: str) -> tuple[int, ...]:
        """The messages with a sentence holding ``line`` as it is written (case aside):
        where a rule's line, a sentence or a name, was read."""
        whole = " ".join(line.split()).casefold()
        wanted = whole.rstrip("…")  # a clipped line: its sentence was clipped alike
        if not wanted:
            return ()
        return self._ids(
            k for k, s in enumerate(self._lowered) if wanted in s and _as_words(wanted, s, wanted == whole)
        )

    def of(self, line: str) -> tuple[int, ...]:
        """The messages ``line`` rests on: those quoting it; else those with a sentence
        supporting it (``grounding``: most of its content words, same negations: what a
        model's line was kept for); else, for a question (which states nothing to
        support), those with a question holding :data:`grounding.SUPPORT_SHARE` of its
        content words. Empty when none does."""
        quoted = self.quoting(line)
        if quoted:
            return quoted
        line = _SPEAKER.sub(" ", line)  # "The user is allergic to ...": the speaker's words
        supporting = set(self._sentences.supporting(line))
        if supporting:
            return self._ids(k for k, s in enumerate(self._said) if s in supporting)
        wanted = {stem(w) for w in content_words(line)}
        if not wanted:
            return ()
        return self._ids(
            k for k, s in enumerate(self._said)
            if s.endswith("?") and len(wanted & word_forms(s)) >= SUPPORT_SHARE * len(wanted)
        )

    def _ids(self, sentences: Iterator[int]) -> tuple[int, ...]:
        return tuple(sorted({self.ids[self._owners[k]] for k in sentences}))


def _as_words(wanted: str, text: str, ends: bool) -> bool:
    """Whether ``text`` holds ``wanted`` starting at a word's start and (``ends``) ending
    at a word's end: a name is said as a word ("users", not the "users" of "superusers")."""
    at = text.find(wanted)
    while at >= 0:
        end = at + len(wanted)
        starts = at == 0 or not _word_char(text[at - 1]) or not _word_char(wanted[0])
        stops = not ends or end == len(text) or not _word_char(text[end]) or not _word_char(wanted[-1])
        if starts and stops:
            return True
        at = text.find(wanted, at + 1)
    return False


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def facts_sources(data: FactsData, span: Span) -> Sources:
    """Each line of a summary's facts (:func:`facts_items`) with the messages of its
    span it rests on (:meth:`Span.of`); a line resting on none is left out."""
    out = {path: span.of(text) for path, text in facts_items(data)}
    return {path: ids for path, ids in out.items() if ids}


def checkpoint_sources(
    data: CheckpointData,
    span: Span,
    previous: Mapping[str, Sequence[int]] | None = None,
    judged: Mapping[str, tuple[Sequence[int], Sequence[str]]] | None = None,
) -> Sources:
    """Each line of a checkpoint (:func:`checkpoint_items`) with the messages it rests on.

    ``span``: the messages the checkpoint read (those since the previous one);
    ``previous``: the previous checkpoint's lines, by text (:func:`by_text`), with their
    sources; ``judged``: by text, what each model line was kept for
    (``model_checkpoint.Support``: the messages supporting it, and the checkpoint's own lines
    that did, whose sources it takes). Any other line is the rules' or the state's: its
    sources are the new messages quoting it (:meth:`Span.quoting`). A line the previous
    checkpoint held keeps that line's sources too (carried forward), and a line nothing
    else sources that a line of it quotes (a name in a carried statement) takes that
    line's. A line of the state alone names none and is left out."""
    carried = {text.casefold(): tuple(ids) for text, ids in (previous or {}).items()}
    judged = judged or {}

    def own(text: str) -> set[int]:
        key = text.casefold()
        found = set(span.quoting(text)) | set(carried.get(key, ()))
        if not found:
            found.update(i for old, ids in carried.items() if key in old for i in ids)
        return found

    out: Sources = {}
    for path, text in checkpoint_items(data):
        if text in judged:
            messages, lines = judged[text]
            found = set(messages).union(*(own(line) for line in lines))
            found.update(carried.get(text.casefold(), ()))
        else:
            found = own(text)
        if found:
            out[path] = tuple(sorted(found))
    return out


def by_text(data: CheckpointData, sources: Mapping[str, Sequence[int]]) -> dict[str, tuple[int, ...]]:
    """A stored checkpoint's line sources (by JSON path) keyed by each line's text, for
    the next checkpoint to carry (:func:`checkpoint_sources`'s ``previous``)."""
    out: dict[str, tuple[int, ...]] = {}
    for path, text in checkpoint_items(data):
        ids = tuple(sources.get(path, ()))
        if ids:
            out[text] = tuple(sorted({*out.get(text, ()), *ids}))
    return out


def rows(owner_id: int, sources: Mapping[str, Sequence[int]]) -> list[tuple[int, str, int]]:
    """(owner id, JSON path, message id) rows, as ``checkpoint_sources`` and
    ``fact_sources`` store them."""
    return [(owner_id, path, mid) for path, ids in sources.items() for mid in ids]
