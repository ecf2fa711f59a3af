"""Who a tool call acts for, and what it may do: set per HTTP request, or once for stdio."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from litestar.exceptions import NotFoundException
from mcp.server.mcpserver.exceptions import ToolError

from memlane.api.auth import owner_for
from memlane.api.errors import UserRequired
from memlane.domain.errors import DecryptionFailed, MemlaneError, StorageUnavailable
from memlane.domain.model import Owner
from memlane.domain.security import Principal, Scope
from memlane.service.graph import KnowledgeGraphService
from memlane.service.memory_service import MemoryService
from memlane.service.security import AuditService

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class McpServices:
    """The services the tools call."""

    memories: MemoryService
    graph: KnowledgeGraphService | None = None
    audit: AuditService | None = None

    def audit_trail(self) -> AuditService:
        if self.audit is None:
            raise ToolError("this memlane keeps no audit trail")
        return self.audit

    def knowledge_graph(self) -> KnowledgeGraphService:
        if self.graph is None:
            raise ToolError("this memlane runs without the knowledge graph")
        return self.graph


@dataclass(frozen=True, slots=True)
class Caller:
    """The principal behind a call (from the bearer key, or the stdio command's --user)."""

    principal: Principal
    services: McpServices


# Set by the HTTP mount for each request and by `memlane mcp` for its whole run; the SDK's
# per-request tasks start inside that context, so a tool sees the caller of its own request.
CALLER: ContextVar[Caller] = ContextVar("memlane_mcp_caller")


def caller() -> Caller:
    found = CALLER.get(None)
    if found is None:
        raise ToolError("no authenticated caller")
    return found


def acting(scope: Scope, user_id: str | None) -> tuple[Owner, McpServices]:
    """The owner a call acts for and the services, once the key holds `scope`.

    A key pinned to a user (and `memlane mcp --user`) acts for that user; naming another
    user is "not found". A key of the whole tenant must name `user_id` on every call: MCP
    has no default user, so a forgotten argument cannot write into someone's memory."""
    current = caller()
    if not current.principal.allows(scope):
        raise ToolError(f"this key lacks the '{scope.value}' scope")
    if user_id is not None and not user_id.strip():
        raise ToolError("user_id must not be blank")
    try:
        owner = owner_for(current.principal, user_id, None)
    except NotFoundException:
        raise ToolError("no such user within this key's reach") from None
    except UserRequired:
        raise ToolError("this key is not bound to a user: pass user_id") from None
    return owner, current.services


@contextmanager
def tool_errors(tool: str) -> Iterator[None]:
    """memlane's errors as MCP tool errors (is_error results), never a crash. Messages name
    ids and fields only; an unexpected error is logged by type, never with content."""
    try:
        yield
    except ToolError:
        raise
    except (StorageUnavailable, DecryptionFailed) as error:
        log.warning("mcp tool %s: %s", tool, type(error).__name__)
        raise ToolError(f"memlane is unavailable ({type(error).__name__}); retry later") from None
    except MemlaneError as error:
        raise ToolError(str(error)) from None
    except Exception as error:
        log.error("mcp tool %s failed: %s", tool, type(error).__name__)
        raise ToolError("internal error; the server log names its type") from None
