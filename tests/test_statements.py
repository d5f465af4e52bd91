"""What a sentence says of an item besides its words (localmem.statements, localmem.progress,
localmem.standing), on examples written for these tests (issue 21: status, aspect, who likes
what, what an item names)."""

from __future__ import annotations

import inspect

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from localmem import acts, progress, replies, standing, statements, verbs
from localmem.facts import used_up


@pytest.mark.parametrize(
    ("item", "later", "done"),
    [
        ("Remember to water the tomatoes", [("Watered.", True)], True),  # an elliptical reply
        ("Remember to water the tomatoes", [("Watered.", False)], False),  # not an answer to it
        ("Book seats for the concert on Friday", [("We booked the seats this morning.", False)], True),
        ("Configure the north gateway", [("I configured the north router.", False)], False),
        ("Send the invoice to Marta", [("I sent it.", True)], False),  # nothing of it named
        ("Send the invoice to Marta", [("I sent the invoice.", True)], True),
        ("Reserve a table at Nando's on June 9", [("We reserved the hotel for June 2.", True)], False),
    ],
)
def test_done_later(item: str, later: list[tuple[str, bool]], done: bool) -> None:
    assert progress.done_later(item, later) is done


@pytest.mark.parametrize(
    ("item", "later", "partly"),
    [
        ("Wash the car and mow the lawn", ["Done, the car is shiny again."], True),
        ("Wash the car and mow the lawn", ["Done: the car is washed and the lawn is mowed."], False),
        ("Wash the car and mow the lawn", ["I will wash the car tomorrow."], False),  # a plan
        ("Wash the car", ["Done, the car is shiny again."], False),  # one thing: done_later's
    ],
)
def test_partly_done(item: str, later: list[str], partly: bool) -> None:
    assert progress.partly_done(item, later) is partly


@pytest.mark.parametrize(
    ("item", "sentence", "now"),
    [
        ("email the landlord about the heating", "OK, I'm emailing the landlord right now.", True),
        ("ring the dentist", "I am ringing the dentist.", True),
        ("write a novel", "I'm writing a novel about my town.", False),  # lasts: still to do
        ("email the landlord", "I will email the landlord.", False),
        ("ring the dentist", "I'm ringing the dentist tomorrow morning.", False),  # a plan
    ],
)
def test_under_way(item: str, sentence: str, now: bool) -> None:
    assert progress.under_way(item, sentence) is now


@pytest.mark.parametrize(
    ("item", "later", "made"),
    [
        ("bake a lemon cake", ["That's a gorgeous lemon cake!"], True),
        ("draft a cover letter", ["Your letter reads well; send it."], True),
        ("write a limerick about cats", ["It's a good idea to write a limerick first."], False),
        ("write a limerick about cats", ["The limerick is in five lines."], False),  # described
        ("write a limerick about cats", ["It will be a fine limerick."], False),  # a plan
        ("write a limerick about cats", ["Is it a good limerick?"], False),  # asked
    ],
)
def test_made_later(item: str, later: list[str], made: bool) -> None:
    assert progress.made_later(item, later) is made


@pytest.mark.parametrize(
    ("sentence", "item", "prefers"),
    [
        ("My sister gets carsick, so please no long drives.", "no long drives", True),
        ("My sister gets carsick, so please no long drives.", "carsick", False),  # the reason
        ("I love window seats because I sleep badly.", "window seats", True),
        ("I prefer green tea, not coffee.", "not coffee", True),  # a list, one stance
        ("Do you like window seats?", "window seats", False),  # a question
        ("The flight leaves at noon.", "flight at noon", False),  # a fact, no stance
        ("I'd rather take the train than an Uber.", "take the train", True),
        ("I'd rather take the train than an Uber.", "take the risk of the train", False),  # "risk": said elsewhere
        ("Short answers please.", "style: short answers", True),  # a keyed item: its topic is the model's
    ],
)
def test_prefers(sentence: str, item: str, prefers: bool) -> None:
    assert statements.prefers(sentence, item) is prefers


