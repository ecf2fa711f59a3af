"""When to try a request again: 503 answers, honouring Retry-After, within bounded attempts
and total waiting time. Both transports ask the same policy."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

RETRYABLE_STATUS = 503


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """`attempts` counts every try (1: never retry); waits never add up past `max_total_s`.

    A 503 from memlane means nothing was changed (a write runs in one transaction), so
    every method is retried, writes included."""

    attempts: int = 3
    max_total_s: float = 30.0
    default_delay_s: float = 1.0  # when the answer carries no readable Retry-After
    max_delay_s: float = 10.0  # a longer Retry-After is shortened to this

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError("attempts must be at least 1")
        if min(self.max_total_s, self.default_delay_s, self.max_delay_s) < 0:
            raise ValueError("retry times must not be negative")

    def delay_s(
        self, status: int, retry_after: str | None, attempt: int, waited_s: float
    ) -> float | None:
        """Seconds to wait before try `attempt + 1`, or None to give up and report."""
        if status != RETRYABLE_STATUS or attempt >= self.attempts:
            return None
        delay = parse_retry_after(retry_after)
        delay = self.default_delay_s if delay is None else min(delay, self.max_delay_s)
        if waited_s + delay > self.max_total_s:
            return None
        return delay


NO_RETRY = RetryPolicy(attempts=1)


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Retry-After as seconds from now: delta-seconds or an HTTP date (RFC 9110 10.2.3)."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():  # "²" is a digit to str.isdigit, not to float()
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())
