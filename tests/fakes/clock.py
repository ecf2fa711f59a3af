"""FakeClock: a controllable `now` for the service (call it; move it with advance)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

START = datetime(2030, 6, 1, 12, 0, tzinfo=UTC)


class FakeClock:
    """Callable like the Clock port; time only moves when a test says so."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> datetime:
        self.now += delta
        return self.now