@pytest.mark.parametrize(
    ("item", "sentence", "theirs"),
    [
        ("Dr Osei recommended it", "I'm staying with the Hill's and Dr Osei recommended it.", True),
        ("she prefers the aisle", "My mum flies with me and she prefers the aisle.", True),
        ("Marta said no nuts", "For the party, Marta said no nuts.", True),  # a name written mid-sentence
        ("the vet recommends wet food", "I like the brand and the vet recommends wet food.", True),
        ("The user prefers short answers", "I prefer short answers.", False),  # the writer, as a model names them
        ("Spicy food preferred", "Spicy food preferred, always.", False),  # no name: never capitalised mid-sentence
        ("Short answers", "Short answers please.", False),  # no verb
        ("Hill's renal food", "I only buy Hill's renal food.", False),
    ],
)
def test_someone_elses(item: str, sentence: str, theirs: bool) -> None:
    """Issue 21: a preference is the writer's stance; an item whose subject is someone else
    ("Dr Osei recommended it") is their act or stance."""
    assert statements.someone_elses(item, sentence) is theirs
    if theirs:
        assert not statements.prefers(sentence, item)


@pytest.mark.parametrize(
    ("item", "later", "done"),
    [
        ("Add a healthcheck to db with pg_isready", ["Went with the healthcheck, works every time now."], True),
        ("add a retry to the upload job", ["We ended up adding a retry and it held."], True),
        ("Add a healthcheck to db with pg_isready", ["I'll go with the healthcheck tomorrow."], False),  # a plan
        ("Add a healthcheck to db with pg_isready", ["Went with the wait script instead."], False),  # another thing
        ("Add a healthcheck to db with pg_isready", ["Should I go with the healthcheck?"], False),
    ],
)
def test_taken_up(item: str, later: list[str], done: bool) -> None:
    assert progress.taken_up(item, later) is done


@pytest.mark.parametrize(
    ("item", "later", "done"),
    [
        ("throw out the lilies", ["The lilies are gone."], True),
        ("throw out the lilies", ["I'm throwing them out now.", "Ok, they're gone."], True),  # the act said, then "they"
        ("fix the leaking tap", ["The tap is fixed."], True),
        ("throw out the lilies", ["They're gone."], False),  # "they": no act said before
        ("throw out the lilies", ["The lilies are still on the table."], False),
        ("throw out the lilies", ["The lilies are gone?"], False),
        ("restore power to the shed", ["The power is out again."], False),  # out: the state of a removal only
        ("ask the vet about the cat's pills", ["The cat is done with the pills."], False),  # done with another thing
        ("keep lilies out of the house", ["I'm keeping them out.", "They're out."], False),  # a rule kept
        # an act of putting in is done once its thing is in a place (sixth set, seen: csv_bom_import)
        ("Import Members", ["import a members CSV", "Ran it, 339 members in the table."], True),
        ("Finish Import Members", ["Ran it, 339 members in the table."], True),
        ("upload the photos", ["The photos are now in the shared album."], True),
        ("Import Members", ["There are no members in the table yet."], False),  # negated
        ("Import Members", ["How many members in the table?"], False),  # a question
        ("Import Members", ["The invoices are in the table."], False),  # another thing
        ("email the members", ["339 members in the table."], False),  # no act of putting in
        ("add a gate to the porch door", ["The porch door is in the hallway."], False),  # the door, not the gate
        ("add a gate to the porch door", ["The gate is in the doorway now."], True),
    ],
)
def test_left_done(item: str, later: list[str], done: bool) -> None:
    assert progress.left_done(item, later) is done


