"""A status a later message says is over, and a thing said to have ended stated as in force.

- **A status that waits for an act** ("Status: ready for pickup", "awaiting approval", "out
  for delivery") is over when a later statement, not negated, says the act done ("I picked
  up the carprofen", "approved") of what the status's text names, or of "it".
- **A thing called off** ("the Thursday sailing has been cancelled", "they cancelled the
  Thursday sailing", "the party is called off"; said of the content words before it in its
  clause, the last three, or after its active verb, the first three, two at least: "the
  flight was cancelled" names no one flight; not negated, not asked): a claim holding all those words and no word of calling off ("Take the Thursday
  sailing", "Booked on the Thursday sailing") states as still on what will not happen.
- **A plan the speaker withdrew** ("I was planning to fly home for my cousin's wedding"
  after "I'll probably miss the wedding", "we're not going to the gala", "I won't make it to
  the reunion", "I've decided against the trip"; the first words of what is withdrawn, at
  most three; a statement, not asked nor on a condition: "I'll miss the train if I stay"):
  a claim that is a plan of "I", "we" or "the user" ("planning to", "going to", "I'll")
  holding all those words, with no withdrawal of its own, states as still planned what will
  not happen; a later plan naming the thing again ("we're going to the gala after all")
  makes it stand.
- **A run's outcome replaced** (a test tally, "1 failed in 0.41s"; an exit code, "exit code
  2"; a build's or CI's status, "CI is still running", "the build failed"): the outcome of
  the latest run is the one that holds. A claim quoting an outcome is stale when a text
  after the last one saying that outcome says another of the same kind ("46 passed
  locally", "exited with 0", "CI green"), or tells a run another way (the tests failed,
  then "CI running" on the fix: a run's status, its tests' or CI's or a build's, and an
  exit code, 0 passed and any other failed, all tell whether the work passes); the same
  outcome said again (a run that failed the same way) replaces nothing.
- **A thing that has ended** ("Basic 5yr/60,000mi: EXPIRED", "the basic warranty has
  already run out", "lapsed", "was cancelled"; said of the content words before it in its
  clause, the last three; not negated, not asked): a claim holding all those words with a
  word stating it in force ("covers", "valid", "active", "still") and no ending word is stale.

:func:`status_over`, :func:`called_off`, :func:`withdrawn`, :func:`outcome_replaced` and
:func:`ended_in_force` say whether a claim states such a status or thing as current (pure;
neither raises on any ``str``); ``staleness.stale`` asks them.
"""

from __future__ import annotations

import functools
import re
from typing import Final

from .changes import sentences
from .words import content_forms, content_forms_in_order, stem


def status_over(claim: str, texts: tuple[str, ...]) -> str | None:
    """Why ``claim`` states a status that waits for an act ("ready for pickup") that a later
    message of ``texts`` (a conversation, in order) says done; None when it does not."""
    if _AWAITS.search(claim) is not None and _done_since(claim, texts):
        return "states a status a later message says is over"
    return None


def called_off(claim: str, texts: tuple[str, ...]) -> str | None:
    """Why ``claim``, with no word of calling off of its own, names all the words of a thing
    ``texts`` say was called off ("the Thursday sailing" after "the Thursday sailing has been
    cancelled"); None when it does not."""
    if _CALLED_OFF.search(claim) is not None:
        return None  # "Rebook the cancelled sailing" tells it
    forms = content_forms(claim)
    if any(thing <= forms for thing in _called_off_things(texts)):
        return "states as still on what the conversation says was called off"
    return None


def withdrawn(claim: str, texts: tuple[str, ...]) -> str | None:
    """Why ``claim``, a plan of the speaker's ("I was planning to fly home for the wedding"),
    names all the words of a plan ``texts`` say the speaker withdrew ("I'll probably miss the
    wedding") and did not take up again; None when it does not."""
    if _PLAN.search(claim) is None or _WITHDRAW.search(claim) is not None:
        return None
    forms = content_forms(claim)
    if any(thing <= forms for thing in _withdrawn_things(texts)):
        return "states as planned what the speaker withdrew later"
    return None


def ended_in_force(claim: str, texts: tuple[str, ...]) -> str | None:
    """Why ``claim`` states as in force ("covers", "valid", "still"), with no ending word of
    its own, a thing ``texts`` say has ended (all the words it is said of); None when it
    does not."""
    if _IN_FORCE.search(claim) is not None and _ENDED.search(claim) is None:
        forms = content_forms(claim)
        if any(thing <= forms for thing in _ended_things(texts)):
            return "states as in force what the conversation says has ended"
    return None


