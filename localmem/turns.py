"""What a short reply reports: the instruction of the turn right before it, done.

In terse chat a step is reported done without being named: the assistant says "Unplug
everything on that circuit, then push the switch back up." and the user answers "did that",
"ok unplugged all. stays on now" or "binned". What the report is about is not in its words
but in where it stands: it is the user's next turn, and it answers the instruction just
before it. This module reads that structure (pure functions; they never raise on any
``str``):

- :func:`instructions`: the parts of a turn that tell the other party to do something: a
  clause opening with a verb (after "then", "now", "please"...; "can you ...", "try
  unplugging ...", "you should ..." too), not forbidden ("don't ..."), not bound to a case
  ("if it trips again, call ..."), not a question asked about it;
- :func:`reports`: whether a reply's opening (its first clause that is more than an
  acknowledgement) reports an instruction done: a past form of the instruction's own verb
  ("unplugged", "binned") or of "do" ("did that", "done"), nothing else in it but words
  pointing back ("all", "that", "it") or words of the instruction's object, few words, not
  asked, negated or planned;
- :func:`reported_done`: whether an item to do names an instruction that the reply right
  after it reports done (and that no later turn asks for again).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from . import verbs
from .acts import WRAPPER, direct_object, done_forms
from .extract import sentences
from .grounding import NEGATIONS, same_word
from .replies import condition
from .statements import status
from .words import SMALL_TALK, STOP_WORDS, stem, words

_I = re.IGNORECASE

MAX_REPORT_WORDS: Final = 6
"""Words at most in the clause of a reply that reports an instruction done: a report that
leaves its act unnamed is short ("did that", "ok unplugged all"); a longer clause tells
something of its own."""
_STEPS = re.compile(r"[;:]|,?\s+(?:and\s+)?then\b|,\s*and\b|\s[-\u2013\u2014]\s", _I)
"""Where one instruction passes to the next ("Unplug everything, then push it back up")."""
_AND = re.compile(r"(\s+(?:and|or)\s+)", _I)
"""Where a step may join a second act, or an alternative one ("bin the bread and wipe the
shelf", "bin it or get it checked"): a second act only when the words after it open with a
verb."""
_OPENERS = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|so|now|first|then|next|and|also|alright|right|good|great|please|just)\b\W*)*",
    _I,
)
"""Words a turn opens an instruction with, before its verb."""
_DIRECTED = re.compile(
    r"^(?:(?:can|could|would|will) you\s+(?:please\s+)?"
    r"|you(?:'ll| will)? (?:also |really |just )?(?:should|need to|must|have to|want to|could)\s+(?:also\s+|just\s+)?"
    r"|go ahead and\s+"
    r")",
    _I,
)
"""Words that tell the other party to do what follows ("can you unplug", "you should
unplug", "try unplugging"): what follows is the act."""
_TRY = re.compile(r"^try\s+(?=\w+ing\b)", _I)
"""A suggestion of an act by its "-ing" form ("try unplugging everything"): the act."""
_FORBIDS = re.compile(r"^(?:don'?t|do not|never|avoid|stop)\b", _I)
"""An instruction not to do its act: nothing a report could say done."""
_POINTING: Final = frozenset("all both everything anything it them that this those these each every one".split())
"""Words that point back at what was asked instead of naming it ("unplugged all", "did that")."""
_DO: Final = frozenset("did done".split())
"""The past forms of "do": a report of whatever was asked ("did that", "done")."""
_SUBJECTS: Final = frozenset("user i we you".split())
"""Who an item may name before its verb ("User unplugged the appliances")."""
_CLAUSE = re.compile(r"[,;]|\s[-\u2013\u2014]\s|\b(?:and|but)\b", _I)


class Instruction:
    """One act a turn tells the other party to do: its verb's stem, its objects' stems,
    and whether its direct object only points ("unplug everything on that circuit": any
    thing unplugged there is of it)."""

    __slots__ = ("any_thing", "objects", "text", "verb")

    def __init__(self, text: str, verb: str, objects: frozenset[str], any_thing: bool = False) -> None:
        self.text = text
        self.verb = verb
        self.objects = objects
        self.any_thing = any_thing

    def __repr__(self) -> str:
        return f"Instruction({self.text!r})"


def _act(clause: str, conversation: Sequence[str]) -> tuple[str, list[str], bool] | None:
    """The verb and the content words after it of an instruction's clause, or None when
    it does not open with a verb (``verbs.opens_with_verb``, a word the ``conversation``
    uses as a verb too, a word before one pointing at a thing: "unplug everything"; "try
    unplugging": the "-ing" form's), and whether its direct
    object only points ("everything")."""
    body = WRAPPER.sub("", _DIRECTED.sub("", _OPENERS.sub("", clause.strip()), count=1))  # "remember to ..."
    trying = _TRY.match(body) is not None
    body = _TRY.sub("", body, count=1)
    said = words(body)
    if not said or _FORBIDS.match(body):
        return None
    pointed = len(said) > 1 and said[1] in _POINTING and said[0] not in _POINTING  # "unplug everything"
    if not (trying or pointed or verbs.opens_with_verb(body, conversation) or _said_done(said[0], conversation)):
        return None
    direct = direct_object(body)
    pointing = bool(direct) and all(w in _POINTING or w in STOP_WORDS for w in direct)
    return said[0], [w for w in said[1:] if w not in STOP_WORDS and w not in SMALL_TALK and w not in _POINTING], pointing


def _said_done(verb: str, conversation: Sequence[str]) -> bool:
    """True when the ``conversation`` says ``verb`` in a past form ("unplugged" of
    "unplug", the consonant doubled: ``acts.done_forms``): a word used as a verb."""
    forms = done_forms(verb)
    return any(not forms.isdisjoint(words(text)) for text in conversation)


def instructions(text: str, conversation: Sequence[str] = ()) -> list[Instruction]:
    """The acts ``text`` (one turn of the ``conversation``) tells its reader to do, clause
    by clause (see the module docstring): "Unplug everything, then push the switch back
    up." gives "unplug" and "push"; "If it trips again, call an electrician." gives none (a
    case that may not come), nor "Don't touch the fuse box." nor "Did you unplug it?"."""
    out = []
    for sentence in sentences(text):
        asking = sentence.rstrip().endswith("?")
        if condition(sentence) is not None:
            continue
        for step in _STEPS.split(sentence):
            if asking and _DIRECTED.match(_OPENERS.sub("", step.strip())) is None:
                continue  # "Did you unplug it?" asks what was done; "Can you unplug it?" tells
            acts: list[tuple[str, tuple[str, list[str], bool] | None]] = []
            pieces = _AND.split(step)  # with the joining words: "bin the bread", " and ", "wipe ..."
            for n in range(0, len(pieces), 2):
                part = pieces[n]
                found = _act(part, conversation)
                if found is None and acts:  # "bread and butter": one act's objects
                    joined = acts[-1][0] + pieces[n - 1] + part
                    acts[-1] = (joined, _act(joined, conversation))
                else:
                    acts.append((part, found))
            for clause, found in acts:
                if found is not None:
                    verb, objects, pointing = found
                    out.append(Instruction(clause.strip(), stem(verb), frozenset(stem(w) for w in objects), pointing))
    return out


def _past_of(word: str, verb: str) -> bool:
    """True when ``word`` is a past form of "do" or of the verb whose stem is ``verb``
    ("unplugged", "binned", "bought")."""
    return word in _DO or word in done_forms(verb) or (word.endswith("ed") and same_word(stem(word), verb))


def reports(reply: str, instruction: Instruction, named: bool = False) -> bool:
    """True when ``reply``'s opening reports ``instruction`` done (see the module
    docstring): its first clause that is more than an acknowledgement ("ok", "yep") holds
    a past form of the instruction's verb or of "do", at most :data:`MAX_REPORT_WORDS`
    words, and besides that only words pointing back or naming the instruction's objects
    ("unplugged all", "did that", "binned", "done"); not a question, a negation or a plan
    ("done?", "didn't help", "will do"). ``named``: only a past form of the instruction's
    own verb counts ("binned", not "did that")."""
    for sentence in sentences(reply):
        for clause in _CLAUSE.split(sentence):
            said = words(clause)
            if not said or all(w in SMALL_TALK and w not in _DO for w in said):
                continue  # "ok", "yep": an acknowledgement; the report may follow
            if sentence.rstrip().endswith("?") or status(sentence) == "plan" or len(said) > MAX_REPORT_WORDS:
                return False
            if any(w in NEGATIONS or w.endswith("n't") for w in said):
                return False
            past = [w for w in said if _past_of(w, instruction.verb) and not (named and w in _DO)]
            if not past:
                return False
            rest = {stem(w) for w in said if w not in past and w not in STOP_WORDS
                    and w not in SMALL_TALK and w not in _POINTING}
            return all(any(same_word(w, o) for o in instruction.objects) for w in rest)
    return False


def names(item: str, instruction: Instruction) -> bool:
    """True when ``item`` (something to do, or done: "Unplug all appliances", "Unplugged
    the appliances") names ``instruction``'s act: the same verb, and a word of its objects
    when both name some and the instruction's direct object does not only point ("Unplug
    everything on that circuit": any unplugging; "Bin the bread" is not "Bin the cheese")."""
    said = [w for w in words(WRAPPER.sub("", item)) if w not in _SUBJECTS and (w not in STOP_WORDS or w in _POINTING)]
    if not said or not same_word(stem(said[0]), instruction.verb):
        return False
    objects = {stem(w) for w in said[1:] if w not in STOP_WORDS and w not in _POINTING}
    if not instruction.objects or not objects or instruction.any_thing:
        return True
    return any(same_word(w, o) for w in objects for o in instruction.objects)


def reported_done(item: str, turns: Sequence[tuple[str, str]]) -> bool:
    """True when ``item`` names an instruction of an assistant's turn among ``turns``
    (role, text, in order), the last such instruction naming it (one asked again later and
    not reported stays to do), and the user's turn right after it reports it done
    (:func:`reports`), or a later turn of the user's reports it by the instruction's own
    verb ("bin it or get it checked" ... "binned."): a report naming its act answers the
    latest instruction of that act; "did that" only the turn right before it."""
    conversation = [text for _, text in turns]
    last: tuple[int, Instruction] | None = None
    for k, (role, text) in enumerate(turns[:-1]):
        if role == "assistant":
            for instruction in instructions(text, conversation):
                if names(item, instruction):
                    last = (k, instruction)
    if last is None:
        return False
    k, instruction = last
    return any(
        role == "user" and reports(reply, instruction, named=j > k + 1)
        for j, (role, reply) in enumerate(turns[k + 1:], k + 1)
    )
