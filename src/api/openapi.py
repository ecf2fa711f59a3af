"""The OpenAPI document as clients need it: bearer security, problem+json error bodies on
every route, and the Swagger UI served from a local copy (swagger-ui-bundle), no CDN."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Litestar, Router
from litestar.handlers import HTTPRouteHandler
from litestar.openapi import OpenAPIConfig, ResponseSpec
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme
from litestar.static_files import create_static_files_router
from swagger_ui_bundle import swagger_ui_path

from memlane.api.errors import PROBLEM_JSON
from memlane.api.transport import takes_json

SCHEMA_PATH = "/schema"  # Swagger UI here and at /schema/swagger; the document at openapi.json
ASSETS_PATH = "/schema-assets/swagger-ui"
BEARER = "BearerToken"
SECURITY: list[dict[str, list[str]]] = [{BEARER: []}]


class ProblemDetails(msgspec.Struct, kw_only=True):
    """An RFC 9457 problem: every error memlane answers has this body."""

    # urn:memlane:problem:<slug>, e.g. memory-not-found, fact-not-found, topic-not-found,
    # validation, unauthorized, unavailable
    type: str
    title: str
    status: int
    detail: str
    instance: str | None = None
    errors: list[dict[str, Any]] | None = None  # validation: which field, and why
    memory_id: str | None = None  # memory-not-found: the memory asked for
    fact_id: str | None = None  # fact-not-found: the fact asked for
    # The proxy's routes (/v1/chat/completions, /v1/models): OpenAI's error object too.
    error: dict[str, Any] | None = None
    upstream_status: int | None = None  # upstream-refused: what the upstream answered
    phase: str | None = None  # upstream-timeout: connect, first byte or between chunks


def _problem(description: str) -> ResponseSpec:
    return ResponseSpec(
        ProblemDetails, description=description, media_type=PROBLEM_JSON, generate_examples=False
    )


PROBLEM_RESPONSES: dict[int, ResponseSpec] = {
    400: _problem("Malformed JSON body or pagination cursor (problem+json)"),
    401: _problem("Missing, invalid or revoked bearer token (problem+json)"),
    403: _problem("The key lacks the scope this route needs (problem+json)"),
    404: _problem("No such memory or route, or a user outside the key's reach (problem+json)"),
    422: _problem("Validation failed: `errors` names the fields (problem+json)"),
    500: _problem("Internal error; no details are disclosed (problem+json)"),
    503: _problem("Database or embedder unavailable; retry after Retry-After (problem+json)"),
}


# Answers only some routes give: 415 where a JSON body is read (api/transport.py), 409 where
# one memory is read or edited and it is damaged (memory-unreadable, docs/security.md).
UNSUPPORTED_MEDIA_TYPE = _problem("The body was not sent as application/json (problem+json)")
MEMORY_UNREADABLE = _problem(
    "The memory is damaged and cannot be decrypted: memory-unreadable (problem+json)"
)
FACT_UNREADABLE = _problem(
    "The fact is damaged and cannot be decrypted: fact-unreadable (problem+json)"
)


def openapi_config() -> OpenAPIConfig:
    assets = ASSETS_PATH
    swagger = SwaggerRenderPlugin(
        js_url=f"{assets}/swagger-ui-bundle.js",
        css_url=f"{assets}/swagger-ui.css",
        standalone_preset_js_url=f"{assets}/swagger-ui-standalone-preset.js",
        favicon=f"<link rel='icon' type='image/png' href='{assets}/favicon-32x32.png'>",
        path=["/", "/swagger"],
    )
    return OpenAPIConfig(
        title="memlane",
        version="1",
        description=(
            "Private long-term memory for AI assistants. Authenticate with "
            "`Authorization: Bearer <token>` (Swagger: Authorize). Every error is RFC 9457 "
            "application/problem+json; anything outside a key's reach is 404."
        ),
        path=SCHEMA_PATH,
        components=Components(security_schemes={BEARER: SecurityScheme(
            type="http", scheme="bearer",
            description="An API key from `memlane keys create` (it starts with ml_).",
        )}),
        render_plugins=[swagger, JsonRenderPlugin()],
    )


def swagger_assets() -> Router:
    """The Swagger UI files of the installed swagger-ui-bundle package."""
    return create_static_files_router(
        path=ASSETS_PATH, directories=[str(swagger_ui_path)], include_in_schema=False,
        name="swagger-assets",
    )


def document_problems(app: Litestar) -> None:
    """Every documented route's error answers are problem+json (a handler's own `responses`,
    such as 200 on merge, stay); replaces Litestar's default error schema, which is not what
    memlane's one exception handler (api/errors.py) sends."""
    for route in app.routes:
        if not route.path.startswith("/v1/"):
            continue  # probes answer plain JSON, the schema and assets are not documented
        for handler in getattr(route, "route_handlers", ()):
            if isinstance(handler, HTTPRouteHandler) and handler.include_in_schema:
                handler.responses = {
                    **PROBLEM_RESPONSES, **_route_problems(handler), **(handler.responses or {})
                }


def _route_problems(handler: HTTPRouteHandler) -> dict[int, ResponseSpec]:
    """Problems a route answers beyond the common ones: 415 where it reads a JSON body (a
    handler documents its own others, e.g. 409 memory-unreadable, in `responses`)."""
    return {415: UNSUPPORTED_MEDIA_TYPE} if takes_json(handler) else {}
