"""The one place errors become RFC 9457 application/problem+json responses."""

from __future__ import annotations

import logging
import traceback
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.status_codes import HTTP_500_INTERNAL_SERVER_ERROR
from litestar.types import ExceptionHandlersMap

from memlane.api.cursor import BadCursor
from memlane.api.proxy_errors import handle_proxy, openai_error, speaks_openai
from memlane.api.transport import MalformedBody, UnsupportedMediaType
from memlane.domain.errors import (
    DecryptionFailed,
    EmbeddingUnavailable,
    InvalidMemory,
    MemlaneError,
    MemoryNotFound,
    MemoryUnreadable,
    StorageUnavailable,
)
from memlane.domain.facts import FactNotFound, FactUnreadable, TopicNotFound
from memlane.domain.portability import ImportInProgress
from memlane.domain.proxy import ProxyError
from memlane.domain.text_rules import clipped

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"
PROBLEM_BASE = "urn:memlane:problem:"
RETRY_AFTER_S = 5
# A problem quotes at most this much of what it is about: a 100k-character query is not
# echoed back whole (nor is any input an error message happens to contain).
MAX_QUOTED_CHARS = 200

_TITLES = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    413: "Content Too Large",
    415: "Unsupported Media Type",
    422: "Unprocessable Content",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
}


class UserRequired(Exception):
    """A key not pinned to a user made a request without naming one."""


