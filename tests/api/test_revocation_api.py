"""Revoked keys through the real app: the serving process that revokes a key refuses it at
once; a key revoked by another process (the CLI) is refused within `auth.key_cache_s`."""

from __future__ import annotations

from datetime import timedelta

import asyncpg
import pytest

from memlane.adapters.postgres.security.api_keys import PostgresApiKeyAdapter
from memlane.api.app import create_app
from memlane.api.deps import ApiServices
from memlane.domain.security.auth import Scope
from memlane.service.security.api_keys import KeyService
from memlane.settings import Settings
from tests.api.conftest import assert_problem, bearer, serve, services_opener
from tests.fakes.clock import FakeClock

pytestmark = pytest.mark.integration

# The documented cache time (config.toml, docs/security.md), used as the server's TTL.
CACHE_S = Settings().auth.key_cache_s


def served_by(api_services: ApiServices, keys: KeyService) -> ApiServices:
    return ApiServices(service=api_services.service, keys=keys, readiness=api_services.readiness)


async def test_the_process_that_revokes_a_key_refuses_it_at_once(
    api_services: ApiServices, pg_pool: asyncpg.Pool
) -> None:
    clock = FakeClock()
    keys = KeyService(PostgresApiKeyAdapter(pg_pool), clock=clock, cache_ttl_s=CACHE_S)
    created = await keys.create("tenant-revoke-here", [Scope.READ], user_id="alice")
    async with serve(create_app(services_opener(served_by(api_services, keys)))) as client:
        first = await client.get("/v1/memories", headers=bearer(created.token))
        assert first.status_code == 200  # the token is now in this process's cache
        assert await keys.revoke(created.key.id)
        refused = await client.get("/v1/memories", headers=bearer(created.token))
    assert_problem(refused, 401)


async def test_a_key_revoked_by_another_process_is_refused_within_the_cache_time(
    api_services: ApiServices, pg_pool: asyncpg.Pool
) -> None:
    clock = FakeClock()
    server_keys = KeyService(PostgresApiKeyAdapter(pg_pool), clock=clock, cache_ttl_s=CACHE_S)
    cli_keys = KeyService(PostgresApiKeyAdapter(pg_pool))  # `memlane keys revoke`
    created = await cli_keys.create("tenant-revoke-there", [Scope.READ], user_id="alice")
    headers = bearer(created.token)
    async with serve(create_app(services_opener(served_by(api_services, server_keys)))) as api:
        assert (await api.get("/v1/memories", headers=headers)).status_code == 200
        assert await cli_keys.revoke(created.key.id)
        clock.advance(timedelta(seconds=CACHE_S / 2))
        # Inside the documented window the server may still trust its cached check ...
        assert (await api.get("/v1/memories", headers=headers)).status_code == 200
        clock.advance(timedelta(seconds=CACHE_S / 2 + 0.001))
        # ... and from the end of it on, never.
        assert_problem(await api.get("/v1/memories", headers=headers), 401)
        clock.advance(timedelta(seconds=CACHE_S * 10))
        assert_problem(await api.get("/v1/memories", headers=headers), 401)
