"""OllamaProbe: a local chat model reads a fired segment for a graph patch and facts."""

from __future__ import annotations

import asyncio
import json
import logging

import ollama

from memlane.domain.facts import (
    PROBE_INSTRUCTIONS,
    PROBE_SCHEMA,
    InvalidModelAnswer,
    patch_from_answer,
    probe_message,
)
from memlane.ports.facts import ProbeAnswer, ProbePort, ProbeRequest

log = logging.getLogger(__name__)

DEFAULT_URL = "http://127.0.0.1:11434"


class OllamaProbe(ProbePort):
    """POST /api/chat with the patch's JSON schema as `format`, temperature 0, within
    `timeout_ms`. An unreachable server, a refusal, a timeout or an answer that is not the
    schema's JSON gives the fallback (the heuristics' result stands) and logs a warning with
    the reason, never the text."""

    def __init__(self, model: str, url: str = DEFAULT_URL, timeout_ms: int = 3_000) -> None:
        self._model = model
        self._url = url
        self._timeout_s = timeout_ms / 1000
        self._client: ollama.AsyncClient | None = None

    async def probe(self, request: ProbeRequest) -> ProbeAnswer:
        try:
            async with asyncio.timeout(self._timeout_s):
                response = await self._http().chat(
                    model=self._model,
                    messages=[
                        {"role": "system", "content": PROBE_INSTRUCTIONS},
                        {"role": "user",
                         "content": probe_message(request.text, request.known_names)},
                    ],
                    format=PROBE_SCHEMA,
                    options={"temperature": 0},
                )
        except TimeoutError:
            return self._fell_back("timeout")
        except ollama.ResponseError:
            return self._fell_back("refused")
        except Exception as error:  # connection refused, httpx transport errors, bad HTTP
            log.debug("ollama probe failed: %s", type(error).__name__)
            return self._fell_back("unreachable")
        try:
            return ProbeAnswer(patch_from_answer(json.loads(response.message.content or "")))
        except (ValueError, InvalidModelAnswer):
            return self._fell_back("invalid")

    def _fell_back(self, reason: str) -> ProbeAnswer:
        log.warning("ollama probe (%s at %s): %s; the heuristics' result stands",
                    self._model, self._url, reason)
        return ProbeAnswer(fallback=reason)

    def _http(self) -> ollama.AsyncClient:
        # Created on first use, inside the running loop that will drive it.
        if self._client is None:
            self._client = ollama.AsyncClient(host=self._url, timeout=self._timeout_s)
        return self._client

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.close()