@pytest.mark.parametrize(
    ("item", "later", "done"),
    [
        ("clean the rotor", ["Clean the rotor first.", "pads in, rotor cleaned, stops fine"], True),  # object, then form
        ("clean the rotor", ["Clean the rotor first.", "I cleaned the rotor with alcohol."], True),  # form, then object
        ("order pads", ["fine, ordering pads.", "which ones?", "ordered, arrive thurs"], True),  # the act said last
        ("install sane-airscan", ["Install sane-airscan.", "sudo apt install sane-airscan, done."], True),
        ("Send email to landlord", ["Email the landlord.", "I already emailed him last week."], True),  # light verb
        ("Read the novel", ["Read the novel by March.", "Finished? Yes, we read it last month."], True),
        ("order pads", ["Order pads.", "I haven't ordered the pads yet."], False),  # negated
        ("order pads", ["Order pads.", "I'll order the pads tomorrow."], False),  # a plan
        ("order pads", ["Order pads.", "Ordered the pads?"], False),  # a question
        ("email the vet", ["Email the vet.", "The vet emailed me back."], False),  # the vet acted
        ("sign the form", ["Sign the form.", "It goes in once you've signed it."], False),  # a case to come
        ("Read the novel", ["Read the novel by March.", "Read it slowly."], False),  # "read" alone: advice
        ("clean the rotor", ["Clean the rotor.", "I cleaned the chain."], False),  # another thing
        ("order pads", ["Order pads.", "I'm ordering a chain too.", "ordered, arrive thurs"], False),  # the chain's
        # the sentence the item was taken from reports it (sixth set, seen: car_insurance_renewal)
        ("switch off auto-renewal", ["I've just logged in and switched off auto-renewal, it ends on 14 May."], True),
        ("switch off auto-renewal", ["Make sure you switch off auto-renewal.", "I've switched it off."], True),
        ("switch off auto-renewal", ["I haven't switched off auto-renewal yet."], False),  # negated
        ("switch off auto-renewal", ["Once you've switched off auto-renewal, buy the new policy."], False),  # to come
        ("switch off auto-renewal", ["Have you switched off auto-renewal?"], False),  # a question
        # a doubled consonant, "-ied", and "it's" before the form with the thing named just before
        ("cancel the gym membership", ["I need to cancel the gym membership.", "Call them.",
                                       "It's cancelled now, they were fine about it."], True),
        ("copy the poem into the card", ["Copy the poem into the card.", "I copied the poem in last night."], True),
        ("cancel the gym membership", ["I need to cancel the gym membership.", "Is it cancelled?"], False),
        ("cancel the gym membership", ["I need to cancel the gym membership.", "It's not cancelled yet."], False),
        ("cancel the gym membership", ["Cancel the gym membership.", "The flight to Rome is delayed.",
                                       "The hotel is fine.", "The car is booked.", "It's cancelled."], False),  # too far
    ],
)
def test_reported_done(item: str, later: list[str], done: bool) -> None:
    """Issue 21, point 1: a later sentence reports the item's own act in the past."""
    assert acts.reported_done(item, later, statements.tells) is done


@pytest.mark.parametrize(
    ("sentence", "after"),
    [
        ("need new laptop for uni", True),  # terse: the "I" left out
        ("want a quiet place to study", True),
        ("I need a refill", True),
        ("Want me to draft it?", False),  # an offer, asked
        ("needless to say it works", False),
        ("The laptop is fine.", False),  # a description
    ],
)
def test_intends(sentence: str, after: bool) -> None:
    """Issue 21, point 1: a goal needs a sentence that states what someone is after."""
    assert statements.intends(sentence) is after


@pytest.mark.parametrize(
    ("item", "question", "answer", "after", "done"),
    [
        ("Read The Overstory", "What were you reading?", "The Overstory.", [], True),
        ("book the Harbour Inn", "Which hotel did you book?", "The Harbour Inn.", ["Sea view too."], True),
        ("order the blue kettle", "What have you ordered?", "The blue kettle.", [], True),  # the perfect
        ("Read The Overstory", "What are you reading?", "The Overstory.", [], False),  # under way now
        ("Read The Overstory", "What will you read next?", "The Overstory.", [], False),  # to come
        ("Read The Overstory", "Did you read The Overstory?", "The Overstory, yes.", [], False),  # names it
        ("Read The Overstory", "What were you reading?", "Not The Overstory.", [], False),  # negated
        ("Read The Overstory", "What were you reading?", "I'll read The Overstory.", [], False),  # says the verb
        ("Read The Overstory", "What were you reading?", "The Overstory.",
         ["We still have to read it."], False),  # still to do
        ("Read The Overstory", "What were you reading?", "The Overstory.",
         ["I still have to read Piranesi."], True),  # another thing still to do
        ("book the Harbour Inn", "Which hotel did you book?", "The Grand.", [], False),  # another thing
    ],
)
def test_answered_done(item: str, question: str, answer: str, after: list[str], done: bool) -> None:
    """Issue 21, point 1: an answer that leaves the verb out says the act in the tense of
    the question it answers."""
    assert progress.answered_done(item, question, answer, after) is done


