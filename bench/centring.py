"""Questions centred as the service centres them, for the benches that measure cosine lines."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from memlane.domain.model import Vector
from memlane.domain.retrieval import centred
from memlane.domain.similarity import scale_of
from memlane.ports.embedding import EmbeddingPort
from memlane.service.retrieval import QuestionCentring


async def centre_of(embedder: EmbeddingPort) -> np.ndarray:
    """The service's centre (the mean document vector of `CENTRE_TEXTS`), built by its own
    code with `embedder`."""
    centre = await QuestionCentring(embedder, 1.0).centre()
    if centre is None:
        raise RuntimeError("the embedder is down: no centre")
    return np.asarray(centre)


async def centring_of(
    embedder: EmbeddingPort, model: str
) -> Callable[[Sequence[Vector]], np.ndarray]:
    """A function that centres question vectors by `model`'s share (domain/similarity.py),
    with the centre built as the service builds it."""
    weight = scale_of(model).query_centring
    centre = tuple(await centre_of(embedder)) if weight else None

    def centre_all(questions: Sequence[Vector]) -> np.ndarray:
        if centre is None:
            return np.asarray(questions)
        return np.asarray([centred(q, centre, weight) for q in questions])

    return centre_all
