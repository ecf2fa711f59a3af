"""The in-memory FakeAudit passes the same AuditPort contract as the PostgreSQL adapter."""

from __future__ import annotations

from uuid import uuid4

import pytest

from memlane.domain.model import Owner
from memlane.ports.security.audit import AuditPorts
from tests.contract.audit_contract import AuditPortContract
from tests.fakes.audit import fake_audit_ports


class TestFakeAudit(AuditPortContract):
    @pytest.fixture
    def audit(self) -> AuditPorts:
        return fake_audit_ports()

    @pytest.fixture
    def owner(self) -> Owner:
        return Owner(f"tenant-{uuid4().hex[:8]}", f"user-{uuid4().hex[:8]}")
