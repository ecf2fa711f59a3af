"""Envelope encryption on real PostgreSQL: per-owner data keys through the real service,
crypto-shredding on erasure, writes after an erasure elsewhere, v1 rows opened and migrated,
and a master-key rotation interrupted then resumed while another process keeps reading."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import asyncpg
import pytest

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.fingerprint import admit_key
from memlane.adapters.encryption.keyring import XChaChaKeyring, master_id
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter, key_fingerprint
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.installation import PostgresInstallationAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.security.audit import postgres_audit_ports
from memlane.adapters.postgres.security.data_keys import PostgresDataKeyAdapter
from memlane.adapters.postgres.security.sealed_fields import PostgresSealedFieldsAdapter
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.errors import DecryptionFailed
from memlane.domain.model import MemoryFilter, NewMemory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.ports.encryption import FieldBinding
from memlane.service.security.key_migration import KeyMigration
from memlane.service.security.key_rotation import MasterRotation
from memlane.service.security.keyring import KeyringService

pytestmark = pytest.mark.integration

CONTENT = "SELECT content FROM memories WHERE tenant = $1 AND user_id = $2 AND id = $3"
VERSIONS = "SELECT DISTINCT get_byte(content, 0) FROM memories"


class Process:
    """One memlane process: its own keyring cache over the shared database."""

    def __init__(
        self, pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, master: bytes,
        files: Callable[[], Sequence[bytes]] | None = None, keyed: bool = True,
    ) -> None:
        self.ring = XChaChaKeyring(master, files)
        self.keys = KeyringService(PostgresDataKeyAdapter(pool), self.ring)
        self.crypto = XChaChaEncryptionAdapter(master, self.ring if keyed else None)
        self.service = build_memory_service(
            postgres_memory_ports(pool, dimension=embedder.dimension), embedder, self.crypto,
            SnowballKeywordAdapter(), MemoryPolicy(), audit=postgres_audit_ports(pool),
            keyring=self.keys if keyed else None,
        )

    async def texts(self, owner: Owner) -> list[str]:
        page = await self.service.list(owner, MemoryFilter(), None, 100)
        return sorted(m.content for m in page.items)


async def started(process: Process) -> Process:
    await process.keys.start()
    return process


async def test_erasing_a_user_makes_a_previously_copied_ciphertext_unopenable(
    fresh_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, owner: Owner
) -> None:
    pg_pool = fresh_pool  # the root key is one per installation: a database of its own
    master = os.urandom(32)
    one = await started(Process(pg_pool, embedder, master))
    stored = await one.service.remember(owner, NewMemory("My passport number is X1234567"))
    copied = bytes(await pg_pool.fetchval(CONTENT, owner.tenant, owner.user_id,
                                          stored.memory.id))
    assert copied[0] == 2  # version 2: under the owner's data key
    binding = FieldBinding(owner.tenant, owner.user_id, stored.memory.id, "content")
    assert one.crypto.open(copied, binding).startswith("My passport")

    await one.service.delete_all(owner)

    for process in (one, await started(Process(pg_pool, embedder, master))):
        await process.keys.ready([owner])
        with pytest.raises(DecryptionFailed):
            process.crypto.open(copied, binding)  # a backup's copy: shredded


async def test_a_write_after_an_erasure_in_another_process_stays_readable(
    fresh_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, owner: Owner
) -> None:
    pg_pool = fresh_pool
    master = os.urandom(32)
    a = await started(Process(pg_pool, embedder, master))
    b = await started(Process(pg_pool, embedder, master))
    await b.service.remember(owner, NewMemory("I like green tea"))  # b caches the key
    await a.service.delete_all(owner)  # a destroys it

    await b.service.remember(owner, NewMemory("I moved to Porto last spring"))

    fresh = await started(Process(pg_pool, embedder, master))
    assert await fresh.texts(owner) == ["I moved to Porto last spring"]


async def test_version_1_rows_open_and_are_migrated_resumably(
    fresh_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, owner: Owner
) -> None:
    master = os.urandom(32)
    legacy = Process(fresh_pool, embedder, master, keyed=False)
    others = [Owner(owner.tenant, f"{owner.user_id}-{i}") for i in range(3)]
    for i, each in enumerate(others):
        await legacy.service.remember(each, NewMemory(f"Memory number {i} about Lisbon"))
    assert [r[0] for r in await fresh_pool.fetch(VERSIONS)] == [1]

    current = await started(Process(fresh_pool, embedder, master))
    before = {o: await current.texts(o) for o in others}
    assert all(len(v) == 1 for v in before.values())  # v1 opens with the root key

    migration = KeyMigration(PostgresSealedFieldsAdapter(fresh_pool), current.crypto,
                             current.keys)
    report = await migration.run(batch=2)
    assert report.resealed["memory_content"] == 3 and report.unreadable == 0
    assert [r[0] for r in await fresh_pool.fetch(VERSIONS)] == [2]
    assert {o: await current.texts(o) for o in others} == before
    found = (await current.service.search(others[0], "Lisbon"))[0]
    assert found.memory.content == before[others[0]][0]  # blind indexes still match
    assert (await migration.run()).total == 0  # a rerun finds nothing left


async def test_a_rotation_interrupted_then_resumed_never_stops_another_process_reading(
    fresh_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, owner: Owner
) -> None:
    old, new = os.urandom(32), os.urandom(32)
    installation = PostgresInstallationAdapter(fresh_pool)
    files = [old]
    running = await started(Process(fresh_pool, embedder, old, lambda: files))
    await admit_key(installation, key_fingerprint(old))
    users = [Owner(owner.tenant, f"{owner.user_id}-{i}") for i in range(5)]
    for i, each in enumerate(users):
        await running.service.remember(each, NewMemory(f"Note {i}: the spare key is under the mat"))
    running.ring.forget(users[4])  # not cached: the next read loads its (rewrapped) row

    store = PostgresDataKeyAdapter(fresh_pool)
    target = XChaChaKeyring(new, lambda: [old])
    target.refresh()
    rotation = MasterRotation(store, target, installation)
    first = await rotation.run(key_fingerprint(old), key_fingerprint(new), batch=2,
                               max_batches=1)
    assert not first.finished and first.rewrapped == 2 and first.remaining == 4

    files.append(new)  # the rotation's `.next` key file, readable by the running process
    second = await rotation.run(key_fingerprint(old), key_fingerprint(new), batch=2)
    assert second.finished and second.remaining == 0 and second.rewrapped == 4
    masters = {r[0] for r in await fresh_pool.fetch("SELECT master_key_id FROM data_keys")}
    assert masters == {master_id(new)}
    assert await running.texts(users[4]) == ["Note 4: the spare key is under the mat"]

    await admit_key(installation, key_fingerprint(new))  # the new master is now the data's
    after = await started(Process(fresh_pool, embedder, new))
    for i, each in enumerate(users):
        assert await after.texts(each) == [f"Note {i}: the spare key is under the mat"]
    assert (await after.service.search(users[2], "spare key"))[0].memory.content.startswith(
        "Note 2")
