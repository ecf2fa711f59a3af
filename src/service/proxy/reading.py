"""The memories for a proxied request, read so that a failure only leaves them out."""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass

from memlane.domain.errors import EmbeddingUnavailable, StorageUnavailable
from memlane.domain.model import Owner, PromptContext
from memlane.domain.retrieval import ContextOptions
from memlane.service.proxy.memory import ProxyMemory

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MemoryRead:
    """The context found (None: nothing asked), or what failed (`failed`, for a header)."""

    context: PromptContext | None = None
    failed: str | None = None


async def read_memory(
    memory: ProxyMemory, owner: Owner, query: str, options: ContextOptions
) -> MemoryRead:
    """POST /v1/context's path (MemoryService.prompt_context, its budget) for the query. A
    database or embedder down, or any other failure, is logged without content and reported;
    the chat goes on without memory."""
    if not query:
        return MemoryRead()
    try:
        return MemoryRead(await memory.prompt_context(owner, query, None, options))
    except StorageUnavailable:
        log.warning("proxy: the database is unavailable; forwarded without memory")
        return MemoryRead(failed="database unavailable")
    except EmbeddingUnavailable:
        log.warning("proxy: the embedder is unavailable; forwarded without memory")
        return MemoryRead(failed="embedder unavailable")
    except Exception as error:
        # Type and frames, never the message: it may quote the user's words.
        log.error(
            "proxy: reading memory failed (%s); forwarded without memory\n%s",
            type(error).__name__, "".join(traceback.format_tb(error.__traceback__)),
        )
        return MemoryRead(failed="memory failed")
