"""Choosing memories for a question: relevance scoring and the rendered context block."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.domain.retrieval.addressed import asks_about_replies as asks_about_replies
    from memlane.domain.retrieval.centring import (
        CENTRE_TEXTS as CENTRE_TEXTS,
        centred as centred,
        mean_vector as mean_vector,
    )
    from memlane.domain.retrieval.context import (
        DEFAULT_CONTEXT_CHAR_BUDGET as DEFAULT_CONTEXT_CHAR_BUDGET,
        MAX_ACTIVE_CONTEXT as MAX_ACTIVE_CONTEXT,
        PREAMBLE as PREAMBLE,
        ContextOptions as ContextOptions,
        ContextOrder as ContextOrder,
        by_type_priority as by_type_priority,
        fit_to_budget as fit_to_budget,
        in_order as in_order,
        render_context as render_context,
        render_line as render_line,
        render_timeline_line as render_timeline_line,
    )
    from memlane.domain.retrieval.demotion import (
        demoted as demoted,
    )
    from memlane.domain.retrieval.detail import (
        RELATED_HEADER as RELATED_HEADER,
        FocusLine as FocusLine,
        Layers as Layers,
        counted as counted,
        fit_levels as fit_levels,
    )
    from memlane.domain.retrieval.focus import (
        FocusQuery as FocusQuery,
        FocusView as FocusView,
        focus_factor as focus_factor,
        resumed_match as resumed_match,
    )
    from memlane.domain.retrieval.language import (
        PARALLEL as PARALLEL,
        LanguageAxis as LanguageAxis,
        language_axis as language_axis,
    )
    from memlane.domain.retrieval.plain import (
        PlainBlock as PlainBlock,
        fit_plain as fit_plain,
        is_hint as is_hint,
        render_plain as render_plain,
    )
    from memlane.domain.retrieval.scoring import (
        RelevanceWeights as RelevanceWeights,
        relevance as relevance,
        reply_share as reply_share,
    )
    from memlane.domain.retrieval.when import (
        Window as Window,
        pointed_window as pointed_window,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "CENTRE_TEXTS": "centring",
    "ContextOptions": "context",
    "ContextOrder": "context",
    "DEFAULT_CONTEXT_CHAR_BUDGET": "context",
    "FocusLine": "detail",
    "FocusQuery": "focus",
    "FocusView": "focus",
    "LanguageAxis": "language",
    "Layers": "detail",
    "MAX_ACTIVE_CONTEXT": "context",
    "PARALLEL": "language",
    "PREAMBLE": "context",
    "PlainBlock": "plain",
    "Window": "when",
    "RELATED_HEADER": "detail",
    "RelevanceWeights": "scoring",
    "asks_about_replies": "addressed",
    "by_type_priority": "context",
    "centred": "centring",
    "counted": "detail",
    "demoted": "demotion",
    "fit_levels": "detail",
    "fit_plain": "plain",
    "fit_to_budget": "context",
    "focus_factor": "focus",
    "in_order": "context",
    "is_hint": "plain",
    "language_axis": "language",
    "mean_vector": "centring",
    "pointed_window": "when",
    "relevance": "scoring",
    "reply_share": "scoring",
    "render_context": "context",
    "render_line": "context",
    "render_plain": "plain",
    "render_timeline_line": "context",
    "resumed_match": "focus",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
