"""MemlaneClient (sync) against the real app behind uvicorn on 127.0.0.1: every route, and a
503 with Retry-After from the real app retried until the database answers again."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from memlane.api.app import create_app
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.client import MemlaneClient
from memlane.domain.errors import MemoryNotFound
from memlane.domain.model import MemoryFilter, MemoryType, NewMemory
from memlane.service.memory_service import MemoryService
from tests.api.conftest import TenantKeys, services_opener
from tests.client.conftest import FAST_RETRY, live_server
from tests.client.test_async_client_routes import CHAT, token_of

pytestmark = pytest.mark.integration

CHATGPT_EXPORT = Path(__file__).resolve().parents[1] / "fixtures/imports/chatgpt_conversations.json"


def every_route(client: MemlaneClient) -> dict[str, Any]:
    """Calls every route once (as alice's pinned key) and collects what came back."""
    seen: dict[str, Any] = {"health": client.health(), "ready": client.ready().ready,
                            "metrics": "memlane_" in client.metrics()}
    stored = client.remember(content="I live in Lisbon near the river", memory_type="fact")
    batch = client.remember_many(memories=[NewMemory("I prefer green tea over coffee")])
    seen["learn"] = client.learn(question="What is your dog called?",
                                 answer="My dog is called Pixel the greyhound")
    seen["get"] = client.get(memory_id=stored.id).content
    seen["update"] = client.update(memory_id=stored.id, importance=0.9).base_importance
    seen["search"] = client.search(query="where do I live?", limit=2)[0].memory.id == stored.id
    seen["list"] = [m.id for p in client.pages(filters=MemoryFilter(MemoryType.FACT))
                    for m in p.items] == [stored.id]
    added = client.add_messages(conversation_id="visit", messages=CHAT)
    first, second = (m.id for m in added.memories)
    seen["context"] = "Priya" in client.prompt_context(None, "Who is visiting?").text
    seen["retrieve"] = len(client.retrieve_context(None, "Who is visiting?", 2)) <= 2
    # The chained pair at least; semantic and entity links may bring more.
    nodes = client.neighbourhood(memory_id=first).nodes
    seen["graph"] = len(nodes)
    # The people and places the segment names come as entity nodes.
    assert {n.label for n in nodes if n.kind == "entity"} >= {"Priya", "Toronto"}
    seen["connect"] = client.connect(memory_id=first, target=second, kind="narrative").kind
    client.disconnect(memory_id=first, target=second)
    fact = client.state_fact(relation="lives_in", object="Lisbon")
    client.update_fact(fact_id=fact.id, user_fact_score=7)
    seen["fact_history"] = client.fact_history(fact_id=fact.id)[0].kind.value
    seen["facts"] = [(f.object, f.user_fact_score) for f in client.facts().items
                     if f.id == client.get_fact(fact_id=fact.id).id]
    seen["profile"] = [f.object for f in client.profile().core]
    client.delete_fact(fact_id=fact.id)
    seen["decay"], seen["cleanup"] = client.decay(), client.cleanup()
    seen["import"] = client.import_chats(export=CHATGPT_EXPORT, export_format="chatgpt").chats
    topics = client.topics()
    seen["topics"] = (len(topics), client.topic(topic=topics[0].topic).count == topics[0].count)
    seen["stats"] = client.stats().total
    client.delete(memory_id=batch[0].memory.id)
    try:
        client.delete(memory_id=batch[0].memory.id)
    except MemoryNotFound:
        seen["deleted"] = True
    seen["history"] = [e.kind.value for e in client.history(memory_id=batch[0].memory.id)]
    seen["export"] = len(list(client.export()))
    seen["delete_all"] = client.delete_all()
    return seen


async def test_the_sync_client_round_trips_every_route_over_a_real_socket(
    api_services: ApiServices, tenant: TenantKeys
) -> None:
    async with live_server(create_app(services_opener(api_services))) as url:
        with MemlaneClient(url, token_of(tenant.alice), retry=FAST_RETRY) as client:
            seen = await asyncio.to_thread(every_route, client)
    assert seen == {
        "health": True, "ready": True, "metrics": True, "learn": seen["learn"],
        "get": "I live in Lisbon near the river", "update": 0.9, "search": True,
        "list": True, "context": True, "retrieve": True, "graph": seen["graph"],
        "connect": "narrative",
        "facts": [("Lisbon", 7)], "profile": seen["profile"], "import": 2, "topics": (2, True),
        "history": ["created", "deleted"], "fact_history": "created",
        "decay": seen["decay"], "cleanup": 0, "stats": 11, "deleted": True, "export": 10,
        "delete_all": 10,
    }
    assert seen["learn"] is not None and seen["decay"] >= 0 and "Lisbon" in seen["profile"]
    assert seen["graph"] >= 2


class FlakyDatabase:
    """The real service, whose database refuses the first `outages` calls (a restart)."""

    def __init__(self, service: MemoryService, outages: int) -> None:
        self._service, self.outages, self.calls = service, outages, 0

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._service, name)
        if not callable(real):
            return real

        async def call(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if self.calls <= self.outages:
                raise ConnectionRefusedError(111, "Connection refused")
            return await real(*args, **kwargs)

        return call


async def test_a_503_from_the_real_app_is_retried_after_its_retry_after(
    api_services: ApiServices, memory_service: MemoryService, tenant: TenantKeys
) -> None:
    flaky = FlakyDatabase(memory_service, outages=2)
    api_services.service = flaky  # type: ignore[assignment]
    app = create_app(services_opener(api_services), ApiConfig(retry_after_s=0))
    async with live_server(app) as url:
        with MemlaneClient(url, token_of(tenant.alice), retry=FAST_RETRY) as client:
            stats = await asyncio.to_thread(client.stats)
    assert stats.total == 0 and flaky.calls == 3
