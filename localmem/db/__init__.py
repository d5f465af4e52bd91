"""All of localmem's SQL, one module per capability (this file only lists them).

Every statement localmem runs is a named ``*_SQL`` constant beside the function
that runs it; callers use ``from . import db`` and ``db.<name>``.
"""

from .connection import (
    BEGIN_READ_SQL, BEGIN_WRITE_SQL, COMMIT_SQL, DATA_VERSION_SQL, MEMORY, ROLLBACK_SQL,
    SCHEMA_SQL, SQLITE_HEADER, connect, data_version, migrate, schema, transaction,
)
from .rows import (
    CHECKPOINTS_SQL, CHECKPOINT_COLUMNS, FACTS_COLUMNS, FACTS_SQL, FILES_SQL, FILE_COLUMNS,
    GOALS_SQL, GOAL_COLUMNS, INSERT_CHECKPOINT_SQL, INSERT_ITEM_SQL, INSERT_MESSAGE_SQL,
    INSERT_SESSION_SQL, ITEM_COLUMNS, MESSAGES_AFTER_SQL, MESSAGE_COLUMNS, NEXT_MESSAGE_ID_SQL,
    OPTIMIZE_SQL, PIN_COLUMNS, RECENT_SUMMARIES_SQL, ROW_MEMO_MAX_CHARS, ROW_MEMO_SIZE,
    SEARCH_TABLES, SESSION_COLUMNS, SESSION_PINS_SQL, SUBTASKS_SQL, SUBTASK_COLUMNS,
    SUMMARY_COLUMNS, TOOLS_SQL, TOOL_COLUMNS,
)
from .sessions import (
    DELETE_SESSION_SQL, EXISTS_SESSION_SQL, GET_SESSION_SQL, LIST_SESSIONS_SQL,
    OVERVIEW_COLUMNS, RESERVE_IDS_SQL, SESSION_IDS_BETWEEN_SQL, SESSION_NAMES_SQL,
    SESSION_OVERVIEW_SQL, TOUCH_SESSION_SQL, delete_session, get_session, insert_session,
    list_sessions, reserve_ids, session_exists, session_ids_between, session_names,
    session_overview, touch_session,
)
from .messages import (
    CLEAR_MESSAGES_SQL, CLEAR_SUMMARIES_SQL, DELETE_MESSAGE_SQL, GET_MESSAGE_SQL, ITEMS_AFTER_SQL,
    MESSAGES_BETWEEN_SQL, MessageRow, NEWEST_ITEMS_SQL, RECENT_MESSAGES_SQL, clear_messages,
    delete_message, get_message, insert_items, insert_message, insert_messages, items_after,
    messages_after, messages_between, newest_items, recent_messages,
)
from .pins import (
    AutoPin, PinRow, DELETE_AUTO_KEYED_PINS_SQL, DELETE_PIN_SQL, GET_PIN_SQL,
    INSERT_AUTO_PIN_SQL, INSERT_PIN_SQL, KEYED_PIN_SQL, KIND_PINS_SQL, MESSAGE_SESSION_SQL,
    PIN_SCOPE_SQL, PIN_HISTORY_SQL, PINS_WITH_SOURCES_SQL, PinSource, pins_with_sources,
    PREVIOUS_USER_PINS_SQL, previous_user_pins,
    SUPERSEDE_PIN_SQL, TOP_PINS_SQL, OWN_PINS_SQL, PINNED_SESSIONS_SQL, UPDATE_PIN_SQL, delete_auto_pins, delete_pin, get_pin,
    insert_auto_pins, insert_pin, keyed_pin, kind_pins, message_session, own_pins,
    pin_history, pin_scope, pinned_sessions,
    session_pins, supersede_pin, top_pins, update_pin,
)
from .summaries import (
    CONTEXT_SUMMARIES_SQL, DELETE_SUMMARY_SQL, GET_CACHED_SUMMARY_SQL, SOURCE_SESSIONS_SQL,
    SOURCE_SUMMARIES_SQL, SUMMARIES_WITHIN_SQL, INSERT_SUMMARY_SQL, LAST_COVERED_SQL,
    MODEL_RATIO_SQL, OVERLAP_SQL, PUT_CACHED_SUMMARY_SQL, RANGE_MESSAGES_SQL, RECORD_TOKENS_SQL,
    SESSION_PROFILE_SQL, SUMMARIES_AFTER_SQL, UNCOVERED_TOKENS_SQL, cache_summary,
    cached_summary, context_summaries, delete_summary, SummaryRow, insert_summary, last_covered,
    messages_in_range, model_ratio, recent_summaries, record_tokens, session_profile,
    source_sessions, source_summaries, summaries_after, summaries_within, uncovered_tokens,
    TOKEN_STATS_SQL, PUT_TOKEN_STATS_SQL, token_stats, put_token_stats,
)
from .compaction import (
    COMPACTION_CANDIDATES_SQL, CompactionCandidate, RECORD_COMPACTION_SQL,
    compaction_candidates, record_compaction,
)
from .fulltext import (
    SEARCH_FACTS_SQL, SEARCH_MESSAGES_SQL, SEARCH_PINS_SQL, SEARCH_SUMMARIES_SQL,
    SNIPPET_ELLIPSIS, SNIPPET_END, SNIPPET_MAX_CHARS, SNIPPET_START, SNIPPET_TOKENS,
    TERM_DOCS_ALL_SQL, TERM_DOCS_SQL, TEXT_COLUMNS, KEYED_SQL, NEWEST_KEY_SQL, REINDEX_SQL,
    keyed, optimize_indexes, reindex, search, term_docs,
)
from .recall import (
    MESSAGES_SAID_BETWEEN_SQL, MESSAGES_BY_IDS_SQL, NEIGHBOURS_SQL,
    SCOPE_STATS_SQL, ALL_STATS_SQL, TERM_FILE_HOLDERS_AFTER_SQL, TERM_HOLDERS_AFTER_SQL, TERM_HOLDERS_COUNT_SQL, TERM_HOLDERS_SQL, messages_by_ids, neighbours,
    messages_said_between, scope_stats, term_count, term_file_holders_after, term_holders,
    term_holders_after,
    SCOPE_IDS_SQL, TERM_FILE_HOLDERS_SQL, scope_ids, term_file_holders,
)
from .embeddings import (
    INSERT_EMBEDDING_SQL, PENDING_MESSAGES_SQL,
    SESSION_VECTORS_SQL, RECENT_VECTORS_SQL, PendingRow, recent_vectors, insert_embeddings, pending_messages,
    session_vectors, ALL_VECTORS_SQL, CLEAR_VECTOR_LOG_SQL, VECTOR_CHANGES_SQL, VECTOR_EXTENT_SQL,
    VECTOR_LOG_SQL, VECTORS_BY_IDS_SQL, all_vectors, log_vector_changes, vector_changes,
    vector_extent, vectors_by_ids, HIGHEST_MESSAGE_SQL, highest_message_id,
)
from .transfer import (
    IMPORT_FILE_SQL, IMPORT_GOAL_SQL, IMPORT_SUBTASK_SQL, SESSION_IDS_SQL, SESSION_ITEMS_SQL,
    SESSION_ROW_SQL, SessionRows, import_checkpoint, import_file, import_goal, import_items,
    import_messages, import_session, import_subtask, session_ids, session_rows,
    IMPORT_PIN_ENDING_SQL, IMPORT_PIN_SOURCE_SQL, SESSION_PIN_ENDINGS_SQL, SESSION_PIN_SOURCES_SQL,
    import_pin_links,
)
from .state import (
    ACTIVE_GOAL_SQL, CLEAR_CHECKPOINTS_SQL, END_GOAL_SQL, GET_FILE_SQL, GET_SUBTASK_SQL,
    GOAL_SUBTASKS_SQL, GOAL_TOOLS_SQL, INSERT_FACTS_SQL, INSERT_GOAL_SQL, INSERT_SUBTASK_SQL,
    INSERT_TOOL_SQL, PRUNE_CHECKPOINTS_SQL, SESSION_STATE_SQL, SUBTASK_SESSION_SQL, StateRow,
    TRACK_FILE_SQL, UPDATE_SUBTASK_SQL, active_goal, checkpoints, clear_checkpoints, end_goal,
    get_subtask, goal_subtasks, goal_tools, goals, insert_checkpoint, insert_facts, insert_goal,
    insert_subtask, insert_tool, session_state, subtask_session, subtasks, summary_facts, tools,
    track_file, tracked_files, update_subtask,
)
from .admin import (
    APPLICATION_ID_SQL, CHECKPOINT_TRUNCATE_SQL, FOREIGN_KEY_CHECK_SQL, FTS_OPTIMIZE_SQL,
    INTEGRITY_CHECK_SQL, PAGE_COUNT_SQL, PAGE_SIZE_SQL, QUICK_CHECK_SQL, SET_BUSY_TIMEOUT_SQL,
    SNAPSHOT_SQL, STALE_SESSIONS_SQL, STATS_COUNTS_SQL, USER_VERSION_SQL, VACUUM_SQL, backup,
    checkpoint_passive, checkpoint_truncate, file_pragmas, integrity_problems, no_waiting, reader,
    replicated, stale_sessions, stats_counts, vacuum, verify_copy, ATTACH_SQL, DETACH_SQL, EXPORT_HEADER_SQL,
    EXPORT_SQL, export,
)
from .cipher import KEY_CHECK_SQL, QUIET_SQL, open_file, plain_cipher

