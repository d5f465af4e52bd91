"""The ``localmem`` command line (entry point ``localmem.cli:main``), one module per group
of commands; importing them registers their commands on the ``localmem`` group."""

from . import admin, encryption, pins, replica, serve, sessions, summaries, transfer
from .base import cli, main

__all__ = ["admin", "cli", "encryption", "main", "pins", "replica", "serve", "sessions", "summaries", "transfer"]
