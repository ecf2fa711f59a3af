"""The composition root opens the model probe that `memory.extraction` names, and none by
default: a remembered memory reaches the stub's /api/chat only when it is configured."""

from __future__ import annotations

from pathlib import Path
from uuid import uuid4

from memlane.container import Memlane, open_memlane
from memlane.domain.model import NewMemory, Owner
from tests.stubs.ollama_chat import StubOllamaChat, patch
from tests.system.conftest import system_settings


async def test_the_default_asks_no_model(memlane: Memlane) -> None:
    assert memlane.settings.memory.extraction.provider == "heuristic"
    assert memlane.service.probing is None


async def test_a_configured_model_reads_what_is_remembered_after_the_write(
    system_database_url: str, session_key_path: Path, ollama_chat: StubOllamaChat
) -> None:
    ollama_chat.script = [patch(facts=[{"relation": "works_as", "object": "pilot"}])]
    settings = system_settings(system_database_url, session_key_path, extraction={
        "provider": "ollama", "model": "llama3.2", "url": ollama_chat.url, "timeout_ms": 2_000,
    })
    owner = Owner("wiring", f"user-{uuid4()}")
    async with open_memlane(settings) as memlane:
        probing = memlane.service.probing
        assert probing is not None
        await memlane.service.remember(owner, NewMemory(content="Flying again next week."))
        await probing.drain()
        facts = await memlane.service.facts.list(owner)
    assert [c["model"] for c in ollama_chat.chats()] == ["llama3.2"]
    assert [(f.relation, f.object) for f in facts.items] == [("works_as", "pilot")]
    assert probing.counts.calls == 1 and probing.counts.applied == 1
