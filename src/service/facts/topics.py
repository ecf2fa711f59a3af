"""Topics of an owner's memories, derived at read time: activity, facts, next actions, questions."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memlane.domain.errors import InvalidMemory
from memlane.domain.facts import (
    Fact,
    FactType,
    OpenQuestion,
    TopicEntry,
    TopicNotFound,
    TopicSummary,
    TopicTurn,
    head,
    open_questions,
    split_speakers,
    topic_key,
    topic_label,
    topics_of,
)
from memlane.domain.model import Owner, StoredMemory
from memlane.ports.clock import Clock
from memlane.ports.facts import TopicPort
from memlane.service.facts.service import FactService
from memlane.service.security import KeyringService, Sealer, keyed

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

    def _token(self, owner: Owner, topic: str) -> str:
        return self._sealer.attributes.topic_tokens(owner, [topic])[0]

    async def _opened(
        self, rows: Sequence[StoredMemory], owner: Owner | None = None
    ) -> list[tuple[StoredMemory, tuple[str, ...], tuple[str, ...]]]:
        """Rows with their topics (and, given the owner, each topic's token), worked out off
        the event loop; a row whose attributes do not open is left out, warned and counted."""
        return await asyncio.to_thread(self._with_topics, rows, owner)

    def _with_topics(
        self, rows: Sequence[StoredMemory], owner: Owner | None
    ) -> list[tuple[StoredMemory, tuple[str, ...], tuple[str, ...]]]:
        found = []
        for row in rows:
            attributes = self._sealer.readable_attributes(row)
            if attributes is not None:
                topics = topics_of(attributes.tags, attributes.metadata)
                tokens = () if owner is None else tuple(self._token(owner, t) for t in topics)
                found.append((row, topics, tokens))
        return found

    async def topics(self, owner: Owner, limit: int = DEFAULT_TOPICS) -> list[TopicSummary]:
        """The owner's topics with their memory count and last activity, newest first, at
        most `limit` (1..MAX_TOPICS); no content is decrypted."""
        return (await self.listing(owner, limit))[0]

    @keyed
    async def listing(
        self, owner: Owner, limit: int = DEFAULT_TOPICS
    ) -> tuple[list[TopicSummary], bool]:
        """`topics`, and whether the owner has more topics than `limit`. The store counts
        the topic tokens; only the newest memory of each topic listed is opened (its
        spelling is the label), and the rows stored before tokens were kept."""
        if not 1 <= limit <= MAX_TOPICS:
            raise InvalidMemory(f"limit must be between 1 and {MAX_TOPICS}")
        entries = {t.token: TopicEntry.of(t) for t in await self._topics.tallies(owner)}
        for row, topics, tokens in await self._opened(await self._topics.untokened(owner), owner):
            for topic, token in zip(topics, tokens, strict=True):
                entries.setdefault(token, TopicEntry.new(token)).add(
                    topic, row.created_at, row.id)
        while missing := [e for e in head(entries.values(), limit) if e.label is None]:
            await self._label(owner, missing, entries)
        found = sorted(
            (TopicSummary(e.label, e.count, e.last_activity)
             for e in head(entries.values(), limit) if e.label is not None),
            key=lambda s: (-s.last_activity.timestamp(), topic_key(s.topic)),
        )
        return found[:limit], len(entries) > limit

    async def _label(
        self, owner: Owner, missing: Sequence[TopicEntry], entries: dict[str, TopicEntry]
    ) -> None:
        """Name these topics after their newest memories, opened in one read. A topic whose
        newest does not open (or is gone) is counted again from its readable memories, as
        the full pass would count it, or dropped when none is left."""
        rows = await self._topics.memories(owner, list({e.newest[1] for e in missing}))
        spelt = {(row.id, token): topic for row, topics, tokens in await self._opened(rows, owner)
                 for topic, token in zip(topics, tokens, strict=True)}
        for entry in missing:
            entry.label = spelt.get((entry.newest[1], entry.token))
            if entry.label is None:
                await self._recount(owner, entry.token, entries)

    async def _recount(self, owner: Owner, token: str, entries: dict[str, TopicEntry]) -> None:
        """One topic counted from its readable memories (those without tokens included)."""
        del entries[token]
        rows = await self._topics.carrying(owner, token)
        for row, topics, tokens in await self._opened(rows, owner):
            for topic in (t for t, held in zip(topics, tokens, strict=True) if held == token):
                entries.setdefault(token, TopicEntry.new(token)).add(
                    topic, row.created_at, row.id)

    @keyed
    async def topic(self, owner: Owner, name: str) -> TopicView:
        """One topic (case-blind); TopicNotFound when no memory carries it. Only the memories
        holding its token (and any stored before tokens were kept) are read and opened."""
        wanted = topic_key(name)
        if not wanted:
            raise TopicNotFound(name)
        rows = await self._topics.carrying(owner, self._token(owner, wanted))
        carrying = [
            (row, topics) for row, topics, _ in await self._opened(rows)
            if wanted in {topic_key(t) for t in topics}
        ]
        if not carrying:
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
