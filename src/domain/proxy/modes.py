"""Memory per request (`X-Memlane-Memory: off | read | write | on`) and what a key allows."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from memlane.domain.proxy.errors import InvalidChatRequest


class MemoryMode(StrEnum):
    OFF = "off"  # forwarded as it came, nothing learned
    READ = "read"  # memories injected, nothing learned
    WRITE = "write"  # nothing injected, the exchange learned
    ON = "on"  # both (the default)

    @property
    def reads(self) -> bool:
        return self in (MemoryMode.READ, MemoryMode.ON)

    @property
    def writes(self) -> bool:
        return self in (MemoryMode.WRITE, MemoryMode.ON)

    @classmethod
    def of(cls, reads: bool, writes: bool) -> MemoryMode:
        if reads:
            return cls.ON if writes else cls.READ
        return cls.WRITE if writes else cls.OFF


def asked_mode(header: str | None) -> MemoryMode:
    """The mode a request asks for; absent means on. InvalidChatRequest for another value."""
    if header is None or not header.strip():
        return MemoryMode.ON
    try:
        return MemoryMode(header.strip().lower())
    except ValueError:
        raise InvalidChatRequest(
            "X-Memlane-Memory must be one of off, read, write, on"
        ) from None


@dataclass(frozen=True, slots=True)
class Applied:
    """The mode a request gets, and why it differs from the one asked (None: it does not)."""

    mode: MemoryMode
    reason: str | None = None


def allowed_mode(asked: MemoryMode, can_read: bool, can_write: bool) -> Applied:
    """What the key's scopes leave of the asked mode: memories:read for injection,
    memories:write for learning. A part the key lacks is dropped, and the reason says so."""
    mode = MemoryMode.of(asked.reads and can_read, asked.writes and can_write)
    if mode is asked:
        return Applied(mode)
    lacking = [
        scope for scope, wanted, held in (
            ("memories:read", asked.reads, can_read), ("memories:write", asked.writes, can_write)
        ) if wanted and not held
    ]
    return Applied(mode, f"downgraded: this key lacks {' and '.join(lacking)}")
