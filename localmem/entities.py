"""Entities (a summary's facts): which names a model lists are things worth remembering.

A model asked for a span's entities lists names ("Harbor Credit Union", "Fritz!Box 7590",
"carprofen") and also times ("Saturday morning"), amounts ("3 minutes"), actions ("call
radiology"), body parts and relations ("knees", "sister") and words said in passing
("water", "exes"). :func:`is_entity` keeps the names: words standing together in one
message, said as a name, and a name, a code, a drug, an illness or a particular thing the
span points at (in everyday words, one it makes someone's, counts or names: "my car repair
savings", not "the kitchen"; the common vocabulary is cl100k's whole words,
:func:`common_word`). :func:`bare_name` tells an item that only names a thing from one that
states something of it ("car loan" decides nothing; "shrimp allergy" is no key fact), and
:func:`names_things` a longer list or compound of nouns ("bleach and limescale spray"), and
:func:`identifies` whether a checkpoint's identifier names its thing by a code, a number or a
name ("OPS-2291", not "tenancy agreement").
Pure functions; they never raise on any ``str``. The facts' other fields are
``localmem.facts``'s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .tokens import Tokenizer
from .verbs import names_action
from .words import (
    BODY_WORDS,
    RELATION_WORDS,
    SENTENCE_END,
    STOP_WORDS,
    SYMPTOM_WORDS,
    TIME_WORDS,
    WEEKDAY_WORDS,
    WISH,
    is_condition,
    is_drug,
    stem,
    value,
    words,
)


def is_entity(item: str, said: Sequence[tuple[str, str]]) -> bool:
    """Whether ``item``, an entity a model named, is one of the span ``said`` (its
    (role, text) messages): a name whose words stand together, in order, in one message
    and hold no preposition nor clause ("day trip to Lake Como" is a phrase about a
    thing; "basil has started flowering", with a finite verb, says something of one); no time ("Saturday morning", "rent due fri": when, not what); no amount
    ("3 minutes"); no command line ("pytest -n 4": how a program is run); a word it writes as a name written so in the span ("Bank" of "my
    bank, Harbor Credit Union" is not); and a thing worth remembering
    (:func:`_worth_naming`: "the router", not "water", "knees", "sister" or "stretch")."""
    return (_is_name(item, said) and not _a_time(item) and not _an_amount(item)
            and _OPTIONS.search(item) is None
            and _named_so(item, said) and _worth_naming(item, said))


_DETERMINERS = frozenset("the a an my our your his her their its this that these those".split())


_FINITE_VERBS = frozenset("am is are was were has have had do does did can could will would should must".split())
"""Finite verbs that make a phrase a clause, whatever it is about: "basil has started
flowering" and "Sungolds are very sweet" say something of a thing; they name none."""


_NOT_IN_A_NAME = frozenset(
    "from to for in on at with about by into onto after before until till via per off if when"
    " whether that because so then".split()
)
"""Words a name does not hold: a preposition or a clause's word makes an item a phrase about
a thing ("day trip to Lake Como", "pay off the credit card"), not the thing."""


_PARTICULAR = r"(?:the|my|our|your|his|her|their|its|this|that|these|those)"
"""Determiners that point at one particular thing ("the router", "my savings"), where "a"
or none names a kind ("a rest week", "water")."""


_OWNED = r"(?:my|our|your|his|her|their|(?!(?:it|that|he|she|what|there|here|who|let)['\u2019]s\b)[^\W\d_][\w-]*['\u2019]s)"
"""Words that tie a thing to someone: a possessive determiner or a possessive noun ("my car
repair savings", "her doctor", "the brother's letter"); "it's", "that's", "let's" say "is"
or "us", not whose."""


_VOCABULARY = Tokenizer()
"""The common vocabulary (:func:`common_word`): cl100k's, shipped with localmem."""


def common_word(word: str) -> bool:
    """Whether ``word`` (lower case) is a word of the common vocabulary: cl100k, a tokenizer
    learnt from a large body of everyday text, holds it whole after a space (" kitchen",
    " bread", " router"), where a rarer word is cut in pieces (" glipizide", " carprofen",
    " limescale", " grandmother's"). False for every word when the encoding cannot load:
    without it no word is known to be common. One lookup a word; it is asked only when a
    summary's facts are judged, never in ``add_message`` nor ``build_context``."""
    return _VOCABULARY.exact and _VOCABULARY.count(f" {word}") == 1


def _forms(word: str) -> str:
    """A pattern of ``word``'s plain forms: its stem and the letters that follow ("repairs"
    and "repair's" for "repair"; a stem made "-y" from "-ies" also as "-ie": "berries" for
    "berry")."""
    base = stem(word)
    if base.endswith("y"):
        return rf"{re.escape(base[:-1])}(?:y|ie)[\w'\u2019]*"
    return rf"{re.escape(base)}[\w'\u2019]*"


_NOT_A_THING = BODY_WORDS | RELATION_WORDS | SYMPTOM_WORDS


_CODE_MARK = re.compile(r"[A-Z\d_.!()/+&#@]")
"""What a plain word never holds: a capital, a digit, a code's punctuation."""


def _worth_naming(item: str, said: Sequence[tuple[str, str]]) -> bool:
    """Whether ``item``, an entity the model named, is a thing worth remembering: a name,
    a code, a drug, an illness (anything with a capital, a digit or a code's mark:
    "Fritz!Box 7590", "visibility_timeout"; or :func:`words.is_drug`,
    :func:`words.is_condition`: "urinary tract infection"), or, written in
    common words, a particular thing of the span. Never a body part, a person's tie to
    someone, a symptom or an allergy ("knees", "sister", "GF", "hives", "shrimp allergy":
    what a fact says of someone, not a thing), nor an action ("call radiology",
    "stretch": ``verbs.names_action``). Common words name a particular thing when a
    message points at it with "the", "my", "this"... (up to two words of its own between:
    "my car repair savings"), in a sentence that is no wish ("Enjoy the pizza!" names
    nothing of the chat: ``words.WISH``) or when a user's message is that thing alone (an answer:
    "pepperoni"); "water", "a rest week", "exes" name only a kind of thing. Everyday words
    (each of the common vocabulary, :func:`common_word`: "the kitchen", "the bins", "the
    bread"), and words the chat writes after "a"/"an" ("a whiteboard on the fridge": one of
    a kind), need more than "the": a sentence that makes the thing someone's, counts it or
    names it (:func:`_particular`)."""
    found = [w for w in words(item) if w not in _DETERMINERS]
    if not found or found[-1] in _NOT_A_THING or stem(found[-1]).startswith("allerg"):
        return False
    if _CODE_MARK.search(item) or any(is_drug(w) or is_condition(w) for w in found):
        return True
    texts = [text for _, text in said]
    if not BODY_WORDS.isdisjoint(found) or names_action(item, texts):
        return False  # "back hurts", "leg raised": what a body does; "call radiology"
    thing = r"\s+".join(map(_forms, found))
    stated = [part for text in texts for part in SENTENCE_END.split(text) if WISH.search(part) is None]
    one_of_a_kind = re.compile(rf"\ban?\s+(?:[a-z][\w'-]*\s+)?{thing}\b", re.IGNORECASE)
    if all(map(common_word, found)) or any(one_of_a_kind.search(part) for part in stated):
        # everyday words, or a thing the chat brings in as one of a kind ("we've got a
        # whiteboard on the fridge"): "the" then points back at it, and makes it no name
        return any(_particular(thing, part) for part in stated)
    pointed = re.compile(rf"\b{_PARTICULAR}\s+(?:[a-z][\w'-]*\s+){{0,2}}?{thing}\b", re.IGNORECASE)
    alone = re.compile(rf"\W*{thing}\W*", re.IGNORECASE)
    return any(pointed.search(part) for part in stated) or any(
        role == "user" and alone.fullmatch(text) for role, text in said
    )


_AMOUNT = (r"\d[\d,.]*%?(?:\s+(?:a|an|per|each))?(?:\s+(?!(?:"
           + "|".join(map(re.escape, sorted(STOP_WORDS))) + r")\b)[a-z]+)?")
"""A number and its unit, if any ("2,400", "3 kg", "500 a month"); never a word of no unit
("week 1 you on the bathroom": the number is the week's)."""


def _particular(thing: str, sentence: str) -> bool:
    """Whether ``sentence`` makes ``thing`` (a pattern of everyday words: :func:`common_word`)
    one particular thing rather than a kind of thing: someone's (:data:`_OWNED`: "my car
    repair savings", "her doctor"), given an amount ("I owe 2,400 on a credit card", "a car
    loan of 9,000", "500 a month into the emergency fund"), or said to be a named thing or a
    model ("The router is a Fritz!Box 7590"). "The kitchen", "the bins", "the bread" point
    at a thing of the chat, but one every chat has: what a memory of entities would list
    beside the names is the named, owned, counted things."""
    owned = rf"\b{_OWNED}\s+(?:[a-z][\w'-]*\s+){{0,2}}?{thing}\b"
    counted = (rf"(?<![\w:])\b{_AMOUNT}\s+(?:on|in|into|to|for)\s+(?:{_PARTICULAR}\s+|an?\s+)?{thing}\b"
               rf"|\b{thing}\s+of\s+\d")
    named = rf"\b{thing}\s+(?:is|was|are|were)\s+(?:an?\s+|the\s+)?(?-i:[A-Z\d])"
    return re.search(f"{owned}|{counted}|{named}", sentence, re.IGNORECASE) is not None


def _a_time(item: str) -> bool:
    """Whether ``item`` says when rather than what: its words (numbers, determiners aside)
    are all time words ("Saturday morning", "June 3"), or one is a weekday ("rent due fri")."""
    found = [w for w in words(item) if w not in _DETERMINERS and not w[:1].isdigit()]
    return bool(found) and (all(w in TIME_WORDS for w in found) or not WEEKDAY_WORDS.isdisjoint(found))


def _an_amount(item: str) -> bool:
    """Whether ``item`` is an amount rather than a thing: a number and, in lower case, at
    most two words of what it counts ("3 minutes", "9 weeks", "400 words", "two refills");
    "Route 66", "3 Musketeers" and "Windows 11" name things."""
    tokens = [t.strip(".,;:!?") for t in item.split()]
    tokens = [t for t in tokens if t and t.casefold() not in _DETERMINERS]
    if not 2 <= len(tokens) <= 3:
        return False
    return value(tokens[0].casefold()) is not None and all(t == t.lower() for t in tokens[1:])


_UNITS = frozenset(
    """
    second seconds sec secs minute minutes min mins hour hours hr hrs day days week weeks month months
    year years mg g kg gram grams kilo kilos ml l litre litres liter liters km kilometre kilometres
    kilometer kilometers mile miles metre metres meter meters percent
    """.split()
)
"""Units a number is measured in, not things it counts ("50 minutes", "75 mg"; "24 species" counts)."""


def a_measure(item: str) -> bool:
    """Whether ``item`` is only a measure: an amount (:func:`_an_amount`) whose words after
    the number are units ("50 minutes", "75 mg", "two hours"): a value without what it is
    the value of (what lasts 50 minutes, what weighs 75 mg); "24 species", "4 avocados" say
    what they count, "3.8% on savings" what it is of."""
    tokens = [t.strip(".,;:!?").casefold() for t in item.split()]
    tokens = [t for t in tokens if t and t not in _DETERMINERS]
    return _an_amount(item) and all(t in _UNITS for t in tokens[1:])


_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+|\n)\W*$")


