"""OllamaFactExtractor: facts from a local chat model, the heuristics whenever it fails."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence

import ollama

from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.domain.facts import (
    FACT_SCHEMA,
    INSTRUCTIONS,
    ExtractedFact,
    InvalidModelAnswer,
    facts_from_answer,
)
from memlane.ports.facts import FactExtractionPort, FallbackListener

log = logging.getLogger(__name__)

DEFAULT_URL = "http://127.0.0.1:11434"
# Texts asked at once: a local model serves few requests in parallel anyway.
CONCURRENT_REQUESTS = 4


class OllamaFactExtractor(FactExtractionPort):
    """POST /api/chat with a JSON schema per text, the whole batch within `timeout_ms`.

    An unreachable server, a timeout or an answer that is not the schema's JSON falls back
    to the heuristics for that text, logs a warning (never the text) and tells
    `on_fallback` the reason, so the caller can count it."""

    def __init__(
        self,
        model: str,
        url: str = DEFAULT_URL,
        timeout_ms: int = 3_000,
        on_fallback: FallbackListener | None = None,
    ) -> None:
        self._model = model
        self._url = url
        self._timeout_ms = timeout_ms
        self._on_fallback = on_fallback
        self._heuristics = HeuristicFactExtractor()
        self._client: ollama.AsyncClient | None = None

    async def extract(self, texts: Sequence[str]) -> list[list[ExtractedFact]]:
        if not texts:
            return []
        gate = asyncio.Semaphore(CONCURRENT_REQUESTS)
        tasks = [asyncio.create_task(self._ask(text, gate)) for text in texts]
        # One deadline for the batch: a write waits at most timeout_ms for the model.
        done, pending = await asyncio.wait(tasks, timeout=self._timeout_ms / 1000)
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
        answers: list[list[ExtractedFact] | None] = []
        reasons: list[str] = []
        for task in tasks:
            if task in done and task.exception() is None:
                answer, reason = task.result()
            else:
                answer, reason = None, "timeout" if task in pending else "unreachable"
            answers.append(answer)
            if answer is None:
                reasons.append(reason)
        if reasons:
            self._fell_back(reasons)
        missing = [i for i, answer in enumerate(answers) if answer is None]
        fallback = await self._heuristics.extract([texts[i] for i in missing]) if missing else []
        for i, facts in zip(missing, fallback, strict=True):
            answers[i] = facts
        return [answer or [] for answer in answers]

    async def _ask(
        self, text: str, gate: asyncio.Semaphore
    ) -> tuple[list[ExtractedFact] | None, str]:
        """The model's facts for one text, or None and why not."""
        async with gate:
            try:
                response = await self._http().chat(
                    model=self._model,
                    messages=[{"role": "system", "content": INSTRUCTIONS},
                              {"role": "user", "content": text}],
                    format=FACT_SCHEMA,
                    options={"temperature": 0},
                )
            except ollama.ResponseError:
                return None, "refused"
            except Exception as error:  # connection refused, httpx transport errors, bad HTTP
                log.debug("ollama fact extraction failed: %s", type(error).__name__)
                return None, "unreachable"
        try:
            return facts_from_answer(json.loads(response.message.content or "")), ""
        except (ValueError, InvalidModelAnswer):
            return None, "invalid"

    def _fell_back(self, reasons: Sequence[str]) -> None:
        for reason in sorted(set(reasons)):
            count = reasons.count(reason)
            log.warning(
                "ollama fact extraction (%s at %s): %s for %d text(s); used the heuristics",
                self._model, self._url, reason, count,
            )
            if self._on_fallback is not None:
                for _ in range(count):
                    self._on_fallback(reason)

    def _http(self) -> ollama.AsyncClient:
        # Created on first use, inside the running loop that will drive it.
        if self._client is None:
            self._client = ollama.AsyncClient(host=self._url, timeout=self._timeout_ms / 1000)
        return self._client

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.close()
