"""Six more held-out conversations for benchmarks/real_models.py (issue 21, tenth set).

Written and recorded on the three real models before their answers were labelled or replayed,
by a writer who did not read the checks or the rules that build the store's own context, so
that both are measured on chats they were never tuned on: a father of 81 started on apixaban
(the pharmacist's warning about ibuprofen and his fish oil, a dose time corrected, a tooth
extraction moved a week, what to do with the morning dose); a couple's flat hunt in Bristol (two
viewings, one flat turned down for mould, an offer countered and a holding deposit, a second
viewing cancelled); a Python dependency conflict (pip's ResolutionImpossible and a failing test
as tool output, the assistant's first fix wrong, a switch to Poetry dropped); a wedding seating
plan (several guests, a divorced aunt and uncle, a guest moved between tables, a plus-one
cancelled, a kids' table dropped, the caterer's deadline moved); a half-marathon training plan
(a running watch's week as tool output, the long run moved to Saturday, a 10k race now skipped
for a sore calf, a session reported done); and small talk over the fence with a neighbour (a
borrowed ladder returned, a barbecue called off, several neighbours). Sixteen messages each,
user first; their labels are in benchmarks/real_models_labels_heldout10.json.

A message is its text (its role alternates, user first) or a ``(role, text)`` pair, as in
benchmarks/real_conversations.py.
"""

from __future__ import annotations

