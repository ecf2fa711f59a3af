"""Database outage: 503 problem+json with Retry-After, then recovery without a restart."""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import parse_qs, urlsplit

import asyncpg
import pytest

from memlane.adapters.postgres.pool import create_pool
from memlane.api.app import create_app
from memlane.api.deps import ApiServices
from memlane.service.security.api_keys import KeyService
from tests.api.conftest import (
    TenantKeys,
    assert_problem,
    build_service,
    pool_readiness,
    serve,
    services_opener,
)

pytestmark = pytest.mark.integration


class PostgresProxy:
    """A TCP proxy in front of the test database that can be cut and restored, to simulate
    the database going away without disturbing the server other tests share."""

    def __init__(self, database_url: str) -> None:
        self._url = urlsplit(database_url)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self.port = 0

    def dsn(self) -> str:
        user = self._url.username or "postgres"
        password = f":{self._url.password}" if self._url.password else ""
        return f"postgresql://{user}{password}@127.0.0.1:{self.port}{self._url.path}"

    async def _upstream(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        socket_dir = parse_qs(self._url.query).get("host", [""])[0]
        if socket_dir.startswith("/"):
            port = self._url.port or 5432
            return await asyncio.open_unix_connection(f"{socket_dir}/.s.PGSQL.{port}")
        return await asyncio.open_connection(self._url.hostname, self._url.port or 5432)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await self._upstream()
        self._writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, asyncio.CancelledError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        """Refuse new connections and break every open one, like a crashed database."""
        assert self._server is not None
        self._server.close()
        for writer in self._writers:
            writer.transport.abort()
        self._writers.clear()
        await self._server.wait_closed()


async def test_the_api_answers_503_while_the_database_is_down_and_recovers_after(
    database_url: str, pg_pool: asyncpg.Pool, embedder, key_service: KeyService,  # type: ignore[no-untyped-def]
    tenant: TenantKeys,
) -> None:
    proxy = PostgresProxy(database_url)
    await proxy.start()
    pool = await create_pool(proxy.dsn(), min_size=1, max_size=2, command_timeout_ms=3000)
    services = ApiServices(
        service=build_service(pool, embedder),
        keys=key_service,  # keys stay on the shared pool: this test is about memories
        readiness=pool_readiness(pool, embedder),
    )
    try:
        async with serve(create_app(services_opener(services))) as client:
            stored = await client.post(
                "/v1/memories", json={"content": "I live in Lisbon."}, headers=tenant.alice
            )
            assert stored.status_code == 201, stored.text

            await proxy.cut()
            down = await client.get("/v1/memories", headers=tenant.alice)
            assert_problem(down, 503)
            assert int(down.headers["retry-after"]) > 0
            write = await client.post(
                "/v1/memories", json={"content": "I moved to Porto."}, headers=tenant.alice
            )
            assert_problem(write, 503)
            assert (await client.get("/readyz")).status_code == 503

            await proxy.start()  # same port: the database is back
            statuses = []
            for _ in range(5):
                response = await client.get("/v1/memories", headers=tenant.alice)
                statuses.append(response.status_code)
                if response.status_code == 200:
                    break
                await asyncio.sleep(0.2)
            assert statuses[-1] == 200, statuses
            contents = [m["content"] for m in response.json()["items"]]
            assert contents == ["I live in Lisbon."]
            assert (await client.get("/readyz")).status_code == 200
    finally:
        await proxy.cut()
        pool.terminate()
