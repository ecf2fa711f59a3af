"""The MCP server driven by the official SDK's client: `memlane mcp` over stdio as a process,
and `/mcp` of `memlane serve` over streamable HTTP with the REST bearer keys."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult

from tests.e2e.test_serve_process import MEMLANE, REPO, Deployment

pytestmark = pytest.mark.e2e

MEMORY_TOOLS = {
    "remember", "add_messages", "recall", "get_context", "forget", "update",
    "list_facts", "profile", "history",
}
GRAPH_TOOLS = {
    "create_entities", "create_relations", "add_observations",
    "search_nodes", "open_nodes", "read_graph",
}


@asynccontextmanager
async def over_http(
    deployment: Deployment, token: str | None, mode: str = "auto"
) -> AsyncIterator[Client]:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    http = httpx2.AsyncClient(headers=headers, timeout=60)
    transport = streamable_http_client(f"{deployment.base_url}/mcp", http_client=http)
    async with http, Client(transport, mode=mode) as client:  # type: ignore[arg-type]
        yield client


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert isinstance(result, CallToolResult)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def refused(client: Client, tool: str, **arguments: Any) -> str:
    """The text of a tool error (an is_error result, not a crash of the session)."""
    result = await client.call_tool(tool, arguments)
    assert isinstance(result, CallToolResult)
    assert result.is_error
    return " ".join(getattr(block, "text", "") for block in result.content)


async def test_a_desktop_assistant_uses_every_tool_over_stdio(deployment: Deployment) -> None:
    server = StdioServerParameters(
        command=MEMLANE, args=["mcp", "--user", "stella"], env=deployment.env, cwd=REPO
    )
    async with Client(server, read_timeout_seconds=120) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert names >= MEMORY_TOOLS | GRAPH_TOOLS

        stored = await call(client, "remember", content="I am allergic to peanuts",
                            memory_type="fact", tags=["health"])
        memory_id = stored["memory"]["id"]
        assert stored["merged"] is False

        found = await call(client, "recall", query="What am I allergic to?")
        assert found["results"][0]["id"] == memory_id

        edited = await call(client, "update", memory_id=memory_id,
                            content="I am allergic to peanuts and cashews")
        assert edited["content"] == "I am allergic to peanuts and cashews"

        context = await call(client, "get_context", query="Can I eat cashews?")
        assert "cashews" in context["context"]
        assert memory_id in {m["id"] for m in context["memories"]}

        added = await call(client, "add_messages", conversation_id="chat-1", messages=[
            {"role": "user", "content": "My sister Lena moves to Porto in May"},
            {"role": "assistant", "content": "Noted, Lena moves to Porto in May."},
        ])
        assert len(added["memory_ids"]) == 1

        await call(client, "remember", content="I live in Lisbon")
        facts = await call(client, "list_facts")
        assert "Lisbon" in {f["object"] for f in facts["facts"]}
        profile = await call(client, "profile")
        assert "Lisbon" in {f["object"] for f in profile["core"]}

        assert await call(client, "forget", memory_id=memory_id) == {"forgotten": memory_id}
        assert "not found" in await refused(client, "forget", memory_id=memory_id)
        history = await call(client, "history", memory_id=memory_id)
        kinds = [event["kind"] for event in history["events"]]
        assert kinds[0] == "created" and "updated" in kinds and kinds[-1] == "deleted"
        assert {event["actor"] for event in history["events"]} == {"cli"}
        assert "importance" in await refused(client, "remember", content="x", importance=7)

        await call(client, "create_entities", entities=[
            {"name": "Lena", "entityType": "person", "observations": ["is my sister"]},
            {"name": "Porto", "entityType": "city"},
        ])
        relations = await call(client, "create_relations", relations=[
            {"from": "Lena", "to": "Porto", "relationType": "moves_to"},
        ])
        assert relations["relations"] == [
            {"from": "Lena", "to": "Porto", "relationType": "moves_to"}
        ]
        graph = await call(client, "open_nodes", names=["lena"])
        assert graph["entities"] == [
            {"name": "Lena", "entityType": "person", "observations": ["is my sister"]}
        ]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_knowledge_graph_tools_behave_like_the_reference_server_over_http(
    deployment: Deployment, mode: str
) -> None:
    token = deployment.token("default", f"graph-{mode}")
    async with over_http(deployment, token, mode) as client:
        created = await call(client, "create_entities", entities=[
            {"name": "Ana Silva", "entityType": "person", "observations": ["plays chess"]},
            {"name": "Acme", "entityType": "organization", "observations": []},
        ])
        assert [e["name"] for e in created["entities"]] == ["Ana Silva", "Acme"]
        again = await call(client, "create_entities", entities=[
            {"name": "ana  silva", "entityType": "person", "observations": []},
        ])
        assert again["entities"] == []  # the name exists (case and spacing do not count)

        await call(client, "create_relations", relations=[
            {"from": "Ana Silva", "to": "Acme", "relationType": "works_at"},
        ])
        added = await call(client, "add_observations", observations=[
            {"entityName": "Ana Silva", "contents": ["plays chess", "drinks green tea"]},
        ])
        assert added["results"] == [
            {"entityName": "Ana Silva", "addedObservations": ["drinks green tea"]}
        ]
        assert "no entity named 'Nobody'" in await refused(
            client, "add_observations", observations=[{"entityName": "Nobody", "contents": ["x"]}]
        )
        assert "no entity" in await refused(client, "create_relations", relations=[
            {"from": "Ana Silva", "to": "Nowhere", "relationType": "visits"},
        ])

        graph = await call(client, "read_graph")
        ana = next(e for e in graph["entities"] if e["name"] == "Ana Silva")
        assert sorted(ana["observations"]) == ["drinks green tea", "plays chess"]
        works_at = {"from": "Ana Silva", "to": "Acme", "relationType": "works_at"}
        assert graph["relations"] == [works_at]

        searched = await call(client, "search_nodes", query="who plays chess?")
        assert [e["name"] for e in searched["entities"]] == ["Ana Silva"]
        opened = await call(client, "open_nodes", names=["Acme", "Unknown"])
        assert [e["name"] for e in opened["entities"]] == ["Acme"]
        assert opened["relations"] == graph["relations"]

        # The graph is memory too: an ordinary recall reaches what was said about Ana.
        recalled = await call(client, "recall", query="What does Ana drink?")
        assert recalled["results"][0]["content"] == "Ana Silva: drinks green tea"


async def test_mcp_over_http_refuses_a_missing_or_a_bad_key(deployment: Deployment) -> None:
    initialize = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "probe", "version": "1"}},
    }
    async with httpx.AsyncClient(base_url=deployment.base_url, timeout=30) as http:
        headers = {"Accept": "application/json, text/event-stream"}
        missing = await http.post("/mcp", json=initialize, headers=headers)
        bad = await http.post("/mcp", json=initialize,
                              headers={**headers, "Authorization": "Bearer ml_not-a-key"})
    for response in (missing, bad):
        assert response.status_code == 401
        assert response.headers["www-authenticate"].startswith("Bearer")

    for token in (None, "ml_not-a-key"):
        with pytest.RaisesGroup(MCPError, allow_unwrapped=True, flatten_subgroups=True):
            async with over_http(deployment, token):
                pass


async def test_a_key_of_one_user_never_reaches_another_users_memories(
    deployment: Deployment,
) -> None:
    alice, bob = deployment.token("default", "alice-mcp"), deployment.token("default", "bob-mcp")
    async with over_http(deployment, alice) as client:
        stored = await call(client, "remember", content="My locker code is 4471")
        await call(client, "create_entities", entities=[
            {"name": "Locker", "entityType": "thing", "observations": ["code 4471"]},
        ])
    memory_id = stored["memory"]["id"]

    async with over_http(deployment, bob) as client:
        found = await call(client, "recall", query="locker code")
        assert found["results"] == []
        assert (await call(client, "read_graph")) == {"entities": [], "relations": []}
        assert "not found" in await refused(client, "forget", memory_id=memory_id)
        assert "not found" in await refused(client, "update", memory_id=memory_id, pinned=True)
        assert "not found" in await refused(client, "history", memory_id=memory_id)
        assert "within this key's reach" in await refused(
            client, "recall", query="locker code", user_id="alice-mcp"
        )

    async with over_http(deployment, alice) as client:
        still = await call(client, "recall", query="locker code")
        assert memory_id in {hit["id"] for hit in still["results"]}
        created = (await call(client, "history", memory_id=memory_id))["events"][0]
        assert created["kind"] == "created" and created["actor"].startswith("key")


async def test_a_read_only_key_reads_but_cannot_write(deployment: Deployment) -> None:
    created = deployment.cli(
        "keys", "create", "--tenant", "default", "--user", "reader", "--scope", "memories:read"
    )
    assert created.returncode == 0, created.stderr
    async with over_http(deployment, created.stdout.strip()) as client:
        assert (await call(client, "recall", query="anything"))["results"] == []
        for tool, arguments in [
            ("remember", {"content": "I like jazz"}),
            ("create_entities", {"entities": [{"name": "X", "entityType": "thing"}]}),
            ("forget", {"memory_id": "00000000-0000-4000-8000-000000000000"}),
        ]:
            assert "lacks the 'memories:write' scope" in await refused(client, tool, **arguments)


async def test_a_key_of_the_whole_tenant_must_name_the_user_on_every_call(
    deployment: Deployment,
) -> None:
    created = deployment.cli("keys", "create", "--tenant", "team")
    assert created.returncode == 0, created.stderr
    async with over_http(deployment, created.stdout.strip()) as client:
        assert "pass user_id" in await refused(client, "remember", content="I like jazz")
        stored = await call(client, "remember", content="I like jazz", user_id="carla")
        found = await call(client, "recall", query="music", user_id="carla")
        assert found["results"][0]["id"] == stored["memory"]["id"]
        assert (await call(client, "recall", query="music", user_id="dan"))["results"] == []
