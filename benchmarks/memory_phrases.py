"""What the people of ``memory_corpus`` say: the value pools and the phrasings.

Pure data, no logic. Placeholders: ``{A}`` the person a question is about, ``{their}``
and ``{they}`` that person's pronouns, ``{other}`` the one spoken to, ``{when}`` /
``{When}`` a relative day ("yesterday", "this morning", capitalised at a sentence
start), and the named values of each story. A fact's phrasing holds its values; the
reactions, follow-ups and chatter never do (they share the topic's words, not the
answer), so exactly the evidence turns hold an answer.
"""

from __future__ import annotations

# fmt: off
# (the tables are laid out by hand, several short values a line)

# (name, they, their)
PEOPLE = (
    ("Caroline", "she", "her"), ("Melanie", "she", "her"), ("Joanna", "she", "her"),
    ("Nate", "he", "his"), ("Priya", "she", "her"), ("Marcus", "he", "his"),
    ("Elena", "she", "her"), ("Tomas", "he", "his"), ("Aisha", "she", "her"),
    ("Gabe", "he", "his"), ("Hannah", "she", "her"), ("Leo", "he", "his"),
    ("Rosa", "she", "her"), ("Dev", "he", "his"), ("Ingrid", "she", "her"),
    ("Sam", "he", "his"), ("Yuki", "she", "her"), ("Omar", "he", "his"),
    ("Bianca", "she", "her"), ("Felix", "he", "his"), ("Nadia", "she", "her"),
    ("Jonah", "he", "his"), ("Clara", "she", "her"), ("Ravi", "he", "his"),
)

TODAY = ("today", "this morning", "earlier today", "this afternoon")
YESTERDAY = ("yesterday", "last night", "yesterday afternoon", "yesterday morning")

CITIES = (
    "Denver", "Portland", "Austin", "Boise", "Chicago", "Pittsburgh", "Tucson", "Raleigh",
    "Minneapolis", "Sacramento", "Baltimore", "Omaha", "Savannah", "Spokane", "Madison",
    "Albuquerque", "Richmond", "Tulsa", "Burlington", "Anchorage", "Halifax", "Leeds",
    "Glasgow", "Rotterdam", "Dublin", "Cork", "Lyon", "Valencia", "Adelaide", "Wellington",
)
HOME_MOVES = (
    "I grew up in {city}, so this cold snap feels like home.",
    "Back when I lived in {city} we had a tiny apartment above a bakery.",
    "I spent most of my twenties in {city}, best years of my life honestly.",
    "Before all this I lived in {city} for six years, right by the river.",
)
HOME_REACTIONS = (
    "Oh I didn't know that, {A}!", "Do you miss it?", "Ha, that explains a lot.",
    "I've always wanted to visit there.",
)
MOVES = (
    "We finally moved into our new place in {city} {when}! Boxes everywhere.",
    "{When} was moving day, we're officially living in {city} now.",
    "Big change: we signed the lease and moved to {city} {when}.",
    "I got the keys to my apartment in {city} {when}, it's really happening.",
)
MOVE_ECHOES = (
    "Still getting used to the new city after the move, I get lost every day.",
    "I miss my old place sometimes, but moving was the right call.",
    "We finally unpacked the last box from the move!",
)
MOVE_REACTIONS = (
    "How's the new neighborhood?", "Ugh, moving is the worst. Need help unpacking?",
    "A fresh start, I love that for you, {A}!", "Wow, {A}! Send me pictures of the place.",
)
MOVE_FOLLOWUPS = (
    "Still living out of boxes though, haha.", "The kitchen is tiny but the light is great.",
    "It's quieter than where we were before, which I need.",
)
LIVED_QUESTIONS = (
    "Which cities has {A} lived in?", "Where all has {A} lived over the years?",
    "Name the cities {A} has called home.", "What are all the places {A} has lived?",
)
LIVE_NOW_QUESTIONS = (
    "Where does {A} live now?", "Which city is {A} living in at the moment?",
    "What city did {A} most recently move to?", "Where is {A} based these days?",
)
MOVE_WHEN_QUESTIONS = (
    "When did {A} move to {city}?", "When did {A} get into {their} place in {city}?",
)

COMPANIES = (
    "Brightline Logistics", "Harbor & Finch", "Nimbus Health", "Copperleaf Studios",
    "Redwood Analytics", "Bluefin Robotics", "Maple Street Bank", "Orchard Labs",
    "Tidewater Energy", "Lumen Pictures", "Quarry Games", "Sparrow Insurance",
    "Northgate Hospital", "Pinecrest Schools", "Atlas Freight", "Kestrel Aerospace",
    "Juniper Foods", "Silverline Media", "Granite Software", "Willow Care",
)
ROLES = (
    "data analyst", "pediatric nurse", "graphic designer", "project manager",
    "software engineer", "sous chef", "physical therapist", "accountant", "UX researcher",
    "high school teacher", "paralegal", "sound engineer", "marketing coordinator",
    "lab technician", "structural engineer", "HR specialist", "copywriter", "pharmacist",
)
OLD_JOBS = (
    "I've been a {role} at {company} for about three years now.",
    "Being a {role} at {company} means a lot of overtime this month.",
    "My manager at {company} wants me to train the new {role} hires.",
)
OLD_JOB_REACTIONS = (
    "Do you still like it there?", "Overtime again? Ugh, {A}.", "They're lucky to have you.",
    "Sounds intense.",
)
NEW_JOBS = (
    "{When} was my first day as a {role} at {company}!",
    "I started my new job at {company} {when}, I'm a {role} now.",
    "Officially a {role} at {company} as of {when}, wish me luck.",
)
JOB_ECHOES = (
    "The new job is going well, my manager is great.",
    "A few weeks into the new role and I finally know where the printer is.",
    "Starting that job was scary but I'm so glad I switched.",
)
JOB_REACTIONS = (
    "Congrats! How's the team?", "That's huge, {A}! You deserve it.",
    "Oh nice, is the commute okay?", "So proud of you, {A}!",
)
JOB_FOLLOWUPS = (
    "The commute is longer but worth it.", "Everyone seems really friendly so far.",
    "I have so much to learn, it's a bit scary.",
)
ROLE_QUESTIONS = ("What did {A} do at {company}?", "What was {A}'s job at {company}?")
WORK_NOW_QUESTIONS = (
    "Where does {A} work now?", "Which company does {A} work for these days?",
    "Who is {A}'s current employer?",
)
EMPLOYERS_QUESTIONS = (
    "Which companies has {A} worked for?", "Name the employers {A} has mentioned.",
    "What workplaces has {A} had?",
)
JOB_WHEN_QUESTIONS = (
    "When did {A} start working at {company}?", "When was {A}'s first day at {company}?",
)

