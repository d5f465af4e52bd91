"""What a sentence says besides its words: done or planned, a stance, a denied question.

A small model's checkpoint puts "bake the muffins on Thursday" among the completed steps,
calls the cat's name a preference and "finish" a step; its summary says "Greta should stop
warfarin" where the conversation asked exactly that and was told "No.". Word overlap
(:mod:`localmem.grounding`) cannot see these: the words are all there. This module reads the
signals that can, from the sentences people wrote (pure functions; they never raise on
any ``str``):

- :func:`status`: whether a sentence reports something **done** ("I did", "done",
  "finished", "booked", "submitted", "works again", a first person's past verb, not
  "need") or
  **planned** ("I'll", "will", "going to", "plan to", "tomorrow", "next week", "on
  Friday", "in May", "until the weekend"); a first person's future verb wins over a done
  word in the same sentence ("I'll set up the transfer once the card is paid off" is a
  plan), a done word over anyone else's future or a date ("the refill is submitted and
  will be ready on Saturday" is done);
- :func:`has_stance`: whether a sentence states a preference or a standing rule of its
  writer ("I prefer", "I like", "I lean toward", "please keep", "never", "no longer",
  "don't"...): what a preference may be taken from. "I wanted to make chocolate chip
  muffins" is a past want, not a preference;
- :func:`names_something`: whether an item names an action or an object at all: two words
  that are neither function words nor small talk ("leg day", "bring the band"); never a
  lone word ("turn", "finish", "Done") nor small talk ("cheery thx");
- (the claims a conversation denied, for summaries, are ``summarizer.faithful``'s).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Final

from .extract import sentences
from .grounding import NEGATIONS, SUPPORT_SHARE, Evidence, same_word
from .words import STOP_WORDS, stem, words

_I = re.IGNORECASE

_WEEKDAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_MONTHS = (
    r"january|february|march|april|may|june|july|august|september|october|november|december"
    r"|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_FUTURE = re.compile(
    r"\b(?:i|we)(?:'ll|\u2019ll| will| shall| am going to| are going to|'m going to|'re going to"
    r"| plan to| want to| need to| have to| still need to| would like to|'d like to| intend to"
    r"| hope to)\b",
    _I,
)
"""A first person's future: a plan, whatever else the sentence says."""
_LATER = re.compile(
    r"\b(?:will|shall|going to|gonna|plan(?:s|ning)? to|to be done|'ll)\b",
    _I,
)
"""Anyone's future: a plan unless a done word says otherwise ("is submitted and will be
ready")."""
_WHEN_LATER = re.compile(
    rf"\b(?:tomorrow|tonight|tmrw|later|soon|next (?:week|month|year|weekend|time)"
    rf"|this (?:evening|weekend|afternoon)|(?:on|by|from|until|till) (?:the )?(?:{_WEEKDAYS}|weekend)"
    rf"|(?:on|by|from|in|until|starting in|starting on) (?:{_MONTHS})\b|can wait)\b",
    _I,
)
"""A time still to come, without a future verb: a plan unless a done word says otherwise."""
_DONE = re.compile(
    r"\b(?:done|finished|completed|submitted|booked|reserved|solved|sent|paid|bought"
    r"|ordered|installed|already|finally|works again|working again|is now|are now|now matches"
    r"|(?:is|was|got|been) fixed)\b"
    r"|\b(?:i|we|she|he|they|user)(?: also| just| finally| already)? (?:did|set|made|got|went|took"
    r"|wrote|put|ran|found|gave|had|\w*[^\We]ed)\b",
    _I,
)
"""A report of something done: a done word, or a person's past verb ("the user" is how a
summary names the first person)."""
_STANCE = re.compile(
    r"\b(?:i|we)(?: really| strongly| always| generally| still| also| do)?"
    r" (?:prefer|like|love|enjoy|hate|dislike|lean|favou?r|can't stand|cannot stand|avoid|need)\b"
    r"|\b(?:i|we)(?:'d|\u2019d| would) (?:rather|prefer|like)\b|\b(?:my|our) (?:preference|favou?rite)\b"
    r"|\bplease\b|\bkeep it\b|\bno longer\b|\bnever\b|\balways\b|\binstead of\b"
    r"|\b(?:i|we)(?: do)? (?:not|don't|don\u2019t|never) (?:eat|drink|like|want|use)\b"
    r"|\b(?:i'm|i am|we're|we are) (?:a )?(?:vegetarian|vegan|allergic)\b",
    _I,
)
"""What a writer says of their own taste or standing rules."""
_ADVICE = re.compile(
    r"(?:^|;\s*)\W*(?:(?:then|so|also|and|now|first|next|maybe|just|good|great|ok(?:ay)?|yes|sure"
    r"|fine|otherwise)\b\W*)*"
    r"(?:please\s+)?(?:add|ask|avoid|book|bring|buy|call|check|choose|give|keep|make|mention|pass"
    r"|pick|print|put|read|remember|send|set|start|stop|take|tell|try|use|wait|write)\b(?!\s+(?:is|are|was|were)\b)",
    _I,
)
"""Advice: a sentence (or a clause after ";") that opens with a verb of advice ("Add a
test with ...", "Then pass dayfirst=True", "otherwise normalize the rows"): something to
do, a plan."""
_DECIDES = re.compile(
    r"\b(?:let'?s|let us|decided?|decision|go(?:ing)? with|stick(?:ing)? with|settled? on|chose|choose"
    r"|agreed|instead|switch(?:ed)? to|the plan is|should|must|(?:i|we)(?:'ll|\u2019ll| will))\b",
    _I,
)
"""A sentence that decides: "let's", "we'll go with", "I decided", "use X instead",
"should", "must"."""
_INTENDS = re.compile(
    r"\b(?:(?:i|we)(?: really| still| just)? (?:need|want|would like|am trying|have to|must)"
    r"|(?:i|we)(?:'d|\u2019d) like|(?:i'm|i am|we're|we are) (?:trying|hoping|looking)"
    r"|please|help me|can you|could you|how (?:do|can|should) (?:i|we)"
    r"|(?:i'm|i am|we're|we are) \w+ing)\b",
    _I,
)
"""A sentence that states what someone is after: "I need", "I want", "please", "help me",
"we are shipping the feature"."""
_COMPLETES: Final = {
    "request": ("submitted", "requested"), "submit": ("submitted",), "apply": ("submitted", "applied"),
    "book": ("booked", "reserved"), "reserve": ("reserved", "booked"), "order": ("ordered",),
    "buy": ("bought",), "pay": ("paid",), "send": ("sent",), "fix": ("fixed", "solved"),
    "solve": ("solved", "fixed"), "finish": ("finished", "done"), "complete": ("completed", "done"),
    "set": ("set",), "put": ("put",), "make": ("made",), "get": ("got",), "take": ("took",),
    "write": ("wrote", "written"), "give": ("gave",), "find": ("found",), "go": ("went",),
}
"""Words that report an action done, by the action's verb (besides its "-ed" form)."""
CHANGE_WORDS: Final = frozenset(
    "new updated current changed now moved relocated longer anymore stopped quit off".split()
)
"""Words without which a sentence states no change of a fact ("my NEW wifi password",
"I no LONGER take"): ``updates`` gates every user message with them."""
SMALL_TALK: Final = frozenset(
    """
    thx thanks thank ty np lol cheers ok okay yes yeah yep cool nice hi hey bye great good
    sure done fine deal
    """.split()
)
"""Words of a chat's small talk: an item made of them names nothing ("cheery thx", "Done")."""


