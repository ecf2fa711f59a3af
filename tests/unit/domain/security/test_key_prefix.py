"""keys revoke by prefix: exactly one active key, or a clear error."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import pytest

from memlane.domain.security.auth import (
    AmbiguousKeyPrefix,
    ApiKey,
    KeyPrefixError,
    Scope,
    key_by_prefix,
)

T0 = datetime(2030, 1, 1, tzinfo=UTC)


def key(hex_id: str, revoked: bool = False) -> ApiKey:
    return ApiKey(UUID(hex_id), "t", "", frozenset({Scope.READ}), T0,
                  revoked_at=T0 if revoked else None)


KEYS = [
    key("3f2a0000-0000-4000-8000-000000000001"),
    key("3f2b0000-0000-4000-8000-000000000002"),
    key("77770000-0000-4000-8000-000000000003", revoked=True),
]


def test_a_unique_prefix_names_its_key_whatever_the_case_and_hyphens() -> None:
    assert key_by_prefix(KEYS, "3F2A").id == KEYS[0].id
    assert key_by_prefix(KEYS, "3f2b0000-00").id == KEYS[1].id
    assert key_by_prefix(KEYS, str(KEYS[0].id)).id == KEYS[0].id


def test_a_prefix_of_several_keys_is_ambiguous_and_lists_them() -> None:
    with pytest.raises(AmbiguousKeyPrefix, match="starts 2 active keys") as raised:
        key_by_prefix(KEYS, "3f2")
    assert str(KEYS[0].id) in str(raised.value)


@pytest.mark.parametrize("prefix", ["", "  ", "abc", "7777"])
def test_an_unknown_empty_or_revoked_only_prefix_names_no_key(prefix: str) -> None:
    with pytest.raises(KeyPrefixError) as raised:
        key_by_prefix(KEYS, prefix)
    assert not isinstance(raised.value, AmbiguousKeyPrefix)
