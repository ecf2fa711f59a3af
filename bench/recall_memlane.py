"""memlane's side of the recall benchmark: ingest every conversation, ask every question.

Only the public face is used: `open_memlane` and MemoryService's `add_messages` (the call
behind POST /v1/conversations/{id}/messages) or `remember_many`, `search` and
`retrieve_context`. Each conversation is one memory user; each turn one memory (a user
message named by its speaker, so one segment of its session). Per question, the ranking is
`search` (GET /v1/memories/search: dense and lexical fused, best first, no access recorded),
and the context is `retrieve_context` with limit k and again with limit 5 (POST /v1/context,
access recorded as in production; its memories come back in type-priority order, so only
their set is scored). The embedding cache, when given, wraps the configured embedder.
"""

from __future__ import annotations

import asyncio
import signal
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from uuid import UUID

from bench.embedding_cache import CachingEmbedder, EmbeddingCacheStore, StaleEmbeddingCache
from bench.memory_sets import Conversation, MemorySet, Turn, read_conversation
from bench.recall_metrics import Retrieved, Turns
from dependency_injector import providers

from memlane.container import Container, Memlane, open_memlane
from memlane.domain.memories import Message, Role
from memlane.domain.model import DEFAULT_TENANT, MemoryType, NewMemory, Owner
from memlane.domain.retrieval import ContextOptions
from memlane.ports.embedding import EmbeddingPort
from memlane.settings import Settings

if TYPE_CHECKING:
    from memlane.service.memory_service import MemoryService

INGEST_BATCH = 64
# Conversations ingested at once: writes of different users never touch each other's rows,
# and one user's embedding overlaps another's database round trips.
INGEST_CONCURRENCY = 3


@dataclass
class MemlaneRun:
    """Per set name and question id what memlane returned; what the run cost."""

    answers: dict[str, dict[str, Retrieved]] = field(default_factory=dict)
    timings: dict[str, Any] = field(default_factory=dict)
    stored: dict[str, dict[UUID, Turns]] = field(default_factory=dict)


@dataclass
class _Cached:
    embedder: CachingEmbedder | None = None


@asynccontextmanager
async def open_bench_memlane(
    settings: Settings, cache: EmbeddingCacheStore | None
) -> AsyncIterator[tuple[Memlane, CachingEmbedder | None]]:
    """open_memlane, with the configured embedder wrapped in the cache when one is given."""
    if cache is None:
        async with open_memlane(settings) as memlane:
            yield memlane, None
        return
    held = _Cached()

    async def caching(inner: EmbeddingPort) -> AsyncIterator[EmbeddingPort]:
        held.embedder = CachingEmbedder(inner, cache)
        try:
            await held.embedder.verify()
        except StaleEmbeddingCache as stale:
            print(f"embedding cache dropped: {stale}", file=sys.stderr, flush=True)
            cache.forget(inner.model)
        yield held.embedder  # the configured embedder's own resource closes it

    original = Container.embedder
    inner = providers.Resource(original.provides, *original.args, **original.kwargs)
    with Container.embedder.override(providers.Resource(caching, inner)):
        async with open_memlane(settings) as memlane:
            yield memlane, held.embedder


def owner_of(memory_set: MemorySet, conversation: Conversation) -> Owner:
    return Owner(DEFAULT_TENANT, f"{memory_set.name}/{conversation.sample_id}")


def _sessions(turns: Sequence[Turn]) -> dict[int, list[Turn]]:
    grouped: defaultdict[int, list[Turn]] = defaultdict(list)
    for turn in turns:
        grouped[turn.session].append(turn)
    return grouped


async def ingest_conversation(
    service: MemoryService, owner: Owner, conversation: Conversation
) -> dict[UUID, Turns]:
    """Each session through the conversation route, every turn a message named by its
    speaker (one segment each; an assistant's turn with the assistant's role, as a chat
    service sends it); returns which turn each stored memory is."""
    stored: dict[UUID, Turns] = {}
    for number, turns in _sessions(conversation.turns).items():
        messages = [
            Message(Role.ASSISTANT if t.assistant else Role.USER, t.text, t.created_at, t.speaker)
            for t in turns
        ]
        conversation_id = f"{conversation.sample_id}/session_{number}"
        added = await service.add_messages(owner, conversation_id, messages)
        for memory, turn in zip(added.memories, turns, strict=True):
            stored[memory.id] = frozenset([turn.turn_id])
    return stored


def turn_memory(sample_id: str, turn: Turn) -> NewMemory:
    """A turn as one memory of `remember_many`: its session date, its speaker, the turn id in
    `metadata.sources` (a merge unites them)."""
    return NewMemory(
        content=turn.text,
        memory_type=MemoryType.CONTEXT,
        conversation_id=f"{sample_id}/session_{turn.session}",
        created_at=turn.created_at,
        metadata={
            "speaker": turn.speaker,
            "session_date": turn.created_at.date().isoformat(),
            "conversation": sample_id,
            "session": turn.session,
            "sources": [turn.turn_id],
        },
    )


def turn_memories(sample: Mapping[str, Any]) -> Iterator[NewMemory]:
    """One memory per turn of a LoCoMo-shaped sample, in conversation order."""
    conversation = read_conversation(sample)
    return (turn_memory(conversation.sample_id, t) for t in conversation.turns)