@pytest.mark.parametrize(
    ("item", "texts", "name"),
    [
        ("Sofia", ["A weekend with two friends, Ewan and Sofia.", "Sofia's never done anything this big."], True),
        ("Ewan and Sofia", ["A weekend with two friends, Ewan and Sofia."], True),
        ("Shakespearean", ["I lean toward the Shakespearean one."], False),  # an adjective of a name
        ("Vegetarian food", ["Vegetarian food please, I'm vegetarian."], False),  # lower case once: a word
        ("Sofia", ["Sofia is coming."], False),  # capitalised only where a sentence opens
        ("Sofia drives", ["A weekend with Sofia."], False),  # more than a name
    ],
)
def test_only_a_name(item: str, texts: list[str], name: bool) -> None:
    assert statements.only_a_name(item, texts) is name


@pytest.mark.parametrize(
    ("item", "names"),
    [("budget_2024_final.xlsx", False), ("Fix the budget sheet", True), ("thx", False), ("leg day", True)],
)
def test_names_something(item: str, names: bool) -> None:
    assert statements.names_something(item) is names


def test_a_status_is_read_where_the_action_is_said() -> None:
    support = ["We got two offers from Nordbank.", "Let's open the Nordbank account then."]
    # where the opening is said, it is planned ("Let's ..."), not done: a next step
    assert standing.placed("completed_steps", support, "open the Nordbank account") == ("next_steps", None)
    assert standing.placed("completed_steps", support) == ("completed_steps", None)  # any sentence


def test_progress_is_the_readings_standing_is_handed() -> None:
    """``model_checkpoint`` hands ``localmem.progress`` to ``standing.unstated`` as its
    ``readings``: each member of ``standing.Readings`` is a function there taking the same
    arguments."""
    members = {n: f for n, f in vars(standing.Readings).items() if inspect.isfunction(f) and n[0] != "_"}
    assert len(members) == 13
    for name, member in members.items():
        wanted = list(inspect.signature(member).parameters)[1:]  # without self
        assert list(inspect.signature(getattr(progress, name)).parameters) == wanted, name


def test_a_step_is_moved_only_by_its_own_action_planned() -> None:
    """Issue 21, point 1: the store moves a model's step to the next steps only on a
    sentence saying that step's action planned, never on the plan of another act."""
    other = ["I'll stick with the honey then and write his symptoms down."]
    assert standing.placed("current_step", other, "ask for more honey") == ("current_step", None)
    assert standing.placed("completed_steps", other, "ask for more honey") == (None, "not said to be done")
    own = ["I'll ask the nurse for more honey tomorrow."]
    assert standing.placed("current_step", own, "ask for more honey") == ("next_steps", None)
    assert standing.placed("completed_steps", own, "ask for more honey") == ("next_steps", None)


@pytest.mark.parametrize(
    ("sentence", "undecided"),
    [
        ("You could paint it white, or leave the brick bare.", True),  # an option offered
        ("Landlords usually ask for two months of rent.", True),  # a generality
        ("The night nurse changed the dressing at six.", True),  # someone else did it
        ("Let's paint it white.", False),
        ("You could paint it white, or leave it; I'll paint it white.", False),  # decided after all
        ("Keep the receipt for the warranty.", False),  # advice, no option
    ],
)
def test_undecided(sentence: str, undecided: bool) -> None:
    assert statements.undecided(sentence) is undecided


def test_a_part_that_advises_is_decided() -> None:
    assert not statements.undecided("Plumbers often use copper; ask yours which pipe fits.")


@pytest.mark.parametrize(
    ("sentence", "status"),
    [
        ("Let's book the cabin then.", "plan"),  # a first person's proposal: still to do
        ("Let\u2019s paint it white.", "plan"),
        ("Let's see what the landlord says.", None),  # a filler, no plan
        ("The app lets you export the data.", None),  # "lets", a verb
    ],
)
def test_lets_is_a_plan(sentence: str, status: str | None) -> None:
    assert statements.status(sentence) == status


