"""The prompt block by level of detail, within a hard token budget counted with the
embedder's own tokenizer: focus in full, overlapping and one-hop memories as abstracts,
what lies further out as counts (RMG decisions 5 and 9, Chvor's tiers)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from uuid import UUID

from memlane.domain.detail import Tier
from memlane.domain.model import MemoryContext
from memlane.domain.policy import DetailTuning
from memlane.domain.retrieval import (
    PREAMBLE,
    RELATED_HEADER,
    ContextOrder,
    FocusLine,
    Layers,
    by_type_priority,
    counted,
    fit_levels,
    in_order,
    is_hint,
    render_line,
    render_timeline_line,
)
from memlane.ports.embedding import EmbeddingPort
from memlane.service.retrieval.pipeline import Retrieval
from memlane.service.retrieval.surroundings import Surrounding, Surroundings
from memlane.service.security import tiers_of


class LevelOfDetail:
    """Reads `contexts`, `opened`, `chosen`, `named`, `profile` and `token_budget`; writes
    `text`, `contexts` (the memories the block shows) and `levels` (each one's tier). A
    memory the question names (its words or a name matched) is raised to full detail
    first; one that only overlaps (reached by meaning through a link, or next to a hit)
    is a hint line; the graph around the focus adds hints one hop out and counts beyond."""

    def __init__(
        self, embedder: EmbeddingPort, tuning: DetailTuning, around: Surrounding | None
    ) -> None:
        self._embedder = embedder
        self._tuning = tuning
        self._around = around

    async def __call__(self, r: Retrieval) -> None:
        if r.token_budget is None:
            return
        order = r.options.order
        line = render_timeline_line if order is ContextOrder.TIMELINE else render_line
        named = r.named_in_question()
        focus = by_type_priority([c for c in r.contexts if not is_hint(c, named)])
        hints = [c for c in r.contexts if is_hint(c, named)]
        near = await self._surroundings(r, focus, hints)
        tiers = {s.memory.id: tiers_of(s.memory) for s in r.opened}
        layers = Layers(
            fixed=[*(r.profile.split("\n") if r.profile else ()), PREAMBLE],
            focus=[FocusLine(c.id, {
                tier: line(replace(c, content=tiers[c.id].text(tier, c.content)))
                for tier in Tier
            }, c.id in named) for c in focus if c.id in tiers],
            hints=[(c.id, line(replace(c, content=tiers[c.id].abstract)))
                   for c in hints if c.id in tiers]
            + [(n.id, f"- [{n.memory_type.value}] {n.abstract}") for n in near.near],
            counts=counted(near.further),
        )
        cost, overhead = await self._costs(layers)
        fitted = fit_levels(layers, cost, overhead, r.token_budget)
        shown = [c for c in in_order(focus, order) if c.id in fitted.tiers]
        by_focus = {f.id: f for f in layers.focus}
        by_hint = dict(layers.hints)
        entries: list[tuple[str, UUID | None, Tier | None]] = [
            *((line, None, None) for line in fitted.fixed),
            *((by_focus[c.id].lines[fitted.tiers[c.id]], c.id, fitted.tiers[c.id])
              for c in shown),
            *([(RELATED_HEADER, None, None)] if fitted.hints or fitted.counts else []),
            *((by_hint[memory_id], memory_id, Tier.L0) for memory_id in fitted.hints),
            *((line, None, None) for line in fitted.counts),
        ]
        if not (fitted.tiers or fitted.hints or fitted.counts):  # no memory: no preamble
            entries = [e for e in entries if e[0] != PREAMBLE]
        kept = entries[:await self._within([e[0] for e in entries], r.token_budget)]
        r.text = "\n".join(e[0] for e in kept)
        r.levels = [(memory_id, tier) for _, memory_id, tier in kept
                    if memory_id is not None and tier is not None]
        levels = dict(r.levels)  # one-hop neighbours are shown (expandable), not returned
        r.contexts = [c for c in [*shown, *hints] if c.id in levels]

    async def _costs(self, layers: Layers) -> tuple[Callable[[str], int], int]:
        """Each line's tokens (one tokenizer call for all), and the tokens of any text."""
        texts = list(dict.fromkeys([
            "", RELATED_HEADER, *layers.fixed, *(t for f in layers.focus for t in f.lines.values()),
            *(line for _, line in layers.hints), *layers.counts,
        ]))
        counts = await self._embedder.count_tokens(texts)
        if counts is None:  # a backend that cannot count: a conservative estimate
            return estimated_tokens, 0
        overhead = counts[0]
        table = {t: max(0, n - overhead) for t, n in zip(texts, counts, strict=True)}
        return (lambda line: table[line] if line in table else estimated_tokens(line)), overhead

    async def _within(self, lines: list[str], token_budget: int) -> int:
        """How many of the lines to keep so that the tokenizer, counting their whole block,
        finds it within budget: lines dropped from the end while it is over (the per-line
        sum is exact for word-piece tokenizers; this holds the budget for any)."""
        kept = len(lines)
        while kept:
            counts = await self._embedder.count_tokens(["\n".join(lines[:kept])])
            if counts is None or counts[0] <= token_budget:
                break
            kept -= 1
        return kept

    async def _surroundings(
        self, r: Retrieval, focus: Sequence[MemoryContext], hints: Sequence[MemoryContext]
    ) -> Surroundings:
        if self._around is None or not focus or not self._tuning.neighbour_lines:
            return Surroundings()
        return await self._around.around(
            r.owner, [c.id for c in focus], [c.id for c in hints],
            self._tuning.neighbour_lines, r.now,
        )


def estimated_tokens(line: str) -> int:
    """Without the embedder's tokenizer: one token per two characters, which word-piece and
    sentence-piece tokenizers stay under for text in Latin script."""
    return (len(line) + 1) // 2
