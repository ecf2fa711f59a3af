"""LegacyRowsPort contract (`memlane seal-existing`, `memlane upgrade`): the counts match
what the scans return, live and quarantined, and fall as rows are sealed."""

from __future__ import annotations

from typing import Protocol
from uuid import UUID

from memlane.domain.model import Owner
from memlane.domain.portability.legacy_rows import SealedRelation, SealedRow
from memlane.ports.portability.legacy_rows import LegacyRowsPort


class LegacySeed(Protocol):
    """Rows as an older memlane stored them, in the store under test."""

    async def memory(self, owner: Owner, *, quarantined: bool = False) -> UUID:
        """A memory with plaintext tags and conversation id, not yet sealed."""

    async def fact(self, owner: Owner, relation: str) -> UUID:
        """A fact with this relation and no sealed relation name."""


class LegacyRowsContract:
    """Fixtures from the concrete class: `rows` and `seed` over one fresh store (the counts
    are over the whole installation)."""

    async def test_the_count_covers_live_and_quarantined_rows_and_falls_as_they_are_sealed(
        self, rows: LegacyRowsPort, seed: LegacySeed, owner: Owner
    ) -> None:
        live = [await seed.memory(owner) for _ in range(3)]
        await seed.memory(owner, quarantined=True)
        assert await rows.count_legacy() == 4

        batch = await rows.legacy_batch(None, 2)
        assert [r.memory_id for r in batch] == sorted(live, key=lambda i: i.bytes)[:2]
        sealed = [SealedRow(r.owner, r.memory_id, b"\x02sealed", ("t0",), None) for r in batch]
        assert await rows.store_sealed(sealed) == 2
        assert await rows.count_legacy() == 2
        assert await rows.store_sealed(sealed) == 0  # sealed rows are not written again
        assert await rows.count_legacy() == 2

    async def test_the_relation_count_is_the_callers_own_names_not_memlanes_vocabulary(
        self, rows: LegacyRowsPort, seed: LegacySeed, owner: Owner
    ) -> None:
        own = [await seed.fact(owner, name) for name in ("secretly_admires", "owes_money_to")]
        await seed.fact(owner, "lives_in")
        await seed.fact(owner, "custom_abcdefgh")
        assert await rows.count_legacy_relations() == 2

        found = await rows.legacy_relations(None, 10)
        assert {r.fact_id for r in found} == set(own)
        first = found[0]
        done = await rows.store_relations(
            [SealedRelation(first.owner, first.fact_id, first.relation, "custom_token", b"\x02")]
        )
        assert done == 1
        assert await rows.count_legacy_relations() == 1
