"""The memory proxy's OpenAI routes: chat completions with memory, models passed through."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, Router, get, post, route
from litestar.di import NamedDependency
from litestar.exceptions import PermissionDeniedException
from litestar.openapi import ResponseSpec
from litestar.params import Body, Parameter
from litestar.response import Stream
from litestar.status_codes import HTTP_200_OK

from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.api.errors import PROBLEM_JSON
from memlane.api.openapi import ProblemDetails
from memlane.api.proxy_errors import unsupported
from memlane.api.proxy_identity import (
    MEMORY,
    memory_scopes,
    named_conversation,
    proxy_owner,
)
from memlane.api.proxy_openapi import CHAT_REQUEST, ChatOperation
from memlane.domain.proxy import UpstreamNotConfigured, asked_mode
from memlane.domain.security import Principal
from memlane.service.proxy import ChatProxy, ProxyCall, ProxyReply

ChatBody = Annotated[dict[str, Any], Body(
    title="ChatCompletionRequest",
    description="OpenAI's chat-completions request; every field is passed to the upstream.",
    schema_extra=CHAT_REQUEST,
)]
ModelIdParam = Annotated[str, Parameter(description="The model's id, as the upstream names it.")]
# A chat may carry images and audio as base64: the API's 16 MiB would refuse valid requests
# that the upstream takes, so this route has a larger bound of its own.
MAX_CHAT_BYTES = 64 * 1024 * 1024
# Streamed answers must reach the client as they come, past any buffering reverse proxy.
STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
UPSTREAM_PROBLEMS = {
    502: ResponseSpec(ProblemDetails, description="The upstream is unreachable, or refused "
                      "memlane's upstream key (problem+json)", media_type=PROBLEM_JSON,
                      generate_examples=False),
    504: ResponseSpec(ProblemDetails, description="The upstream timed out (problem+json)",
                      media_type=PROBLEM_JSON, generate_examples=False),
}


def _proxy(services: ApiServices) -> ChatProxy:
    if services.proxy is None:
        raise UpstreamNotConfigured("the memory proxy is not available on this server")
    return services.proxy


def _answer(reply: ProxyReply) -> Response[Any]:
    if reply.stream is not None:
        return Stream(
            reply.stream, status_code=reply.status, media_type=reply.content_type,
            headers={**STREAM_HEADERS, **reply.headers},
        )
    return Response(
        reply.content, status_code=reply.status, media_type=reply.content_type,
        headers=reply.headers,
    )


class ChatCompletionsController(Controller):
    """OpenAI's chat completions, forwarded to `[proxy] upstream_url` with memory."""

    path = "/v1/chat/completions"
    tags = ["proxy"]

    @post(
        "/", operation_id="createChatCompletion", status_code=HTTP_200_OK,
        summary="Create a chat completion, with memory", request_max_body_size=MAX_CHAT_BYTES,
        responses=UPSTREAM_PROBLEMS, operation_class=ChatOperation,
    )
    async def complete(
        self,
        request: Request[Any, Any, Any],
        data: ChatBody,
        principal: NamedDependency[Principal],
        services: NamedDependency[ApiServices],
        config: NamedDependency[ApiConfig],
    ) -> Response[dict[str, Any]]:
        """The user's memories join the system message (`X-Memlane-Memories-Injected` says
        how many), the request goes upstream, the answer comes back as the upstream sends it
        (server-sent events when `stream` is true), and the exchange is learned in the
        background. `X-Memlane-Memory: off | read | write | on` switches injection and
        learning; `X-Conversation-Id` names the conversation."""
        can_read, can_write = memory_scopes(principal)
        if not (can_read or can_write):
            raise PermissionDeniedException(
                "this key lacks the 'memories:read' and 'memories:write' scopes"
            )
        proxy = _proxy(services)
        headers = request.headers
        call = ProxyCall(
            raw=await request.body(),
            body=data,
            owner=proxy_owner(principal, data, headers, config),
            asked=asked_mode(headers.get(MEMORY)),
            can_read=can_read,
            can_write=can_write,
            conversation=named_conversation(principal, headers),
        )
        return _answer(await proxy.complete(call))


class ModelsController(Controller):
    """The upstream's models, passed through (chat UIs list models from here)."""

    path = "/v1/models"
    tags = ["proxy"]

    @get("/", operation_id="listModels", responses=UPSTREAM_PROBLEMS)
    async def models(self, services: NamedDependency[ApiServices]) -> Response[dict[str, Any]]:
        """GET /models of the upstream, as it answers."""
        return _answer(await _proxy(services).models())

    @get("/{model_id:path}", operation_id="getModel", responses=UPSTREAM_PROBLEMS)
    async def model(
        self,
        model_id: ModelIdParam,
        services: NamedDependency[ApiServices],
    ) -> Response[dict[str, Any]]:
        """GET /models/{id} of the upstream, as it answers."""
        return _answer(await _proxy(services).models(model_id.lstrip("/") or "."))


@route(
    ["/v1/embeddings", "/v1/completions", "/v1/responses", "/v1/responses/{rest:path}"],
    http_method=["GET", "POST", "PUT", "PATCH", "DELETE"], include_in_schema=False,
    sync_to_thread=False,
)
def unsupported_openai_route(request: Request[Any, Any, Any]) -> Response[dict[str, Any]]:
    """OpenAI routes memlane does not proxy: 404 problem+json naming those it does."""
    return unsupported(request)


def unsupported_routes() -> Router:
    """Outside the authenticated router: a route that does not exist needs no key."""
    return Router(path="/", route_handlers=[unsupported_openai_route])
