"""Whether something to do is still to do: an action's progress in what people wrote.

A small model's checkpoint keeps "write a haiku about rain" as the goal after the user wrote
the haiku, "Book Swift Move" as done because a sentence naming Swift Move reports quotes
received, "call the emergency vet" as a task after "I'm calling the emergency vet". Each
reading takes an item as an action (``acts.action``: its verb, a wrapper such as "remember
to" left out, and its objects) and the sentences after it (pure functions; they never raise
on any ``str``):

- :func:`done_later`: a later sentence reports it done ("Removed.", "we booked the flights");
- ``acts.reported_done``: a later clause says its own act in the past beside its object, in
  either order ("rotor cleaned", "I emailed him last week" for "Send email to landlord");
- :func:`answered_done`: an answer naming the thing it acts on, without its verb, to a
  question asking in the past what the act was done to ("What were you reading?" "Demon
  Copperhead.");
- :func:`taken_up`: the writer went with the thing it acts on ("Went with the healthcheck");
- :func:`left_done`: the thing it acts on is in the state the act leaves it ("They're
  gone" after "I'm throwing them out now");
- :func:`need_met`: the thing it says is needed was got ("needs a tiny allen key" ... "got
  one");
- :func:`checked`: what it was to find out was told ("check if they take dogs" ... "The
  sleeper does take dogs");
- :func:`made_later`: the thing it makes is there ("It's a good haiku"), or, a piece of
  writing, sent on ("Sent it through their online form");
- :func:`partly_done`: some of the things it joins are done ("the printer works again");
- :func:`ran_later`: a run it starts was reported by its outcome ("tests green" for "run
  the tests");
- :func:`done_by_one`: a task laid on several people ("you'll each need payslips") is done
  by one of them ("Sam's done his referencing");
- :func:`under_way`: a moment's action said as it happened ("I'm calling the vet");
- :func:`asked`: an asking whose question was put and answered ("ask for Tylenol" after
  "How much children's Tylenol can I give her?" and its answer);
- :func:`accepted_later`: the thing it makes was written in the chat and accepted ("Here's a
  starting point: '... / ...'" ... "Yes! That's much better.");
- :func:`looked_up`: a tool's output right after it shows what it looks up ("calendar: Tue
  10:00 ..." after "Let me check the shared calendar").

What uses them all is ``standing.unstated`` (whether a model's checkpoint item stands): its
caller hands it this module (``readings=progress``). Imported there, it would make the chain
``localmem -> aio -> store -> checkpoints -> model_checkpoint -> standing -> progress -> acts
-> grounding -> words`` 10 modules deep (the limit is 9).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Final

from . import replies, statements
from .acts import WHEN, WRAPPER, action, direct_object, done_forms, holds_verb
from .grounding import NEGATIONS, SUPPORT_SHARE, same_word
from .statements import status
from .statuses import outcomes
from .words import SMALL_TALK, STOP_WORDS, stem, words

_I = re.IGNORECASE

_MOMENTARY: Final = frozenset(
    "call phone ring text email message send book order pay submit sign buy ask tell".split()
)
"""Actions over in a moment: "I'm calling the vet" is under way as it is written and done
by the writer's next turn (unlike "I'm writing a song", which lasts)."""
_MAKES: Final = frozenset("write draft compose make bake cook build create paint draw knit sew design".split())
"""Actions whose outcome is a thing: once the thing is there ("It's a good haiku"), the
action is done."""
_WRITES: Final = frozenset("write draft compose".split())
"""Makings of a piece of writing: sent on, it is written."""
_SENT_ON: Final = r"(?:sent|submitted|posted|e-?mailed|mailed|filed|lodged|handed in)"
"""A piece of writing sent on, in the past."""
_PARTS = re.compile(r",|;|&|\band\b|\bplus\b", _I)


