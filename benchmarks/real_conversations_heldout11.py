"""Six more held-out conversations for benchmarks/real_models.py (issue 21, eleventh set).

Written and recorded on the three real models before their answers were labelled or replayed,
by a writer who did not read the checks or the rules that build the store's own context, so
that both are measured on chats they were never tuned on: a boy of 6 on amoxicillin for an ear
infection (his weight corrected, the dose changed by the GP, the school nurse's email as tool
output, a rash that turned out to be chickenpox, his grandmother looking after him); a house move
from Leeds to York (the removal van moved a day and repriced, a piano that will not go up the new
stairs, a piano mover's quote as tool output, selling the piano dropped, a brother who can no
longer help); an Alembic migration failing in CI (pytest's failures as tool output, the
assistant's first fix wrong, a teammate fixing one of the two failing tests, squashing the
migrations dropped); a family planning their mother's 70th (a pub turned down, the date moved,
who brings what, an RSVP export as tool output, a cake already made, a bouncy castle dropped);
terse messages about a dishwasher that will not drain (an error code, a repair booked and moved,
buying a new one dropped, the repair done); and a used car sold privately (the price dropped, a
scam buyer, the MOT history as tool output, a viewing moved, a tyre replaced, an offer agreed
but not yet paid). About sixteen messages each, user first; their labels are in
benchmarks/real_models_labels_heldout11.json.

A message is its text (its role alternates, user first) or a ``(role, text)`` pair, as in
benchmarks/real_conversations.py.
"""

from __future__ import annotations

