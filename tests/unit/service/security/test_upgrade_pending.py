"""What `memlane upgrade --dry-run` reads: KeyMigration.pending and LegacySealer.pending count
what their runs then do, and nothing once they have run (over the fakes)."""

from __future__ import annotations

import os
from uuid import uuid4

import pytest

from memlane.adapters.encryption.keyring import NoopKeyring, XChaChaKeyring
from memlane.adapters.encryption.noop import NoopEncryptionAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.domain.model import Owner
from memlane.domain.portability.legacy_rows import LegacyRelation, LegacyRow, SealPending
from memlane.domain.security import keyring as kr
from memlane.ports.encryption import FieldBinding
from memlane.service.security.key_migration import KeyMigration
from memlane.service.security.keyring import KeyringService
from memlane.service.security.legacy_sealing import LegacySealer
from memlane.service.security.sealing import CONTENT
from tests.fakes.data_keys import FakeDataKeys
from tests.fakes.legacy_rows import FakeLegacyRows
from tests.fakes.sealed_fields import FakeSealedFields

OWNERS = [Owner("acme", "alice"), Owner("acme", "bob")]


@pytest.fixture
def master() -> bytes:
    return os.urandom(32)


@pytest.fixture
def ring(master: bytes) -> XChaChaKeyring:
    return XChaChaKeyring(master)


@pytest.fixture
async def keyring(ring: XChaChaKeyring) -> KeyringService:
    service = KeyringService(FakeDataKeys(), ring)
    await service.start()
    return service


@pytest.fixture
def encryption(master: bytes, ring: XChaChaKeyring) -> XChaChaEncryptionAdapter:
    return XChaChaEncryptionAdapter(master, ring)


def version_one(fields: FakeSealedFields, master: bytes, owner: Owner, text: str) -> None:
    """A memory content sealed as before data keys: with the master key itself."""
    row_id = uuid4()
    binding = FieldBinding(owner.tenant, owner.user_id, row_id, CONTENT)
    sealed = XChaChaEncryptionAdapter(master).seal(text, binding)
    fields.put(kr.MEMORY_CONTENT, owner, row_id, sealed)


async def test_key_migration_pending_counts_what_a_run_reseals_and_nothing_after(
    master: bytes, keyring: KeyringService, encryption: XChaChaEncryptionAdapter
) -> None:
    fields = FakeSealedFields()
    for owner in OWNERS:
        version_one(fields, master, owner, f"secret of {owner.user_id}")
    fields.put(kr.MEMORY_CONTENT, OWNERS[0], uuid4(), b"\x01" + bytes(60))  # does not open
    migration = KeyMigration(fields, encryption, keyring)

    pending = await migration.pending()
    assert pending[kr.MEMORY_CONTENT] == 3 and sum(pending.values()) == 3

    report = await migration.run(batch=1)
    assert (report.total, report.unreadable) == (2, 1)
    # The damaged ciphertext stays version 1 (left for `memlane verify`), so it stays pending.
    assert sum((await migration.pending()).values()) == 1


async def test_key_migration_has_nothing_pending_without_encryption() -> None:
    fields = FakeSealedFields()
    fields.put(kr.MEMORY_CONTENT, OWNERS[0], uuid4(), b"\x01" + bytes(60))
    keyring = KeyringService(FakeDataKeys(), NoopKeyring())
    assert await KeyMigration(fields, NoopEncryptionAdapter(), keyring).pending() == {}


def legacy_rows() -> FakeLegacyRows:
    rows = FakeLegacyRows()
    for owner in OWNERS:
        row = LegacyRow(owner, uuid4(), ("travel",), {"trip": "Lisbon"}, "chat-1")
        rows.live[row.memory_id] = row
        fact = LegacyRelation(owner, uuid4(), "secretly_admires")
        rows.relations[fact.fact_id] = fact
    kept = LegacyRow(OWNERS[0], uuid4(), ("old",))
    rows.quarantine[kept.memory_id] = kept
    return rows


async def test_legacy_sealer_pending_counts_memories_and_relations_and_nothing_after(
    keyring: KeyringService, encryption: XChaChaEncryptionAdapter
) -> None:
    rows = legacy_rows()
    sealer = LegacySealer(rows, encryption, keyring)

    assert await sealer.pending() == SealPending(memories=3, relations=2)
    report = await sealer.seal_existing(batch_rows=1)
    assert (report.sealed, report.quarantined_sealed, report.relations_sealed) == (2, 1, 2)
    assert await sealer.pending() == SealPending(0, 0)


async def test_without_encryption_relations_are_not_pending_since_nothing_would_seal_them() -> None:
    rows = legacy_rows()
    sealer = LegacySealer(rows, NoopEncryptionAdapter())

    assert await sealer.pending() == SealPending(memories=3, relations=0)
    await sealer.seal_existing()
    assert await sealer.pending() == SealPending(0, 0)
