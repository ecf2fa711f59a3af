"""Choosing memories for a question: relevance scoring and the rendered context block."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.domain.retrieval.context import (
        ACTIVE_CONTEXT_SIMILARITY as ACTIVE_CONTEXT_SIMILARITY,
        DEFAULT_CONTEXT_CHAR_BUDGET as DEFAULT_CONTEXT_CHAR_BUDGET,
        MAX_ACTIVE_CONTEXT as MAX_ACTIVE_CONTEXT,
        ContextOptions as ContextOptions,
        ContextOrder as ContextOrder,
        fit_to_budget as fit_to_budget,
        in_order as in_order,
        render_context as render_context,
    )
    from memlane.domain.retrieval.scoring import (
        RelevanceWeights as RelevanceWeights,
        relevance as relevance,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "ACTIVE_CONTEXT_SIMILARITY": "context",
    "ContextOptions": "context",
    "ContextOrder": "context",
    "DEFAULT_CONTEXT_CHAR_BUDGET": "context",
    "MAX_ACTIVE_CONTEXT": "context",
    "RelevanceWeights": "scoring",
    "fit_to_budget": "context",
    "in_order": "context",
    "relevance": "scoring",
    "render_context": "context",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