def done_later(item: str, later: Sequence[tuple[str, bool]]) -> bool:
    """True when one of the ``later`` sentences (each with whether it is in the reply to
    the item's first message) reports ``item`` (an action: its first word the verb, after
    a wrapper such as "remember to") done: it has a done status, says the verb done
    ("set", "changed", "submitted" for "request": :data:`_COMPLETES`) and names the item's
    objects: one of them in the reply ("Set the band to a fixed channel." "I set it to
    channel 44"), later most of them or most of its direct object, the words before a
    preposition ("we booked the flights too" for "Book flights from Amsterdam to Lisbon";
    not "I configured the alpha router" for "Configure the alpha gateway"). A reply that is the verb's done form alone
    ("Remember to remove the branch." "Removed.") reports it done too."""
    verb, said = action(item)
    if verb is None:
        return False
    said = [w for w in said if not WHEN.match(w)]  # a date says when, not what
    if not said:
        return False
    objects = [stem(w) for w in said]
    direct = {stem(w) for w in direct_object(item) if w in said}
    done = done_forms(verb)
    for sentence, reply in later:
        found = words(sentence)
        if reply and found and not done.isdisjoint(found) and set(found) <= done | SMALL_TALK | {"all", "it"}:
            return True  # "Removed." / "Done, booked."
        named = set(objects).intersection(stem(w) for w in found)
        enough = 1 if reply else math.ceil(SUPPORT_SHARE * len(set(objects)))
        whole = bool(direct) and len(named & direct) >= math.ceil(SUPPORT_SHARE * len(direct))
        if status(sentence) == "done" and not done.isdisjoint(found) and (len(named) >= enough or whole):
            return True
    return False


def partly_done(item: str, later: Sequence[str]) -> bool:
    """True when ``item`` joins several things ("Reconnect printer and TV") and one of the
    ``later`` sentences reports some of them done but not all ("Done, the printer works
    again."): the item no longer says what is left to do."""
    verb, _ = action(item)
    if verb is None:
        return False
    rest = WRAPPER.sub("", item).split(None, 1)[-1]
    parts = [p for p in ({stem(w) for w in words(part) if w not in STOP_WORDS} for part in _PARTS.split(rest)) if p]
    if len(parts) < 2:
        return False
    for sentence in later:
        if status(sentence) != "done":
            continue
        found = {stem(w) for w in words(sentence)}
        named = sum(1 for part in parts if part & found)
        if 0 < named < len(parts):
            return True
    return False


_SHARED = re.compile(r"\b(?:each|both|all of you|you two|the two of you|everyone|everybody)\b", _I)
"""A task laid on several people at once ("you'll each need payslips", "both of you")."""
_ONE_DID = re.compile(
    r"^\W*(?P<who>I|he|she|[A-Z][a-z]+)(?:'s|\s+has|\s+had|'ve|\s+have)?\s+(?:already\s+|just\s+)?"
    r"(?:done|did|finished|completed|submitted|sent|filled in|sorted)\b",
)
"""A clause opening with one person who did something ("Sam's done his referencing", "I
finished mine")."""
_CLAUSES = re.compile(r"[,;]\s*|\s(?:and|but)\s", _I)


def done_by_one(item: str, later: Sequence[str]) -> bool:
    """True when ``item`` lays a task on several people ("The referencing is the next step:
    you'll each need payslips ...") and a clause of one of the ``later`` sentences says one
    person did it ("Sam's done his referencing", naming a word of the item; not negated,
    not asked): the item as said, of everyone, no longer tells what is left, which is the
    others' part."""
    if _SHARED.search(item) is None:
        return False
    named = {stem(w) for w in words(item) if w not in STOP_WORDS}
    for sentence in later:
        if sentence.rstrip().endswith("?"):
            continue
        for clause in _CLAUSES.split(sentence):
            one = _ONE_DID.match(clause)
            if one is None or one.group("who").casefold() in STOP_WORDS - {"i", "he", "she"}:
                continue
            said = words(clause[one.end():])  # what was done, past the verb
            if NEGATIONS.isdisjoint(words(clause)) and named & {stem(w) for w in said if w not in STOP_WORDS}:
                return True
    return False


_RUNS: Final = frozenset("run rerun execute trigger".split())
"""Verbs of starting a run whose outcome is reported ("run the tests", "rerun CI")."""
_RUN_OF: Final = {
    "test": "status test", "tests": "status test", "pytest": "status test", "ci": "status ci",
    "build": "status build", "pipeline": "status pipeline", "check": "status check", "checks": "status check",
}
"""What a run runs -> the kind of outcome that reports it (``statuses.outcomes``)."""


