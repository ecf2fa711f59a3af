"""XChaChaEncryptionAdapter: roundtrip, fresh nonces, bindings, tampering, keys, blind terms."""

from __future__ import annotations

import dataclasses
import os
from uuid import uuid4

import pytest
from hypothesis import given, settings, strategies as st

from memlane.adapters.encryption.xchacha import (
    HEADER_BYTES,
    MIN_ENVELOPE_BYTES,
    NONCE_BYTES,
    XChaChaEncryptionAdapter,
)
from memlane.domain.errors import ConfigurationError, DecryptionFailed, InvalidMemory
from memlane.ports.encryption import FieldBinding

SECRET = "My bank PIN is 4921 and I live at Rua Augusta 12"


@pytest.fixture
def binding() -> FieldBinding:
    return FieldBinding(tenant="acme", user_id="alice", memory_id=uuid4(), field="content")


@pytest.fixture
def crypto() -> XChaChaEncryptionAdapter:
    return XChaChaEncryptionAdapter(os.urandom(32))


def test_a_sealed_field_opens_to_the_same_text(
    crypto: XChaChaEncryptionAdapter, binding: FieldBinding
) -> None:
    assert crypto.open(crypto.seal(SECRET, binding), binding) == SECRET
    assert crypto.open(crypto.seal("", binding), binding) == ""
    assert (
        crypto.open(crypto.seal("caf\u00e9 \U0001f600", binding), binding) == "caf\u00e9 \U0001f600"
    )


def test_the_envelope_carries_version_key_id_and_nonce_and_no_plaintext(
    crypto: XChaChaEncryptionAdapter, binding: FieldBinding
) -> None:
    sealed = crypto.seal(SECRET, binding)
    assert sealed[0] == 1
    assert sealed[1:HEADER_BYTES].hex() == crypto.key_id
    assert len(sealed) == MIN_ENVELOPE_BYTES + len(SECRET.encode())
    assert b"4921" not in sealed and b"Augusta" not in sealed


def test_sealing_the_same_text_twice_uses_a_fresh_nonce(
    crypto: XChaChaEncryptionAdapter, binding: FieldBinding
) -> None:
    first, second = crypto.seal(SECRET, binding), crypto.seal(SECRET, binding)
    assert first != second
    nonce = slice(HEADER_BYTES, HEADER_BYTES + NONCE_BYTES)
    assert first[nonce] != second[nonce]


@pytest.mark.parametrize(
    "change",
    [
        {"memory_id": uuid4()},
        {"user_id": "mallory"},
        {"tenant": "other-tenant"},
        {"field": "summary"},
    ],
    ids=["other memory", "other user", "other tenant", "other field"],
)
def test_a_ciphertext_moved_to_another_row_or_field_does_not_open(
    crypto: XChaChaEncryptionAdapter, binding: FieldBinding, change: dict[str, object]
) -> None:
    sealed = crypto.seal(SECRET, binding)
    elsewhere = dataclasses.replace(binding, **change)  # type: ignore[arg-type]
    with pytest.raises(DecryptionFailed):
        crypto.open(sealed, elsewhere)


@pytest.mark.parametrize("position", [HEADER_BYTES + 3, HEADER_BYTES + NONCE_BYTES + 1, -1])
def test_a_flipped_bit_anywhere_after_the_header_is_detected(
    crypto: XChaChaEncryptionAdapter, binding: FieldBinding, position: int
) -> None:
    sealed = bytearray(crypto.seal(SECRET, binding))
    sealed[position] ^= 0x01
    with pytest.raises(DecryptionFailed, match="did not authenticate"):
        crypto.open(bytes(sealed), binding)


def test_a_truncated_ciphertext_is_rejected(
    crypto: XChaChaEncryptionAdapter, binding: FieldBinding
) -> None:
    sealed = crypto.seal(SECRET, binding)
    with pytest.raises(DecryptionFailed):
        crypto.open(sealed[:-1], binding)
    with pytest.raises(DecryptionFailed, match="too short"):
        crypto.open(sealed[: MIN_ENVELOPE_BYTES - 1], binding)


