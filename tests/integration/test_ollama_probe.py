"""OllamaProbe against a stub of POST /api/chat: the request it sends, the patch it reads,
and the fallback (with its reason, never the text in the log) for every kind of failure."""

from __future__ import annotations

import asyncio
import logging

import pytest

from memlane.adapters.facts.ollama_probe import OllamaProbe
from memlane.domain.facts import PROBE_SCHEMA, EdgeChange, GraphPatch
from memlane.ports.facts import ProbeRequest
from tests.stubs.ollama_chat import (
    Reply,
    StubOllamaChat,
    content,
    free_port_url,
    hang_up,
    patch,
    stall,
    status,
)

pytestmark = pytest.mark.integration

SEGMENT = "Anna and I painted the kitchen; Bruno brought the ladder."


async def ask(url: str, timeout_ms: int = 2_000) -> tuple[GraphPatch, str | None]:
    probe = OllamaProbe("llama3.2", url, timeout_ms)
    try:
        answer = await probe.probe(ProbeRequest(SEGMENT, ("Anna", "Porto")))
    finally:
        await probe.close()
    return answer.patch, answer.fallback


async def test_the_request_carries_the_schema_and_the_known_names(
    ollama_chat: StubOllamaChat,
) -> None:
    ollama_chat.script = [patch(edges=[{"to": "Anna", "kind": "narrative", "change": "weaken",
                                 "strength": 0.2}])]
    found, fallback = await ask(ollama_chat.url)
    assert fallback is None
    assert [(e.to, e.change) for e in found.edges] == [("Anna", EdgeChange.WEAKEN)]
    [request] = ollama_chat.chats()
    assert request["model"] == "llama3.2" and request["stream"] is False
    assert request["format"] == PROBE_SCHEMA and request["options"] == {"temperature": 0}
    assert request["messages"][-1]["content"] == (
        f"Known names: Anna, Porto\n\nSegment:\n{SEGMENT}")


@pytest.mark.parametrize(("reply", "reason"), [
    (content("{"), "invalid"),
    (content('{"nodes": [], "edges": [], "facts": [], "extra": 1}'), "invalid"),
    (status(500, "model crashed"), "refused"),
    (status(404, "model 'llama3.2' not found"), "refused"),
    (hang_up, "unreachable"),
])
async def test_a_failure_is_the_fallback_with_its_reason(
    ollama_chat: StubOllamaChat, reply: Reply, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    ollama_chat.script = [reply]
    with caplog.at_level(logging.DEBUG):
        found, fallback = await ask(ollama_chat.url)
    assert fallback == reason and found.empty
    assert "heuristics' result stands" in caplog.text
    assert "Bruno" not in caplog.text and "kitchen" not in caplog.text


async def test_a_stalled_model_is_given_up_at_the_timeout(ollama_chat: StubOllamaChat) -> None:
    released = asyncio.Event()
    ollama_chat.script = [stall(released)]
    try:
        found, fallback = await ask(ollama_chat.url, timeout_ms=200)
        assert not released.is_set()  # the answer never came: the probe did not wait for it
    finally:
        released.set()
    assert fallback == "timeout" and found.empty


async def test_a_server_that_is_down_is_unreachable() -> None:
    assert (await ask(free_port_url()))[1] == "unreachable"