async def ingest_memories(
    service: MemoryService, owner: Owner, conversation: Conversation
) -> dict[UUID, Turns]:
    """One memory per turn through `remember_many`; a turn merged into an earlier memory
    makes that memory stand for both turns."""
    items = [turn_memory(conversation.sample_id, t) for t in conversation.turns]
    stored: defaultdict[UUID, set[str]] = defaultdict(set)
    for start in range(0, len(items), INGEST_BATCH):
        batch = items[start : start + INGEST_BATCH]
        for result, item in zip(await service.remember_many(owner, batch), batch, strict=True):
            stored[result.memory.id].update(item.metadata["sources"])
    return {memory_id: frozenset(turns) for memory_id, turns in stored.items()}


async def ingest(
    service: MemoryService, sets: Sequence[MemorySet], *, conversations: bool
) -> dict[str, dict[UUID, Turns]]:
    """Every conversation of every set, a few at a time; per owner, memory id -> turns."""
    load = ingest_conversation if conversations else ingest_memories
    gate = asyncio.Semaphore(INGEST_CONCURRENCY)
    owners = [(owner_of(s, c), c) for s in sets for c in s.conversations]

    done: list[int] = []
    started = time.perf_counter()

    async def one(owner: Owner, conversation: Conversation) -> dict[UUID, Turns]:
        async with gate:
            stored = await load(service, owner, conversation)
        done.append(len(conversation.turns))
        # A cold run embeds for an hour on two cores: say how far it is (stderr only).
        print(f"ingested {len(done)}/{len(owners)} conversations, {sum(done)} turns, "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
        return stored

    stored = await asyncio.gather(*(one(o, c) for o, c in owners))
    return {o.user_id: s for (o, _), s in zip(owners, stored, strict=True)}


async def ask(
    service: MemoryService, memory_set: MemorySet, stored: dict[str, dict[UUID, Turns]],
    k: int, depth: int, latencies_ms: list[float],
) -> dict[str, Retrieved]:
    answers: dict[str, Retrieved] = {}
    for conversation in memory_set.conversations:
        owner = owner_of(memory_set, conversation)
        turns = stored[owner.user_id]
        # The questions of a sample are asked in one conversation of their own, as a user asks
        # them in one chat: its session focus (docs/levels.md) is what they touched so far.
        asking = ContextOptions(conversation_id=f"{conversation.sample_id}/questions")
        for question in conversation.questions:
            # Asked when the set says it was (LongMemEval's question_date), else now.
            at = replace(asking, asked_at=question.asked_at)
            ranked = await service.search(
                owner, question.text, limit=depth, asked_at=question.asked_at
            )
            asked = time.perf_counter()
            chosen = await service.retrieve_context(owner, question.text, k, at)
            latencies_ms.append((time.perf_counter() - asked) * 1000)
            best5 = await service.retrieve_context(owner, question.text, 5, at)
            answers[question.question_id] = Retrieved(
                context5=tuple(turns.get(m.id, frozenset()) for m in best5),
                context_k=tuple(turns.get(m.id, frozenset()) for m in chosen),
                ranking=tuple(turns.get(m.memory.id, frozenset()) for m in ranked),
            )
    return answers


async def run_memlane(
    settings: Settings, sets: Sequence[MemorySet], *, k: int, depth: int, conversations: bool,
    cache: EmbeddingCacheStore | None, stored: dict[str, dict[UUID, Turns]] | None = None,
    ask_questions: bool = True, sleep: bool = False,
) -> MemlaneRun:
    """One fresh store for all the sets; what memlane returned for every question.

    `stored` given: the store already holds the sets (a kept store, bench/recall_kept.py),
    so only the questions are asked. `ask_questions` False: ingest only; `run.stored` says
    which turn each memory is. `sleep`: one sleep cycle over everyone before the questions
    (its merges, weaving and, with `graph.clusters`, the clusters)."""
    run = MemlaneRun()
    # A run stopped by SIGTERM unwinds like Ctrl-C: the embedded server stops, the scratch
    # data dir goes (by default the process would die and leave both behind).
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    if task is not None:
        loop.add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        async with open_bench_memlane(settings, cache) as (memlane, cached):
            await _measure(run, memlane.service, cached, sets, k, depth, conversations,
                           stored, ask_questions, sleep)
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
    return run


async def _measure(
    run: MemlaneRun, service: MemoryService, cached: CachingEmbedder | None,
    sets: Sequence[MemorySet], k: int, depth: int, conversations: bool,
    stored: dict[str, dict[UUID, Turns]] | None, ask_questions: bool, sleep: bool = False,
) -> None:
    """Ingest every set (unless `stored` says the store holds them), then ask every
    question; answers and costs go into `run`."""
    if stored is None:
        started = time.perf_counter()
        stored = await ingest(service, sets, conversations=conversations)
        run.timings["ingest_s"] = round(time.perf_counter() - started, 1)
    run.stored = stored
    run.timings["turns"] = sum(len(c.turns) for s in sets for c in s.conversations)
    if sleep and ask_questions:
        started = time.perf_counter()
        report = await service.sleep.run(None)
        run.timings["sleep"] = {**report.as_dict(), "s": round(time.perf_counter() - started, 1)}
        if report.merged:
            # A merged memory stands for no turn here: its sources' turns are not carried.
            print(f"sleep cycle merged {report.merged} groups: their turns are not scored",
                  file=sys.stderr, flush=True)
    for memory_set in sets if ask_questions else ():
        latencies: list[float] = []
        started = time.perf_counter()
        run.answers[memory_set.name] = await ask(
            service, memory_set, stored, k, depth, latencies
        )
        run.timings[memory_set.name] = {
            "questions_s": round(time.perf_counter() - started, 1),
            "context_p50_ms": round(statistics.median(latencies), 1) if latencies else 0.0,
        }
    if cached is not None:
        run.timings["embedding_cache"] = {"hits": cached.hits, "misses": cached.misses}
