"""Twenty-eight realistic conversations for benchmarks/real_models.py.

The eight kinds of issue 17 (a caregiver's medication schedule, a bug hunt, trip planning, a
conversation about poetry, a birthday cake with allergies, co-writing song lyrics, a terse
chat, a moving budget) and four more: a dog that ate chocolate, interview preparation, a
database migration at work, a meal plan for a diabetic father. Each alternates user and
assistant, user first (8 user, 7 assistant messages), and holds the kind of facts a summary
must not lose or invent: names, doses, allergies, warnings, dates, amounts, decisions.

Ten more for issue 21 (16 messages each; a knee, money, a train trip, a sonnet, home wifi, an
allergy a tool's record contradicts, muffins for a nut-free class, casual chat, a terse gym
chat, a pandas bug), each planting what a summary or checkpoint must not get wrong:

- plans that are not done yet: a bake on Thursday evening, a fund that starts in May, a
  train ride on June 3, a test and a deploy on Monday, a pickup on Saturday;
- a user's question that is not a preference ("Can she take ibuprofen for it?");
- a wrong claim answered "Not quite" (a saving rate; "free verse is just prose with line
  breaks");
- warnings: warfarin with ibuprofen, stopping warfarin, amoxicillin with a penicillin
  allergy, chocolate chips made where peanuts are processed;
- facts that change: "she no longer takes lisinopril", "I'm no longer vegetarian", a wifi
  password and then "My new wifi password is ...";
- a tool's output contradicting the user's health fact (a pharmacy record with "Allergies:
  none recorded" after "I'm allergic to penicillin");
- two plans with different places and days (Milan on June 4, Lake Como on June 5);
- content-free turns ("k", "deal", "cheery thx").

Six held out (``HELD_OUT``, 16 messages each; a sulfa allergy and an antibiotic, a trip to
Japan, a raise and student loans, a React effect that loops, a contest story, a terse chat
about rent), written after today's checks without reading them, so that the checks are judged
on what they were not tuned on: a prescription switched for an allergy, bookings done beside
bookings planned, a user's taste beside a user's question, a warning in every one, and
"Walgreens tomorrow", "this weekend", "thurs night" plans.

Eight more, held out again (``HELD_OUT_2``, benchmarks/real_conversations_heldout2.py), were
written and recorded for a clean measure after the first held-out set had been read, and
eight more (``HELD_OUT_3``, benchmarks/real_conversations_heldout3.py) after the second had,
and eight more (``HELD_OUT_4``, benchmarks/real_conversations_heldout4.py) after the third had,
and eight more (``HELD_OUT_5``, benchmarks/real_conversations_heldout5.py) after the fourth had,
and eight more (``HELD_OUT_6``, benchmarks/real_conversations_heldout6.py) after the fifth had,
and eight more (``HELD_OUT_7``, benchmarks/real_conversations_heldout7.py) after the sixth had,
and eight more (``HELD_OUT_8``, benchmarks/real_conversations_heldout8.py) after the seventh had,
and six more (``HELD_OUT_9``, benchmarks/real_conversations_heldout9.py) after the eighth had,
and six more (``HELD_OUT_10``, benchmarks/real_conversations_heldout10.py) after the ninth had,
and six more (``HELD_OUT_11``, benchmarks/real_conversations_heldout11.py) after the tenth had.

A message is its text (its role alternates, user first) or a ``(role, text)`` pair (a tool's
output among them).
"""

from __future__ import annotations

from real_conversations_heldout2 import CONVERSATIONS_2, HELD_OUT_2
from real_conversations_heldout3 import CONVERSATIONS_3, HELD_OUT_3
from real_conversations_heldout4 import CONVERSATIONS_4, HELD_OUT_4
from real_conversations_heldout5 import CONVERSATIONS_5, HELD_OUT_5
from real_conversations_heldout6 import CONVERSATIONS_6, HELD_OUT_6
from real_conversations_heldout7 import CONVERSATIONS_7, HELD_OUT_7
from real_conversations_heldout8 import CONVERSATIONS_8, HELD_OUT_8
from real_conversations_heldout9 import CONVERSATIONS_9, HELD_OUT_9
from real_conversations_heldout10 import CONVERSATIONS_10, HELD_OUT_10
from real_conversations_heldout11 import CONVERSATIONS_11, HELD_OUT_11