from .forget import (
    CLEAR_SUMMARY_CACHE_SQL, COVERING_SUMMARY_SQL, DELETE_CHECKPOINTS_FROM_SQL, Forgotten,
    DELETE_SESSION_SOURCED_AUTO_PINS_SQL, DELETE_SOURCED_AUTO_PINS_SQL, DROP_SUMMARY_SQL,
    REWRITE_FACTS_SQL, REWRITE_SUMMARY_SQL, ROLLUPS_FROM_SQL,
    SESSION_LOWEST_IDS_SQL, clear_summary_cache, covering_summaries, delete_checkpoints_from,
    delete_session_sourced_auto_pins, delete_sourced_auto_pins, drop_summary,
    merge_indexes, rewrite_facts, rewrite_summary, rollups_from, session_lowest_ids,
)
from .provenance import (
    BURIED_SQL, BURY_SQL, DROP_ENDINGS_SQL, DROP_MARK_SQL, DROP_SESSION_ENDINGS_SQL,
    DROP_TOMBSTONES_SQL, END_PIN_SQL, EVERY_SESSION, FORGET_MARK_SQL, INSERT_PIN_SOURCE_SQL,
    NEWEST_MESSAGE_ID_SQL, RAISE_MARK_SQL, RESTORE_ENDED_SQL, RESTORE_SESSION_ENDED_SQL,
    SOURCED_PIN_SQL, add_pin_sources, buried_after, bury, drop_session_marks, end_pin,
    ENDED_PINS_SQL, ended_pins,
    CHECKPOINT_SOURCES_SQL, DROP_FACT_SOURCES_SQL, FACT_SOURCES_SQL, INSERT_CHECKPOINT_SOURCE_SQL,
    INSERT_FACT_SOURCE_SQL, add_checkpoint_sources, add_fact_sources, checkpoint_sources,
    drop_fact_sources, fact_sources,
    forget_mark, key_hash, raise_mark, restore_ended, restore_session_ended,
)

