"""The fake data key store passes the DataKeyPort contract, and keeps the root's rule."""

from __future__ import annotations

import pytest

from memlane.domain.model import Owner
from memlane.domain.security.keyring import ROOT
from tests.contract.data_key_contract import DataKeyPortContract, wrapped
from tests.fakes.data_keys import FakeDataKeys


class TestFakeDataKeys(DataKeyPortContract):
    @pytest.fixture
    def data_keys(self) -> FakeDataKeys:
        return FakeDataKeys()


async def test_the_root_is_created_only_into_an_empty_table(owner: Owner) -> None:
    store = FakeDataKeys()
    await store.create([wrapped(owner)])
    assert await store.create([wrapped(ROOT)]) == []
    empty = FakeDataKeys()
    root = wrapped(ROOT)
    assert await empty.create([root]) == [root]