DOG_BREEDS = ("beagle", "corgi", "border collie", "dachshund", "golden retriever", "boxer",
              "shiba inu", "greyhound", "poodle mix", "labrador", "husky", "whippet")
CAT_BREEDS = ("Maine Coon", "tabby", "Siamese", "ragdoll", "Bengal", "tuxedo", "calico")
PET_NAMES = ("Biscuit", "Pepper", "Mochi", "Juniper", "Waffles", "Olive", "Scout", "Nugget",
             "Pickles", "Luna", "Bruno", "Ziggy", "Clementine", "Otis", "Marble", "Rocket",
             "Tofu", "Fig", "Bean", "Pumpkin", "Hazel", "Milo", "Pretzel", "Dumpling")
ADOPTIONS = (
    "We adopted a {breed} {young} {when}! {Their} name is {pet}.",
    "Meet {pet}: we brought home a little {breed} {young} {when}.",
    "{When} we picked up {pet} from the rescue, a {breed} {young}.",
)
SECOND_PETS = (
    "We got {pet}, a {breed} from the shelter, so now there are two of them.",
    "Say hi to {pet}! A {breed}, our second one, we couldn't resist.",
)
PET_ECHOES = (
    "The {young} is growing so fast, twice the size since we brought her home.",
    "Adopting a {species} was the best decision we made this year.",
    "Our {species} has officially taken over my side of the bed.",
)
PET_REACTIONS = (
    "Aww, I need pictures immediately!", "Oh my gosh, {A}, that's adorable!",
    "A new family member! How's the first night going?", "Haha, your place is a zoo now.",
)
PET_FOLLOWUPS = (
    "Already chewed a shoe, haha.", "Sleeping on my feet as we speak.",
    "The vet says everything looks great.",
)
BREED_QUESTIONS = ("What breed is {A}'s {species}?", "What kind of {species} did {A} adopt?")
PET_WHEN_QUESTIONS = ("When did {A} adopt {their} {species}?", "When did {A} bring {pet} home?")
PET_NAMES_QUESTIONS = ("What are the names of {A}'s pets?", "What are {A}'s pets called?")

ACTIVITIES = (
    ("pottery", "the community center"), ("salsa dancing", "a studio downtown"),
    ("rock climbing", "the bouldering gym"), ("watercolor painting", "the art school"),
    ("ukulele", "a music shop"), ("woodworking", "a maker space"),
    ("kickboxing", "the gym near work"), ("sourdough baking", "a bakery on Fifth"),
    ("birdwatching", "the nature reserve"), ("chess", "the public library"),
    ("knitting", "a yarn store"), ("photography", "the community college"),
    ("improv theater", "a little black-box theater"), ("tennis", "the park courts"),
    ("open water swimming", "the lake club"), ("calligraphy", "a stationery shop"),
    ("archery", "the county range"), ("beekeeping", "a farm outside town"),
)
HOBBIES = (
    "I signed up for {activity} classes at {venue}.",
    "I've taken up {activity}, there's a group that meets at {venue}.",
    "Started {activity} lessons at {venue} this month, I'm terrible but loving it.",
    "A coworker dragged me to {activity} at {venue} and now I'm hooked.",
)
HOBBY_REACTIONS = (
    "That sounds fun, I'd love to try it sometime.", "Ooh, look at you, {A}!",
    "You always pick up the coolest hobbies.", "Haha yes, you need something just for you.",
)
HOBBY_FOLLOWUPS = (
    "My instructor says I'm improving, slowly.", "It's the one hour a week I don't check my phone.",
    "I'm sore in places I didn't know existed.",
)
HOBBIES_QUESTIONS = (
    "What hobbies has {A} taken up?", "Which new activities has {A} tried?",
    "What has {A} been doing for fun lately?", "What classes or hobbies has {A} started?",
)
VENUE_QUESTIONS = ("Where does {A} do {activity}?", "Where did {A} start {activity}?")

