"""The client over POST /v1/imports, through the real app."""

from __future__ import annotations

from pathlib import Path

import pytest
from litestar import Litestar

from memlane.client import Forbidden
from memlane.domain.errors import InvalidMemory
from memlane.domain.portability.chat_import import ImportSummary
from tests.api.conftest import TenantKeys
from tests.client.conftest import remote
from tests.client.test_async_client_routes import token_of

pytestmark = pytest.mark.integration

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "imports"


async def test_a_chat_export_is_imported_once_through_the_client(
    app: Litestar, tenant: TenantKeys
) -> None:
    export = FIXTURES / "chatgpt_conversations.json"
    async with remote(app, token_of(tenant.alice)) as client:
        first = await client.import_chats(export=export, export_format="chatgpt")
        again = await client.import_chats(export=export.read_bytes(), export_format="chatgpt",
                                          titles=False)
        stats = await client.stats()
        with pytest.raises(InvalidMemory) as malformed:
            await client.import_chats(export=b'[{"mapping": 1}]', export_format="claude")
    assert first == ImportSummary(chats=2, chats_added=2, messages_added=9, messages_known=0,
                                  messages_shortened=0, memories_added=6)
    assert (again.messages_added, again.messages_known) == (0, 9)
    assert stats.total == 6
    assert malformed.value.problem.status == 422  # type: ignore[attr-defined]


async def test_a_read_only_key_cannot_import(app: Litestar, tenant: TenantKeys) -> None:
    async with remote(app, token_of(tenant.alice_reader)) as client:
        with pytest.raises(Forbidden):
            await client.import_chats(export=b"[]", export_format="chatgpt")