def status(sentence: str) -> str | None:
    """``"plan"``, ``"done"`` or None for ``sentence`` (see the module docstring)."""
    if _FUTURE.search(sentence):
        return "plan"
    if _DONE.search(sentence):
        return "done"
    if _LATER.search(sentence) or _WHEN_LATER.search(sentence):
        return "plan"
    return None


def claimed(sentence: str) -> str | None:
    """The status a summary's sentence claims: :func:`status`, except that a done word
    beside a future verb ("already bought the wine and will bake a tart") claims neither."""
    if _DONE.search(sentence) and (_FUTURE.search(sentence) or _LATER.search(sentence)):
        return None
    return status(sentence)


def signals(sentence: str) -> frozenset[str]:
    """Every status ``sentence`` signals, whichever wins in :func:`status`: ``{"done",
    "plan"}`` for "the refill is submitted and will be ready on Saturday"; advice ("Add a
    test with ...", "Take the regional train") is a plan here (a checkpoint's "Keep it
    short, I am writing the export now" is under way, so :func:`status` does not read it)."""
    found = set()
    if any(p.search(sentence) for p in (_FUTURE, _LATER, _WHEN_LATER, _ADVICE)):
        found.add("plan")
    if _DONE.search(sentence):
        found.add("done")
    return frozenset(found)


def decides(sentence: str) -> bool:
    """True when ``sentence`` (not a question) decides: a decision's words (:data:`_DECIDES`),
    advice taken as the way to go, a stance, or something done ("I changed the password")."""
    if sentence.rstrip().endswith("?"):
        return False
    return bool(_DECIDES.search(sentence) or _ADVICE.search(sentence) or has_stance(sentence)
                or status(sentence) is not None)


