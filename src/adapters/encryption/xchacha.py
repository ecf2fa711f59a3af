"""XChaChaEncryptionAdapter: XChaCha20-Poly1305 envelopes bound to row and field."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence

from nacl.bindings import (
    crypto_aead_xchacha20poly1305_ietf_ABYTES,
    crypto_aead_xchacha20poly1305_ietf_decrypt,
    crypto_aead_xchacha20poly1305_ietf_encrypt,
    crypto_aead_xchacha20poly1305_ietf_KEYBYTES,
    crypto_aead_xchacha20poly1305_ietf_NPUBBYTES,
)
from nacl.exceptions import CryptoError

from memlane.domain.errors import ConfigurationError, DecryptionFailed, InvalidMemory
from memlane.ports.encryption import EncryptionPort, FieldBinding

# Envelope: version (1) | key id (8) | nonce (24) | ciphertext + tag (16).
ENVELOPE_VERSION = 1
KEY_ID_BYTES = 8
KEY_BYTES: int = crypto_aead_xchacha20poly1305_ietf_KEYBYTES
NONCE_BYTES: int = crypto_aead_xchacha20poly1305_ietf_NPUBBYTES
TAG_BYTES: int = crypto_aead_xchacha20poly1305_ietf_ABYTES
HEADER_BYTES = 1 + KEY_ID_BYTES
MIN_ENVELOPE_BYTES = HEADER_BYTES + NONCE_BYTES + TAG_BYTES

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
    """Seals memory fields; a ciphertext only opens under its own key, row and field."""

    def __init__(self, key: bytes) -> None:
        if len(key) != KEY_BYTES:
            raise ConfigurationError(f"encryption key must be {KEY_BYTES} bytes, got {len(key)}")
        self._key = bytes(key)
        self._fingerprint = key_fingerprint(self._key)
        self._key_id = bytes.fromhex(self._fingerprint)[:KEY_ID_BYTES]
        self._header = bytes([ENVELOPE_VERSION]) + self._key_id
        self._tenant_keys: dict[str, bytes] = {}

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
        sealed = crypto_aead_xchacha20poly1305_ietf_encrypt(
            message, self._header + binding.associated_data(), nonce, self._key
        )
        return self._header + nonce + sealed

    def open(self, ciphertext: bytes, binding: FieldBinding) -> str:
        envelope = bytes(ciphertext)
        where = f"{binding.field} of memory {binding.memory_id}"
        if len(envelope) < MIN_ENVELOPE_BYTES:
            raise DecryptionFailed(f"{where} is not an encryption envelope (too short)")
        if envelope[0] != ENVELOPE_VERSION:
            raise DecryptionFailed(
                f"{where} has unknown envelope version {envelope[0]} (this build reads "
                f"{ENVELOPE_VERSION}); was it stored without encryption or by a newer memlane?"
            )
        key_id = envelope[1:HEADER_BYTES]
        if key_id != self._key_id:
            raise DecryptionFailed(
                f"{where} was sealed with key {key_id.hex()}, not the loaded key "
                f"{self._key_id.hex()}; restore the key file it was written with"
            )
        nonce = envelope[HEADER_BYTES : HEADER_BYTES + NONCE_BYTES]
        try:
            message = crypto_aead_xchacha20poly1305_ietf_decrypt(
                envelope[HEADER_BYTES + NONCE_BYTES :],
                envelope[:HEADER_BYTES] + binding.associated_data(),
                nonce,
                self._key,
            )
            return message.decode("utf-8")
        except (CryptoError, UnicodeDecodeError) as exc:
            # Never say more: the same answer for tampering, a moved row or a bad key.
            raise DecryptionFailed(
                f"{where} did not authenticate (tampered, or copied from another row)"
            ) from exc

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
        derived = hashlib.blake2b(
            tenant.encode("utf-8"), key=self._key, digest_size=32, person=_BLIND_PERSON
        ).digest()
        if len(self._tenant_keys) >= _TENANT_KEY_CACHE_SIZE:
            self._tenant_keys.clear()
        self._tenant_keys[tenant] = derived
        return derived
