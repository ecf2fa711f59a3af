"""ChatImporter on fakes: one conversation per chat, titles as metadata, nothing twice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memlane.adapters.imports.export_file import FileChatExportAdapter
from memlane.domain.model import Memory, MemoryFilter, Owner
from memlane.domain.portability.chat_import import TITLE_KEY, ImportInProgress, ImportSummary
from memlane.domain.portability.chats import ImportFormatError
from memlane.service.portability.chat_import import ChatImporter
from tests.fakes.import_ledger import FakeImportLedger, fake_import_ledger_for
from tests.fakes.world import FakeWorld, new_owner

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "imports"
CHATGPT = FIXTURES / "chatgpt_conversations.json"


class Progress:
    def __init__(self) -> None:
        self.total: int | None = None
        self.done = 0

    def start(self, chats: int) -> None:
        self.total = chats

    def advance(self, chats: int) -> None:
        self.done += chats


@pytest.fixture
def world() -> FakeWorld:
    return FakeWorld()


@pytest.fixture
def ledger(world: FakeWorld) -> FakeImportLedger:
    return fake_import_ledger_for(world.memories)


@pytest.fixture
def importer(world: FakeWorld, ledger: FakeImportLedger) -> ChatImporter:
    return ChatImporter(world.service, ledger, FileChatExportAdapter(), world.encryption)


async def everything(world: FakeWorld, owner: Owner) -> list[Memory]:
    return (await world.service.list(owner, MemoryFilter(), None, 1000)).items


async def test_each_chat_becomes_a_titled_conversation_of_exchanges(
    world: FakeWorld, importer: ChatImporter
) -> None:
    owner, progress = new_owner(), Progress()
    summary = await importer.import_file(owner, CHATGPT, "chatgpt", progress=progress)
    assert summary == ImportSummary(
        chats=2, chats_added=2, messages_added=9, memories_added=6
    )
    assert (progress.total, progress.done) == (2, 2)
    memories = await everything(world, owner)
    by_chat = {m.conversation_id: m for m in memories}
    assert set(by_chat) == {
        "chatgpt:6650f0c2-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
        "chatgpt:7761a1d3-2b3c-4d5e-9f0a-1b2c3d4e5f60",
    }
    puppy = [m for m in memories if m.metadata.get(TITLE_KEY) == "Naming the new puppy"]
    assert sorted(m.metadata["segment"] for m in puppy) == [0, 1]
    assert all(m.metadata["import_source"] == "chatgpt" for m in memories)
    first = min(puppy, key=lambda m: m.metadata["segment"])
    assert first.content.startswith("user: I adopted a beagle puppy yesterday!\nassistant:")


async def test_importing_the_same_file_twice_adds_nothing(
    world: FakeWorld, importer: ChatImporter
) -> None:
    owner = new_owner()
    await importer.import_file(owner, CHATGPT, "chatgpt")
    again = await importer.import_file(owner, CHATGPT, "chatgpt")
    assert again == ImportSummary(chats=2, messages_known=9)
    assert len(await everything(world, owner)) == 6


async def test_a_newer_export_adds_only_the_new_message_and_continues_the_chain(
    world: FakeWorld, importer: ChatImporter, tmp_path: Path
) -> None:
    owner = new_owner()
    await importer.import_file(owner, CHATGPT, "chatgpt")
    chats = json.loads(CHATGPT.read_text())
    chat = chats[0]
    leaf = chat["current_node"]
    chat["mapping"][leaf]["children"] = ["u-new"]
    chat["mapping"]["u-new"] = {"id": "u-new", "parent": leaf, "children": [], "message": {
        "id": "u-new", "author": {"role": "user"}, "create_time": 1717000100.0,
        "content": {"content_type": "text", "parts": ["Her name is Biscuit, by the way."]},
    }}
    chat["current_node"] = "u-new"
    newer = tmp_path / "conversations.json"
    newer.write_text(json.dumps(chats))
    summary = await importer.import_file(owner, newer, "chatgpt")
    assert (summary.messages_added, summary.messages_known, summary.memories_added) == (1, 9, 1)
    added = [m for m in await everything(world, owner) if "Biscuit" in m.content]
    assert [m.metadata["segment"] for m in added] == [2]


async def test_a_malformed_chat_anywhere_stores_nothing(
    world: FakeWorld, importer: ChatImporter, tmp_path: Path
) -> None:
    chats = json.loads(CHATGPT.read_text())
    del chats[1]["mapping"]
    broken = tmp_path / "conversations.json"
    broken.write_text(json.dumps(chats))
    owner = new_owner()
    with pytest.raises(ImportFormatError, match=r"conversation 1 .*mapping missing"):
        await importer.import_file(owner, broken, "chatgpt")
    assert await everything(world, owner) == []


async def test_a_second_import_of_the_same_owner_while_one_runs_is_refused(
    world: FakeWorld, importer: ChatImporter, ledger: FakeImportLedger
) -> None:
    owner = new_owner()
    async with ledger.hold(owner):
        with pytest.raises(ImportInProgress):
            await importer.import_file(owner, CHATGPT, "chatgpt")
    assert await everything(world, owner) == []


async def test_titles_can_be_left_out(world: FakeWorld, importer: ChatImporter) -> None:
    owner = new_owner()
    await importer.import_file(owner, FIXTURES / "claude_conversations.json", "claude",
                               titles=False)
    memories = await everything(world, owner)
    assert len(memories) == 5
    assert not any(TITLE_KEY in m.metadata for m in memories)
