"""Centring the question: the mean document vector, built once, taken out of each question."""

from __future__ import annotations

import logging

from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.model import Vector
from memlane.domain.retrieval import CENTRE_TEXTS, centred, mean_vector
from memlane.ports.embedding import EmbeddingPort

log = logging.getLogger(__name__)


class QuestionCentring:
    """A question's vector less `weight` times the model's mean document vector, from
    `CENTRE_TEXTS` embedded once (again later if the embedder was down: the question is
    then compared as embedded). docs/recall.md, "Centring the question"."""

    def __init__(self, embedder: EmbeddingPort, weight: float) -> None:
        self._embedder = embedder
        self._weight = weight
        self._centre: tuple[float, ...] | None = None

    async def __call__(self, question: Vector) -> Vector:
        centre = await self.centre()
        return question if centre is None else centred(question, centre, self._weight)

    async def centre(self) -> tuple[float, ...] | None:
        """The mean document vector of `CENTRE_TEXTS` (None while the embedder is down).
        No lock, as for the language axis: two first questions at once build the same
        centre."""
        if self._centre is None:
            try:
                texts = await self._embedder.embed(list(CENTRE_TEXTS))
            except EmbeddingUnavailable as error:
                log.warning("centre not built, questions compared as embedded: %s", error)
                return None
            self._centre = mean_vector(texts)
        return self._centre
