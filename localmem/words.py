"""One vocabulary for text: what a word is, which words carry no topic, and a word's stem.

Every place that compares words (extraction and grounding of a model's items, search and
ranking, summary validation and the salient facts a summary keeps, auto pins and the
updates that supersede them) reads them here, so "the same word" means the same thing
everywhere. Pure; nothing here raises on any ``str``.

- A **word** (:data:`WORD`) is a letter followed by letters, digits and apostrophes
  ("can't", "warfarin", "b12"), or a number with its separators ("10:30", "1,000",
  "2.5"). Hyphens, underscores and other punctuation separate words ("gluten-free" is
  "gluten" and "free"), as a regular expression's ``\\b`` and the full-text index do.
  :func:`words` reads them case-folded, a typographic apostrophe as a straight one.
- An **index token** (:data:`TOKEN`) is what SQLite FTS5's ``unicode61`` tokenizer keeps:
  runs of letters and digits, apostrophes separating ("don't" is "don" and "t"). Only a
  query written for that index is cut this way; its stop words hold the fragments.
- A **stop word** (:data:`STOP_WORDS`) says nothing about a topic: English function words
  (with the fragments the index cuts from contractions) and the small talk of a chat
  ("please", "thanks", "remember", "want").
- A **stem** (:func:`stem`) is a word without one plain suffix: two words are the same word
  when their stems are equal, and a stem is a prefix of the word's other forms.
- A **content form** (:func:`content_forms`) is the stem of a word of three letters or
  more that is no stop word, small talk or word of change (:data:`CHANGE_WORDS`: "actually",
  "moved", "more"), a unit's spellings one (:func:`unit`: "ppl" is "people"): what a value,
  a status or an ended thing of a conversation is said of (``revisions``, ``statuses``).
"""

from __future__ import annotations

import functools
import re
from typing import Final

WORD: Final = re.compile(r"[^\W\d_][\w'\u2019]*|\d+(?:[.,:]\d+)*")
"""A word: a letter, then letters, digits and apostrophes; or a number ("10:30", "2.5")."""
TOKEN: Final = re.compile(r"[^\W_]+")
"""An index token: a run of letters and digits, as FTS5's ``unicode61`` cuts text."""
# Written to begin with a character class, so that the regex engine skips ahead to the
# next candidate character (a leading alternation is tried at every position): the same
# ends as ``[.!?]+["')\]]*(?=\s)|\n``, in half the time.
SENTENCE_END: Final = re.compile(r"[.!?\n](?:(?<=\n)|[.!?]*[\"')\]]*(?=\s))")
"""A sentence's end: a run of ".!?" and closing quotes or brackets before a space, or a
line break ("3.5" and "v1.2" hold none: no space follows their dot)."""

SPEAKER_LABEL: Final = re.compile(r"^[A-Z][\w .'-]{0,30}: ")
"""The speaker's label a transcript's turn starts with: "Melanie: I adopted ..."."""

_FUNCTION_WORDS: Final = """
    a about above after again against ago all also always am an and another any anymore are
    aren as
    at be because been before being below between both but by can can't cannot could couldn
    d did didn do does doesn doing don don't down during each either else even ever every few
    for from further had hadn has hasn have haven having he he's her here hers herself him
    himself his how i i'll i'm if in instead into is isn it it's its itself just let let's ll
    m many me might mine more most much must mustn my myself neither never no nor not now of
    off on once only or other ought our ours ourselves out over own rather re s same shall shan
    she she's should shouldn so some still such t than that that's the their theirs them
    themselves then there these they they're this those though through to too under until up
    upon us ve very was wasn we we'll were weren what when where which while who whom whose why
    will with within without won won't would wouldn y yet you you're your yours yourself
    yourselves
"""
_CHAT_WORDS: Final = """
    know like made make makes need needs okay please prefer really remember
    remind said say says sure tell thank thanks use using want wants well yes
"""
STOP_WORDS: Final = frozenset((_FUNCTION_WORDS + _CHAT_WORDS).split())
"""Words that carry no topic: function words and a chat's small talk (lower case)."""
FILLERS: Final = frozenset(
    "lol lmao haha hahaha hehe omg ugh tbh btw honestly literally basically anyway anyways".split()
)
"""Interjections and asides that change no statement ("..., honestly", "... lol"): two
pins that differ by these alone say the same thing (``autopins.statement_key``)."""

SMALL_TALK: Final = frozenset(
    """
    thx thanks thank ty np lol cheers cheery ok okay yes yeah yep cool nice hi hey bye great good
    sure done fine deal
    """.split()
)
"""Words of a chat's small talk: an item made of them names nothing ("cheery thx", "Done")."""

