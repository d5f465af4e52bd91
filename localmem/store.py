"""``MemoryStore``: the one front door, owning the connection to one SQLite file.

Everything a host application does goes through a store: sessions, messages,
pins and the context built before each model call. Each logical write is one
transaction; a rejected argument raises :class:`~localmem.errors.LocalMemError`
before anything is written.

The store is composed, not inherited: ``__init__`` builds one
:class:`~localmem.handle.Handle` (the connection, lock, transactions, caches,
clock and configuration) and one small object per capability (sessions,
messages, contexts, pins, summaries, state, checkpoints, forgetting, recall,
items, maintenance, admin, transfer, history, browse, incognito), each given the handle
and, by name, the other capabilities it uses; every public method below hands
its call to one of them. ARCHITECTURE.md draws who uses whom.

Thread safety: one store may be shared by threads. Its methods serialise on
an internal lock (SQLite serialises writers anyway); contexts and records it
returns are immutable snapshots. Several processes may open the same file:
WAL lets readers run beside a writer, writers wait up to ``busy_timeout``,
and the context cache notices their commits through ``PRAGMA data_version``.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from . import db
from .admin import DEFAULT_BACKUP_PAGES, Admin
from .args import check_path
from .autopins import pin_key
from .browse import Browse
from .checkpoints import Checkpoints
from .clock import iso, utc_now
from .config import DEFAULT_PIN_IMPORTANCE, MemoryConfig, default_db_path, make_config
from .contexts import Contexts
from .embeddings import Embedder
from .errors import InvalidInput
from .exports import Conversation
from .forget import Forgetting
from .handle import Handle
from .history import History
from .incognito import Incognito, routed
from .items import Items
from .keys import find_key
from .localmodel import LocalModel
from .maintain import Maintenance
from .messages import Messages
from .models import (
    Checkpoint, Goal, ImportReport, Item, LineSource, Message, NewMessage, Pin, SearchHit, Session,
    SessionOverview, Subtask, Summary, SummaryFacts, ToolExecution, TrackedFile,
)
from .context import MemoryContext
from .pins import Pins
from .recall import Recall
from .reports import MaintenanceReport, MemoryReport, ModelTrust, ResummarizeReport, Stats
from .semantic import Semantic
from .resummarize import Resummarizer
from .scoring import Scorer, score_importance
from .sessions import Sessions
from .state import SessionState
from .span_facts import SpanFacts
from .summaries import Summaries
from .summarizer import OllamaBackend, Summarizer
from .tokens import Tokenizer
from .transfer import Existing, Transfer
from .vectors import Vectors
from .verdicts import Verdicts

__all__ = ["MemoryStore", "iso"]

Clock = Callable[[], datetime.datetime]
F = TypeVar("F", bound=Callable[..., Any])


def doc_of(method: Callable[..., Any]) -> Callable[[F], F]:
    """Give the door's method the docstring (the contract) of the capability's method
    it hands its call to: written once, where the work is."""

    def give(door_method: F) -> F:
        door_method.__doc__ = method.__doc__
        return door_method

    return give


@routed  # once one exists, a call naming a session that keeps nothing goes to its store
class MemoryStore:
    """The memory of an assistant, in one SQLite file.

    ``path`` defaults to ``$LOCALMEM_DB``, else the per-user data directory's
    ``memory.db``; ``":memory:"`` keeps everything in RAM. ``config`` is a
    :class:`MemoryConfig` or a dict of its fields. ``tokenizer``, ``scorer``,
    ``clock``, ``summarizer`` and ``embedder`` replace the default policies
    (tests swap them in). Nothing touches the network until something is
    summarized.
    ``key`` (else ``$LOCALMEM_KEY``, ``$LOCALMEM_KEY_FILE``, the keyring:
    ``localmem.keys``) opens, or creates, a SQLCipher-encrypted file (the
    ``encrypt`` extra); a missing or wrong key raises :class:`~localmem.errors.WrongKey`.

    Each method hands its call to the capability that holds it (built in
    ``__init__``; the module says which is which), and carries its docstring.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        config: MemoryConfig | Mapping[str, Any] | None = None,
        *,
        tokenizer: Tokenizer | None = None,
        scorer: Scorer = score_importance,
        clock: Clock = utc_now,
        summarizer: Summarizer | None = None,
        embedder: Embedder | None = None,
        key: str | None = None,
    ) -> None:
        self.config = make_config(dict(config) if isinstance(config, Mapping) else config)
        if path is None:
            self.path: Path | str = default_db_path()
        else:
            self.path = db.MEMORY if path == db.MEMORY else check_path(path)
        self.tokenizer = tokenizer or Tokenizer(self.config.encoding)
        # An in-memory store has no file to encrypt; a file's key: localmem.keys.
        if self.path == db.MEMORY and key is not None:
            raise InvalidInput("an in-memory store has no file to encrypt: give no key")
        file_key = None if self.path == db.MEMORY else find_key(key, self.path)
        handle = self._db = Handle(
            self.path, self.config, self.tokenizer, scorer, clock, pin_key, key=file_key
        )
        # Each capability gets the handle and, by name, the capabilities it uses.
        model = self._model = LocalModel(handle, summarizer)
        semantic = self._semantic = Semantic(handle, embedder)
        recall = self._recall = Recall(handle, semantic, Vectors(handle.conn))
        state = self._state = SessionState(handle, model)
        verdicts = self._verdicts = Verdicts(handle)
        checkpoints = self._checkpoints = Checkpoints(handle, model, state, verdicts)
        forget = self._forget = Forgetting(handle, checkpoints)
        pins = self._pins = Pins(handle, forget)
        facts = self._facts = SpanFacts(handle, model, verdicts)
        summaries = self._summaries = Summaries(handle, model, pins, checkpoints, verdicts, facts)
        resummarizer = self._resummarizer = Resummarizer(handle, model, summaries, facts)
        messages = self._messages = Messages(handle, pins, summaries)
        self._items = Items(handle, messages, forget)
        contexts = self._contexts = Contexts(handle, model, recall)
        transfer = self._transfer = Transfer(handle, forget)
        self._history = History(handle, transfer, pins, facts)
        self._maintenance = Maintenance(handle, summaries, resummarizer)
        self._admin = Admin(handle, forget, contexts)
        self._browse = Browse(handle)
        incognito = self._incognito = Incognito(handle, self, forget, transfer, model, recall)
        self._sessions = Sessions(handle, incognito)

    # --- lifecycle -----------------------------------------------------------

    def close(self) -> None:
        """Stop the background summaries, then close the connection.

        The queued summaries get ``close_timeout`` seconds; then ``close``
        returns (after a write in progress, if any), even while the model
        hangs or another thread keeps writing. The ranges not summarized by
        then stay due. The store cannot be used afterwards.
        """
        background = self._summaries.background
        if background is not None:
            background.close(self.config.close_timeout)
        self._incognito.close()  # the sessions that keep nothing are gone
        self._model.close()
        self._db.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MemoryStore({str(self.path)!r})"

    @property
    def tokenizer_name(self) -> str:
        """The token counter in use: an encoding name, or the estimate's name."""
        return self.tokenizer.name

    @property
    def ollama_backend(self) -> OllamaBackend:
        """The local Ollama server as this store's summarizer reaches it (made on
        first use, from the configuration; making it sends nothing)."""
        return self._model.summarizer().backend

    def schema(self) -> str:
        """The file's schema as SQL."""
        with self._db.locked() as conn:
            return db.schema(conn)

    @doc_of(Sessions.create_session)
    def create_session(
        self, model: str | None = None, title: str | None = None, session_id: str | None = None, *,
        persist: bool = True,
    ) -> Session:
        return self._sessions.create_session(model, title, session_id, persist=persist)

    @doc_of(Sessions.get_session)
    def get_session(self, session_id: str) -> Session:
        return self._sessions.get_session(session_id)

    @doc_of(Sessions.list_sessions)
    def list_sessions(self) -> list[Session]:
        return self._sessions.list_sessions()

    @doc_of(Messages.add_message)
    def add_message(
        self, session_id: str, role: str, text: str, model_id: str | None = None,
    ) -> Message:
        return self._messages.add_message(session_id, role, text, model_id)

    @doc_of(Messages.add_messages)
    def add_messages(
        self, session_id: str, messages: Iterable[Mapping[str, Any] | NewMessage],
    ) -> list[Message]:
        return self._messages.add_messages(session_id, messages)

    @doc_of(Messages.get_message)
    def get_message(self, message_id: int) -> Message:
        return self._messages.get_message(message_id)

    @doc_of(Messages.get_messages)
    def get_messages(
        self, session_id: str, after_id: int | None = None, limit: int | None = None,
    ) -> list[Message]:
        return self._messages.get_messages(session_id, after_id, limit)

    @doc_of(Contexts.build_context)
    def build_context(
        self, session_id: str, max_tokens: int | None = None, query: str | None = None,
    ) -> MemoryContext:
        return self._contexts.build_context(session_id, max_tokens, query)

    @doc_of(Contexts.cache_stats)
    def cache_stats(self) -> dict[str, int]:
        return self._contexts.cache_stats()

    @doc_of(Contexts.count_tokens)
    def count_tokens(self, text: str, model: str | None = None) -> int:
        return self._contexts.count_tokens(text, model)

    @doc_of(Pins.get_pins)
    def get_pins(
        self, session_id: str | None, kind: str | None = None, *, history: bool = False,
    ) -> list[Pin]:
        return self._pins.get_pins(session_id, kind, history=history)

    @doc_of(Pins.memory_report)
    def memory_report(self) -> MemoryReport:
        return self._pins.memory_report()

    @doc_of(Pins.pin)
    def pin(
        self, session_id: str | None, content: str, source_message_id: int | None = None,
        importance: float = DEFAULT_PIN_IMPORTANCE, kind: str = "manual", *,
        scope: str | None = None, by: str = "user",
    ) -> Pin:
        return self._pins.pin(session_id, content, source_message_id, importance, kind, scope=scope, by=by)

    @doc_of(Pins.unpin)
    def unpin(self, pin_id: int) -> None:
        return self._pins.unpin(pin_id)

    @doc_of(Pins.update_pin)
    def update_pin(
        self, pin_id: int, *, content: str | None = None, importance: float | None = None,
    ) -> Pin:
        return self._pins.update_pin(pin_id, content=content, importance=importance)

    @doc_of(Summaries.get_summaries)
    def get_summaries(self, session_id: str) -> list[Summary]:
        return self._summaries.get_summaries(session_id)

    @doc_of(Summaries.get_summary_facts)
    def get_summary_facts(self, session_id: str) -> list[SummaryFacts]:
        return self._summaries.get_summary_facts(session_id)

    @doc_of(Summaries.line_sources)
    def line_sources(self, session_id: str) -> list[LineSource]:
        return self._summaries.line_sources(session_id)

    @doc_of(Verdicts.records)
    def model_trust(self) -> list[ModelTrust]:
        return self._verdicts.records()

    @doc_of(Summaries.needs_summarization)
    def needs_summarization(self, session_id: str) -> bool:
        return self._summaries.needs_summarization(session_id)

    @doc_of(Summaries.summarize)
    def summarize(self, session_id: str) -> Summary | None:
        return self._summaries.summarize(session_id)

    @doc_of(Resummarizer.resummarize)
    def resummarize(
        self, session_id: str | None = None, *,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> ResummarizeReport:
        return self._resummarizer.resummarize(session_id, on_progress=on_progress)

    @doc_of(SessionState.add_subtask)
    def add_subtask(
        self, session_id: str, name: str, dependencies: Sequence[int] | None = None,
    ) -> Subtask:
        return self._state.add_subtask(session_id, name, dependencies)

    @doc_of(SessionState.cancel_goal)
    def cancel_goal(self, session_id: str) -> Goal | None:
        return self._state.cancel_goal(session_id)

    @doc_of(SessionState.complete_goal)
    def complete_goal(self, session_id: str, success: bool = True) -> Goal | None:
        return self._state.complete_goal(session_id, success)

    @doc_of(SessionState.context_usage)
    def context_usage(self, session_id: str) -> dict[str, Any]:
        return self._state.context_usage(session_id)

    @doc_of(SessionState.get_goals)
    def get_goals(self, session_id: str) -> list[Goal]:
        return self._state.get_goals(session_id)

    @doc_of(SessionState.get_subtasks)
    def get_subtasks(self, session_id: str) -> list[Subtask]:
        return self._state.get_subtasks(session_id)

    @doc_of(SessionState.get_tool_executions)
    def get_tool_executions(self, session_id: str) -> list[ToolExecution]:
        return self._state.get_tool_executions(session_id)

    @doc_of(SessionState.get_tracked_files)
    def get_tracked_files(self, session_id: str) -> list[TrackedFile]:
        return self._state.get_tracked_files(session_id)

    @doc_of(SessionState.record_tool)
    def record_tool(
        self, session_id: str, tool_name: str, arguments: Mapping[str, Any] | None = None,
        success: bool = True, result_summary: str | None = None, error_message: str | None = None,
    ) -> ToolExecution:
        return self._state.record_tool(
            session_id, tool_name, arguments, success, result_summary, error_message
        )

    @doc_of(SessionState.set_goal)
    def set_goal(self, session_id: str, text: str) -> Goal:
        return self._state.set_goal(session_id, text)

    @doc_of(SessionState.track_file)
    def track_file(self, session_id: str, path: str, modified: bool = False) -> TrackedFile:
        return self._state.track_file(session_id, path, modified)

    @doc_of(SessionState.update_subtask)
    def update_subtask(self, subtask_id: int, status: str, notes: str | None = None) -> Subtask:
        return self._state.update_subtask(subtask_id, status, notes)

    @doc_of(Checkpoints.checkpoint)
    def checkpoint(self, session_id: str) -> Checkpoint:
        return self._checkpoints.checkpoint(session_id)

    @doc_of(Checkpoints.get_checkpoints)
    def get_checkpoints(self, session_id: str) -> list[Checkpoint]:
        return self._checkpoints.get_checkpoints(session_id)

    @doc_of(Checkpoints.latest_checkpoint)
    def latest_checkpoint(self, session_id: str) -> Checkpoint | None:
        return self._checkpoints.latest_checkpoint(session_id)

    @doc_of(Forgetting.clear_checkpoints)
    def clear_checkpoints(self, session_id: str) -> int:
        return self._forget.clear_checkpoints(session_id)

    @doc_of(Forgetting.clear_conversation)
    def clear_conversation(self, session_id: str) -> int:
        return self._forget.clear_conversation(session_id)

    @doc_of(Forgetting.clear_messages)
    def clear_messages(self, session_id: str) -> int:
        return self._forget.clear_messages(session_id)

    @doc_of(Forgetting.delete_message)
    def delete_message(self, message_id: int) -> None:
        return self._forget.delete_message(message_id)

    @doc_of(Semantic.embed_pending)
    def embed_pending(self, session_id: str | None = None, limit: int | None = None) -> int:
        return self._semantic.embed_pending(session_id, limit)

    @doc_of(Recall.search)
    def search(self, query: str, session_id: str | None = None, limit: int = 10) -> list[SearchHit]:
        return self._recall.search(query, session_id, limit)

    @doc_of(Items.add_items)
    def add_items(
        self, session_id: str, kind: str,
        items: Iterable[tuple[Mapping[str, Any] | NewMessage, str]], *,
        create_session: bool = False,
    ) -> list[Message]:
        return self._items.add_items(session_id, kind, items, create_session=create_session)

    @doc_of(Items.get_items)
    def get_items(
        self, session_id: str, kind: str, *, newest: int | None = None,
        after_id: int | None = None,
    ) -> list[Item]:
        return self._items.get_items(session_id, kind, newest=newest, after_id=after_id)

    @doc_of(Items.pop_item)
    def pop_item(self, session_id: str, kind: str) -> Item | None:
        return self._items.pop_item(session_id, kind)

    @doc_of(Maintenance.maintain)
    def maintain(
        self, *, on_progress: Callable[[int, int], None] | None = None,
    ) -> MaintenanceReport:
        return self._maintenance.maintain(on_progress=on_progress)

    @doc_of(Admin.backup)
    def backup(
        self, path: str | Path, *, pages: int = DEFAULT_BACKUP_PAGES, force: bool = False,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> Path:
        return self._admin.backup(path, pages=pages, force=force, on_progress=on_progress)

    @doc_of(Admin.check_file)
    def check_file(self) -> list[str]:
        return self._admin.check_file()

    @doc_of(Admin.prune)
    def prune(self, older_than: datetime.timedelta, *, dry_run: bool = False) -> list[str]:
        return self._admin.prune(older_than, dry_run=dry_run)

    @doc_of(Admin.stats)
    def stats(self) -> Stats:
        return self._admin.stats()

    @doc_of(Admin.vacuum)
    def vacuum(self) -> dict[str, int]:
        return self._admin.vacuum()

    @doc_of(Transfer.import_sessions)
    def import_sessions(
        self, lines: Iterable[str], *, on_progress: Callable[[int], None] | None = None,
        rename: bool = False, existing: Existing = "refuse", unverified: bool = False,
    ) -> ImportReport:
        return self._transfer.import_sessions(
            lines, on_progress=on_progress, rename=rename, existing=existing, unverified=unverified
        )

    @doc_of(History.import_file)
    def import_file(
        self, source: str | Path | BinaryIO, *, format: str = "auto", existing: Existing = "refuse",
        on_progress: Callable[[int], None] | None = None, unverified: bool = False,
    ) -> ImportReport:
        return self._history.import_file(
            source, format=format, existing=existing, on_progress=on_progress, unverified=unverified
        )

    @doc_of(History.import_conversations)
    def import_conversations(
        self, conversations: Sequence[Conversation], *, existing: Existing = "refuse",
        on_progress: Callable[[int], None] | None = None,
    ) -> ImportReport:
        return self._history.import_conversations(
            conversations, existing=existing, on_progress=on_progress
        )

    @doc_of(Browse.due_ranges)
    def due_ranges(self, session_id: str) -> int:
        return self._browse.due_ranges(session_id)

    @doc_of(Browse.find_session_ids)
    def find_session_ids(self, prefix: str, limit: int = 10) -> list[str]:
        return self._browse.find_session_ids(prefix, limit)

    @doc_of(Browse.newest_messages)
    def newest_messages(self, session_id: str, count: int) -> list[Message]:
        return self._browse.newest_messages(session_id, count)

    @doc_of(Browse.session_overview)
    def session_overview(self, limit: int | None = None) -> list[SessionOverview]:
        return self._browse.session_overview(limit)

    @doc_of(Forgetting.delete_session)
    def delete_session(self, session_id: str) -> None:
        return self._incognito.delete_session(session_id)

    @doc_of(Transfer.export_sessions)
    def export_sessions(self, session_ids: Sequence[str] | None = None) -> Iterator[str]:
        return self._incognito.export_sessions(session_ids)
