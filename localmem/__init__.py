"""localmem: the memory of a desktop AI assistant, in one SQLite file."""

from .config import MemoryConfig
from .context import MemoryContext
from .errors import LocalMemError, SessionNotFound
from .models import (
    Checkpoint,
    CheckpointData,
    FactsData,
    Goal,
    Message,
    Pin,
    SearchHit,
    Session,
    Subtask,
    Summary,
    SummaryFacts,
    ToolExecution,
    TrackedFile,
)
from .store import MemoryStore
from .transfer import ImportReport

__all__ = [
    "Checkpoint",
    "CheckpointData",
    "FactsData",
    "Goal",
    "ImportReport",
    "LocalMemError",
    "MemoryConfig",
    "MemoryContext",
    "MemoryStore",
    "Message",
    "Pin",
    "SearchHit",
    "Session",
    "SessionNotFound",
    "Subtask",
    "Summary",
    "SummaryFacts",
    "ToolExecution",
    "TrackedFile",
]