_OPTION = re.compile(
    r"\b(?:you|we|i|they)(?: \w+)? (?:can|could|might|may)\b[^.;]*\bor\b"
    r"|\b(?:often|usually|sometimes|typically|generally)\b",
    _I,
)
"""An option offered ("you can take the train back, or stay") or a generality ("dentists
often use clindamycin"): no one decided it."""
_OTHERS_DID = re.compile(
    r"^\W*(?:they|he|she|the(?: \w+){1,2})(?: \w+ly)?"
    r" (?:gave|did|made|took|put|got|sent|\w+ed)\b",
    _I,
)
"""A report of what someone outside the conversation did ("They gave him activated
charcoal"): something done to the user, not decided by them."""


def undecided(sentence: str) -> bool:
    """True when every part of ``sentence`` (cut at ";") offers a choice or states a
    generality (:data:`_OPTION`), or reports what someone else did (:data:`_OTHERS_DID`),
    with no first person's decision in it ("let's", "I'll", "we decided"): nothing is
    decided there. ("Dentists often use clindamycin; ask your dentist which one fits."
    advises in its second part.)"""
    return all(map(_undecided, sentence.split(";")))


def _undecided(part: str) -> bool:
    if re.search(r"\b(?:let'?s|i'll|we'll|i will|we will|decided|i'm going to|we're going to)\b", part, _I):
        return False
    return bool(_OPTION.search(part) or _OTHERS_DID.search(part.strip()))


def intends(sentence: str) -> bool:
    """True when ``sentence`` states what someone is after: a want or a need, a request, a
    plan or advice ("I need a refill", "Keep the leg raised"); not a description ("My
    script reads sales.csv") nor a report of something done."""
    return bool(_INTENDS.search(sentence) or _ADVICE.search(sentence) or status(sentence) == "plan")


_WRAPPER = re.compile(
    r"^\W*(?:please\s+)?(?:remember to|don'?t forget to|do not forget to|make sure (?:to|you)"
    r"|be sure to)\s+",
    _I,
)
"""Words that wrap an action without being it: "Remember to remove the branch" is the
action "remove the branch"."""
_MOMENTARY: Final = frozenset(
    "call phone ring text email message send book order pay submit sign buy ask tell".split()
)
"""Actions over in a moment: "I'm calling the vet" is under way as it is written and done
by the writer's next turn (unlike "I'm writing a song", which lasts)."""
_MAKES: Final = frozenset("write draft compose make bake cook build create paint draw knit sew design".split())
"""Actions whose outcome is a thing: once the thing is there ("It's a good haiku"), the
action is done."""
_WHEN = re.compile(rf"^(?:{_WEEKDAYS}|{_MONTHS}|\d.*)$")
"""Words that say when (a weekday, a month, a number): no object an action is done to."""
_PARTS = re.compile(r",|;|&|\band\b|\bplus\b", _I)


def action(item: str) -> tuple[str | None, list[str]]:
    """``item`` read as an action: its verb (the first word, a wrapper such as "remember
    to" left out) and its objects' words (neither stop words nor small talk), in order;
    ``(None, [])`` when it has no two such words or opens with a number."""
    said = [w for w in words(_WRAPPER.sub("", item)) if w not in STOP_WORDS and w not in SMALL_TALK]
    if len(said) < 2 or said[0][:1].isdigit():
        return None, []
    return said[0], said[1:]


def done_forms(verb: str) -> frozenset[str]:
    """The words that report ``verb`` done: its "-ed" forms and :data:`_COMPLETES`."""
    return frozenset({verb + "ed", verb + "d", *_COMPLETES.get(verb, ())})


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
    said = [w for w in said if not _WHEN.match(w)]  # a date says when, not what
    if not said:
        return False
    objects = [stem(w) for w in said]
    direct = {stem(w) for w in _direct_object(item) if w in said}
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


_PREPOSITIONS: Final = frozenset(
    "from to for in on at with about by of into onto after before until till via per".split()
)


def _direct_object(item: str) -> list[str]:
    """The words of ``item`` (an action) after its verb and before its first preposition:
    "flights" of "Book flights from Amsterdam to Lisbon"."""
    found = words(_WRAPPER.sub("", item))[1:]
    cut = next((i for i, w in enumerate(found) if w in _PREPOSITIONS), len(found))
    return found[:cut]


def partly_done(item: str, later: Sequence[str]) -> bool:
    """True when ``item`` joins several things ("Reconnect printer and TV") and one of the
    ``later`` sentences reports some of them done but not all ("Done, the printer works
    again."): the item no longer says what is left to do."""
    verb, _ = action(item)
    if verb is None:
        return False
    rest = _WRAPPER.sub("", item).split(None, 1)[-1]
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


