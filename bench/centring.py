"""Questions centred as the service centres them, for the benches that measure cosine lines."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from memlane.domain.model import Vector
from memlane.domain.retrieval import CENTRE_TEXTS, centred, mean_vector
from memlane.domain.similarity import scale_of
from memlane.ports.embedding import EmbeddingPort


async def centring_of(
    embedder: EmbeddingPort, model: str
) -> Callable[[Sequence[Vector]], np.ndarray]:
    """A function that centres question vectors by `model`'s share (domain/similarity.py),
    with the centre built from `CENTRE_TEXTS` by `embedder`, as the service builds it."""
    weight = scale_of(model).query_centring
    centre = mean_vector(await embedder.embed(list(CENTRE_TEXTS))) if weight else None

    def centre_all(questions: Sequence[Vector]) -> np.ndarray:
        if centre is None:
            return np.asarray(questions)
        return np.asarray([centred(q, centre, weight) for q in questions])

    return centre_all
