"""Issue 31's acceptance: after 90 simulated days of the worker's decay and cleanup (the clock
moved, no importance patched), what the user sees is the current truth, on every surface."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import uuid4

import asyncpg
import httpx
import pytest
from mcp import Client

from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.entities.adapter import PostgresEntityAdapter
from memlane.adapters.postgres.facts.adapter import PostgresFactAdapter
from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.adapters.postgres.leader import PostgresLeaderLockAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.memories.store import PostgresMemoryStoreAdapter
from memlane.adapters.postgres.pool import create_pool
from memlane.adapters.postgres.security.api_keys import PostgresApiKeyAdapter
from memlane.adapters.postgres.security.audit import postgres_audit_ports
from memlane.api.app import create_app
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.composition.services import memory_service
from memlane.domain.policy import MemoryPolicy
from memlane.domain.security.auth import Principal, Scope
from memlane.mcp_server import Caller, McpServices, build_server
from memlane.mcp_server.caller import CALLER
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.facts.store import FactPorts
from memlane.service.memories.worker import DecayWorker
from memlane.service.security.api_keys import KeyService
from memlane.service.security.histories import AuditService
from tests.api.conftest import API_KEY, bearer, pool_readiness, serve, services_opener
from tests.api.test_ui_inspector import csrf_of, sign_in
from tests.conftest import scratch_database
from tests.fakes.clock import FakeClock

pytestmark = pytest.mark.integration

DAY = timedelta(days=1)
WHERE = "Where do I live?"
LOCK_KEY = 0x7472757468000031  # a lock of its own: no real worker contends for it


@pytest.fixture(scope="module")
async def pool(database_url: str) -> AsyncIterator[asyncpg.Pool]:
    """A database of its own: the worker's cleanup runs over every owner in it."""
    async with scratch_database(database_url) as url:
        created = await create_pool(url, min_size=1, max_size=4)
        try:
            yield created
        finally:
            await created.close()


