"""The direction every text shares, taken out of a question before it is compared.

An e5-style model puts all its vectors in a narrow cone (multilingual-e5-small: any question
and any memory score 0.73-0.87), so how close a memory lies to the cone's axis counts for as
much as what it says. A memory near that axis, a short generic turn ("Can you share the
sources?", "Please continue"), is then near every question and comes first for questions it
does not answer. Taking a share of the mean document vector out of the question before the
search (centring, the common remedy for such "hub" vectors) ranks memories by what this
question asks: cos(m, q - w*c) orders the memories as m.q - w*(m.c) does, so a memory loses
exactly as much as it lies along the common direction. The mean is taken over
`CENTRE_TEXTS`, everyday statements and questions in English and German in equal parts (the
language axis' parallel sentences: no language is favoured), embedded as documents; none is
taken from a benchmark (docs/recall.md, "Centring the question").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from memlane.domain.model import Vector
from memlane.domain.retrieval.language import PARALLEL

CENTRE_TEXTS: tuple[str, ...] = tuple(text for pair in zip(*PARALLEL, strict=True) for text in pair)


def mean_vector(vectors: Sequence[Vector]) -> tuple[float, ...]:
    """The mean of the vectors (not normalised: its length is part of it)."""
    if not vectors:
        raise ValueError("the centre needs at least one vector")
    count = len(vectors)
    return tuple(math.fsum(column) / count for column in zip(*vectors, strict=True))


def centred(question: Vector, centre: Sequence[float], weight: float) -> Vector:
    """The question less `weight` times the centre, as a unit vector; the question as it is
    when the weight is 0, the sizes differ, or nothing would be left."""
    if weight == 0 or len(question) != len(centre):
        return question
    moved = [q - weight * c for q, c in zip(question, centre, strict=True)]
    norm = math.sqrt(math.fsum(x * x for x in moved))
    if norm == 0:
        return question
    return [x / norm for x in moved]
