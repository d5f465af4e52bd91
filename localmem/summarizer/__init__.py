"""The summarizer: the one corner of localmem that touches the network.

``engine.Summarizer`` asks the session's local Ollama model for a summary of
a span, validates it and falls back to a deterministic summary;
``ollama_client`` is the network boundary; ``prompts``, ``validation`` and
``fallback`` are pure functions; ``background`` runs summaries off the write path.
"""

from .engine import FALLBACK, OFFLINE, Outcome, Summarizer
from .ollama_client import OllamaBackend

__all__ = ["FALLBACK", "OFFLINE", "OllamaBackend", "Outcome", "Summarizer"]
