"""Topics of an owner's memories, derived at read time: activity, facts, next actions, questions."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memlane.domain.errors import InvalidMemory
from memlane.domain.facts import Fact, FactType
from memlane.domain.model import Owner, StoredMemory
from memlane.domain.topics import (
    OpenQuestion,
    TopicNotFound,
    TopicSummary,
    TopicTurn,
    open_questions,
    split_speakers,
    summarise,
    topic_key,
    topic_label,
    topics_of,
)
from memlane.ports.clock import Clock
from memlane.ports.topics import TopicPort
from memlane.service.facts import FactService
from memlane.service.keyring import KeyringService, keyed
from memlane.service.sealing import Sealer

# GET /v1/topics lists at most this many topics (most recently active first) unless asked
# for fewer; a user with more sees the newest and `truncated`.
DEFAULT_TOPICS = 100
MAX_TOPICS = 500


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
        self, topics: TopicPort, facts: FactService, sealer: Sealer, clock: Clock,
        keyring: KeyringService | None = None,
    ) -> None:
        self._keyring = keyring
        self._topics = topics
        self._facts = facts
        self._sealer = sealer
        self._clock = clock

    async def _carrying(self, owner: Owner) -> list[tuple[StoredMemory, tuple[str, ...]]]:
        """Every memory with its topics, newest first. Tags and titles are sealed, so this
        reads the owner's rows once and opens only their attributes (off the event loop);
        a row whose attributes do not open is left out, warned and counted."""
        rows = await self._topics.memories(owner)
        return await asyncio.to_thread(self._with_topics, rows)

    def _with_topics(
        self, rows: Sequence[StoredMemory]
    ) -> list[tuple[StoredMemory, tuple[str, ...]]]:
        found = []
        for row in rows:
            attributes = self._sealer.readable_attributes(row)
            if attributes is not None:
                found.append((row, topics_of(attributes.tags, attributes.metadata)))
        return found

    async def topics(self, owner: Owner, limit: int = DEFAULT_TOPICS) -> list[TopicSummary]:
        """The owner's topics with their memory count and last activity, newest first, at
        most `limit` (1..MAX_TOPICS); no content is decrypted."""
        return (await self.listing(owner, limit))[0]

    @keyed
    async def listing(
        self, owner: Owner, limit: int = DEFAULT_TOPICS
    ) -> tuple[list[TopicSummary], bool]:
        """`topics`, and whether the owner has more topics than `limit`."""
        if not 1 <= limit <= MAX_TOPICS:
            raise InvalidMemory(f"limit must be between 1 and {MAX_TOPICS}")
        found = summarise([(topics, row.created_at) for row, topics in await self._carrying(owner)])
        return found[:limit], len(found) > limit

    @keyed
    async def topic(self, owner: Owner, name: str) -> TopicView:
        """One topic (case-blind); TopicNotFound when no memory carries it. Only that topic's
        memories have their content decrypted."""
        wanted = topic_key(name)
        carrying = [
            (row, topics) for row, topics in await self._carrying(owner)
            if wanted in {topic_key(t) for t in topics}
        ]
        if not wanted or not carrying:
            raise TopicNotFound(name)
        rows = [row for row, _ in carrying]
        # Opening every memory and matching questions to later statements is CPU work that
        # grows with the topic (~1 s at 4k memories): off the event loop.
        questions = await asyncio.to_thread(self._open_questions, rows, self._clock())
        # The label as the newest memory carrying the topic spells it.
        label = next((t for t in carrying[0][1] if topic_key(t) == wanted), topic_label(name))
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
            open_questions=tuple(questions),
        )

    def _open_questions(self, rows: Sequence[StoredMemory], now: datetime) -> list[OpenQuestion]:
        turns = []
        for row in rows:
            memory = self._sealer.readable(row, now)
            if memory is None:
                continue  # a damaged memory is left out, never fails the topic
            user_text, other_text = split_speakers(memory.content, memory.metadata)
            turns.append(TopicTurn(memory.id, memory.created_at, user_text, other_text))
        return open_questions(turns)
