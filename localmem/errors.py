"""Errors raised by localmem.

Every error the library raises derives from :class:`LocalMemError`, so a host
application can catch one type. Docstrings read as the messages' meaning; the
CLI turns these into a one-line message and a non-zero exit code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import ImportReport


class LocalMemError(Exception):
    """Something went wrong inside localmem."""


class InvalidInput(LocalMemError, ValueError):
    """An argument was rejected before anything was written."""


class InvalidType(InvalidInput, TypeError):
    """An argument of the wrong type, or a mapping with a field that does not exist,
    was rejected before anything was written.

    Also a :class:`TypeError`, as Python and the frameworks localmem adapts raise
    for these (the OpenAI Agents SDK: "Unknown session settings: limitt").
    """


class ImportRefused(InvalidInput):
    """An import stopped at a malformed line or a session that exists already.

    Nothing of the session it was reading was written; the sessions before it
    stay imported: ``report`` (an :class:`~localmem.models.ImportReport`) lists them.
    """

    def __init__(self, message: str, report: ImportReport) -> None:
        super().__init__(message)
        self.report = report


class FactRemoved(InvalidInput):
    """An automatic pin of a fact the user removed (unpinned, or forgot the message it
    came from), from no message said since: it stays removed until the user says it
    again in a new message (name that message as the pin's source), or pins it."""


class SessionNotFound(LocalMemError, KeyError):
    """No session with this id exists in the database."""

    def __init__(self, session_id: object) -> None:
        super().__init__(session_id)
        self.session_id = session_id

    def __str__(self) -> str:
        return f"no session with id {self.session_id!r}"


class NotFound(LocalMemError, KeyError):
    """No row of this kind with this id exists in the database."""

    def __init__(self, kind: str, item_id: object) -> None:
        super().__init__(kind, item_id)
        self.kind = kind
        self.item_id = item_id

    def __str__(self) -> str:
        return f"no {self.kind} with id {self.item_id!r}"


class DatabaseError(LocalMemError):
    """The database file could not be opened, read or written."""


class NotALocalMemDatabase(DatabaseError):
    """The file exists but is not a localmem database; it was left untouched."""


class SchemaTooNew(DatabaseError):
    """The file was written by a newer localmem; upgrade localmem to open it."""


class WrongKey(DatabaseError):
    """The file's encryption key is missing or wrong, or a key was given for a file
    that is not encrypted; the file was left untouched (``localmem.keys``)."""


class Closed(LocalMemError, RuntimeError):
    """This object was closed and cannot be used any more; open a new one."""


class MissingExtra(LocalMemError, ImportError):
    """An integration (or encryption) needs a package that is not installed: install
    localmem's extra for it."""