WISH: Final = re.compile(
    r"^\W*(?:enjoy|good luck|best of luck|have (?:fun|a (?:great|good|nice|lovely|wonderful))"
    r"|(?:treat|reward) yourself|congrat\w*|well done|fingers crossed|hope you)\b",
    re.IGNORECASE,
)
"""A wish or a pleasantry one says in closing ("Enjoy the pizza!", "reward yourself with
a tomato and basil salad", "Good luck on Thursday"): what the speaker wishes, no fact, and
what it names ("the pizza") is not pointed at as a thing of the chat."""

NUMBER_WORDS: Final = {
    w: str(n)
    for n, w in enumerate(
        "zero _ two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
        " sixteen seventeen eighteen nineteen twenty".split()
    )
    if w != "_"
} | {"thirty": "30", "forty": "40", "fifty": "50", "hundred": "100"}
"""Numbers written as words, with their digits ("three nights" is "3 nights"); not "one",
which is as often a pronoun ("the Shakespearean one", "reserve one")."""

_WEEKDAY_NAMES: Final = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTH_NAMES: Final = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
)
# The names are written once here, for every list below; ``periods`` keeps its own tuples of the
# full names (a leaf under 9-deep chains: importing this one would make them 10).

WEEKDAY_WORDS: Final = frozenset((*_WEEKDAY_NAMES, *"tue tues thu thur thurs fri".split()))
"""The days of the week, as written in a chat ("rent due fri"; not "sat", "sun", "wed",
"mon", which are as often other words)."""
WEEKDAYS: Final = "|".join(_WEEKDAY_NAMES)
MONTHS: Final = "|".join(_MONTH_NAMES)
"""The days and the months as patterns' alternatives ("by friday", "in sept")."""
TIME_WORDS: Final = WEEKDAY_WORDS | frozenset(_MONTH_NAMES) | frozenset(
    """
    morning afternoon evening night tonight tomorrow today yesterday weekend noon midnight tmrw
    """.split()
)
"""Words that say when: days, months, parts of the day."""

DRUG_SUFFIXES: Final = (
    "cillin", "mycin", "cycline", "pril", "olol", "statin", "prazole", "sartan", "farin",
    "profen", "azepam", "oxetine", "triptan", "dipine", "formin", "xaban", "parin", "dronate",
    "tidine", "lukast",
)
"""The endings of drug names' families (amoxicillin, lisinopril, atorvastatin, warfarin...)."""
DRUG_WORDS: Final = frozenset(
    """
    aspirin acetaminophen paracetamol tylenol advil motrin aleve insulin naproxen lithium
    prednisone levothyroxine antibiotic antibiotics antihistamine antihistamines inhaler
    inhalers ventolin benadryl
    """.split()
)
"""Drugs and medicines named by a word no suffix of :data:`DRUG_SUFFIXES` tells."""

BODY_WORDS: Final = frozenset(
    """
    head face eye eyes ear ears nose mouth tooth teeth throat neck shoulder shoulders arm arms
    elbow elbows wrist wrists hand hands finger fingers chest stomach belly back hip hips leg
    legs knee knees ankle ankles foot feet toe toes skin muscle muscles joint joints
    """.split()
)
"""Parts of the body: what a fact is about ("my knees are sore"), never a thing to name."""
RELATION_WORDS: Final = frozenset(
    """
    mom mum mother dad father parent parents sister sisters brother brothers sis bro son sons
    daughter daughters kid kids wife husband partner spouse girlfriend boyfriend gf bf fiance
    fiancee grandma grandpa grandmother grandfather aunt uncle cousin cousins friend friends
    coworker coworkers boss neighbor neighbour
    """.split()
)
"""Words that name a person by a tie to someone ("my sister", "mike's gf"), not by a name."""
SYMPTOM_WORDS: Final = frozenset(
    """
    hives rash itch itching swelling fever cough nausea vomiting dizziness headache pain ache
    aches soreness cramps cramp
    """.split()
)
"""What a body does when unwell: a fact's content ("got hives from it"), not a thing."""


CONDITION_WORDS: Final = frozenset(
    """
    diabetes asthma epilepsy infection cancer dementia alzheimer's alzheimers parkinson's
    hypertension fibrillation migraine gout stroke copd anemia anaemia depression anxiety
    """.split()
)
"""Illnesses a chat names by a common word ("type 2 diabetes", "a urinary tract infection");
:data:`CONDITION_SUFFIXES` tells most others."""
CONDITION_SUFFIXES: Final = ("itis", "osis", "emia", "algia", "pathy")
"""The endings of illnesses' names (arthritis, osteoporosis, neuropathy...)."""


def is_condition(word: str) -> bool:
    """True when the case-folded ``word`` names an illness: one of :data:`CONDITION_WORDS`,
    or a word of over six letters with an ending of :data:`CONDITION_SUFFIXES`."""
    return word in CONDITION_WORDS or (len(word) > 6 and word.endswith(CONDITION_SUFFIXES))