def _named_so(item: str, said: Sequence[tuple[str, str]]) -> bool:
    """Whether each word ``item`` writes with a capital, as a name, is so written in the
    span where a capital is not owed to a sentence's start, or never in lower case by a
    writer who uses capitals: "Bank" of "My bank, Harbor Credit Union" is a word made a
    name; "Luigi's" of "luigi's?" (a message all in lower case) may be a name."""
    for word in re.findall(r"\b[A-Z][a-z]+\b", item):
        lower = word.casefold()
        named = lowered = False
        for _, text in said:
            for found in re.finditer(rf"\b{re.escape(word)}\b", text, re.IGNORECASE):
                if found.group(0) == word and not _SENTENCE_START.search(text[: found.start()]):
                    named = True
                elif found.group(0) == lower and text != text.casefold():
                    lowered = True
        if lowered and not named:
            return False
    return True


_CODE = re.compile(r"\d|\w[_./\\:#@!+&]\w|[A-Z]\w*[A-Z]|^--?[A-Za-z]")
"""What marks a word as a code: a digit, a code's mark between two of its characters
("test_cache", "Fritz!Box"), two capitals ("OPS", "iPhone" is not one, "LaserJet" is) or an
option's dash ("-v", "--force")."""


def identifies(name: str, texts: Sequence[str]) -> bool:
    """Whether ``name``, a reference a model lists as an identifier, names one particular
    thing by a code, a number or a name (a checkpoint's ``references.identifiers``): a word
    of it is a code (:data:`_CODE`: "OPS-2291", "VIN 3KPF24AD0LE193725", "lpstat -v"), a
    compound a hyphen joins with a part outside the common vocabulary ("sane-airscan",
    "avahi-browse": :func:`common_word`), or a name the chat (``texts``) writes with a
    capital where no sentence's start owes it ("the Granvia booking"). A word with "'s"
    says whose the thing is, not which ("Josh's dated photos": photos); a common noun
    phrase ("tenancy agreement", "the check-in report") identifies nothing, however rare
    its words."""
    for word in name.split():
        word = word.strip("\"'()[]{},;")
        if not word or _POSSESSIVE.search(word):
            continue
        if _CODE.search(word):
            return True
        parts = word.casefold().split("-")
        if len(parts) > 1 and all(parts) and not all(map(common_word, parts)):
            return True
        if word[:1].isupper() and _written_as_a_name(word, texts):
            return True
    return False


