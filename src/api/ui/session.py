"""The inspector's sign-in: an API key held in an HttpOnly cookie, and CSRF tokens for writes."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from litestar import Request, Response
from litestar.datastructures import Cookie
from litestar.di import Provide
from litestar.exceptions import NotFoundException

from memlane.api.auth import owner_for, principal_for_token
from memlane.api.errors import UserRequired
from memlane.domain.model import Owner
from memlane.domain.security import Principal, Scope, key_actor
from memlane.service.security import become

UI_PATH = "/ui"
SESSION_COOKIE = "memlane_ui"  # the API key itself: the key is the session
USER_COOKIE = "memlane_ui_user"  # the user an unpinned key acts for
PRE_COOKIE = "memlane_ui_pre"  # a random value the sign-in form's token is bound to
CSRF_FIELD = "_csrf"
MAX_USER_CHARS = 200


class SignInRequired(Exception):
    """No valid key in the cookie: the browser is sent to the sign-in page."""


class CsrfRefused(Exception):
    """A write without the token of its session: refused, nothing changes."""


class WriteNotAllowed(Exception):
    """The key lacks the write scope."""


def csrf_token(secret: str) -> str:
    """The form token bound to a cookie value. It is derived (HMAC keyed by the cookie), so
    every worker process computes the same one without shared state, and a page of another
    origin, which can neither read the cookie nor this page, cannot produce it."""
    return hmac.new(secret.encode(), b"memlane-ui-csrf", hashlib.sha256).hexdigest()


def tokens_match(secret: str | None, sent: object) -> bool:
    if not secret or not isinstance(sent, str):
        return False
    return hmac.compare_digest(csrf_token(secret), sent)


@dataclass(frozen=True, slots=True)
class UiSession:
    """Who the browser is signed in as, for whom it acts, and its form token."""

    principal: Principal
    owner: Owner
    csrf: str

    @property
    def can_write(self) -> bool:
        return self.principal.allows(Scope.WRITE)


async def current_session(request: Request[Any, Any, Any]) -> UiSession:
    """The signed-in session (the same key check as REST), or SignInRequired."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        raise SignInRequired
    principal = await principal_for_token(request.app.state, token)
    if principal is None or not principal.allows(Scope.READ):
        raise SignInRequired
    become(key_actor(principal.key_id))  # the audit trail names the key, as for REST
    user = request.cookies.get(USER_COOKIE) or None
    try:
        owner = owner_for(principal, user, None)
    except (UserRequired, NotFoundException):  # no user named, or one out of the key's reach
        raise SignInRequired from None
    return UiSession(principal, owner, csrf_token(token))


async def posting_session(request: Request[Any, Any, Any]) -> UiSession:
    """The session of a form post: the form must carry the session's CSRF token."""
    session = await current_session(request)
    form = await request.form()
    if not tokens_match(request.cookies.get(SESSION_COOKIE), form.get(CSRF_FIELD)):
        raise CsrfRefused
    return session


async def writing_session(request: Request[Any, Any, Any]) -> UiSession:
    """A form post that changes memories: CSRF-checked, and the key must hold the write scope."""
    session = await posting_session(request)
    if not session.can_write:
        raise WriteNotAllowed
    return session


def cookie(
    request: Request[Any, Any, Any], key: str, value: str, max_age: int | None = None
) -> Cookie:
    """HttpOnly, SameSite=Strict, limited to /ui; Secure when the page came over https."""
    return Cookie(
        key=key,
        value=value,
        path=UI_PATH,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        max_age=max_age,
    )


def signed_in(
    response: Response[Any], request: Request[Any, Any, Any], token: str, user: str | None
) -> Response[Any]:
    """The response that starts a session: the key and the chosen user in cookies."""
    response.set_cookie(cookie(request, SESSION_COOKIE, token))
    if user:
        response.set_cookie(cookie(request, USER_COOKIE, user))
    else:
        response.delete_cookie(USER_COOKIE, path=UI_PATH)
    response.delete_cookie(PRE_COOKIE, path=UI_PATH)
    return response


def signed_out(response: Response[Any]) -> Response[Any]:
    for name in (SESSION_COOKIE, USER_COOKIE):
        response.delete_cookie(name, path=UI_PATH)
    return response


def new_pre_secret() -> str:
    return secrets.token_urlsafe(32)


# The dependency of every handler that changes memories or facts.
WRITING = {"session": Provide(writing_session)}
