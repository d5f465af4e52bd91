"""localmem: the memory of a desktop AI assistant, in one SQLite file."""

from .config import MemoryConfig
from .context import MemoryContext
from .errors import LocalMemError, SessionNotFound
from .models import (
    Check,
    Checkpoint,
    CheckpointData,
    FactsData,
    Goal,
    Message,
    Pin,
    SearchHit,
    Session,
    Stats,
    Subtask,
    Summary,
    SummaryFacts,
    ToolExecution,
    TrackedFile,
)
from .store import MemoryStore

__all__ = [
    "Check",
    "Checkpoint",
    "CheckpointData",
    "FactsData",
    "Goal",
    "LocalMemError",
    "MemoryConfig",
    "MemoryContext",
    "MemoryStore",
    "Message",
    "Pin",
    "SearchHit",
    "Session",
    "SessionNotFound",
    "Stats",
    "Subtask",
    "Summary",
    "SummaryFacts",
    "ToolExecution",
    "TrackedFile",
]
