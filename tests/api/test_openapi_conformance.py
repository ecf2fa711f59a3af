"""Schemathesis over the whole OpenAPI document: generated requests against the real app on a
real uvicorn (127.0.0.1), with a fixed seed and bounded examples. Every answer must be
documented (status code, content type, body schema), and none may be a server error."""

from __future__ import annotations

import asyncio
import functools
import json
import socket
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.http.upstream import HttpxUpstreamAdapter
from memlane.adapters.postgres.pool import create_pool
from memlane.adapters.postgres.security.api_keys import PostgresApiKeyAdapter
from memlane.api.app import create_app
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.domain.security.auth import Scope
from memlane.service.proxy import ChatProxy, LearningQueue, learn
from memlane.service.security.api_keys import KeyService
from tests.api.conftest import API_KEY, build_importer, build_service, pool_readiness
from tests.api.proxy_fixtures import served
from tests.stubs.openai_upstream import StubUpstream

pytestmark = pytest.mark.integration

# Bounded: ~40 examples per operation keeps the run to a couple of minutes on two cores.
EXAMPLES_PER_OPERATION = 40
REQUEST_TIMEOUT_S = 300
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@dataclass
class Tally:
    """Cases sent and failures seen, per operation, printed at the end of the module."""

    cases: dict[str, int] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)


TALLY = Tally()


@dataclass
class LiveApi:
    base_url: str
    headers: dict[str, str]


def _serve(app: Any, sock: socket.socket, server: uvicorn.Server) -> None:
    asyncio.run(server.serve(sockets=[sock]))


@pytest.fixture(scope="module")
def live_api(migrated_database_url: str) -> Iterator[LiveApi]:
    """The real app on uvicorn in a thread of its own (its own event loop, pool and model),
    with an unpinned read/write key of a fresh tenant; the memory proxy's routes forward to
    a stub OpenAI-compatible upstream on the loopback, in the same loop."""
    token: dict[str, str] = {}

    @asynccontextmanager
    async def open_services() -> AsyncIterator[ApiServices]:
        pool = await create_pool(migrated_database_url, min_size=1, max_size=4)
        embedder = OnnxEmbeddingAdapter()
        await embedder.warm_up()
        keys = KeyService(PostgresApiKeyAdapter(pool))
        created = await keys.create("tenant-schemathesis", [Scope.READ, Scope.WRITE])
        token["value"] = created.token
        service = build_service(pool, embedder)
        async with served(StubUpstream(any_model=True), lifespan="off") as upstream_url:
            upstream = HttpxUpstreamAdapter(f"{upstream_url}/v1", "sk-stub")
            learning = LearningQueue(functools.partial(learn, service), 2, 64)
            learning.start()
            try:
                yield ApiServices(
                    service=service,
                    keys=keys,
                    readiness=pool_readiness(pool, embedder),
                    imports=build_importer(service, pool),
                    proxy=ChatProxy(service, upstream, API_KEY, learning),
                )
            finally:
                await learning.stop()
                await upstream.close()
                await embedder.close()
                await pool.close()

    app = create_app(open_services, ApiConfig())
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=_serve, args=(app, sock, server), daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            threading.Event().wait(0.05)
        yield LiveApi(f"http://127.0.0.1:{port}", {"Authorization": f"Bearer {token['value']}"})
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def _document() -> dict[str, Any]:
    """The OpenAPI document the app serves at /schema/openapi.json, built without serving."""
    app = create_app(lambda: None, ApiConfig())  # type: ignore[arg-type,return-value]
    document: dict[str, Any] = json.loads(json.dumps(app.openapi_schema.to_schema()))
    return document


schema = schemathesis.openapi.from_dict(_document())


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    derandomize=True,  # the fixed seed: every run sends the same cases
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_answer_is_documented_and_none_is_a_server_error(
    case: Any, live_api: LiveApi
) -> None:
    label = case.operation.label
    TALLY.cases[label] = TALLY.cases.get(label, 0) + 1
    try:
        case.call_and_validate(
            base_url=live_api.base_url,
            headers=live_api.headers,
            checks=CHECKS,
            # A conversation of 500 messages is 500 memories embedded and linked: slow on
            # two busy cores, and a client's timeout is not the server's error.
            timeout=REQUEST_TIMEOUT_S,
        )
    except BaseException:  # schemathesis' FailureGroup is a BaseExceptionGroup
        TALLY.failures[label] = TALLY.failures.get(label, 0) + 1
        raise


def test_the_conformance_run_covered_every_operation_and_reports_its_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    operations = {
        f"{method.upper()} {path}"
        for path, item in _document()["paths"].items()
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    }
    with capsys.disabled():
        print(
            f"\nschemathesis: {sum(TALLY.cases.values())} cases over {len(TALLY.cases)} "
            f"operations, {sum(TALLY.failures.values())} failing cases {TALLY.failures}"
        )
    assert set(TALLY.cases) == operations
    assert not TALLY.failures
