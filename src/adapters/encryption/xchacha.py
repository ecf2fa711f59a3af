"""XChaChaEncryptionAdapter: XChaCha20-Poly1305 envelopes bound to row and field."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING
from uuid import UUID

from nacl.bindings import (
    crypto_aead_xchacha20poly1305_ietf_ABYTES,
    crypto_aead_xchacha20poly1305_ietf_decrypt,
    crypto_aead_xchacha20poly1305_ietf_encrypt,
    crypto_aead_xchacha20poly1305_ietf_KEYBYTES,
    crypto_aead_xchacha20poly1305_ietf_NPUBBYTES,
)
from nacl.exceptions import CryptoError

from memlane.domain.errors import ConfigurationError, DecryptionFailed, InvalidMemory
from memlane.domain.model import Owner
from memlane.ports.encryption import EncryptionPort, FieldBinding

if TYPE_CHECKING:
    from memlane.adapters.encryption.keyring import XChaChaKeyring

# Envelope v1: version (1) | master key id (8) | nonce (24) | ciphertext + tag (16).
# Envelope v2: version (2) | data key id (16, the owner's key) | nonce (24) | ciphertext + tag.
ENVELOPE_VERSION = 1
DATA_KEY_VERSION = 2
KEY_ID_BYTES = 8
KEY_BYTES: int = crypto_aead_xchacha20poly1305_ietf_KEYBYTES
NONCE_BYTES: int = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES
TAG_BYTES: int = crypto_aead_xchacha20poly1305_ietf_ABYTES
HEADER_BYTES = 1 + KEY_ID_BYTES
MIN_ENVELOPE_BYTES = HEADER_BYTES + NONCE_BYTES + TAG_BYTES
V2_HEADER_BYTES = 1 + 16

# Distinct BLAKE2b personalisations (16 bytes each) keep the derived values
# independent of each other and of the AEAD use of the key.
_FINGERPRINT_PERSON = b"memlane-keyfp-v1"
_BLIND_PERSON = b"memlane-blind-v1"
# 64 bits per term: collisions inside one user's vocabulary are negligible,
# and a short token keeps the lexical index small.
BLIND_TERM_BYTES = 8
_TENANT_KEY_CACHE_SIZE = 1024


def key_fingerprint(key: bytes) -> str:
    """A public, stable name for a key (hex); reveals nothing about the key."""
    return hashlib.blake2b(b"", key=key, digest_size=32, person=_FINGERPRINT_PERSON).hexdigest()


class XChaChaEncryptionAdapter(EncryptionPort):
    """Seals memory fields; a ciphertext only opens under its own key, row and field.

    With a keyring, fields are sealed (v2) under their owner's data key and blind indexes
    derive from the installation's root key; without one, everything is sealed (v1) with the
    master key itself, as before data keys existed (tools and tests)."""

    def __init__(self, key: bytes, keyring: XChaChaKeyring | None = None) -> None:
        if len(key) != KEY_BYTES:
            raise ConfigurationError(f"encryption key must be {KEY_BYTES} bytes, got {len(key)}")
        self._key = bytes(key)
        self._fingerprint = key_fingerprint(self._key)
        self._key_id = bytes.fromhex(self._fingerprint)[:KEY_ID_BYTES]
        self._header = bytes([ENVELOPE_VERSION]) + self._key_id
        self._tenant_keys: dict[str, bytes] = {}
        self._keyring = keyring
        self._root_id: tuple[bytes, bytes] | None = None  # the root key and its v1 key id

    @property
    def enabled(self) -> bool:
        return True

    @property
    def fingerprint(self) -> str:
        """Stored with the data at first start; a different key is refused at the next."""
        return self._fingerprint

    @property
    def key_id(self) -> str:
        return self._key_id.hex()

    def seal(self, plaintext: str, binding: FieldBinding) -> bytes:
        try:
            message = plaintext.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidMemory(f"{binding.field} is not valid Unicode text") from exc
        nonce = os.urandom(NONCE_BYTES)
        if self._keyring is None:
            header, key = self._header, self._key
        else:
            key_id, key = self._keyring.data_key(Owner(binding.tenant, binding.user_id))
            header = bytes([DATA_KEY_VERSION]) + key_id.bytes
        sealed = crypto_aead_xchacha20poly1305_ietf_encrypt(
            message, header + binding.associated_data(), nonce, key
        )
        return header + nonce + sealed

    def open(self, ciphertext: bytes, binding: FieldBinding) -> str:
        envelope = bytes(ciphertext)
        where = f"{binding.field} of memory {binding.memory_id}"
        if len(envelope) < MIN_ENVELOPE_BYTES:
            raise DecryptionFailed(f"{where} is not an encryption envelope (too short)")
        if envelope[0] == DATA_KEY_VERSION and self._keyring is not None:
            header_end = V2_HEADER_BYTES
            key = self._keyring.opening_key(
                Owner(binding.tenant, binding.user_id), UUID(bytes=envelope[1:header_end]), where
            )
        elif envelope[0] == ENVELOPE_VERSION:
            header_end = HEADER_BYTES
            key = self._v1_key(envelope[1:HEADER_BYTES], where)
        else:
            raise DecryptionFailed(
                f"{where} has unknown envelope version {envelope[0]} (this build reads "
                f"{ENVELOPE_VERSION} and {DATA_KEY_VERSION}); was it stored without encryption "
                "or by a newer memlane?"
            )
        nonce = envelope[header_end : header_end + NONCE_BYTES]
        try:
            message = crypto_aead_xchacha20poly1305_ietf_decrypt(
                envelope[header_end + NONCE_BYTES :],
                envelope[:header_end] + binding.associated_data(),
                nonce,
                key,
            )
            return message.decode("utf-8")
        except (CryptoError, UnicodeDecodeError) as exc:
            # Never say more: the same answer for tampering, a moved row or a bad key.
            raise DecryptionFailed(
                f"{where} did not authenticate (tampered, or copied from another row)"
            ) from exc

    def _v1_key(self, key_id: bytes, where: str) -> bytes:
        """Version 1 was sealed with the master key of its day: the loaded master, or (after a
        rotation) the root key, which is that first master kept wrapped."""
        if key_id == self._key_id:
            return self._key
        if self._keyring is not None:
            root = self._keyring.root()
            if self._root_id is None or self._root_id[0] != root:
                self._root_id = (root, bytes.fromhex(key_fingerprint(root))[:KEY_ID_BYTES])
            if self._root_id[1] == key_id:
                return root
        raise DecryptionFailed(
            f"{where} was sealed with key {key_id.hex()}, not the loaded key "
            f"{self._key_id.hex()}; restore the key file it was written with"
        )

    def blind_terms(self, tenant: str, terms: Sequence[str]) -> list[str]:
        tenant_key = self._tenant_key(tenant)
        return [
            hashlib.blake2b(
                term.encode("utf-8"), key=tenant_key, digest_size=BLIND_TERM_BYTES
            ).hexdigest()
            for term in terms
        ]

    def _tenant_key(self, tenant: str) -> bytes:
        # One derived key per tenant: equal terms in two tenants give unrelated tokens.
        cached = self._tenant_keys.get(tenant)
        if cached is not None:
            return cached
        # The root key is the first master key kept wrapped: a rotated master changes nothing
        # here, so stored indexes keep matching.
        root = self._key if self._keyring is None else self._keyring.root()
        derived = hashlib.blake2b(
            tenant.encode("utf-8"), key=root, digest_size=32, person=_BLIND_PERSON
        ).digest()
        if len(self._tenant_keys) >= _TENANT_KEY_CACHE_SIZE:
            self._tenant_keys.clear()
        self._tenant_keys[tenant] = derived
        return derived