@pytest.mark.parametrize(
    ("sentence", "status"),
    [
        ("The user decided to overpay the mortgage by 340 a month.", None),  # the decision, not the act
        ("The user wanted to try writing a haiku.", None),
        ("She agreed not to drive until the check.", None),
        ("The user decided to book the cabin on Friday.", "plan"),  # the rest of the sentence plans it
        ("The user booked the cabin for Friday.", "done"),  # the act itself
        ("The user decided on the cabin.", "done"),  # a decision with no act after "to"
    ],
)
def test_a_decision_to_act_claims_no_status_of_the_act(sentence: str, status: str | None) -> None:
    assert statements.claimed(sentence) == status


@pytest.mark.parametrize(
    ("item", "content"),
    [("thx", False), ("k", False), ("same as always", False), ("yep. ok", False), ("leg day", True),
     ("rent 1450", True)],
)
def test_has_content(item: str, content: bool) -> None:
    assert statements.has_content(item) is content


@pytest.mark.parametrize(
    ("item", "action"),
    [("student loans", False), ("car loan", False), ("gas bill due mon", False),
     ("Aspirin 75 mg once a day", False), ("sweep the floor", True), ("send w rent", True),
     ("dice them small", True), ("The shed can wait until spring", True),
     ("regrout the bathroom", True), ("regrout bathroom", False)],
)
def test_names_action(item: str, action: bool) -> None:
    assert verbs.names_action(item) is action


def test_a_word_the_conversation_uses_as_a_verb_opens_an_action() -> None:
    said = ["I want to regrout the bathroom.", "We regrouted the kitchen last year."]
    assert verbs.names_action("regrout bathroom", said[:1])
    assert verbs.names_action("regrout bathroom", said[1:])
    assert not verbs.names_action("bathroom tiles", said)


def test_a_copied_transcript_line_is_no_item() -> None:
    said = ["pizza tonight?", "Great. Ask for the veggie half.", "and a veggie half"]
    assert statements.copied_line("user: and a veggie half", said)
    assert statements.copied_line("Great. Ask for the veggie half.", said)
    assert not statements.copied_line("Ask for the veggie half.", said)  # a sentence of it


def test_an_item_that_cuts_the_action_off_its_sentence_drops_it() -> None:
    said = "Book the ferry tickets online a week ahead."
    assert verbs.drops_the_action("ferry tickets online a week ahead", said)
    assert not verbs.drops_the_action("Book the ferry tickets online", said)  # the action kept
    long = "Check the harbour board too: the ferry may leave early on Sundays."
    assert not verbs.drops_the_action("the ferry may leave early on Sundays", long)  # its own clause


@pytest.mark.parametrize(
    ("reply", "refused"),
    [
        ("Please don't: a withdrawal before 59 is taxed.", True),
        ("No, keep them federal.", True),
        ("Probably not. A 7-day pass costs 50,000 yen.", True),
        ("Honestly, I wouldn't.", True),
        ("Not quite. Before a run, a dynamic warm-up is better.", True),  # a hedged no
        ("Not necessarily. A warm opening works just as well.", True),
        ("Not only that, book the ferry too.", False),
        ("No problem, here it is.", False),
        ("Don't worry, that works.", False),
        ("Don't wait too long though.", False),  # hurries it along
        ("I wouldn't worry about it.", False),
        ("Sure, go ahead.", False),
    ],
)
def test_refuses(reply: str, refused: bool) -> None:
    assert replies.refuses(reply) is refused


@pytest.mark.parametrize(
    ("sentence", "against"),
    [
        ("Pulling money out early is not a good idea.", True),
        ("I wouldn't refinance federal loans.", True),
        ("Refinancing is a good idea at 4%.", False),
        ("I wouldn't worry, refinancing is fine.", False),
    ],
)
def test_advises_against(sentence: str, against: bool) -> None:
    assert replies.advises_against(sentence) is against


@pytest.mark.parametrize(
    ("sentence", "case"),
    [
        ("If it drops below 70 mg/dL, he should take 15 grams of sugar.", "it drops below 70 mg/dL"),
        ("Take the umbrella, in case it rains.", "it rains"),
        ("Call the vet now unless he vomits.", "he vomits"),
        ("Reserve one when you book Osaka.", None),  # when, not whether
        ("Take the train to Sintra.", None),
    ],
)
def test_condition(sentence: str, case: str | None) -> None:
    assert replies.condition(sentence) == case


