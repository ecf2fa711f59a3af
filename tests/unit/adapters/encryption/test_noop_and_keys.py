"""Key file, fingerprint check and the no-op adapter."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from uuid import uuid4

import pytest

from memlane.adapters.encryption.fingerprint import verify_key_fingerprint
from memlane.adapters.encryption.keyfile import load_or_create_key
from memlane.adapters.encryption.noop import NoopEncryptionAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.domain.errors import ConfigurationError, DecryptionFailed, WrongEncryptionKey
from memlane.ports.encryption import FieldBinding

BINDING = FieldBinding(tenant="acme", user_id="alice", memory_id=uuid4(), field="content")


def test_a_missing_key_file_is_created_private_with_its_directories(tmp_path: Path) -> None:
    path = tmp_path / "secrets" / "nested" / "memlane.key"
    key = load_or_create_key(path)
    assert len(key) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_bytes() == key
    assert [p.name for p in path.parent.iterdir()] == ["memlane.key"]  # no temp file left


def test_an_existing_key_file_is_reused_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "memlane.key"
    first = load_or_create_key(path)
    assert load_or_create_key(str(path)) == first


def test_two_new_key_files_hold_different_keys(tmp_path: Path) -> None:
    assert load_or_create_key(tmp_path / "a.key") != load_or_create_key(tmp_path / "b.key")


def test_a_key_file_readable_by_others_is_refused_with_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "memlane.key"
    load_or_create_key(path)
    path.chmod(0o644)
    with pytest.raises(ConfigurationError, match=r"chmod 600"):
        load_or_create_key(path)


def test_a_key_file_of_the_wrong_length_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "memlane.key"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, b"not a key\n")
    os.close(fd)
    with pytest.raises(ConfigurationError, match="10 bytes, not 32"):
        load_or_create_key(path)
    assert path.read_bytes() == b"not a key\n"


def test_a_directory_in_place_of_the_key_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="not a regular file"):
        load_or_create_key(tmp_path)


def test_a_key_from_the_file_seals_and_opens_across_restarts(tmp_path: Path) -> None:
    path = tmp_path / "memlane.key"
    sealed = XChaChaEncryptionAdapter(load_or_create_key(path)).seal("hello", BINDING)
    assert XChaChaEncryptionAdapter(load_or_create_key(path)).open(sealed, BINDING) == "hello"


def test_a_fresh_database_or_the_same_key_passes_the_fingerprint_check() -> None:
    fingerprint = XChaChaEncryptionAdapter(os.urandom(32)).fingerprint
    verify_key_fingerprint(None, fingerprint)
    verify_key_fingerprint(fingerprint, fingerprint)


def test_another_key_fails_the_fingerprint_check_with_a_clear_message() -> None:
    stored = XChaChaEncryptionAdapter(os.urandom(32)).fingerprint
    actual = XChaChaEncryptionAdapter(os.urandom(32)).fingerprint
    with pytest.raises(WrongEncryptionKey, match="Restore the right key file"):
        verify_key_fingerprint(stored, actual)


def test_switching_encryption_on_or_off_over_existing_data_fails_the_check() -> None:
    encrypted = XChaChaEncryptionAdapter(os.urandom(32)).fingerprint
    plaintext = NoopEncryptionAdapter().fingerprint
    with pytest.raises(WrongEncryptionKey, match="without encryption"):
        verify_key_fingerprint(plaintext, encrypted)
    with pytest.raises(WrongEncryptionKey, match="enable_encryption is off"):
        verify_key_fingerprint(encrypted, plaintext)


def test_the_noop_adapter_passes_utf8_text_through() -> None:
    noop = NoopEncryptionAdapter()
    assert noop.enabled is False
    assert noop.seal("caf\u00e9", BINDING) == "caf\u00e9".encode()
    assert noop.open(noop.seal("caf\u00e9", BINDING), BINDING) == "caf\u00e9"


def test_the_noop_adapter_leaves_index_terms_readable() -> None:
    assert NoopEncryptionAdapter().blind_terms("acme", ["lisbon", "2023"]) == ["lisbon", "2023"]


def test_the_noop_adapter_never_returns_ciphertext_as_content() -> None:
    sealed = XChaChaEncryptionAdapter(os.urandom(32)).seal("hello", BINDING)
    with pytest.raises(DecryptionFailed, match="encryption is switched off"):
        NoopEncryptionAdapter().open(sealed, BINDING)
    with pytest.raises(DecryptionFailed, match="not UTF-8"):
        NoopEncryptionAdapter().open(b"\xff\xfe", BINDING)