def made_later(item: str, later: Sequence[str]) -> bool:
    """True when ``item`` makes a thing ("write a haiku about rain": :data:`_MAKES`) and a
    ``later`` sentence says the thing is there: "It's a good haiku", "your haiku reads
    well" (the thing: one of its first three object words): the making is done. ("The song is in G major" describes a song still made.)"""
    verb, said = action(item)
    if verb not in _MAKES or not said:
        return False
    thing = "(?:" + "|".join(re.escape(stem(w)) for w in said[:3]) + ")"
    there = re.compile(
        rf"\b(?:it|this|that)(?:'s|\u2019s| is| was) an? (?:\w+ ){{0,2}}{thing}\w*\b(?! (?:to|for|about)\b)"
        rf"|\byour {thing}\w* (?:looks|reads|sounds|works)\b",
        _I,
    )
    return any(status(s) != "plan" and not s.rstrip().endswith("?") and there.search(s) for s in later)


def has_stance(sentence: str) -> bool:
    """True when ``sentence`` (not a question) states its writer's taste or standing rule."""
    return not sentence.rstrip().endswith("?") and _STANCE.search(sentence) is not None


_CLAUSES = re.compile(r"[,;:]|\s[-\u2013\u2014]\s|\b(?:so|because|but|since|while|though)\b", _I)


def clauses(sentence: str) -> list[str]:
    """The clauses of ``sentence``: cut at commas, semicolons, colons, dashes and "so",
    "because", "but", "since", "while", "though"."""
    return _CLAUSES.split(sentence)


def prefers(sentence: str, item: str) -> bool:
    """True when ``sentence`` states its writer's taste or rule (:func:`has_stance`) about
    ``item``: the stance is in the clause that holds most of the item's words. "My
    partner gets seasick, so no boat trips please." states "no boat trips", not
    "seasick" (a reason, not a taste)."""
    if sentence.rstrip().endswith("?"):
        return False
    wanted = {stem(w) for w in words(item) if w not in STOP_WORDS}
    parts = clauses(sentence)
    held = [len(wanted.intersection(stem(w) for w in words(c))) for c in parts]
    best = max(held, default=0)
    return best > 0 and any(has_stance(c) for c, n in zip(parts, held) if n == best)


def names_something(item: str) -> bool:
    """True when ``item`` names an action or an object: at least two words (apart, not one
    name such as a file's "0042_orders_status_index.sql") of three letters or more that
    are neither function words nor small talk."""
    if len(item.split()) < 2:
        return False
    found = [
        w
        for w in words(item)
        if (len(w) >= 3 or w[:1].isdigit()) and w not in STOP_WORDS and w not in SMALL_TALK
        and w not in NEGATIONS
    ]
    return len(found) >= 2


STEP_FIELDS: Final = ("completed_steps", "current_step", "next_steps", "pending_tasks", "active_goals")
"""The checkpoint fields whose items have a status: done, under way, or still to do."""


def by_sentence(sources: Sequence[str]) -> Evidence:
    """An Evidence whose sources are the sentences of ``sources``: its ``supporting``
    names the sentences an item was taken from."""
    return Evidence([s for text in sources for s in sentences(text)])


def holds_verb(sentence: str, verb: str) -> bool:
    """True when ``sentence`` says ``verb`` in some form ("book", "booking", "booked")."""
    forms = done_forms(verb)
    return any(w in forms or same_word(stem(w), stem(verb)) for w in words(sentence))


def placed(field: str, support: Sequence[str], item: str = "") -> tuple[str | None, str | None]:
    """Where a checkpoint item proposed for ``field`` belongs, by what the ``support``
    (the sentences that state it: :func:`by_sentence`) say of it:
    ``(field, None)``, ``(another field, None)`` or ``(None, why it is dropped)``.

    A completed step needs a sentence saying it was done; one only planned becomes a next
    step. A current step that is planned for later is a next step too. A step, task or
    goal every supporting sentence reports done is no longer to do. The status is read
    from the sentences that say the ``item``'s action (its verb: :func:`action`) when
    some do: "We got two quotes from Swift Move" does not report "Book Swift Move" done.
    """
    if field not in STEP_FIELDS:
        return field, None
    verb, _ = action(item)
    acting = [s for s in support if verb is not None and holds_verb(s, verb)]
    said = {status(s) for s in acting or support}
    if field == "completed_steps":
        if "done" in said:
            return field, None
        return ("next_steps", None) if "plan" in said else (None, "not said to be done")
    if said == {"done"}:
        return None, "already done"
    if field == "current_step" and "plan" in said and "done" not in said:
        return "next_steps", None
    return field, None
