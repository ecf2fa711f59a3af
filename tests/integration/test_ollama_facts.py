"""OllamaFactExtractor against a local stub of POST /api/chat: the model's facts when it
answers with the schema's JSON, the heuristics (with a warning and a counted reason) when not."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from memlane.adapters.facts.ollama import OllamaFactExtractor
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.facts.schema import MODEL_CONFIDENCE
from memlane.domain.model import NewMemory
from memlane.ports.facts.store import FactPorts
from tests.fakes.facts import fake_facts_for
from tests.fakes.world import FakeWorld, new_owner
from tests.integration.test_ollama_embedding import Reply, StubOllama, hang_up, send, status

pytestmark = pytest.mark.integration

SECRET = "I work as a nurse at Santa Maria hospital"


def answer(content: str) -> Reply:
    """A /api/chat reply whose message content is `content` (the model's JSON, or not)."""
    async def reply(writer: asyncio.StreamWriter, request: dict[str, Any]) -> None:
        await send(writer, 200, {
            "model": request["model"], "created_at": "2030-06-01T12:00:00Z",
            "message": {"role": "assistant", "content": content}, "done": True,
        })
    return reply


def facts_json(*facts: dict[str, Any]) -> Reply:
    return answer(json.dumps({"facts": list(facts)}))


def slow(seconds: float) -> Reply:
    async def reply(writer: asyncio.StreamWriter, request: dict[str, Any]) -> None:
        await asyncio.sleep(seconds)
        await facts_json()(writer, request)
    return reply


@pytest_asyncio.fixture
async def stub() -> AsyncIterator[StubOllama]:
    server = StubOllama()
    await server.start()
    yield server
    await server.stop()


class Counted:
    def __init__(self) -> None:
        self.reasons: list[str] = []

    def __call__(self, reason: str) -> None:
        self.reasons.append(reason)


def free_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


async def extract(url: str, texts: list[str], counted: Counted, timeout_ms: int = 2_000,
                  ) -> list[list[tuple[str, str, float]]]:
    extractor = OllamaFactExtractor("llama3.2", url, timeout_ms, counted)
    try:
        found = await extractor.extract(texts)
    finally:
        await extractor.close()
    return [[(f.relation, f.object, f.confidence) for f in facts] for facts in found]


async def test_the_models_facts_are_used_when_it_answers_the_schema(stub: StubOllama) -> None:
    stub.script = [facts_json({"relation": "works_as", "object": "nurse"})]
    counted = Counted()
    found = await extract(stub.url, [SECRET], counted)
    assert found == [[("works_as", "nurse", MODEL_CONFIDENCE)]]
    assert counted.reasons == []
    method, path, request = stub.requests[0]
    assert (method, path) == ("POST", "/api/chat")
    assert request["model"] == "llama3.2" and request["stream"] is False
    assert request["format"]["required"] == ["facts"]
    assert request["messages"][-1] == {"role": "user", "content": SECRET}


@pytest.mark.parametrize(("reply", "reason"), [
    (answer("not json at all"), "invalid"),
    (facts_json({"relation": "hobby", "object": "chess"}), "invalid"),
    (answer(json.dumps({"facts": "nurse"})), "invalid"),
    (status(500, "model crashed"), "refused"),
    (hang_up, "unreachable"),
])
async def test_a_bad_answer_falls_back_to_the_heuristics_and_is_counted(
    stub: StubOllama, reply: Reply, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    stub.script = [reply]
    counted = Counted()
    with caplog.at_level(logging.DEBUG):
        found = await extract(stub.url, [SECRET], counted)
    assert {(r, o) for r, o, _ in found[0]} == {
        ("works_as", "nurse"), ("works_at", "Santa Maria hospital"),
    }
    assert counted.reasons == [reason]
    assert "heuristics" in caplog.text and "nurse" not in caplog.text


async def test_a_slow_model_is_cut_off_at_the_timeout(stub: StubOllama) -> None:
    stub.script = [slow(5.0)]
    counted = Counted()
    found = await extract(stub.url, [SECRET], counted, timeout_ms=200)
    assert ("works_as", "nurse") in {(r, o) for r, o, _ in found[0]}
    assert counted.reasons == ["timeout"]


async def test_an_unreachable_server_falls_back_for_every_text() -> None:
    counted = Counted()
    found = await extract(free_port_url(), [SECRET, "My name is Ada", "hello"], counted)
    assert [len(f) for f in found] == [2, 1, 0]
    assert counted.reasons == ["unreachable"] * 3


async def test_only_the_texts_the_model_failed_on_fall_back(stub: StubOllama) -> None:
    stub.script = [facts_json({"relation": "name", "object": "Ada"}), answer("{")]
    counted = Counted()
    extractor = OllamaFactExtractor("llama3.2", stub.url, 2_000, counted)
    try:
        # One request at a time, so the script's order is the texts' order.
        first = await extractor.extract(["My name is Ada"])
        second = await extractor.extract(["I live in Oslo"])
    finally:
        await extractor.close()
    assert [(f.relation, f.object) for f in first[0]] == [("name", "Ada")]
    assert [(f.relation, f.object) for f in second[0]] == [("lives_in", "Oslo")]
    assert counted.reasons == ["invalid"]


async def test_a_write_with_the_model_down_still_stores_the_memory_and_its_facts() -> None:
    world = FakeWorld()
    counted = Counted()
    extractor = OllamaFactExtractor("llama3.2", free_port_url(), 500, counted)
    service = build_memory_service(
        world.memories, world.embedder, world.encryption, world.keywords, world.policy,
        world.clock, graph=world.graph,
        facts=FactPorts(fake_facts_for(world.memories), extractor),
    )
    owner = new_owner()
    try:
        result = await service.remember(owner, NewMemory(content=SECRET))
    finally:
        await extractor.close()
    assert (await service.get(owner, result.memory.id)).content == SECRET
    page = await service.facts.list(owner)
    assert {f.object for f in page.items} == {"nurse", "Santa Maria hospital"}
    assert counted.reasons == ["unreachable"]
