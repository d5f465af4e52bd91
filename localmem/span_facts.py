"""The facts stored beside a summary: a span's facts, what the model says must be
remembered, and which messages each rests on.

:class:`SpanFacts` makes what ``Summaries.store_summary`` stores beside a level-1
summary (``Draft``; ``summaries`` and ``resummarize`` alike): the span's facts by
the rules (``localmem.facts``), and, when the model just wrote the summary (or,
with ``facts_apart``, read the span and answered), the model's, each kept only
where the span supports it; with auto pins, what the model says must never be
lost (``remember``) and the facts it says update earlier ones; the model's
answer's verdict (``trust.kept_whole``), and, with ``model_trust="earned"``,
nothing of the model's until it has earned trust for its facts on this file
(``verdicts``). Beside them: each fact's messages (``localmem.sources``) and the
span's warnings the summary does not say (``summarizer.warned``), pinned with
their messages. An import's offline summaries take the rules' facts from here
too (``history``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import extract as rules
from .checkpoint import RULES
from .facts import ModelFacts, facts_messages, overlay_facts, rule_facts
from .models import FactsData, Message, Session
from .outcome import Outcome
from .remember import model_updates, must_remember
from .sources import Sources, Span, facts_sources
from .summarizer.warned import unsaid_warnings
from .testimony import user_evidence
from .trust import kept_whole
from .updates import Update, ended_in, model_update, stops

if TYPE_CHECKING:  # what it is given (the handle, capabilities): for the type checker only
    from .handle import Handle
    from .localmodel import LocalModel
    from .verdicts import Verdicts

logger = logging.getLogger("localmem")


class SpanFacts:
    """A span's facts, the model's must-remember items and updates, and the sources
    of each line, as a summary stores them; the model asked through ``model``, its
    record read in ``verdicts``."""

    def __init__(self, handle: Handle, model: LocalModel, verdicts: Verdicts) -> None:
        self._db = handle
        self._model = model
        self._verdicts = verdicts

    def summary_facts(
        self, session: Session, pairs: Sequence[tuple[str, str]], tokens: int, outcome: Outcome
    ) -> tuple[FactsData, str, list[str], dict[str, Update], tuple[str, bool] | None]:
        """The facts of a span (rules; plus the model's when it just wrote the summary,
        or with ``facts_apart`` when it just read the span and answered, ``Outcome.answered``;
        and at least ``structured_min_tokens`` are at stake), their source, and
        (``auto_pins``) what the model says must never be lost, and the facts it says
        update earlier ones (each new fact, pinned too, with the update that finds the
        pins it supersedes); and the model's answer's verdict, ``(model, kept whole)``
        (``trust.kept_whole`` over every fact, must-remember item and update it proposed;
        None when it was not asked or proposed none), recorded with the summary
        (``Draft.facts_verdict``). With ``model_trust="earned"``, until the model has earned
        trust for its facts on this file (``verdicts``), the rules' facts alone are kept and
        nothing of its is pinned: its answer is judged all the same.

        With ``facts_apart`` the model is asked whether or not its summary was kept:
        each fact is judged on its own (grounded in the span, the user's words for the
        user's facts, with their negations), not by the summary it came beside. It is
        never asked when the summary call made none (no model, an unreachable server:
        the offline path costs no call) or failed before the model answered (an HTTP
        error, a prompt cut or too large), nor beside a summary from the cache: a span
        is cached only when its summary was just stored, and its facts were asked then;
        a cache hit is there to spare the model the call."""
        facts = self.offline_facts(pairs)
        config = self._db.config
        asked = (outcome.from_model and not outcome.cached) or (config.facts_apart and outcome.answered)
        if not asked or tokens < config.structured_min_tokens:
            return facts, RULES, [], {}, None
        request = facts_messages(pairs, must_remember=self._db.config.auto_pins)
        answer = self._model.summarizer().ask_json(
            request, session.model, ModelFacts, ratio=self._model.model_ratio(session.model)
        )
        if answer.data is None or answer.model is None:
            return facts, RULES, [], {}, None
        verdicts: list[tuple[str, str, str | None]] = []
        pins: list[str] = []
        updates: dict[str, Update] = {}
        replaced: list[str] = []
        if self._db.config.auto_pins:
            # The user's fact: what the user said supports it, negations and all;
            # never the assistant's guess or a tool's output.
            said = user_evidence(pairs)
            pins = must_remember(answer.data, said, pairs, verdicts=verdicts)
            kept = model_updates(answer.data, said, verdicts=verdicts)
            updates = {new: model_update(old) for new, old in kept}
            replaced = [old for _, old in kept]
            pins += [new for new in updates if new not in pins]
        # a medicine or routine the user stopped later in the span ("OK, no more aspirin")
        # is no current fact, however the model put it
        users = stops([text for role, text in pairs if role == "user"])  # read once
        pins = [p for p in pins if not ended_in(p, users)]
        grounded = answer.data.grounded(pairs, replaced, verdicts=verdicts)
        verdict = (answer.model, kept_whole([why for _, _, why in verdicts])) if verdicts else None
        if not self._verdicts.shows(answer.model, "facts"):
            logger.info("%s has not earned trust for its facts on this file yet: the rules' facts are kept", answer.model)
            return facts, RULES, [], {}, verdict
        kept_facts = overlay_facts(facts, grounded)
        kept_facts = kept_facts.model_copy(update={
            "key_facts": [f for f in kept_facts.key_facts if not ended_in(f, users)],
            "decisions": [f for f in kept_facts.decisions if not ended_in(f, users)],
        })
        return kept_facts, answer.model, pins, updates, verdict

    def offline_facts(self, pairs: Sequence[tuple[str, str]]) -> FactsData:
        """A span's facts by the rules (source ``RULES``): what a summary keeps when no
        model wrote it, and what an import's offline summaries keep (``history``)."""
        return rule_facts(rules.extract(pairs), [text for _, text in pairs])

    @staticmethod
    def warning_sources(summary: str, span: Sequence[Message]) -> list[tuple[str, tuple[int, ...]]]:
        """The warnings of ``span`` that ``summary`` does not say (``summarizer.warned``),
        each with its message's id: pinned with it as their source (``Draft.warnings``)."""
        found = unsaid_warnings(summary, [(m.role, m.text) for m in span])
        return [(warning, (span[i].id,)) for warning, i in found]

    @staticmethod
    def fact_sources(data: FactsData, span: Sequence[Message]) -> Sources:
        """Each line of a span's facts with the messages of ``span`` it rests on
        (``sources.facts_sources``): stored with them (``Draft.fact_sources``)."""
        return facts_sources(data, Span.over(span))
