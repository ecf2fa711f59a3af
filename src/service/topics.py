"""Topics of an owner's memories, derived at read time: activity, facts, next actions, questions."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime

from memlane.domain.facts import Fact, FactType
from memlane.domain.model import Cursor, MemoryFilter, Owner, StoredMemory
from memlane.domain.topics import (
    OpenQuestion,
    TopicNotFound,
    TopicSummary,
    TopicTurn,
    open_questions,
    split_speakers,
    summarise,
    topics_of,
)
from memlane.ports.clock import Clock
from memlane.ports.memories import MemoryStorePort
from memlane.service.facts import FactService
from memlane.service.keyring import KeyringService, keyed
from memlane.service.sealing import Sealer

# Rows read per page while walking an owner's memories (plaintext tags and metadata only;
# content is decrypted for the one topic asked about).
SCAN_PAGE = 500


@dataclass(frozen=True, slots=True)
class TopicView:
    """One topic: its current facts, commitments as next actions, open questions."""

    topic: str
    count: int
    last_activity: datetime
    facts: tuple[Fact, ...]
    next_actions: tuple[Fact, ...]
    open_questions: tuple[OpenQuestion, ...]


class TopicService:
    """Nothing here is stored: every view is computed from memories and facts when asked."""

    def __init__(
        self, store: MemoryStorePort, facts: FactService, sealer: Sealer, clock: Clock,
        keyring: KeyringService | None = None,
    ) -> None:
        self._keyring = keyring
        self._store = store
        self._facts = facts
        self._sealer = sealer
        self._clock = clock

    async def _rows(self, owner: Owner) -> AsyncIterator[tuple[StoredMemory, tuple[str, ...]]]:
        """Every row with its topics (from its sealed tags and metadata); a row whose
        attributes do not open is left out, warned and counted like any unreadable memory."""
        cursor: Cursor | None = None
        while True:
            page = await self._store.list(owner, MemoryFilter(), cursor, SCAN_PAGE)
            for row in page.items:
                attributes = self._sealer.readable_attributes(row)
                if attributes is not None:
                    yield row, topics_of(attributes.tags, attributes.metadata)
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    @keyed
    async def topics(self, owner: Owner) -> list[TopicSummary]:
        """Every topic of the owner with its memory count and last activity, newest first."""
        return summarise([(topics, row.created_at) async for row, topics in self._rows(owner)])

    @keyed
    async def topic(self, owner: Owner, name: str) -> TopicView:
        """One topic (case-blind); TopicNotFound when no memory carries it."""
        wanted = " ".join(name.split()).casefold()
        found = [
            (row, topics) async for row, topics in self._rows(owner)
            if wanted in (t.casefold() for t in topics)
        ]
        rows = [row for row, _ in found]
        if not rows:
            raise TopicNotFound(name)
        now = self._clock()
        turns = []
        for row in rows:
            memory = self._sealer.readable(row, now)
            if memory is None:
                continue  # a damaged memory is left out, never fails the topic
            user_text, other_text = split_speakers(memory.content, memory.metadata)
            turns.append(TopicTurn(memory.id, memory.created_at, user_text, other_text))
        label = next(t for t in found[0][1] if t.casefold() == wanted)
        facts = sorted(
            await self._facts.of_memories(owner, [row.id for row in rows]),
            key=lambda f: (f.valid_from, str(f.id)),
        )
        return TopicView(
            topic=label,
            count=len(rows),
            last_activity=max(row.created_at for row in rows),
            facts=tuple(f for f in facts if f.fact_type is not FactType.COMMITMENT),
            next_actions=tuple(f for f in facts if f.fact_type is FactType.COMMITMENT),
            open_questions=tuple(open_questions(turns)),
        )
