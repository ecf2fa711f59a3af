"""Signing in to the inspector with an API key, and out again."""

from __future__ import annotations

import secrets
from typing import Any

from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency, Provide

from memlane.api.auth import principal_for_token
from memlane.api.ui.forms import Form
from memlane.api.ui.rendering import page, see_other
from memlane.api.ui.session import (
    CSRF_FIELD,
    MAX_USER_CHARS,
    PRE_COOKIE,
    UI_PATH,
    UiSession,
    cookie,
    csrf_token,
    new_pre_secret,
    posting_session,
    signed_in,
    signed_out,
    tokens_match,
)
from memlane.domain.security import Principal, Scope


def _refusal(principal: Principal | None, user: str | None) -> str | None:
    """Why this key cannot open the inspector for this user, or None when it can."""
    if principal is None:
        return "That key is unknown or revoked."
    if not principal.allows(Scope.READ):
        return "That key lacks the 'memories:read' scope."
    if user is not None and len(user) > MAX_USER_CHARS:
        return f"A user id has at most {MAX_USER_CHARS} characters."
    if principal.user_id is not None:
        if user is not None and user != principal.user_id:
            return "That key is pinned to another user."
    elif user is None:
        return "That key is not pinned to a user: name the user to inspect."
    return None


class SignInController(Controller):
    """/ui/sign-in and /ui/sign-out; the key is checked exactly as REST checks a bearer key."""

    path = UI_PATH
    include_in_schema = False

    @get("/")
    async def home(self) -> Response[Any]:
        return see_other(f"{UI_PATH}/memories")

    @get("/sign-in")
    async def sign_in_form(self, request: Request[Any, Any, Any]) -> Response[Any]:
        """The form; its token is bound to a fresh random cookie (no login CSRF)."""
        pre = request.cookies.get(PRE_COOKIE) or new_pre_secret()
        response = page("sign_in.html", None, csrf=csrf_token(pre), error=None,
                        auth_enabled=request.app.state.api_config.auth_enabled)
        response.set_cookie(cookie(request, PRE_COOKIE, pre, max_age=3600))
        return response

    @post("/sign-in", status_code=303)
    async def sign_in(self, request: Request[Any, Any, Any], data: Form) -> Response[Any]:
        pre = request.cookies.get(PRE_COOKIE)
        auth_enabled = request.app.state.api_config.auth_enabled
        if pre is None or not tokens_match(pre, data.get(CSRF_FIELD)):
            # Cookies cleared, or a form of another site: show a fresh form.
            return see_other(f"{UI_PATH}/sign-in")
        token = data.get("token", "").strip() if auth_enabled else secrets.token_urlsafe(32)
        user = data.get("user", "").strip() or None
        principal = await principal_for_token(request.app.state, token) if token else None
        refusal = _refusal(principal, user)
        if refusal is not None:
            return page("sign_in.html", None, 401, csrf=csrf_token(pre), error=refusal,
                        auth_enabled=auth_enabled, user=user or "")
        return signed_in(see_other(f"{UI_PATH}/memories"), request, token, user)

    @post(
        "/sign-out",
        status_code=303,
        dependencies={"session": Provide(posting_session)},
    )
    async def sign_out(self, session: NamedDependency[UiSession]) -> Response[Any]:
        return signed_out(see_other(f"{UI_PATH}/sign-in"))
