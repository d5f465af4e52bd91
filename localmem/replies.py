"""How one message answers another, and what advice is bound to: pure readings of replies.

A checkpoint's item or a model's decision often rests on a sentence someone else answered:
"Someone said to pull money out of the 401(k)." "Please don't: ..."; "For dinner, try a
tasca in Mouraria." "Sure, the tasca it is."; "Here's a chorus: '... / ...'" "Yes! That's
much better." These functions read such answers (they never raise on any ``str``):

- :func:`refuses`: a reply that opens by refusing what it answers ("No,", "Please don't",
  "Probably not", "Not quite"); :func:`declines`: one turning it down anywhere ("...
  Not spending 300 bucks on new ones"); :func:`advises_against`: a sentence advising against what
  it names ("I wouldn't refinance"); :func:`ruled_out`: statements each advised against or
  refused by their answer;
- :func:`condition`: the case an instruction is bound to ("If it drops below 70, ...");
- :func:`assents`, :func:`agrees`: a reply saying yes to what it answers, and one that
  takes up a given item; :func:`suggests`: a sentence only suggesting ("try", "maybe");
  :func:`takes_up`: a reply agreeing to a suggestion or saying its action in the first
  person;
- :func:`corrects`: a reply refusing what it answers, whose words restate the item only
  to correct it ("Not quite. ... Save static stretching for after.");
- :func:`presents_piece`: a message giving a made piece of two lines or more (a verse);
  :func:`drafts`, :func:`without_drafts`, :func:`only_drafted`: the pieces of writing a chat
  quotes as such (a draft line, a speech quoted whole), a message without them, and an
  item standing only on them.

``localmem.progress`` and ``localmem.facts`` use them to judge a checkpoint's items and a
model's decisions; ``localmem.statements`` reads single sentences (it needs none of this).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

from . import changes
from .extract import sentences
from .grounding import SUPPORT_SHARE, Evidence, same_word
from .words import SMALL_TALK, STOP_WORDS, TIME_WORDS, is_number, stem, words

_I = re.IGNORECASE

_REFUSES = re.compile(
    r"^\W*(?:(?:please|honestly|well|oh|hmm|actually|definitely|absolutely)\W+)*"
    r"(?:no\b(?!\s+(?:problem|worries|rush|need|doubt)\b)|nope\b|nah\b|probably not\b|better not\b"
    r"|(?:don'?t|do not)(?=\s*(?:[.:;,!\u2013\u2014-]|$))"
    r"|(?:i(?:'d| would)(?: not|n't| avoid| skip)|i wouldn'?t)\b(?!\s+(?:worry|bother|mind)\b)"
    r"|not (?:a good idea|recommended|wise|quite|really|necessarily|exactly)\b"
    r"|(?:that's |that is |it's |it is )?(?:a )?bad idea\b)",
    _I,
)
"""A reply that opens by refusing what was just proposed: "Please don't: ...", "No, ...",
"Probably not.", "I wouldn't.", "Not quite." ("No problem", "Don't wait too long", "I
wouldn't worry" refuse nothing of it)."""
_AGAINST = re.compile(
    r"\b(?:is|are|'s|would be)(?: \w+ly)? (?:not|never) (?:a good idea|recommended|wise|worth it)\b"
    r"|\b(?:a )?bad idea\b|\b(?:i(?:'d| would)(?: not|n't| avoid| skip)|i wouldn'?t)\b(?!\s+(?:worry|bother|mind)\b)",
    _I,
)
"""A sentence that advises against what it names: "pulling money out is not a good idea",
"I wouldn't refinance"."""


def refuses(reply: str) -> bool:
    """True when ``reply`` (a message answering another) opens by refusing what it answers
    (:data:`_REFUSES`): what that message proposed is ruled out."""
    return _REFUSES.match(reply) is not None


_DECLINES = re.compile(
    r"^\W*(?:not\s+(?:\w+ing|going\s+to)\b"
    r"|(?:i|we)\s+(?:don['\u2019]?t|do\s+not|won['\u2019]?t|will\s+not)\s+(?:want|need)\b"
    r"|(?:i['\u2019]?m|i\s+am|we['\u2019]?re|we\s+are)\s+not\s+(?:\w+ing|going\s+to)\b"
    r"|(?:(?:i|we)\s+)?already\s+(?:have|got|own)\b)",
    _I,
)
"""A sentence that declines what was offered, wherever it is in the reply: "Not spending
300 bucks on new ones", "I don't want retries", "I'm not paying for a second ticket",
"Already have one"."""


def declines(reply: str) -> bool:
    """True when ``reply`` turns down what it answers: it refuses it (:func:`refuses`), or,
    not opening with a yes (:func:`assents`' opening), one of its sentences declines
    (:data:`_DECLINES`: "I'm using my dad's old ones, they're fine. Not spending 300 bucks
    on new ones")."""
    if refuses(reply):
        return True
    return _ASSENT.match(reply) is None and any(_DECLINES.match(s) for s in sentences(reply))


_RATHER_NOT = re.compile(r"^\W*(?:i|we)(?:'d| would) rather not\b", _I)
"""A reply preferring not to do what it names: "I'd rather not put a shell script in the image"."""


def turns_down(reply: str) -> bool:
    """True when ``reply`` declines what it answers (:func:`declines`) or opens preferring not
    to do a thing it names ("I'd rather not put a shell script in the image. Went with the
    healthcheck."): the last offer it answers is turned down. Such a reply names what it
    refuses, so it rules out no other part of the message (``refuses`` does not read it)."""
    return declines(reply) or _RATHER_NOT.match(reply) is not None


def turned_down(name: str, pairs: Sequence[tuple[str, str]]) -> bool:
    """Whether every message of ``pairs`` naming ``name`` (a file, a table, an identifier)
    is the assistant's, names it in its last sentence (what a reply answers) and the user's
    reply to it turns it down (:func:`turns_down`): "... Or you could add a wait-for-it.sh
    script." "I'd rather not put a shell script in the image."; "You could strip the keys
    with `...`." "No spaces, ...". An option turned down is no reference of the work; one
    the user or a tool names, or a reply takes up, is, and so is one said before the last
    offer a reply refuses ("Use `INSERT OR IGNORE` ... Want me to add that?" "Nah"). An
    alternative offered last is turned down too when the reply chooses what was offered
    before it (:func:`takes_the_other`: "Going with timeZone UTC")."""
    naming = [k for k, (_, text) in enumerate(pairs) if name in text]
    if not naming:
        return False
    for k in naming:
        role, text = pairs[k]
        said = changes.sentences(text)
        if role != "assistant" or name not in said[-1]:
            return False
        reply = next((text for role, text in pairs[k + 1:] if role == "user"), None)
        if reply is None or not (turns_down(reply) or takes_the_other(reply, said)):
            return False
    return True


_ALTERNATIVE = re.compile(
    r"^\W*(?:another (?:way|option|fix)|or\b|alternatively|you could also|instead\b|a second option)", _I
)
"""A sentence offering an alternative to what the message said before ("Another way is to
build the date from its parts with ...")."""
_GOES_WITH = re.compile(
    r"^\W*(?:(?:i|we)(?:'m|'re| am| are|'ll| will)?\s+)?"
    r"(?:going with|go with|went with|i'll use|we'll use|sticking with)"
    r"\s+(?P<what>[^,.;:!?]+)",
    _I,
)
"""A reply choosing one of the options it answers ("Going with timeZone UTC")."""


def takes_the_other(reply: str, offered: Sequence[str]) -> bool:
    """True when the last of ``offered`` (a message's sentences) offers an alternative
    ("Another way is to build the date with `new Date(y, m - 1, d)`") and ``reply`` opens by
    choosing ("Going with timeZone UTC, it's one line") what an earlier sentence offered
    (a content word of it) and not the alternative (none of its words): the alternative was
    not taken."""
    if len(offered) < 2 or _ALTERNATIVE.match(offered[-1]) is None:
        return False
    chosen = _GOES_WITH.match(reply)
    if chosen is None:
        return False
    taken = {stem(w) for w in words(chosen.group("what"), numbers=False) if w not in STOP_WORDS}
    other = {stem(w) for w in words(offered[-1])}
    earlier = {stem(w) for s in offered[:-1] for w in words(s)}
    return bool(taken & earlier) and not taken & other


def advises_against(sentence: str) -> bool:
    """True when ``sentence`` advises against what it names (:data:`_AGAINST`): "I
    wouldn't refinance", "Cashing out early is a bad idea"."""
    return _AGAINST.search(sentence) is not None


def ruled_out(support: Sequence[str], answers: Sequence[str | None]) -> bool:
    """True when every sentence of ``support`` (those that state an item; ``answers``:
    for each, the message answering its own, if any) is advised against there ("I
    wouldn't refinance": :func:`advises_against`) or refused by the answer
    ("Someone said to pull money out of the 401(k)." "Please don't: ...":
    :func:`refuses`): an action the chat ruled out is nothing to do, and no decision."""
    return bool(support) and all(
        advises_against(s) or (r is not None and refuses(r))
        for s, r in zip(support, answers)
    )


_CONDITION = re.compile(
    r"(?:^|[,;:]\s*|\b(?:and|then|but)\s+)\W*(?:if|should (?:it|he|she|they|you))\b([^,;:.?!]*)"
    r"|\b(?:unless|in case)\b([^,;:.?!]*)"
    r"|(?<!\bask )(?<!\bsee )(?<!\bcheck )(?<!\bknow )(?<!\bwonder )(?<!\bsure )\bif\b([^,;:.?!]*)",
    _I,
)
"""A condition an instruction is bound to: "If it drops below 70, ...", "..., unless the
fever goes down", "check again if it is still low" ("when" says when, not whether:
"reserve one when you book Osaka"; "ask if they take cards" asks whether)."""
CONDITIONS: Final = frozenset({"if", "unless", "case"})
"""Words that make an item conditional itself ("call his doctor if it keeps happening")."""


def condition(sentence: str) -> str | None:
    """The condition ``sentence`` binds what it says to ("it drops below 70 mg/dL" of "If
    it drops below 70 mg/dL, take 15 grams of fast sugar"), or None: advice for a case
    that may never come."""
    found = _CONDITION.search(sentence)
    case = next((g.strip() for g in found.groups() if g is not None), "") if found else ""
    return case or None


def corrects(item: str, owner: int, texts: Mapping[int, str], roles: Sequence[str] = ()) -> bool:
    """True when message ``owner`` (of ``texts``, by position; ``roles``: each one's role,
    when known) answers the message before it, by the other party, by refusing it
    (:func:`refuses`: "Not quite. ...") and that message says ``item`` (most of its
    words): what the answer says of the item it says to correct it ("And I should
    stretch before every run, right?" "Not quite. Before a run, a dynamic warm-up is
    better. Save static stretching for after."), never to state it."""
    asked, reply = texts.get(owner - 1), texts.get(owner)
    if asked is None or reply is None or not refuses(reply):
        return False
    if len(roles) > owner and roles[owner] == roles[owner - 1]:
        return False  # a message of the same party goes on; it answers nothing
    wanted = {stem(w) for w in words(item) if w not in STOP_WORDS}
    held = {stem(w) for w in words(asked)}
    return bool(wanted) and len(wanted & held) >= SUPPORT_SHARE * len(wanted)


_ASSENT = re.compile(
    r"^\W*(?:oh\W+)?(?:yes|yeah|yep|yup|ya|ok|okay|k|sure|great|perfect|good|nice|cool|fine|deal|agreed"
    r"|exactly|sounds (?:good|great|perfect)|that works|will do|got it|love it|i love it|i like it"
    r"|(?:that's|that is|it's|much) (?:much |so |a lot |way )?(?:better|perfect|great|lovely)"
    r"|let's do (?:it|that))\b",
    _I,
)
_OBJECTION = re.compile(r"\b(?:but|though|however|although|not quite|instead)\b|\?", _I)


def assents(reply: str) -> bool:
    """True when ``reply`` opens by saying yes to what it answers ("Yes! That's much
    better.", "OK.", "will do") and raises nothing against it ("but", "though", a
    question): what was offered is accepted."""
    return _ASSENT.match(reply) is not None and _OBJECTION.search(reply) is None


def agrees(reply: str, item: str) -> bool:
    """True when ``reply`` takes up ``item``, offered in the message it answers: it assents
    (:func:`assents`) with nothing else in its first sentence ("OK.", "Yes, please do
    it.") or names the item there ("Sure, the tasca it is"); "Great, we booked the
    flights too" answers with something else."""
    if _ASSENT.match(reply) is None:
        return False
    first = next(iter(sentences(reply)), reply)
    if _OBJECTION.search(first):
        return False
    rest = [w for w in words(_ASSENT.sub("", first)) if w not in STOP_WORDS and w not in SMALL_TALK]
    wanted = {stem(w) for w in words(item) if w not in STOP_WORDS and w not in TIME_WORDS and not is_number(w)}
    return not rest or any(stem(w) in wanted for w in rest)  # a day or a number names no thing


_SUGGESTS = re.compile(
    r"^\W*(?:[^,.;:!?]{1,30},\s*)?(?:(?:then|so|also|and)\s+)?(?:try|consider|maybe|perhaps|how about|what about|why not)\b"
    r"|\byou (?:could|might|may) (?:try|consider|want to)\b",
    _I,
)


def suggests(sentence: str) -> bool:
    """True when ``sentence`` only suggests something to its reader ("For dinner, try a
    tasca in Mouraria", "Maybe a mesh repeater", "You could try Sintra"): theirs to take
    up or not, unlike an instruction ("Set up an automatic transfer on payday")."""
    return _SUGGESTS.search(sentence) is not None


_FIRST_PERSON = re.compile(r"^\W*(?:\w+,\s*)?(?:i|we)\b", _I)


def takes_up(reply: str, item: str) -> bool:
    """True when ``reply`` takes up ``item`` (something suggested in the message it
    answers): it agrees to it (:func:`agrees`), or one of its sentences says, in the
    first person, the item's action with another of its words ("Try setting the band to
    a fixed channel." "I set it to channel 44")."""
    if agrees(reply, item):
        return True
    said = [stem(w) for w in words(_SUGGESTS.sub(" ", item)) if w not in STOP_WORDS and not is_number(w)]
    if len(said) < 2:
        return False
    for sentence in sentences(reply):
        if not _FIRST_PERSON.match(sentence):
            continue
        found = {stem(w) for w in words(sentence)}
        if any(same_word(said[0], f) for f in found) and any(
            same_word(w, f) for w in said[1:] for f in found
        ):
            return True
    return False


_PIECE = re.compile(
    r"(?:^|[\s:(])['\"\u201c\u2018][^\n]*?\S / \S[^\n]*?['\"\u201d\u2019](?=[\s.,;:!?)]|$)"
    r"|(?:^|\n)(?![ \t]*(?:[-*\u2022]|\d+[.)]))[^\n]{3,}\n(?![ \t]*(?:[-*\u2022]|\d+[.)]))[^\n]{3,}(?:\n|$)",
)
"""A made text of two lines or more: quoted with its line breaks written " / " ("'The river
keeps your name / I carry it like rain'"), or lines one under another that are no list's
items (tips in "1. ..." or "- ..." are advice, not the thing)."""


def presents_piece(text: str) -> bool:
    """True when ``text`` gives a made piece of two lines or more (:data:`_PIECE`: a
    verse, a chorus, a stanza), not one line of it ("Maybe: 'Under the oak ...'")."""
    return _PIECE.search(text) is not None


_DRAFT = re.compile(
    r"\b(?:lines?|draft|verse|chorus|stanza|opening|ending|closing|intro|toast|speech|poem|lyrics?"
    r"|caption|slogan|tagline|joke|punchline|vows?)\b[^:\n]{0,20}:\s*"
    r"['\"\u201c\u2018].+?['\"\u201d\u2019](?=\s*$|[\s.,;:!?)])",
    _I,
)
"""A piece of writing quoted as such: "Here's my opening line: 'For those who don't know
me, ...'" (the quote's own apostrophes, "don't", close nothing)."""


_QUOTED_PARAGRAPH = re.compile(
    r"(?:^|(?<=\n))[ \t]*[\"\u201c](?=[^\n]*\w[.!?][\"\u201d]?\s+\w)[^\n]{40,}[\"\u201d][ \t]*(?=\n|$)"
)
"""A paragraph that is one quotation of several sentences ('"Right, can I have everyone's
attention. ... Raise your glasses."' under "Fixed:"): a text written to be said or sent,
whatever introduces it."""
_QUOTE = re.compile(r"[\"\u201c]([^\"\u201c\u201d\n]{3,200})[\"\u201d]")
"""A short quotation inside a sentence ('finish on "raise your glasses"')."""


def drafts(texts: Sequence[str], roles: Sequence[str] = ()) -> list[str]:
    """The pieces of writing ``texts`` quote as such, case-folded: a piece labelled as one
    (:data:`_DRAFT`: "Here's my opening line: '...'"), and a paragraph that is one quotation
    of several sentences (:data:`_QUOTED_PARAGRAPH`) in an assistant's message (``roles``:
    each text's role): a text the assistant wrote for the user to say or send. A paragraph
    the user quotes is someone's text (the landlord's email, an error): what it asks may be
    the user's to do."""
    labelled = [m.group(0).casefold() for text in texts for m in _DRAFT.finditer(text)]
    return labelled + [
        m.group(0).casefold()
        for k, text in enumerate(texts) if k < len(roles) and roles[k] == "assistant"
        for m in _QUOTED_PARAGRAPH.finditer(text)
    ]


def without_drafts(text: str, pieces: Sequence[str] | None = None) -> str:
    """``text`` without the pieces of writing it quotes as such (:data:`_DRAFT`: a draft
    line, a verse, a toast's opening): their words are the piece's, a joke or a line, not
    what the message states. With ``pieces`` (:func:`drafts` of the chat), also without a
    paragraph that is one of them (a speech quoted whole) and a short quotation of a line of
    one of them ('finish on "raise your glasses"' quotes the speech)."""
    text = _DRAFT.sub(" ", text)
    if pieces is None:
        return text

    def of_a_piece(found: re.Match[str]) -> str:
        line = found.group(1).strip().casefold()
        return " " if any(line in piece for piece in pieces) else found.group(0)

    def a_piece(found: re.Match[str]) -> str:
        return " " if found.group(0).casefold() in pieces else found.group(0)

    return _QUOTE.sub(of_a_piece, _QUOTED_PARAGRAPH.sub(a_piece, text))


def only_drafted(item: str, texts: Sequence[str], whole_pieces: bool = True, roles: Sequence[str] = ()) -> bool:
    """Whether ``item`` stands on ``texts`` only through the pieces of writing they quote
    (:func:`without_drafts`): the words are the piece's, a joke or a line to be said, not
    what the chat states. With ``whole_pieces``, every piece of the chat counts
    (:func:`drafts`, by the texts' ``roles``: a speech the assistant quoted whole, and a
    later quotation of one of its lines): a line of a speech is never a step; without, only
    the pieces labelled as such ("Here's my opening line: '...'")."""
    pieces = drafts(texts, roles) if whole_pieces else None
    plain = [without_drafts(text, pieces) for text in texts]
    if plain == list(texts):
        return False
    return Evidence(plain, conversation=plain).check(item) is not None