def ran_later(item: str, later: Sequence[str]) -> bool:
    """True when ``item`` runs something ("run the tests", "rerun CI") and one of the
    ``later`` sentences states that run's outcome, passed or failed ("tests green", "46
    passed", "CI is red"): a run told by its outcome was done. One still going ("CI is still
    running") is not yet."""
    verb, said = action(item)
    kinds = {_RUN_OF[w] for w in said if w in _RUN_OF}
    if verb not in _RUNS or not kinds:
        return False
    return any(outcomes(sentence).get(kind) in ("pass", "fail") for sentence in later for kind in kinds)


def under_way(item: str, sentence: str) -> bool:
    """True when ``sentence`` says the writer is doing ``item`` right now and the action
    is over in a moment (:data:`_MOMENTARY`: "I'm calling the emergency vet"): once the
    conversation goes on, it is no longer to do."""
    verb, _ = action(item)
    if verb not in _MOMENTARY:
        return False
    doing = re.search(r"\b(?:i'm|i am|we're|we are|i\u2019m|we\u2019re)(?: \w+ly)? (\w+ing)\b", sentence, _I)
    return (
        doing is not None
        and same_word(stem(doing.group(1).casefold()), stem(verb))
        and status(sentence) != "plan"  # "I'm calling them tomorrow" is a plan
    )


_ASKS: Final = frozenset("ask inquire enquire".split())
"""Verbs of asking: an act a question does."""


def asked(item: str, answered: Sequence[str]) -> bool:
    """True when ``item`` is an act of asking (its verb one of :data:`_ASKS`: "ask for
    Tylenol") and one of the ``answered`` sentences (each followed by the other party's
    reply) is that question put: it asks, names every word of the item's object (so "Ask
    the vet about carprofen" is not done by a question to the assistant naming carprofen
    alone) and does not itself speak of asking ("Should I ask for a refund?" plans an
    asking, it does not do it). A question asked and answered leaves nothing to do."""
    verb, objects = action(item)
    if verb not in _ASKS or not objects:
        return False
    wanted = [stem(w) for w in objects]
    for question in answered:
        if not statements.is_question(question) or any(holds_verb(question, a) for a in _ASKS):
            continue
        said = [stem(w) for w in words(question)]
        if all(any(same_word(w, s) for s in said) for w in wanted):
            return True
    return False


_WHETHER = re.compile(r"\b(?:check|find out|see|ask|confirm)\s+(?:if|whether)\s+(?P<what>[^,.;:!?]+)", _I)
"""A finding out whether something holds ("check if they take dogs"): what is to be found out."""


def checked(item: str, later: Sequence[str]) -> bool:
    """True when ``item`` is to find out whether something holds ("I need to check if they
    take dogs") and a ``later`` sentence tells it, either way: it neither asks nor plans
    (``statements.tells``), does not itself speak of finding out, and holds every content
    word of what was to be found out ("The Night Riviera does take dogs in a cabin", "They
    don't take dogs"). A question answered leaves nothing to check."""
    found = _WHETHER.search(item)
    if found is None:
        return False
    wanted = [stem(w) for w in words(found.group("what"), numbers=False) if w not in STOP_WORDS]
    if not wanted:
        return False
    for sentence in later:
        if not statements.tells(sentence) or _WHETHER.search(sentence) or re.search(r"\bcheck", sentence, _I):
            continue
        said = [stem(w) for w in words(sentence)]
        if all(any(same_word(w, s) for s in said) for w in wanted):
            return True
    return False


def made_later(item: str, later: Sequence[str]) -> bool:
    """True when ``item`` makes a thing ("write a haiku about rain": :data:`_MAKES`) and a
    ``later`` sentence says the thing is there: "It's a good haiku", "your haiku reads
    well" (the thing: one of its first three object words), or the writer sent it on
    ("Sent it through their online form", "I've submitted the complaint": a thing of
    writing sent is written): the making is done. ("The song is in G major" describes a
    song still made; "Send it tonight" is a plan.)"""
    verb, said = action(item)
    if verb not in _MAKES or not said:
        return False
    thing = "(?:" + "|".join(re.escape(stem(w)) for w in said[:3]) + ")"
    sent = (
        rf"|(?:^\W*|\b(?:i|we)(?:'ve|\u2019ve| have| just| already| finally)*\s+){_SENT_ON}\s+"
        rf"(?:it|this|that|(?:the|my|our)\s+(?:\w+\s+){{0,2}}{thing}\w*)\b"
    ) if verb in _WRITES else ""
    there = re.compile(
        rf"\b(?:it|this|that)(?:'s|\u2019s| is| was) an? (?:\w+ ){{0,2}}{thing}\w*\b(?! (?:to|for|about)\b)"
        rf"|\byour {thing}\w* (?:looks|reads|sounds|works)\b" + sent,
        _I,
    )
    return any(status(s) != "plan" and not s.rstrip().endswith("?") and there.search(s) for s in later)


