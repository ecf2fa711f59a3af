"""The topic index: per memory the blind tokens of its topic keys, what reads and fills it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID

from memlane.domain.model import Owner

_NEVER = datetime.min.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class TopicTally:
    """One topic token of an owner: how many memories carry it, the newest one and its time."""

    token: str
    count: int
    last_activity: datetime
    newest: UUID


@dataclass(frozen=True, slots=True)
class MemoryTopicTokens:
    """What the backfill writes for one memory stored before tokens were kept."""

    owner: Owner
    memory_id: UUID
    tokens: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TopicIndexReport:
    """A backfill run: memories given their tokens, those whose attributes did not open (left
    without, read the old way), and how many are still without."""

    filled: int = 0
    unreadable: int = 0
    remaining: int = 0


@dataclass(slots=True)
class TopicEntry:
    """A topic of the list as it is put together: `label` None until its newest is opened."""

    token: str
    count: int
    last_activity: datetime
    newest: tuple[datetime, UUID]
    label: str | None = None

    @classmethod
    def new(cls, token: str) -> TopicEntry:
        """A topic no memory was added to yet."""
        return cls(token, 0, _NEVER, (_NEVER, UUID(int=0)))

    @classmethod
    def of(cls, tally: TopicTally) -> TopicEntry:
        return cls(tally.token, tally.count, tally.last_activity,
                   (tally.last_activity, tally.newest))

    def add(self, label: str, created_at: datetime, memory_id: UUID) -> None:
        """One more memory carrying the topic; the newest one names it."""
        self.count += 1
        self.last_activity = max(self.last_activity, created_at)
        if (created_at, memory_id) > self.newest:
            self.newest, self.label = (created_at, memory_id), label


def head(entries: Iterable[TopicEntry], limit: int) -> list[TopicEntry]:
    """The `limit` most recently active, and any tied with the last of them (their labels
    decide the order among equals, so they are needed before the cut)."""
    ordered = sorted(entries, key=lambda e: e.last_activity, reverse=True)
    if len(ordered) <= limit:
        return ordered
    edge = ordered[limit - 1].last_activity
    return [e for e in ordered if e.last_activity >= edge]
