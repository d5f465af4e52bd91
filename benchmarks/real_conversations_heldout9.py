"""Six more held-out conversations for benchmarks/real_models.py (issue 21, ninth set).

Written and recorded on the three real models before their answers were labelled or replayed,
by a writer who did not read the checks or the rules that build the store's own context, so
that both are measured on chats they were never tuned on: a six-year-old's eczema with a
steroid cream and a paraffin emollient (a fire warning, wet wraps declined, the steroid cut to
once a day by the practice nurse); a work-permit renewal in Leipzig (the authority's checklist
as tool output, an application not yet submitted, the appointment moved, a paid agency
declined); an interactive Git rebase that lost commits (`git status` and the reflog as tool
output, the assistant's first fix wrong, a colleague who had pulled the branch); captions for a
parents' ruby wedding slideshow (who proposed, a year and who taught whom corrected, rhyme
declined); a gas boiler replacement (the installer checked on the register by a tool, a quote
that went up, a smart thermostat and a heat pump declined, the fitting date moved); and casual
chat about a pub quiz team (several people, who said what, a charity night moved a week).
Sixteen messages each, user first; their labels are in
benchmarks/real_models_labels_heldout9.json.

A message is its text (its role alternates, user first) or a ``(role, text)`` pair, as in
benchmarks/real_conversations.py.
"""

from __future__ import annotations

