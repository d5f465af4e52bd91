"""An item read as an action, and whether a later sentence reports that act done in its own words.

A checkpoint keeps "clean the rotor" to do after the user wrote "pads in, rotor cleaned", and
"Send email to landlord" after "I already emailed him last week". ``localmem.progress`` reads
an item's status from the chat; this module holds what it stands on (pure functions; they
never raise on any ``str``):

- :func:`action`: an item as an action, its verb and its objects' words ("remember to" and
  such left out: :data:`WRAPPER`); :func:`direct_object`: the words between its verb and its
  first preposition;
- :func:`done_forms`: the words that report a verb done; :func:`holds_verb`: a sentence says
  a verb in some form;
- :func:`reported_done`: a later clause says the item's own act in the past beside its
  object, in either order ("rotor cleaned", "I emailed him last week" for "Send email to
  landlord").

It sits below ``progress`` and ``statements`` (the import tree is at most 9 deep): what a
sentence's status is, the caller says (``telling``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

from .grounding import NEGATIONS, same_word
from .words import MONTHS, SMALL_TALK, STOP_WORDS, WEEKDAYS, stem, words

_I = re.IGNORECASE

_COMPLETES: Final = {
    "request": ("submitted", "requested"), "submit": ("submitted",), "apply": ("submitted", "applied"),
    "book": ("booked", "reserved"), "reserve": ("reserved", "booked"), "order": ("ordered",),
    "buy": ("bought",), "pay": ("paid",), "send": ("sent",), "fix": ("fixed", "solved"),
    "solve": ("solved", "fixed"), "finish": ("finished", "done"), "complete": ("completed", "done"),
    "set": ("set",), "put": ("put",), "make": ("made",), "get": ("got",), "take": ("took",),
    "write": ("wrote", "written"), "give": ("gave",), "find": ("found",), "go": ("went",),
    "read": ("read",),
}
"""Words that report an action done, by the action's verb (besides its "-ed" form)."""
WRAPPER = re.compile(
    r"^\W*(?:please\s+)?(?:remember to|don'?t forget to|do not forget to|make sure (?:to|you)"
    r"|be sure to)\s+",
    _I,
)
"""Words that wrap an action without being it: "Remember to remove the branch" is the
action "remove the branch"."""
WHEN = re.compile(rf"^(?:{WEEKDAYS}|{MONTHS}|\d.*)$")
"""Words that say when (a weekday, a month, a number): no object an action is done to."""


def action(item: str) -> tuple[str | None, list[str]]:
    """``item`` read as an action: its verb (the first word, a wrapper such as "remember
    to" left out) and its objects' words (neither stop words nor small talk), in order;
    ``(None, [])`` when it has no two such words or opens with a number."""
    said = [w for w in words(WRAPPER.sub("", item)) if w not in STOP_WORDS and w not in SMALL_TALK]
    if len(said) < 2 or said[0][:1].isdigit():
        return None, []
    return said[0], said[1:]


_VOWELS: Final = frozenset("aeiou")


def done_forms(verb: str) -> frozenset[str]:
    """The words that report ``verb`` done: its "-ed" forms ("cancelled", "stopped" with
    the last consonant doubled; "copied" for a "-y" after a consonant) and
    :data:`_COMPLETES`."""
    forms = {verb + "ed", verb + "d", *_COMPLETES.get(verb, ())}
    if len(verb) >= 3 and verb[-1] not in _VOWELS | {"w", "x", "y"} and verb[-2] in _VOWELS \
            and verb[-3] not in _VOWELS:
        forms.add(verb + verb[-1] + "ed")  # "cancel" -> "cancelled", "stop" -> "stopped"
    if len(verb) >= 3 and verb.endswith("y") and verb[-2] not in _VOWELS:
        forms.add(verb[:-1] + "ied")  # "copy" -> "copied"
    return frozenset(forms)


_PREPOSITIONS: Final = frozenset(
    "from to for in on at with about by of into onto after before until till via per".split()
)


def direct_object(item: str) -> list[str]:
    """The words of ``item`` (an action) after its verb and before its first preposition:
    "flights" of "Book flights from Amsterdam to Lisbon"."""
    found = words(WRAPPER.sub("", item))[1:]
    cut = next((i for i, w in enumerate(found) if w in _PREPOSITIONS), len(found))
    return found[:cut]


def holds_verb(sentence: str, verb: str) -> bool:
    """True when ``sentence`` says ``verb`` in some form ("book", "booking", "booked")."""
    forms = done_forms(verb)
    return any(w in forms or same_word(stem(w), stem(verb)) for w in words(sentence))


_LIGHT: Final = frozenset("send make give do take place".split())
"""Verbs whose act is their object's noun ("send an email" is to email, "make a call" to
call): the noun's past form ("emailed") reports the act."""
_SUBJECTS: Final = frozenset("i we you they he she".split())
"""Personal subjects: a past form equal to its verb ("read", "set") is past after one."""
_CLAUSES = re.compile(r"[,;]|\s[-\u2013\u2014]\s|\b(?:and|but|so|then)\b", _I)
_NO_OBJECT_AFTER: Final = frozenset(
    "from to for in on at with about by of into onto after before until till via per"
    " now yesterday today already last this earlier fine ok too again".split()
)
"""Words after a past form that start no object: "rotor cleaned now", "pads ordered
yesterday" (the thing before the form is what was acted on, not who acted)."""
_PRONOUNS: Final = frozenset("it them him her".split())
_NOT_YET: Final = frozenset("if unless once when whenever until till".split())
"""Words that make what follows in a clause a case still to come ("the form goes in once
you've signed it"), not a report."""
_IT_IS: Final = frozenset("it's it\u2019s they're they\u2019re its".split())
"""A pronoun and "is"/"are" before a done form: the thing named before is in the act's
state ("It's cancelled")."""
PRONOUN_REACH: Final = 3
"""How many sentences back a pronoun's thing may be named ("I emailed him")."""


