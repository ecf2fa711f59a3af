"""MemoryPorts contract, conversation neighbours: the turns just before and after a memory."""

from __future__ import annotations

from memlane.domain.model import Owner
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, insert, minutes, stored


class PortNeighboursContract:
    """`neighbour_candidates` follows (created_at, id) order inside one conversation_id."""

    async def test_neighbours_are_the_turns_within_span_in_the_same_conversation(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        chain = [stored(owner, conversation_id="c1", created_at=T0 + minutes(i)) for i in range(7)]
        other = stored(owner, conversation_id="c2", created_at=T0 + minutes(3))
        await insert(ports.store, *chain, other)
        found = await ports.search.neighbour_candidates(owner, [chain[3].id], 2, None)
        assert sorted(c.created_at for c in found) == [T0 + minutes(i) for i in (1, 2, 4, 5)]
        assert {c.id for c in found} == {chain[i].id for i in (1, 2, 4, 5)}
        assert {c.conversation_id for c in found} == {"c1"}

    async def test_neighbours_exclude_the_seeds_and_merge_overlapping_windows(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        chain = [stored(owner, conversation_id="c", created_at=T0 + minutes(i)) for i in range(5)]
        await insert(ports.store, *chain)
        found = await ports.search.neighbour_candidates(owner, [chain[1].id, chain[2].id], 1, None)
        assert sorted(c.created_at for c in found) == [T0, T0 + minutes(3)]

    async def test_rows_with_equal_timestamps_are_neighbours_in_id_order(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        same = sorted(
            (stored(owner, conversation_id="c", created_at=T0) for _ in range(5)),
            key=lambda r: r.id,
        )
        await insert(ports.store, *same)
        found = await ports.search.neighbour_candidates(owner, [same[2].id], 1, None)
        assert {c.id for c in found} == {same[1].id, same[3].id}

    async def test_a_memory_without_conversation_or_of_another_user_has_no_neighbours(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        loose = [stored(owner, created_at=T0 + minutes(i)) for i in range(3)]
        talk = [stored(owner, conversation_id="c", created_at=T0 + minutes(i)) for i in range(3)]
        await insert(ports.store, *loose, *talk)
        stranger = Owner(owner.tenant, owner.user_id + "-other")
        assert await ports.search.neighbour_candidates(owner, [loose[1].id], 1, None) == []
        assert await ports.search.neighbour_candidates(stranger, [talk[1].id], 1, None) == []
        found = await ports.search.neighbour_candidates(owner, [talk[1].id], 1, None)
        assert {c.id for c in found} == {talk[0].id, talk[2].id}

    async def test_neighbours_at_the_ends_of_a_conversation_stop_at_its_edge(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        chain = [stored(owner, conversation_id="c", created_at=T0 + minutes(i)) for i in range(3)]
        await insert(ports.store, *chain)
        first = await ports.search.neighbour_candidates(owner, [chain[0].id], 5, None)
        assert {c.id for c in first} == {chain[1].id, chain[2].id}
        last = await ports.search.neighbour_candidates(owner, [chain[2].id], 5, None)
        assert {c.id for c in last} == {chain[0].id, chain[1].id}

    async def test_no_seeds_or_a_span_below_one_has_no_neighbours(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        chain = [stored(owner, conversation_id="c", created_at=T0 + minutes(i)) for i in range(3)]
        await insert(ports.store, *chain)
        assert await ports.search.neighbour_candidates(owner, [], 2, None) == []
        assert await ports.search.neighbour_candidates(owner, [chain[1].id], 0, None) == []