TRIPS = (
    ("Kyoto", "the bamboo forest", "ate our way through the markets"),
    ("Reykjavik", "the northern lights", "soaked in the hot springs"),
    ("Lisbon", "the tile museum", "rode the old trams"),
    ("Banff", "Lake Louise", "hiked above the tree line"),
    ("Mexico City", "the pyramids at Teotihuacan", "took a cooking class"),
    ("Edinburgh", "the castle", "did a ghost tour"),
    ("Vancouver Island", "the whales", "went kayaking"),
    ("Marrakech", "the old medina", "haggled for rugs"),
    ("New Orleans", "the jazz clubs", "ate beignets every morning"),
    ("Crete", "the gorge", "swam in turquoise coves"),
    ("Seoul", "the palace", "sang karaoke until 3am"),
    ("Yellowstone", "Old Faithful", "camped under the stars"),
    ("Prague", "the astronomical clock", "wandered the bridges at dawn"),
    ("Oaxaca", "the mezcal farms", "learned to make mole"),
    ("Cape Town", "Table Mountain", "went shark cage diving"),
    ("Hokkaido", "the snow festival", "skied powder all week"),
)
TRIP_RETURNS = (
    "We got back from {place} {when}, {sight} was unreal.",
    "Flew home from {place} {when}, still dreaming about {sight}.",
)
TRIP_STAYS = (
    "Just spent a week in {place}, we {did} every single day.",
    "Greetings from {place}! We {did} and I never want to leave.",
)
TRIP_ECHOES = (
    "Still looking through photos from the trip, I took way too many.",
    "I keep telling everyone at work about that trip.",
    "I'm already planning to go back, that trip spoiled me.",
)
TRIP_REACTIONS = (
    "Jealous! Did you take lots of photos?", "That sounds like a dream, {A}.",
    "Okay I need the full story.", "Wow! Was it as good as everyone says?",
)
TRIP_FOLLOWUPS = (
    "The jet lag is brutal though.", "I already want to go back.",
    "Best trip we've taken in years.",
)
TRIPS_QUESTIONS = (
    "Which places has {A} traveled to?", "Where has {A} been on trips?",
    "What destinations has {A} visited?",
)
SIGHT_QUESTIONS = (
    "What did {A} love seeing in {place}?", "What sight stood out to {A} in {place}?",
)
DID_QUESTIONS = ("What did {A} do in {place}?", "How did {A} spend the week in {place}?")
TRIP_WHEN_QUESTIONS = ("When did {A} get back from {place}?", "When did {A} return from {place}?")