@pytest.mark.parametrize(
    ("reply", "item", "agreed"),
    [
        ("OK.", "switch to water or tea", True),
        ("Yes, please request it.", "request the refill", True),
        ("Sure, the tasca it is.", "try a tasca in Mouraria", True),
        ("Great, we booked the flights too.", "try a tasca in Mouraria", False),  # something else
        ("OK, but not tonight.", "call the plumber tonight", False),
        ("Which one?", "book a hotel", False),
    ],
)
def test_agrees(reply: str, item: str, agreed: bool) -> None:
    assert replies.agrees(reply, item) is agreed


@pytest.mark.parametrize(
    ("reply", "accepted"),
    [("Yes! That's much better.", True), ("Love it.", True), ("I like it, but the end is flat.", False),
     ("The last line feels flat though.", False)],
)
def test_assents(reply: str, accepted: bool) -> None:
    assert replies.assents(reply) is accepted


@pytest.mark.parametrize(
    ("text", "piece"),
    [
        ("Here's a start: 'The river keeps your name / I carry it like rain.'", True),
        ("Try this:\nRoses are red\nViolets are blue\n", True),
        ("Maybe: 'Under the oak where we carved the summer in.'", False),  # one line
        ("Tips:\n1. Open with the role\n2. Name one result\n", False),  # a list of advice
        ("Use and/or in the contract; yes / no answers are fine.", False),  # not quoted
    ],
)
def test_presents_piece(text: str, piece: bool) -> None:
    assert replies.presents_piece(text) is piece


@pytest.mark.parametrize(
    ("item", "sentence", "modifier"),
    [
        ("quiet", "I like quiet, open endings more than twists.", True),
        ("dark", "I prefer dark chocolate.", True),
        ("tea", "I like tea, coffee and cake.", False),  # an item of a list
        ("Shakespearean", "I lean toward the Shakespearean one.", False),
        ("relaxed", "We'd like it to be relaxed.", False),
        ("open endings", "I like quiet, open endings.", False),  # two words: no lone word
    ],
)
def test_modifies(item: str, sentence: str, modifier: bool) -> None:
    assert statements.modifies(item, sentence) is modifier


@pytest.mark.parametrize(
    ("item", "content"),
    [("Cheery thx for the chat!", False), ("thanks so much", False), ("Thanks for all your help.", False),
     ("Thanks, I'll print the plan.", True), ("Thanks for the ride to the airport on May 3.", True)],
)
def test_a_thanks_and_what_it_thanks_for_say_nothing(item: str, content: bool) -> None:
    assert statements.has_content(item) is content


@pytest.mark.parametrize(
    ("item", "unbound"),
    [
        ("Book Leeds for four nights", "4"),  # Leeds has two; four are York's
        ("Book York for four nights", None),
        ("Reserve the boat tour for June 12", "12"),  # June 12 is the museum day
        ("Visit the museum on June 12", None),
        ("Pay the 401(k) loan back", None),  # a number in a name is no value
        ("Buy 9 lanterns", None),  # a number said nowhere: grounding's to judge
    ],
)
def test_unbound_value(item: str, unbound: str | None) -> None:
    chat = [
        "We play two shows in Leeds, then four in York.",
        "I'll book York for four nights.",
        "The museum is on June 12.",
        "The boat tour runs every day in June.",
    ]
    assert standing.unbound_value(item, chat) == unbound


def test_only_if() -> None:
    advice = ["If the venue cancels, ask for the deposit back within 7 days."]
    assert standing.only_if("ask for the deposit back", advice, advice)
    assert not standing.only_if("ask for the deposit back if the venue cancels", advice, advice)  # carries it
    came = [*advice, "The venue cancels the show, sadly."]
    assert not standing.only_if("ask for the deposit back", advice, came)
    plain = ["Ask for the deposit back."]
    assert not standing.only_if("ask for the deposit back", plain, plain)


