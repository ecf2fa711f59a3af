"""A streamed answer passed on as it arrives, teed to assemble what is learned after it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable

from memlane.domain.proxy import Answer, ProxyError, StreamAssembler, UpstreamTimedOut
from memlane.ports.upstream import UpstreamReply

# Closing tasks kept alive until done: a cancelled stream must still let go of its upstream.
_CLOSING: set[asyncio.Task[None]] = set()


def error_event(error: ProxyError) -> bytes:
    """An OpenAI-style error event, the way servers end a stream that failed mid-way."""
    code = "upstream_timeout" if isinstance(error, UpstreamTimedOut) else "upstream_error"
    body = {"error": {"message": str(error), "type": "upstream_error", "code": code}}
    return b"data: " + json.dumps(body).encode() + b"\n\n"


async def teed(
    reply: UpstreamReply, learn: Callable[[Answer], None] | None
) -> AsyncIterator[bytes]:
    """Each chunk as it comes (nothing waits for memlane). When the stream ends complete,
    `learn` gets the assembled answer; a stream that broke off ends with an error event and
    teaches nothing, and one the client left (cancelled, closed) stops the upstream request
    and teaches nothing."""
    assembler = StreamAssembler() if learn is not None else None
    try:
        async for chunk in reply.chunks():
            if assembler is not None:
                assembler.feed(chunk)
            yield chunk
    except ProxyError as error:
        yield error_event(error)
        return
    finally:
        await close_soon(reply)
    if assembler is not None and learn is not None:
        learn(assembler.answer())


async def close_soon(reply: UpstreamReply) -> None:
    """Close the upstream reply; the close finishes even if the caller is being cancelled."""
    task = asyncio.get_running_loop().create_task(reply.close())
    _CLOSING.add(task)
    task.add_done_callback(_CLOSING.discard)
    await asyncio.shield(task)