def outcome_replaced(claim: str, texts: tuple[str, ...]) -> str | None:
    """Why ``claim`` quotes a run's outcome (a test tally, an exit code, a build's or CI's
    status) that a later text of ``texts`` (a conversation, in order) replaced with another
    outcome of the same kind; None when it does not."""
    mine = outcomes(claim)
    if not mine:
        return None  # most claims quote no run
    said = _outcomes_said(texts)
    for kind, value in mine.items():
        at = [i for i, found in enumerate(said) if found.get(kind) == value]
        if not at:
            continue
        later = said[at[-1] + 1:]
        if any(kind in found and found[kind] != value for found in later):
            return "quotes a run's outcome a later run replaced"
        status = _run_status(kind, value)
        if status is not None and any(s not in (None, status) for found in later for s in _statuses(found)):
            return "quotes a run's outcome a later run replaced"
    return None


def _run_status(kind: str, value: object) -> str | None:
    """What an outcome says of its run: ``"pass"``, ``"fail"`` or ``"running"`` (a
    status, or an exit code: 0 passed, any other failed); None for a tally (its tests'
    status is told beside it)."""
    if kind.startswith("status "):
        return str(value)
    if kind == "exit":
        return "pass" if value == 0 else "fail"
    return None


def _statuses(found: dict[str, object]) -> list[str | None]:
    return [_run_status(kind, value) for kind, value in found.items()]


_TALLY = re.compile(
    r"\b(?P<n>\d+)\s+(?:tests?\s+)?(?P<word>passed|failed|errors?|skipped|xfailed|xpassed|failures?|deselected)\b",
    re.IGNORECASE,
)
"""A test runner's tally ("1 failed in 0.41s", "46 passed", "3 errors")."""
_EXIT = re.compile(r"\bexit(?:ed)?\s+(?:with\s+)?(?:code|status)?\s*(?P<code>\d+)\b", re.IGNORECASE)
"""An exit code ("exit code 2", "exited with 0", "exit status 1")."""
_RUN_STATUS = re.compile(
    r"\b(?P<what>CI|build|pipeline|checks?|tests?)(?:\s+(?:is|are|was|were|has|have|went|turned|came back|now|still|all))*"
    r"\s+(?P<status>green|red|passing|failing|passed|failed|broken|broke|succeeded|running|pending)\b",
    re.IGNORECASE,
)
"""A build's, CI's or tests' status ("CI green", "the build failed", "CI is still running",
"tests are passing")."""
_STATUS_OF: Final[dict[str, str]] = {
    "green": "pass", "passing": "pass", "passed": "pass", "succeeded": "pass",
    "red": "fail", "failing": "fail", "failed": "fail", "broken": "fail", "broke": "fail",
    "running": "running", "pending": "running",
}


def outcomes(text: str) -> dict[str, object]:
    """The runs' outcomes ``text`` states, by kind: ``"tally"`` (the tests' counts),
    ``"exit"`` (a code), ``"status <what>"`` for CI, a build, a pipeline, checks or the tests
    (``"pass"``, ``"fail"`` or ``"running"``; a tally gives the tests' status too); not asked."""
    found: dict[str, object] = {}
    for sentence in sentences(text):
        if sentence.rstrip().endswith("?"):
            continue  # "did the tests pass?"
        tally = frozenset((int(m.group("n")), m.group("word").casefold().rstrip("s")) for m in _TALLY.finditer(sentence))
        if tally:
            found["tally"] = tally
            failed = any(n and word in ("failed", "error", "failure") for n, word in tally)
            found["status test"] = "fail" if failed else "pass"
        for m in _EXIT.finditer(sentence):
            found["exit"] = int(m.group("code"))
        for m in _RUN_STATUS.finditer(sentence):
            what = m.group("what").casefold().rstrip("s")
            found["status " + ("ci" if what == "ci" else what)] = _STATUS_OF[m.group("status").casefold()]
    return found


@functools.lru_cache(maxsize=8)
def _outcomes_said(texts: tuple[str, ...]) -> tuple[dict[str, object], ...]:
    """Each text's runs' outcomes (:func:`outcomes`), in order."""
    return tuple(outcomes(text) for text in texts)