def problem(
    status: int,
    slug: str,
    detail: str,
    request: Request[Any, Any, Any] | None = None,
    headers: dict[str, str] | None = None,
    **extensions: Any,
) -> Response[dict[str, Any]]:
    """A problem+json response; `slug` names the problem type."""
    body: dict[str, Any] = {
        "type": PROBLEM_BASE + slug,
        "title": _TITLES.get(status, "Error"),
        "status": status,
        "detail": clipped(detail, MAX_QUOTED_CHARS),
    }
    if request is not None:
        body["instance"] = request.url.path
        if speaks_openai(request.url.path):  # OpenAI clients read their own `error` member
            body["error"] = openai_error(status, slug, body["detail"])
    body.update(extensions)
    return Response(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def _unavailable(request: Request[Any, Any, Any], detail: str) -> Response[dict[str, Any]]:
    retry = str(getattr(request.app.state, "retry_after_s", RETRY_AFTER_S))
    return problem(503, "unavailable", detail, request, headers={"Retry-After": retry})


def handle_http(request: Request[Any, Any, Any], exc: HTTPException) -> Response[dict[str, Any]]:
    """Litestar's own errors (validation, 401/403/404/405, malformed bodies)."""
    status = exc.status_code
    headers = dict(exc.headers or {})
    if isinstance(exc, MalformedBody):
        return problem(400, "malformed-body", str(exc.detail), request)
    if isinstance(exc, ValidationException):
        errors = exc.extra if isinstance(exc.extra, list) else []
        malformed = "decode" in str(exc.detail).lower() or "malformed" in str(exc.detail).lower()
        if malformed:
            return problem(400, "malformed-body", "the request body is not valid JSON", request)
        # Litestar's detail names the URL, query string included: say the path only.
        detail = str(exc.detail).split("?", 1)[0]
        return problem(422, "validation", detail, request, errors=_clipped_errors(errors))
    if isinstance(exc, UnsupportedMediaType):
        response = problem(415, "unsupported-media-type", str(exc.detail), request)
        response.headers.update(headers)
        return response
    slug = {
        401: "unauthorized", 403: "forbidden", 404: "not-found", 405: "method-not-allowed",
        413: "too-large",
    }
    detail = str(exc.detail) if status < 500 else _TITLES.get(status, "Error")
    response = problem(status, slug.get(status, "http-error"), detail, request)
    response.headers.update(headers)
    return response


def _clipped_errors(errors: list[Any]) -> list[Any]:
    """Validation errors as Litestar lists them, every quoted string cut short."""
    return [
        {k: clipped(v, MAX_QUOTED_CHARS) if isinstance(v, str) else v for k, v in e.items()}
        if isinstance(e, dict) else e
        for e in errors
    ]


def logged_route(request: Request[Any, Any, Any]) -> str:
    """The route a log line names: its template ("/v1/topics/{topic:str}"), never the path
    itself, which carries conversation ids and topic names, nor the query (a search's text)."""
    template = request.scope.get("path_template")
    return template if isinstance(template, str) else "(no route)"


def handle_domain(request: Request[Any, Any, Any], exc: MemlaneError) -> Response[dict[str, Any]]:
    """Domain errors, each with exactly one HTTP meaning."""
    if isinstance(exc, TopicNotFound):
        return problem(404, "topic-not-found", "no such topic", request)
    if isinstance(exc, FactNotFound):
        return problem(404, "fact-not-found", "no such fact", request, fact_id=str(exc.memory_id))
    if isinstance(exc, MemoryNotFound):
        # Its own type, so a client tells a missing memory from a user outside its reach.
        return problem(
            404, "memory-not-found", "no such memory", request, memory_id=str(exc.memory_id)
        )
    if isinstance(exc, FactUnreadable):
        return problem(
            409, "fact-unreadable",
            "this fact is damaged and cannot be decrypted; delete it or restore it from a "
            "backup", request, fact_id=str(exc.memory_id),
        )
    if isinstance(exc, MemoryUnreadable):
        # 409: the memory is there and the request is sound, but the row's state (a ciphertext
        # that does not authenticate) stops it; the owner can DELETE it, an operator restore
        # it from a backup or quarantine it with `memlane verify --quarantine`.
        return problem(
            409, "memory-unreadable",
            "this memory is damaged and cannot be decrypted; delete it or restore it from "
            "a backup", request, memory_id=str(exc.memory_id),
        )
    if isinstance(exc, InvalidMemory):
        return problem(422, "invalid-memory", str(exc), request)
    if isinstance(exc, ImportInProgress):
        return problem(409, "import-in-progress", str(exc), request)
    if isinstance(exc, StorageUnavailable):
        return _unavailable(request, "the database is unavailable; retry shortly")
    if isinstance(exc, EmbeddingUnavailable):
        return _unavailable(request, "the embedding model is unavailable; retry shortly")
    if isinstance(exc, DecryptionFailed):
        log.error("decryption failed on %s %s", request.method, logged_route(request))
        return problem(500, "decryption-failed", "a stored memory could not be decrypted", request)
    log.error("unmapped domain error %s on %s", type(exc).__name__, logged_route(request))
    return problem(500, "internal", "internal error", request)


def handle_other(request: Request[Any, Any, Any], exc: Exception) -> Response[dict[str, Any]]:
    """Anything else: 503 for a lost database, otherwise 500 without leaking details."""
    if isinstance(exc, UserRequired):
        return problem(
            422, "user-required", "this key is not pinned to a user: name one in user_id", request
        )
    if isinstance(exc, BadCursor):
        return problem(400, "bad-cursor", str(exc), request)
    if isinstance(exc, OSError | TimeoutError):
        # Adapters turn a lost database into StorageUnavailable; a socket error or timeout
        # that still arrives here (a dependency beyond the database) is as transient.
        return _unavailable(request, "a dependency is unavailable; retry shortly")
    # Log type and frames, never the message: exception messages may quote memory content.
    log.error(
        "unexpected %s on %s %s\n%s",
        type(exc).__name__,
        request.method,
        logged_route(request),
        "".join(traceback.format_tb(exc.__traceback__)),
    )
    return problem(HTTP_500_INTERNAL_SERVER_ERROR, "internal", "internal error", request)


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    HTTPException: handle_http,
    ProxyError: handle_proxy,
    MemlaneError: handle_domain,
    Exception: handle_other,
}
