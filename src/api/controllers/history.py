"""History of a memory or a fact (/v1/memories/{id}/history, /v1/facts/{id}/history)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec
from litestar import Controller, get
from litestar.datastructures import State
from litestar.di import NamedDependency, Provide
from litestar.exceptions import NotFoundException
from litestar.params import FromPath, SkipValidation

from memlane.api.deps import OWNER, ApiServices
from memlane.api.params import ERRORS, READ
from memlane.domain.model import Owner
from memlane.service.security import AuditService, HistoryEvent


class HistoryEventOut(msgspec.Struct, kw_only=True):
    """One event, oldest first. `payload` holds old -> new values; a tombstone (`erased`)
    keeps only id, time and actor."""

    id: UUID
    seq: int
    subject_kind: str
    subject_id: UUID
    related_id: UUID | None
    kind: str
    actor: str
    at: datetime
    payload: dict[str, Any] | None


class HistoryOut(msgspec.Struct, kw_only=True):
    events: list[HistoryEventOut]


def history_out(events: list[HistoryEvent]) -> HistoryOut:
    return HistoryOut(events=[
        HistoryEventOut(
            id=e.id, seq=e.seq, subject_kind=e.subject_kind.value, subject_id=e.subject_id,
            related_id=e.related_id, kind=e.kind.value, actor=e.actor, at=e.at,
            payload=e.payload,
        )
        for e in events
    ])


def provide_audit(state: State) -> AuditService:
    services: ApiServices = state.services
    if services.audit is None:
        raise NotFoundException("this memlane keeps no audit trail")
    return services.audit


Audit = NamedDependency[SkipValidation[AuditService]]


class HistoryController(Controller):
    """What happened to one of the owner's memories or facts, deleted ones included."""

    path = "/v1"
    tags = ["audit"]
    dependencies = {"audit": Provide(provide_audit, sync_to_thread=False), "owner": OWNER}

    @get("/memories/{memory_id:uuid}/history", operation_id="memoryHistory", opt=READ,
         raises=ERRORS)
    async def memory_history(
        self, memory_id: FromPath[UUID], audit: Audit, owner: NamedDependency[Owner]
    ) -> HistoryOut:
        """The memory's events and those of its stated edges, oldest first (404 when the
        owner has neither the memory nor any event of it)."""
        return history_out(await audit.memory_history(owner, memory_id))

    @get("/facts/{fact_id:uuid}/history", operation_id="factHistory", opt=READ, raises=ERRORS)
    async def fact_history(
        self, fact_id: FromPath[UUID], audit: Audit, owner: NamedDependency[Owner]
    ) -> HistoryOut:
        """The fact's events, oldest first (404 when the owner has none)."""
        return history_out(await audit.fact_history(owner, fact_id))
