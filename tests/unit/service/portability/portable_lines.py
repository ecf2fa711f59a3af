"""An owner's export as the lines of a file, and those lines stored again for an owner."""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from memlane.domain.model import Owner
from memlane.domain.portability.graph import MEMORY, check_graph_record, record_type
from memlane.domain.portability.memories import memory_to_record, record_to_new_memory
from tests.fakes.world import FakeWorld


async def exported(world: FakeWorld, owner: Owner) -> list[dict[str, Any]]:
    memories = [m async for m in world.service.export(owner)]
    lines = [memory_to_record(m) for m in memories]
    lines += [r async for r in world.service.export_graph(owner, [m.id for m in memories])]
    # Through JSON, as the file carries them.
    return [json.loads(json.dumps(line)) for line in lines]


async def store_memories(
    world: FakeWorld, owner: Owner, lines: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], dict[UUID, UUID]]:
    """Check every other record, store the memories; the other records and the map from
    exported id to the memory it became (as `memlane import` does)."""
    memories = [r for r in lines if record_type(r) == MEMORY]
    rest = [r for r in lines if record_type(r) != MEMORY]
    for record in rest:
        check_graph_record(record)
    results = await world.service.remember_many(
        owner, [record_to_new_memory(r) for r in memories]
    )
    return rest, {UUID(r["id"]): res.memory.id for r, res in zip(memories, results, strict=True)}
