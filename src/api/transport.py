"""Transport rules of JSON routes, checked before a body is parsed: its content type and its
encoding. A body that is not UTF-8 JSON never reaches the decoder or the service."""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.enums import RequestEncodingType
from litestar.exceptions import ClientException, HTTPException, SerializationException
from litestar.handlers.base import BaseRouteHandler
from litestar.status_codes import HTTP_415_UNSUPPORTED_MEDIA_TYPE

JSON = "application/json"
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class UnsupportedMediaType(HTTPException):
    """The body of a JSON route was sent as something else (or without a content type)."""

    status_code = HTTP_415_UNSUPPORTED_MEDIA_TYPE


class MalformedBody(ClientException):
    """The body is not UTF-8, or not JSON (400)."""


def is_json_media_type(content_type: str) -> bool:
    """`application/json` or a `+json` type, parameters (charset) aside."""
    media_type = content_type.partition(";")[0].strip().lower()
    return media_type == JSON or (
        media_type.startswith("application/") and media_type.endswith("+json")
    )


def takes_json(handler: BaseRouteHandler) -> bool:
    """Whether a route handler reads a JSON body (`data: JSONBody[...]`)."""
    data = handler.parsed_fn_signature.parameters.get("data")
    if data is None or data.kwarg_definition is None:
        return False
    return getattr(data.kwarg_definition, "media_type", None) == RequestEncodingType.JSON


async def check_json_body(request: Request[Any, Any, Any]) -> None:
    """`before_request` hook: refuse a JSON route's body sent with another content type
    (415; text/plain used to be parsed as JSON) or not encoded as UTF-8 (400)."""
    if request.method not in _BODY_METHODS or not takes_json(request.route_handler):
        return
    if not is_json_media_type(request.headers.get("content-type", "")):
        raise UnsupportedMediaType(
            f"send the body as {JSON}", headers={"Accept-Post": JSON, "Accept-Patch": JSON}
        )
    body = await request.body()  # read once; the decoder later reuses it
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedBody("the request body is not valid UTF-8") from None
    try:
        await request.json()  # decoded once here, cached for the handler's `data`
    except RecursionError:
        # The decoder's own nesting limit; the metadata depth bound is far below it.
        raise MalformedBody("the request body is nested too deeply") from None
    except SerializationException:
        raise MalformedBody("the request body is not valid JSON") from None