__all__ = [
    "BURIED_SQL", "BURY_SQL", "DROP_ENDINGS_SQL", "DROP_MARK_SQL", "DROP_SESSION_ENDINGS_SQL",
    "DROP_TOMBSTONES_SQL", "END_PIN_SQL", "EVERY_SESSION", "FORGET_MARK_SQL",
    "INSERT_PIN_SOURCE_SQL", "NEWEST_MESSAGE_ID_SQL", "RAISE_MARK_SQL", "RESTORE_ENDED_SQL",
    "RESTORE_SESSION_ENDED_SQL", "SOURCED_PIN_SQL", "add_pin_sources", "buried_after", "bury",
    "drop_session_marks", "end_pin", "ENDED_PINS_SQL", "ended_pins", "forget_mark", "key_hash", "raise_mark", "restore_ended",
    "restore_session_ended",
    "CHECKPOINT_SOURCES_SQL", "DROP_FACT_SOURCES_SQL", "FACT_SOURCES_SQL",
    "INSERT_CHECKPOINT_SOURCE_SQL", "INSERT_FACT_SOURCE_SQL", "add_checkpoint_sources",
    "add_fact_sources", "checkpoint_sources", "drop_fact_sources", "fact_sources",
    "RESERVE_IDS_SQL", "reserve_ids", "TOKEN_STATS_SQL", "PUT_TOKEN_STATS_SQL", "token_stats", "put_token_stats",
    "CLEAR_SUMMARY_CACHE_SQL", "COVERING_SUMMARY_SQL", "DELETE_CHECKPOINTS_FROM_SQL", "Forgotten",
    "DELETE_SESSION_SOURCED_AUTO_PINS_SQL", "DELETE_SOURCED_AUTO_PINS_SQL", "DROP_SUMMARY_SQL",
    "REWRITE_FACTS_SQL", "REWRITE_SUMMARY_SQL",
    "ROLLUPS_FROM_SQL", "SESSION_LOWEST_IDS_SQL", "clear_summary_cache", "covering_summaries",
    "delete_checkpoints_from", "delete_session_sourced_auto_pins", "delete_sourced_auto_pins",
    "drop_summary", "merge_indexes", "rewrite_facts",
    "rewrite_summary", "rollups_from", "session_lowest_ids",
    "MESSAGES_BY_IDS_SQL", "NEIGHBOURS_SQL",
    "SCOPE_STATS_SQL", "ALL_STATS_SQL", "TERM_FILE_HOLDERS_AFTER_SQL", "TERM_HOLDERS_AFTER_SQL", "TERM_HOLDERS_COUNT_SQL", "TERM_HOLDERS_SQL", "messages_by_ids", "all_vectors", "HIGHEST_MESSAGE_SQL", "highest_message_id", "log_vector_changes", "vector_changes",
    "vector_extent", "vectors_by_ids", "ALL_VECTORS_SQL", "CLEAR_VECTOR_LOG_SQL", "VECTOR_CHANGES_SQL",
    "VECTOR_EXTENT_SQL", "VECTOR_LOG_SQL", "VECTORS_BY_IDS_SQL", "messages_said_between", "MESSAGES_SAID_BETWEEN_SQL",
    "neighbours", "scope_stats", "term_count", "term_file_holders_after", "term_holders",
    "term_holders_after",
    "SCOPE_IDS_SQL", "TERM_FILE_HOLDERS_SQL", "scope_ids", "term_file_holders",
    "INSERT_EMBEDDING_SQL",
    "PENDING_MESSAGES_SQL", "SESSION_VECTORS_SQL", "RECENT_VECTORS_SQL", "PendingRow", "recent_vectors",
    "insert_embeddings", "pending_messages", "session_vectors",
    "BEGIN_READ_SQL", "BEGIN_WRITE_SQL", "COMMIT_SQL", "DATA_VERSION_SQL", "MEMORY",
    "ROLLBACK_SQL", "ROW_MEMO_MAX_CHARS", "ROW_MEMO_SIZE", "SCHEMA_SQL", "SQLITE_HEADER",
    "connect", "data_version", "migrate", "schema", "transaction", "DELETE_SESSION_SQL",
    "EXISTS_SESSION_SQL", "GET_SESSION_SQL", "INSERT_SESSION_SQL", "LIST_SESSIONS_SQL",
    "SESSION_COLUMNS", "TOUCH_SESSION_SQL", "delete_session", "get_session", "insert_session",
    "list_sessions", "session_exists", "touch_session", "SESSION_NAMES_SQL", "session_names",
    "CLEAR_MESSAGES_SQL",
    "CLEAR_SUMMARIES_SQL", "DELETE_MESSAGE_SQL",
    "INSERT_ITEM_SQL", "INSERT_MESSAGE_SQL", "ITEMS_AFTER_SQL", "ITEM_COLUMNS",
    "MESSAGES_AFTER_SQL", "MESSAGE_COLUMNS", "MessageRow", "NEWEST_ITEMS_SQL",
    "NEXT_MESSAGE_ID_SQL", "RECENT_MESSAGES_SQL", "clear_messages", "delete_message",
    "get_message", "GET_MESSAGE_SQL", "insert_items", "insert_message", "insert_messages", "items_after", "messages_after",
    "newest_items", "recent_messages", "AutoPin", "PinRow", "DELETE_AUTO_KEYED_PINS_SQL",
    "DELETE_PIN_SQL", "GET_PIN_SQL", "INSERT_AUTO_PIN_SQL", "INSERT_PIN_SQL", "KEYED_PIN_SQL",
    "KIND_PINS_SQL", "MESSAGE_SESSION_SQL", "PIN_COLUMNS", "PIN_SCOPE_SQL", "PIN_HISTORY_SQL", "PINS_WITH_SOURCES_SQL", "PinSource", "pins_with_sources", "SESSION_PINS_SQL", "SUPERSEDE_PIN_SQL", "TOP_PINS_SQL", "OWN_PINS_SQL", "PINNED_SESSIONS_SQL",
    "UPDATE_PIN_SQL", "delete_auto_pins", "delete_pin", "get_pin", "insert_auto_pins",
    "PREVIOUS_USER_PINS_SQL", "previous_user_pins",
    "insert_pin", "keyed_pin", "kind_pins", "message_session", "own_pins", "pin_history",
    "pin_scope", "pinned_sessions", "session_pins",
    "supersede_pin", "top_pins",
    "update_pin", "CONTEXT_SUMMARIES_SQL", "GET_CACHED_SUMMARY_SQL", "INSERT_SUMMARY_SQL",
    "LAST_COVERED_SQL", "MODEL_RATIO_SQL", "OVERLAP_SQL", "PUT_CACHED_SUMMARY_SQL",
    "RECENT_SUMMARIES_SQL", "RECORD_TOKENS_SQL", "SESSION_PROFILE_SQL", "SUMMARIES_AFTER_SQL",
    "SUMMARY_COLUMNS", "UNCOVERED_TOKENS_SQL", "cache_summary", "cached_summary",
    "context_summaries", "SummaryRow", "insert_summary", "last_covered", "model_ratio", "recent_summaries",
    "record_tokens", "session_profile", "summaries_after", "uncovered_tokens",
    "RANGE_MESSAGES_SQL", "messages_in_range",
    "COMPACTION_CANDIDATES_SQL", "CompactionCandidate", "RECORD_COMPACTION_SQL",
    "compaction_candidates", "record_compaction", "OPTIMIZE_SQL", "SEARCH_FACTS_SQL",
    "SEARCH_MESSAGES_SQL", "SEARCH_PINS_SQL", "SEARCH_SUMMARIES_SQL", "SEARCH_TABLES",
    "SNIPPET_ELLIPSIS", "SNIPPET_END", "SNIPPET_MAX_CHARS", "SNIPPET_START", "SNIPPET_TOKENS",
    "TERM_DOCS_ALL_SQL", "TERM_DOCS_SQL", "TEXT_COLUMNS", "KEYED_SQL", "NEWEST_KEY_SQL", "REINDEX_SQL", "keyed",
    "optimize_indexes", "reindex", "search", "term_docs", "IMPORT_FILE_SQL", "IMPORT_GOAL_SQL", "IMPORT_SUBTASK_SQL",
    "SESSION_IDS_SQL", "SESSION_ITEMS_SQL", "SESSION_ROW_SQL", "SessionRows",
    "import_checkpoint", "import_file", "import_goal", "import_items", "import_messages",
    "import_session", "import_subtask", "session_ids", "session_rows", "IMPORT_PIN_ENDING_SQL",
    "IMPORT_PIN_SOURCE_SQL", "SESSION_PIN_ENDINGS_SQL", "SESSION_PIN_SOURCES_SQL", "import_pin_links",
    "ACTIVE_GOAL_SQL",
    "CHECKPOINTS_SQL", "CHECKPOINT_COLUMNS", "CLEAR_CHECKPOINTS_SQL", "END_GOAL_SQL",
    "FACTS_COLUMNS", "FACTS_SQL", "FILES_SQL", "FILE_COLUMNS", "GET_FILE_SQL",
    "GET_SUBTASK_SQL", "GOALS_SQL", "GOAL_COLUMNS", "GOAL_SUBTASKS_SQL", "GOAL_TOOLS_SQL",
    "INSERT_CHECKPOINT_SQL", "INSERT_FACTS_SQL", "INSERT_GOAL_SQL", "INSERT_SUBTASK_SQL",
    "INSERT_TOOL_SQL", "PRUNE_CHECKPOINTS_SQL", "SESSION_STATE_SQL", "SUBTASKS_SQL",
    "SUBTASK_COLUMNS", "SUBTASK_SESSION_SQL", "StateRow", "TOOLS_SQL", "TOOL_COLUMNS",
    "TRACK_FILE_SQL", "UPDATE_SUBTASK_SQL", "active_goal", "checkpoints", "clear_checkpoints",
    "end_goal", "get_subtask", "goal_subtasks", "goal_tools", "goals", "insert_checkpoint",
    "insert_facts", "insert_goal", "insert_subtask", "insert_tool", "session_state",
    "subtask_session", "subtasks", "summary_facts", "tools", "track_file", "tracked_files",
    "update_subtask", "APPLICATION_ID_SQL", "CHECKPOINT_TRUNCATE_SQL", "FOREIGN_KEY_CHECK_SQL",
    "FTS_OPTIMIZE_SQL", "INTEGRITY_CHECK_SQL", "PAGE_COUNT_SQL", "PAGE_SIZE_SQL",
    "QUICK_CHECK_SQL", "SET_BUSY_TIMEOUT_SQL", "SNAPSHOT_SQL", "STALE_SESSIONS_SQL",
    "STATS_COUNTS_SQL", "USER_VERSION_SQL", "VACUUM_SQL", "backup", "checkpoint_passive", "checkpoint_truncate",
    "file_pragmas", "integrity_problems", "no_waiting", "reader", "replicated",
    "stale_sessions", "stats_counts", "vacuum", "verify_copy",
    "OVERVIEW_COLUMNS", "SESSION_IDS_BETWEEN_SQL", "SESSION_OVERVIEW_SQL", "session_ids_between",
    "session_overview", "MESSAGES_BETWEEN_SQL", "messages_between", "DELETE_SUMMARY_SQL",
    "SOURCE_SESSIONS_SQL", "SOURCE_SUMMARIES_SQL", "SUMMARIES_WITHIN_SQL", "delete_summary",
    "source_sessions", "source_summaries", "summaries_within",
]