CONVERSATIONS_9: dict[str, list[str | tuple[str, str]]] = {
    "eczema_steroid_cream": [
        "My son Arlo is 6 and his eczema has flared really badly behind his knees and in the crooks of his elbows, he's scratching till it bleeds. The GP gave us hydrocortisone 1% cream, twice a day for 7 days, and a big tub of Epaderm ointment. I've never used a steroid cream on him, how do I actually put it on?",
        "Hydrocortisone 1% is a mild steroid and fine for a short course on a child's body. Use it thinly and only on the red, inflamed patches, not the whole arm or leg: one fingertip unit (a line of cream from the tip of an adult finger to the first crease) covers an area about the size of two adult palms. The Epaderm is the opposite: use it generously, all over, as often as you like. Leave about 30 minutes between the two so the ointment doesn't dilute the steroid. Have you started either yet?",
        "Not yet, we only picked them up an hour ago. His dad Rhys says the steroid goes on first, I thought the moisturiser. Which of us is right?",
        "Either order works as long as you leave the half hour between them; the gap matters more than the order. A lot of families find it easiest to bath him, put the Epaderm on straight after, then the steroid on the red patches half an hour later, which fits bedtime. So neither of you is wrong.",
        "ok. Bath, Epaderm, then the cream at bedtime, and the cream again before school.",
        "That works. One safety point about Epaderm and any paraffin-based emollient: it soaks into clothes, bedding and dressings, and fabric with dried ointment in it catches fire much more easily and burns fast. Keep him well away from open flames and gas hobs while he's using it, nobody should smoke near him, and change and wash his pyjamas and sheets often, though washing doesn't remove all of it.",
        "Good to know, we've got a wood burner in the living room. I'll keep him back from it. Should I be doing those wet wrap things I keep seeing on Instagram?",
        "Wet wraps can calm a bad flare, but they make the skin absorb more of the steroid, so they're best started with advice from the GP or the nurse rather than over the hydrocortisone on your own. I'd give the cream and the Epaderm a few days done properly first.",
        "Nah we'll skip the wraps, he'd never keep them on anyway.",
        "Fair enough. Cotton clothes, short nails, and cotton mittens at night if he scratches in his sleep all help too.",
        "Update: the practice nurse rang back about the bleeding patches. She says they're not infected, but she wants the hydrocortisone once a day only, at bedtime, still for 7 days, nothing before school. And we're to go back if it's not better after the 7 days.",
        "Then it's once a day at bedtime for the 7 days, no steroid in the morning. Keep the Epaderm going as often as you like, mornings included. If the patches start weeping, form yellow crusts, or he gets a temperature, that points to infection and he should be seen the same day rather than at the end of the week.",
        "His teacher Mrs Hollis emailed asking if he needs anything during the school day.",
        "Only the Epaderm, if anything: a small pot in his bag so he can put some on at lunch, or a teaching assistant can help him. No steroid at school. You could mention to Mrs Hollis that it's greasy, so he may want to wipe his hands before handling books.",
        "done, replied to her and put a pot in his bag. Started the once a day last night, first night he's slept through in a week",
        "That's a good first night. Keep going for the full 7 days at bedtime, and book the nurse review if it hasn't settled by then.",
    ],
    "work_permit_renewal": [
        ("user", "My residence permit runs out on 30 April. I'm from India, I work in Leipzig as a software engineer on an EU Blue Card since 2023. The Ausländerbehörde finally gave me a renewal appointment but it's on 12 May, after it expires. Am I going to be illegal for two weeks??"),
        ("assistant", "Not if your application is in before the permit expires. If the Ausländerbehörde receives the renewal application before 30 April, your current permit counts as continuing until they decide, and they can give you a paper certificate saying so, the Fiktionsbescheinigung. Did the booking confirm that your application was received, or only the appointment?"),
        ("user", "Only the appointment I think. There's a checklist on the portal, pasting it."),
        ("tool", "auslaenderbehoerde_portal: case AB-2025-118734. Service: extension of EU Blue Card (§18g AufenthG). Appointment: Mon 12.05.2025 10:15, Technisches Rathaus, Prager Str. 130, room 2.114. Application status: NOT SUBMITTED. Bring: valid passport; current residence permit card; 1 biometric photo 35x45 mm, not older than 6 months; completed application form; employment contract; employer declaration (Arbeitgebererklärung) dated within 4 weeks of the appointment; last 3 payslips; proof of health insurance; rental contract and Wohnungsgeberbestätigung. Fee: 98 EUR, card payment only."),
        ("assistant", "The portal says the application status is NOT SUBMITTED, so the appointment on its own doesn't protect you. Submit the application form through the portal before 30 April and keep the confirmation. For the appointment you'll need your passport, your current card, one biometric photo no older than six months, the form, your employment contract, an employer declaration dated within 4 weeks of the appointment, your last three payslips, proof of health insurance, and your rental contract with your landlord's confirmation. The fee is €98, card only."),
        ("user", "Submitted the form on the portal just now. Got an email back saying Antrag eingegangen with the same case number."),
        ("assistant", "Good, that's the important part: it went in before the 30th, so your current permit carries on until they decide. If the new card isn't ready at the appointment, ask for the Fiktionsbescheinigung. One warning: until you hold either the new card or that certificate, don't travel outside Germany. With an expired card you can be refused boarding or have trouble getting back in."),
        ("user", "Hmm. I was planning to fly home to Pune for my cousin's wedding on 20 May, flights not booked yet."),
        ("assistant", "Then I'd hold off booking until after the appointment, and ask there whether the document they give you lets you travel and come back. HR will need to do the employer declaration too; is that in hand?"),
        ("user", "Yes, my manager Sabine said HR will send it by Friday. Bad news though, the office emailed, the appointment has moved to 26 May, the officer is off sick. Same time, same room."),
        ("assistant", "So 26 May at 10:15. You're still covered, because the application went in before the 30th. Two things change: the employer declaration must now be dated within 4 weeks of 26 May, so 28 April or later, and the wedding on 20 May now falls before the appointment, so you would be travelling on the expired card."),
        ("user", "There's a relocation agency that says they can get an earlier slot for €350. Worth it?"),
        ("assistant", "Some agencies do get earlier slots, but none can promise one, and it only helps if it comes before the 20th. The cheaper route is to email the office with your case number and ask whether they can issue the Fiktionsbescheinigung before your trip."),
        ("user", "Not paying 350 for that. Emailed the office asking for the certificate by post. And I've told my mum I'll probably miss the wedding, she's not happy."),
        ("assistant", "That's a hard call but the safe one unless the certificate arrives in time. For the 26th: passport, current card, photo, contract, Sabine's declaration dated 28 April or later, three payslips, health insurance proof, rental contract and landlord confirmation, and a card for the €98."),
        ("user", "Sabine's declaration came, dated 2 May. Photo done at the dm machine. Still need to print the payslips."),
    ],
    "git_rebase_lost_commits": [
        ("user", "I think I just destroyed two days of work. I did an interactive rebase of my branch feature/export-csv onto main to tidy it up, and now git log only shows two commits. I had seven. The Excel export code is gone from the files too. Help"),
        ("assistant", "They're almost certainly still there: a rebase never deletes commits, it moves the branch to new ones and leaves the old ones behind. First: is the rebase still in progress? If it is, git rebase --abort puts everything back exactly as it was before you started."),
        ("user", "ran it:"),
        ("tool", "$ git rebase --abort\nfatal: No rebase in progress?\n$ git status\nOn branch feature/export-csv\nYour branch and 'origin/feature/export-csv' have diverged,\nand have 2 and 5 different commits each, respectively.\n  (use \"git pull\" if you want to integrate the remote branch with yours)\n\nnothing to commit, working tree clean"),
        ("assistant", "My mistake, the rebase had already finished, so there was nothing to abort. Don't run git pull as the message suggests: it would merge the old and the new history together. origin/feature/export-csv still has five commits your branch no longer has, which is your branch as you last pushed it. Did you push the Excel work?"),
        ("user", "No. Pushed Tuesday night, did the two Excel commits Wednesday and never pushed them. Here's the reflog"),
        ("tool", "$ git reflog -n 8\n4e1f0c2 (HEAD -> feature/export-csv) HEAD@{0}: rebase (finish): returning to refs/heads/feature/export-csv\n4e1f0c2 (HEAD -> feature/export-csv) HEAD@{1}: rebase (squash): Add CSV export\n9b27d55 HEAD@{2}: rebase (pick): Add export button to reports page\n0a6c3e1 (origin/main, main) HEAD@{3}: rebase (start): checkout main\nc81d9fa HEAD@{4}: commit: Excel export: handle empty reports\n77e02b4 HEAD@{5}: commit: Excel export via openpyxl\nd3a9e6b (origin/feature/export-csv) HEAD@{6}: commit: CSV export: quote fields with commas\n5f10b8e HEAD@{7}: commit: CSV export: add date range filter"),
        ("assistant", "There it is. HEAD@{4}, c81d9fa, is your branch just before the rebase started, with both Excel commits on top. Before anything else, put a branch on it so nothing can lose it: git branch rescue-export c81d9fa. Then check that git log rescue-export shows all seven commits."),
        ("user", "rescue-export has all 7. phew. reset my branch to it?"),
        ("assistant", "Yes: on feature/export-csv, git reset --hard c81d9fa. That gives you the branch exactly as it was on Wednesday, still on the old main. Then redo the update from main more carefully. Is anyone else working on that branch? If they are, rewriting its history again affects them."),
        ("user", "Reset done. Priya pulled it yesterday to review it."),
        ("assistant", "Then the gentlest way is not to rewrite what she has: merge main into your branch instead of rebasing, and push normally, so Priya just pulls. If you want a tidy history, squash when the PR is merged."),
        ("user", "No, team rule is rebase not merge, Bogdan would have my head. I'll rebase again, no -i and no squashing this time, and tell Priya to reset to the new one before she reviews."),
        ("assistant", "Then run git rebase main without -i, fix conflicts as they come, run the tests, and push with git push --force-with-lease, not plain --force: it refuses if someone pushed to the branch since you fetched. Priya then runs git fetch and git reset --hard origin/feature/export-csv, after stashing anything of her own."),
        ("user", "rebased, tests green, force pushed with lease. messaged priya, no reply yet"),
        ("assistant", "Good. Keep rescue-export until Priya has reset and the PR is merged, then delete it with git branch -D rescue-export."),
    ],
    "ruby_anniversary_captions": [
        "It's my parents' ruby wedding in three weeks, Ken and Moira, married 14 September 1985 in Dundee. I'm making a slideshow of about 20 photos for the party and I want a short caption on each, one line, a bit cheeky. Can you help?",
        "Happily. Tell me what's in the first few photos and anything about them I should know, and I'll draft captions you can adjust.",
        "1. Their wedding outside St Mary's, Dad with a terrible moustache. 2. Their first house in Broughty Ferry, 1986, Mum up a ladder painting. 3. Me as a baby in 1988 with Dad asleep on the sofa. 4. The restaurant where Dad proposed.",
        "Here's a first go:\n\n1. 14 September 1985: she said yes, and the moustache came too.\n2. Broughty Ferry, 1986: Moira painted, Ken supervised.\n3. 1988: a new arrival, and Ken still found time for a nap.\n4. The restaurant where Ken finally got down on one knee.",
        "Ha, love 2 and 3. But 4 is wrong, Mum proposed to him, it was a leap year thing, 29 February 1984. Everyone in the family knows that story. And the house was 1987 not 1986, I checked the back of the photo.",
        "Corrected:\n\n2. Broughty Ferry, 1987: Moira painted, Ken supervised.\n4. 29 February 1984: Moira didn't wait to be asked.\n\nAnd 1 could change to fit: \"14 September 1985: he said yes eighteen months earlier, and the moustache came too.\"",
        "Perfect. My brother Callum is doing the music and he wants the captions before he times the slides. My sister Fiona's in Toronto, she's sending some of her own photos.",
        "Then let's finish them in one batch for Callum. What are the rest, and is there a last photo you want to end on?",
        "The last one is the two of them dancing at Fiona's wedding last year. Could the captions rhyme? Callum thinks rhyming would be fun.",
        "They could, but twenty rhyming lines get tiring quickly and push you into forced words. Maybe rhyme just the last one: \"Forty years and one dance floor, and still they're asking for more.\"",
        "No, no rhyme anywhere, Mum hates anything twee. Keep them plain. And the last one has to say it was Fiona's wedding in Toronto.",
        "Plain it is:\n\n20. Toronto, 2024: forty years on and still first on the dance floor at Fiona's wedding.",
        "Fiona's photos came: one of Dad teaching her to ride a bike, and one of Mum's 50th at the Invercarse. Except the bike one, it wasn't Dad, it was Grandpa Alec who taught her, Dad was at work. Fiona says.",
        "Then:\n\n\"Grandpa Alec: the only one patient enough to teach Fiona to ride a bike.\"\n\"Moira's 50th at the Invercarse: the party that went on till the staff turned the lights off.\"",
        "Sent all 20 to Callum, he's timing it tonight. The party's at the Invercarse too, Saturday the 13th, the day before the real date.",
        "Then the 50th photo will get a cheer in the same room. Enjoy the 13th, and congratulations to Ken and Moira.",
    ],
    "boiler_replacement_quote": [
        ("user", "Our boiler's 19 years old and died again, third call-out this winter. A local firm, Heatwise, quoted £2,850 to replace it with a Worcester Bosch Greenstar 30i combi, fitted, with a 10-year guarantee. Does that sound fair?"),
        ("assistant", "For a like-for-like combi swap, fitted, that's in the normal range. It's worth getting a second quote, and do check the installer is on the Gas Safe Register: it's a legal requirement for gas work, and they have to notify building control of the new boiler. Do you have the engineer's name or licence number?"),
        ("user", "Dave Pryce, his card says Gas Safe 561204."),
        ("tool", "gas_safe_register: licence 561204. Engineer: David Pryce. Business: Heatwise Heating Ltd, Swindon. Status: registered, card valid to 31/08/2026. Qualified: domestic natural gas: boilers, cookers, fires, central heating. Not qualified: LPG."),
        ("assistant", "He's on the register: David Pryce of Heatwise Heating Ltd in Swindon, card valid to August 2026, qualified for domestic natural gas boilers. So that's fine."),
        ("user", "Good. He came back after the survey and the price is now £3,240. The flue has to move, it's too close to the neighbour's bedroom window under the current rules apparently."),
        ("assistant", "That's a plausible reason: rules on how close a flue can be to an opening window have tightened since your boiler went in, and moving it is extra labour and parts. Ask him to show the flue work as its own line on the revised quote, so you can compare it if you get a second quote."),
        ("user", "Fine. He's also offering a Hive smart thermostat for £220 on top. Worth it?"),
        ("assistant", "It can save a little if your heating runs when nobody's in, but if your current thermostat has a timer and works, the bigger saving is having him set the boiler's flow temperature low, around 55 degrees, which costs nothing."),
        ("user", "Skip the Hive then, ours is fine. What about a heat pump though, isn't there a grant?"),
        ("assistant", "Yes, the Boiler Upgrade Scheme gives £7,500 off an air source heat pump in England and Wales. Even with it, a heat pump often costs more up front than a combi, may need bigger radiators, and needs a hot water cylinder, which a house with a combi usually has no space for."),
        ("user", "No room for a cylinder, the flat's tiny. Boiler it is. Paid the £500 deposit this morning, fitting is Thursday 6 March."),
        ("assistant", "Good. One safety point while the work's going on and after: make sure there's a working carbon monoxide alarm in the room with the boiler, or close to it. When he's done, ask for the commissioning checklist and the building control certificate, and register the 10-year guarantee with Worcester Bosch within 30 days, or it falls back to the standard one."),
        ("user", "Dave rang, he's pushed the fit to Monday 10 March, the boiler hasn't arrived at the merchant."),
        ("assistant", "So Monday 10 March. Nothing else changes; the 30 days for the guarantee start from the day it's fitted."),
        ("user", "ok. CO alarm bought, it's up in the hall cupboard next to the boiler"),
    ],
    "pub_quiz_team": [
        "Pub quiz last night, we came second by ONE point. Gutted",
        "Oof, one point is the cruellest margin. What cost you?",
        "The capital of Australia. Mick said Sydney and Jo, who's captain, let him write it down even though Hannah was saying Canberra the whole time",
        "It is Canberra, so Hannah had it. Is Mick new?",
        "Yeah, his second week, he's Dev's brother in law. Nice guy, knows everything about football and nothing about anything else lol",
        "A football specialist is still a good signing for the sports round. Who won?",
        "The Know-It-Ales, as always. That's 6 weeks running. Their captain's a retired geography teacher, which is cheating frankly",
        "A retired geography teacher would certainly have got Canberra. What's your team called?",
        "We're Quiz Team Aguilera. Jo wants a new name for the charity night but nobody else does",
        "It's a good name to keep. If you did want a one-off for the charity night, something like Let's Get Quizzical would fit the theme.",
        "Nah we're keeping Aguilera, it's tradition. Outvoted Jo 4 to 1",
        "Democracy in action. When's the charity night?",
        "It was going to be Friday 4 April but the Red Lion's double booked, so it's now Friday 11 April. Hannah and I are doing the music round for it, haven't started yet",
        "A music round works well as intros: play the first five seconds of each song and teams name the song and the artist. Ten songs from different decades keeps every table in with a chance.",
        "Dev's doing the raffle, he's already got a meal for two from the Thai place donated. And Mick's bringing the buzzers he got for Christmas",
        "Sounds like a proper night. Good luck on the 11th, and maybe let Hannah have the final word on capitals.",
    ],
}

# The ninth held-out set (issue 21): labels in benchmarks/real_models_labels_heldout9.json and, for
# what the store's own context shows, benchmarks/context_labels_heldout9.json.
HELD_OUT_9 = tuple(CONVERSATIONS_9)
