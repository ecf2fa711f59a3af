"""XChaChaKeyring: data keys wrapped by the master key, and the bounded cache of unwrapped ones."""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID, uuid4

from nacl.bindings import (
    crypto_aead_xchacha20poly1305_ietf_decrypt,
    crypto_aead_xchacha20poly1305_ietf_encrypt,
)
from nacl.exceptions import CryptoError

from memlane.adapters.encryption.xchacha import (
    KEY_BYTES,
    KEY_ID_BYTES,
    NONCE_BYTES,
    key_fingerprint,
)
from memlane.domain.errors import DecryptionFailed
from memlane.domain.model import Owner
from memlane.domain.security import ROOT, KeyringNotReady, UnknownMasterKey, WrappedKey
from memlane.ports.security import KeyringPort

# Wrapped key: version (1) | master key id (8) | nonce (24) | key (32) + tag (16).
WRAP_VERSION = 1
_WRAP_CONTEXT = b"memlane-data-key"
DEFAULT_CAPACITY = 10_000
DEFAULT_TTL_S = 30.0


def master_id(key: bytes) -> str:
    """The id a master key is named by (the first 8 bytes of its fingerprint, in hex): the
    same id version-1 envelopes carry."""
    return key_fingerprint(key)[: 2 * KEY_ID_BYTES]


def _aad(owner: Owner, key_id: UUID) -> bytes:
    # Binds the wrapped key to its owner and id: a row copied to another owner does not open.
    return b"\x1f".join((_WRAP_CONTEXT, owner.tenant.encode(), owner.user_id.encode(),
                         str(key_id).encode()))


@dataclass(frozen=True, slots=True)
class _Entry:
    key_id: UUID | None  # None: the owner has no key (erased, or never wrote)
    secret: bytes | None
    at: datetime