_TOOK_UP = re.compile(
    r"(?:^|[,;]\s*|\b(?:i|we)(?: just| finally| eventually| then)? )"
    r"(?:went with|ended up (?:going with|with|\w+ing)|settled on|opted for)\s+(?P<what>[^,.;:!?]+)",
    _I,
)
"""A first person's past choice of what to do, its subject left out in terse chat ("Went
with the healthcheck", "we ended up using a lockfile"): the words it took up."""


def taken_up(item: str, later: Sequence[str]) -> bool:
    """True when a ``later`` sentence (not a question nor a plan) reports, in the past, that
    the writer went with the thing ``item`` (an action) acts on: "Went with the
    healthcheck, cold start works now" for "Add a healthcheck to db with pg_isready" (a word
    of its direct object, the words before a preposition, among the words taken up: those
    after "went with", "ended up using", "settled on", "opted for"). The choice made and
    acted on leaves nothing to do; "I'll go with the healthcheck" is a plan, and "went with
    the wait script" takes up another thing."""
    verb, said = action(item)
    if verb is None:
        return False
    thing = {stem(w) for w in direct_object(item) if w in said}
    if not thing:
        return False
    for sentence in later:
        if sentence.rstrip().endswith("?") or status(sentence) == "plan":
            continue
        for took in _TOOK_UP.finditer(sentence):
            if thing & {stem(w) for w in words(took.group("what"))}:
                return True
    return False


_LEFT = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|done|so|and|good|right|yes|yep)\W+)*(?P<subject>(?:\w+[\s-]){0,3}?\w+?)"
    r"(?:'s|'re|\u2019s|\u2019re|\s+(?:is|are|was|were|has been|have been|got|get))\s+"
    r"(?:(?:all|now|finally|already|both|completely)\s+)*"
    r"(?:(?P<finished>sorted|fixed|done|finished)|gone|away|out|off|in the (?:bin|trash|garbage))\b"
    r"(?!\s+(?:with|of|to|for)\b)",  # "done with the pills", "out of ink", "off to school": another thing
    _I,
)
"""A thing in the state an act leaves it: "They're gone", "the lilies are out", "the leak
is fixed", "both forms are sorted" (the thing: the words before the verb). Gone, away,
out, off are the state of a removal only (:data:`_REMOVES`): "the power is out" does not
say "restore power" is done."""
_REMOVES: Final = frozenset(
    "out away off remove delete discard clear cancel toss bin dump drop empty throw rid".split()
)
"""An act of removal, by its verb or its particle ("throw out", "put away", "turn off")."""
_LASTING: Final = frozenset("keep stay avoid".split())
"""Acts that last: "keep lilies out of the house" is a rule kept, never done once."""
_BACK_REFERENCES: Final = frozenset("it they them those these that this both all".split())
"""Words that name a thing said before instead of naming it."""
_INSERTS: Final = frozenset("import add insert load upload put copy move save enter".split())
"""Acts that put their thing into something: done once the thing is in it."""
_PLACED = re.compile(
    r"\b(?P<subject>\w+)\s+(?:(?:are|is|were|was|now|all|both|safely|already)\s+)*"
    r"(?:in|into)\s+(?:the|your|our|my|their)\s+\w+",
    _I,
)
"""A thing in a place ("339 members in the table", "the photos are now in the album"):
the state an act of putting in leaves it (:data:`_INSERTS`)."""
_COMPLETING: Final = frozenset("finish complete".split())
"""Verbs that take another act as their object ("Finish import members"): done when that
act is."""