# (the fact, its question); the fact holds {when}.
MILESTONES = (
    ("I ran my first half marathon {when}! My legs are jelly.",
     "When did {A} run {their} first half marathon?"),
    ("I passed my driving test {when}, finally!", "When did {A} pass {their} driving test?"),
    ("We closed on the house {when}, we're homeowners!", "When did {A} close on {their} house?"),
    ("My sister had her baby {when}, a little girl!", "When did {A}'s sister have her baby?"),
    ("I gave my first conference talk {when} and didn't faint.",
     "When did {A} give {their} first conference talk?"),
    ("I got my braces off {when}!", "When did {A} get {their} braces off?"),
    ("We celebrated our tenth anniversary {when} with a fancy dinner.",
     "When did {A} celebrate {their} tenth anniversary?"),
    ("I submitted my thesis {when}, it's done!", "When did {A} submit {their} thesis?"),
    ("I got a tattoo {when}, a tiny fern on my wrist.", "When did {A} get a tattoo?"),
    ("Our team won the trivia league final {when}!", "When did {A}'s team win the trivia final?"),
    ("I donated blood for the first time {when}.", "When did {A} first donate blood?"),
    ("I got promoted to team lead {when}!", "When did {A} get promoted to team lead?"),
    ("We planted the vegetable garden {when}.", "When did {A} plant {their} vegetable garden?"),
    ("I had my wisdom teeth out {when}, I look like a chipmunk.",
     "When did {A} have {their} wisdom teeth removed?"),
    ("My grandma turned ninety {when}, we threw her a party.",
     "When was {A}'s grandma's ninetieth birthday party?"),
    ("I broke my ankle {when} playing soccer.", "When did {A} break {their} ankle?"),
    ("We got engaged {when}!", "When did {A} get engaged?"),
    ("I sold my old motorcycle {when}.", "When did {A} sell {their} motorcycle?"),
    ("I spoke at my cousin's wedding {when}, everyone cried.",
     "When did {A} give a speech at {their} cousin's wedding?"),
    ("I finished my first 1000-piece puzzle {when}.", "When did {A} finish a 1000-piece puzzle?"),
    ("My band played our first gig {when}!", "When did {A}'s band play their first gig?"),
    ("I got my citizenship {when}, I'm still emotional.", "When did {A} become a citizen?"),
    ("I paid off my student loans {when}!", "When did {A} pay off {their} student loans?"),
    ("We hosted our first dinner party {when}.", "When did {A} host {their} first dinner party?"),
    ("I climbed my first fourteener {when}.", "When did {A} climb {their} first fourteener?"),
    ("I got my black belt {when}!", "When did {A} get {their} black belt?"),
)
# Later mentions of a milestone, without its day: (a phrase of the milestone, echoes).
MILESTONE_ECHOES = {
    "half marathon": ("My legs still remember that half marathon.",
                      "I'm already thinking about another half marathon, am I crazy?"),
    "driving test": ("Ever since the driving test I volunteer to drive everywhere.",
                     "Passing that test was the best feeling, I still have the paper."),
    "closed on the house": ("Owning a house means every weekend is a repair project now.",
                            "Closing on the house feels like ages ago already."),
    "had her baby": ("My sister sends me baby pictures every single day now.",
                     "Being an aunt to that baby is the best job I've ever had."),
    "conference talk": ("People still email me about that conference talk.",
                        "After the talk I got asked to give another one next year."),
    "braces off": ("I can't stop touching my teeth since the braces came off.",
                   "No more braces means I'm eating popcorn every night."),
    "tenth anniversary": ("We're still talking about that anniversary dinner.",
                          "Ten years together and we still argue about the dishwasher."),
    "thesis": ("Life after the thesis is strange, I have free evenings now.",
               "My advisor finally sent comments on the thesis, all good ones."),
    "tattoo": ("The tattoo healed nicely, I keep catching myself looking at it.",
               "My mom finally saw the tattoo and she actually likes it."),
    "trivia league": ("Our trivia team is getting cocky after that final.",
                      "We framed the trivia trophy, it's on the bar's wall."),
    "donated blood": ("I signed up to donate blood again next month.",
                      "Donating blood was so easy, I don't know why I waited."),
    "team lead": ("Being team lead is mostly meetings, it turns out.",
                  "The promotion came with a tiny raise and a huge inbox."),
    "vegetable garden": ("The garden gave us our first tomatoes this week.",
                         "Something keeps eating the lettuce in our vegetable garden."),
    "wisdom teeth": ("My jaw finally stopped hurting from the wisdom teeth thing.",
                     "Soup and ice cream for a week after those teeth, never again."),
    "turned ninety": ("Grandma is still talking about her ninetieth party.",
                      "At ninety my grandma has more energy than I do."),
    "broke my ankle": ("The ankle is healing, I'm off the crutches at least.",
                       "Physical therapy for my ankle is harder than soccer ever was."),
    "got engaged": ("Wedding planning is already stressing me out.",
                    "Everyone keeps asking to see the ring, I love it."),
    "motorcycle": ("I miss the motorcycle on sunny days, not going to lie.",
                   "Selling the motorcycle paid for our vacation, so worth it."),
    "cousin's wedding": ("My cousin keeps thanking me for that wedding speech.",
                         "Someone posted a video of my speech and it has a thousand views."),
    "puzzle": ("I glued the puzzle and hung it in the hallway.",
               "I started a 2000-piece puzzle, send help."),
    "first gig": ("The band booked a second gig already!",
                  "We've been rehearsing twice a week since the gig."),
    "citizenship": ("I voted for the first time as a citizen, it felt huge.",
                    "I finally got my new passport after the citizenship ceremony."),
    "student loans": ("No more loan payments means I can actually save now.",
                      "Being debt free is the weirdest, best feeling."),
    "dinner party": ("We're hosting another dinner party, the first one went so well.",
                     "I'm still finding wine glasses from the dinner party."),
    "fourteener": ("I'm planning my next fourteener already.",
                   "My calves have never been the same since that climb."),
    "black belt": ("I'm teaching the kids' class now that I have my black belt.",
                   "The black belt is hanging on my wall like a trophy."),
}
# Other ways to ask about a milestone (by the same phrase as its echoes).
MILESTONE_QUESTIONS = {
    "half marathon": "When did {A} complete a 21-kilometer race?",
    "driving test": "When did {A} get {their} driver's license?",
    "closed on the house": "When did {A} become a homeowner?",
    "had her baby": "When did {A} become an aunt or uncle?",
    "conference talk": "When did {A} present at a conference?",
    "braces off": "When did {A}'s orthodontic treatment end?",
    "tenth anniversary": "When did {A} mark ten years with {their} partner?",
    "thesis": "When did {A} hand in {their} dissertation?",
    "tattoo": "When did {A} get inked?",
    "trivia league": "When did {A}'s quiz team win the championship?",
    "donated blood": "When did {A} give blood for the first time?",
    "team lead": "When did {A} become a team lead?",
    "vegetable garden": "When did {A} start growing vegetables?",
    "wisdom teeth": "When did {A} have dental surgery?",
    "turned ninety": "When did {A}'s grandmother celebrate turning 90?",
    "broke my ankle": "When did {A} get hurt playing soccer?",
    "got engaged": "When did {A}'s partner propose?",
    "motorcycle": "When did {A} get rid of {their} motorbike?",
    "cousin's wedding": "When did {A} give a toast at a family wedding?",
    "puzzle": "When did {A} complete {their} big jigsaw?",
    "first gig": "When did {A}'s band perform live for the first time?",
    "citizenship": "When was {A} naturalized?",
    "student loans": "When did {A} become debt free?",
    "dinner party": "When did {A} first have friends over for a proper dinner?",
    "fourteener": "When did {A} summit a 14,000-foot peak?",
    "black belt": "When did {A} earn {their} black belt?",
}
MILESTONE_REACTIONS = (
    "Congratulations!!", "No way, {A}! That's amazing.", "Wow, how does it feel?",
    "That's so exciting, {A}!", "You've been working toward that forever, congrats.",
    "Haha yes! Celebrate tonight.",
)

BOOKS = (
    ("The Salt Orchard", "Mira Castellanos"), ("Nine Bright Rivers", "Theo Lindqvist"),
    ("The Cartographer's Daughter", "Ada Whitfield"), ("A House of Small Hours", "Jun Takeda"),
    ("Lanterns Over Marlow", "Ruth Okonkwo"), ("The Quiet Engine", "Pavel Dranko"),
    ("Winter of the Glass Fox", "Selma Idris"), ("Borrowed Constellations", "Kit Harlan"),
    ("The Last Ferry to Ostra", "Lucia Benedetti"), ("Paper Tigers, Iron Hearts", "Dmitri Vale"),
    ("What the Tide Keeps", "Fiona Gallagher"), ("The Orchid Ledger", "Samir Haddad"),
    ("Songs for a Drowned City", "Neve Ashworth"), ("The Beekeeper's Almanac", "Otto Brandt"),
)
READS = (
    "I just finished {title} by {author}, couldn't put it down.",
    "Reading {title} right now, {author} writes such good dialogue.",
    "Book club picked {title} by {author} and I stayed up way too late with it.",
)
BOOK_REACTIONS = (
    "Ooh, adding it to my list.", "Is it sad? I can't handle sad right now.",
    "You read so much, {A}, I'm impressed.", "Haha, another one for the shelf.",
)
BOOKS_QUESTIONS = ("What books has {A} read?", "Which books has {A} mentioned reading?")
TITLE_QUESTIONS = ("Which book by {author} did {A} read?", "What did {A} read by {author}?")

