"""The demo conversation ``localmem demo`` stores: a family caregiver asking an
assistant about a grandmother's medications, with a fact worth pinning."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from .errors import SessionNotFound

if TYPE_CHECKING:
    from .store import MemoryStore

DEMO_SESSION_ID = "demo"
DEMO_TITLE = "Grandma's meds"
DEMO_MODEL = "llama3.2"

DEMO_CONVERSATION: tuple[tuple[str, str], ...] = (
    ("system", "You are a careful, friendly assistant helping a family look after their grandmother."),
    ("user", "Hi! I'm helping my grandmother Rosa organise her medications. Can you help me make a schedule?"),
    ("assistant", "Of course. Tell me which medications she takes, the doses, and when her doctor said to take them."),
    ("user", "She takes lisinopril 10 mg once a day, metformin 500 mg twice a day with meals, and atorvastatin 20 mg at night."),
    ("assistant", "Thanks. A simple schedule: lisinopril 10 mg with breakfast; metformin 500 mg with breakfast and with dinner; atorvastatin 20 mg at bedtime. Does she eat at regular times?"),
    ("user", "Breakfast around 8, dinner around 6. Important: she is allergic to penicillin, it gave her hives last year."),
    ("assistant", "Noted: Rosa is allergic to penicillin. With meals at 8:00 and 18:00, the plan is 8:00 lisinopril + metformin, 18:00 metformin, 22:00 atorvastatin."),
    ("user", "What should we do if she forgets the morning metformin?"),
    ("assistant", "If she remembers within a few hours and it is with food, she can take it; if it is nearly dinner time, skip it and take the evening dose as usual. Never double up. Her pharmacist can confirm this for her exact prescription."),
    ("user", "Her pharmacist is Mr. Okafor at the Elm Street pharmacy, phone 555-0142."),
    ("assistant", "Got it. I would keep Mr. Okafor's number (555-0142) on the fridge next to the schedule."),
    ("user", "She has a cardiology appointment on December 3rd at 10:30 with Dr. Patel. Anything we should prepare?"),
    ("assistant", "Bring the medication list with doses, a week of blood pressure readings if you take them at home, and questions about side effects. Mention any dizziness, since lisinopril can lower blood pressure."),
    ("user", "She did mention feeling dizzy when she stands up quickly. Is that a problem?"),
    ("assistant", "It can be orthostatic hypotension, which is common with blood-pressure medication. Have her stand up slowly and tell Dr. Patel on December 3rd. If she faints or has chest pain, call emergency services."),
    ("user", "How can I remind her to take the evening dose? She doesn't use a smartphone."),
    ("assistant", "A weekly pill organiser with morning and evening compartments works well, plus a simple kitchen timer or a landline reminder call at 18:00."),
    ("user", "Great, I'll buy the organiser. Can you summarise the plan so I can print it?"),
    ("assistant", "Daily plan for Rosa: 8:00 lisinopril 10 mg + metformin 500 mg with breakfast; 18:00 metformin 500 mg with dinner; 22:00 atorvastatin 20 mg. Allergy: penicillin. Pharmacist: Mr. Okafor, 555-0142. Cardiology: Dr. Patel, December 3rd, 10:30."),
    ("user", "Perfect, thank you. What questions should I ask Dr. Patel about the dizziness?"),
)

DEMO_PINS: tuple[tuple[str, float], ...] = (
    # Pinned by hand: what the user wants, which no rule reads from the conversation.
    # The allergy, the medication, the appointment and the pharmacist are pinned
    # automatically from the user's own messages (kind "auto").
    ("Rosa reads large print best: keep printed plans short, one line per item.", 0.9),
)


def demo_session_id(store: MemoryStore) -> str:
    """The session the demo may write: ``demo`` if it is free or the demo's own,
    else ``demo-2``, ``demo-3``, ...: a session of the user's is never touched."""
    for n in itertools.count(1):
        sid = DEMO_SESSION_ID if n == 1 else f"{DEMO_SESSION_ID}-{n}"
        try:
            session = store.get_session(sid)
        except SessionNotFound:
            return sid
        if _written_by_the_demo(store, sid, session.title, session.model):
            return sid
    raise AssertionError("unreachable")


def _written_by_the_demo(store: MemoryStore, sid: str, title: str | None, model: str | None) -> bool:
    """Whether the session holds what the demo wrote and nothing else: its title,
    model, messages and manual pin."""
    if (title, model) != (DEMO_TITLE, DEMO_MODEL):
        return False
    messages = store.get_messages(sid, limit=len(DEMO_CONVERSATION) + 1)
    if [(m.role, m.text) for m in messages] != list(DEMO_CONVERSATION):
        return False
    manual = [(p.content, p.importance_score) for p in store.get_pins(sid, kind="manual")]
    return sorted(manual) == sorted(DEMO_PINS)
