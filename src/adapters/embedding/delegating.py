"""DelegatingEmbedder: an EmbeddingPort decorator base that hands every member to `inner`."""

from __future__ import annotations

from collections.abc import Sequence

from memlane.domain.model import Vector
from memlane.ports.embedding import EmbeddingPort, EmbedKind


class DelegatingEmbedder(EmbeddingPort):
    """A decorator overrides only what it changes (usually `embed`); what the port tells about
    the model beyond its vectors (name, size, token window, the models sharing its space) stays
    the inner model's, so a decorated embedder cuts, counts and compares text as the bare one."""

    def __init__(self, inner: EmbeddingPort) -> None:
        self._inner = inner

    @property
    def model(self) -> str:
        return self._inner.model

    @property
    def dimension(self) -> int:
        return self._inner.dimension

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[Vector]:
        return await self._inner.embed(texts, kind)

    @property
    def same_space_models(self) -> frozenset[str]:
        return self._inner.same_space_models

    @property
    def window_tokens(self) -> int | None:
        return self._inner.window_tokens

    async def count_tokens(
        self, texts: Sequence[str], kind: EmbedKind = "document"
    ) -> list[int] | None:
        return await self._inner.count_tokens(texts, kind)

    @property
    def texts_cut(self) -> int | None:
        return self._inner.texts_cut

    async def ready(self) -> bool:
        return await self._inner.ready()

    async def close(self) -> None:
        await self._inner.close()