def is_drug(word: str) -> bool:
    """True when the case-folded ``word`` names a drug: one of :data:`DRUG_WORDS`, or a
    word of over six letters with an ending of :data:`DRUG_SUFFIXES`."""
    return word in DRUG_WORDS or (len(word) > 6 and word.endswith(DRUG_SUFFIXES))


SUFFIXES: Final = ("edly", "ing", "ies", "ied", "es", "ed", "ly", "s")
"""The plain English suffixes :func:`stem` takes off (one, the first that fits)."""
MIN_STEM_CHARS: Final = 3
"""A suffix is taken off only when at least this many letters remain."""


def words(text: str, *, numbers: bool = True) -> list[str]:
    """The words of ``text`` in order, case-folded, typographic apostrophes made straight;
    without the numbers unless ``numbers``."""
    found = WORD.findall(text.casefold().replace("\u2019", "'"))
    return found if numbers else [w for w in found if not is_number(w)]


def tokens(text: str) -> list[str]:
    """The index tokens of ``text`` in order, lower case (see :data:`TOKEN`)."""
    return TOKEN.findall(text.lower())


def value(word: str) -> str | None:
    """The number ``word`` says, in digits ("three" -> "3", "10:30" -> "10:30"), or None."""
    return word if is_number(word) else NUMBER_WORDS.get(word)


def is_number(word: str) -> bool:
    """True for a number word ("10:30"), False for a word of letters."""
    return word[:1].isdigit()


def stem(word: str) -> str:
    """A light English stem of a case-folded word, equal for its plain forms: "dogs" and
    "dog", "adopted" and "adopt", "running" and "run", "schedules" and "schedule";
    "Ana's" is "ana". Numbers stay whole. Apart from "-ies"/"-ied" (made "-y"), a stem is a
    prefix of the forms it stands for, so a pattern of it finds them in a text."""
    if is_number(word):
        return word
    word = word.removesuffix("'s")
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM_CHARS:
            word = word[: -len(suffix)]
            if suffix in ("ies", "ied"):
                word += "y"
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        return word[:-1]  # "running" -> "runn" -> "run"
    if len(word) > 4 and word[-1] == "e":
        return word[:-1]  # "schedule" meets "schedul(es)"
    return word


UNIT_SPELLINGS: Final = {"ppl": "people", "persons": "people", "person": "people", "%": "percent", "$": "dollar",
                          "usd": "dollar", "bucks": "dollar", "lbs": "lb", "hrs": "hour", "hr": "hour",
                          "mins": "minute", "min": "minute", "kgs": "kg",
                          "yr": "year", "yrs": "year", "mi": "mile", "gig": "gb", "gigs": "gb"}
"""Spellings of one unit ("ppl" is "people", "hrs" "hour", "%" "percent")."""
CHANGE_WORDS: Final = frozenset(
    """
    actually now instead update updated updates change changed plan plans scratch correction move moved
    moving switch switched push pushed bump bumped raise raised increase increased lower lowered reduce
    reduced cut drop dropped upped make made keep kept limit limited went goes came come set adjust
    adjusted trim trimmed shorten shortened extend extended expand expanded makes then case okay ok each rebook
    rebooked rebooking
    total just only about around more less most least max
    """.split()
)
"""Words of a clause that say it changes a value, not what the value is of."""


@functools.lru_cache(maxsize=4096)
def unit(word: str) -> str:
    """A case-folded word as one spelling of its unit ("ppl" and "persons" are "people",
    "lbs" is "lb", "hrs" and "hours" "hour"); any other word, its stem."""
    return UNIT_SPELLINGS.get(word) or stem(UNIT_SPELLINGS.get(stem(word), word))


def content_forms_in_order(text: str) -> list[str]:
    """:func:`content_forms`, in the order ``text`` says them, once each."""
    return list(dict.fromkeys(
        unit(w) for w in words(text, numbers=False)
        if len(w) >= 3 and w.isalpha() and w not in STOP_WORDS and w not in SMALL_TALK and w not in CHANGE_WORDS
    ))


def content_forms(text: str) -> frozenset[str]:
    """The stems of ``text``'s content words: letters, three or more, not stop words, small
    talk or words of change."""
    return frozenset(content_forms_in_order(text))


ASCII_LOOKALIKES: Final = {0x131: "i", 0x17F: "s"}
"""The two letters Python's case-insensitive patterns take for an ASCII one ("ı" for
"i", "ſ" for "s") that ``str.lower`` keeps as they are."""


def lowered(text: str) -> str:
    """``text`` lower-cased as a case-insensitive pattern sees its ASCII letters: a
    literal (of ASCII letters, spaces and signs) that is not in ``lowered(text)`` is in
    no case-insensitive match in ``text`` either. What a prefilter checks before
    running a slower pattern."""
    return text.lower().translate(ASCII_LOOKALIKES)
