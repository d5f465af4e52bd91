"""Whether a model's checkpoint item stands: its status's field, and why it does not stand.

A small model's checkpoint lists "get binoculars" as a task the user turned down, "Book
Osaka for three nights" of "Three in Kyoto, then six in Osaka", the advice "check again
after 15 minutes" for a case that never came, and steps the chat reports done. Each is read
against the sentences that state it (pure functions; they never raise on any ``str``):

- :func:`placed`: where an item's status puts it, read from the sentences that say its verb;
- ``replies.ruled_out``: the chat advised against it or refused it ("Please don't: ...");
- :func:`declined`: what it acts on was offered and turned down ("Have you thought about
  getting binoculars?" "... Not spending 300 bucks on new ones");
- :func:`only_if`: it is advice for a case the chat does not say came ("If it drops below
  70, ... check again after 15 minutes");
- :func:`unbound_value`: a number it holds is said of something else ("Book Osaka for three
  nights" of "Three in Kyoto, then six in Osaka");
- :func:`unstated`: which of these, a decision no sentence decides or a goal no sentence states
  (``statements.decides``, ``statements.intends``), or which of the readings of its progress
  (``localmem.progress``: done later, made, checked, asked, partly done, ...), makes it not
  stand, if any.

The readings of progress are handed in (:class:`Readings`; ``model_checkpoint`` passes the
``progress`` module): imported here, they would make the chain through ``checkpoints`` 10
modules deep (``tests/test_architecture.py`` holds it to 9).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final, Protocol

from . import replies, statements, verbs
from .acts import WHEN, action, direct_object, holds_verb, reported_done
from .grounding import SUPPORT_SHARE, same_word
from .statements import status
from .words import STOP_WORDS, stem, value, words

_I = re.IGNORECASE


class Readings(Protocol):
    """The readings of an item's progress :func:`unstated` asks, each as ``localmem.progress``
    defines it (that module is one: its functions are these members)."""

    def done_later(self, item: str, later: Sequence[tuple[str, bool]], /) -> bool: ...

    def taken_up(self, item: str, later: Sequence[str], /) -> bool: ...

    def left_done(self, item: str, later: Sequence[str], /) -> bool: ...

    def need_met(self, item: str, later: Sequence[str], /) -> bool: ...

    def answered_done(self, item: str, question: str, answer: str, after: Sequence[str], /) -> bool: ...

    def made_later(self, item: str, later: Sequence[str], /) -> bool: ...

    def accepted_later(self, item: str, turns: Sequence[tuple[str, str]], /) -> bool: ...

    def asked(self, item: str, answered: Sequence[str], /) -> bool: ...

    def checked(self, item: str, later: Sequence[str], /) -> bool: ...

    def partly_done(self, item: str, later: Sequence[str], /) -> bool: ...

    def ran_later(self, item: str, later: Sequence[str], /) -> bool: ...

    def under_way(self, item: str, sentence: str, /) -> bool: ...

    def looked_up(self, item: str, output: str | None, /) -> bool: ...


def declined(item: str, texts: dict[int, str], roles: Sequence[str] = ()) -> bool:
    """True when the thing ``item`` acts on (its direct object: "binoculars" of "get
    binoculars") was offered in one of ``texts`` (the messages, by source; ``roles``: each
    one's role, when known) and turned down by the answer (``replies.declines``: "Have
    you thought about getting binoculars?" "... Not spending 300 bucks on new ones"), and
    the party that turned it down names it nowhere else: what was declined where it was
    offered, and never taken up, is nothing to do, whichever sentence the item rests on."""
    verb, said = action(item)
    thing = {stem(w) for w in direct_object(item) if w in said and not WHEN.match(w)}
    if verb is None or not thing:
        return False

    def names(text: str) -> bool:
        return thing <= {stem(w) for w in words(text)}

    def party(o: int, of: int) -> bool:
        return roles[o] == roles[of] if len(roles) > max(o, of) else o % 2 == of % 2

    offers = [o for o in sorted(texts) if names(texts[o]) and (r := _reply(o, texts, roles)) is not None
              and replies.declines(r)]
    return any(
        all(not names(texts[k]) for k in texts if k != o + 1 and party(k, o + 1))
        for o in offers
    )


def only_if(item: str, support: Sequence[str], ordered: Sequence[str]) -> bool:
    """True when every sentence of ``support`` binds ``item`` to a condition
    (``replies.condition``: "If it drops below 70 mg/dL, ... check again after 15
    minutes") that ``item`` does not carry itself ("call his doctor if it keeps
    happening" does), and no sentence of ``ordered`` (the chat) states it as having come
    (most of its words, not as a condition, not asked): advice for a case, not a step."""
    if not support or not replies.CONDITIONS.isdisjoint(words(item)):
        return False
    cases = [replies.condition(s) for s in support]
    if any(c is None for c in cases):
        return False
    for case in cases:
        wanted = {stem(w) for w in words(case) if w not in STOP_WORDS}
        for sentence in ordered:
            if replies.condition(sentence) is not None or statements.is_question(sentence):
                continue
            found = {stem(w) for w in words(sentence)}
            if wanted and len(wanted & found) >= SUPPORT_SHARE * len(wanted):
                return False  # the case came: "his sugar dropped below 70 this morning"
    return True


_BINDS = re.compile(r"[;:]|\s[-\u2013\u2014]\s|\b(?:then|but|while|whereas)\b", _I)
"""Where a sentence passes from one thing to another ("Three in Kyoto, then six in Osaka")."""
_NUMBER = re.compile(r"(?<![\w.,:-])\d+(?:[.,:]\d+)*(?![\w(]|[.,:]\d)")
"""A number standing alone ("three nights", "at 10:30"), not one inside a name ("401(k)",
"HL-L2350DW")."""


def values(text: str) -> set[str]:
    """The numbers ``text`` says, in digits: those written as digits standing alone and
    as words ("three" is "3": ``words.NUMBER_WORDS``)."""
    return set(_NUMBER.findall(text)) | {v for w in words(text) if not w[:1].isdigit() and (v := value(w))}


def unbound_value(item: str, ordered: Sequence[str]) -> str | None:
    """A number ``item`` holds that the chat says (``ordered``: its sentences, cut where
    they pass to another thing: :data:`_BINDS`), but in no part together with what the
    item says it of, or None. What a number is said of, in each part of the item: an action's
    direct object ("Osaka" of "Book Osaka for three nights") or, without one, its verb;
    else the part's other words. "Book Osaka for three nights" of "Three in Kyoto, then six in Osaka" binds
    Kyoto's three nights to Osaka; "Reserve a tea ceremony for April 11" of "I want a day
    in Nara, maybe April 11" the Nara day to the tea ceremony."""
    parts = [(values(part), {stem(w) for w in words(part)}) for s in ordered for part in _BINDS.split(s)]
    for piece in _BINDS.split(item):
        numbers = values(piece)
        if not numbers:
            continue
        verb, said = action(piece)
        if verb is not None and verbs.opens_with_verb(piece, ordered):
            thing = {stem(w) for w in direct_object(piece) if w in said and value(w) is None}
            holders = thing or {stem(verb)}  # the thing the number is of, else the action
        else:
            holders = {stem(w) for w in words(piece) if w not in STOP_WORDS and value(w) is None}
        for number in sorted(numbers):
            holding = [forms for found, forms in parts if number in found]
            if holding and not any(same_word(h, f) for forms in holding for h in holders for f in forms):
                return number  # (a number said nowhere is grounding's to judge)
    return None


def placed(field: str, support: Sequence[str], item: str = "") -> tuple[str | None, str | None]:
    """Where a checkpoint item proposed for ``field`` belongs, by what the ``support``
    (the sentences that state it: :func:`by_sentence`) say of it:
    ``(field, None)``, ``(another field, None)`` or ``(None, why it is dropped)``.

    A completed step needs a sentence saying it was done; one only planned becomes a next
    step. A current step that is planned for later is a next step too. A step, task or
    goal every supporting sentence reports done is no longer to do. The status is read
    from the sentences that say the ``item``'s action (its verb: :func:`action`) when
    some do: "We got two quotes from Swift Move" does not report "Book Swift Move" done.
    A step is moved to the next steps only by a sentence saying its own action planned:
    the plan of another act ("I'll stick with the Tylenol and write the times on the
    fridge") gives "ask for Tylenol" no status, and the store never makes up the one the
    model did not give.
    """
    if field not in STEP_FIELDS:
        return field, None
    verb, _ = action(item)
    acting = [s for s in support if verb is not None and holds_verb(s, verb)]
    said = {status(s) for s in acting or support}
    planned = "plan" in {status(s) for s in acting}  # a move needs the item's own act said
    if field == "completed_steps":
        if "done" in said:
            return field, None
        return ("next_steps", None) if planned else (None, "not said to be done")
    if said == {"done"}:
        return None, "already done"
    if field == "current_step" and planned and "done" not in said:
        return "next_steps", None
    return field, None


STEP_FIELDS: Final = ("completed_steps", "current_step", "next_steps", "pending_tasks", "active_goals")
"""The checkpoint fields whose items have a status: done, under way, or still to do."""


def unstated(
    field: str, item: str, support: list[str], ordered: Sequence[str], owners: Sequence[int],
    last: int = -1, roles: Sequence[str] = (), tools: Mapping[int, str] | None = None, *,
    readings: Readings,
) -> str | None:
    """Why an item ``support`` (its sentences, of the ``ordered`` ones; ``owners``: the
    source each comes from; ``last``: the last message's source; ``roles``: each message's
    role, when known; ``readings``: what reads its progress, ``localmem.progress``) places in
    ``field`` does not stand (``localmem.statements``): a
    decision needs a sentence that decides ("let's",
    "we'll go with", "use X instead", advice taken, something done), not one that only
    offers a choice or reports what someone else did (``statements.undecided``), a goal or
    a current step one that states what someone is after ("I need", "please", a plan,
    advice). Nothing the chat ruled out is a decision or something to do
    (``replies.ruled_out``, :func:`declined`), nor anything whose numbers are said of something else
    (:func:`unbound_value`). Something to do is no step when it is advice for a case the
    chat does not say came (:func:`only_if`), and no longer to do when a later sentence
    reports it done ("I
    set it to channel 44" after "Set the band to a fixed channel"; "Removed."; its own act
    in the past beside its object: ``acts.reported_done``, "rotor cleaned"; "Demon
    Copperhead." answering "What were you reading?": ``progress.answered_done``), by a choice
    taken up (``progress.taken_up``: "Went with the healthcheck"), by the thing it needs got
    (``progress.need_met``: "got one") or by the state it leaves its
    thing in (``progress.left_done``: "They're gone"; read in the whole chat when no one sentence
    states the item), its thing
    made ("It's a good haiku" after "write a haiku"; a piece written and accepted:
    ``progress.accepted_later``), or when it was over in a moment as it
    was written ("I'm calling the vet") and the conversation went on after it, or when it
    asks what a question the other party answered already asked (``progress.asked``) or checks
    what a later sentence told (``progress.checked``), or when it
    looks something up that a tool's output right after it shows (``tools``: by source,
    the tools' output after it; ``progress.looked_up``). A current step part of which is
    reported done ("the printer works again" for "Reconnect printer and TV") is no longer
    the step under way; as a task or a goal, what is left of it still is. What an answer
    refusing the item restates to correct it ("Not quite. ... Save static stretching for
    after.": ``replies.corrects``) states nothing of it."""
    if field == "key_decisions" and not any(
        statements.decides(s) and not statements.undecided(s) for s in support
    ):
        return "no decision stated"
    if field in ("active_goals", "current_step") and not any(map(statements.intends, support)):
        return "no goal stated"
    if field not in (*STEP_FIELDS, "key_decisions"):
        return None
    end = len(ordered) if last < 0 else sum(1 for o in owners if o <= last)
    said = ordered[:end]  # the messages' sentences (not the state's lines)
    if unbound_value(item, said) is not None:
        return "a number said of something else"
    if not support:  # grounded in no one sentence: whether it is done, from the whole chat
        to_do = field not in ("key_decisions", "completed_steps")
        return "done later" if to_do and readings.left_done(item, said) else None
    texts = {o: " ".join(s for s, k in zip(ordered, owners) if k == o) for o in set(owners[:end])}
    at = [i for i, s in enumerate(ordered) if s in support]
    stating = [i for i in at if not replies.corrects(item, owners[i], texts, roles)]
    answers = [_reply(owners[i], texts, roles) for i in stating]
    if not stating or replies.ruled_out([ordered[i] for i in stating], answers) or declined(item, texts, roles):
        return "ruled out"
    if field in ("key_decisions", "completed_steps"):
        return None
    if only_if(item, support, said):
        return "only if"
    first = at[0]
    later = [(s, owners[i] == owners[first] + 1) for i, s in enumerate(ordered) if i > first]
    if (readings.done_later(item, later) or readings.taken_up(item, [s for s, _ in later])
            or readings.left_done(item, ordered[first:]) or reported_done(item, said[first:], statements.tells)
            or readings.need_met(item, [s for s, _ in later])
            or readings.ran_later(item, [s for s, _ in later])):
        return "done later"  # left_done reads the first sentence too: it may say the act
    if any(readings.answered_done(item, said[i - 1], said[i], said[i + 1:]) for i in stating
           if 0 < i < end and owners[i - 1] == owners[i] - 1 and _reply(owners[i - 1], texts, roles) is not None):
        return "answered as done"  # "What were you reading?" "Demon Copperhead."
    if readings.made_later(item, [s for s, _ in later]):
        return "made later"
    if roles and readings.accepted_later(item, [(roles[o], texts[o]) for o in sorted(texts) if o >= owners[first]]):
        return "made later"
    if readings.asked(item, [s for i, s in enumerate(said) if _reply(owners[i], texts, roles) is not None]):
        return "asked and answered"
    if readings.checked(item, [s for s, _ in later]):
        return "asked and answered"  # what it was to find out was told
    if field == "current_step" and readings.partly_done(item, [s for s, _ in later]):
        return "partly done"  # what is left ("the TV can wait") is not under way
    if any(readings.under_way(item, s) and owners[i] < last for i, s in enumerate(ordered) if s in support):
        return "done as it was said"
    if tools and any(readings.looked_up(item, tools.get(owners[i])) for i in at):
        return "a tool's output answered it"
    return None


def _reply(owner: int, texts: dict[int, str], roles: Sequence[str]) -> str | None:
    """The message answering message ``owner``: the next one, by the other party."""
    reply = texts.get(owner + 1)
    if reply is None or (len(roles) > owner + 1 and roles[owner + 1] == roles[owner]):
        return None
    return reply
