"""Bearer-token authentication, scope guards, and which user a request may act for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.datastructures import State
from litestar.exceptions import NotAuthorizedException, NotFoundException, PermissionDeniedException
from litestar.handlers.base import BaseRouteHandler

from memlane.api.errors import UserRequired
from memlane.domain.model import Owner
from memlane.domain.security import Principal, Scope, key_actor
from memlane.service.security import become

if TYPE_CHECKING:
    from memlane.api.deps import ApiServices

WWW_AUTHENTICATE = {"WWW-Authenticate": 'Bearer realm="memlane"'}
_STATE_KEY = "principal"


async def authenticate(connection: ASGIConnection[Any, Any, Any, Any]) -> Principal:
    """The principal behind the request's bearer token (memoised on the request)."""
    cached = connection.scope.get("state", {}).get(_STATE_KEY)
    if isinstance(cached, Principal):
        return cached
    principal = await _authenticate(connection)
    become(key_actor(principal.key_id))  # the audit trail names the key as the actor
    connection.scope.setdefault("state", {})[_STATE_KEY] = principal
    return principal


async def _authenticate(connection: ASGIConnection[Any, Any, Any, Any]) -> Principal:
    state = connection.app.state
    token = ""
    if state.api_config.auth_enabled:
        header = connection.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise NotAuthorizedException(
                "missing bearer token: send 'Authorization: Bearer <token>'",
                headers={**WWW_AUTHENTICATE},
            )
    found = await principal_for_token(state, token.strip())
    if found is None:
        raise NotAuthorizedException(
            "invalid or revoked token",
            headers={"WWW-Authenticate": 'Bearer realm="memlane", error="invalid_token"'},
        )
    return found


async def principal_for_token(app_state: State, token: str) -> Principal | None:
    """The principal a token stands for (None: unknown or revoked); with auth off, every
    caller is an all-scopes principal of the default tenant. REST and the web UI share it."""
    config = app_state.api_config
    if not config.auth_enabled:
        return Principal(
            key_id=None, tenant=config.default_tenant, user_id=None, scopes=frozenset(Scope)
        )
    services: ApiServices = app_state.services
    return await services.keys.authenticate(token)


async def scope_guard(
    connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
) -> None:
    """Authenticate, then require the scope the handler declares in `opt={"scope": ...}`."""
    principal = await authenticate(connection)
    needed = handler.opt.get("scope")
    if needed is not None and not principal.allows(Scope(needed)):
        raise PermissionDeniedException(f"this key lacks the '{needed}' scope")


async def provide_principal(request: Request[Any, Any, Any]) -> Principal:
    """Dependency: the principal the guard already authenticated."""
    return await authenticate(request)


def owner_for(principal: Principal, user_id: str | None, default_user_id: str | None) -> Owner:
    """The owner a request acts for.

    A key pinned to a user acts for that user; naming anyone else answers 404, like any
    other thing outside the key's reach. An unpinned key must name the user (422).
    """
    if principal.user_id is not None:
        if user_id is not None and user_id != principal.user_id:
            raise NotFoundException("no such user within this key's reach")
        return Owner(tenant=principal.tenant, user_id=principal.user_id)
    chosen = user_id if user_id is not None else default_user_id
    if chosen is None:
        raise UserRequired
    return Owner(tenant=principal.tenant, user_id=chosen)
