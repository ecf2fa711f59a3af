"""Demotion: a superseded memory scores lower, and below its replacement when both are found."""

from __future__ import annotations

from collections.abc import Mapping
from uuid import UUID

# A superseded memory keeps this share of its fused score: still found (and shown, marked)
# when nothing newer is, but behind what still holds.
SUPERSEDED_SHARE = 0.5
# ... and at most this share of the score of the memory that replaced it, when that one is
# among the results too: strictly below it, whatever their raw scores.
BELOW_REPLACEMENT = 0.99


def demoted(
    scores: Mapping[UUID, float], replaced_by: Mapping[UUID, UUID | None]
) -> dict[UUID, float]:
    """The scores with every superseded memory demoted. `scores`: the fused score of each
    memory found; `replaced_by`: each superseded one (the others are absent) and the memory
    that replaced it, None when no memory did (a fact stated directly ended it).

    Along a chain (Lisbon -> Porto -> Berlin) each is capped below its replacement's final
    score, so the order follows the chain; a replacement not found caps nothing."""
    final: dict[UUID, float] = {}

    def settle(memory_id: UUID, seen: frozenset[UUID]) -> float:
        if memory_id in final:
            return final[memory_id]
        score = scores[memory_id]
        if memory_id in replaced_by:
            score *= SUPERSEDED_SHARE
            newer = replaced_by[memory_id]
            if newer is not None and newer in scores and newer not in seen:
                score = min(score, settle(newer, seen | {memory_id}) * BELOW_REPLACEMENT)
        final[memory_id] = score
        return score

    for memory_id in scores:
        settle(memory_id, frozenset())
    return final
