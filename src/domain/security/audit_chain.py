"""Checking audit chains event by event (streamed): links, hashes, bodies, tombstones."""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID

from memlane.domain.model import Owner
from memlane.domain.security.audit import (
    GENESIS,
    AuditEvent,
    EventKind,
    body_digest,
    header_bytes,
    link_hash,
)


@dataclass(frozen=True, slots=True)
class ChainBreak:
    """One event that does not verify, and why."""

    owner: Owner
    event_id: UUID
    seq: int
    reason: str


# A report keeps the first breaks it finds, and counts them all: a chain rewritten wholesale
# must not turn the check itself into a memory problem.
KEPT_BREAKS = 1000


@dataclass
class ChainReport:
    """What a check saw: owners, events, tombstones, how many breaks, the first of them."""

    owners: int = 0
    events: int = 0
    tombstones: int = 0
    broken: int = 0
    breaks: list[ChainBreak] = field(default_factory=list)

    @property
    def intact(self) -> bool:
        return self.broken == 0


class ChainVerifier:
    """Feed every event ordered by (owner, seq), then `finish()`; memory is O(1) per owner
    except the tombstones still waiting for the erasure event that must follow them."""

    def __init__(self) -> None:
        self.report = ChainReport()
        self._owner: Owner | None = None
        self._seq = 0
        self._prev = GENESIS
        self._pending: list[AuditEvent] = []

    def feed(self, event: AuditEvent) -> None:
        if event.owner != self._owner:
            self._close_owner()
            self._owner, self._seq, self._prev = event.owner, 0, GENESIS
            self.report.owners += 1
        self.report.events += 1
        for reason in self._problems(event):
            self._broken(event, reason)
        self._seq, self._prev = event.seq, event.hash
        if event.erased:
            self.report.tombstones += 1
            self._pending.append(event)
        elif event.entry.kind == EventKind.ERASURE:
            self._pending.clear()

    def finish(self) -> ChainReport:
        self._close_owner()
        self._owner = None
        return self.report

    def _problems(self, event: AuditEvent) -> list[str]:
        problems = []
        if event.seq != self._seq + 1:
            problems.append(f"sequence gap: expected {self._seq + 1}, found {event.seq}")
        if event.prev_hash != self._prev:
            problems.append("previous hash does not match the event before it")
        header = header_bytes(event.owner, event.seq, event.entry)
        if link_hash(event.prev_hash, header, event.body_digest) != event.hash:
            problems.append("hash does not match the event's contents")
        if not event.erased and body_digest(event.entry.kind, event.entry.payload) != \
                event.body_digest:
            problems.append("body (kind or payload) does not match its digest")
        return problems

    def _close_owner(self) -> None:
        # A tombstone is legitimate only when an erasure event follows it in the chain.
        for event in self._pending:
            self._broken(event, "tombstone without a later erasure event")
        self._pending.clear()

    def _broken(self, event: AuditEvent, reason: str) -> None:
        self.report.broken += 1
        if len(self.report.breaks) < KEPT_BREAKS:
            self.report.breaks.append(ChainBreak(event.owner, event.entry.id, event.seq, reason))


def verify(events: list[AuditEvent]) -> ChainReport:
    """Check a list of events (ordered by owner, seq) at once."""
    verifier = ChainVerifier()
    for event in events:
        verifier.feed(event)
    return verifier.finish()
