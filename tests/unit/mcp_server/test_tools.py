"""The MCP tools in process, on fakes: what each principal may do, and errors as tool errors."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from uuid import uuid4

import pytest
from mcp import Client
from mcp_types import CallToolResult

from memlane.domain.security.auth import Principal, Scope
from memlane.mcp_server import Caller, McpServices, build_server
from memlane.mcp_server.caller import CALLER
from memlane.service.graph.knowledge import KnowledgeGraphService
from tests.fakes.world import FakeWorld

WRITES = {
    "remember": {"content": "I like jazz"},
    "add_messages": {"conversation_id": "c", "messages": [{"role": "user", "content": "hi"}]},
    "forget": {"memory_id": str(uuid4())},
    "update": {"memory_id": str(uuid4()), "pinned": True},
    "create_entities": {"entities": [{"name": "Ana", "entityType": "person"}]},
    "create_relations": {"relations": [{"from": "Ana", "to": "Bo", "relationType": "knows"}]},
    "add_observations": {"observations": [{"entityName": "Ana", "contents": ["x"]}]},
}
READS = {
    "recall": {"query": "jazz"},
    "get_context": {"query": "jazz"},
    "read_graph": {},
    "search_nodes": {"query": "jazz"},
    "open_nodes": {"names": ["Ana"]},
    "list_facts": {},
    "profile": {},
    "history": {"memory_id": str(uuid4())},
}


@asynccontextmanager
async def connected(
    world: FakeWorld, user_id: str | None = "ana", scopes: frozenset[Scope] | None = None
) -> AsyncIterator[Client]:
    principal = Principal(None, "t", user_id, scopes or frozenset({Scope.READ, Scope.WRITE}))
    graph = KnowledgeGraphService(world.service, world.encryption, world.graph, world.clock)
    services = McpServices(world.service, graph, world.history)
    token = CALLER.set(Caller(principal, services))
    try:
        async with Client(build_server()) as client:
            yield client
    finally:
        CALLER.reset(token)


async def result(client: Client, tool: str, arguments: dict[str, Any]) -> CallToolResult:
    answer = await client.call_tool(tool, arguments)
    assert isinstance(answer, CallToolResult)
    return answer


def text(answer: CallToolResult) -> str:
    return " ".join(getattr(block, "text", "") for block in answer.content)


async def test_every_tool_is_listed_with_a_description_an_assistant_can_follow() -> None:
    async with connected(FakeWorld()) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == set(WRITES) | set(READS)
    assert all(len(t.description or "") > 60 for t in tools.values())
    assert all(tools[name].annotations.read_only_hint for name in READS)  # type: ignore[union-attr]


async def test_a_missing_memory_and_invalid_input_are_tool_errors_not_crashes() -> None:
    async with connected(FakeWorld()) as client:
        missing = await result(client, "forget", {"memory_id": str(uuid4())})
        assert missing.is_error and "not found" in text(missing)
        too_important = await result(client, "remember", {"content": "x", "importance": 5})
        assert too_important.is_error and "importance" in text(too_important)
        not_an_id = await result(client, "update", {"memory_id": "nope", "pinned": True})
        assert not_an_id.is_error
        stored = await result(client, "remember", {"content": "I like jazz"})
        assert not stored.is_error  # the session goes on after each error


async def test_a_read_only_principal_reads_and_every_write_tool_refuses() -> None:
    async with connected(FakeWorld(), scopes=frozenset({Scope.READ})) as client:
        for tool, arguments in READS.items():
            answer = await result(client, tool, arguments)
            assert not answer.is_error or "not found" in text(answer), tool
        for tool, arguments in WRITES.items():
            refused = await result(client, tool, arguments)
            assert refused.is_error and "'memories:write' scope" in text(refused), tool


async def test_a_principal_of_the_whole_tenant_must_name_the_user() -> None:
    world = FakeWorld()
    async with connected(world, user_id=None) as client:
        unnamed = await result(client, "remember", {"content": "I like jazz"})
        assert unnamed.is_error and "pass user_id" in text(unnamed)
        named = await result(client, "remember", {"content": "I like jazz", "user_id": "carla"})
        assert not named.is_error
    async with connected(world, user_id="carla") as client:
        found = await result(client, "recall", {"query": "jazz"})
        assert found.structured_content and found.structured_content["results"]
        other = await result(client, "recall", {"query": "jazz", "user_id": "dan"})
        assert other.is_error and "within this key's reach" in text(other)


async def test_an_unexpected_failure_is_a_tool_error_and_its_message_is_never_logged(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = FakeWorld()

    async def broken(*_: object, **__: object) -> None:
        raise RuntimeError("the user's secret diary entry")

    monkeypatch.setattr(world.service, "search", broken)
    caplog.set_level(logging.DEBUG)
    async with connected(world) as client:
        failed = await result(client, "recall", {"query": "diary"})
    assert failed.is_error and "internal error" in text(failed)
    assert "secret diary" not in text(failed) and "secret diary" not in caplog.text
    assert "RuntimeError" in caplog.text


async def test_facts_read_from_what_the_user_said_are_listed_and_profiled() -> None:
    async with connected(FakeWorld()) as client:
        await result(client, "remember", {"content": "I am allergic to peanuts"})
        await result(client, "remember", {"content": "I live in Porto"})
        listed = await result(client, "list_facts", {})
        profile = await result(client, "profile", {})
        bad_cursor = await result(client, "list_facts", {"cursor": "not-ours"})
    assert listed.structured_content is not None and profile.structured_content is not None
    objects = {f["object"] for f in listed.structured_content["facts"]}
    assert {"peanuts", "Porto"} <= objects, objects
    core = profile.structured_content["core"]
    assert {f["fact_type"] for f in core} >= {"constraint", "identity"}
    assert bad_cursor.is_error and "cursor" in text(bad_cursor)


async def test_history_shows_what_happened_to_a_memory_after_it_is_gone() -> None:
    async with connected(FakeWorld()) as client:
        stored = await result(client, "remember", {"content": "I live in Porto"})
        assert stored.structured_content is not None
        memory_id = stored.structured_content["memory"]["id"]
        await result(client, "update", {"memory_id": memory_id, "pinned": True})
        await result(client, "forget", {"memory_id": memory_id})
        events = await result(client, "history", {"memory_id": memory_id})
        neither = await result(client, "history", {})
    assert events.structured_content is not None
    kinds = [e["kind"] for e in events.structured_content["events"]]
    assert kinds[0] == "created" and kinds[-1] == "deleted" and "pinned" in kinds
    assert neither.is_error and "exactly one" in text(neither)


async def test_an_invalid_mcp_call_is_one_line_with_no_pydantic_and_no_url() -> None:
    calls = {
        "remember": {"content": "x", "importance": 5},
        "update": {"memory_id": "nope", "pinned": True},
        "recall": {},
        "list_facts": {"fact_type": "hobby", "limit": 0},
    }
    async with connected(FakeWorld()) as client:
        for tool, arguments in calls.items():
            answer = await result(client, tool, arguments)
            said = text(answer)
            assert answer.is_error, tool
            assert said.startswith(f"invalid arguments for {tool}: "), said
            assert "\n" not in said and "pydantic" not in said.lower(), said
            assert "http" not in said.lower() and "://" not in said, said
    assert "importance: Input should be less than or equal to 1" in text(
        await _once("remember", calls["remember"]))


async def _once(tool: str, arguments: dict[str, Any]) -> CallToolResult:
    async with connected(FakeWorld()) as client:
        return await result(client, tool, arguments)


async def test_recall_marks_what_was_replaced_and_current_leaves_it_out() -> None:
    world = FakeWorld()
    async with connected(world) as client:
        await result(client, "remember", {"content": "I live in Lisbon"})
        await result(client, "remember", {"content": "I now live in Porto."})
        both = (await result(client, "recall", {"query": "live"})).structured_content
        held = (await result(client, "recall", {"query": "live", "current": True}))
    assert both is not None and held.structured_content is not None
    shown = {r["content"]: r for r in both["results"]}
    lisbon, porto = shown["I live in Lisbon"], shown["I now live in Porto."]
    assert lisbon["current"] is False and lisbon["superseded_by"] == porto["id"]
    assert porto["score"] > lisbon["score"] and porto["memory_type"] == "correction"
    assert [r["content"] for r in held.structured_content["results"]] == ["I now live in Porto."]