def left_done(item: str, later: Sequence[str]) -> bool:
    """True when a ``later`` sentence (not a question nor a plan) says the thing ``item``
    acts on (a word of its objects) is in the state the act leaves it: sorted, fixed, done,
    or, for a removal (:data:`_REMOVES`), gone, away, out, off (:data:`_LEFT`: "The lilies
    are gone" for "throw out lilies"; "It's fixed" for "fix the leak"; not "The power is
    out" for "restore power"); for an act of putting in (:data:`_INSERTS`), the thing in
    a place (:data:`_PLACED`: "Ran it, 339 members in the table." for "Import members", or
    for "Finish import members": :data:`_COMPLETING`; not "no members in the table yet"). A
    thing named by a pronoun ("They're gone") is the
    item's when an earlier of the ``later`` sentences said the item's act ("I'm throwing
    them out now"): what the act was about is what is now gone. "The lilies are still in
    the vase" or "they're gone?" leave the act to do, and an act that lasts (:data:`_LASTING`:
    "keep lilies out of the house") is never done by its state."""
    verb, said = action(item)
    if verb in _COMPLETING and len(said) > 1 and said[0] in _INSERTS:
        verb, said = said[0], said[1:]  # "Finish import members" is done when the import is
    if verb is None or not said or verb in _LASTING:
        return False
    objects = {stem(w) for w in said}
    put = {stem(w) for w in direct_object(item) if w in said and w not in _INSERTS}  # "gate" of "add a gate to the door"
    acted = False
    for sentence in later:
        if not sentence.rstrip().endswith("?") and status(sentence) != "plan":
            if verb in _INSERTS and any(
                stem(found.group("subject").casefold()) in put
                and NEGATIONS.isdisjoint(words(sentence[: found.start()]))
                for found in _PLACED.finditer(sentence)
            ):
                return True  # "339 members in the table" for "Import members"
            left = _LEFT.search(sentence)
            removal = not _REMOVES.isdisjoint(words(item))
            subject = words(left.group("subject")) if left and (left.group("finished") or removal) else []
            if subject and objects & {stem(w) for w in subject}:
                return True
            if subject and acted and subject[-1] in _BACK_REFERENCES:
                return True
        acted = acted or holds_verb(sentence, verb)
    return False


_NEEDS = re.compile(r"\b(?:needs?|requires?)\s+(?P<what>[^,.;:!?]+)", _I)
"""A need an item states ("grub screw needs a tiny allen key"): what is needed."""
_GOT = re.compile(
    r"\b(?:got|bought|found|borrowed|have|picked up)\s+(?:(?:a|an|the|my|our|some|new)\s+)*"
    r"(?:(?P<one>ones?)\b(?!\s+[a-z])|(?P<what>\w+))",
    _I,
)
"""A report of having a thing: "one" standing for it ("got one.", "got one, lever off"; not
"got one recommendation") or a word of it ("bought a new allen key")."""


def need_met(item: str, later: Sequence[str]) -> bool:
    """True when ``item`` states a need (:data:`_NEEDS`: "grub screw needs a tiny allen key")
    and a ``later`` sentence (not a question, a plan or a negation) reports having got the
    thing needed: "one" standing for it or a word of it (:data:`_GOT`: "got one. lever off",
    "bought the allen key"). A need met is nothing left to do ("got it" says understood, not
    had: it counts for nothing)."""
    found = _NEEDS.search(item)
    if found is None:
        return False
    thing = {stem(w) for w in words(found.group("what")) if w not in STOP_WORDS}
    for sentence in later:
        said = words(sentence)
        if sentence.rstrip().endswith("?") or status(sentence) == "plan" or any(
            w in NEGATIONS or w.endswith("n't") for w in said
        ):
            continue
        for got in _GOT.finditer(sentence):
            if got.group("one") or (got.group("what") and stem(got.group("what").casefold()) in thing):
                return True
    return False


def accepted_later(item: str, turns: Sequence[tuple[str, str]]) -> bool:
    """True when ``item`` makes a thing (:data:`_MAKES`: "write the chorus") and the
    ``turns`` (role, text: the messages from the item's first one on) show it made: the
    assistant gives a piece of two lines or more (``replies.presents_piece``) asked for
    right before (its message or one of the two before it names the thing: the direct
    object's words), and the user accepts it (``replies.assents``), at once or after
    the revisions the assistant gives in answer ("The last line feels flat." "Try: '...'"
    "Yes! That's much better."). A single line offered ("Maybe: 'Under the oak ...'") is
    a line of the thing, not the thing; a piece asked for as part of another thing ("a
    song" whose chorus is written) does not make that thing."""
    verb, said = action(item)
    if verb not in _MAKES or not said:
        return False
    thing = {stem(w) for w in direct_object(item) if w in said} or {stem(said[0])}
    for k, (role, text) in enumerate(turns):
        if role != "assistant" or not replies.presents_piece(text):
            continue
        if not any(thing & {stem(w) for w in words(t)} for _, t in turns[max(0, k - 2):k + 1]):
            continue
        for reply_role, reply in turns[k + 1:]:
            if reply_role == "user" and replies.assents(reply):
                return True
            if reply_role == "assistant" and not _QUOTED.search(reply):
                break  # the assistant moved on without a revision
    return False


