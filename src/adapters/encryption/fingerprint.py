"""Startup check: the loaded key (or plaintext mode) is the one the data was written with."""

from __future__ import annotations

from memlane.adapters.encryption.noop import PLAINTEXT_FINGERPRINT
from memlane.domain.errors import WrongEncryptionKey


def verify_key_fingerprint(stored: str | None, actual: str) -> None:
    """Refuse a key (or plaintext mode) other than the one the data was written with.

    `stored` is None on a fresh database: the caller then stores `actual`.
    """
    if stored is None or stored == actual:
        return
    if stored == PLAINTEXT_FINGERPRINT:
        raise WrongEncryptionKey(
            "existing memories were stored without encryption; switch enable_encryption off "
            "again, or export and re-import them to encrypt"
        )
    if actual == PLAINTEXT_FINGERPRINT:
        raise WrongEncryptionKey(
            "existing memories are encrypted but enable_encryption is off; switch it back on "
            "with the key file they were written with"
        )
    raise WrongEncryptionKey(
        f"the encryption key file does not match the key the existing memories were sealed "
        f"with (expected fingerprint {stored[:16]}..., loaded {actual[:16]}...): they cannot "
        "be read with this key. Restore the right key file (encryption_key_path)"
    )
