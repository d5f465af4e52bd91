"""Each person's story: the facts they tell and the questions those facts answer.

A story is planned before any turn is laid out (``memory_corpus`` does that): facts
(an utterance of its owner, with the reactions and follow-ups it may draw, and how
many days before its session the event happened) and asks (a question's text, its
answer, the keys of the facts it needs). Facts of one chain (the cities someone
lived in, their jobs) are told in order, in different sessions. Values are drawn
so that none holds another as a word ("chef", "sous chef"), which lets the corpus
check that only the evidence turns hold an answer. Phrasings: ``memory_phrases``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import memory_asks as M
import memory_phrases as S

STOP_WORDS = frozenset(
    """a about after again all also am an and any anything are as at be been before being
    but by can cant could did didnt do does doesnt doing done dont for from get gets got had
    has have having he her hers him his how i if im in into is isnt it its ive just like me
    mine more most my no nor not now of off on once only or our out over own really she should
    so some such than that thats the their them then there these they this those to too under
    until up us very was wasnt we were what when where which while who whom why will with
    wont would wouldnt you your yours every always never ever one""".split()
)


# --- words ---------------------------------------------------------------------------


def stem(word: str) -> str:
    """A light stemmer: lives/lived/living -> liv, cities -> city, swimming -> swim."""
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]
    return word


def content_words(text: str) -> set[str]:
    """Stems of the words that carry meaning (apostrophes dropped, stop words out)."""
    words = re.findall(r"[a-z0-9]+", text.lower().replace("'", "").replace("\u2019", ""))
    return {stem(w) for w in words if w not in STOP_WORDS}


# The chatter topic of a story (by chain name), whose lines may follow one of its facts.
TOPICS = {
    "move": "home",
    "job": "work",
    "pet": "pets",
    "hobby": "hobby",
    "trip": "travel",
    "book": "books",
    "sibling": "family",
    "plan": "travel",
    "food": "food",
    "movie": "tv",
}
TOPIC_LINES = {
    topic: tuple(line for line in lines if "{" not in line) for topic, _, lines in S.CHATTER
}


@dataclass
class Person:
    index: int
    name: str
    they: str
    their: str


@dataclass
class Fact:
    key: str
    owner: int
    text: str
    reactions: Sequence[str]
    followups: Sequence[str] = ()
    offset: int = 0  # days before its session's date the event happened ("yesterday": 1)
    chain: str = ""  # facts of one chain are told in this order, in different sessions
    tag: str = ""  # the chatter topic it opens for its owner
    after: str = ""  # the fact it mentions again, in a later session (no question needs it)
    asked: str = ""  # what the other asks just before (the fact is the reply)


@dataclass
class Ask:
    kind: str
    text: str
    answer: str | None  # None: a temporal question, answered once the facts are dated
    keys: tuple[str, ...]
    values: tuple[str, ...] = ()  # words only the evidence turns may contain


@dataclass
class Story:
    person: Person
    rng: random.Random
    used: set[str]
    facts: list[Fact] = field(default_factory=list)
    asks: list[Ask] = field(default_factory=list)
    tags: set[str] = field(default_factory=set)

    def pick(self, pool: Sequence, key: Callable[[object], str] = str):
        """A value of ``pool`` not used yet in this conversation."""
        fresh = [v for v in pool if not any(overlap(key(v), u) for u in self.used)]
        value = self.rng.choice(fresh)
        self.used.add(key(value))
        return value

    def say(self, templates: Sequence[str], **values: str) -> str:
        return fill(self.rng.choice(templates), self.person, **values)

    def when(self) -> tuple[str, int]:
        if self.rng.random() < 0.5:
            return self.rng.choice(S.TODAY), 0
        return self.rng.choice(S.YESTERDAY), 1

    def elaborate(self, text: str, topic: str | None, odds: float = 0.7) -> str:
        """``text``, often followed by a sentence on its topic or an aside (never a value)."""
        if self.rng.random() >= odds:
            return text
        return f"{text} {self.rng.choice(TOPIC_LINES.get(topic, ()) + S.ASIDES)}"

    def fact(
        self, chain: str, text: str, reactions: Sequence[str], followups=(), offset=0, tag: str = ""
    ) -> str:
        """Plan a fact (told with an extra sentence, unless a paraphrase); its key."""
        if not chain.startswith("para"):
            text = self.elaborate(text, TOPICS.get(chain.split("-")[-1]))
        key = f"{self.person.index}:{chain}:{len(self.facts)}"
        self.facts.append(
            Fact(key, self.person.index, text, reactions, followups, offset, chain, tag)
        )
        return key

    def echo(self, key: str, texts: Sequence[str], **values: str) -> None:
        """Mention the fact ``key`` again later, without its day (a distractor, no evidence)."""
        for text in self.rng.sample(texts, self.rng.choice((1, 2))):
            echo = Fact(f"{key}:echo{len(self.facts)}", self.person.index, "", S.ECHO_REACTIONS)
            echo.text = self.elaborate(fill(text, self.person, **values), None, odds=0.5)
            echo.chain, echo.after = echo.key, key
            self.facts.append(echo)

    def ask(
        self,
        kind: str,
        templates: Sequence[str],
        answer: str | None,
        keys: Sequence[str],
        values: Sequence[str] = (),
        **slots: str,
    ) -> None:
        text = fill(self.rng.choice(templates), self.person, **slots)
        if kind == "multi" and len(keys) >= 3:
            kind = "spread"  # answers told in three or more sessions
        self.asks.append(Ask(kind, text, answer, tuple(keys), tuple(values)))


def overlap(a: str, b: str) -> bool:
    """Whether one value holds the other as whole words ("chef" and "sous chef")."""
    a, b = a.lower(), b.lower()
    return bool(re.search(rf"\b{re.escape(a)}\b", b) or re.search(rf"\b{re.escape(b)}\b", a))


def fill(template: str, person: Person, **values: str) -> str:
    when = values.get("when", "")
    return template.format(
        A=person.name,
        they=person.they,
        their=person.their,
        When=when[:1].upper() + when[1:],
        **values,
    )


def moves(st: Story) -> None:
    first, second, third = (st.pick(S.CITIES) for _ in range(3))
    keys = [st.fact("move", st.say(S.HOME_MOVES, city=first), S.HOME_REACTIONS)]
    whens = []
    for city in (second, third):
        when, offset = st.when()
        whens.append((when, offset))
        text = st.say(S.MOVES, city=city, when=when)
        keys.append(st.fact("move", text, S.MOVE_REACTIONS, S.MOVE_FOLLOWUPS, offset))
        st.echo(keys[-1], S.MOVE_ECHOES)
    st.ask("multi", S.LIVED_QUESTIONS, f"{first}, {second}, {third}", keys, (first, second, third))
    st.ask("single", S.LIVE_NOW_QUESTIONS, third, keys[2:], (third,))
    st.ask("temporal", S.MOVE_WHEN_QUESTIONS, None, keys[1:2], city=second)
    M.dated(st, "move", keys[2], third)


def jobs(st: Story) -> None:
    (old, new), (role, role2) = (
        (st.pick(S.COMPANIES) for _ in range(2)),
        (st.pick(S.ROLES) for _ in range(2)),
    )
    first = st.fact("job", st.say(S.OLD_JOBS, role=role, company=old), S.OLD_JOB_REACTIONS)
    when, offset = st.when()
    text = st.say(S.NEW_JOBS, role=role2, company=new, when=when)
    second = st.fact("job", text, S.JOB_REACTIONS, S.JOB_FOLLOWUPS, offset)
    st.echo(second, S.JOB_ECHOES)
    st.ask("single", S.ROLE_QUESTIONS, role, [first], (role,), company=old)
    st.ask("single", S.WORK_NOW_QUESTIONS, new, [second], (new,))
    st.ask("multi", S.EMPLOYERS_QUESTIONS, f"{old}, {new}", [first, second], (old, new))
    st.ask("temporal", S.JOB_WHEN_QUESTIONS, None, [second], company=new)
    M.dated(st, "job", second, new)


def pets(st: Story) -> None:
    st.tags.add("pet")
    dog = st.rng.random() < 0.6
    breed = st.pick(S.DOG_BREEDS if dog else S.CAT_BREEDS)
    species, young = ("dog", "puppy") if dog else ("cat", "kitten")
    pet, their = st.pick(S.PET_NAMES), st.rng.choice(("Her", "His"))
    when, offset = st.when()
    text = st.say(S.ADOPTIONS, breed=breed, young=young, pet=pet, when=when, Their=their)
    first = st.fact("pet", text, S.PET_REACTIONS, S.PET_FOLLOWUPS, offset, tag="pet")
    st.echo(first, S.PET_ECHOES, species=species, young=young)
    st.ask("single", S.BREED_QUESTIONS, breed, [first], (breed,), species=species)
    st.ask("temporal", S.PET_WHEN_QUESTIONS, None, [first], species=species, pet=pet)
    M.dated(st, "pet", first, breed)
    if st.rng.random() < 0.5:
        pet2, breed2 = st.pick(S.PET_NAMES), st.pick(S.CAT_BREEDS if dog else S.DOG_BREEDS)
        second = st.fact("pet", st.say(S.SECOND_PETS, pet=pet2, breed=breed2), S.PET_REACTIONS)
        st.ask("multi", S.PET_NAMES_QUESTIONS, f"{pet}, {pet2}", [first, second], (pet, pet2))


def hobbies(st: Story) -> None:
    chosen = [st.pick(S.ACTIVITIES, key=lambda a: a[0]) for _ in range(3)]
    st.tags.update(activity for activity, _ in chosen)
    keys = [
        st.fact(
            "hobby",
            st.say(S.HOBBIES, activity=a, venue=v),
            S.HOBBY_REACTIONS,
            S.HOBBY_FOLLOWUPS,
            tag="hobby",
        )
        for a, v in chosen
    ]
    names = tuple(a for a, _ in chosen)
    st.ask("multi", S.HOBBIES_QUESTIONS, ", ".join(names), keys, names)
    at = st.rng.randrange(3)
    st.ask(
        "single",
        S.VENUE_QUESTIONS,
        chosen[at][1],
        keys[at : at + 1],
        (chosen[at][1],),
        activity=chosen[at][0],
    )


def trips(st: Story) -> None:
    st.tags.add("trip")
    chosen = [st.pick(S.TRIPS, key=lambda t: t[0]) for _ in range(st.rng.choice((2, 3)))]
    keys = []
    for place, sight, did in chosen:
        if st.rng.random() < 0.5:
            when, offset = st.when()
            text = st.say(S.TRIP_RETURNS, place=place, sight=sight, when=when)
            key = st.fact("trip", text, S.TRIP_REACTIONS, S.TRIP_FOLLOWUPS, offset)
            st.echo(key, S.TRIP_ECHOES)
            st.ask("single", S.SIGHT_QUESTIONS, sight, [key], (sight,), place=place)
            st.ask("temporal", S.TRIP_WHEN_QUESTIONS, None, [key], place=place)
            M.dated(st, "trip", key, place)
        else:
            text = st.say(S.TRIP_STAYS, place=place, did=did)
            key = st.fact("trip", text, S.TRIP_REACTIONS, S.TRIP_FOLLOWUPS)
            st.ask("single", S.DID_QUESTIONS, did, [key], (did,), place=place)
        keys.append(key)
    places = tuple(p for p, _, _ in chosen)
    st.ask("multi", S.TRIPS_QUESTIONS, ", ".join(places), keys, places)


def milestones(st: Story) -> None:
    for _ in range(3):
        text, question = st.pick(S.MILESTONES, key=lambda m: m[0])
        when, offset = st.when()
        key = st.fact(
            f"milestone{len(st.facts)}",
            fill(text, st.person, when=when),
            S.MILESTONE_REACTIONS,
            offset=offset,
        )
        phrase = next(p for p in S.MILESTONE_ECHOES if p in text)
        st.ask("temporal", (question, S.MILESTONE_QUESTIONS[phrase]), None, [key])
        st.echo(key, S.MILESTONE_ECHOES[phrase])


def books(st: Story) -> None:
    chosen = [st.pick(S.BOOKS, key=lambda b: b[0]) for _ in range(2)]
    keys = [
        st.fact("book", st.say(S.READS, title=t, author=a), S.BOOK_REACTIONS) for t, a in chosen
    ]
    titles = tuple(t for t, _ in chosen)
    st.ask("multi", S.BOOKS_QUESTIONS, ", ".join(titles), keys, titles)
    at = st.rng.randrange(2)
    title, author = chosen[at]
    st.ask("single", S.TITLE_QUESTIONS, title, keys[at : at + 1], (title,), author=author)


def family(st: Story) -> None:
    st.tags.add("sibling")
    rel, names = st.rng.choice(S.SIBLINGS)
    sib, job, city = st.pick(names), st.pick(S.SIBLING_JOBS), st.pick(S.CITIES)
    key = st.fact(
        "sibling",
        st.say(S.SIBLING_FACTS, rel=rel, sib=sib, job=job, city=city),
        S.SIBLING_REACTIONS,
    )
    asks = [
        (S.SIBLING_JOB_QUESTIONS, job),
        (S.SIBLING_NAME_QUESTIONS, sib),
        (S.SIBLING_CITY_QUESTIONS, city),
    ]
    for templates, answer in st.rng.sample(asks, 2):
        st.ask("single", templates, answer, [key], (answer,), rel=rel)


def favorites(st: Story) -> None:
    for category, texts, questions, values in st.rng.sample(S.FAVORITES, 2):
        st.tags.add(category)
        value = st.pick(values)
        key = st.fact(f"fav-{category}", st.say(texts, value=value), S.FAVORITE_REACTIONS)
        st.ask("single", questions, value, [key], (value,))


def cars(st: Story) -> None:
    st.tags.add("car")
    old, new = st.pick(S.CARS), st.pick(S.CARS)
    st.fact("car", st.say(S.CAR_OLD, car=old), S.CAR_REACTIONS)
    when, offset = st.when()
    key = st.fact(
        "car", st.say(S.CAR_NEW, old=old, car=new, when=when), S.CAR_REACTIONS, offset=offset
    )
    st.echo(key, S.CAR_ECHOES)
    st.ask("single", S.CAR_QUESTIONS, new, [key], (new,))
    st.ask("temporal", ("When did {A} get {their} " + new + "?",), None, [key])
    M.dated(st, "car", key, new)


def plans(st: Story) -> None:
    st.tags.add("plan")
    first, second, month = (
        st.pick(S.PLAN_DESTINATIONS),
        st.pick(S.PLAN_DESTINATIONS),
        st.pick(S.MONTHS),
    )
    keys = [
        st.fact("plan", st.say(S.PLAN_FIRST, dest=first, month=month), S.PLAN_REACTIONS),
        st.fact("plan", st.say(S.PLAN_CHANGE, dest=second), S.PLAN_REACTIONS),
    ]
    st.ask("multi", S.PLAN_QUESTIONS, second, keys, month=month)


def paraphrases(st: Story, count: int = 4) -> None:
    """``count`` facts told in other words; only question/fact pairs sharing no content word."""
    items = [
        p
        for p in S.PARAPHRASES
        if not set(p[3]) & st.tags and not any(overlap(u, fact) for u in st.used for fact in p[0])
    ]
    for facts, questions, answer, _ in st.rng.sample(items, len(items)):
        text = st.elaborate(st.rng.choice(facts), None, odds=0.5)
        fitting = [
            q for q in questions if not content_words(fill(q, st.person)) & content_words(text)
        ]
        if not fitting:
            continue
        st.used.update((*facts, text))  # no value drawn later may be a word of it
        key = st.fact(f"para{len(st.facts)}", text, S.PARAPHRASE_REACTIONS)
        st.ask("paraphrase", fitting, answer, [key])
        count -= 1
        if count == 0:
            return


def story(person: Person, rng: random.Random, used: set[str]) -> Story:
    st = Story(person, rng, used)
    moves(st)
    jobs(st)
    if rng.random() < 0.75:
        pets(st)
    hobbies(st)
    if rng.random() < 0.8:
        trips(st)
    milestones(st)
    books(st)
    family(st)
    favorites(st)
    if rng.random() < 0.5:
        cars(st)
    if rng.random() < 0.5:
        plans(st)
    M.replies(st)
    M.dishes(st)
    paraphrases(st)
    return st
