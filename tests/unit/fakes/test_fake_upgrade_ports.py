"""The in-memory FakeSealedFields and FakeLegacyRows pass the same contracts as PostgreSQL."""

from __future__ import annotations

from uuid import UUID, uuid4

import pytest

from memlane.domain.model import Owner
from memlane.domain.portability.legacy_rows import LegacyRelation, LegacyRow
from memlane.domain.security import keyring as kr
from tests.contract.legacy_rows_contract import LegacyRowsContract
from tests.contract.sealed_fields_contract import V2, SealedFieldsContract, Seed
from tests.fakes.legacy_rows import FakeLegacyRows
from tests.fakes.sealed_fields import FakeSealedFields


class TestFakeSealedFields(SealedFieldsContract):
    @pytest.fixture
    def fields(self) -> FakeSealedFields:
        return FakeSealedFields()

    @pytest.fixture
    def seed(self, fields: FakeSealedFields) -> Seed:
        async def put(owner: Owner, content: bytes) -> UUID:
            row_id = uuid4()
            fields.put(kr.MEMORY_CONTENT, owner, row_id, content)
            fields.put(kr.MEMORY_SUMMARY, owner, row_id, V2)
            return row_id

        return put


class FakeSeed:
    def __init__(self, rows: FakeLegacyRows) -> None:
        self._rows = rows

    async def memory(self, owner: Owner, *, quarantined: bool = False) -> UUID:
        row = LegacyRow(owner, uuid4(), ("a tag",), {"k": "v"}, "chat")
        (self._rows.quarantine if quarantined else self._rows.live)[row.memory_id] = row
        return row.memory_id

    async def fact(self, owner: Owner, relation: str) -> UUID:
        row = LegacyRelation(owner, uuid4(), relation)
        self._rows.relations[row.fact_id] = row
        return row.fact_id


class TestFakeLegacyRows(LegacyRowsContract):
    @pytest.fixture
    def rows(self) -> FakeLegacyRows:
        return FakeLegacyRows()

    @pytest.fixture
    def seed(self, rows: FakeLegacyRows) -> FakeSeed:
        return FakeSeed(rows)
