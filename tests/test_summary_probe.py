"""Sentences written for the recorded conversations (benchmarks/real_conversations.py), not
by a model: a probe of both sides of the sentence checks (``summarizer.support`` and
``summarizer.bindings``, issue 21, point 2). Faithful ones, paraphrased and joined across
turns, are kept; unfaithful ones (a day, a time, a place or a person moved to another
event, a status flipped, a warning reversed) are dropped.

Not caught today (and so not listed): "They will fly from Amsterdam on May 17" (the flight
is on May 10; "fly" is never said), "The column goes in 0042_orders_status_index.sql" (a
file bound to the wrong change), "She will use the chocolate chips" (they are to be left
"out", which is no negation), "Ms. Alvarez has a peanut allergy" (two kids have), "Clara
wrote the chorus", "They booked Atlas". Kept too strictly (dropped though faithful):
"Rosa is allergic to penicillin" ("she's allergic": a name for a pronoun), "Pena Palace is
booked for May 14 at 10 am", "The index build will run on Sunday night" ("we'll run it").
"""

from __future__ import annotations

import pytest

from localmem.summarizer.support import ground
from tests.real_replay import RECORDINGS

CONVERSATIONS = {
    name: [(role, text) for role, text in run["messages"]]
    for data in RECORDINGS.values()
    for name, run in data["conversations"].items()
}

FAITHFUL = [
    ("trip", "The couple will spend a week in Lisbon from May 10 to May 17 on about 2,500 euros, and will stay at a small hotel in Alfama for 95 euros a night."),
    ("trip", "They will take the train to Sintra on May 14 and booked Pena Palace for 10 am."),
    ("trip", "They booked the flights, KL1691 on May 10, and may reserve a fado evening on May 16."),
    ("trip", "The flight is KL1691 on May 10."),
    ("trip", "The hotel is in Alfama."),
    ("migration", "They will run the index build on Sunday night when traffic is lowest, and the user will write up the plan in ticket OPS-2291."),
    ("migration", "Postgres 14 holds 40 million rows in the orders table."),
    ("muffins_party", "She will leave out the chocolate chips, which are made in a facility that processes peanuts, and use strawberries instead."),
    ("muffins_party", "She will bake them on Thursday evening."),
    ("muffins_party", "Ms. Alvarez is the teacher."),
    ("muffins_party", "The party is next Friday."),
    ("muffins_party", "The muffins will be baked on Thursday evening."),
    ("song_lyrics", "Clara is the user's little sister."),
    ("song_lyrics", "The demo will be recorded on Sunday."),
    ("sonnet_grandmother", "Ilse died in March."),
    ("sonnet_grandmother", "The memorial is in July."),
    ("sonnet_grandmother", "The user will finish the first quatrain tonight."),
    ("train_milan", "They have a ticket for The Last Supper on June 4 at 11:15 and will do a day trip to Lake Como on June 5, by train to Varenna, then the ferry to Bellagio."),
    ("train_milan", "The user does not eat meat and will book dinner in Navigli for June 4."),
    ("birthday_cake", "Mia is allergic to peanuts and tree nuts and Tom can't have eggs, so the hazelnuts are skipped."),
    ("birthday_cake", "Tom can't have eggs."),
    ("birthday_cake", "Leo likes chocolate cake."),
    ("birthday_cake", "Leo turns 7 on Saturday."),
    ("dog_chocolate", "Max is an 11 kg beagle."),
    ("dog_chocolate", "The vet wants to see Max tomorrow at 9 am."),
    ("dog_chocolate", "Max ate about half of a 100 gram dark chocolate bar."),
    ("moving_budget", "The move from Chicago to Denver on August 15 will cost about 8,450 dollars, and they have 9,000 saved."),
    ("interview", "The user has a job interview for a data analyst role at Nordlight on Thursday at 2 pm, in person in Utrecht."),
    ("interview", "Femke de Vries is the interviewer."),
    ("interview", "The interview is on Thursday at 2 pm."),
    ("interview", "The train takes about 50 minutes."),
    ("allergy_tool", "The inhaler refill was submitted and will be ready on Saturday after 10:00 at Rosen Pharmacy."),
    ("casual_weekend", "Pickles is a grey tabby, 4 years old."),
    ("casual_weekend", "Nora is visiting on Sunday."),
    ("casual_weekend", "The user is going to the farmers market on Saturday morning."),
    ("caregiver", "Rosa takes warfarin at 6 pm and metoprolol at 8 am and 8 pm."),
    ("caregiver", "Rosa must not take ibuprofen with warfarin."),
    ("caregiver", "Dr. Patel sees her on Tuesday March 12 at 10:30."),
]

UNFAITHFUL = [
    ("trip", "They will take a boat trip to Sintra on May 14."),  # no boat trips: the train
    ("trip", "They booked a fado evening on May 16."),  # advised to reserve one
    ("trip", "They will stay at a small hotel in Mouraria."),  # Alfama; Mouraria is for dinner
    ("migration", "They will run the index build on Saturday night."),  # Sunday
    ("migration", "The team ran the migration on Sunday night."),  # planned
    ("muffins_party", "She will bake the muffins on Friday evening."),  # Thursday; the party is Friday
    ("song_lyrics", "The user will record a demo on Saturday."),  # Sunday
    ("song_lyrics", "The song is in E minor."),  # G major
    ("sonnet_grandmother", "The user will send the first quatrain to the friend tomorrow."),  # to "you"
    ("sonnet_grandmother", "The user leans toward the Petrarchan sonnet."),  # Shakespearean
    ("sonnet_grandmother", "The memorial is in March."),  # July; she died in March
    ("train_milan", "The user will take the ferry to Varenna."),  # the train goes to Varenna
    ("train_milan", "The Last Supper ticket is for June 5."),  # June 4
    ("train_milan", "The user will stay at Hotel Bellagio."),  # Hotel Aurora; Bellagio by ferry
    ("birthday_cake", "The user will frost the cake on Friday evening."),  # Saturday morning
    ("birthday_cake", "Tom is allergic to peanuts."),  # Mia is; Tom can't have eggs
    ("dog_chocolate", "The vet will see Max again today at 9 am."),  # tomorrow
    ("dog_chocolate", "The user made Max vomit with salt water."),  # never
    ("moving_budget", "They will move from Denver to Chicago on August 15."),  # from Chicago
    ("interview", "The interview is on Thursday at 12:45."),  # 2 pm; 12:45 is leaving home
    ("interview", "The user will leave home at 2 pm."),  # 12:45
    ("caregiver", "Rosa takes warfarin at 8 am."),  # 6 pm; 8 am is the metoprolol's
    ("caregiver", "Her INR check is on Monday at 10:30."),  # Tuesday
]


@pytest.mark.parametrize(("conversation", "sentence"), FAITHFUL)
def test_a_faithful_sentence_is_kept(conversation: str, sentence: str) -> None:
    assert ground(sentence, CONVERSATIONS[conversation]).dropped == ()


@pytest.mark.parametrize(("conversation", "sentence"), UNFAITHFUL)
def test_an_unfaithful_sentence_is_dropped(conversation: str, sentence: str) -> None:
    assert ground(sentence, CONVERSATIONS[conversation]).text is None
