"""Other assistants' data exports, read into the records an import writes.

A ChatGPT data export and a Claude.ai data export each hold a
``conversations.json`` (alone, or inside the export's .zip). Their readers
turn every conversation into a :class:`Conversation` (one future session: its
id, title, times, model, and the turns of its current branch), checking each
field they use; ``batch.session_batch`` makes it the same
:class:`~localmem.jsonl.SessionBatch` a localmem export's reader yields, so one
write path (``localmem.transfer``) stores every format. ``detect`` tells the
formats apart by content. Pure: no connection; a file object given is read.

- ``chatgpt``: the ``mapping`` tree, followed from ``current_node`` up through
  ``parent`` (other branches, edited or regenerated turns, are left out).
- ``claude``: the ``chat_messages`` list (or, where the export names a
  ``current_leaf_message_uuid``, the branch that ends there).
- ``common``: the records, times, markers for what is not text, the errors.
- ``batch``: a conversation as a ``SessionBatch`` (the store's import imports it itself;
  the readers need no ``jsonl``).
"""

from .common import Conversation, Turn
from .detect import FORMATS, NAMES, detect, load, peek, read_conversations, seekable, sniff

__all__ = [
    "FORMATS", "NAMES", "Conversation", "Turn", "detect", "load", "peek", "read_conversations", "seekable",
    "sniff",
]
