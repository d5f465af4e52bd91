"""m016_scope_index: a session's message statistics read from its index alone (issue 22 point 7).

A session's first query-aware context reads its statistics (how many messages, their
tokens in all, their ids: ``db.scope_ids``) for BM25. With the index on
``(session_id, id)`` alone, the token counts are read from each message's row, one
table page per few messages: about half of the statement's time. With ``token_count``
in the index the statement reads the index alone (a covering index); every statement
that used the old index (a session's newest messages, a message's neighbours) finds
the same prefix. A message's token count never changes, so the index is written only
when a message is (as before: the same number of index entries, a few bytes longer).
"""

from __future__ import annotations

M016_SCOPE_INDEX = (
    "DROP INDEX messages_session_id",
    "CREATE INDEX messages_session_tokens ON messages (session_id, id, token_count)",
)
