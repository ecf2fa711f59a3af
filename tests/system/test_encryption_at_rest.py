"""Encryption at rest through the whole stack: no plaintext stored, ciphertext bound to its row."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlane.container import Memlane, open_memlane
from memlane.domain.errors import MemoryUnreadable, WrongEncryptionKey
from memlane.domain.model import NewMemory, Owner
from tests.system.conftest import system_settings

pytestmark = pytest.mark.integration

SECRET = "Rosalind keeps her spare key under the blue geranium pot"


async def test_content_and_summary_columns_hold_no_plaintext(
    memlane: Memlane, owner: Owner
) -> None:
    stored = await memlane.service.remember(owner, NewMemory(content=SECRET, tags=("garden",)))

    row = await memlane.database.pool.fetchrow(
        "SELECT content, summary, keywords::text AS keywords FROM memories "
        "WHERE tenant = $1 AND user_id = $2 AND id = $3",
        owner.tenant,
        owner.user_id,
        stored.memory.id,
    )

    assert row is not None
    for word in ("Rosalind", "geranium", "spare key"):
        assert word.encode() not in row["content"]
        assert word.encode() not in row["summary"]
        assert word.lower() not in row["keywords"].lower()
    assert (await memlane.service.get(owner, stored.memory.id)).content == SECRET


async def test_ciphertext_copied_into_another_row_fails_to_decrypt(
    memlane: Memlane, owner: Owner
) -> None:
    source = await memlane.service.remember(owner, NewMemory(content=SECRET))
    target = await memlane.service.remember(
        owner, NewMemory(content="A completely unrelated note about tram timetables in Porto")
    )
    await memlane.database.pool.execute(
        "UPDATE memories AS t SET content = s.content FROM memories AS s "
        "WHERE s.tenant = $1 AND s.user_id = $2 AND s.id = $3 "
        "AND t.tenant = $1 AND t.user_id = $2 AND t.id = $4",
        owner.tenant,
        owner.user_id,
        source.memory.id,
        target.memory.id,
    )

    with pytest.raises(MemoryUnreadable):  # by id; left out of every list (the API: 409)
        await memlane.service.get(owner, target.memory.id)


async def test_ciphertext_copied_to_another_user_fails_to_decrypt(
    memlane: Memlane, owner: Owner
) -> None:
    other = Owner(owner.tenant, owner.user_id + "-other")
    source = await memlane.service.remember(owner, NewMemory(content=SECRET))
    target = await memlane.service.remember(other, NewMemory(content="Bicycle tyre pressure notes"))
    await memlane.database.pool.execute(
        "UPDATE memories AS t SET content = s.content FROM memories AS s "
        "WHERE s.tenant = $1 AND s.user_id = $2 AND s.id = $3 "
        "AND t.tenant = $1 AND t.user_id = $4 AND t.id = $5",
        owner.tenant,
        owner.user_id,
        source.memory.id,
        other.user_id,
        target.memory.id,
    )

    with pytest.raises(MemoryUnreadable):
        await memlane.service.get(other, target.memory.id)


async def test_a_wrong_key_fails_at_startup(
    memlane: Memlane, system_database_url: str, tmp_path: Path
) -> None:
    wrong = system_settings(system_database_url, tmp_path / "another.key")

    with pytest.raises(WrongEncryptionKey):
        async with open_memlane(wrong, load_model=False):
            pass
    assert not (tmp_path / "another.key").exists()  # no key is minted over existing data


async def test_twenty_concurrent_identical_remembers_leave_one_memory(
    memlane: Memlane, owner: Owner
) -> None:
    import asyncio

    new = NewMemory(content="My daughter's school starts at half past eight")
    results = await asyncio.gather(*(memlane.service.remember(owner, new) for _ in range(20)))

    assert sum(not r.merged for r in results) == 1
    assert (await memlane.service.stats(owner)).total == 1