@pytest.mark.parametrize(
    ("reply", "declined"),
    [
        ("I'm using my dad's old ones, they're fine. Not spending 300 bucks on new ones lol", True),
        ("No, I don't want retries hiding real bugs.", True),  # refuses, too
        ("Hmm. I don't want another subscription.", True),
        ("Already have one", True),
        ("I'm not paying for a second ticket.", True),
        ("Yes! I don't want to miss the herons.", False),  # a yes first
        ("I'm not sure yet, what would you pick?", False),
        ("Nothing wrong with it. I want the 8x42 ones.", False),
    ],
)
def test_declines(reply: str, declined: bool) -> None:
    assert replies.declines(reply) is declined


def test_declined() -> None:
    """``standing.declined``: the thing an item acts on, offered and turned down by the
    party that never names it again."""
    texts = {
        0: "Do you keep a list?",
        1: "I use the Merlin app.",
        2: "Have you thought about getting binoculars?",
        3: "I'm using my dad's old ones. Not spending 300 bucks on new ones.",
        4: "Fair, old binoculars are often very good.",
    }
    roles = ["assistant", "user", "assistant", "user", "assistant"]
    assert standing.declined("get binoculars", texts, roles)
    assert standing.declined("get binoculars", texts)  # the parties by turn
    assert not standing.declined("get a field guide", texts, roles)  # never offered
    taken = {**texts, 5: "Actually my dad wants his back, I'll get binoculars after all."}
    assert not standing.declined("get binoculars", taken, [*roles, "user"])
    agreed = {**texts, 3: "Yes, I want binoculars. Not spending 300 bucks though."}
    assert not standing.declined("get binoculars", agreed, roles)


def test_ruled_out() -> None:
    said = ["A forum said to sell my old guitar."]
    assert replies.ruled_out(said, ["I wouldn't: renting costs less."])
    assert not replies.ruled_out(said, ["Good idea, it pays for the studio."])
    assert replies.ruled_out(["Selling it now is not a good idea."], [None])
    assert not replies.ruled_out([], [])


@pytest.mark.parametrize(
    ("item", "accepted"),
    [("write the refrain", True), ("write the verse", False), ("write a lullaby for my niece", False)],
)
def test_accepted_later(item: str, accepted: bool) -> None:
    turns = [
        ("user", "I'm writing a lullaby for my niece and I'm stuck on the refrain."),
        ("assistant", "What mood should the refrain have?"),
        ("user", "Soft."),
        ("assistant", "Here's a draft: 'Hush now, the moon is near / the night will hold you here.'"),
        ("user", "The second line is clunky though."),
        ("assistant", "Try: 'the night will keep you here.'"),
        ("user", "Yes! Much better. Next I need to write the verse."),
        ("assistant", "Maybe start with: 'Little boats drift out to sea.'"),
        ("user", "Love it."),
    ]
    assert progress.accepted_later(item, turns) is accepted


def test_asking_whether_is_no_condition() -> None:
    assert replies.condition("Ask if they take cards.") is None
    assert replies.condition("Check if the oven is hot.") is None  # "check if": whether
    assert replies.condition("Take another dose if the pain comes back.") == "the pain comes back"


@pytest.mark.parametrize(
    ("sentence", "suggestion"),
    [
        ("For dinner, try a tasca in Mouraria.", True),
        ("Maybe a mesh repeater would help.", True),
        ("You could try the regional train.", True),
        ("Set up an automatic transfer on payday.", False),  # an instruction
        ("I tried the new cafe.", False),
    ],
)
def test_suggests(sentence: str, suggestion: bool) -> None:
    assert replies.suggests(sentence) is suggestion


@pytest.mark.parametrize(
    ("reply", "item", "taken"),
    [
        ("I set it to channel 44 and it's been stable.", "Try setting the 5 GHz band to a fixed channel", True),
        ("Sure, the tasca it is.", "try a tasca in Mouraria", True),
        ("Great, we booked the flights too.", "try a tasca in Mouraria", False),
        ("The channel was 36 before.", "Try setting the 5 GHz band to a fixed channel", False),  # not their doing
    ],
)
def test_takes_up(reply: str, item: str, taken: bool) -> None:
    assert replies.takes_up(reply, item) is taken


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120), st.text(max_size=120), st.lists(st.text(max_size=80), max_size=4))
def test_the_new_readings_never_raise(item: str, sentence: str, chat: list[str]) -> None:
    replies.refuses(sentence), replies.advises_against(sentence), replies.condition(sentence)
    replies.assents(sentence), replies.agrees(sentence, item), replies.takes_up(sentence, item)
    replies.suggests(sentence), replies.presents_piece(sentence), statements.modifies(item, sentence)
    standing.unbound_value(item, chat), standing.only_if(item, [sentence], chat)
    replies.ruled_out([sentence], [item]), progress.accepted_later(item, [("assistant", s) for s in chat])
    replies.declines(sentence), standing.declined(item, dict(enumerate(chat)))
    used_up(item, chat)