_QUOTED = re.compile(r"(?:^|[\s:(])['\"\u201c\u2018]\w")
"""A quotation opened in a message: a revision offered ("Try: 'I'm leaving, but ...'")."""


_LOOKS: Final = frozenset("check look see find read search review verify pull open".split())
"""Actions of looking something up: what a tool's output does ("Let me check the calendar")."""
_OBJECT_ENDS: Final = frozenset("for to from in on at with about by of after before until since".split())


def looked_up(item: str, output: str | None) -> bool:
    """True when ``item`` looks something up (its verb one of :data:`_LOOKS`: "check the
    shared calendar for the rest of the week") and ``output``, a tool's output right after
    a message stating it, names what it looks at, a word of its direct object
    ("calendar: Tue 10:00 Neurology follow-up ..." after "Let me check the shared
    calendar"): the tool did the looking, nothing is left to do."""
    verb, _ = action(item)
    if verb not in _LOOKS or not output:
        return False
    said = words(WRAPPER.sub("", item))
    after = said[said.index(verb) + 1:] if verb in said else []
    cut = next((k for k, w in enumerate(after) if w in _OBJECT_ENDS), len(after))
    looked_at = {stem(w) for w in after[:cut] if w not in STOP_WORDS and w not in SMALL_TALK}
    # a tool names what it shows in snake case ("tap_booking: PNR ..."): each part a word
    return bool(looked_at & {stem(w) for w in words(output.replace("_", " "))})


_WH_OBJECT: Final = frozenset("what which who whom".split())
"""Words that open a question whose answer is a thing ("What were you reading?")."""
_PAST_ASKING: Final = frozenset("did were was had".split())
"""Words that put a question's verb after them in the past ("What did you book?")."""
_PERFECT: Final = frozenset("have has had i've you've we've they've".split())
"""Words after which a past form is the perfect ("What have you read?")."""
_IT: Final = frozenset("it them".split())


def answered_done(item: str, question: str, answer: str, after: Sequence[str]) -> bool:
    """True when ``answer``, the first sentence of a reply, names the thing ``item`` (an
    action) acts on without its verb, and answers ``question``, the last sentence before
    it, which asks in the past what the item's act was done to ("What were you reading?"
    "Demon Copperhead." for "Read Demon Copperhead"; "Which hotel did you book?" "The
    Harbour Inn."): an answer that leaves the verb out says it in the question's tense, so
    the act happened. Only a question asking for the thing (opening with "what", "which",
    "who") and not naming it already; not a question about now ("What are you reading?")
    or to come ("What will you book?"); not an answer that is negated, asks or plans; and
    not when one of the sentences ``after`` it says the verb again of the thing (named, or
    "it") other than in a past form ("we still have to read it", "still reading it"): the
    act is still talked of as to do."""
    verb, said = action(item)
    if verb is None:
        return False
    thing = {stem(w) for w in said if not WHEN.match(w)}
    asking = words(question)
    if not thing or not asking or asking[0] not in _WH_OBJECT or not statements.is_question(question):
        return False
    forms = done_forms(verb)
    at = next((k for k, w in enumerate(asking) if w in forms or same_word(stem(w), stem(verb))), None)
    if at is None or not thing.isdisjoint(stem(w) for w in asking):
        return False
    before = set(asking[:at])
    past = not _PAST_ASKING.isdisjoint(before) or (asking[at] in forms and not _PERFECT.isdisjoint(before))
    reply = words(answer)
    named = thing & {stem(w) for w in reply}
    if not past or len(named) < math.ceil(SUPPORT_SHARE * len(thing)) or holds_verb(answer, verb):
        return False
    if not statements.tells(answer) or any(w in NEGATIONS or w.endswith("n't") for w in reply):
        return False
    return not any(
        holds_verb(s, verb) and forms.isdisjoint(set(found) - {verb})
        and not (thing.isdisjoint(stem(w) for w in found) and _IT.isdisjoint(found))
        for s in after if (found := words(s))
    )
