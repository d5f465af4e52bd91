"""localmem: the memory of a desktop AI assistant, in one SQLite file."""

from .aio import AsyncMemoryStore
from .config import MemoryConfig
from .context import MemoryContext
from .errors import LocalMemError, SessionNotFound
from .models import (
    Checkpoint,
    CheckpointData,
    FactsData,
    Goal,
    ImportReport,
    LineSource,
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
from .reports import (
    Check,
    MaintenanceReport,
    ModelTrust,
    MemoryReport,
    RememberedFact,
    SessionCompaction,
    SessionMemory,
    Stats,
)
from .store import MemoryStore

__all__ = [
    "AsyncMemoryStore",
    "Check",
    "Checkpoint",
    "CheckpointData",
    "FactsData",
    "Goal",
    "ImportReport",
    "LineSource",
    "LocalMemError",
    "MaintenanceReport",
    "ModelTrust",
    "MemoryConfig",
    "MemoryContext",
    "MemoryReport",
    "MemoryStore",
    "Message",
    "Pin",
    "RememberedFact",
    "SearchHit",
    "Session",
    "SessionMemory",
    "SessionCompaction",
    "SessionNotFound",
    "Stats",
    "Subtask",
    "Summary",
    "SummaryFacts",
    "ToolExecution",
    "TrackedFile",
]
