"""Data keys: version-2 envelopes under the owner's key, v1 still opening, the keyring cache,
and KeyringService over the fake store (ready, ready_for_write, destroy, rotation)."""

from __future__ import annotations

import os
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from uuid import uuid4

import pytest
from hypothesis import given, settings, strategies as st

from memlane.adapters.encryption.keyring import XChaChaKeyring, master_id
from memlane.adapters.encryption.noop import NoopEncryptionAdapter
from memlane.adapters.encryption.xchacha import DATA_KEY_VERSION, XChaChaEncryptionAdapter
from memlane.domain.errors import DecryptionFailed, InvalidMemory
from memlane.domain.model import Owner
from memlane.domain.security.keyring import ROOT, KeyringNotReady, UnknownMasterKey
from memlane.ports.encryption import FieldBinding
from memlane.service.security.keyring import KeyringService
from tests.fakes.data_keys import FakeDataKeys

ALICE = Owner("acme", "alice")
BOB = Owner("acme", "bob")
T0 = datetime(2026, 1, 1, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def bound(owner: Owner, field: str = "content") -> FieldBinding:
    return FieldBinding(owner.tenant, owner.user_id, uuid4(), field)


@pytest.fixture
def master() -> bytes:
    return os.urandom(32)


@pytest.fixture
def store() -> FakeDataKeys:
    return FakeDataKeys()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def ring(master: bytes) -> XChaChaKeyring:
    return XChaChaKeyring(master)


@pytest.fixture
async def keys(store: FakeDataKeys, ring: XChaChaKeyring, clock: Clock) -> KeyringService:
    service = KeyringService(store, ring, clock)
    await service.start()
    return service


async def test_a_write_creates_the_owners_key_and_seals_version_2_under_it(
    keys: KeyringService, store: FakeDataKeys, ring: XChaChaKeyring, master: bytes
) -> None:
    crypto = XChaChaEncryptionAdapter(master, ring)
    await keys.ready_for_write([ALICE])
    binding = bound(ALICE)
    sealed = crypto.seal("I live in Lisbon", binding)
    assert sealed[0] == DATA_KEY_VERSION
    assert sealed[1:17] == store.rows[ALICE].id.bytes
    assert crypto.open(sealed, binding) == "I live in Lisbon"
    assert master not in store.rows[ALICE].envelope  # stored wrapped only


async def test_two_owners_get_unrelated_keys_and_a_copied_ciphertext_does_not_open(
    keys: KeyringService, ring: XChaChaKeyring, master: bytes
) -> None:
    crypto = XChaChaEncryptionAdapter(master, ring)
    await keys.ready_for_write([ALICE, BOB])
    binding = bound(ALICE)
    sealed = crypto.seal("secret", binding)
    with pytest.raises(DecryptionFailed):
        crypto.open(sealed, replace(binding, user_id="bob"))


async def test_sealing_for_an_owner_never_made_ready_refuses_instead_of_using_another_key(
    keys: KeyringService, ring: XChaChaKeyring, master: bytes
) -> None:
    crypto = XChaChaEncryptionAdapter(master, ring)
    with pytest.raises(KeyringNotReady):
        crypto.seal("x", bound(ALICE))
    await keys.ready([ALICE])  # a read finds no key: it does not create one
    with pytest.raises(KeyringNotReady):
        crypto.seal("x", bound(ALICE))


async def test_destroying_the_key_makes_every_earlier_ciphertext_unopenable(
    keys: KeyringService, store: FakeDataKeys, ring: XChaChaKeyring, master: bytes
) -> None:
    crypto = XChaChaEncryptionAdapter(master, ring)
    await keys.ready_for_write([ALICE])
    binding = bound(ALICE)
    copied = crypto.seal("my diary", binding)  # as a backup or old WAL keeps it
    assert await keys.destroy(ALICE)
    await keys.ready([ALICE])
    with pytest.raises(DecryptionFailed):
        crypto.open(copied, binding)
    await keys.ready_for_write([ALICE])  # writing again makes a new key
    with pytest.raises(DecryptionFailed):
        crypto.open(copied, binding)
    assert ALICE in store.rows


async def test_a_write_sees_a_key_destroyed_by_another_process_despite_its_cache(
    keys: KeyringService, store: FakeDataKeys, ring: XChaChaKeyring, master: bytes
) -> None:
    crypto = XChaChaEncryptionAdapter(master, ring)
    await keys.ready_for_write([ALICE])
    old = store.rows[ALICE].id
    del store.rows[ALICE]  # the erasure, elsewhere
    await keys.ready_for_write([ALICE])
    binding = bound(ALICE)
    sealed = crypto.seal("after erasure", binding)
    assert store.rows[ALICE].id != old
    assert sealed[1:17] == store.rows[ALICE].id.bytes  # sealed under a key that exists


async def test_a_read_that_found_no_key_does_not_drop_the_key_a_concurrent_write_made(
    keys: KeyringService, store: FakeDataKeys, ring: XChaChaKeyring, master: bytes,
    clock: Clock,
) -> None:
    crypto = XChaChaEncryptionAdapter(master, ring)
    began = clock()  # a read's load began before the first write made the key ...
    await keys.ready_for_write([ALICE])
    ring.install([], [ALICE], began)  # ... and answers "no key" after it
    binding = bound(ALICE)
    assert crypto.open(crypto.seal("first words", binding), binding) == "first words"
    clock.now = T0 + timedelta(minutes=5)  # a later load that finds none is believed
    del store.rows[ALICE]
    ring.install([], [ALICE], clock())
    with pytest.raises(KeyringNotReady):
        crypto.seal("x", binding)


async def test_version_1_envelopes_still_open_and_blind_terms_do_not_change(
    keys: KeyringService, ring: XChaChaKeyring, master: bytes
) -> None:
    legacy = XChaChaEncryptionAdapter(master)  # as memlane sealed before data keys
    crypto = XChaChaEncryptionAdapter(master, ring)
    binding = bound(ALICE)
    old = legacy.seal("from last year", binding)
    await keys.ready([ALICE])
    assert crypto.open(old, binding) == "from last year"
    assert crypto.blind_terms("acme", ["lisbon"]) == legacy.blind_terms("acme", ["lisbon"])


async def test_after_a_rotation_old_envelopes_and_indexes_work_under_the_new_master(
    keys: KeyringService, store: FakeDataKeys, ring: XChaChaKeyring, master: bytes,
    clock: Clock,
) -> None:
    legacy = XChaChaEncryptionAdapter(master)
    old_v1 = legacy.seal("v1", (b1 := bound(ALICE)))
    crypto = XChaChaEncryptionAdapter(master, ring)
    await keys.ready_for_write([ALICE])
    old_v2 = crypto.seal("v2", (b2 := bound(ALICE)))
    new_master = os.urandom(32)
    target = XChaChaKeyring(new_master, lambda: [master])
    target.refresh()
    for key in list(store.rows.values()):
        assert await store.rewrap([target.rewrap(key)], [key.master_id], T0) == 1
    assert {k.master_id for k in store.rows.values()} == {master_id(new_master)}
    fresh_ring = XChaChaKeyring(new_master)
    after = XChaChaEncryptionAdapter(new_master, fresh_ring)
    fresh = KeyringService(store, fresh_ring, clock)
    await fresh.start()
    await fresh.ready([ALICE])
    assert after.open(old_v1, b1) == "v1"
    assert after.open(old_v2, b2) == "v2"
    assert after.blind_terms("acme", ["x"]) == legacy.blind_terms("acme", ["x"])


async def test_a_process_on_the_old_master_reads_keys_rewrapped_by_a_rotation(
    keys: KeyringService, store: FakeDataKeys, master: bytes, clock: Clock
) -> None:
    new_master = os.urandom(32)
    files = [master]
    old_process = XChaChaKeyring(master, lambda: files)
    service = KeyringService(store, old_process, clock)
    await service.start()
    await keys.ready_for_write([ALICE])
    target = XChaChaKeyring(new_master, lambda: [master])
    target.refresh()
    key = store.rows[ALICE]
    await store.rewrap([target.rewrap(key)], [key.master_id], T0)
    files.append(new_master)  # the rotation's `.next` file appears beside the old one
    await service.ready([ALICE])  # unknown master: the files are read again
    assert old_process.data_key(ALICE)[0] == key.id


def test_a_key_under_a_master_no_file_holds_is_refused_by_name(master: bytes) -> None:
    other = XChaChaKeyring(os.urandom(32))
    with pytest.raises(UnknownMasterKey, match=other.master_id):
        XChaChaKeyring(master).install([other.mint(ALICE)], (), T0)


def test_a_wrapped_key_moved_to_another_owner_does_not_unwrap(ring: XChaChaKeyring) -> None:
    key = ring.mint(ALICE)
    with pytest.raises(DecryptionFailed):
        ring.install([replace(key, owner=BOB)], (), T0)


async def test_reads_trust_a_cached_key_for_the_ttl_and_never_cache_no_key(
    store: FakeDataKeys, master: bytes, clock: Clock
) -> None:
    ring = XChaChaKeyring(master, ttl_s=30)
    service = KeyringService(store, ring, clock)
    await service.start()
    await service.ready_for_write([ALICE])
    assert ring.missing([ALICE, BOB], clock()) == [BOB]  # "no key" is asked again
    clock.now += timedelta(seconds=31)
    assert ring.missing([ALICE, ROOT], clock()) == [ALICE]  # the root stays


def test_the_cache_is_bounded_and_keeps_the_root(master: bytes) -> None:
    ring = XChaChaKeyring(master, capacity=16)
    ring.install([ring.mint(ROOT)], (), T0)
    owners = [Owner("t", f"u{i}") for i in range(40)]
    ring.install([ring.mint(o) for o in owners], (), T0)
    assert ring.missing(owners, T0) == owners[:25]
    assert ring.root() == master


def test_plaintext_mode_refuses_to_hand_out_a_version_2_envelope() -> None:
    sealed = bytes([DATA_KEY_VERSION]) + os.urandom(60)
    with pytest.raises(DecryptionFailed):
        NoopEncryptionAdapter().open(sealed, bound(ALICE))


@given(text=st.text(max_size=300), user=st.text(min_size=1, max_size=20))
@settings(max_examples=60, deadline=None)
def test_any_text_of_any_owner_round_trips_under_its_data_key_and_nowhere_else(
    text: str, user: str
) -> None:
    master = bytes(range(32))
    ring = XChaChaKeyring(master)
    owner, other = Owner("acme", user), Owner("acme", user + "x")
    ring.install([ring.mint(owner), ring.mint(other)], (), T0)
    crypto = XChaChaEncryptionAdapter(master, ring)
    binding = bound(owner)
    try:
        sealed = crypto.seal(text, binding)
    except InvalidMemory:
        return  # lone surrogates are not text memlane stores
    assert crypto.open(sealed, binding) == text
    with pytest.raises(DecryptionFailed):
        crypto.open(sealed, replace(binding, user_id=other.user_id))