def _written_as_a_name(word: str, texts: Sequence[str]) -> bool:
    """Whether one of ``texts`` writes ``word`` (capitalised) so where a capital is not owed
    to a sentence's start."""
    return any(
        found.group(0) == word and not _SENTENCE_START.search(text[: found.start()])
        for text in texts for found in re.finditer(rf"\b{re.escape(word)}\b", text)
    )


_COMPOUND = re.compile(r"[^\W\d_][\w'\u2019]*(?:-[^\W_][\w'\u2019]*)*")
"""A word with the words a hyphen joins to it: "Wi-Fi" is one."""


_OPTIONS = re.compile(r"(?:^|\s)--?[A-Za-z][\w-]*(?:[= ]\d[\w.]*)?(?=\s|$)")
"""A command line's option with its value, if a number ("-n 4", "--workers=8", "-v")."""
_POSSESSIVE = re.compile(r"\w['\u2019]s$")


def bare_name(item: str, messages: Sequence[str] = ()) -> bool:
    """Whether ``item`` only names a thing, stating nothing of it: two words at most that
    carry content (a hyphen's words one: "Wi-Fi"), three when the ``messages`` write them
    as one noun phrase, right after a determiner the item leaves out ("the Wi-Fi setup
    wizard"), or a phrase whose thing is "one" ("the new Wes Anderson one": named
    elsewhere); no number or value, no verb, no preposition ("Emergency fund", "car loan",
    "WPS button"; not "rent due fri", "Fritz!Box 7590", "3.8% on savings", "The effect
    runs again, forever"). A command line is its program's name ("pytest -n 4": its options
    and their values say how it is run, nothing of it), and a possessive opens a noun phrase
    as a determiner does ("pytest's tmp_path fixture")."""
    item = _OPTIONS.sub(" ", item)
    said = words(item)
    content = [w for w in _COMPOUND.findall(item.casefold()) if w not in STOP_WORDS]
    short = len(content) <= 2 or (
        len(content) == 3 and (_POSSESSIVE.search(content[0]) is not None or _after_a_determiner(item, messages))
    )
    return (
        not any(c.isdigit() for c in item)
        and (short or said[-1:] in (["one"], ["ones"]))
        # "The fix covers both" ends a clause; the last word is a compound's ("dynamic warm-up")
        and bool(content) and _COMPOUND.findall(item.casefold())[-1] not in STOP_WORDS
        and _NOT_IN_A_NAME.isdisjoint(said)
        and not names_action(item)
    )