CONVERSATIONS: dict[str, list[str | tuple[str, str]]] = {
    "caregiver": [
        "I'm putting together a medication schedule for my mom, Rosa. She's 82 and just came home from the hospital.",
        "I can help with that. Which medicines does she take, and at what doses?",
        "Warfarin 5 mg every evening, metoprolol 25 mg twice a day, and atorvastatin 20 mg at bedtime.",
        "Thanks. Let's put warfarin at 6 pm every day, metoprolol at 8 am and 8 pm, and atorvastatin at 10 pm. Does she have any allergies?",
        "Yes, she's allergic to penicillin. She got a bad rash from it years ago.",
        "Noted: penicillin allergy. Make sure every doctor and pharmacist knows about it.",
        "Her knee hurts a lot. Can she take ibuprofen for the pain?",
        "Please don't give her ibuprofen while she is on warfarin: together they raise the risk of serious bleeding. Acetaminophen is the safer choice, but check the dose with her doctor.",
        "Okay, no ibuprofen. The discharge papers also say she needs an INR blood test.",
        "Yes, warfarin needs regular INR checks. When is the next one?",
        "Tuesday March 12 at 10:30 at Dr. Patel's clinic.",
        "I'll note it: INR check on Tuesday March 12 at 10:30 with Dr. Patel. Bring her medication list.",
        "Should she avoid any foods?",
        "Keep her vitamin K intake steady: spinach and kale are fine if she eats similar amounts every week. Avoid grapefruit juice with atorvastatin.",
        "Great, I'll print the schedule and put it on the fridge.",
    ],
    "bug_hunt": [
        "Our Flask app returns stale prices about once an hour. The cache lives in cache.py.",
        "What does the cache use for storage, and how is it invalidated?",
        "A plain dict with a TTL of 300 seconds. A background thread refreshes it from the prices table.",
        "A stale read once an hour sounds like a race between the refresh thread and the readers. Do readers and the refresher share the dict without a lock?",
        "Yes, no lock anywhere. The refresher clears the dict and then fills it again.",
        "That's the bug: between clear() and the refill, a reader finds nothing and falls back to an old copy kept in _last_good.",
        "So _last_good is the stale data. It was added in PR 482 as a safety net.",
        "Exactly. Build the new dict completely, then swap it in with one assignment, so readers always see a full dict.",
        "Let's do that and delete _last_good.",
        "Good. Also add a test in tests/test_cache.py that runs readers while the refresher swaps.",
        "I'll use threading.Barrier to start eight readers at once.",
        "That works. Assert that every read returns a price from either the old or the new table, never None.",
        "Done. The test failed 3 times in 100 runs before the fix and 0 times after.",
        "Then the swap fixes it. Remember to remove the _last_good branch in get_price().",
        "Removed. I'll open PR 517 with the fix and the test.",
    ],
    "trip": [
        "My partner and I want to spend a week in Lisbon in May. We'd like it to be relaxed.",
        "Lovely. Do you have dates and a budget?",
        "May 10 to May 17, and about 2,500 euros for both of us, flights included.",
        "Flights from Amsterdam cost around 180 euros each in May if you book now. That leaves about 2,100 euros for hotel, food and trips.",
        "We found a small hotel in Alfama for 95 euros a night.",
        "Seven nights would be 665 euros. Alfama is hilly but charming, and close to the old town.",
        "Let's book it. What should we do on the first day?",
        "Walk around Alfama, take tram 28 early to avoid the crowds, and watch the sunset from Miradouro da Senhora do Monte.",
        "My partner gets seasick, so no boat trips please.",
        "Understood, no boat trips. A day trip to Sintra by train works well instead: about 45 minutes from Rossio station.",
        "Sintra sounds great. Which day?",
        "Go on a weekday, Tuesday May 14 for example; the palaces are quieter. Book Pena Palace tickets online in advance.",
        "We booked Pena Palace for May 14 at 10 am.",
        "Perfect. For dinner, try a tasca in Mouraria, and reserve a fado evening on May 16.",
        "Great, we booked the flights too: KL1691 on May 10.",
    ],
    "poetry": [
        "I've been reading about poetry forms. What's the difference between a sonnet and free verse?",
        "A sonnet has 14 lines with a fixed rhyme scheme and usually iambic pentameter. Free verse has no fixed meter or rhyme.",
        "Which one did Shakespeare write?",
        "Shakespeare wrote 154 sonnets, in the English form: three quatrains and a final couplet, rhymed ABAB CDCD EFEF GG.",
        "And who is famous for free verse?",
        "Walt Whitman, in Leaves of Grass, is the classic example. Later, poets like William Carlos Williams kept lines short and plain.",
        "I'd like to try writing a haiku about rain.",
        "A haiku has three lines of 5, 7 and 5 syllables. Here is one: Soft rain on the roof / the garden drinks in silence / one snail leaves a line.",
        "I like it. Can I write one myself and you check the syllables?",
        "Of course, send it over.",
        "Grey clouds gather slow / puddles hold the evening sky / my boots stay inside.",
        "The syllables are 5, 7 and 5. It's a good haiku; the boots staying inside is a nice, quiet ending.",
        "Thanks! Next time I want to try a sonnet about my grandmother's garden.",
        "Good idea. Start with the couplet: decide what the last two lines should say, then build the quatrains toward it.",
        "I'll do that this weekend.",
    ],
    "birthday_cake": [
        "My son Leo turns 7 on Saturday, June 8, and I want to bake his birthday cake.",
        "Fun! What kind of cake does Leo like, and how many guests are coming?",
        "Chocolate, and we expect 12 kids. But two of them have allergies.",
        "Which allergies do we need to plan around?",
        "Mia is allergic to peanuts and tree nuts, and Tom can't have eggs.",
        "Then the cake must be nut-free and egg-free. A wacky cake, made with vinegar and baking soda instead of eggs, is a classic chocolate cake without eggs.",
        "Perfect. What about the frosting? I usually add chopped hazelnuts.",
        "Please skip the hazelnuts: they are tree nuts. A simple chocolate buttercream works, and check that the cocoa and the sprinkles are made in a nut-free facility.",
        "Good point, I'll read the labels. How big should the cake be for 12 kids?",
        "Two 9-inch round layers give about 16 slices, enough for 12 kids and a few adults.",
        "Great. I'll bake it on Friday evening.",
        "Baking the day before is fine. Keep it covered at room temperature and frost it on Saturday morning.",
        "Should I tell the other parents about the ingredients?",
        "Yes, send them the ingredient list, and keep the packaging so Mia's and Tom's parents can check.",
        "Will do. Thanks for the help!",
    ],
    "song_lyrics": [
        "I'm writing a song about leaving my hometown, and I'm stuck on the chorus.",
        "Let's work on it together. What feeling should the chorus carry?",
        "Bittersweet. Happy to go, sad to leave my little sister behind.",
        "Here's a starting point: 'The river keeps your name / I carry it like rain / I'm leaving, but I'll come home again.'",
        "I like 'the river keeps your name'. The last line feels a bit flat though.",
        "Try: 'I'm leaving, but the porch light stays the same.' It keeps the rhyme and shows home without saying it.",
        "Yes! That's much better. The song is in G major, by the way.",
        "G major suits a warm, open chorus. You could move to E minor on 'porch light' for the bittersweet turn.",
        "I'll try G, D, E minor, C for the chorus.",
        "That's a classic progression and it will work. Keep the verses sparser, maybe just G and C.",
        "For the second verse I want to mention the old oak tree where we used to sit.",
        "Maybe: 'Under the oak where we carved the summer in.' Then you can tie it back to the river in the chorus.",
        "Love it. My sister's name is Clara, should I use it?",
        "Using Clara's name once, in the bridge, would make it personal without repeating it too much.",
        "Great, I'll record a demo on Sunday.",
    ],
    "terse": [
        "pizza tonight?",
        "sure",
        "luigi's?",
        "ok. what time",
        "7pm",
        "fine",
        "pepperoni",
        "and a veggie half",
        "ok",
        "can u pick it up",
        "yes",
        "k",
        "coupon?",
        "i'll bring it",
        "thx",
    ],
    "moving_budget": [
        "We're moving from Chicago to Denver on August 15 and I need a budget.",
        "Let's list the costs. Are you hiring movers or driving a truck yourselves?",
        "We got two quotes from movers: 4,200 dollars from Atlas and 3,600 from a smaller company, Swift Move.",
        "Check that both quotes are binding and include insurance. A cheaper quote that is not binding can grow on moving day.",
        "Swift Move's quote is binding and includes basic insurance. Atlas's is an estimate.",
        "Then Swift Move at 3,600 dollars is the better deal. What else do you expect to pay?",
        "The deposit on the new apartment is 2,100 dollars, and the first month's rent is 2,100 too.",
        "So 4,200 for the apartment. Add travel: driving 1,000 miles, gas and one motel night, roughly 350 dollars.",
        "We also have to pay 300 dollars to break our lease early.",
        "Total so far: 3,600 movers + 4,200 apartment + 350 travel + 300 lease = 8,450 dollars.",
        "Our savings for the move are 9,000.",
        "That leaves 550 dollars of buffer. I'd keep it for surprises like utility deposits.",
        "Let's book Swift Move then.",
        "Good choice. Ask them to confirm the August 15 date in writing.",
        "I'll call them tomorrow morning.",
    ],
    "dog_chocolate": [
        "Help, my dog Max just ate part of a chocolate bar!",
        "Stay calm. How much chocolate, what kind, and how much does Max weigh?",
        "About half of a 100 gram dark chocolate bar, 70 percent cocoa. Max is a beagle, 11 kg.",
        "Dark chocolate is the most dangerous kind because of its theobromine. For an 11 kg dog, 50 grams of 70 percent chocolate can cause serious symptoms. Call your vet or an emergency vet now.",
        "Should I make him vomit with salt water?",
        "No, never give salt water: it can poison him. Don't induce vomiting unless a vet tells you to.",
        "OK, I'm calling the emergency vet on Oak Street.",
        "Good. Tell them the weight, the amount, the cocoa percentage and when he ate it.",
        "He ate it about 20 minutes ago. They said to bring him in right away.",
        "Go now. Bring the wrapper if you can.",
        "We're back. They gave him something to make him vomit and activated charcoal.",
        "That's the standard treatment. Watch for restlessness, a fast heartbeat or tremors over the next 24 hours.",
        "They want to see him again tomorrow at 9 am.",
        "Keep that appointment, and keep all chocolate out of his reach from now on.",
        "Will do. He's sleeping now.",
    ],
    "interview": [
        "I have a job interview at Nordlight, a solar energy company, on Thursday at 2 pm.",
        "Congratulations! Which role, and is it in person or online?",
        "Data analyst, in person at their office in Utrecht. The interviewer is Femke de Vries.",
        "Prepare two or three stories with the STAR method: situation, task, action, result.",
        "I could talk about the dashboard I built that cut reporting time from 2 days to 3 hours.",
        "That's a strong result. Lead with the problem, then the numbers.",
        "They also mentioned a SQL test. I'm rusty on window functions.",
        "Practice ROW_NUMBER, RANK and running totals with SUM OVER. Thirty minutes a day until Thursday is enough.",
        "What should I ask them at the end?",
        "Ask how the team measures success in the first six months, and which data sources you'd work with.",
        "Good. I'll leave home at 12:45; the train takes about 50 minutes.",
        "That gives you a buffer. Bring a printed copy of your CV.",
        "Should I mention my salary expectations?",
        "Only if they ask. Your research says 3,800 to 4,200 euros a month for this role, so give that range.",
        "Thanks, I feel better prepared.",
    ],
    "migration": [
        "We need to add a status column to the orders table in Postgres without downtime.",
        "How big is the table, and which Postgres version?",
        "About 40 million rows, Postgres 14.",
        "On Postgres 11 and later, ADD COLUMN with a constant default is instant, so ALTER TABLE orders ADD COLUMN status text DEFAULT 'new' won't rewrite the table.",
        "Great. We also want an index on status.",
        "Use CREATE INDEX CONCURRENTLY so writes are not blocked. It can't run inside a transaction block.",
        "Our migration tool wraps everything in a transaction.",
        "Then put the index in its own migration file, marked to run outside a transaction, for example 0042_orders_status_index.sql.",
        "Let's do that. The column goes in 0041_orders_status.sql.",
        "Good. Run 0041 first, deploy the code that writes status, then run 0042.",
        "What if the concurrent index build fails halfway?",
        "It leaves an INVALID index. Drop it with DROP INDEX CONCURRENTLY and run the build again.",
        "We'll run it on Sunday night when traffic is lowest.",
        "Sensible. Watch replication lag on the replica while it builds.",
        "Thanks, I'll write up the plan in the ticket OPS-2291.",
    ],
    "meal_plan": [
        "My dad has type 2 diabetes and I'm planning his meals for next week.",
        "Happy to help. Does he take insulin or tablets, and did his doctor give a carbohydrate target?",
        "He takes metformin 500 mg twice a day with meals. The dietitian said about 45 grams of carbs per meal.",
        "Good. Take the metformin with breakfast and dinner, as prescribed. For breakfast, oatmeal with berries and nuts is about 40 grams of carbs.",
        "He loves white bread with jam in the morning.",
        "White bread and jam raise blood sugar quickly. Whole grain bread with peanut butter is a better swap, about 30 grams of carbs for two slices.",
        "He doesn't like peanut butter. What about cheese?",
        "Cheese works well: whole grain toast with cheese and tomato.",
        "For dinner I was thinking pasta on Monday.",
        "Pasta is fine in a measured portion: one cup of cooked whole wheat pasta is about 37 grams of carbs. Add vegetables and some protein.",
        "He also drinks orange juice every day.",
        "A glass of juice has about 26 grams of sugar. Switch to water or tea, or eat a whole orange instead.",
        "OK. If his blood sugar goes low, what should he do?",
        "If it drops below 70 mg/dL, he should take 15 grams of fast sugar, like glucose tablets, and check again after 15 minutes. Call his doctor if it keeps happening.",
        "Thanks, I'll write the plan on the kitchen board.",
    ],
    "knee_ibuprofen": [
        "My mother-in-law Greta is 79 and her left knee has been swollen since Sunday.",
        "Sorry to hear that. Does she take any regular medicines, and has a doctor seen the knee?",
        "She takes warfarin 3 mg every evening for atrial fibrillation, and lisinopril 10 mg in the morning.",
        "Thanks. With warfarin, any new painkiller needs care. Is the knee warm or red, or did she fall?",
        "No fall, it's a bit warm. Can she take ibuprofen for it?",
        "Please don't give her ibuprofen: with warfarin it raises the risk of serious bleeding, including in the stomach. Acetaminophen is usually the safer choice, but ask her doctor or pharmacist about the dose first.",
        "Okay. Actually, she no longer takes lisinopril. Her cardiologist switched her to amlodipine 5 mg last month.",
        "Noted: amlodipine 5 mg instead of lisinopril. Amlodipine can cause ankle swelling, but it doesn't usually make a knee warm.",
        "Could it be gout? Her brother has gout.",
        "It's possible. Gout often starts in the big toe but can affect the knee. Only a doctor can tell, sometimes with a test of the joint fluid.",
        "I booked her GP, Dr. Okafor, for Thursday at 9:15.",
        "Good. Until then: rest, a cold pack for 15 minutes a few times a day, and keep the leg raised.",
        "Should she stop the warfarin before the visit?",
        "No. She must not stop warfarin on her own: stopping it raises her risk of a stroke. Only her doctor should change it.",
        "Got it. I'll drive her there on Thursday and bring her pill box.",
        "That will help. Write down when the swelling started and whether the acetaminophen helped.",
    ],
    "emergency_fund": [
        "I want to get my finances in order this year. I take home about 3,200 USD a month.",
        "Good goal. What are your fixed costs, and do you have any debt?",
        "Rent is 1,150, and I owe 2,400 on a credit card at 24% interest.",
        "The credit card comes first: at 24% it costs you about 48 dollars a month in interest. How much can you set aside each month?",
        "About 600 dollars a month.",
        "Then put all 600 toward the card. It would be paid off in about four months, by the end of April.",
        "And after that I want to build an emergency fund.",
        "Yes. Aim for three months of expenses. So you'll save 600 a month into it from May?",
        "Not quite. 500 a month from May; the other 100 goes to my car repair savings.",
        "Got it: 500 a month into the emergency fund starting in May, and 100 for car repairs. At that rate, 10,000 USD takes 20 months.",
        "10,000 is my target, yes. Where should I keep it?",
        "In a high-yield savings account, separate from your checking account, so you don't spend it by accident.",
        "My bank, Harbor Credit Union, offers 3.8% on savings.",
        "That's a good rate. Set up an automatic transfer on payday so you don't have to think about it.",
        "I'll set up the transfer on May 1, once the card is paid off.",
        "Sounds like a plan. Until then, don't put new charges on the card.",
    ],
    "train_milan": [
        "I'm taking the train from Zurich to Milan on June 3. First time in Italy!",
        "Exciting! The EuroCity through the Gotthard base tunnel takes about 3 hours 20 minutes. Have you booked a seat?",
        "Yes, the 9:33 from Zurich HB, seat 45 in coach 8.",
        "Great. Keep your passport handy; there can be ID checks at the border in Chiasso.",
        "I'll stay in Milan for three nights, at Hotel Aurora near Milano Centrale.",
        "That's handy for the trains. For June 4, book The Last Supper at Santa Maria delle Grazie early: tickets sell out weeks ahead.",
        "I got a ticket for June 4 at 11:15.",
        "Lucky! In the afternoon, walk to the Duomo and go up to the rooftop terraces.",
        "On June 5 I want a day trip to Lake Como.",
        "Take the regional train from Milano Centrale to Varenna, about an hour, then the ferry across to Bellagio.",
        "Is the ferry expensive?",
        "No. A day pass for the central lake is around 17 euros. The last ferries leave around 7 pm, so check the timetable.",
        "I don't eat meat, by the way. Where should I have dinner in Milan?",
        "Try a risotto alla milanese made with vegetable stock in the Navigli district, along the canals.",
        "Perfect. I'll book dinner in Navigli for June 4 and do Como on June 5.",
        "Great plan. On June 6 you can take the train back, or stay on the lake if you fall in love with it.",
    ],
    "sonnet_grandmother": [
        "My grandmother Ilse died in March, and I want to write a sonnet about her for the memorial in July.",
        "I'm sorry for your loss. A sonnet is a good form for grief. Do you know which kind you'd like, Petrarchan or Shakespearean?",
        "What's the difference?",
        "A Petrarchan sonnet has an octave and a sestet, rhymed ABBAABBA then CDECDE, with a turn after line 8. A Shakespearean sonnet has three quatrains and a couplet, ABAB CDCD EFEF GG, often turning in the couplet.",
        "I think I lean toward the Shakespearean one. I like ending on a couplet.",
        "A good choice for a memorial: the couplet can be the lines people remember. What images do you connect with her?",
        "Her apple orchard, her blue apron, and the way she hummed while she cooked.",
        "Strong images. Maybe one quatrain each: the orchard, the apron, the humming, then the couplet on what remains.",
        "My friend said I could just write free verse instead, since free verse is just prose with line breaks.",
        "Not quite. Free verse drops fixed meter and rhyme, but it still uses rhythm, images and deliberate line breaks; it isn't prose cut into lines.",
        "I'll stick with the sonnet anyway. Here's my first line: 'She kept the orchard where the late light falls.'",
        "That's iambic pentameter: ten syllables, five stresses. 'Falls' gives you rhymes like 'walls', 'calls' and 'halls'.",
        "Second line: 'and every branch remembered her by name.'",
        "Lovely, also ten syllables. Line 4 will need a rhyme for 'name': 'came', 'same' or 'flame'.",
        "I'll finish the first quatrain tonight and send it to you tomorrow.",
        "I look forward to it. Read it aloud when you check the meter.",
    ],
    "wifi_password": [
        "Can you keep my home network details? The wifi network is called Lindenhof-5G.",
        "Sure. What else should I keep?",
        "My wifi password is bluefox77.",
        "Noted. For a home network a longer password is safer: a passphrase of four random words is easy to type and hard to guess.",
        "The router is a Fritz!Box 7590 in the hallway closet.",
        "A closet can weaken the signal. If the bedrooms have poor coverage, a mesh repeater can help.",
        "The upstairs office loses the connection every evening.",
        "Evening drops often come from a crowded channel. Try setting the 5 GHz band to a fixed channel, like 44, instead of auto.",
        "I set it to channel 44 and it's been stable for two days.",
        "Great, that points to interference. Keep it there.",
        "I also changed the password. My new wifi password is amberlake42.",
        "Updated: the wifi password is now amberlake42. Remember to reconnect the printer and the TV.",
        "The printer is a Brother HL-L2350DW, and it lost the connection.",
        "On that model, use the WPS button or the Wi-Fi setup wizard on its control panel and enter the new password.",
        "Done, the printer works again. The TV can wait until the weekend.",
        "Fine. When you reconnect the TV, choose Lindenhof-5G and enter amberlake42.",
    ],
    "allergy_tool": [
        ("user", "I need a refill of my asthma inhaler, and my dentist wants to give me antibiotics before a tooth extraction on Monday."),
        ("assistant", "I can check your pharmacy record. Do you have any allergies I should know about?"),
        ("user", "I'm allergic to penicillin. I got hives and a swollen face from amoxicillin when I was 20."),
        ("assistant", "Understood. Let me look up your record at the pharmacy."),
        ("tool", "pharmacy_lookup: patient Daniel Brandt, born 1988-04-02. Allergies: none recorded. Active prescriptions: salbutamol inhaler 100 mcg, 2 puffs as needed; refills left: 1."),
        ("assistant", "Your pharmacy record lists no allergies, but you told me you reacted to amoxicillin. The record is probably incomplete: ask the pharmacy to add the penicillin allergy, and tell your dentist before Monday."),
        ("user", "The dentist wanted to prescribe amoxicillin 500 mg."),
        ("assistant", "Amoxicillin is a penicillin, so with your allergy you must not take it. Dentists often use clindamycin or azithromycin instead; ask your dentist which one fits."),
        ("user", "I'll call Dr. Haas's office tomorrow morning."),
        ("assistant", "Good. Tell them about the hives and the swelling, and ask them to note the allergy in your file."),
        ("user", "And the inhaler refill?"),
        ("assistant", "You have 1 refill left on the salbutamol inhaler. I can request it now; after that you'll need a new prescription from your doctor."),
        ("user", "Yes, please request it."),
        ("tool", "refill_request: salbutamol 100 mcg submitted; ready for pickup on Saturday after 10:00 at Rosen Pharmacy."),
        ("assistant", "Your inhaler refill is submitted and will be ready on Saturday after 10:00 at Rosen Pharmacy."),
        ("user", "Thanks. I'll pick it up on Saturday."),
    ],
    "muffins_party": [
        "My daughter's class has a party next Friday, and I said I'd bring 24 muffins.",
        "Nice! Are there any allergies in the class?",
        "Yes, two kids have peanut allergies, so the school is strictly nut-free.",
        "Then check every label, including 'may contain' and 'made in a facility that processes peanuts'.",
        "I wanted to make chocolate chip banana muffins.",
        "Banana muffins are a good choice. Check the chocolate chips: many brands are made on lines shared with peanuts.",
        "The chocolate chips I have say 'made in a facility that processes peanuts'.",
        "Then leave those chocolate chips out. You could use fresh strawberries or blueberries instead, or chips from an allergy-friendly brand.",
        "Strawberries sound good. My daughter loves them.",
        "Dice them small and toss them in a spoonful of flour so they don't sink.",
        "How many bananas do I need for 24 muffins?",
        "About 6 ripe bananas for a double batch. Very spotty ones are the sweetest.",
        "I'll bake them on Thursday evening so they're fresh.",
        "Good. Let them cool completely, then keep them in an airtight container; muffins with fresh fruit are best within two days.",
        "Should I label them?",
        "Yes: put a card with the full ingredient list on the box, so the teacher, Ms. Alvarez, can check it.",
    ],
    "casual_weekend": [
        "Hey! Long week. I finally finished the puzzle I started in January, 1,000 pieces.",
        "Congratulations! That's a lot of sky pieces. What was the picture?",
        "A lighthouse in Maine at sunset. My cat kept stealing the edge pieces.",
        "Cats and puzzles never mix. What's her name?",
        "Pickles. She's a grey tabby, 4 years old.",
        "Pickles is a great name. Any plans for the weekend?",
        "The farmers market on Saturday morning, then maybe a movie.",
        "The market is best early. Any movie in mind?",
        "Maybe the new Wes Anderson one.",
        "A Wes Anderson film is a good pick for a relaxed evening.",
        "I'm no longer vegetarian, by the way, so I might finally try the burger place next to the cinema.",
        "Good to know. Burger before the movie, then.",
        "Ha, yes. Also my sister Nora is visiting on Sunday.",
        "Lovely. Will you show her the puzzle?",
        "Definitely, before Pickles wrecks it. cheery thx for the chat!",
        "Anytime! Enjoy the market, and say hi to Nora.",
    ],
    "terse_gym": [
        "gym tmrw?",
        "yes 7am",
        "leg day",
        "ugh ok",
        "bring the band",
        "which one",
        "red",
        "k",
        "smoothie after?",
        "the place on 5th",
        "cool",
        "my knee's sore tho",
        "skip squats then",
        "deal",
        "cheery thx",
        "np",
    ],
    "pandas_dates": [
        "My pandas script reads sales.csv, and the monthly totals are wrong for January.",
        "How do you parse the date column?",
        "pd.read_csv('sales.csv', parse_dates=['date']). The dates look like 03/01/2024.",
        "Is that day first? pandas assumes month first, so 03/01/2024 becomes March 1, not January 3.",
        "Yes, it's day first. The data comes from our Berlin shop.",
        "Then pass dayfirst=True, or better, an explicit format='%d/%m/%Y' so nothing is guessed.",
        "With format='%d/%m/%Y' some rows fail, like 2024-01-15.",
        "So the file mixes two formats. In pandas 2.0 or later, format='mixed' with dayfirst=True handles that; otherwise normalize the rows first.",
        "We're on pandas 1.5.3.",
        "Then parse each format separately with errors='coerce' and combine the two results with fillna.",
        "I did that. January's total is now 48,210 euros, which matches the bookkeeping.",
        "Good: the fix was parsing both date formats day first. Add a test with 03/01/2024 and 2024-01-15 so it can't come back.",
        "Is it worth upgrading to pandas 2.2?",
        "Eventually, yes, but check the deprecations first; the fix works on 1.5.3 for now.",
        "I'll add the test and deploy the script on Monday.",
        "Sounds good. Mention the two date formats in the README for whoever runs it next.",
    ],
    "sulfa_antibiotic": [
        "My dad, Henry, is 74 and has a urinary tract infection. The urgent care doctor prescribed Bactrim DS twice a day for 7 days.",
        "I can help you keep track. Does he take any other medicines, and does he have any allergies?",
        "He takes metformin 500 mg twice a day and lisinopril 10 mg in the morning. And he's allergic to sulfa drugs: he got hives from one in 2015.",
        "That matters: Bactrim is sulfamethoxazole with trimethoprim, a sulfa drug. Please don't let him start it. Call the urgent care or his doctor today, tell them about the hives and ask for a different antibiotic.",
        "Oh no. He hasn't taken any yet, the pharmacy is still filling it.",
        "Good, then nothing has happened. Ask the pharmacist to hold the prescription and to put the sulfa allergy on his record.",
        "I called the clinic. Dr. Okafor switched it to nitrofurantoin 100 mg twice a day for 5 days.",
        "That's a common choice for a bladder infection, and it is not a sulfa drug. He should take it with food, which also helps with an upset stomach.",
        "Can he take it with his metformin?",
        "There's no known interaction between nitrofurantoin and metformin, so he can keep taking both. Have him drink plenty of water.",
        "I'd rather get reminders by text than by phone calls. Can you set those up?",
        "I can't send texts myself, but here is a schedule for your phone: nitrofurantoin at 8 am and 8 pm with breakfast and dinner, metformin with the same meals, lisinopril at 8 am.",
        "Perfect. I'll pick up the new prescription at the Walgreens on Elm Street tomorrow morning.",
        "Sounds good. If he gets a fever, back pain or starts vomiting before then, take him to urgent care the same day.",
        "Will do. Thanks for catching the sulfa thing.",
        "You caught it by telling me. I hope Henry feels better soon.",
    ],
    "kyoto_trip": [
        "My wife Aiko and I are going to Japan in April. I booked our flights yesterday: ANA from San Francisco to Osaka Kansai, landing April 9.",
        "Congratulations! Where do you want to stay, and for how long?",
        "Nine nights. Three in Kyoto, then six in Osaka. The Kyoto hotel is booked already: Hotel Granvia by the station, April 9 to 12.",
        "That's a good base for day trips. For Osaka, are you thinking of Namba or Umeda?",
        "Namba, I think, but I haven't booked anything there yet. Aiko wants a place with a big bath.",
        "Then look at hotels with a public bath, like the Dormy Inn Namba. Prices rise in cherry blossom season, so book soon.",
        "I'll book Osaka this weekend. Should we get the JR Pass?",
        "Probably not. Since the 2023 price increase a 7-day pass costs 50,000 yen, and trips around Kansai are cheaper with an ICOCA card and single tickets.",
        "OK, no JR Pass then. We'll use ICOCA cards.",
        "Good choice. You can add them to the wallet on your iPhone before you leave.",
        "I want a day in Nara for the deer, maybe April 11.",
        "April 11 works from Kyoto: the Kintetsu line takes about 45 minutes. Go early, before 9 am, to beat the crowds, and don't hold food out to the deer: they bite.",
        "I hate crowds, so early is great. What about a tea ceremony?",
        "Camellia in Kyoto runs small tea ceremonies in English. They sell out in April, so reserve one when you book Osaka.",
        "will do",
        "Have a wonderful trip, and enjoy the blossoms.",
    ],
    "student_loan": [
        "I'm 29 and just got a raise to 78,000 dollars a year. I want to figure out what to do with the extra 600 a month.",
        "Nice. What debts and savings do you have right now?",
        "Student loans of 24,000 at 6.8%, a car loan of 9,000 at 3.9%, and 4,000 in savings. My 401(k) has a 4% match, but I only put in 2%.",
        "First raise your 401(k) contribution to 4% so you get the full match: that's an instant 100% return. It takes about 130 of the 600 a month.",
        "I hadn't thought of that. I'll change it on the HR portal.",
        "Then I'd put most of the rest toward the 6.8% student loans. The car loan at 3.9% can stay on its schedule.",
        "Should I refinance the student loans? My friend did it with SoFi.",
        "If they are federal loans, refinancing with a private lender gives up income-driven repayment and forgiveness. Compare the rate you'd get with what you'd lose.",
        "They're federal. I'd rather keep the federal protections.",
        "Then keep them federal and pay extra each month. Also build your savings to three months of expenses, about 9,000, before you put everything into the loans.",
        "So 200 a month to savings and the rest to the loans?",
        "That works: about 130 more to the 401(k), 200 to savings and 270 extra to the student loans. They would be paid off years sooner.",
        "Someone on TikTok said to pull money out of the 401(k) to pay the loans off faster.",
        "Please don't: a withdrawal before age 59 and a half is taxed as income and comes with a 10% penalty, which costs more than the 6.8% interest you'd save.",
        "Got it. I'll set up the automatic transfers when the raise starts in March.",
        "Sounds like a solid plan. Revisit it once your savings reach 9,000.",
    ],
    "react_effect_loop": [
        "My React dashboard freezes the browser after a few seconds. The page is Dashboard.tsx.",
        "A freeze like that is often an effect that runs forever. Does Dashboard have a useEffect that sets state?",
        "Yes: useEffect(() => { setFilters({ ...filters, range: '7d' }) }, [filters]).",
        "That's the loop: the effect sets filters to a new object, the new object changes filters, and the effect runs again, forever.",
        "Makes sense. What should it be?",
        "If you only need a default, set it once with useState({ range: '7d' }) and delete the effect. If it must follow something else, depend on that value, not on filters.",
        "I moved the default into useState and deleted the effect. The freeze is gone.",
        "Great. Check the network tab too: the loop may also have been firing the /api/metrics request over and over.",
        "It was: 300 requests in 10 seconds. Now it's one.",
        "Then the fix covers both. Consider turning on the react-hooks/exhaustive-deps lint rule; it flags many effects like this one.",
        "I prefer to keep eslint strict, so yes. I'll add the rule tomorrow with the rest of the lint config.",
        "Good. Also add a test that renders Dashboard and checks that /api/metrics is called once.",
        "Should I use React Testing Library or Cypress for that?",
        "React Testing Library with a mocked fetch is enough for a call count; Cypress is better for whole flows in a real browser.",
        "ok RTL it is. PR tonight",
        "Sounds good. Mention the 300 requests in the PR description so reviewers see why.",
    ],
    "contest_story": [
        "I'm writing a short story for the Harbor Review contest. The limit is 2,500 words and the deadline is October 1.",
        "Fun! What's the story about so far?",
        "An old lighthouse keeper, Marta, finds a letter from her dead brother in a bottle. I have about 1,800 words drafted.",
        "That's a strong hook. How does it end right now?",
        "It doesn't yet. She has to decide whether to leave the island. I like quiet, open endings more than twists.",
        "Then let the ending be a small action rather than a statement: she packs a bag and leaves it by the door, for example.",
        "Ooh, I like the bag by the door. Should I write it in present tense?",
        "Present tense suits a quiet, close story, but switching now means revising all 1,800 words. Past tense is fine if the voice already works.",
        "I'll keep past tense then. It's first person, Marta telling it.",
        "First person past works well for a story full of memory. Watch that the brother's letter doesn't explain too much: let readers work out why he left.",
        "Good point. Do contest judges mind if the story was posted on my blog?",
        "Many contests accept only unpublished work, and a blog post usually counts as published. Check the Harbor Review's guidelines before you submit, or you may be disqualified.",
        "It was on my blog for a week last year. I'll check their rules tonight.",
        "Good. If they exclude stories that were posted, you could enter a different one.",
        "I'll draft the ending this weekend and send it to my writing group on the 20th.",
        "That leaves time for one round of feedback before October 1. Good luck with Marta.",
    ],
    "terse_rent": [
        "rent due fri",
        "how much this month",
        "1450. same as always",
        "so 725 each",
        "ya. venmo?",
        "zelle pls, venmo fees",
        "k",
        "also wifi bill came",
        "how much",
        "60, i paid it already",
        "so i owe u 30",
        "yep. send w rent",
        "will do thurs night",
        "dont use the old landlord acct, he switched to chase",
        "oh good catch",
        "np",
    ],
}