@dataclass
class World:
    """The real app and MCP over the real stack for one user, and a worker on a moved clock."""

    http: httpx.AsyncClient
    headers: dict[str, str]
    clock: FakeClock
    worker: DecayWorker
    mcp: McpServices
    principal: Principal

    async def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = await self.http.post(path, json=body, headers=self.headers)
        assert answer.status_code in (200, 201), answer.text
        return dict(answer.json())

    async def get(self, path: str, **params: str) -> Any:
        answer = await self.http.get(path, params=params, headers=self.headers)
        assert answer.status_code == 200, answer.text
        return answer.json()

    async def remember(self, content: str, **given: Any) -> str:
        self.clock.advance(timedelta(minutes=5))
        return str((await self.post("/v1/memories", {"content": content, **given}))["memory"]["id"])

    async def say(self, text: str) -> str:
        self.clock.advance(timedelta(minutes=5))
        added = await self.post(f"/v1/conversations/{uuid4()}/messages", {"messages": [
            {"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]})
        return str(added["memories"][0]["id"])

    async def live(self, days: int = 90) -> None:
        for _ in range(days):
            self.clock.advance(DAY)
            assert await self.worker.run_once() is not None

    async def recall(self, query: str) -> list[dict[str, Any]]:
        answer = await self.tool("recall", {"query": query})
        assert answer.structured_content is not None
        return list(answer.structured_content["results"])

    async def tool(self, name: str, arguments: dict[str, Any]) -> Any:
        token = CALLER.set(Caller(self.principal, self.mcp))
        try:
            async with Client(build_server()) as client:
                answer = await client.call_tool(name, arguments)
        finally:
            CALLER.reset(token)
        assert not answer.is_error, answer.content
        return answer


@asynccontextmanager
async def world(
    pool: asyncpg.Pool, embedder: EmbeddingPort, **policy: Any
) -> AsyncIterator[World]:
    clock = FakeClock(datetime.now(UTC))
    service = memory_service(
        postgres_memory_ports(pool), embedder, API_KEY, SnowballKeywordAdapter(),
        MemoryPolicy(**policy), clock, graph=PostgresGraphAdapter(pool),
        audit=postgres_audit_ports(pool), entities=PostgresEntityAdapter(pool),
        facts=FactPorts(PostgresFactAdapter(pool), HeuristicFactExtractor()),
    )
    keys = KeyService(PostgresApiKeyAdapter(pool))
    tenant = f"tenant-{uuid4().hex[:10]}"
    token = await keys.create(tenant, [Scope.READ, Scope.WRITE], user_id="ana")
    audit = AuditService(postgres_audit_ports(pool), PostgresMemoryStoreAdapter(pool), API_KEY)
    app = create_app(services_opener(ApiServices(
        service=service, keys=keys, readiness=pool_readiness(pool, embedder), audit=audit)),
        ApiConfig())
    worker = DecayWorker(service, PostgresLeaderLockAdapter(pool, LOCK_KEY), clock=clock)
    principal = Principal(token.key.id, tenant, "ana", frozenset({Scope.READ, Scope.WRITE}))
    async with serve(app) as http:
        yield World(http, bearer(token.token), clock, worker, McpServices(service), principal)


async def homes(w: World, current: str = "true") -> list[str]:
    facts = (await w.get("/v1/facts", current=current))["items"]
    return sorted(f["object"] for f in facts if f["relation"] == "lives_in")


async def assert_porto_is_home(w: World, lisbon: str | None, porto: str | None) -> None:
    """Porto the only current home; Lisbon, wherever it is shown, marked superseded (by the
    memory that replaced it, when one did) and below Porto; the block's home line: Porto."""
    assert await homes(w) == ["Porto"]
    profile = await w.get("/v1/profile")
    assert [f["object"] for f in profile["core"] if f["relation"] == "lives_in"] == ["Porto"]
    block = await w.post("/v1/context", {"query": WHERE})
    about_home = [line for line in block["context"].splitlines()
                  if "Porto" in line or "Lisbon" in line]
    assert about_home and "Porto" in about_home[0] and "Lisbon" not in about_home[0]
    assert all(m["id"] != lisbon for m in block["memories"])
    hits = (await w.get("/v1/memories/search", q=WHERE))["results"]
    recalled = await w.recall(WHERE)
    for shown in ([h["memory"] for h in hits], recalled):
        ids = [m["id"] for m in shown]
        for memory in shown:
            if "Lisbon" in memory["content"] and "Porto" not in memory["content"]:
                assert memory["current"] is False and memory["valid_until"]
                assert memory["superseded_by"] == porto
        if lisbon in ids and porto in ids:
            assert ids.index(porto) < ids.index(lisbon)
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize("move", ["memories", "conversation", "facts"])
async def test_porto_stays_home_after_90_days_whichever_route_said_it(
    pool: asyncpg.Pool, embedder: EmbeddingPort, move: str
) -> None:
    async with world(pool, embedder) as w:
        lisbon = await w.remember("I live in Lisbon.")
        if move == "memories":
            porto: str | None = await w.remember("I moved to Porto last month.")
        elif move == "conversation":
            porto = await w.say("I now live in Porto.")
        else:
            porto = None
            await w.post("/v1/facts", {"relation": "lives_in", "object": "Porto"})
        if porto is not None:
            moved = await w.get(f"/v1/memories/{porto}")
            assert moved["memory_type"] == "correction"
        await w.live()
        await assert_porto_is_home(w, lisbon, porto)


@pytest.mark.parametrize("given", [{"min_importance": 0.4}, {}])
async def test_porto_stays_home_with_a_higher_cleanup_line_or_a_caller_typed_context(
    pool: asyncpg.Pool, embedder: EmbeddingPort, given: dict[str, float]
) -> None:
    typed = {} if given else {"memory_type": "context", "importance": 0.25}
    async with world(pool, embedder, **given) as w:
        lisbon = await w.remember("I live in Lisbon.")
        porto = await w.remember("I now live in Porto.", **typed)
        await w.live()
        assert (await w.get(f"/v1/memories/{porto}"))["memory_type"] == (
            "context" if typed else "correction")
        await assert_porto_is_home(w, lisbon, porto)


async def test_a_chain_whose_middle_is_cleaned_up_points_the_first_on_to_the_last(
    pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    async with world(pool, embedder) as w:
        lisbon = await w.remember("I live in Lisbon.")
        porto = await w.remember("I now live in Porto.", memory_type="context", importance=0.2)
        berlin = await w.remember("I moved to Berlin.")
        await w.live()
        gone = await w.http.get(f"/v1/memories/{porto}", headers=w.headers)
        assert gone.status_code == 404  # cleanup took it: its fact no longer held
        kept = await w.get(f"/v1/memories/{lisbon}")
        assert (kept["current"], kept["superseded_by"]) == (False, berlin)
        assert await homes(w) == ["Berlin"]


async def test_consolidation_that_deletes_its_sources_leaves_the_old_home_replaced(
    pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    async with world(pool, embedder) as w:
        lisbon = await w.remember("I live in Lisbon.")
        porto = await w.remember("I now live in Porto.")
        tiles = await w.remember("The tiles on my street in Porto are blue.")
        done = await w.post("/v1/memories/consolidate", {
            "sources": [porto, tiles], "delete_sources": True,
            "content": "I now live in Porto, on a street of blue tiles."})
        summary = done["memory"]["id"]
        await w.live()
        kept = await w.get(f"/v1/memories/{lisbon}")
        assert (kept["current"], kept["superseded_by"]) == (False, summary)
        await assert_porto_is_home(w, lisbon, summary)


async def test_a_supersession_that_carries_no_fact_stays_in_force(
    pool: asyncpg.Pool, embedder: EmbeddingPort
) -> None:
    async with world(pool, embedder) as w:
        # A fact, so it outlives the 90 days (a context one would be cleaned up by then).
        old = await w.remember("The book club meets on Wednesdays.", memory_type="fact")
        new = await w.remember("The book club meets on Thursdays from now on.")
        await w.live()
        question = "When does the book club meet?"
        block = await w.post("/v1/context", {"query": question})
        assert "Thursdays" in block["context"] and "Wednesdays" not in block["context"]
        hits = [h["memory"] for h in (await w.get("/v1/memories/search", q=question))["results"]]
        ids = [m["id"] for m in hits]
        assert ids.index(new) < ids.index(old)
        assert {m["id"]: m["superseded_by"] for m in hits}[old] == new
        assert (await w.get(f"/v1/memories/{new}"))["memory_type"] == "correction"


async def forget(w: World, memory_id: str, route: str) -> None:
    """A person's delete, through REST DELETE, MCP forget or the inspector's form."""
    if route == "rest":
        gone = await w.http.delete(f"/v1/memories/{memory_id}", headers=w.headers)
        assert gone.status_code == 204, gone.text
    elif route == "mcp":
        await w.tool("forget", {"memory_id": memory_id})
    else:
        await sign_in(w.http, w.headers["Authorization"].removeprefix("Bearer "), "ana")
        page = await w.http.get(f"/ui/memories/{memory_id}")
        done = await w.http.post(f"/ui/memories/{memory_id}/delete",
                                 data={"_csrf": csrf_of(page), "confirm": "yes"})
        assert done.status_code == 303, done.text


@pytest.mark.parametrize("route", ["rest", "mcp", "inspector"])
async def test_a_persons_delete_of_the_correction_brings_the_old_home_back_and_says_so(
    pool: asyncpg.Pool, embedder: EmbeddingPort, route: str
) -> None:
    async with world(pool, embedder) as w:
        lisbon = await w.remember("I live in Lisbon.")
        porto = await w.remember("I now live in Porto.")
        await forget(w, porto, route)
        kept = await w.get(f"/v1/memories/{lisbon}")
        assert (kept["current"], kept["superseded_by"]) == (True, None)
        assert await homes(w) == ["Lisbon"]
        kinds = [e["kind"] for e in (await w.get(f"/v1/memories/{lisbon}/history"))["events"]]
        assert kinds[-2:] == ["superseded", "revived"]