_RELATIONS = frozenset("near due beside behind across between against like than versus vs".split())
"""Words that relate a thing to another ("Hotel Aurora near Milano Centrale", "rent due
fri") and are no function words: a phrase holding one states something."""


def names_things(item: str) -> bool:
    """Whether ``item`` only names things, stating nothing of them, at any length: three
    words of content or more with nothing but "and"/"or" between them, and no number or
    digit (a model's code: "Brother HL-L2350DW"), no
    time, no relation (:data:`_RELATIONS`) but between everyday things (:func:`_everyday`:
    "park near place", cut from "the park near my place") and no verb form ("-ing", "-ed"): "bathroom job
    rotation", "bleach and limescale spray", "Sungold cherry tomatoes" name things; "rent
    due fri", "Hotel Aurora near Milano Centrale", "four people in the house", "walking
    after dinner now" state something. A
    plural before another word is a subject before its verb ("wet leaves invite mildew",
    "grey clouds gather slow": a compound's plural is its last word, "cherry tomatoes").
    Without a parser, a verb with no ending after a singular reads as a noun."""
    found = words(item)
    return (
        sum(w not in STOP_WORDS for w in found) >= 3
        and all(w not in STOP_WORDS or w in ("and", "or") for w in found)
        and not any(c.isdigit() for c in item) and not any(value(w) is not None for w in found)
        and not any(w.endswith(("ing", "ed")) for w in found)
        and not _a_subject(found)
        and TIME_WORDS.isdisjoint(found)
        and (_RELATIONS.isdisjoint(found) or _everyday(item))
    )


