"""localmem: the memory of a desktop AI assistant, in one SQLite file."""

from .config import MemoryConfig
from .context import MemoryContext
from .errors import LocalMemError, SessionNotFound
from .models import (
    Checkpoint,
    CheckpointData,
    FactsData,
    Goal,
    MaintenanceReport,
    Message,
    Pin,
    SearchHit,
    Session,
    SessionCompaction,
    Subtask,
    Summary,
    SummaryFacts,
    ToolExecution,
    TrackedFile,
)
from .store import MemoryStore

__all__ = [
    "Checkpoint",
    "CheckpointData",
    "FactsData",
    "Goal",
    "LocalMemError",
    "MaintenanceReport",
    "MemoryConfig",
    "MemoryContext",
    "MemoryStore",
    "Message",
    "Pin",
    "SearchHit",
    "Session",
    "SessionCompaction",
    "SessionNotFound",
    "Subtask",
    "Summary",
    "SummaryFacts",
    "ToolExecution",
    "TrackedFile",
]