def _past_forms(item: str, verb: str, objects: Sequence[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The words that say ``item``'s ``verb`` (with its ``objects``' words) was done: its
    done forms (:func:`done_forms`) and, for a light verb (:data:`_LIGHT`), its first
    object's ("emailed" for "send email"); and the words that name what it was done to:
    the head of its direct object, the last word before a preposition ("gateway" of
    "Configure the alpha gateway": "I configured the alpha router" did another thing), or
    the objects left once a light verb's noun is taken as the act ("landlord")."""
    forms = set(done_forms(verb))
    if verb in _LIGHT and objects:
        noun = objects[0]
        forms |= {noun + "ed", noun + "d", noun + noun[-1] + "ed"}
        return frozenset(forms), frozenset(stem(w) for w in (objects[1:] or objects))
    head = [w for w in direct_object(item) if w in objects][-1:]  # "gateway" of "the alpha gateway"
    return frozenset(forms), frozenset(stem(w) for w in (head or objects))


def reported_done(item: str, later: Sequence[str], telling: Callable[[str], bool]) -> bool:
    """True when one of ``later`` (the chat's sentences from the one stating ``item``, an
    action, on; the first too: the sentence the item was taken from may itself report it,
    "I've just logged in and switched off auto-renewal") reports the same act in the past: in
    one clause, the verb in a past form (:func:`done_forms`; a light verb's noun:
    "emailed" for "Send email to landlord") beside a word of the item's object, in either
    order ("rotor cleaned", "cleaned the rotor", "I emailed the landlord last week"; the
    word: the head of its direct object, :func:`_past_forms`); a
    pronoun for the object ("I emailed him") when one of the :data:`PRONOUN_REACH`
    sentences before names the object; a form equal to its verb ("read", "set") after a
    personal subject ("we read it"). A thing before the form is what was acted on only when
    no object follows ("rotor cleaned", not "the vet emailed me": the vet acted), and so is
    "it" or "they" before "is"/"are" ("It's cancelled now") when one of the
    :data:`PRONOUN_REACH` sentences before names the object. Two more
    ways: a clause naming the act and one that is only "done" ("sudo apt install
    sane-airscan, done"), and a clause that is the past form alone ("ordered, arrive
    thurs") when the last sentence before it that says the verb names the object ("fine,
    ordering pads"). A sentence that tells nothing happened (``telling`` false for it: a
    question, a plan, as ``statements.tells`` reads them), a negated clause ("haven't
    ordered the pads") or a case to come (:data:`_NOT_YET`: "once you've signed
    it") reports nothing."""
    verb, said = action(item)
    if verb is None:
        return False
    said = [w for w in said if not WHEN.match(w)]
    if not said:
        return False
    forms, objects = _past_forms(item, verb, said)
    if not objects:
        return False

    def names(text: str) -> bool:
        return not objects.isdisjoint(stem(w) for w in words(text))

    for k in range(len(later)):
        sentence = later[k]
        if not telling(sentence):
            continue
        clauses = [words(c) for c in _CLAUSES.split(sentence) if c and c.strip()]
        clauses = [c for c in clauses if c]
        if any(c == ["done"] for c in clauses) and any(
            names(" ".join(c)) and holds_verb(" ".join(c), verb) for c in clauses
        ):
            return True  # "sudo apt install sane-airscan, done"
        for clause in clauses:
            if any(w in NEGATIONS or w.endswith("n't") for w in clause):
                continue
            if len(clause) == 1 and clause[0] in forms and clause[0] != verb:
                before = [s for s in later[:k] if holds_verb(s, verb)]
                if before and names(before[-1]):
                    return True  # "ordered, arrive thurs" after "ordering pads"
                continue
            for i, w in enumerate(clause):
                if w not in forms or (w == verb and (i == 0 or clause[i - 1] not in _SUBJECTS)):
                    continue
                if not _NOT_YET.isdisjoint(clause[:i]):
                    continue  # "once you've signed it": a case to come
                after = clause[i + 1:i + 4]
                if any(stem(a) in objects for a in after):
                    return True  # "cleaned the rotor"
                if after[:1] and after[0] in _PRONOUNS and any(names(s) for s in later[max(0, k - PRONOUN_REACH):k]):
                    return True  # "I emailed him", the landlord named just before
                free = not after or after[0] in _NO_OBJECT_AFTER
                if free and any(stem(b) in objects for b in clause[max(0, i - 3):i]):
                    return True  # "rotor cleaned"
                if free and i > 0 and clause[i - 1] in _IT_IS and any(
                    names(s) for s in later[max(0, k - PRONOUN_REACH):k]
                ):
                    return True  # "It's cancelled now", the membership named just before
    return False


def opens_with_its_verb(task: str) -> bool:
    """Whether ``task`` is said as an instruction: its first word (after "remember to") is
    the verb ``acts.action`` reads ("Reconnect the printer and the TV"), no subject before it
    ("I'm the best man ... and I have to give a toast" joins two clauses, not two things)."""
    verb, _ = action(task)
    said = words(WRAPPER.sub("", task))
    return verb is not None and bool(said) and said[0] == verb
