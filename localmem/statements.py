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
  muffins" is a past want, not a preference; :func:`prefers`: the stance is in the clause
  that holds the item ("My partner gets seasick, so no boat trips please" prefers no boat
  trips, not seasickness), the item's subject is not someone else (:func:`someone_elses`:
  "Dr Osei recommended it" is the vet's), and the sentence holds every content word of the item: a
  preference is one sentence of its writer, never words of two ("I'll take the risk." and
  "I'll take the train instead of an Uber." state no "risk of the train change");
- :func:`decides` and :func:`undecided`: a sentence that decides, and one that only offers
  a choice, states a generality or reports what someone else did;
- :func:`changes_unsaid`: an item changing a thing the chat never changed ("Change the
  train to the 2 pm train" where the train replaced an Uber);
- :func:`names_something`: whether an item names an action or an object at all: two words
  that are neither function words nor small talk ("leg day", "bring the band"); never a
  lone word ("turn", "finish", "Done"), a lone name ("0042_orders_status_index.sql") nor
  small talk ("cheery thx");
- :func:`only_a_name`: an item that is a name and nothing more ("Sofia"): no preference;
- :func:`has_content`, :func:`is_question`, :func:`copied_line`: whether an item says
  anything at all (not "thx", "k", "same as always"), asks, or is a transcript line copied
  ("user: and a veggie half", a whole message);
- (whether something to do names an action, a verb, is ``localmem.verbs``'s; whether it is
  still to do is ``localmem.progress``'s; how one message
  answers another, a refusal, an assent, a suggestion taken up, is ``localmem.replies``';
  the claims a conversation denied, for summaries, are ``summarizer.faithful``'s).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Final

from .extract import sentences
from .grounding import NEGATIONS, Evidence, held, item_forms, read, same_word
from .words import MONTHS, SMALL_TALK, STOP_WORDS, WEEKDAYS, stem, words

_I = re.IGNORECASE

_FUTURE = re.compile(
    r"\b(?:i|we)(?:'ll|\u2019ll| will| shall| am going to| are going to|'m going to|'re going to"
    r"| plan to| want to| need to| have to| still need to| would like to|'d like to| intend to"
    r"| hope to)\b|\blet(?:'|\u2019)s (?!see\b|say\b)",
    _I,
)
"""A first person's future: a plan, whatever else the sentence says ("let's book it" too)."""
_LATER = re.compile(
    r"\b(?:will|shall|going to|gonna|plan(?:s|ning)? to|to be done|'ll)\b",
    _I,
)
"""Anyone's future: a plan unless a done word says otherwise ("is submitted and will be
ready")."""
_WHEN_LATER = re.compile(
    rf"\b(?:tomorrow|tonight|tmrw|later|soon|next (?:week|month|year|weekend|time)"
    rf"|this (?:evening|weekend|afternoon)|(?:on|by|from|until|till) (?:the )?(?:{WEEKDAYS}|weekend)"
    rf"|(?:on|by|from|in|until|starting in|starting on) (?:{MONTHS})\b|can wait)\b",
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
_INTENTION = re.compile(
    r"\b(?:decided|wanted|planned|agreed|chose|hoped|intended|offered|promised|meant|arranged"
    r"|aimed|tried|needed|wished|expected)\s+(?:not\s+)?to\b",
    _I,
)
"""A past verb of deciding or wanting and the "to" of the act it takes ("decided to
overpay", "wanted to try")."""
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
    r"|(?:i'm|i am|we're|we are) \w+ing|^\W*(?:need|want)(?![^?]*\?))\b",
    _I,
)
"""A sentence that states what someone is after: "I need", "I want", "please", "help me",
"we are shipping the feature"; in terse chat, the "I" left out: "need new laptop for uni"
(not a question: "Want me to draft it?" offers)."""
CHANGE_WORDS: Final = frozenset(
    "new updated current changed now moved relocated longer anymore stopped quit off".split()
)
"""Words without which a sentence states no change of a fact ("my NEW wifi password",
"I no LONGER take"): ``updates`` gates every user message with them."""
_THANKS = re.compile(
    r"\b(?:thx|thanks|thank (?:you|u)|ty)\b(?: (?:so|very) much)?"
    r"(?: for (?:the|your|this|that|all)(?: [\w']+){1,2}(?=\s*(?:[.,;!?]|$)))?",
    _I,
)
"""A thanks with what it thanks for, in a word or two ("thx for the chat", "thanks for all
your help"): small talk whole, its object included ("thanks for the ride to the airport on
May 3" says what happened)."""


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
    beside a future verb ("already bought the wine and will bake a tart") claims neither,
    and that a past verb of deciding or wanting before the act it takes ("decided to
    overpay", "wanted to try writing": :data:`_INTENTION`) reports the decision, not the
    act: the act's status is what the rest of the sentence says ("decided to book it on
    Friday" plans it), else none (a decision is true of a plan and of an act since done)."""
    sentence = _INTENTION.sub(" to ", sentence)
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


def has_stance(sentence: str) -> bool:
    """True when ``sentence`` (not a question) states its writer's taste or standing rule."""
    return not sentence.rstrip().endswith("?") and _STANCE.search(sentence) is not None


_CLAUSES = re.compile(r"[,;:]|\s[-\u2013\u2014]\s|\b(?:so|because|but|since|while|though)\b", _I)


def clauses(sentence: str) -> list[str]:
    """The clauses of ``sentence``: cut at commas, semicolons, colons, dashes and "so",
    "because", "but", "since", "while", "though"."""
    return _CLAUSES.split(sentence)


_JOINED = re.compile(r"[;:]|\s[-\u2013\u2014]\s|\b(?:so|because|but|since|while|though)\b", _I)
"""Where a sentence joins a reason or a second statement to a first ("..., so ...")."""


_TOPIC = re.compile(r"^\s*\w+:\s+")
"""The topic a model's keyed item opens with ("style: short answers", ``answers.strings``):
its name for the item, not words the item claims were said."""


_OTHER_SUBJECT = re.compile(
    r"^\W*(?:(?i:he|she|they|(?:the|my|our|his|her|their|your)\s+(?!users?\b)[\w'-]+)"
    r"|(?:Mr|Mrs|Ms|Mx|Dr|Prof)\.?\s+[A-Z][\w'-]*|(?P<name>[A-Z][a-z][\w'-]*))"
    r"\s+(?i:(?:\w+ly|also|just|already|still)\s+)?(?P<verb>[\w']+)"
)
"""An item opening with someone other than its writer as the subject of a verb: a
pronoun of the third person, "the/my/his X" (not "the user", how a model names the
writer), a titled or a plain name ("Dr Osei recommended it", "Luis likes them")."""
_PAST: Final = frozenset(
    "said told gave made got took thought chose went sent put set found wrote bought brought felt kept"
    " left meant ran saw had did".split()
)
_THIRD_STANCE: Final = frozenset(
    "says thinks wants likes loves hates prefers recommends suggests needs insists advises".split()
)
"""A third person's stance, said of them: "she prefers", "the vet recommends"."""


def someone_elses(item: str, sentence: str) -> bool:
    """True when ``item`` states what someone other than ``sentence``'s writer did or
    holds: it opens with a third person (:data:`_OTHER_SUBJECT`; a plain name only when
    ``sentence`` writes it capitalised after its first word, so "Spicy food" is no name)
    followed by a past verb ("recommended", "said") or a verb of stance in the third
    person ("prefers", "recommends"). "Dr Osei recommended it" of "I don't want to switch
    brands, the clinic stocks the Hill's and Dr Osei recommended it." is the vet's
    recommendation: the writer's stance is about switching brands."""
    found = _OTHER_SUBJECT.match(item)
    if found is None:
        return False
    verb = found.group("verb").casefold()
    if not (verb in _PAST or verb in _THIRD_STANCE or (len(verb) > 4 and verb.endswith("ed"))):
        return False
    name = found.group("name")
    return name is None or re.search(rf"(?<=\w)\W+{re.escape(name)}\b", sentence) is not None


def prefers(sentence: str, item: str) -> bool:
    """True when ``sentence`` states its writer's taste or rule (:func:`has_stance`) about
    ``item``: the stance is in the part (cut where a reason or a second statement is
    joined: "so", "because", "but", ";") that holds most of the item's words. "My
    partner gets seasick, so no boat trips please." states "no boat trips", not
    "seasick" (a reason, not a taste). The sentence must hold every content word of the
    item (``grounding``'s rule 1, in plain word forms; a keyed item's topic aside:
    :data:`_TOPIC`): a preference stitched from two
    sentences, a stance of one and words of another ("I'll take the risk of the train
    change" of "I'll take the risk." and "I'll take the train instead of an Uber."), is
    stated by neither. An item whose subject is someone else ("Dr Osei recommended it":
    :func:`someone_elses`) is their stance or act, not the writer's."""
    if sentence.rstrip().endswith("?"):
        return False
    forms = item_forms(_TOPIC.sub("", item))
    if len(held(forms, read(sentence))[0]) < len(forms) or someone_elses(item, sentence):
        return False
    wanted = {stem(w) for w in words(item) if w not in STOP_WORDS}
    parts = _JOINED.split(sentence)
    counts = [len(wanted.intersection(stem(w) for w in words(c))) for c in parts]
    best = max(counts, default=0)
    return best > 0 and any(has_stance(c) for c, n in zip(parts, counts) if n == best)


_CHANGE_OF = re.compile(
    r"\b(?:chang(?:e|es|ed|ing)|switch(?:es|ed|ing)?|mov(?:e|es|ed|ing)|replac(?:e|es|ed|ing)|swap(?:s|ped|ping)?)"
    r"\s+(?P<thing>(?!(?:to|of|from|for)\b)[^,.;:]+?)\s+to\b",
    _I,
)
"""An item saying a thing was changed to something: "Change the train to the 2 pm train"."""
_OLD_SIDE = re.compile(
    r"\b(?:chang\w*|switch\w*|mov(?:e|es|ed|ing)|replac\w*|swap\w*|instead of|rather than|from)\b", _I
)
"""What a sentence says a thing was changed from: the words after a verb of change, after
"instead of" or "rather than", after "from" ("move your check-in to May 5", "the train
instead of an Uber": the Uber, not the train, was changed)."""
OLD_SIDE_WORDS: Final = 6
"""How far after such a word the thing changed may be named."""


def changes_unsaid(item: str, texts: Sequence[str]) -> bool:
    """True when ``item`` says a thing was changed to something ("Change the train to the
    2 pm train") and no clause of ``texts`` puts that thing (the last word of its name) on
    the side a change leaves: within :data:`OLD_SIDE_WORDS` words after a verb of change,
    "instead of", "rather than" or "from" (:data:`_OLD_SIDE`). "I'll take the train from
    Rossio instead of an Uber" changed the Uber for the train: it changed no train; "move
    your check-in to May 5" changed the check-in."""
    match = _CHANGE_OF.search(item)
    if match is None:
        return False
    thing = [stem(w) for w in words(match.group("thing")) if w not in STOP_WORDS]
    if not thing:
        return False
    for text in texts:
        for sentence in sentences(text):
            for clause in clauses(sentence):
                for old in _OLD_SIDE.finditer(clause):
                    after = [stem(w) for w in words(clause[old.end():])][:OLD_SIDE_WORDS]
                    if any(same_word(thing[-1], w) for w in after):
                        return False
    return True


_TITLED = re.compile(r"[^\W\d_][\w'\u2019-]*")
_POSSESSIVE_END = re.compile(r"['\u2019]s$")
_OF_A_NAME = re.compile(r"(?:ean|ian|ese|ish|esque)$", _I)
"""Endings of an adjective made of a name ("Shakespearean", "Victorian", "Japanese",
"Kafkaesque"): a kind of thing, which a taste may be of, not a name."""


def only_a_name(item: str, texts: Sequence[str]) -> bool:
    """True when ``item`` is only a name ("Sofia", "Ewan and Sofia", "Sofia's"): each of
    its words that is no function word opens with a capital, and ``texts`` (what was said)
    write it with a capital inside a sentence, where only a name has one, and never in
    lower case. A name says who or what, no taste or rule: no preference ("Sofia" of
    "Sofia's never done anything this big"; not "Vegetarian food", which the chat writes
    in lower case, nor "Shakespearean", an adjective of a name: :data:`_OF_A_NAME`)."""
    content = [_POSSESSIVE_END.sub("", t) for t in _TITLED.findall(item) if t.casefold() not in STOP_WORDS]
    if not content or not all(t[:1].isupper() and not _OF_A_NAME.search(t) for t in content):
        return False
    said = "\n".join(texts)
    for name in content:
        found = list(re.finditer(rf"\b{re.escape(name)}\b", said, _I))
        if any(not m.group()[:1].isupper() for m in found):
            return False  # "vegetarian" said in lower case: a word, not a name
        if not any(re.search(r"[\w,;:]\s+$", said[max(0, m.start() - 3):m.start()]) for m in found):
            return False  # capitalised only where a sentence opens
    return True


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


def has_content(item: str) -> bool:
    """True when ``item`` says something: a word of two letters or more (or a number) that
    is neither a function word, small talk nor a negation, outside a thanks and what it
    thanks for. "thx", "k", "same as always", "yes.", "Cheery thx for the chat!" say
    nothing."""
    return any(
        (len(w) >= 2 or w[:1].isdigit()) and w not in STOP_WORDS and w not in SMALL_TALK
        and w not in NEGATIONS
        for w in words(_THANKS.sub(" ", item))
    )


def is_question(item: str) -> bool:
    """True when ``item`` asks ("pizza tonight?", "Sintra sounds great. Which day?"): a
    question is never a fact, a decision, a task or a preference."""
    return item.rstrip().endswith("?")


def tells(sentence: str) -> bool:
    """True when ``sentence`` may tell what happened: it neither asks (:func:`is_question`)
    nor plans (:func:`status`): "Ordered the pads?" and "I'll order the pads" report nothing."""
    return not is_question(sentence) and status(sentence) != "plan"


_SPEAKER = re.compile(r"^\W*(?:user|assistant|system|tool|human|ai)\s*:", _I)


def copied_line(item: str, messages: Sequence[str]) -> bool:
    """True when ``item`` is a line of the transcript rather than a statement taken from
    it: it opens with a speaker's name ("user: and a veggie half"), or it is one whole
    message of two sentences or more, word for word ("Sintra sounds great. Which day?")."""
    if _SPEAKER.match(item):
        return True
    said = words(item)
    return len(list(sentences(item))) >= 2 and any(words(m) == said for m in messages)


def modifies(item: str, sentence: str) -> bool:
    """True when ``item`` is one word that ``sentence`` says only of the word after it: a
    word describing another ("quiet" of "I like quiet, open endings"), not a thing on its
    own ("I like quiet.", "the Shakespearean one", "tea, coffee and cake": a list ends in
    "and" or "or", adjectives in a row do not)."""
    said = [w for w in words(item) if w not in STOP_WORDS]
    if len(said) != 1:
        return False
    tokens = re.findall(r"[^\W_][\w'\u2019-]*|[,.;:!?]", sentence.casefold().replace("\u2019", "'"))
    seen = False
    for i, token in enumerate(tokens):
        if token != said[0]:
            continue
        seen = True
        rest = tokens[i + 1:]
        if rest[:1] == [","]:
            series = list(itertools.takewhile(lambda t: t not in ".;:!?", rest))
            if "and" in series or "or" in series:
                return False  # an item of a list
            rest = rest[1:]
        if not rest or rest[0] in ".,;:!?" or rest[0] in STOP_WORDS or rest[0] in ("one", "ones"):
            return False
    return seen


def by_sentence(sources: Sequence[str]) -> Evidence:
    """An Evidence whose sources are the sentences of ``sources``: its ``supporting``
    names the sentences an item was taken from."""
    return Evidence([s for text in sources for s in sentences(text)])
