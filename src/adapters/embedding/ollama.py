"""OllamaEmbeddingAdapter: embeddings from an Ollama server, with timeouts and bounded retries."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import httpx
import numpy as np
import ollama
from numpy.typing import NDArray

from memlane.adapters.embedding.spaces import same_space
from memlane.domain.errors import EmbeddingDimensionMismatch, EmbeddingUnavailable
from memlane.domain.model import Vector
from memlane.ports.embedding import EmbeddingPort, EmbedKind

log = logging.getLogger(__name__)

DEFAULT_URL = "http://127.0.0.1:11434"
BATCH_SIZE = 64
# Overloaded or restarting servers answer with these; worth another try.
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_MAX_BACKOFF_MS = 5_000


class _Retryable(Exception):
    """One failed attempt that another attempt may fix; carries the final message."""


class OllamaEmbeddingAdapter(EmbeddingPort):
    """POST /api/embed in batches; every failure ends as EmbeddingUnavailable with a fix."""

    def __init__(
        self,
        model: str,
        dimension: int,
        url: str = DEFAULT_URL,
        timeout_ms: int = 30_000,
        max_retries: int = 2,
        backoff_ms: int = 200,
        batch_size: int = BATCH_SIZE,
        query_prefix: str = "",
        document_prefix: str = "",
    ) -> None:
        self._model = model
        self._dimension = dimension
        self._url = url
        self._timeout_ms = timeout_ms
        self._max_retries = max_retries
        self._backoff_ms = backoff_ms
        self._batch_size = batch_size
        # Some models are trained with task prefixes (nomic-embed-text: "search_query: ",
        # "search_document: "); MiniLM-style models need none.
        self._prefixes = {"query": query_prefix, "document": document_prefix}
        self._client: ollama.AsyncClient | None = None

    @property
    def model(self) -> str:
        return self._model

    @property
    def dimension(self) -> int:
        return self._dimension

    @property
    def same_space_models(self) -> frozenset[str]:
        return same_space(self.model)

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[Vector]:
        prefix = self._prefixes[kind]
        vectors: list[Vector] = []
        for start in range(0, len(texts), self._batch_size):
            chunk = [prefix + text for text in texts[start : start + self._batch_size]]
            vectors.extend(await self._embed_with_retries(chunk))
        return vectors

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.close()

    def _http(self) -> ollama.AsyncClient:
        # Created on first use, inside the running loop that will drive it.
        if self._client is None:
            self._client = ollama.AsyncClient(host=self._url, timeout=self._timeout_ms / 1000)
        return self._client

    async def _embed_with_retries(self, texts: list[str]) -> list[Vector]:
        attempt = 0
        while True:
            try:
                return await self._embed_once(texts)
            except _Retryable as exc:
                if attempt >= self._max_retries:
                    raise EmbeddingUnavailable(
                        f"{exc} (after {attempt + 1} attempts)"
                    ) from exc.__cause__
                delay_ms = min(self._backoff_ms * 2**attempt, _MAX_BACKOFF_MS)
                log.warning(
                    "ollama embed attempt %d failed (%s); retrying in %d ms",
                    attempt + 1,
                    exc,
                    delay_ms,
                )
                await asyncio.sleep(delay_ms / 1000)
                attempt += 1

    async def _embed_once(self, texts: list[str]) -> list[Vector]:
        try:
            # httpx times each phase; this bounds the whole request as well.
            async with asyncio.timeout(self._timeout_ms / 1000):
                response = await self._http().embed(model=self._model, input=texts)
        except (TimeoutError, httpx.TimeoutException) as exc:
            raise _Retryable(
                f"Ollama at {self._url} did not answer within {self._timeout_ms} ms; is the "
                f"model loading or the server overloaded? (memory.embedding.timeout_ms)"
            ) from exc
        except (ConnectionError, httpx.TransportError) as exc:
            raise _Retryable(
                f"cannot reach Ollama at {self._url}: is Ollama running at {self._url}?"
            ) from exc
        except ollama.ResponseError as exc:
            raise self._response_error(exc) from exc
        except Exception as exc:  # malformed JSON or a response of the wrong shape
            raise EmbeddingUnavailable(
                f"unexpected answer from Ollama at {self._url}: {type(exc).__name__}"
            ) from exc
        return self._check(response.embeddings, len(texts))

    def _response_error(self, exc: ollama.ResponseError) -> Exception:
        reason = str(exc.error)[:200]
        if exc.status_code == 404 or "not found" in reason.lower():
            return EmbeddingUnavailable(
                f"embedding model {self._model!r} is not available in Ollama at {self._url}: "
                f"run `ollama pull {self._model}`"
            )
        if exc.status_code in _RETRY_STATUSES:
            return _Retryable(f"Ollama at {self._url} answered {exc.status_code}: {reason}")
        return EmbeddingUnavailable(
            f"Ollama at {self._url} refused the embedding request ({exc.status_code}): {reason}"
        )

    def _check(self, embeddings: Sequence[Sequence[float]], expected: int) -> list[Vector]:
        if len(embeddings) != expected:
            raise EmbeddingUnavailable(
                f"Ollama returned {len(embeddings)} embeddings for {expected} texts"
            )
        if not embeddings:
            return []
        dimensions = {len(vector) for vector in embeddings}
        if dimensions != {self._dimension}:
            got = "/".join(str(d) for d in sorted(dimensions))
            raise EmbeddingDimensionMismatch(
                f"Ollama model {self._model!r} returns {got}-dimensional vectors but memlane is "
                f"configured for {self._dimension}; set memory.embedding.dimension to match and "
                "run `memlane reembed`, or choose a model of that dimension"
            )
        matrix: NDArray[np.float32] = np.asarray(embeddings, dtype=np.float32)
        # Ollama's vectors are usually unit length already; cosine search needs them to be.
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        normalised = np.ascontiguousarray(matrix / np.maximum(norms, 1e-12), dtype=np.float32)
        return list(normalised)
