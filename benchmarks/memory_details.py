"""Varied chatter for ``memory_corpus --varied-chatter``: specific, answer-free details.

The corpus draws its chatter from a pool, so a speaker's small talk repeats word for word
and only their story turns hold words they say once. A real transcript is not like that:
"we had ramen on Alder Street", "Greta from work", "the bus sat there for twenty minutes"
put words a speaker says once into their chatter too. ``Details.rewrite`` appends such a
sentence to a chatter turn (a street, a dish, a colleague's first name, a film, a thing, a
subject, a number of minutes): one slot gets a value its speaker has not said yet (while
the pool holds one), the others one of their three recurring values of that slot (the
colleague or street they name again), so most rewritten turns hold a word their speaker
says nowhere else (``memory_corpus`` prints how many turns do).

No detail may carry a question's word or an answer: the pools, the street kinds and the
templates are filtered, per conversation, against the content words (``content_words``)
of every question, answer and answer value of it, ``rewrite`` asserts it of each sentence,
and ``memory_corpus.check_values`` still asserts that no turn but the evidence names a
single, multi or spread question's answer. Pure data and a seeded draw.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

from memory_stories import content_words

# fmt: off
STREETS = (
    "Alder", "Birchwood", "Calloway", "Dunmore", "Elmhurst", "Fenwick", "Garland", "Hawthorne",
    "Ivybridge", "Kestrel", "Larkspur", "Mayfield", "Northgate", "Oakridge", "Pemberton",
    "Quarry", "Redfern", "Sycamore", "Thornbury", "Underhill", "Vickery", "Wexford", "Yarrow",
    "Ashcombe", "Bramley", "Cobblestone", "Driftwood", "Edgewater", "Foxglove", "Greystone",
    "Holloway", "Inkerman", "Kingsley", "Lindenhall", "Millbrook", "Nettleton", "Orchardside",
    "Primrose", "Rosemount", "Saltmarsh", "Tannery", "Wickham", "Brackenridge", "Coldharbour",
    "Dovecote", "Fairholme", "Gatehouse", "Hazelmere", "Juniperhill", "Kilburnie", "Lockhart",
    "Marlowe", "Netherby", "Ormsby", "Pinecrest", "Ravenscroft", "Stonebridge", "Tillbury",
    "Wrenfield", "Ashgrove",
)
STREET_KINDS = ("Street", "Lane", "Road", "Avenue", "Place", "Terrace", "Way")
DISHES = (
    "ramen", "shakshuka", "pierogi", "bibimbap", "falafel", "paella", "goulash", "risotto",
    "pho", "tamales", "moussaka", "gnocchi", "dumplings", "lasagna", "jambalaya", "ceviche",
    "kimchi", "borscht", "enchiladas", "quesadillas", "biryani", "tagine", "poutine", "fondue",
    "gumbo", "katsu", "laksa", "samosas", "gyoza", "arepas", "empanadas", "couscous",
    "tabbouleh", "hummus", "churros", "baklava", "tiramisu", "cannoli", "meatloaf", "frittata",
    "okonomiyaki", "udon", "halloumi", "stroganoff", "schnitzel", "ratatouille", "chowder",
    "bruschetta", "focaccia", "tostadas", "souvlaki", "kebabs", "bulgogi", "dal", "khachapuri",
    "pelmeni", "mole", "ceviche", "pavlova", "strudel",
)
COLLEAGUES = (
    "Bruno", "Celeste", "Dmitri", "Esme", "Farid", "Greta", "Hugo", "Ines", "Jasper", "Kenji",
    "Lucia", "Mateo", "Noor", "Otto", "Paloma", "Quentin", "Renata", "Soren", "Talia", "Umar",
    "Vera", "Wendell", "Xavier", "Yara", "Zane", "Agnes", "Boris", "Cosima", "Dario", "Edith",
    "Fabian", "Gemma", "Hector", "Isolde", "Javier", "Kira", "Lionel", "Mirela", "Nico",
    "Odette", "Pascal", "Rhea", "Stellan", "Thea", "Ulla", "Viggo", "Wanda", "Yusuf", "Zora",
    "Anselm", "Beatrix", "Cyrus", "Delphine", "Emeric", "Florian", "Gideon", "Hedda", "Ignacio",
    "Jolene", "Konrad",
)
FILMS = (
    "Paper Moons", "Glass Harbor", "The Last Tram", "Velvet Thunder", "Copper Sky",
    "Night Ferry", "Salt and Ember", "The Orchard Thief", "Silver Lantern", "Quiet Engines",
    "Marble Garden", "Blue Meridian", "The Hollow Crown", "Tin Soldiers", "Midnight Circus",
    "Iron Petals", "The Frozen Atlas", "Crimson Tide", "Lighthouse Keepers", "Sugar Comet",
    "The Brass Key", "Wolf Hour", "Pale Fire", "Dust Devils", "The Ninth Gate", "Neon Orchard",
    "Ghost Radio", "The Lantern Bearer", "Violet Static", "Harbor Lights", "Glass Onion",
    "Saltwater Kings", "The Clockmaker", "Ember Falls", "Hidden Figures", "The Gravel Road",
    "Moth Season", "Velvet Goldmine", "The Wandering Earth", "Paper Tigers",
)
THINGS = (
    "umbrella", "headphones", "thermos", "stapler", "sunglasses", "toaster", "kettle", "doormat",
    "lampshade", "corkscrew", "flashlight", "scarf", "mittens", "wallet", "backpack",
    "screwdriver", "blender", "ladder", "hairdryer", "tripod", "hammock", "skillet", "colander",
    "pillowcase", "keychain", "bookmark", "compass", "binoculars", "paintbrush", "waffle iron",
    "ironing board", "extension cord", "garden hose", "rolling pin", "salad spinner",
    "phone charger", "reading glasses", "yoga mat", "tool box", "rice cooker",
)
SUBJECTS = (
    "shipwrecks", "volcanoes", "beekeeping", "typewriters", "submarines", "glaciers",
    "octopuses", "tornadoes", "pirates", "meteorites", "bridges", "cartography", "lichens",
    "sourdough starters", "medieval castles", "chess openings", "deep sea fish", "the Roman roads",
    "lost cities", "fungi", "bonsai", "mosaics", "tide pools", "owls", "sundials", "canals",
    "zeppelins", "icebergs", "fireflies", "vintage radios", "salt mines", "lighthouses",
    "sea otters", "the moon landing", "carnivorous plants", "ancient coins", "sled dogs",
    "monorails", "honeybees", "cave paintings",
)
MINUTES = (
    "ten", "twelve", "fifteen", "seventeen", "twenty", "twenty-five", "thirty", "forty",
    "forty-five", "fifty", "sixty", "ninety",
)
TEMPLATES = (
    "Grabbed {dish} at a tiny place on {street} with {colleague} from work.",
    "{colleague} talked about {film} for {minutes} minutes straight.",
    "The bus sat on {street} for {minutes} minutes, so I listened to a podcast about {subject}.",
    "I finally gave the {thing} back to {colleague}.",
    "Made {dish} for dinner and watched {film}, not bad at all.",
    "{colleague} lent me a {thing} and a documentary about {subject}.",
    "Got stuck behind roadworks on {street} for {minutes} minutes.",
    "Tried to make {dish} and burned it, {colleague} says it happens to everyone.",
    "I think I left my {thing} somewhere near {street}.",
    "Watched {film} again and still teared up at the end.",
    "There's a new {dish} spot on {street}, {colleague} swears by it.",
    "Fell down a rabbit hole about {subject} for {minutes} minutes.",
    "{colleague} bought a {thing} and won't stop talking about it.",
    "The queue at the {dish} truck on {street} was {minutes} minutes long.",
    "Someone on {street} was selling a {thing} for almost nothing.",
    "{colleague} and I argued about {film} the whole lunch.",
    "I read something about {subject} that I can't stop thinking about.",
    "Leftover {dish} for breakfast, no regrets.",
    "{colleague} recommended {film}, I fell asleep after {minutes} minutes.",
    "My {thing} broke this week, of course.",
)
# fmt: on
REGULARS = 3  # a speaker's recurring values of a slot (their colleagues, their street)
SLOTS = ("street", "dish", "colleague", "film", "thing", "subject", "minutes")


class Details:
    """Detail sentences for one conversation, from pools without any of ``forbidden``
    (content-word stems: the conversation's questions, answers and answer values)."""

    def __init__(self, forbidden: Iterable[str], rng: random.Random) -> None:
        banned = set(forbidden)
        pools = {
            "street": STREETS, "dish": DISHES, "colleague": COLLEAGUES, "film": FILMS,
            "thing": THINGS, "subject": SUBJECTS, "minutes": MINUTES,
        }
        self.pools = {
            slot: [v for v in dict.fromkeys(pool) if not content_words(v) & banned]
            for slot, pool in pools.items()
        }
        self.kinds = [k for k in STREET_KINDS if not content_words(k) & banned]
        self.banned = banned
        self.templates = [t for t in TEMPLATES
                          if not content_words(re.sub(r"\{\w+\}", " ", t)) & banned]
        self.rng = rng
        self.said: dict[int, set[str]] = {}  # speaker -> values they have said
        self.regulars: dict[int, dict[str, list[str]]] = {}  # speaker -> slot -> recurring
        self.fresh_turns = self.turns = 0

    def rewrite(self, speaker: int, text: str) -> str:
        """``text`` followed by a detail sentence, one of its values new for ``speaker``
        while the pools still hold one."""
        said = self.said.setdefault(speaker, set())
        regulars = self.regulars.setdefault(speaker, {})
        template = self.rng.choice(self.templates)
        slots = [slot for slot in SLOTS if "{" + slot + "}" in template]
        novel = self.rng.choice(slots)  # one new value a turn, so the pools last
        values, fresh = {}, False
        for slot in slots:
            pool = self.pools[slot]
            new = [v for v in pool if v not in said]
            regular = regulars.setdefault(slot, [])
            if slot != novel and len(regular) == REGULARS:
                value = self.rng.choice(regular)
            else:
                value = self.rng.choice(new or pool)
                if slot != novel:
                    regular.append(value)
            fresh = fresh or (slot == novel and value not in said)
            said.add(value)
            values[slot] = value
        if "street" in values:
            values["street"] += " " + self.rng.choice(self.kinds)
        detail = template.format(**values)
        assert not content_words(detail) & self.banned, detail  # no question's word, no answer
        self.turns += 1
        self.fresh_turns += fresh
        return f"{text} {detail}" if text[-1:] in ".!?" else f"{text}! {detail}"