class XChaChaKeyring(KeyringPort):
    """Wraps with the current master, unwraps with any master held; caches at most `capacity`
    owners' keys, reloaded by `ready` after `ttl_s` (the root key stays while the process does)."""

    def __init__(
        self,
        master: bytes,
        load_masters: Callable[[], Sequence[bytes]] | None = None,
        *,
        capacity: int = DEFAULT_CAPACITY,
        ttl_s: float = DEFAULT_TTL_S,
    ) -> None:
        if len(master) != KEY_BYTES:
            raise ValueError(f"a master key is {KEY_BYTES} bytes")
        self._current = bytes(master)
        self._masters = {master_id(master): self._current}
        self._load_masters = load_masters
        self._capacity = capacity
        self._ttl = timedelta(seconds=ttl_s)
        self._cache: OrderedDict[Owner, _Entry] = OrderedDict()
        self._root: bytes | None = None

    @property
    def enabled(self) -> bool:
        return True

    @property
    def master_id(self) -> str:
        return master_id(self._current)

    def missing(self, owners: Sequence[Owner], now: datetime) -> list[Owner]:
        stale = now - self._ttl
        out = []
        for owner in dict.fromkeys(owners):
            entry = self._cache.get(owner)
            # "No key" is never trusted from the cache: another process may create one.
            if entry is None or entry.key_id is None or (owner != ROOT and entry.at < stale):
                out.append(owner)
        return out

    def install(self, keys: Sequence[WrappedKey], absent: Sequence[Owner], now: datetime) -> None:
        for key in keys:
            secret = self._unwrap(key)
            if key.owner == ROOT:
                self._root = secret
            self._put(key.owner, _Entry(key.id, secret, now))
        for owner in absent:
            entry = self._cache.get(owner)
            if entry is not None and entry.key_id is not None and entry.at >= now:
                # A write made this key after the load that found none began (`now` is when
                # it began): the load's "no key" is older than the key, so it stays.
                continue
            self._put(owner, _Entry(None, None, now))

    def mint(self, owner: Owner) -> WrappedKey:
        secret = self._current if owner == ROOT else os.urandom(KEY_BYTES)
        return self._wrap(owner, uuid4(), secret)

    def forget(self, owner: Owner) -> None:
        self._cache.pop(owner, None)

    def rewrap(self, key: WrappedKey) -> WrappedKey:
        return self._wrap(key.owner, key.id, self._unwrap(key))

    def refresh(self) -> None:
        if self._load_masters is None:
            return
        for key in self._load_masters():
            self._masters.setdefault(master_id(key), bytes(key))

    # -- what the encryption adapter seals and opens with ----------------------------------
    def data_key(self, owner: Owner) -> tuple[UUID, bytes]:
        """The owner's key to seal with; KeyringNotReady unless `ready` found or made one."""
        entry = self._cache.get(owner)
        if entry is None or entry.key_id is None or entry.secret is None:
            raise KeyringNotReady(owner)
        self._cache.move_to_end(owner)
        return entry.key_id, entry.secret

    def opening_key(self, owner: Owner, key_id: UUID, where: str) -> bytes:
        """The key a version-2 envelope names, if it is still the owner's key."""
        entry = self._cache.get(owner)
        if entry is None:
            raise KeyringNotReady(owner)
        if entry.key_id != key_id or entry.secret is None:
            # Destroyed by an erasure (crypto-shredding), or copied from another owner.
            raise DecryptionFailed(f"{where} was sealed with data key {key_id}, which is not "
                                   "the owner's key (destroyed by an erasure, or moved)")
        self._cache.move_to_end(owner)
        return entry.secret

    def root(self) -> bytes:
        """The installation's root key (blind indexes, version-1 envelopes)."""
        if self._root is None:
            raise KeyringNotReady(ROOT)
        return self._root

    def _put(self, owner: Owner, entry: _Entry) -> None:
        self._cache[owner] = entry
        self._cache.move_to_end(owner)
        while len(self._cache) > self._capacity:
            oldest = next(iter(self._cache))
            if oldest == ROOT:
                self._cache.move_to_end(ROOT)
                continue
            del self._cache[oldest]

    def _wrap(self, owner: Owner, key_id: UUID, secret: bytes) -> WrappedKey:
        ident = self.master_id
        header = bytes([WRAP_VERSION]) + bytes.fromhex(ident)
        nonce = os.urandom(NONCE_BYTES)
        sealed = crypto_aead_xchacha20poly1305_ietf_encrypt(
            secret, header + _aad(owner, key_id), nonce, self._current
        )
        return WrappedKey(owner, key_id, ident, header + nonce + sealed)

    def _unwrap(self, key: WrappedKey) -> bytes:
        envelope = bytes(key.envelope)
        named = envelope[1 : 1 + KEY_ID_BYTES].hex()
        if envelope[:1] != bytes([WRAP_VERSION]) or named != key.master_id:
            raise DecryptionFailed(f"the data key of {key.owner.tenant}/{key.owner.user_id} "
                                   "is not a wrapped key (damaged row)")
        master = self._masters.get(named)
        if master is None:
            raise UnknownMasterKey(named)
        header_end = 1 + KEY_ID_BYTES
        try:
            return crypto_aead_xchacha20poly1305_ietf_decrypt(
                envelope[header_end + NONCE_BYTES :],
                envelope[:header_end] + _aad(key.owner, key.id),
                envelope[header_end : header_end + NONCE_BYTES],
                master,
            )
        except CryptoError as exc:
            raise DecryptionFailed(f"the data key of {key.owner.tenant}/{key.owner.user_id} "
                                   "does not authenticate (tampered, or moved)") from exc


class NoopKeyring(KeyringPort):
    """Encryption off: there are no keys to make ready."""

    @property
    def enabled(self) -> bool:
        return False

    @property
    def master_id(self) -> str:
        return ""

    def missing(self, owners: Sequence[Owner], now: datetime) -> list[Owner]:
        return []

    def install(self, keys: Sequence[WrappedKey], absent: Sequence[Owner], now: datetime) -> None:
        return None

    def mint(self, owner: Owner) -> WrappedKey:
        raise RuntimeError("encryption is off: no data keys")

    def forget(self, owner: Owner) -> None:
        return None

    def rewrap(self, key: WrappedKey) -> WrappedKey:
        raise RuntimeError("encryption is off: no data keys")

    def refresh(self) -> None:
        return None
