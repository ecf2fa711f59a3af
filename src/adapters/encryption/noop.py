"""NoopEncryptionAdapter: plaintext at rest, for when encryption is switched off."""

from __future__ import annotations

from collections.abc import Sequence

from memlane.adapters.encryption.xchacha import (
    DATA_KEY_VERSION,
    ENVELOPE_VERSION,
    MIN_ENVELOPE_BYTES,
)
from memlane.domain.errors import DecryptionFailed, InvalidMemory
from memlane.ports.encryption import EncryptionPort, FieldBinding

# Stored as the key fingerprint when encryption is off, so switching it on or
# off over existing data is caught at startup like a wrong key.
PLAINTEXT_FINGERPRINT = "plaintext"


class NoopEncryptionAdapter(EncryptionPort):
    """UTF-8 bytes through; index terms stay readable."""

    @property
    def enabled(self) -> bool:
        return False

    @property
    def fingerprint(self) -> str:
        return PLAINTEXT_FINGERPRINT

    def seal(self, plaintext: str, binding: FieldBinding) -> bytes:
        try:
            return plaintext.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidMemory(f"{binding.field} is not valid Unicode text") from exc

    def open(self, ciphertext: bytes, binding: FieldBinding) -> str:
        data = bytes(ciphertext)
        where = f"{binding.field} of memory {binding.memory_id}"
        # Text never starts with U+0001 or U+0002; an envelope always does. Refuse to hand
        # ciphertext out as content.
        if len(data) >= MIN_ENVELOPE_BYTES and data[0] in (ENVELOPE_VERSION, DATA_KEY_VERSION):
            raise DecryptionFailed(f"{where} is encrypted but encryption is switched off")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DecryptionFailed(f"{where} is not UTF-8 text") from exc

    def blind_terms(self, tenant: str, terms: Sequence[str]) -> list[str]:
        return list(terms)