def test_an_unknown_envelope_version_is_a_clear_error(
    crypto: XChaChaEncryptionAdapter, binding: FieldBinding
) -> None:
    sealed = bytearray(crypto.seal(SECRET, binding))
    sealed[0] = 7
    with pytest.raises(DecryptionFailed, match="unknown envelope version 7"):
        crypto.open(bytes(sealed), binding)


def test_another_key_cannot_open_and_says_which_key_sealed_it(
    crypto: XChaChaEncryptionAdapter, binding: FieldBinding
) -> None:
    other = XChaChaEncryptionAdapter(os.urandom(32))
    with pytest.raises(DecryptionFailed, match=crypto.key_id):
        other.open(crypto.seal(SECRET, binding), binding)


def test_a_forged_key_id_still_fails_authentication(binding: FieldBinding) -> None:
    # The header is authenticated: copying the right key id onto a foreign envelope is no help.
    victim = XChaChaEncryptionAdapter(os.urandom(32))
    attacker = XChaChaEncryptionAdapter(os.urandom(32))
    forged = bytearray(attacker.seal(SECRET, binding))
    forged[1:HEADER_BYTES] = bytes.fromhex(victim.key_id)
    with pytest.raises(DecryptionFailed, match="did not authenticate"):
        victim.open(bytes(forged), binding)


def test_a_key_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="32 bytes"):
        XChaChaEncryptionAdapter(b"short")


def test_blind_terms_are_deterministic_for_one_key_and_tenant() -> None:
    key = os.urandom(32)
    terms = ["lisbon", "nurs", "2023", "lisbon"]
    first = XChaChaEncryptionAdapter(key).blind_terms("acme", terms)
    assert first == XChaChaEncryptionAdapter(key).blind_terms("acme", terms)
    assert first[0] == first[3] and len(set(first)) == 3
    assert all(len(token) == 16 and int(token, 16) >= 0 for token in first)


def test_blind_terms_differ_across_tenants_and_keys(crypto: XChaChaEncryptionAdapter) -> None:
    terms = ["lisbon", "nurs"]
    acme = crypto.blind_terms("acme", terms)
    assert set(acme).isdisjoint(crypto.blind_terms("globex", terms))
    assert set(acme).isdisjoint(XChaChaEncryptionAdapter(os.urandom(32)).blind_terms("acme", terms))


def test_blind_terms_contain_no_plaintext(crypto: XChaChaEncryptionAdapter) -> None:
    tokens = crypto.blind_terms("acme", ["lisbon", "2023", "a"])
    assert not any(term in token for token in tokens for term in ("lisbon", "2023"))


def test_the_fingerprint_is_stable_per_key_and_differs_between_keys() -> None:
    key = os.urandom(32)
    assert XChaChaEncryptionAdapter(key).fingerprint == XChaChaEncryptionAdapter(key).fingerprint
    assert (
        XChaChaEncryptionAdapter(key).fingerprint
        != XChaChaEncryptionAdapter(os.urandom(32)).fingerprint
    )
    assert key.hex() not in XChaChaEncryptionAdapter(key).fingerprint


def test_the_adapter_reports_encryption_enabled(crypto: XChaChaEncryptionAdapter) -> None:
    assert crypto.enabled is True


_PROPERTY_CRYPTO = XChaChaEncryptionAdapter(bytes(range(32)))


@given(
    text=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=500),
    tenant=st.text(min_size=1, max_size=20),
    user_id=st.text(min_size=1, max_size=20),
)
@settings(max_examples=200, deadline=None)
def test_any_text_roundtrips_under_any_binding(text: str, tenant: str, user_id: str) -> None:
    binding = FieldBinding(tenant=tenant, user_id=user_id, memory_id=uuid4(), field="content")
    sealed = _PROPERTY_CRYPTO.seal(text, binding)
    assert _PROPERTY_CRYPTO.open(sealed, binding) == text


def test_text_that_is_not_valid_unicode_is_refused_before_sealing(
    crypto: XChaChaEncryptionAdapter, binding: FieldBinding
) -> None:
    with pytest.raises(InvalidMemory):
        crypto.seal("lone surrogate \ud800", binding)
