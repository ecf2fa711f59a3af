"""Context selection ranks on lean candidates and reads in full only the memories it returns."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.model import NewMemory
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import at_cosine, axis
from tests.fakes.world import DIMENSION, FakeWorld, new_owner

QUERY = "which tea does the user like"
ASKED_ABOUT_ME = "which tea do I like"  # the whose stage reads the best candidates
FULL_READS = {"get", "list", "export"}


class RecordingPort:
    """Delegates to a port and records the name and arguments of every call in `calls`."""

    def __init__(self, inner: Any, calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]]):
        self._inner = inner
        self.calls = calls

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._inner, name)
        if not callable(attribute) or name == "write_session":
            return attribute

        def record(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, args, kwargs))
            return attribute(*args, **kwargs)

        return record



class Recording:
    """The storage roles of a world, each wrapped in a RecordingPort writing to one list."""

    def __init__(self, inner: MemoryPorts) -> None:
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
        self.ports = MemoryPorts(
            RecordingPort(inner.store, self.calls),  # type: ignore[arg-type]
            RecordingPort(inner.search, self.calls),  # type: ignore[arg-type]
            RecordingPort(inner.maintenance, self.calls),  # type: ignore[arg-type]
        )

    def named(self, name: str, **kwargs: Any) -> list[tuple[Any, ...]]:
        return [
            args for called, args, given in self.calls
            if called == name and all(given.get(k) == v for k, v in kwargs.items())
        ]


async def _world_with_memories(
    count: int, query: str = QUERY
) -> tuple[FakeWorld, Recording, Callable[..., Any]]:
    world = FakeWorld()
    world.embedder.vectors[query] = axis(DIMENSION, 0)
    owner = new_owner()
    for i in range(count):
        text = f"tea note {i}" if i % 2 else f"conversation turn {i}"
        world.embedder.vectors[text] = at_cosine(DIMENSION, 0.3 + i * 0.01, other=1 + i % 7)
        await world.service.remember(
            owner, NewMemory(text, conversation_id="talk", metadata={"speaker": "user"})
        )
    recording = Recording(world.memories)
    service = build_memory_service(
        recording.ports,
        world.embedder, world.encryption, world.keywords, world.policy, world.clock,
    )
    return world, recording, lambda limit: service.retrieve_context(owner, query, limit)


async def test_context_reads_in_full_only_the_likely_winners_and_any_neighbour_chosen() -> None:
    _, recording, retrieve = await _world_with_memories(30)
    chosen = await retrieve(3)
    assert len(chosen) == 3
    # The likely winners are read while the neighbours are; a neighbour that displaced one
    # of them is read after. Rows for a prompt come without index terms or embedding.
    reads = recording.named("get_many", indexed=False)
    assert 1 <= len(reads) <= 2
    read_ids = [memory_id for args in reads for memory_id in args[1]]
    assert {m.id for m in chosen} <= set(read_ids)
    assert len(read_ids) == len(set(read_ids)) <= 2 * 3
    assert len(recording.named("get_many")) == len(reads)  # none with index terms
    assert not FULL_READS & {name for name, _, _ in recording.calls}


async def test_a_question_about_the_user_reads_no_memory_twice() -> None:
    _, recording, retrieve = await _world_with_memories(30, ASKED_ABOUT_ME)
    chosen = await retrieve(3)
    reads = recording.named("get_many", indexed=False)
    read_ids = [memory_id for args in reads for memory_id in args[1]]
    assert len(reads) >= 1 and {m.id for m in chosen} <= set(read_ids)
    # Prefetch and Opening reuse what the whose stage read for whose fact each states.
    assert len(read_ids) == len(set(read_ids))
    assert len(recording.named("get_many")) == len(reads)


async def test_context_ranks_on_lean_candidates_and_their_neighbours() -> None:
    _, recording, retrieve = await _world_with_memories(12)
    await retrieve(4)
    called = {name for name, _, _ in recording.calls}
    assert {"dense_candidates", "lexical_candidates", "neighbour_candidates"} <= called
