"""What handlers receive as Litestar dependencies: the services, the acting owner."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from litestar.datastructures import State
from litestar.di import NamedDependency, Provide
from litestar.exceptions import ValidationException
from litestar.params import JSONBody, SkipValidation

from memlane.api.auth import owner_for
from memlane.api.config import ApiConfig
from memlane.api.params import UserParam
from memlane.domain.model import Owner
from memlane.domain.reach import Reach, TenantReach
from memlane.domain.security import Principal
from memlane.ports.embedding import EmbeddingPort
from memlane.service.graph import KnowledgeGraphService
from memlane.service.memories import DecayWorker, check_identifier
from memlane.service.memory_service import MemoryService
from memlane.service.portability import ChatImporter
from memlane.service.proxy import ChatProxy
from memlane.service.security import AuditService, KeyService

Readiness = Callable[[], Awaitable[dict[str, bool]]]


@dataclass(slots=True)
class ApiServices:
    """Live services for the app's lifetime; `readiness` reports database and embedder."""

    service: MemoryService
    keys: KeyService
    readiness: Readiness
    worker: DecayWorker | None = None
    audit: AuditService | None = None  # history routes answer 404 without it
    imports: ChatImporter | None = None  # None: POST /v1/imports answers 503
    knowledge_graph: KnowledgeGraphService | None = None  # the MCP graph tools (mcp_server/)
    proxy: ChatProxy | None = None  # None: the proxy routes answer 503
    embedder: EmbeddingPort | None = None  # /metrics counts the texts it cut to its window


class NamesUser(Protocol):
    """A request body that may name the user to act for."""

    @property
    def user_id(self) -> str | None: ...


def provide_services(state: State) -> ApiServices:
    """The services the lifespan stored on the app state."""
    services: ApiServices = state.services
    return services


def provide_memories(state: State) -> MemoryService:
    """The memory service, which every memory route works with."""
    services: ApiServices = state.services
    return services.service


def acting_owner(principal: Principal, user_id: str | None, config: ApiConfig) -> Owner:
    """The owner a request acts for (see `owner_for`), rejecting blank user ids."""
    if user_id is not None and not user_id.strip():
        raise ValidationException("user_id must not be blank")
    check_identifier("user_id", user_id)  # a NUL or an invisible id is a 422 here
    return owner_for(principal, user_id, config.default_user_id)


def provide_owner(
    principal: NamedDependency[Principal],
    config: NamedDependency[ApiConfig],
    user_id: UserParam = None,
) -> Owner:
    """The acting owner, from the `user_id` query parameter."""
    return acting_owner(principal, user_id, config)


def provide_reach(
    principal: NamedDependency[Principal],
    config: NamedDependency[ApiConfig],
    user_id: UserParam = None,
) -> Reach:
    """Whom a maintenance job or a count covers when the key names no user: an `operator`
    key every tenant (None), an unpinned `admin` key every user of its own tenant, any
    other key exactly one owner (as everywhere else)."""
    if principal.user_id is None and user_id is None:
        if principal.is_operator:
            return None
        if principal.is_admin:
            return TenantReach(principal.tenant)
    return acting_owner(principal, user_id, config)


def owner_from_body(schema: type[NamesUser]) -> Provide:
    """A dependency resolving the acting owner from a body of `schema` (its `user_id`)."""

    async def provide(
        principal: NamedDependency[Principal], config: NamedDependency[ApiConfig], data: Any
    ) -> Owner:
        return acting_owner(principal, data.user_id, config)

    # Litestar parses the body by this annotation (the same body the handler receives).
    provide.__annotations__["data"] = JSONBody[schema]  # type: ignore[misc,valid-type]
    return Provide(provide)


# The service as handlers receive it: not validated (it is ours, and tests stand in for it).
Memories = NamedDependency[SkipValidation[MemoryService]]

OWNER = Provide(provide_owner, sync_to_thread=False)
REACH = Provide(provide_reach, sync_to_thread=False)
# The reach as handlers receive it: ours, and a union of dataclasses msgspec cannot validate.
Reached = NamedDependency[SkipValidation[Reach]]
MEMORIES = Provide(provide_memories, sync_to_thread=False)
