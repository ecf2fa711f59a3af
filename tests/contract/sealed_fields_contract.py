"""SealedFieldsPort contract (`memlane keys migrate`, `memlane upgrade`): the scan and the
count see exactly the version-1 ciphertexts, and a compare-and-set rewrite removes them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from uuid import UUID

from memlane.domain.model import Owner
from memlane.domain.security import keyring as kr
from memlane.ports.security.sealed_fields import FieldKey, SealedFieldsPort

# A stored memory whose content holds these bytes (its summary a version-2 envelope).
Seed = Callable[[Owner, bytes], Awaitable[UUID]]
V1 = b"\x01" + bytes(48)
V2 = b"\x02" + bytes(56)


async def scan(fields: SealedFieldsPort, column: str, batch: int) -> list[FieldKey]:
    keys: list[FieldKey] = []
    after: FieldKey | None = None
    while rows := await fields.legacy(column, after, batch):
        keys.extend((r.owner, r.row_id) for r in rows)
        after = keys[-1]
    return keys


class SealedFieldsContract:
    """Fixtures from the concrete class: `fields` and `seed` over one fresh store (the count
    is over the whole installation)."""

    async def test_the_count_and_the_scan_see_only_version_one_ciphertexts_of_the_column(
        self, fields: SealedFieldsPort, seed: Seed, owner: Owner
    ) -> None:
        other = Owner(owner.tenant, owner.user_id + "-other")
        old = [await seed(o, V1 + bytes([i])) for i in range(3) for o in (owner, other)]
        await seed(owner, V2)

        assert await fields.count_legacy(kr.MEMORY_CONTENT) == len(old)
        assert await fields.count_legacy(kr.MEMORY_SUMMARY) == 0
        keys = await scan(fields, kr.MEMORY_CONTENT, 2)
        assert {k[1] for k in keys} == set(old) and len(keys) == len(old)
        order = [(o.tenant, o.user_id, i.bytes) for o, i in keys]
        assert order == sorted(order)

    async def test_a_rewrite_lowers_the_count_and_a_changed_field_is_left_alone(
        self, fields: SealedFieldsPort, seed: Seed, owner: Owner
    ) -> None:
        for i in range(3):
            await seed(owner, V1 + bytes([i]))
        first, second, third = await fields.legacy(kr.MEMORY_CONTENT, None, 10)
        fresh = [replace(f, sealed=V2) for f in (first, second, third)]

        changed = await fields.replace(fresh, [first.sealed, second.sealed, b"\x01changed"])

        assert changed == 2
        assert await fields.count_legacy(kr.MEMORY_CONTENT) == 1
        assert [f.row_id for f in await fields.legacy(kr.MEMORY_CONTENT, None, 10)] == [
            third.row_id
        ]
