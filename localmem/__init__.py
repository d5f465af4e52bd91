"""localmem: the memory of a desktop AI assistant, in one SQLite file."""

from .config import MemoryConfig
from .context import MemoryContext
from .errors import LocalMemError, SessionNotFound
from .models import Message, Pin, SearchHit, Session, Summary
from .store import MemoryStore

__all__ = [
    "LocalMemError",
    "MemoryConfig",
    "MemoryContext",
    "MemoryStore",
    "Message",
    "Pin",
    "SearchHit",
    "Session",
    "SessionNotFound",
    "Summary",
]
