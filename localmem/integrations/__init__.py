"""Drop-in memory for the agent frameworks people already use.

Each module here adapts localmem to one framework and imports that framework
itself; importing ``localmem`` (or this package) imports none of them.

- ``localmem.integrations.openai_agents.LocalMemSession``: a ``Session`` for
  the OpenAI Agents SDK, used like its ``SQLiteSession``
  (``pip install 'localmem[openai-agents]'``).
- ``localmem.integrations.langchain.LocalMemChatMessageHistory``: a
  ``BaseChatMessageHistory`` for LangChain (``pip install 'localmem[langchain]'``).

Both keep each framework record verbatim as an item (JSON text in the
``items`` table) beside a localmem message carrying its readable text, so the
conversation is counted, scored, summarized and shown by ``localmem context``
like any other, while the framework gets back exactly what it stored.
"""