SIBLING_JOBS = ("paramedic", "park ranger", "dentist", "pilot", "electrician", "florist",
                "veterinarian", "chef", "architect", "journalist", "firefighter", "librarian")
SIBLINGS = (
    ("brother", ("Danny", "Kofi", "Matteo", "Eli", "Hugo", "Arjun", "Niall")),
    ("sister", ("Maya", "Greta", "Lena", "Sofia", "Tess", "Noor", "Imogen")),
)
SIBLING_FACTS = (
    "My {rel} {sib} works as a {job} out in {city}.",
    "Talked to my {rel} {sib} for an hour, {sib} just became a {job} in {city}.",
)
SIBLING_REACTIONS = ("That's so cool!", "How are they liking it?", "You must be proud, {A}.",
                     "Tell them I said hi!")
SIBLING_JOB_QUESTIONS = ("What does {A}'s {rel} do for a living?", "What is {A}'s {rel}'s job?")
SIBLING_NAME_QUESTIONS = ("What is the name of {A}'s {rel}?", "What is {A}'s {rel} called?")
SIBLING_CITY_QUESTIONS = ("Where does {A}'s {rel} live?",)

# (category, fact phrasings, questions, values)
FAVORITES = (
    ("food",
     ("Hands down my favorite food is {value}.", "Nothing beats {value}, it's my favorite meal."),
     ("What is {A}'s favorite food?", "What meal does {A} love most?"),
     ("ramen", "lasagna", "pho", "tacos al pastor", "butter chicken", "paella", "pierogi")),
    ("movie",
     ("My comfort movie is {value}, I know every line.",
      "I rewatched {value} again, my all-time favorite."),
     ("Which movie does {A} rewatch for comfort?", "What is {A}'s all-time favorite movie?"),
     ("Paddington 2", "The Princess Bride", "Spirited Away", "Jurassic Park", "Amelie", "Arrival")),
    ("coffee", ("My go-to coffee order is a {value}.", "I can't start the day without my {value}."),
     ("What is {A}'s usual coffee order?", "How does {A} take {their} coffee?"),
     ("flat white", "oat milk latte", "double espresso", "cortado", "iced americano")),
    ("team",
     ("I'm a huge {value} fan, I never miss a game.", "Did you see the {value} game? I screamed."),
     ("Which team does {A} support?", "What team is {A} a fan of?"),
     ("Packers", "Celtics", "Sounders", "Cubs", "Rangers", "Dodgers")),
    ("band",
     ("My favorite band is {value}, I've seen them five times.",
      "{value} is my favorite band ever."),
     ("What is {A}'s favorite band?", "Which band does {A} love most?"),
     ("The Mountain Goats", "Fleetwood Mac", "Khruangbin", "Radiohead", "Vampire Weekend",
      "Big Thief")),
)
FAVORITE_REACTIONS = ("Haha, good taste.", "Same, honestly!", "Really? I never would have guessed.",
                      "Totally, {A}.", "Oh I love that.")

CARS = ("Subaru Outback", "Honda Civic", "Toyota Tacoma", "Mini Cooper", "Ford Bronco",
        "Volvo wagon", "Kia Soul", "Jeep Wrangler", "Tesla Model 3", "Mazda Miata")
CAR_REACTIONS = ("Haha, classic.", "Cars are money pits, honestly.", "Nice, {A}!",
                 "How does it drive?")
CAR_OLD = ("I drive a {car}, it's older than some of my coworkers.",
           "My {car} finally needs new tires.")
CAR_NEW = ("Traded in the {old} {when}, I drive a {car} now!",
           "Said goodbye to the {old}, I picked up a {car} {when}.")
CAR_ECHOES = ("The new car drives like a dream.", "I washed the new car twice this week, haha.")
ECHO_REACTIONS = ("Haha, I bet.", "Love that for you, {A}.", "Oh nice!", "That's great to hear.",
                  "Ha, of course.")
CAR_QUESTIONS = ("What car does {A} drive now?", "What is {A}'s current car?")

MONTHS = ("March", "April", "May", "June", "July", "August", "September", "October", "December")
PLAN_REACTIONS = ("Ooh, how exciting!", "Take me with you, {A}!", "You need that break.",
                  "Wait, that's so soon!")
PLAN_FIRST = (
    "We're planning a trip to {dest} in {month}.", "Booked flights to {dest} for {month}!",
)
PLAN_CHANGE = (
    "Change of plans, we're doing {dest} instead, the other flights doubled in price.",
    "We cancelled the first trip, going to {dest} instead. Same dates.",
)
PLAN_DESTINATIONS = ("Costa Rica", "Iceland", "Portugal", "Japan", "Peru", "Vietnam",
                     "Croatia", "New Zealand", "Morocco", "Greece", "Norway", "Chile")
PLAN_QUESTIONS = ("Where is {A} going in {month} after changing plans?",
                  "Where is {A} actually traveling in {month}?")

