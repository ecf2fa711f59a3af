"""The proxy's errors as problem+json that OpenAI clients read too (an `error` member)."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response

from memlane.domain.proxy import (
    InvalidChatRequest,
    ProxyError,
    UpstreamNotConfigured,
    UpstreamRefused,
    UpstreamTimedOut,
    UpstreamUnreachable,
    UserNotNamed,
)

# Routes that speak OpenAI's dialect: their problems also carry OpenAI's `error` member.
OPENAI_PATHS = ("/v1/chat/completions", "/v1/models", "/v1/embeddings", "/v1/completions",
                "/v1/responses")
SUPPORTED = "POST /v1/chat/completions, GET /v1/models and GET /v1/models/{id}"
_TYPES = {
    400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
    404: "not_found_error", 413: "invalid_request_error", 415: "invalid_request_error",
    422: "invalid_request_error", 429: "rate_limit_error",
}


def speaks_openai(path: str) -> bool:
    return any(path == p or path.startswith(p + "/") for p in OPENAI_PATHS)


def openai_error(status: int, slug: str, detail: str) -> dict[str, Any]:
    """OpenAI's error object: `message`, `type`, `code` (the problem's slug)."""
    kind = _TYPES.get(status, "upstream_error" if status in (502, 504) else "api_error")
    return {"message": detail, "type": kind, "code": slug.replace("-", "_"), "param": None}


def handle_proxy(request: Request[Any, Any, Any], exc: ProxyError) -> Response[dict[str, Any]]:
    """Each proxy error with its one HTTP meaning."""
    from memlane.api.errors import problem  # errors.py registers this handler

    if isinstance(exc, InvalidChatRequest):
        return problem(400, "invalid-chat-request", str(exc), request)
    if isinstance(exc, UserNotNamed):
        return problem(400, "user-required", str(exc), request)
    if isinstance(exc, UpstreamNotConfigured):
        return problem(503, "proxy-not-configured", str(exc), request)
    if isinstance(exc, UpstreamRefused):
        return problem(502, "upstream-refused", str(exc), request, upstream_status=exc.status)
    if isinstance(exc, UpstreamTimedOut):
        return problem(504, "upstream-timeout", str(exc), request, phase=exc.phase)
    if isinstance(exc, UpstreamUnreachable):
        return problem(502, "upstream-unreachable", str(exc), request)
    return problem(502, "upstream-error", "the upstream failed", request)


def unsupported(request: Request[Any, Any, Any]) -> Response[dict[str, Any]]:
    """OpenAI routes memlane does not proxy: 404 naming what it does."""
    from memlane.api.errors import problem

    return problem(
        404, "unsupported-route",
        f"{request.url.path} is not proxied: memlane serves {SUPPORTED}", request,
    )