CONVERSATIONS_10: dict[str, list[str | tuple[str, str]]] = {
    "apixaban_dentist": [
        ("user", "My dad Frank is 81 and was just diagnosed with atrial fibrillation. The cardiologist started him on apixaban 5 mg yesterday. He also has a tooth out booked at the dentist on Tuesday 8 April. Does the dentist need to know?"),
        ("assistant", "Yes, definitely tell the dentist before the appointment. Apixaban is an anticoagulant, so he'll bleed more after an extraction. Most dentists don't stop it for a single extraction, but they may ask him to skip or delay a dose on the day and they'll pack and stitch the socket. Apixaban is usually taken once a day, so the timing of that one dose is what matters."),
        ("user", "It's twice a day, not once. Morning and evening, 8am and 8pm. It says so on the box."),
        ("assistant", "You're right, I'm sorry: apixaban is taken twice a day, about 12 hours apart, so 8am and 8pm is correct. That makes the plan for the extraction simpler: a common approach is to miss or delay the morning dose on the day of the procedure and take the evening one as normal, but only if the dentist or his doctor says so. He shouldn't decide to stop it himself; missing doses raises his stroke risk."),
        ("user", "Picked up his prescription this afternoon. The pharmacist printed his med list and went through it with me, here it is"),
        ("tool", "pharmacy_record: patient Frank Doyle, DOB 03/02/1944. Current medicines: apixaban 5 mg tablets, one twice daily (new, started 31/03); bisoprolol 2.5 mg, one in the morning; atorvastatin 20 mg, one at night; omega-3 fish oil 1000 mg capsule (self-purchased, recorded). Pharmacist note: counselled carer on bleeding signs. Advised avoid ibuprofen, naproxen and aspirin for pain: use paracetamol. Review fish oil with GP while on apixaban."),
        ("assistant", "That matches what I'd expect. The important warning from the pharmacist is about painkillers: while he's on apixaban he shouldn't take ibuprofen, naproxen or aspirin, including for the tooth afterwards, because they add to the bleeding risk and can cause stomach bleeds. Paracetamol is the one to use. She also flagged the fish oil, which can add a little to bleeding, to check with his GP. Watch for signs of bleeding: blood in his urine, black stools, nosebleeds that won't stop, or unusual bruising."),
        ("user", "He keeps ibuprofen gel for his knee, is that ok?"),
        ("assistant", "The gel gets into the blood much less than tablets, so it's a smaller risk, but it isn't nothing. Ask the pharmacist or GP whether he can keep using it on the knee; if not, paracetamol tablets are the safe choice."),
        ("user", "Dentist's receptionist rang. They moved the extraction to Tuesday 15 April, 9:30, the dentist is on a course on the 8th. The dentist wants him to skip the 8am apixaban that morning and take the 8pm one as normal."),
        ("assistant", "So Tuesday 15 April at 9:30, no 8am apixaban that day, evening dose as usual at 8pm. Afterwards: bite on the gauze for 20 minutes, no rinsing or hot drinks for 24 hours, paracetamol for pain, and ring the dentist if it's still oozing after a few hours of pressure."),
        ("user", "He was going to carry on with the fish oil till the GP review but he's decided to just stop it now. Threw the capsules out."),
        ("assistant", "That's reasonable, stopping a supplement like fish oil is safe to do without tapering. Mention it at the GP review so his record is updated."),
        ("user", "my sister Aoife will take him to the dentist, I'm working that day"),
        ("assistant", "Good. Give Aoife the plan in writing: no 8am tablet on the 15th, the 8pm one as normal, paracetamol only for pain, and the dentist's number if the bleeding doesn't stop."),
        ("user", "done, texted it to her. Set up his dosette box for the week too"),
    ],
    "bristol_flat_offer": [
        ("user", "Me and my partner Sam are flat hunting in Bristol, budget up to £1,150 a month. We've got two viewings Saturday: a one-bed in Redland at £1,150 and a one-bed in Easton at £1,050. Any tips for what to check at a viewing?"),
        ("assistant", "Check for damp and mould (look behind furniture, in wardrobes and around window frames), water pressure in the shower, how many sockets there are, the phone signal, and what the energy rating on the EPC is. Ask what the bills are likely to be, whether the council tax band is known, when it's available and what the deposit is. Take photos so you can compare afterwards."),
        ("user", "Saw both. Easton was cheaper but the bedroom had black mould all along the window and the agent said it was 'just condensation'. We're not going for that one."),
        ("assistant", "That sounds like a sensible no. Mould along a window is often condensation, but it tells you the place is hard to heat and ventilate, and it rarely goes away in winter. How was Redland?"),
        ("user", "Redland was lovely, bright, second floor, EPC C. Sam wants to offer under the asking. Is offering £1,100 cheeky?"),
        ("assistant", "Not cheeky. In a busy market the landlord may not budge, but £50 under is a normal opening offer, and you can point to being ready to move quickly. Be prepared for a counter-offer and decide beforehand what your top figure is."),
        ("user", "Offered £1,100. Agent came back, landlord wants £1,125 and a 12 month tenancy. We said yes to that."),
        ("assistant", "£1,125 for 12 months is a good result, £25 a month under asking. Next the agent will probably ask for a holding deposit. In England that's capped at one week's rent, which for £1,125 a month is about £259, and it has to go towards the first month's rent or the deposit once you sign."),
        ("user", "they've sent this"),
        ("tool", "From: lettings@harbourside-homes.co.uk\nSubject: 14B Chandos Road, Redland - offer accepted\nRent: £1,125 pcm. Term: 12 months. Move-in: 1 May. Holding deposit: £450, payable within 24h to secure. Tenancy deposit: 5 weeks' rent (£1,298), protected with the DPS. Referencing via Goodlord: please complete within 3 working days."),
        ("assistant", "Hold on before paying that. The holding deposit they're asking for, £450, is more than the legal cap of one week's rent, about £259. Reply politely and ask them to correct it to £259.61; agents sometimes send old templates. The 5-week tenancy deposit of £1,298 is within the legal limit, and they must protect it with the DPS, which they say they will."),
        ("user", "Emailed them, they said sorry, wrong template, corrected it to £259.61. Paid it just now."),
        ("assistant", "Good. Keep the receipt and the email. The referencing is the next step: you'll each need payslips or an employer reference and your previous landlord's details."),
        ("user", "Sam's done his referencing, mine's not done yet, I need my old landlord's email. Also we had a third viewing booked Sunday in Bishopston, cancelled it."),
        ("assistant", "Makes sense to cancel now you have an accepted offer. Try to get your referencing in within the 3 working days, and check the tenancy agreement says 1 May and £1,125 before you sign."),
        ("user", "will do. mum's lending us her car for the move on the 1st"),
    ],
    "pip_pydantic_conflict": [
        ("user", "Our FastAPI service won't install anymore after I bumped pydantic in requirements.txt. This is what pip says:"),
        ("tool", "$ pip install -r requirements.txt\nCollecting fastapi==0.95.2\nCollecting pydantic==2.5.3\nERROR: Cannot install -r requirements.txt (line 1) and pydantic==2.5.3 because these package versions have conflicting dependencies.\n\nThe conflict is caused by:\n    The user requested pydantic==2.5.3\n    fastapi 0.95.2 depends on pydantic!=1.7, !=1.7.1, !=1.7.2, !=1.7.3, !=1.8, !=1.8.1, <2.0.0 and >=1.6.2\n\nERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts"),
        ("assistant", "FastAPI 0.95.2 only supports pydantic 1.x, and you've asked for 2.5.3, so pip can't satisfy both. The quickest fix is to pin pydantic back to the last 1.x release: change the line to pydantic==1.10.13 and reinstall."),
        ("user", "installs now but the tests blow up"),
        ("tool", "$ pytest -q tests/test_orders.py\nF\n_________________ test_create_order _________________\n    def test_create_order(client):\n>       payload = OrderIn.model_validate({\"sku\": \"A-100\", \"qty\": 2})\nE       AttributeError: type object 'OrderIn' has no attribute 'model_validate'\n\nsrc/orders/schemas.py:14: AttributeError\n1 failed in 0.41s"),
        ("assistant", "That's my fault: pinning pydantic back to 1.x was the wrong fix, because your code already uses the pydantic 2 API (model_validate exists only in 2.x). The right direction is the other way: keep pydantic 2.5.3 and upgrade FastAPI to a release that supports pydantic 2, which is 0.100.0 or later. Try fastapi==0.109.2."),
        ("user", "ok so fastapi==0.109.2 and pydantic==2.5.3?"),
        ("assistant", "Yes. Put pydantic back to 2.5.3, set fastapi==0.109.2, reinstall in a fresh virtualenv so nothing of the 1.x install lingers, then run pip check and the tests."),
        ("user", "pip check clean, 46 passed locally. Pushed it. Tomasz says we should move the whole thing to Poetry so this doesn't happen again, thoughts?"),
        ("assistant", "A lock file helps, but you don't need to change tools to get one. pip-tools gives you a requirements.in with your direct dependencies and a compiled requirements.txt with every version pinned, and it reports conflicts when you compile. Poetry does the same plus packaging, at the cost of moving your CI and Dockerfile over."),
        ("user", "Talked to Tomasz, we're not doing Poetry, too much churn before the release. pip-tools after the release maybe."),
        ("assistant", "Sounds sensible. One thing to watch after the FastAPI upgrade: anything using the old pydantic 1 style, like class Config or .dict(), still runs under pydantic 2 but with deprecation warnings, and orm_mode has been renamed from_attributes."),
        ("user", "we have orm_mode in two schemas. CI is still running"),
        ("assistant", "Then change orm_mode = True to model_config = ConfigDict(from_attributes=True) in those two schemas; it's a small change and it removes the warning before it becomes an error in a later pydantic."),
        ("user", "CI green. orm_mode fix I'll do tomorrow"),
        ("assistant", "Good. When you do it, run the tests with -W error::DeprecationWarning once, so any other pydantic 1 leftovers show up."),
    ],
    "wedding_seating_plan": [
        "Doing the seating plan for our wedding on 21 June, 74 guests, round tables of 10 at the venue. Top table is me, Dan, both sets of parents and the best man Josh and my maid of honour Priya. The tricky bit: my aunt Carol and uncle Pete are divorced and really can't be at the same table.",
        "Round tables of 10 make 8 tables for 74 with the top table. Put Carol and Pete at tables on opposite sides of the room, each with people they're close to, and make sure neither is right by the bar or the dance floor where they'd bump into each other all night. Who does each of them get on with?",
        "Carol's close with my cousins Liam and Ruth. Pete's fine with anyone from Dan's side, he plays golf with Dan's dad.",
        "Then Carol at table 3 with Liam, Ruth and your mum's friends, and Pete at table 3 as well with Dan's golf crowd would keep them near the people they like.",
        "No! You've put them both at table 3. Carol at 3, Pete at 7, that's the point.",
        "Sorry, you're right: Carol at table 3 with Liam and Ruth, Pete at table 7 with Dan's golf friends and Dan's side. Table 3 is by the windows and table 7 by the door, so they're on opposite sides.",
        "Grandma Joan is in a wheelchair, she needs to be near the exit and the accessible toilet. And the venue just told us the tables are actually 8 per table, not 10, the bigger ones are booked for another event.",
        "With tables of 8, 74 guests need 10 tables including the top table, so two more than planned; ask the venue whether there's room for them. Put Grandma Joan at table 7, by the door, which is closest to the exit and the accessible toilet, with a space left free for the wheelchair.",
        "Venue says 10 tables fits. But Pete at 7 with Grandma Joan is fine, she likes him. Also Liam's moving from table 3 to table 5, he and Ruth just broke up.",
        "Then table 3 is Carol and Ruth with your mum's friends, Liam at table 5, and table 7 has Grandma Joan and Pete near the door. Do you want Liam with friends from his side at 5 so he's not on his own?",
        "Yeah, put him with the uni crowd. We were going to do a kids' table for the six kids but Dan's sister says her two won't sit away from her, so we've dropped the kids' table, kids go with their parents.",
        "That's simpler anyway: the six children sit with their parents, and you won't need a table for them. Count each child as a seat when you give the caterer the numbers.",
        "Josh's girlfriend can't come anymore, so that's 73 now. The caterer wanted final numbers by 1 June but they've given us until 5 June.",
        "So 73 guests, final numbers to the caterer by 5 June. Josh will have a free seat next to him on the top table; you could move it or leave it.",
        "Leave it. Sent the draft plan to mum and Dan's mum for a look, no reply yet",
        "Then you're nearly there: once both mums reply, fix the plan, order the table cards, and send the caterer 73 by 5 June.",
    ],
    "half_marathon_plan": [
        ("user", "Training for the Cardiff Half on 5 October, goal is under 2 hours. My plan is intervals Tuesday, easy run Thursday, long run Sunday. This was last week off my watch:"),
        ("tool", "garmin_weekly_summary (week 32): Tue 6x800m intervals, 8.1 km, avg pace 5:22/km. Thu easy 7.0 km, 6:15/km. Sun long run 14.2 km, 6:02/km, avg HR 151. Weekly total 29.3 km. Training status: productive."),
        ("assistant", "That's a solid week. A sub-2-hour half needs an average of 5:41/km, and a 14 km long run at 6:02 with a heart rate of 151 is a good sign for where you are eight weeks out. Build the long run by about 1-2 km a week up to 18-19 km, keep the easy run genuinely easy, and don't add more than about 10% to your weekly total at a time."),
        ("user", "My son's football has moved to Sunday mornings so the long run has to go to Saturday."),
        ("assistant", "Saturday works fine for the long run. The thing to avoid is intervals and a long run on back-to-back days, and with Tuesday intervals and a Saturday long run there's plenty of space. Keep Thursday as the easy run."),
        ("user", "there's also a 10k race, the Taff Trail 10k on 14 September, I'd entered it as a tune-up"),
        ("assistant", "A 10k three weeks before the half is a good tune-up: race it hard, and it'll give you a better estimate of your half marathon time than any training run. Swap it in for that week's interval session and make that Saturday's long run an easy one."),
        ("user", "Calf's been tight since Saturday's long run. Physio says it's a mild strain, no running for 5 days then easy only for a week."),
        ("assistant", "Then do exactly that: five days off running, then a week of easy runs only, no intervals. Cycling or swimming is usually fine meanwhile if it doesn't hurt. Don't try to make up the lost kilometres afterwards; adding them back all at once is how a mild strain turns into a bad one."),
        ("user", "I'm not doing the 10k. Not worth risking the half for it"),
        ("assistant", "Sensible. The 10k was only ever a tune-up, and missing it costs you nothing for the half. You can run a parkrun at effort a couple of weeks before instead if the calf is fine."),
        ("user", "Also intervals are moving to Wednesday, Tuesdays are bad with work from next month."),
        ("assistant", "So from next month: intervals Wednesday, easy run Thursday... that's back to back. Move the easy run to Friday or Monday so a rest day follows the intervals, and keep the long run on Saturday."),
        ("user", "easy run friday then. First run back today, 5 km easy, calf fine"),
        ("assistant", "Good news. Keep it easy for the rest of the week as the physio said, and if the calf stays quiet, go back to the plan next week: intervals Wednesday, easy Friday, long run Saturday."),
        ("user", "ok"),
    ],
    "neighbour_ladder_chat": [
        "Finally gave Gwen next door her ladder back, only had it for three weeks lol",
        "Three weeks is practically a loan agreement. What did you need it for?",
        "Clearing the gutters. Found a tennis ball and half a bird's nest up there",
        "The classic gutter haul. Was the nest empty at least?",
        "Yeah, old one. Gwen was out in her garden when I took it round, her dahlias are insane this year, like dinner plates",
        "Dinner-plate dahlias are a real group of varieties, so she may be growing exactly that. Does she do anything special with them?",
        "She says it's the coffee grounds from the cafe on the corner and talking to them. Her husband Ray says it's the coffee",
        "Coffee grounds do add a bit of organic matter, though the talking probably can't hurt either. Were you planning anything in your own garden?",
        "We were going to have a barbecue Saturday and invite Gwen and Ray and the Okafors at number 14, but the forecast's rain all day so it's off",
        "Shame. A barbecue is easy to move, though: the Okafors and Gwen and Ray might be free another weekend.",
        "maybe. Mrs Okafor's away till the end of the month anyway, visiting her daughter in Leeds",
        "Then a date in early September might catch everyone. Did Gwen say anything about the ladder taking so long?",
        "She said keep it longer if I want lol. But it's back now. She's given me some dahlia tubers to plant next spring",
        "That's a good trade for a borrowed ladder. Dahlia tubers need lifting after the first frost and storing somewhere dry and frost-free over winter.",
        "Not mine, hers are already out of the ground, she dried them. I'm keeping them in the shed till April",
        "Then a cool dry shed is ideal. Check them once or twice in winter for rot, and plant them out in April or May once the frosts are over.",
    ],
}

# The tenth held-out set (issue 21): labels in benchmarks/real_models_labels_heldout10.json and, for
# what the store's own context shows, benchmarks/context_labels_heldout10.json.
HELD_OUT_10 = tuple(CONVERSATIONS_10)