# Paraphrase facts: (the fact's phrasings, questions that share no content word with them,
# the answer, the stories it would contradict). Each question names {A}; the fact is
# {A}'s own turn.
PARAPHRASES = (
    (("I'm allergic to most reptiles and animals with fur.",
      "Anything with fur or scales makes me break out in hives."),
     ("What pets wouldn't cause {A} any discomfort?",
      "Which companions could {A} keep without a reaction?"),
     "none with fur or scales", ("pet",)),
    (("Honestly I can't stand boats, I get seasick every single time.",),
     ("Why might {A} skip a cruise?", "Would {A} enjoy a sailing holiday?"),
     "gets seasick", ()),
    (("My grandmother taught me to bake bread when I was little.",),
     ("Who showed {A} how to make loaves as a kid?",), "grandmother", ()),
    (("I've been sober for three years now.",),
     ("How long has {A} gone without alcohol?", "When did {A} last have a drink?"),
     "three years", ()),
    (("I never learned how to swim.", "Deep water scares me, I can't swim at all."),
     ("Can {A} stay afloat in a pool?",), "no", ("open water swimming",)),
    (("Spiders terrify me, I scream whenever I see one.",),
     ("Which creatures is {A} afraid of?", "What critter gives {A} the creeps?"), "spiders", ()),
    (("My mom is from Brazil, so I grew up speaking Portuguese at home.",),
     ("Which foreign tongue can {A} converse in?", "What second language does {A} know?"),
     "Portuguese", ()),
    (("I've been vegetarian since college.", "I stopped eating meat in college."),
     ("Would {A} order a steak?", "What diet does {A} follow?"), "vegetarian", ("food",)),
    (("Coffee gives me the jitters, so I stick to herbal tea.",),
     ("Which caffeinated drink does {A} avoid?", "What beverage makes {A} shaky?"),
     "coffee", ("coffee",)),
    (("I broke my wrist skateboarding when I was twelve.",),
     ("What injury did {A} suffer as a child?",), "a broken wrist", ()),
    (("My car got totaled last winter, so I bike everywhere now.",),
     ("How does {A} get around town these days?",), "by bike", ("car",)),
    (("I'm colorblind, reds and greens look the same to me.",),
     ("Why does {A} mix up certain hues?", "What is wrong with {A}'s eyesight?"), "colorblind", ()),
    (("I've got two left feet, I'd never survive a salsa class.",),
     ("Is {A} a good dancer?",), "no", ("salsa dancing",)),
    (("I used to be a firefighter before my knee injury.",),
     ("What was {A}'s previous career?", "How did {A} earn a living in the past?"),
     "firefighter", ()),
    (("My parents split up when I was ten.",),
     ("How old was {A} when {their} mom and dad divorced?",), "ten", ()),
    (("I'm terrified of flying, so we always drive or take the train.",),
     ("Why doesn't {A} travel by plane?", "Does {A} like airports and jets?"),
     "afraid of flying", ("trip", "plan")),
    (("Gluten makes me really sick.", "I can't have gluten, it wrecks my stomach."),
     ("Which ingredient must {A} avoid in food?", "What would make {A} ill at a bakery?"),
     "gluten", ("sourdough baking",)),
    (("I'm the oldest of five kids.",), ("How many siblings does {A} have?",), "four", ("twin",)),
    (("I volunteer at the animal shelter every Saturday.",),
     ("Where does {A} give time for free each week?", "How does {A} help out on weekends?"),
     "the animal shelter", ()),
    (("I can't eat shellfish, my throat swells up.",),
     ("Which seafood should {A} stay away from?",), "shellfish", ("food",)),
    (("I've never been outside the country.",), ("Has {A} traveled abroad?",), "no",
     ("trip", "plan")),
    (("I sing in a church choir on Sundays.",),
     ("What musical group does {A} belong to?",), "a church choir", ()),
    (("My left ear is almost completely deaf.",),
     ("Does {A} have trouble hearing?", "Why might {A} ask people to repeat things?"),
     "deaf in one ear", ()),
    (("I'm saving up to open a little bakery someday.",),
     ("What business does {A} dream of starting?",), "a bakery", ()),
    (("I grew up on a dairy farm, milking cows at 5am.",),
     ("What was {A}'s childhood home like?", "Where was {A} raised?"), "a dairy farm", ("home",)),
    (("I have a twin brother, people mix us up all the time.",),
     ("Does {A} have a sibling who looks identical?",), "a twin brother", ("sibling", "twin")),
    (("I quit smoking last spring.",), ("What habit has {A} given up?",), "smoking", ()),
    (("I'm a lefty, regular scissors are a nightmare.",),
     ("Which hand does {A} write with?",), "left", ()),
    (("Thunderstorms make me hide under a blanket.",),
     ("What weather frightens {A}?",), "thunderstorms", ()),
    (("I sleep with the TV on, silence keeps me awake.",),
     ("How does {A} manage to doze off at night?",), "with the TV on", ()),
    (("Cilantro tastes like soap to me.",),
     ("Which herb does {A} dislike?",), "cilantro", ()),
    (("I was born in Nairobi and moved here at six.",),
     ("What is {A}'s birthplace?",), "Nairobi", ("home",)),
)
PARAPHRASE_REACTIONS = ("Oh wow, I had no idea.", "That must be tough, {A}.", "Good to know!",
                        "Haha, noted.", "Really? Since when?", "Same, honestly.")

