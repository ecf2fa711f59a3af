"""HttpxUpstreamAdapter: UpstreamPort on one pooled httpx client (keep-alive, no env proxies)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from urllib.parse import quote

import httpx

from memlane.domain.proxy import UpstreamTimedOut, UpstreamUnreachable
from memlane.ports.upstream import UpstreamCall, UpstreamPort, UpstreamReply


@dataclass(frozen=True, slots=True)
class UpstreamTimeouts:
    """Seconds to connect, to the first byte of the answer, and between two of its chunks."""

    connect_s: float = 5.0
    first_byte_s: float = 600.0
    chunk_gap_s: float = 120.0


DEFAULT_TIMEOUTS = UpstreamTimeouts()


class HttpxUpstreamReply(UpstreamReply):
    def __init__(self, response: httpx.Response, timeouts: UpstreamTimeouts) -> None:
        self._response = response
        self._timeouts = timeouts
        self.status = response.status_code
        self.content_type = response.headers.get("content-type", "application/json")

    async def chunks(self) -> AsyncIterator[bytes]:
        body = self._response.aiter_bytes()
        # A server may send its headers at once and think before the first token: the first
        # chunk gets the first-byte timeout, the others the gap between chunks.
        timeout_s, phase = self._timeouts.first_byte_s, "first byte"
        while True:
            try:
                async with asyncio.timeout(timeout_s):
                    chunk = await anext(body)
            except StopAsyncIteration:
                return
            except TimeoutError:
                raise UpstreamTimedOut(phase) from None
            except httpx.HTTPError as error:
                broke = type(error).__name__
                raise UpstreamUnreachable(f"the upstream broke off: {broke}") from None
            timeout_s, phase = self._timeouts.chunk_gap_s, "between chunks"
            if chunk:
                yield chunk

    async def read(self, max_bytes: int) -> bytes:
        parts: list[bytes] = []
        size = 0
        async for chunk in self.chunks():
            size += len(chunk)
            if size > max_bytes:
                raise UpstreamUnreachable(f"the upstream's answer is over {max_bytes} bytes")
            parts.append(chunk)
        return b"".join(parts)

    async def close(self) -> None:
        await self._response.aclose()


class HttpxUpstreamAdapter(UpstreamPort):
    """Forwards to `base_url` (e.g. http://127.0.0.1:11434/v1) with `api_key` as its bearer
    (none when empty). Environment proxy variables are not used: the upstream is named here."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        timeouts: UpstreamTimeouts = DEFAULT_TIMEOUTS,
        max_connections: int = 64,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        headers = {"Accept-Encoding": "identity"}  # streamed events pass on as they come
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._timeouts = timeouts
        self._client = httpx.AsyncClient(
            base_url=base_url.rstrip("/") + "/",
            headers=headers,
            # Connecting has its own bound; reads are bounded per chunk by the reply.
            timeout=httpx.Timeout(
                connect=timeouts.connect_s, read=None, write=timeouts.chunk_gap_s,
                pool=timeouts.connect_s,
            ),
            limits=httpx.Limits(
                max_connections=max_connections, max_keepalive_connections=max_connections
            ),
            trust_env=False,
            transport=transport,
        )

    async def send(self, call: UpstreamCall) -> UpstreamReply:
        headers = {"Content-Type": "application/json"} if call.body is not None else {}
        path = call.path.lstrip("/")
        if call.segment is not None:
            path = f"{path}/{quote(call.segment, safe='')}"
        request = self._client.build_request(call.method, path, content=call.body, headers=headers)
        try:
            async with asyncio.timeout(self._timeouts.first_byte_s):
                response = await self._client.send(request, stream=True)
        except TimeoutError:
            raise UpstreamTimedOut("first byte") from None
        except (httpx.ConnectTimeout, httpx.PoolTimeout):
            raise UpstreamTimedOut("connect") from None
        except httpx.HTTPError as error:
            failed = type(error).__name__
            raise UpstreamUnreachable(f"the upstream is unreachable: {failed}") from None
        return HttpxUpstreamReply(response, self._timeouts)

    async def close(self) -> None:
        await self._client.aclose()
