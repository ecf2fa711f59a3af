"""FakeEncryption: reversible but never identity, and a wrong binding fails like the real AEAD."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from memlane.domain.errors import DecryptionFailed
from memlane.ports.encryption import EncryptionPort, FieldBinding

MARKER = b"FAKE1:"


def _tag(binding: FieldBinding) -> bytes:
    return hashlib.sha256(binding.associated_data()).digest()[:8]


class FakeEncryption(EncryptionPort):
    """Marker + binding tag + reversed UTF-8 bytes; terms blinded with a per-tenant hash."""

    def __init__(self) -> None:
        self.sealed_count = 0

    @property
    def enabled(self) -> bool:
        return True

    def seal(self, plaintext: str, binding: FieldBinding) -> bytes:
        self.sealed_count += 1
        return MARKER + _tag(binding) + plaintext.encode()[::-1]

    def open(self, ciphertext: bytes, binding: FieldBinding) -> str:
        head = MARKER + _tag(binding)
        if not ciphertext.startswith(head):
            raise DecryptionFailed("ciphertext does not belong to this row and field")
        try:
            return ciphertext[len(head) :][::-1].decode()
        except UnicodeDecodeError as error:
            raise DecryptionFailed("ciphertext is corrupt") from error

    def blind_terms(self, tenant: str, terms: Sequence[str]) -> list[str]:
        return [hashlib.sha256(f"{tenant}\x1f{t}".encode()).hexdigest()[:16] for t in terms]
