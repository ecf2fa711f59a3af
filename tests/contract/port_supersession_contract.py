"""MemoryPorts contract, supersession: the marker, what a delete does to it, revival, heads."""

from __future__ import annotations

from datetime import timedelta
from itertools import pairwise

from memlane.domain.memories.cleanup import CleanupRule
from memlane.domain.memories.corrections import Corrected, Replacement
from memlane.domain.model import Heat, MemoryFilter, MemoryType, Owner, StoredMemory
from memlane.ports.memories.supersession import SupersessionPort
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, axis, insert, stored

LATER = T0 + timedelta(days=3)


def _port(ports: MemoryPorts) -> SupersessionPort:
    assert ports.supersession is not None
    return ports.supersession


async def _chain(ports: MemoryPorts, owner: Owner, length: int) -> list[StoredMemory]:
    """`length` memories, each superseded by the next (Lisbon -> Porto -> Berlin)."""
    rows = [stored(owner, text=f"step {i}") for i in range(length)]
    await insert(ports.store, *rows)
    await _port(ports).supersede(owner, [
        Replacement(old.id, new.id, T0 + timedelta(days=i))
        for i, (old, new) in enumerate(pairwise(rows))
    ])
    return rows


async def _marker(ports: MemoryPorts, owner: Owner, row: StoredMemory) -> tuple[object, object]:
    got = await ports.store.get(owner, row.id)
    assert got is not None
    return got.superseded_by, got.valid_until


class PortSupersessionContract:
    """The durable superseded marker (SupersessionPort) as every read shows it."""

    async def test_a_replaced_memory_carries_its_replacement_and_since_when(
        self, ports: MemoryPorts, owner: Owner, other_user: Owner
    ) -> None:
        old, new = stored(owner), stored(owner)
        foreign = stored(other_user)
        await insert(ports.store, old, new, foreign)
        marked, _ = await _port(ports).supersede(owner, [
            Replacement(old.id, new.id, LATER), Replacement(foreign.id, new.id, LATER)])
        assert marked == [old.id]
        assert await _marker(ports, owner, old) == (new.id, LATER)
        assert await _marker(ports, owner, new) == (None, None)
        assert await _marker(ports, other_user, foreign) == (None, None)
        later = LATER + timedelta(days=1)
        again, _ = await _port(ports).supersede(owner, [Replacement(old.id, new.id, later)])
        assert again == [] and await _marker(ports, owner, old) == (new.id, LATER)

    async def test_a_memory_that_replaces_another_is_current_again(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        lisbon, porto = await _chain(ports, owner, 2)
        marked, current = await _port(ports).supersede(owner, [
            Replacement(porto.id, lisbon.id, LATER)])
        assert (marked, current) == ([porto.id], [lisbon.id])
        assert await _marker(ports, owner, lisbon) == (None, None)
        assert (await _marker(ports, owner, porto))[0] == lisbon.id

    async def test_deleting_the_replacement_leaves_the_old_memory_superseded(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        lisbon, porto = await _chain(ports, owner, 2)
        assert await ports.store.delete(owner, porto.id)
        assert await _marker(ports, owner, lisbon) == (porto.id, T0)

    async def test_deleting_the_middle_of_a_chain_points_on_to_its_head(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        lisbon, porto, berlin = await _chain(ports, owner, 3)
        assert await ports.store.delete(owner, porto.id)
        assert await _marker(ports, owner, lisbon) == (berlin.id, T0)
        assert await _port(ports).heads(owner, [lisbon.id, berlin.id]) == {lisbon.id: berlin.id}

    async def test_cleanup_and_consolidation_repoint_as_any_delete_does(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        lisbon, porto, berlin, rome = await _chain(ports, owner, 4)
        assert ports.consolidation is not None
        await ports.consolidation.delete_sources(owner, [porto.id, berlin.id])
        assert (await _marker(ports, owner, lisbon))[0] == rome.id
        faded = stored(owner, memory_type=MemoryType.CONTEXT, heat=Heat(0.05, 0, T0))
        kept = stored(owner)
        await insert(ports.store, faded, kept)
        await _port(ports).supersede(owner, [Replacement(kept.id, faded.id, T0)])
        await ports.maintenance.cleanup(owner, CleanupRule(0.1, grace_days=0.0), LATER, 0.05)
        assert await ports.store.get(owner, faded.id) is None
        assert await _marker(ports, owner, kept) == (faded.id, T0)

    async def test_revive_brings_back_only_what_a_current_memory_replaced(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        lisbon, porto, berlin = await _chain(ports, owner, 3)
        ended = stored(owner)
        await insert(ports.store, ended)
        await _port(ports).supersede(owner, [Replacement(ended.id, None, LATER)])
        revived = await _port(ports).revive(
            owner, replaced_by=[porto.id, berlin.id], ended=[ended.id, lisbon.id])
        assert revived == sorted([porto.id, ended.id])
        assert await _marker(ports, owner, porto) == (None, None)
        assert (await _marker(ports, owner, lisbon))[0] == porto.id  # porto was not current

    async def test_the_current_filter_and_candidates_show_the_marker(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        old = stored(owner, embedding=axis(dimension, 0))
        new = stored(owner, embedding=axis(dimension, 0))
        await insert(ports.store, old, new)
        await _port(ports).supersede(owner, [Replacement(old.id, new.id, LATER)])
        listed = await ports.store.list(owner, MemoryFilter(current=True), None, 10)
        gone = await ports.store.list(owner, MemoryFilter(current=False), None, 10)
        assert [r.id for r in listed.items] == [new.id]
        assert [r.id for r in gone.items] == [old.id]
        found = await ports.search.dense_candidates(owner, axis(dimension, 0), 5)
        assert {c.id: c.superseded_by for c in found} == {old.id: new.id, new.id: None}

    async def test_retype_makes_a_correction_with_the_heat_given(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        row = stored(owner, memory_type=MemoryType.CONTEXT)
        await insert(ports.store, row)
        heat = Heat(0.6, 0, T0)
        assert await _port(ports).retype(owner, [Corrected(row.id, heat, 0.6)]) == 1
        got = await ports.store.get(owner, row.id)
        assert got is not None
        assert (got.memory_type, got.heat, got.importance) == (MemoryType.CORRECTION, heat, 0.6)