_AWAITS = re.compile(
    r"\b(?:ready (?:for|to)|awaiting|waiting (?:for|to)|pending|due for|out for|available for)\s+"
    r"(?:(?:your|my|the|his|her|their)\s+)?(?P<act>[a-z]+(?:\s+(?:up|off|out)\b)?)",
    re.IGNORECASE,
)
"""A status that waits for an act ("Status: ready for pickup", "awaiting approval", "out
for delivery"): its act."""
_DONE = re.compile(r"\b(?P<verb>[a-z]{3,}ed)(?:\s+(?:it|them)?\s*(?P<particle>up|off|out)\b)?", re.IGNORECASE)
"""A verb in the past ("picked up", "picked it up", "approved", "delivered")."""
_NEGATION = re.compile(r"\b(?:not|never|no|yet|n't)\b|n't\b", re.IGNORECASE)
_ENDED = re.compile(
    r"\b(?:expired|(?:has|have) (?:already )?run out|ran out|lapsed"
    r"|(?:has|have) ended|no longer|(?:is|are|was|were) (?:over|void|cancell?ed|terminated|expired|inactive)|inactive)\b",
    re.IGNORECASE,
)
"""Words saying a thing's term or status has ended ("EXPIRED", "has already run out",
"lapsed", "is no longer", "was cancelled"); not one that will ("expires in 2030", "runs out
in June")."""
_CALLED_OFF = re.compile(r"\b(?:cancel\w*|called off|call(?:ing)? off|scrapped)\b", re.IGNORECASE)
"""A word of calling something off."""
_PASSIVE_OFF = re.compile(
    r"\b(?:is|are|was|were|has been|have been|had been|got|been|be)\s+(?:now\s+|just\s+)?"
    r"(?:cancell?ed|called off|scrapped)\b|\b(?:cancell?ed|called off)\s*$",
    re.IGNORECASE,
)
"""A thing called off, named before ("the Thursday sailing has been cancelled", "Thursday
sailing: cancelled")."""
_ACTIVE_OFF = re.compile(r"\b(?:cancell?ed|called off|scrapped)\s+(?P<what>[^.;:!?,]+)", re.IGNORECASE)
"""A thing called off, named after ("they cancelled the Thursday sailing")."""
_IN_FORCE = re.compile(
    r"\b(?:cover(?:s|ed|ing|age)?|valid|active|in (?:force|effect)|applies|apply|good (?:until|through|for)|still)\b",
    re.IGNORECASE,
)
"""Words stating a thing in force ("the warranty covers ...", "is valid", "still")."""


_SPEAKER = r"\b(?:i|we)"
_PLAN = re.compile(
    _SPEAKER + r"(?:'m|\s+am|'re|\s+are|\s+was|\s+were)\s+(?:planning|going|hoping|meaning|intending|due)\s+to\b"
    r"|" + _SPEAKER + r"(?:'ll|\s+will|\s+plan to|\s+intend to|'d like to|\s+want to)\s"
    r"|\bthe user (?:plans|is planning|intends|wants|is going) to\b",
    re.IGNORECASE,
)
"""A plan of the speaker's (or of the user, as a summary says it)."""
_WITHDRAW = re.compile(
    r"(?:" + _SPEAKER + r"(?:'ll|\s+will|'d|\s+would|\s+have to|(?:'m|\s+am|'re|\s+are)\s+going to)"
    r"\s+(?:(?:probably|likely|just|have to|end up)\s+)*(?:miss|skip|give up on|pull out of|back out of|drop out of)"
    r"|" + _SPEAKER + r"(?:'m|\s+am|'re|\s+are)\s+(?:probably\s+)?not\s+(?:going|coming|flying|travell?ing|heading)"
    r"(?:\s+home)?\s+(?:to|for)"
    r"|" + _SPEAKER + r"\s+(?:won't|will not|can't|cannot)\s+(?:make it to|go to|attend|come to|be at|be going to)"
    r"|" + _SPEAKER + r"(?:'ve|\s+have)?\s+decided\s+(?:not to (?:go to|attend)|against))"
    r"\s+(?P<what>[^.;:!?,]+)",
    re.IGNORECASE,
)
"""The speaker withdrawing a plan ("I'll probably miss the wedding", "we're not going to the
gala", "I won't make it to the reunion", "I've decided against the trip"): what it was."""

_IF = re.compile(r"\b(?:if|unless)\b", re.IGNORECASE)
"""A sentence on a condition: what it withdraws, it withdraws only if the condition comes."""


