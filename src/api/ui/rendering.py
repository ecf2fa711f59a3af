"""What every inspector page shares: the template response, headers, and error pages."""

from __future__ import annotations

import logging
from typing import Any

from litestar import Request, Response
from litestar.datastructures import CacheControlHeader
from litestar.exceptions import HTTPException, NotFoundException
from litestar.response import Redirect, Template
from litestar.types import ExceptionHandlersMap

from memlane.api.cursor import BadCursor
from memlane.api.errors import logged_route
from memlane.api.ui.session import (
    CSRF_FIELD,
    UI_PATH,
    CsrfRefused,
    SignInRequired,
    UiSession,
    WriteNotAllowed,
)
from memlane.domain.errors import InvalidMemory, MemlaneError, MemoryNotFound

log = logging.getLogger(__name__)

NO_STORE = CacheControlHeader(no_store=True)
_SECTION = {"memories.html": "memories", "memory.html": "memories", "stats.html": "stats",
            "facts.html": "facts"}
# No script runs on these pages: the policy allows only our own stylesheet and forms.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def page(
    template: str, session: UiSession | None, status_code: int = 200, **context: Any
) -> Template:
    """A page: `session` feeds the header (who is signed in) and the forms' CSRF token."""
    return Template(
        template_name=template,
        context={
            "session": session, "csrf_field": CSRF_FIELD, "ui": UI_PATH,
            "here": _SECTION.get(template, ""), **context,
        },
        status_code=status_code,
    )


def see_other(path: str) -> Redirect:
    """After a form post: 303, so a reload does not post again."""
    return Redirect(path=path, status_code=303)


def _error_page(status: int, title: str, detail: str) -> Response[Any]:
    response = page("error.html", None, status, title=title, detail=detail)
    response.headers.update({**SECURITY_HEADERS, "Cache-Control": NO_STORE.to_header()})
    return response


def handle_ui_error(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """Errors on /ui pages as HTML pages (the REST API answers problem+json instead)."""
    if isinstance(exc, SignInRequired):
        return see_other(f"{UI_PATH}/sign-in")
    if isinstance(exc, CsrfRefused):
        return _error_page(403, "Refused", "The form was not sent by this inspector page "
                                            "(missing or wrong CSRF token). Nothing changed.")
    if isinstance(exc, WriteNotAllowed):
        return _error_page(403, "Read only", "This key lacks the 'memories:write' scope.")
    if isinstance(exc, MemoryNotFound | NotFoundException):
        return _error_page(404, "Not found", "No such memory for this user.")
    if isinstance(exc, BadCursor):
        return _error_page(400, "Bad page link", "That page link is not one of ours.")
    if isinstance(exc, InvalidMemory):
        return _error_page(422, "Not accepted", str(exc))
    if isinstance(exc, HTTPException):
        status = exc.status_code
        return _error_page(status, "Request refused", str(exc.detail) if status < 500 else "")
    if isinstance(exc, MemlaneError):
        log.error("inspector: %s on %s", type(exc).__name__, logged_route(request))
        return _error_page(503, "Unavailable", "The memory store is unavailable; retry shortly.")
    # Type only, never the message: messages may quote memory content.
    log.error("inspector: unexpected %s on %s", type(exc).__name__, logged_route(request))
    return _error_page(500, "Internal error", "Something went wrong; nothing was shown.")


# The same keys as the app's problem+json handlers, so these win on /ui (the closer layer).
UI_EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    HTTPException: handle_ui_error,
    MemlaneError: handle_ui_error,
    Exception: handle_ui_error,
}