# Held out (issue 21): written after the checks, without reading them, to judge the checks on
# conversations they were not tuned on. Their labels: benchmarks/real_models_labels_heldout.json.
HELD_OUT = ("sulfa_antibiotic", "kyoto_trip", "student_loan", "react_effect_loop", "contest_story", "terse_rent")

# The second held-out set (benchmarks/real_conversations_heldout2.py), recorded and labelled
# before any replay: eight more, listed after the rest.
CONVERSATIONS.update(CONVERSATIONS_2)
# The third held-out set (benchmarks/real_conversations_heldout3.py), likewise, after the second.
CONVERSATIONS.update(CONVERSATIONS_3)
# The fourth held-out set (benchmarks/real_conversations_heldout4.py), likewise, after the third.
CONVERSATIONS.update(CONVERSATIONS_4)
# The fifth held-out set (benchmarks/real_conversations_heldout5.py), likewise, after the fourth.
CONVERSATIONS.update(CONVERSATIONS_5)
# The sixth held-out set (benchmarks/real_conversations_heldout6.py), likewise, after the fifth.
CONVERSATIONS.update(CONVERSATIONS_6)
# The seventh held-out set (benchmarks/real_conversations_heldout7.py), likewise, after the sixth.
CONVERSATIONS.update(CONVERSATIONS_7)
# The eighth held-out set (benchmarks/real_conversations_heldout8.py), likewise, after the seventh.
CONVERSATIONS.update(CONVERSATIONS_8)
# The ninth held-out set (benchmarks/real_conversations_heldout9.py), likewise, after the eighth.
CONVERSATIONS.update(CONVERSATIONS_9)
# The tenth held-out set (benchmarks/real_conversations_heldout10.py), likewise, after the ninth.
CONVERSATIONS.update(CONVERSATIONS_10)
# The eleventh held-out set (benchmarks/real_conversations_heldout11.py), likewise, after the tenth.
CONVERSATIONS.update(CONVERSATIONS_11)
__all__ = [
    "CONVERSATIONS", "HELD_OUT", "HELD_OUT_2", "HELD_OUT_3", "HELD_OUT_4", "HELD_OUT_5", "HELD_OUT_6", "HELD_OUT_7",
    "HELD_OUT_8", "HELD_OUT_9", "HELD_OUT_10", "HELD_OUT_11", "pairs",
]


def pairs(name: str) -> list[tuple[str, str]]:
    """The conversation ``name`` as ``(role, text)`` pairs, user first: a bare text takes
    the role its place gives it (user, assistant, user, ...), a pair keeps its own."""
    return [
        message if isinstance(message, tuple) else ("user" if i % 2 == 0 else "assistant", message)
        for i, message in enumerate(CONVERSATIONS[name])
    ]