_HEAD_SPLIT = re.compile(r"[.;!?]|(?<!\d),(?!\d)|\s[-\u2013\u2014]\s|\b(?:and|but|so|because)\b", re.IGNORECASE)
"""Where the words an ending word is said of start: its clause."""


@functools.lru_cache(maxsize=8)
def _ended_things(texts: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """What ``texts`` say has ended: the content words before an ending word in its clause
    (at most three: "Basic 5yr/60,000mi: EXPIRED" is the basic one's, "the basic warranty has
    already run out" the basic warranty's), in a statement not negated nor asked."""
    found = []
    for text in texts:
        for sentence in sentences(text):
            if sentence.rstrip().endswith("?"):
                continue
            for m in _ENDED.finditer(sentence):
                head = _HEAD_SPLIT.split(sentence[: m.start()])[-1]
                if _NEGATION.search(head):
                    continue  # "the warranty hasn't expired"
                names = content_forms_in_order(head)
                if names:
                    found.append(frozenset(names[-3:]))
    return tuple(dict.fromkeys(found))


@functools.lru_cache(maxsize=8)
def _called_off_things(texts: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """What ``texts`` say was called off (see the module docstring), in a statement not
    negated nor asked: each thing's content words."""
    found = []
    for text in texts:
        for sentence in sentences(text):
            if sentence.rstrip().endswith("?"):
                continue
            clauses = _HEAD_SPLIT.split(sentence)
            clauses += [c for c in _HEAD_SPLIT.split(sentence.replace(":", ";")) if c not in clauses]
            for clause in clauses:  # "Bad news: the Thursday sailing ..." and "Thursday sailing: cancelled"
                if _NEGATION.search(clause):
                    continue  # "the sailing wasn't cancelled"
                passive = _PASSIVE_OFF.search(clause)
                active = _ACTIVE_OFF.search(clause) if passive is None else None
                names = (content_forms_in_order(clause[: passive.start()])[-3:] if passive
                         else content_forms_in_order(active.group("what"))[:3] if active else [])
                if len(set(names)) >= 2:  # "the flight was cancelled" names no one flight
                    found.append(frozenset(names))
    return tuple(dict.fromkeys(found))


@functools.lru_cache(maxsize=8)
def _withdrawn_things(texts: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """The plans ``texts`` say the speaker withdrew (see the module docstring), each by its
    first content words, less those a later sentence plans again."""
    found: dict[frozenset[str], None] = {}
    for text in texts:
        for sentence in sentences(text):
            if sentence.rstrip().endswith("?"):
                continue
            forms = content_forms(sentence)
            if _PLAN.search(sentence) is not None and _WITHDRAW.search(sentence) is None:
                for thing in [t for t in found if t <= forms]:
                    del found[thing]  # "we're going to the gala after all"
            if _IF.search(sentence) is not None:
                continue  # "I'll miss the train if I stay": a withdrawal only on a condition
            for m in _WITHDRAW.finditer(sentence):
                names = content_forms_in_order(m.group("what"))[:3]
                if names:
                    found[frozenset(names)] = None
    return tuple(found)


def _done_since(claim: str, texts: tuple[str, ...]) -> bool:
    """Whether a status ``claim`` states, one that waits for an act ("ready for pickup"),
    is over: a text after the one saying it (a statement, not negated) says the act done
    ("I picked up the carprofen"), of what that text names (a word of it shared) or of
    "it"; not when the whole ``texts`` never say the status."""
    claimed = [_act(m) for m in _AWAITS.finditer(claim)]
    for i, text in enumerate(texts):
        said = [_act(m) for m in _AWAITS.finditer(text)]
        acts = [a for a in said if a in claimed]
        if not acts:
            continue
        named = content_forms(text)
        for later in texts[i + 1:]:
            for sentence in sentences(later):
                if sentence.rstrip().endswith("?") or _NEGATION.search(sentence):
                    continue
                for m in _DONE.finditer(sentence):
                    verb = stem(m.group("verb").casefold()) + (m.group("particle") or "").casefold()
                    if len(verb) >= 4 and any(a.startswith(verb) for a in acts) and (
                        content_forms(sentence) & named or re.search(r"\b(?:it|them)\b", sentence, re.IGNORECASE)
                    ):
                        return True
    return False


def _act(match: re.Match[str]) -> str:
    """An awaited act as one stem ("pickup", "pick up": "pickup"; "approval": "approval")."""
    return stem("".join(match.group("act").casefold().split()))