# Small talk. Greetings and closings name the one spoken to ({other}).
GREETINGS = (
    "Hey {other}! How's your week going?", "Hi {other}, long time no chat!",
    "Good morning {other}!", "{other}! Guess what.", "Hey hey, {other}. Got a minute?",
    "Hi {other}! Hope your weekend was good.", "Morning! Coffee yet, {other}?",
)
GREETING_REPLIES = (
    "Hey {other}! Pretty good, busy as always.", "Hi! Doing alright, thanks for asking.",
    "Hey hey! Good to hear from you, {other}.", "Hi {other}! Just finished lunch, what's up?",
    "Haha yes, two coffees already.", "Hey! Tired but good.",
)
CLOSINGS = (
    "I should run, talk soon {other}!", "Gotta go make dinner, bye!",
    "Thanks for the chat, {other}!", "Okay, bedtime for me. Night!",
    "Let's catch up again soon, {other}.",
)
CLOSING_REPLIES = (
    "Bye {other}, take care!", "Talk soon!", "Thanks, {other}! You too.",
    "Night! Sleep well.", "Haha yes, bye!",
)
FILLERS = (
    "Haha yes", "Totally.", "Same here!", "Right?!", "Oh no, {other}!", "That's so true, {other}.",
    "Lol", "For real.", "Aww.", "Ha, classic.", "I know, right?", "Thanks, {other}!",
)
PROMPTS = ("So what's new with you, {other}?", "Anything exciting going on, {other}?",
           "How are things on your end?", "Tell me something good, {other}.")

# Chatter: (topic, needs, lines). "needs" is the story that must have happened first for
# the speaker to mention it (None: always). Lines share the questions' words, never an answer.
CHATTER = (
    ("pets", "pet", (
        "My cousin just adopted a rescue dog too, we should set up a play date.",
        "A friend of mine got a kitten and now she only talks about litter brands.",
        "The dog woke me up at five again, whining at the door like the world was ending.",
        "Walks with the dog have become my therapy, forty minutes of no phone and fresh air.",
        "The vet says our pet is a bit chubby, so we're cutting back on treats, haha.",
        "Adopting was the best decision we made, the whole house feels warmer now.",
        "Does your place allow pets, {other}? I feel like everyone needs a furry roommate.",
        "There is pet hair on every single thing I own, including the inside of the fridge.",
        "We bought a ridiculous little raincoat for the dog and the neighbors can't stop laughing.",
        "The cat knocked my plant over again and then sat there looking proud of herself.",
        "I spent my whole lunch break reading about pet insurance, it's a rabbit hole.",
        "Training is going slowly, but at least we've stopped the chewing on the couch.",
    )),
    ("work", None, (
        "A friend of mine started a new job at a startup and already regrets it.",
        "My neighbor got laid off last month, it's been rough for them.",
        "My old boss called to ask if I'd ever come back, which was flattering.",
        "Work has been crazy this week, I had back to back meetings and no time to eat.",
        "My boss scheduled a meeting at 4:55 on a Friday, which should honestly be illegal.",
        "I'm thinking about asking for a raise at work, but I keep chickening out.",
        "How's the job treating you, {other}? Still drowning in emails?",
        "The new office coffee machine is a disaster, it makes everything taste like pennies.",
        "I worked late every night this week and my brain feels like mashed potatoes.",
        "Do you ever think about switching careers and doing something completely different?",
        "The company party is next week and I have to give a toast, ugh.",
        "A coworker of mine quit without notice and now I'm covering two jobs at once.",
        "We finally shipped the big project at work, so the whole team went out for drinks.",
    )),
    ("home", None, (
        "My sister keeps saying she wants to move abroad, I'll believe it when I see it.",
        "Some friends of ours just bought a place out in the suburbs.",
        "I'd love to live by the sea someday, in a little house with a porch.",
        "Our neighbors are renovating and the drilling never stops, even on weekends.",
        "I love living close to a park, I can hear the kids playing from the kitchen.",
        "The city is so loud at night, sirens and motorcycles until two in the morning.",
        "Rent went up again, can you believe it? I'm starting to look at other places.",
        "Do you like living where you are, {other}? I go back and forth about it.",
        "I finally hung curtains in the bedroom, it only took me a year and a half.",
        "Moving is so expensive that I'm staying put for a while, whatever happens.",
        "The heating in our place is broken and the landlord keeps saying next week.",
        "I rearranged the whole living room last night instead of sleeping.",
        "Our building got a new doorman and he already knows everyone's name.",
    )),
    ("hobby", "hobby", (
        "My neighbor is learning the violin and I can hear every single note.",
        "My dad took up painting after he retired and he's actually good.",
        "I skipped class this week and felt guilty about it the entire evening.",
        "My new hobby is eating all my free time, and my savings too, honestly.",
        "I practiced for two hours yesterday and my hands still hurt this morning.",
        "You should come to class with me some time, {other}, you'd love the people.",
        "I bought way too much gear for a beginner, my partner just shakes his head.",
        "The teacher paired me with a total pro today and I tried very hard not to panic.",
        "Having something just for me, outside work and chores, has been really good for me.",
        "I watched tutorials until midnight instead of going to bed like a responsible adult.",
    )),
    ("travel", None, (
        "My coworker just got back from two weeks in Asia and won't stop talking about it.",
        "My parents are going on a cruise next month, their first real vacation in years.",
        "I'm itching to travel again, I keep looking at flights I can't afford.",
        "Do you have any trips planned, {other}? I need to live through someone.",
        "I want a vacation somewhere with no phone signal and a hammock.",
        "Airports stress me out so much, I always show up three hours early.",
        "Road trip or beach week, which would you pick if money wasn't a thing?",
        "Packing light is an art I'll never master, I always bring five extra sweaters.",
        "I made a list of places I want to visit before I turn forty and it's very long.",
        "My passport expires soon, so I really need to renew it before summer.",
    )),
    ("books", None, (
        "Reading anything good lately, {other}? My nightstand pile is getting embarrassing.",
        "My to-read pile is taller than me at this point, and I keep buying more.",
        "I fell asleep reading again and woke up with the book on my face.",
        "Audiobooks have saved my commute, I actually look forward to traffic now.",
        "I need a new book, something light and funny after all the heavy stuff.",
        "Our book club mostly drinks wine and talks about everything except the book, haha.",
        "I finally got a library card again and I feel like a kid in a candy store.",
        "I started three books this month and finished none of them, which is a new record.",
    )),
    ("family", None, (
        "My brother moved three times last year, I've stopped updating his address.",
        "My aunt finally retired and now she calls me every morning.",
        "My mom called three times today just to ask if I'd eaten anything.",
        "Family dinner was chaos as usual, somebody always brings up politics.",
        "My brother keeps sending me memes at 2am and I keep answering them.",
        "How's your family doing, {other}? Everyone healthy?",
        "My dad is learning to text and it's hilarious, every message is in capital letters.",
        "My sister and I are planning a surprise for mom's birthday, so don't tell anyone.",
        "The whole family is coming over for the holidays and I have no idea where they'll sleep.",
        "My grandma taught my niece a card game and now she beats everybody.",
    )),
    ("food", None, (
        "I made soup last night and it was mostly salt, I'm not a cook.",
        "What did you have for dinner, {other}? I need ideas, I'm so bored of pasta.",
        "We ordered takeout three nights in a row, and I'm not even sorry about it.",
        "I'm trying to cook more at home, it's cheaper and I feel less sluggish.",
        "Found a new taco place near me, the salsa is so spicy I cried a little.",
        "Meal prep Sunday, wish me luck, last time everything went bad by Wednesday.",
        "I baked cookies for the office and they disappeared in ten minutes.",
        "I've been drinking way too much coffee lately, my hands are shaking as I type.",
    )),
    ("weather", None, (
        "It has rained for five days straight and my shoes will never be dry again.",
        "It's finally warm enough for a walk without three layers, I'm so happy.",
        "Is it as cold there as it is here, {other}? My car wouldn't start this morning.",
        "The heat this week is unreal, I've been sleeping with a wet towel on my neck.",
        "Snow day! Everything is closed, so I'm staying in my pajamas.",
        "Perfect weather for staying in, honestly, blankets and tea all afternoon.",
        "We had a huge thunderstorm last night and the power went out for hours.",
    )),
    ("tv", None, (
        "Are you watching anything good, {other}? I've run out of shows.",
        "I binged a whole season last night and now I'm paying for it at work.",
        "That finale was ridiculous, I'm still mad about how they ended it.",
        "I need a new show, any recommendations? Nothing too scary, please.",
        "We fell asleep during the movie again, we never see the endings anymore.",
        "Reality TV is my guilty pleasure, I know it's trashy and I don't care.",
        "I rewatched an old cartoon from when I was a kid and it holds up.",
    )),
    ("health", None, (
        "I started going to bed earlier and I feel so much better, who knew.",
        "My back is killing me, I think it's the chair I work from.",
        "I'm trying to drink more water, {other}, I set reminders on my phone.",
        "Went for a run this morning and barely survived the hill by the school.",
        "Got my flu shot and my arm is so sore I can't lift it.",
        "Yoga in the mornings has been nice, even if I mostly just lie there.",
        "I've been trying to walk ten thousand steps a day and it's harder than it sounds.",
    )),
)

