"""API keys on real PostgreSQL: tokens shown once, stored hashed, revocable, cached briefly."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from uuid import uuid4

import asyncpg
import pytest

from memlane.adapters.postgres.security.api_keys import PostgresApiKeyAdapter
from memlane.domain.security.auth import Scope, parse_scopes
from memlane.service.security.api_keys import KeyService, hash_token, looks_like_token

pytestmark = pytest.mark.integration


def _tenant() -> str:
    return f"tenant-{uuid4().hex[:12]}"


async def test_a_created_token_is_256_random_bits_and_only_its_hash_is_stored(
    pg_pool: asyncpg.Pool,
) -> None:
    keys = KeyService(PostgresApiKeyAdapter(pg_pool))
    created = await keys.create(_tenant(), [Scope.READ], user_id="alice", name="laptop")
    assert looks_like_token(created.token)
    assert created.token.startswith("ml_") and len(created.token) == 46
    row = await pg_pool.fetchrow(
        "SELECT * FROM api_keys WHERE id = $1", created.key.id
    )
    assert row is not None
    assert bytes(row["token_hash"]) == hashlib.sha256(created.token.encode()).digest()
    assert created.token not in str(dict(row))
    assert row["user_id"] == "alice" and row["scopes"] == ["memories:read"]


async def test_a_valid_token_authenticates_as_its_tenant_user_and_scopes(
    pg_pool: asyncpg.Pool,
) -> None:
    tenant = _tenant()
    keys = KeyService(PostgresApiKeyAdapter(pg_pool))
    created = await keys.create(tenant, [Scope.READ, Scope.WRITE])
    principal = await keys.authenticate(created.token)
    assert principal is not None
    assert (principal.tenant, principal.user_id) == (tenant, None)
    assert principal.scopes == {Scope.READ, Scope.WRITE}
    assert principal.allows(Scope.WRITE) and not principal.is_admin


async def test_unknown_and_malformed_tokens_are_rejected(pg_pool: asyncpg.Pool) -> None:
    keys = KeyService(PostgresApiKeyAdapter(pg_pool))
    created = await keys.create(_tenant(), [Scope.READ])
    forged = created.token[:-1] + ("A" if created.token[-1] != "A" else "B")
    assert await keys.authenticate(forged) is None
    assert await keys.authenticate("not-a-token") is None
    assert await keys.authenticate("") is None


async def test_a_revoked_key_stops_working_at_once_in_the_revoking_process(
    pg_pool: asyncpg.Pool,
) -> None:
    keys = KeyService(PostgresApiKeyAdapter(pg_pool), cache_ttl_s=300)
    created = await keys.create(_tenant(), [Scope.READ])
    assert await keys.authenticate(created.token) is not None  # now cached
    assert await keys.revoke(created.key.id) is True
    assert await keys.authenticate(created.token) is None
    assert await keys.revoke(created.key.id) is False


async def test_a_key_revoked_elsewhere_stops_working_once_the_cache_expires(
    pg_pool: asyncpg.Pool,
) -> None:
    now = [datetime(2030, 1, 1, tzinfo=UTC)]
    server = KeyService(PostgresApiKeyAdapter(pg_pool), clock=lambda: now[0], cache_ttl_s=10)
    cli = KeyService(PostgresApiKeyAdapter(pg_pool))
    created = await cli.create(_tenant(), [Scope.READ])
    assert await server.authenticate(created.token) is not None
    await cli.revoke(created.key.id)
    assert await server.authenticate(created.token) is not None  # still within the TTL
    now[0] += timedelta(seconds=11)
    assert await server.authenticate(created.token) is None


async def test_last_used_is_recorded_at_most_once_per_interval(pg_pool: asyncpg.Pool) -> None:
    now = [datetime(2030, 1, 1, tzinfo=UTC)]
    keys = KeyService(
        PostgresApiKeyAdapter(pg_pool), clock=lambda: now[0], cache_ttl_s=0, touch_interval_s=60
    )
    created = await keys.create(_tenant(), [Scope.READ])
    first = now[0]
    await keys.authenticate(created.token)
    now[0] = first + timedelta(seconds=30)
    await keys.authenticate(created.token)
    stamp = await pg_pool.fetchval("SELECT last_used_at FROM api_keys WHERE id=$1", created.key.id)
    assert stamp == first
    now[0] = first + timedelta(seconds=61)
    await keys.authenticate(created.token)
    stamp = await pg_pool.fetchval("SELECT last_used_at FROM api_keys WHERE id=$1", created.key.id)
    assert stamp == now[0]


async def test_keys_are_listed_per_tenant_with_revocation_state(pg_pool: asyncpg.Pool) -> None:
    tenant, other = _tenant(), _tenant()
    keys = KeyService(PostgresApiKeyAdapter(pg_pool))
    kept = await keys.create(tenant, [Scope.READ], name="kept")
    gone = await keys.create(tenant, [Scope.ADMIN], name="gone")
    await keys.create(other, [Scope.READ])
    await keys.revoke(gone.key.id)
    listed = await keys.list(tenant)
    assert [k.id for k in listed] == [kept.key.id, gone.key.id]
    assert [k.active for k in listed] == [True, False]
    assert hash_token(kept.token) not in {bytes(str(k).encode()) for k in listed}


def test_scope_names_parse_and_unknown_ones_are_named() -> None:
    assert parse_scopes(["memories:read", "admin"]) == {Scope.READ, Scope.ADMIN}
    with pytest.raises(ValueError, match="memories:delete"):
        parse_scopes(["memories:delete"])
