"""Time as the file stores it: ISO-8601 UTC text with milliseconds, ``…Z``.

Timestamps are compared as text in SQL (retention, idle time), which is
right only while every one of them has this one shape. ``iso`` writes it;
``parse_time`` reads any ISO-8601 timestamp (UTC unless it says otherwise).
"""

from __future__ import annotations

from datetime import datetime, timezone


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def iso(moment: datetime) -> str:
    """ISO-8601 UTC with milliseconds, e.g. ``2026-11-22T12:43:00.123Z``."""
    if moment.utcoffset():
        moment = moment.astimezone(timezone.utc)
    return moment.isoformat(timespec="milliseconds")[:23] + "Z"


def parse_time(text: object) -> datetime | None:
    """An ISO-8601 timestamp as an aware datetime (UTC unless it says otherwise);
    None for anything else."""
    if not isinstance(text, str):
        return None
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"  # Python 3.10 reads no "Z"
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)
