"""Clock: the one source of `now` for the service (tests pass a fixed one)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """Aware UTC now."""
    return datetime.now(UTC)
