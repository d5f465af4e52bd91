"""A model's record on this file, per kind of answer: recording a verdict, reading it, listing it.

With ``MemoryConfig.model_trust="earned"`` (the default) what a model wrote reaches the
context only once the model has earned trust for that kind of answer on this file: its
summaries (``Summaries.shown``), its checkpoint items (``Checkpoints.take``), its facts and
pins (``SpanFacts.summary_facts``). Each answer it gives is judged and its verdict (kept
whole or not) recorded here, per kind (:data:`KINDS`), in the transaction that stores what
came of it: a forget during the model's call discards both. The rule itself is the pure
``localmem.trust``; the rows are ``model_verdicts`` (``db``).
"""

from __future__ import annotations

import logging
import sqlite3
from typing import TYPE_CHECKING, Final, Literal

from . import db
from .reports import ModelTrust
from .trust import TRUST_WINDOW, earned

if TYPE_CHECKING:  # what it is given (the handle): for the type checker only
    from .handle import Handle

logger = logging.getLogger("localmem")

Kind = Literal["summary", "checkpoint", "facts"]
KINDS: Final[tuple[Kind, ...]] = ("summary", "checkpoint", "facts")
SHOWN: Final[dict[str, str]] = {
    "summary": "its summaries are shown as its own",
    "checkpoint": "its checkpoint items are added to the rules' checkpoint",
    "facts": "its facts and pins are kept",
}
"""What earning a kind changes, as the log says it once."""


class Verdicts:
    """Every model's record per kind on this file (``model_verdicts``)."""

    def __init__(self, handle: Handle) -> None:
        self._db = handle

    @property
    def checked(self) -> bool:
        """``model_trust="checked"``: whatever passes the checks is the model's, trusted or not."""
        return self._db.config.model_trust == "checked"

    def trusted(self, model: str, kind: Kind) -> bool:
        """Whether ``model`` has earned trust for ``kind`` on this file (``trust.earned`` on
        its newest verdicts of that kind here). Reads under the store's lock."""
        with self._db.locked() as conn:
            return earned(db.recent_verdicts(conn, model, kind, TRUST_WINDOW))

    def shows(self, model: str, kind: Kind) -> bool:
        """Whether what ``model`` wrote of ``kind`` (passing the checks) is stored as its:
        always with ``model_trust="checked"``, else only once it has earned trust."""
        return self.checked or self.trusted(model, kind)

    @staticmethod
    def record(conn: sqlite3.Connection, model: str, kind: Kind, whole: bool, now: str) -> None:
        """One answer of ``model`` of ``kind`` counts toward its record: kept whole or not,
        in the caller's transaction (the one storing what came of the answer). Says once
        when the model earns trust for that kind with it."""
        recent = db.recent_verdicts(conn, model, kind, TRUST_WINDOW)
        db.insert_verdict(conn, model, kind, whole, now)
        if not earned(recent) and earned([*recent, whole]):
            logger.info("%s has earned trust for its %s on this file: %s", model, _plural(kind), SHOWN[kind])

    def records(self) -> list[ModelTrust]:
        """Each model's record per kind on this file (a :class:`~localmem.reports.ModelTrust`
        per model and kind it answered here, by name, then kind). Read-only."""
        with self._db.locked() as conn:
            return [
                ModelTrust(
                    model=model, kind=kind, answered=answered, whole=whole, recent=len(recent),
                    recent_whole=sum(recent), earned=earned(recent),
                )
                for model, kind, answered, whole in db.verdict_models(conn)
                for recent in [db.recent_verdicts(conn, model, kind, TRUST_WINDOW)]
            ]


def _plural(kind: str) -> str:
    return {"summary": "summaries", "checkpoint": "checkpoints", "facts": "facts"}[kind]
