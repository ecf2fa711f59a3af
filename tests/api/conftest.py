"""API test fixtures: the real app over the real stack (PostgreSQL, ONNX, XChaCha, Snowball)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any
from uuid import uuid4

import asyncpg
import httpx
import pytest
from litestar import Litestar

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.imports.export_file import FileChatExportAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.entities.adapter import PostgresEntityAdapter
from memlane.adapters.postgres.facts.adapter import PostgresFactAdapter
from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.memories.store import PostgresMemoryStoreAdapter
from memlane.adapters.postgres.portability.import_ledger import PostgresImportLedgerAdapter
from memlane.adapters.postgres.security.api_keys import PostgresApiKeyAdapter
from memlane.adapters.postgres.security.audit import postgres_audit_ports
from memlane.api.app import create_app
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.policy import MemoryPolicy
from memlane.domain.security.auth import Scope
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.facts.store import FactPorts
from memlane.service.memory_service import MemoryService
from memlane.service.portability.chat_import import ChatImporter
from memlane.service.security.api_keys import KeyService
from memlane.service.security.histories import AuditService

Readiness = Callable[[], Awaitable[dict[str, bool]]]


@pytest.fixture(scope="session")
async def embedder() -> AsyncIterator[OnnxEmbeddingAdapter]:
    onnx = OnnxEmbeddingAdapter()
    await onnx.warm_up()
    try:
        yield onnx
    finally:
        await onnx.close()


# One key for the session: the memory service seals with it, the audit service opens with it.
API_KEY = XChaChaEncryptionAdapter(secrets.token_bytes(32))


def build_service(
    pool: asyncpg.Pool, embedder: EmbeddingPort, policy: MemoryPolicy | None = None
) -> MemoryService:
    return build_memory_service(
        memories=postgres_memory_ports(pool),
        graph=PostgresGraphAdapter(pool),
        entities=PostgresEntityAdapter(pool),
        embedder=embedder,
        encryption=API_KEY,
        keywords=SnowballKeywordAdapter(),
        # No grace period: cleanup through the routes is seen at once (the grace itself is
        # held by the contract, integration and e2e tests).
        policy=policy or MemoryPolicy(cleanup_grace_days=0),
        audit=postgres_audit_ports(pool),
        facts=FactPorts(PostgresFactAdapter(pool), HeuristicFactExtractor()),
    )


@pytest.fixture(scope="session")
def memory_service(pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter) -> MemoryService:
    return build_service(pg_pool, embedder)


@pytest.fixture(scope="session")
def audit_service(pg_pool: asyncpg.Pool) -> AuditService:
    return AuditService(
        postgres_audit_ports(pg_pool), PostgresMemoryStoreAdapter(pg_pool), API_KEY,
        facts=PostgresFactAdapter(pg_pool),
    )


@pytest.fixture(scope="session")
def key_service(pg_pool: asyncpg.Pool) -> KeyService:
    return KeyService(PostgresApiKeyAdapter(pg_pool))


def pool_readiness(pool: asyncpg.Pool, embedder: EmbeddingPort) -> Readiness:
    async def readiness() -> dict[str, bool]:
        try:
            await pool.fetchval("SELECT 1")
            database = True
        except Exception:
            database = False
        return {"database": database, "embedder": await embedder.ready()}

    return readiness


def services_opener(services: ApiServices) -> Callable[[], Any]:
    @asynccontextmanager
    async def open_services() -> AsyncIterator[ApiServices]:
        yield services

    return open_services


@pytest.fixture(scope="session")
def chat_importer(memory_service: MemoryService, pg_pool: asyncpg.Pool) -> ChatImporter:
    return build_importer(memory_service, pg_pool)


def build_importer(service: MemoryService, pool: asyncpg.Pool) -> ChatImporter:
    return ChatImporter(
        service, PostgresImportLedgerAdapter(pool), FileChatExportAdapter(),
        XChaChaEncryptionAdapter(secrets.token_bytes(32)),
    )


@pytest.fixture
def api_services(
    memory_service: MemoryService,
    key_service: KeyService,
    chat_importer: ChatImporter,
    pg_pool: asyncpg.Pool,
    embedder: OnnxEmbeddingAdapter,
    audit_service: AuditService,
) -> ApiServices:
    return ApiServices(
        service=memory_service, keys=key_service, readiness=pool_readiness(pg_pool, embedder),
        audit=audit_service,
        imports=chat_importer,
        embedder=embedder,
    )


@pytest.fixture
def app(api_services: ApiServices) -> Litestar:
    return create_app(services_opener(api_services), ApiConfig())


@asynccontextmanager
async def serve(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    """The app with its lifespan running, called in-process on the test's event loop.

    Litestar's AsyncTestClient runs the app in a portal thread with its own loop, which
    cannot share the session's asyncpg pool. The lifespan runs in a task of its own because
    its task group must be entered and exited by the same task, and pytest-asyncio may set
    up and tear down a fixture in different tasks.
    """
    started, stop = asyncio.Event(), asyncio.Event()

    async def run_lifespan() -> None:
        async with app.lifespan():
            started.set()
            await stop.wait()

    lifespan = asyncio.create_task(run_lifespan())
    waiter = asyncio.create_task(started.wait())
    await asyncio.wait({lifespan, waiter}, return_when=asyncio.FIRST_COMPLETED)
    if lifespan.done():
        waiter.cancel()
        lifespan.result()  # re-raise a startup failure
    try:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://memlane.test"
        ) as http:
            yield http
    finally:
        stop.set()
        await lifespan


@pytest.fixture
async def client(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    async with serve(app) as http:
        yield http


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class TenantKeys:
    """A fresh tenant with a few keys: an unpinned admin, and pinned users alice and bob."""

    tenant: str
    admin: dict[str, str]
    writer: dict[str, str]  # unpinned, read+write: must name the user
    alice: dict[str, str]  # pinned to alice, read+write
    alice_reader: dict[str, str]  # pinned to alice, read only
    bob: dict[str, str]  # pinned to bob, read+write
    keys: KeyService

    async def token(self, scopes: list[Scope], user_id: str | None = None) -> str:
        return (await self.keys.create(self.tenant, scopes, user_id=user_id)).token


async def make_tenant(keys: KeyService) -> TenantKeys:
    tenant = f"tenant-{uuid4().hex[:12]}"
    rw = [Scope.READ, Scope.WRITE]

    async def make(scopes: list[Scope], user_id: str | None = None) -> dict[str, str]:
        return bearer((await keys.create(tenant, scopes, user_id=user_id)).token)

    return TenantKeys(
        tenant=tenant,
        admin=await make([Scope.ADMIN]),
        writer=await make(rw),
        alice=await make(rw, "alice"),
        alice_reader=await make([Scope.READ], "alice"),
        bob=await make(rw, "bob"),
        keys=keys,
    )


@pytest.fixture
async def tenant(key_service: KeyService) -> TenantKeys:
    return await make_tenant(key_service)


async def count(client: httpx.AsyncClient, headers: dict[str, str]) -> int:
    """How many memories the key's user has, read through the stats route."""
    response = await client.get("/v1/memories/stats", headers=headers)
    assert response.status_code == 200, response.text
    total: int = response.json()["total"]
    return total


def assert_problem(response: Any, status: int) -> dict[str, Any]:
    """The response is an RFC 9457 problem with this status; returns its body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert body["title"] and body["type"] and "detail" in body
    return body