@pytest.mark.parametrize(
    ("item", "unsaid"),
    [
        ("Change the train to the 2 pm train", True),  # the Uber was changed, for the train
        ("Move the check-in to May 5", False),  # "move your check-in to May 5"
        ("Switch the Uber to the train", False),  # "instead of an Uber": the Uber was left
        ("Change the ferry to the 9 am one", False),  # "from the ferry to the bus": the ferry was changed
        ("Switch to the train", False),  # no thing said changed
        ("Take the 2 pm train", False),  # no change
    ],
)
def test_changes_unsaid(item: str, unsaid: bool) -> None:
    """Issue 21, point 1: an item changing a thing needs a clause putting that thing on
    the side a change leaves, not on the side it takes."""
    texts = [
        "Change of plan for getting to Sintra: I'll take the train from Rossio instead of an Uber.",
        "Ask the hotel to move your check-in to May 5.",
        "We went from the ferry to the bus last year.",
    ]
    assert statements.changes_unsaid(item, texts) is unsaid


SPEECH = 'Fixed:\n\n"Right, everyone. Dominic joined nine years ago. Raise your glasses."'


@pytest.mark.parametrize(
    ("item", "texts", "roles", "drafted"),
    [
        # a speech the assistant quoted whole as a paragraph, whatever introduces it, and a
        # later quote of its line (sixth set, seen: leaving_speech)
        ("raise your glasses", [SPEECH, 'End on "raise your glasses", then hand over the present.'],
         ["assistant", "assistant"], True),
        ("raise your glasses", [SPEECH], ["assistant"], True),
        # the same words said outside any quoted piece
        ("raise your glasses", [SPEECH, "When you finish, raise your glasses high."], ["assistant", "user"], False),
        # a paragraph the user quotes is someone's text (an email): what it asks may be theirs to do
        ("send the receipts", ['The landlord wrote:\n\n"We will keep 200 pounds for cleaning. Please send the '
                               'receipts by Friday."'], ["user"], False),
        # a quote of words that are no piece's line ("may contain" on a label) is the chat's
        ("check every label for may contain", ['Check every label for "may contain" warnings.'], ["assistant"], False),
        # one quoted sentence is no paragraph-long piece
        ("book the table", ['She said "book the table" and left.'], ["assistant"], False),
    ],
)
def test_only_drafted(item: str, texts: list[str], roles: list[str], drafted: bool) -> None:
    assert replies.only_drafted(item, texts, roles=roles) is drafted


@pytest.mark.parametrize(
    ("item", "later", "met"),
    [
        # sixth set, seen: terse_tap
        ("grub screw needs a tiny allen key", ["usually 2.5mm.", "got one. lever off"], True),
        ("the bike needs a new chain", ["Bought the chain this morning."], True),
        ("grub screw needs a tiny allen key", ["cheap set from any hardware shop if u dont have one"], False),
        ("grub screw needs a tiny allen key", ["I'll get one tomorrow."], False),  # a plan
        ("grub screw needs a tiny allen key", ["got one?"], False),  # a question
        ("grub screw needs a tiny allen key", ["got it, thanks"], False),  # understood, not had
        ("grub screw needs a tiny allen key", ["got the lever off"], False),  # another thing
        ("undo the grub screw", ["got one. lever off"], False),  # no need stated
        ("the tap needs a new cartridge", ["I've got one recommendation: the Grohe one."], False),  # not the thing
    ],
)
def test_need_met(item: str, later: list[str], met: bool) -> None:
    assert progress.need_met(item, later) is met
