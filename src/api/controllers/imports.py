"""Chat imports (/v1/imports): a ChatGPT or Claude export uploaded as the request body."""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from litestar import Controller, Request, post
from litestar.di import NamedDependency
from litestar.exceptions import HTTPException, ServiceUnavailableException
from litestar.params import QueryParameter
from litestar.status_codes import HTTP_200_OK, HTTP_413_REQUEST_ENTITY_TOO_LARGE

from memlane.api.config import ApiConfig
from memlane.api.deps import OWNER, ApiServices
from memlane.api.import_schemas import ImportSummaryOut, import_summary_out
from memlane.api.params import ERRORS, WRITE
from memlane.domain.model import Owner

FormatParam = Annotated[
    Literal["chatgpt", "claude"],
    QueryParameter(name="format", description="Whose export the body is: chatgpt or claude."),
]
TitlesParam = Annotated[
    bool,
    QueryParameter(
        description="Keep each chat's title in its memories' metadata (sealed, like all metadata)."
    ),
]


class ImportsController(Controller):
    """Chat history of other assistants, imported as conversations (docs/import.md)."""

    path = "/v1/imports"
    tags = ["imports"]
    dependencies = {"owner": OWNER}

    # The route bounds the body itself (config.max_import_bytes): an export is far larger
    # than any other request, and is streamed to a private temporary file, never held.
    @post(
        "/", operation_id="importChats", opt=WRITE, raises=ERRORS, status_code=HTTP_200_OK,
        request_max_body_size=None,
    )
    async def import_chats(
        self,
        request: Request[Any, Any, Any],
        export_format: FormatParam,
        owner: NamedDependency[Owner],
        services: NamedDependency[ApiServices],
        config: NamedDependency[ApiConfig],
        titles: TitlesParam = True,
    ) -> ImportSummaryOut:
        """Import the body (conversations.json, or the export zip as downloaded; any content
        type) for the acting user: each chat a conversation, each exchange one memory. The
        whole file is checked before anything is stored (a malformed one is a 422 naming
        where); importing the same file again adds nothing; 409 while another import of the
        same user runs."""
        if services.imports is None:
            raise ServiceUnavailableException("imports are not available on this server")
        async with _uploaded(request, config.max_import_bytes) as path:
            summary = await services.imports.import_file(
                owner, path, export_format, titles=titles
            )
        return import_summary_out(summary)


@asynccontextmanager
async def _uploaded(request: Request[Any, Any, Any], max_bytes: int) -> AsyncIterator[Path]:
    """The body in a temporary file readable by this process alone, removed afterwards."""
    descriptor, name = await asyncio.to_thread(
        tempfile.mkstemp, prefix="memlane-import-", suffix=".upload"
    )
    path = Path(name)
    try:
        with os.fdopen(descriptor, "wb") as file:
            size = 0
            async for chunk in request.stream():
                size += len(chunk)
                if size > max_bytes:
                    raise HTTPException(
                        status_code=HTTP_413_REQUEST_ENTITY_TOO_LARGE,
                        detail=f"an export may be at most {max_bytes} bytes",
                    )
                await asyncio.to_thread(file.write, chunk)
        yield path
    finally:
        await asyncio.to_thread(path.unlink, missing_ok=True)