def _everyday(item: str) -> bool:
    """Whether ``item`` is written in everyday words only: no capital nor code mark, every
    word of the common vocabulary (:func:`common_word`). A relation between such things
    ("park near place") places one kind of thing by another, with no name to find it by."""
    return _CODE_MARK.search(item) is None and all(map(common_word, words(item)))


def _a_subject(found: Sequence[str]) -> bool:
    """Whether a plural word (an "-s" that is no "-ss", "-us", "-is" nor possessive) stands
    before another word of ``found`` other than "and"/"or": a subject, its verb next."""
    return any(
        w.endswith("s") and not w.endswith(("ss", "us", "is", "'s")) and nxt not in ("and", "or")
        for w, nxt in zip(found, found[1:])
    )


def _after_a_determiner(item: str, messages: Sequence[str]) -> bool:
    """Whether ``item``, holding no determiner itself, is written in one of ``messages``
    right after one: a noun phrase cut from a sentence ("the Wi-Fi setup wizard")."""
    said = words(item)
    if not said or said[0] in _DETERMINERS:
        return False
    n = len(said)
    for text in messages:
        held = words(text)
        if any(held[i:i + n] == said and held[i - 1] in _DETERMINERS for i in range(1, len(held) - n + 1)):
            return True
    return False


def _is_name(item: str, said: Sequence[tuple[str, str]]) -> bool:
    found = words(item)
    while found and found[0] in _DETERMINERS:
        found = found[1:]
    if not found or not any(c.isalpha() for c in item) or _NOT_IN_A_NAME.intersection(found):
        return False
    if _FINITE_VERBS.intersection(found) or any(w.endswith("n't") for w in found):
        return False  # a clause ("basil has started flowering"): what is said of a thing
    n = len(found)
    for _, text in said:
        held = words(text)
        if any(held[i:i + n] == found for i in range(len(held) - n + 1)):
            return True
    return False