CONVERSATIONS_11: dict[str, list[str | tuple[str, str]]] = {
    "amoxicillin_school_nurse": [
        ("user", "My son Oscar is 6 and the GP says he has an ear infection. She prescribed amoxicillin liquid, 250 mg in 5 ml, 5 ml three times a day for 5 days. He's about 16 kg. That seems like not much for a 6 year old?"),
        ("assistant", "Children's doses go by age band or by weight. At 16 kg, 250 mg three times a day is 750 mg a day, about 47 mg per kg per day, which is within the usual range for an ear infection, so it looks right for that weight. Give the doses spread through the day and finish the course even if he seems better after a couple of days."),
        ("user", "Just weighed him on our scales, he's 21 kg, not 16. The 16 was from his check-up last year."),
        ("assistant", "That changes the sum: at 21 kg, 750 mg a day is about 36 mg per kg, at the low end. Don't change the dose yourself, though. Ring the pharmacy or the GP with his real weight and ask them to confirm it, because the usual dose for his age band may be higher."),
        ("user", "Pharmacist rang the GP. It's been changed to 10 ml three times a day, so 500 mg a dose. Still 5 days. They put a new label on the bottle."),
        ("assistant", "Good, so 10 ml (500 mg) three times a day for 5 days. Use the oral syringe from the pharmacy rather than a kitchen spoon, shake the bottle before each dose, and keep it in the fridge."),
        ("user", "He's at school 8:45 to 3:15. Does the school need to give one of the doses?"),
        ("assistant", "Not for three times a day: the doses don't have to be exactly 8 hours apart, just spread over his waking day. Before school, after school and at bedtime works, for example 7:30am, 3:30pm and 8pm. Let the school know he's on antibiotics anyway."),
        ("user", "Emailed the school, the nurse replied:"),
        ("tool", "From: Mrs J. Patel, School Nurse, Hillside Primary\nTo: Hannah Reid\nSubject: Re: Oscar Reid (Year 2) - antibiotics\nThank you for letting us know. As Oscar's amoxicillin is three times a day, please give all doses at home: staff can only give prescribed medicines that are taken four times a day. Please tell us straight away if he develops a rash or any reaction. Please also be aware we have had two cases of chickenpox in Year 2 this week."),
        ("assistant", "That fits the plan: all three doses at home, none at school. Two things from her note. A rash while on amoxicillin can be an allergic reaction, so if one appears, call the GP or 111 before giving the next dose, and call 999 if his lips or face swell or he has trouble breathing. And with chickenpox in his class, keep an eye out for spots."),
        ("user", "Day 3. He's got a few red spots on his tummy this morning. No temperature, eating fine. I gave the 7:30 dose before I noticed."),
        ("assistant", "Hold the afternoon dose until someone has looked at him. Ring the GP this morning, or 111, and describe the spots: they can tell whether it's chickenpox, a viral rash or a reaction to the amoxicillin. If his face or lips swell or he struggles to breathe, call 999."),
        ("user", "GP saw him at 11. It's chickenpox, not the antibiotic. Carry on with the amoxicillin and finish it Sunday. He's off school till the spots crust over. My mum Brenda is having him tomorrow and Friday."),
        ("assistant", "Good that it isn't a reaction. So the course carries on and ends Sunday, and he stays home until every spot has crusted over, usually about five days after they appear. Give your mum the dose times and the syringe, and tell her not to give him ibuprofen while he has chickenpox: paracetamol is the one for a temperature or discomfort."),
        ("user", "written it all on the fridge for her. emailed Mrs Patel about the chickenpox too"),
    ],
    "removal_van_piano": [
        "We're moving from Leeds to York on Friday 14 March. Booked a Luton van with a driver from Swift Removals for 8am, £420. Three-bed house, plus my husband Tom's upright piano. Anything I'm forgetting?",
        "A few things people often miss: take meter readings on the day at both houses, set up a Royal Mail redirection, tell both councils for council tax, book the broadband at the new place now because it can take two weeks, and pack a first-night box with kettle, mugs, loo roll, chargers and bedding. Check there's space for a Luton van to park at both ends. And ask Swift whether they move pianos: many firms don't, or only with a specialist.",
        "Rang Swift, they don't do pianos. And they've had a van break down, so they've moved us to Saturday 15th, same time, and knocked it down to £380.",
        "So Swift on Saturday 15 March at 8am for £380, piano not included. As long as you complete before then, a day later is often easier, since completion can run late in the afternoon. For the piano you need a piano remover; get a quote and measure the new stairs before you book.",
        "Completion is Friday so Saturday's fine. The piano was going in the back bedroom upstairs. Measured: it's 148 cm tall and 62 cm deep, the stairs are 80 cm wide with a tight turn at the top.",
        "The depth will go through 80 cm, but an upright is carried on its end up a stair, so the 148 cm height has to swing round that turn, and that's usually where it sticks. Send the remover photos of the stairs and the landing and let them decide before you promise it a room.",
        "Sent photos to a piano firm, this came back:\nKeys & Co Piano Removals - quote 2291. Upright piano, Leeds LS6 to York YO24. Ground floor to ground floor, 2 men, £295 including goods-in-transit insurance. First floor via staircase: not possible from photos, turn at top of stairs too tight. Earliest date: Monday 17 March, 10am.",
        "So upstairs is out: they'll only do ground floor to ground floor, £295, on Monday 17 March at 10am, two days after your move. Is there a room downstairs it could go in? Someone needs to be at both houses that morning, and keep the path clear at the old one, since it'll be empty by then apart from the piano.",
        "Tom says the dining room. Booked Keys & Co for the Monday. I was going to sell the piano honestly, it's barely played, but Tom won't hear of it so it's coming.",
        "The dining room is fine: put it against an inside wall, away from radiators and the French windows, and give it two or three weeks to settle before you get it tuned.",
        "Redirected the post today, £38 for 3 months. Haven't done the councils yet.",
        "Good. For council tax, Leeds needs your leaving date and your forwarding address for the final bill, and York needs the date you move in; both can be done online in a few minutes.",
        "Oh and my brother Kev was going to help load on the Saturday but he's on a shift now. Swift's driver says he'll bring a second man for £60 extra.",
        "Then Swift is £440 in all, the £380 plus £60 for the second man, which is probably worth it for a three-bed. Without Kev, have everything boxed and the beds stripped on Friday night so they can just load.",
        "yep said yes to the second man. packed the kitchen last night, 14 boxes. still the loft to do",
        "The loft is always the worst, so start there tomorrow. Label every box with its room at the new house on the side, not the top, so you can read it when they're stacked.",
    ],
    "alembic_ci_failure": [
        ("user", "CI is red on my PR that adds an Alembic migration for a new invoices.due_date column. Locally everything passes. Here's the test step:"),
        ("tool", "Run pytest -q\n....F......F.\n=================================== FAILURES ===================================\n_____________________________ test_create_invoice ______________________________\ntests/test_invoices.py:31: in test_create_invoice\n    db.flush()\n...\nE   sqlalchemy.exc.ProgrammingError: (psycopg2.errors.UndefinedColumn) column \"due_date\" of relation \"invoices\" does not exist\nE   LINE 1: INSERT INTO invoices (customer_id, amount_pence, due_date) VALUES ...\n_____________________________ test_overdue_report ______________________________\ntests/test_reports.py:58: in test_overdue_report\n    assert len(report.rows) == 2\nE   assert 3 == 2\n=========================== short test summary info ============================\nFAILED tests/test_invoices.py::test_create_invoice - sqlalchemy.exc.ProgrammingError\nFAILED tests/test_reports.py::test_overdue_report - assert 3 == 2\n2 failed, 11 passed in 4.21s\nError: Process completed with exit code 1."),
        ("assistant", "The first failure says the due_date column doesn't exist in the CI database, so the migration isn't being applied there. Add a step that runs alembic upgrade head before pytest in the workflow and it should pass."),
        ("user", "It's already there. The Migrate step runs alembic upgrade head and logs 'Running upgrade 3f2a91c -> 7b1e0d4, add invoices due_date'. So that's not it."),
        ("assistant", "Sorry, I jumped to that. If the upgrade runs, the column exists in the database the migrate step talks to, so the tests are probably talking to a different one. Check which URL your conftest uses, and whether the test fixtures build their tables themselves, for example with Base.metadata.create_all on an older model, instead of migrating."),
        ("user", "conftest uses TEST_DATABASE_URL which points at invoices_test. The migrate step uses DATABASE_URL, which is invoices. So two different dbs."),
        ("assistant", "That's the first failure then: the migration runs on invoices and the tests run on invoices_test, which never gets the new column. Either run the migrate step against TEST_DATABASE_URL too, or better, have a session-scoped fixture in conftest run alembic upgrade head on the test database, so local runs and CI do the same thing."),
        ("user", "Priya on my team says she'll do the conftest fixture, she wrote that conftest. I'll look at the overdue report one."),
        ("assistant", "For that one, assert 3 == 2 means the report found three overdue invoices where the test expects two. Look at the boundary: an invoice due exactly today, or a timezone difference between the CI runner and your machine, which would also explain why it passes locally."),
        ("user", "Priya pushed her fixture, CI reran:"),
        ("tool", "Run pytest -q\n...........F.\n=================================== FAILURES ===================================\n_____________________________ test_overdue_report ______________________________\ntests/test_reports.py:58: in test_overdue_report\n    assert len(report.rows) == 2\nE   assert 3 == 2\n=========================== short test summary info ============================\nFAILED tests/test_reports.py::test_overdue_report - assert 3 == 2\n1 failed, 12 passed in 4.87s"),
        ("assistant", "Progress: test_create_invoice passes now that the test database is migrated, so only the overdue report is left."),
        ("user", "Found it. The fixture makes one invoice due today and the query has due_date <= now(). The spec says an invoice due today isn't overdue yet. Changed it to due_date < current_date, passes locally."),
        ("assistant", "That's the right fix for that spec, and comparing dates with current_date instead of a timestamp with now() also removes the time-of-day part. Add a test that names the case, an invoice due today is not overdue, so the rule is written down. One warning: current_date is in the database session's timezone, so make sure that's UTC in CI and production alike."),
        ("user", "I was going to squash the three migrations on this branch into one before merging, but Dan says two of them are already on staging, so I'm leaving them alone."),
        ("assistant", "Dan's right: never rewrite a migration that has already run on a shared database, because Alembic will find a revision it doesn't know there. Leave them as they are."),
        ("user", "pushed the overdue fix, CI running"),
    ],
    "mum_seventieth_party": [
        "Planning mum's 70th with my brother Rob and my sister Ellie. Her birthday's Sunday 8 June. We were thinking a lunch in the function room at the Fox & Hounds, about 30 people. Can you help me keep track of who's doing what?",
        "Happy to. The main pieces are the venue, the invitations, food and drink, the cake, decorations, and getting your mum there. Once you've split those between the three of you, I can keep a list and we can tick things off.",
        "The Fox & Hounds want £150 room hire plus a £600 minimum spend and they won't let us bring our own cake. We've said no. Rob's neighbour Alan has a big garden and a gazebo and says we can use it, so it's a garden party there instead.",
        "A garden party is more relaxed and much cheaper. The one thing to plan is rain: Alan's gazebo, plus a few borrowed ones or a fallback of moving indoors at Rob's. Check toilets and parking too, since 30 people will be using his house.",
        "So: Ellie does the cake, mum's favourite lemon drizzle, a big one. Rob does the barbecue. I do the invitations and the drinks. Auntie Pat has offered to do a photo board of mum through the years.",
        "Got it. Ellie: a large lemon drizzle cake. Rob: the barbecue. You: invitations and drinks. Auntie Pat: a photo board. Still unassigned: decorations, plates and cutlery, and who brings your mum.",
        "Change of date. Alan's away on the 8th so it's Saturday 7 June now, 1pm.",
        "Saturday 7 June at 1pm, then. Worth sending the invitations soon so the date change doesn't confuse anyone who already heard about the 8th.",
        "Invitations done, 32 on the family WhatsApp and cards posted to four of the older relatives. Exported the replies from the form so far:\nRSVP export (Google Forms), 3 May 21:14\nYes: 21 | No: 4 | No reply: 11\nDietary notes: vegetarian x2 (Sam, Jo); coeliac (Uncle Des); nut allergy (Maya, age 9)\nComments: Pat: bringing the photo board Friday night to Alan's",
        "21 yes so far with 11 to hear from, so plan for about 28 to 30. Two things from the dietary notes matter. Tell Ellie about Maya's nut allergy before she bakes, and make sure there's something without nuts for her to eat. And for Uncle Des, coeliac means gluten-free food kept apart on the barbecue: separate tongs, foil or a separate grill, and gluten-free buns, because cross-contamination can make him ill.",
        "Ellie's already made the cake and frozen it! She says no nuts in it. Also we were going to keep the whole thing a surprise from mum but Rob let it slip on the phone, so it's not a surprise anymore lol",
        "Then one less thing to keep secret, and your mum can dress for a garden party. With the cake done, Ellie could take on the decorations.",
        "Rob wanted to hire a bouncy castle for the grandkids. Ellie and I said no, too much faff in someone else's garden, and he's agreed to drop it.",
        "Probably wise in a neighbour's garden. Garden games like swingball or a box of bubbles keep children happy with no hire or insurance.",
        "drinks ordered from Majestic, collecting them Friday 6th. still need someone to pick mum up",
        "Then the one job open is bringing your mum on the Saturday. Your Auntie Pat is already going to Alan's on the Friday night, so she may not be free to drive on the day, but Ellie, with her cake done, might be.",
    ],
    "terse_dishwasher": [
        "dishwasher not draining. bosch, about 6 yrs old",
        "Start with the filter at the bottom: twist it out and rinse it. Check the drain hose behind the machine isn't kinked and the sink waste it drains into isn't blocked. Is there an error code on the display?",
        "E24",
        "On a Bosch, E24 is a drain fault: usually a blocked filter, a kinked hose or a problem with the drain pump. Do the filter first.",
        "filter was gross. cleaned. still E24",
        "Next is the pump cover under the filter. Switch it off at the wall, bail out the water, unclip the little cover and check nothing is jamming the pump, often a bit of glass or a cherry stone.",
        "found a bit of glass. took it out. still won't drain, just hums",
        "A hum with no draining usually means the pump motor itself is failing. The part is about £40 to £70 if you're handy; otherwise it's an engineer.",
        "booked a bosch engineer for thurs. £119 call-out incl first 30 min",
        "OK, Thursday. Don't run it until then, and leave the filter out of the way so it isn't sitting in dirty water.",
        "they moved it to mon, 8-12",
        "Monday 8 to 12 then. If you get a new time slot by text, check it's the morning one.",
        "was gonna just buy a new one tbh but partner says fix it",
        "At six years old a pump is a sensible repair. It's worth replacing only if the engineer finds something bigger, like the control board.",
        "engineer came. pump replaced. £164 total. works",
        "Good result, cheaper than a new machine. Run the filter under the tap every couple of weeks and it should keep going.",
    ],
    "private_car_sale": [
        ("user", "Selling my 2016 Ford Fiesta privately, 68,000 miles. Listed it on AutoTrader at £6,200 last week. Two messages, no viewings. Is the price off?"),
        ("assistant", "For a 2016 Fiesta at 68,000 miles, £6,200 is at the top of the range for a private sale, and a week with no viewings suggests buyers think so too. Look at what the same trim and mileage are listed for nearby and price just under them; £5,700 to £5,900 is likely where it sells."),
        ("user", "Dropped it to £5,800. A guy called Marcus is coming Saturday at 11 to see it."),
        ("assistant", "Good. Have the V5C logbook, the service book and the MOT certificate ready. Only let him test drive if he shows you his own insurance covers him to drive other cars, and go with him. Keep the keys in your hand when you're not in the car."),
        ("user", "Someone else messaged, says he's working abroad, will pay by PayPal and send a courier to collect it"),
        ("assistant", "Be careful: that's a well-known scam. The 'buyer' never sees the car, and the PayPal payment is fake or gets reversed after the car has gone. Don't send him your details or agree to a courier; only sell to someone who comes to see it and pays by a bank transfer that has cleared."),
        ("user", "ignored him. Checked the MOT history online:"),
        ("tool", "MOT history, FORD FIESTA ZETEC, first registered 2016\nTest date: 14 February 2025  Result: PASS  Mileage: 66,412\nAdvisories:\n- Nearside front tyre worn close to legal limit (5.2.3 (e))\n- Rear brake pipes slightly corroded (1.1.11 (c))\nExpiry date: 13 February 2026"),
        ("assistant", "Anyone looking at the car can see those two advisories. The tyre is the one a buyer will use to knock the price down, and a new budget tyre costs about £60 fitted, so it's worth replacing before Saturday. The brake pipes are only an advisory; mention them honestly if asked."),
        ("user", "Marcus messaged, can't do Saturday, coming Sunday 2pm instead"),
        ("assistant", "Sunday at 2pm then, which gives you Saturday for the tyre."),
        ("user", "replaced the tyre, £58. I was going to get it valeted as well but not bothering"),
        ("assistant", "A hoover and a wipe of the dashboard yourself does most of what a valet would for a buyer's first impression."),
        ("user", "Marcus came, test drove it, offered 5,500. I said 5,650 and he agreed. He's transferring the money tomorrow and picking it up after work."),
        ("assistant", "Well done. Don't hand over the car, the keys or the V5C until the money has cleared in your account, not just when he says it has been sent. Then tell the DVLA online the same day that you've sold it, and give him the green new keeper slip."),
        ("user", "will do. cancelled the AutoTrader ad"),
    ],
}

# The eleventh held-out set (issue 21): labels in benchmarks/real_models_labels_heldout11.json and,
# for what the store's own context shows, benchmarks/context_labels_heldout11.json.
HELD_OUT_11 = tuple(CONVERSATIONS_11)