# Second sentences that make a turn read like a person talking: an aside after a greeting
# or a story, a question back after a reaction.
ASIDES = (
    "It's been a long week, honestly.", "I keep thinking about what you said last time.",
    "I barely slept, but I'm running on excitement.", "My phone has been blowing up all day.",
    "Things have been a little chaotic around here.", "I'm trying to slow down a bit this month.",
    "I made a big pot of tea and I'm finally sitting down.", "The days are flying by lately.",
    "Still can't quite believe it, to be honest.", "I told my mom and she was thrilled.",
    "Everyone keeps asking me about it.", "I've been meaning to tell you for a while.",
    "It feels like a lot has changed this year.", "I'm exhausted but in a good way.",
    "Life has been surprisingly calm, which is nice.", "I needed some good news this week.",
    "It's the little things, you know?", "I've been journaling about it every night.",
    "My neighbors must think I'm crazy.", "I keep smiling about it.",
    "It's funny how things work out.", "I'm trying to take it one day at a time.",
)
REACTION_TAILS = (
    "Tell me everything!", "How are you feeling about it?", "You deserve some good news.",
    "We have to celebrate next time we see each other.", "I'm so happy for you.",
    "What made you decide?", "That's such a big step.", "I want to hear all the details.",
    "How did everyone react?", "I'm a little jealous, honestly.",
    "You've had such a busy year.", "I love hearing about this stuff.",
)

# Small variations so the same chatter line reads differently from one day to the next.
CHATTER_TAILS = ("", "", "", ". Haha.", ". Anyway.", " lol.", ". Ugh.", ", honestly.", ", {other}.")
CHATTER_HEADS = ("", "", "", "Random question: ", "Oh, ", "So, ", "Hey, ")
CHATTER_REPLIES = (
    "Haha yes", "Oh no!", "Same here, {other}.", "That's so relatable.", "Ugh, I feel that.",
    "Honestly same.", "Haha, love it.", "That sounds nice.", "Oof.",
    "You're not alone there, {other}.",
    "I was just thinking about that!", "Hang in there, {other}.", "Right?!", "Good for you!",
)
# fmt: on
