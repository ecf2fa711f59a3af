"""The real app's problem+json answers, as the client raises them."""

from __future__ import annotations

from uuid import uuid4

import pytest
from litestar import Litestar

from memlane.api.app import create_app
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.client import Forbidden, NotFound, ServiceUnavailable, Unauthorized
from memlane.domain.errors import InvalidMemory, MemoryNotFound
from memlane.domain.security.auth import Scope
from memlane.service.memory_service import MemoryService
from tests.api.conftest import TenantKeys, services_opener
from tests.client.conftest import remote
from tests.client.test_async_client_routes import token_of
from tests.client.test_sync_client_routes import FlakyDatabase

pytestmark = pytest.mark.integration


async def test_a_revoked_or_unknown_token_is_unauthorized(app: Litestar) -> None:
    async with remote(app, "ml_" + "A" * 43) as client:
        with pytest.raises(Unauthorized) as raised:
            await client.stats()
    assert raised.value.problem is not None and raised.value.problem.status == 401


async def test_a_read_only_key_writing_is_forbidden(app: Litestar, tenant: TenantKeys) -> None:
    async with remote(app, token_of(tenant.alice_reader)) as client:
        with pytest.raises(Forbidden):
            await client.remember(content="I am not allowed to write this")


async def test_a_user_outside_a_pinned_keys_reach_is_not_found_not_a_missing_memory(
    app: Litestar, tenant: TenantKeys
) -> None:
    async with remote(app, token_of(tenant.alice)) as client:
        with pytest.raises(NotFound) as raised:
            await client.get(user_id="bob", memory_id=uuid4())
    assert not isinstance(raised.value, MemoryNotFound)


async def test_another_users_memory_is_memory_not_found(app: Litestar, tenant: TenantKeys) -> None:
    async with remote(app, token_of(tenant.bob)) as bob:
        bobs = await bob.remember(content="Bob's locker code is in his notebook")
    async with remote(app, token_of(tenant.alice)) as alice:
        with pytest.raises(MemoryNotFound) as raised:
            await alice.update(memory_id=bobs.id, pinned=True)
    assert raised.value.memory_id == str(bobs.id)


async def test_rejected_input_is_invalid_memory_with_the_fields_named(
    app: Litestar, tenant: TenantKeys
) -> None:
    async with remote(app, token_of(tenant.alice)) as client:
        with pytest.raises(InvalidMemory) as bad_importance:
            await client.remember(content="I like tea", importance=2.0)
        with pytest.raises(InvalidMemory):
            await client.search(query="tea", limit=1000)
        with pytest.raises(InvalidMemory):
            await client.remember(content="I like tea", memory_type="opinion")
        assert (await client.stats()).total == 0
    problem = bad_importance.value.problem  # type: ignore[attr-defined]
    assert problem.status == 422 and problem.extensions["errors"]


async def test_a_key_not_pinned_to_a_user_must_name_one(app: Litestar, tenant: TenantKeys) -> None:
    token = await tenant.token([Scope.READ, Scope.WRITE])
    async with remote(app, token) as client:
        with pytest.raises(InvalidMemory) as raised:
            await client.stats()
    assert raised.value.problem.slug == "user-required"  # type: ignore[attr-defined]


async def test_a_database_down_longer_than_the_retries_is_service_unavailable(
    api_services: ApiServices, memory_service: MemoryService, tenant: TenantKeys
) -> None:
    flaky = FlakyDatabase(memory_service, outages=10)
    api_services.service = flaky  # type: ignore[assignment]
    app = create_app(services_opener(api_services), ApiConfig(retry_after_s=0))
    async with remote(app, token_of(tenant.alice)) as client:
        with pytest.raises(ServiceUnavailable) as raised:
            await client.stats()
    assert flaky.calls == 3 and raised.value.problem is not None
    assert raised.value.problem.slug == "unavailable"
