"""Startup checks: the key file exists where the data needs one, and the loaded key (or
plaintext mode) is the one the data was written with."""

from __future__ import annotations

import os
from collections.abc import Mapping

from memlane.adapters.encryption.noop import PLAINTEXT_FINGERPRINT
from memlane.domain.errors import WrongEncryptionKey
from memlane.ports.installation import InstallationPort


def verify_key_fingerprint(
    stored: str | None, actual: str, rotation: Mapping[str, str] | None = None
) -> None:
    """Refuse a key (or plaintext mode) other than the one the data was written with.

    `stored` is None on a fresh database: the caller then stores `actual`. `rotation` maps
    the fingerprints of a rotation's other key files (`.next`, `.previous`) to their paths.
    """
    if stored is None or stored == actual:
        return
    if rotation and stored in rotation:
        found = rotation[stored]
        if found.endswith(".next"):
            raise WrongEncryptionKey(
                f"a master-key rotation to {found} finished in the database but the key file "
                "was not moved into place: run `memlane keys rotate-master` again to finish it"
            )
        raise WrongEncryptionKey(
            f"the data's master key is the one in {found}, not the loaded key file: the "
            "database was restored from a backup taken before `memlane keys rotate-master` "
            "(or the key files were moved by hand). Run `memlane keys rotate-master` to "
            "rewrap its keys by the key file in use"
        )
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


async def refuse_new_key_over_data(
    installation: InstallationPort, key_path: str | os.PathLike[str]
) -> None:
    """Before a missing key file is created: refuse when the database already holds data
    (memories, or a recorded fingerprint). A mistyped key path must not mint a new key
    that can read nothing and, worse, starts sealing new memories with it."""
    recorded = await installation.recorded_fingerprint()
    if recorded is None and not await installation.has_memories():
        return  # a fresh installation: its first key is created now
    raise WrongEncryptionKey(
        f"the encryption key file {os.fspath(key_path)} does not exist, but this "
        "database already holds data sealed with a key"
        + (f" (fingerprint {recorded[:16]}...)" if recorded else "")
        + ": no new key is created over it. Point memory.encryption_key_path at the key "
        "file the data was written with"
    )


async def admit_key(
    installation: InstallationPort, fingerprint: str, rotation: Mapping[str, str] | None = None
) -> None:
    """Record the fingerprint on a fresh installation, else check it against the record;
    memories without a recorded fingerprint are refused, never adopted by this key."""
    stored = await installation.key_fingerprint(fingerprint)
    if stored is None:
        raise WrongEncryptionKey(
            "memories are stored but no encryption key fingerprint is recorded with them "
            "(the encryption_key_fingerprint row of memlane_meta is gone): memlane will not "
            "record the loaded key as theirs. Restore that row from a backup"
        )
    verify_key_fingerprint(stored, fingerprint, rotation)
