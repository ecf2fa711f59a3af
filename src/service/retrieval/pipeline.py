"""Retrieval as a pipeline: one request's state, the stage interface, and the runner."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar
from uuid import UUID

from memlane.domain.detail import Affect, Tier
from memlane.domain.model import (
    ContextRole,
    MemoryContext,
    Owner,
    ScoredMemory,
    StoredMemory,
    Vector,
)
from memlane.domain.retrieval import ContextOptions
from memlane.service.retrieval.candidates import Candidate, Expansion, Rankings

T = TypeVar("T")


def _none_excluded(conversation_id: str | None) -> bool:
    return False


@dataclass
class Retrieval:
    """What one search or context request carries from stage to stage.

    The request (owner, query, now, places, pool, options, min_similarity) is set by the
    caller; every other field is written by the stage named beside it and read by later ones.
    """

    owner: Owner
    query: str
    now: datetime
    places: int  # how many memories the result holds at most
    pool: int  # how many candidates each first-stage ranking contributes
    options: ContextOptions = field(default_factory=ContextOptions)
    min_similarity: float | None = None  # search only: a floor on every result's cosine
    current: bool | None = None  # search only: True holds, False replaced, None both
    char_budget: int | None = None  # prompt only: what the rendered block may use
    token_budget: int | None = None  # prompt only, by level of detail: its hard budget
    query_affect: Affect | None = None  # query_affect: the question's charge (resonance)
    vector: Vector | None = None  # rankings: the query's vector, centred (None: embedder down)
    asked_vector: Vector | None = None  # rankings: the query's embedding as the model gave it
    rankings: Rankings = field(default_factory=Rankings)  # rankings
    candidates: list[Candidate] = field(default_factory=list)  # fusion, then the filters
    named: frozenset[UUID] = frozenset()  # fusion: reached through a name in the query
    resumed: frozenset[UUID] = frozenset()  # focus: brought back from an earlier conversation
    excluded: Callable[[str | None], bool] = _none_excluded  # eligibility: current chat
    active: list[Vector] = field(default_factory=list)  # active context: texts in the prompt
    added: list[Candidate] = field(default_factory=list)  # neighbours, then joined
    expansion: Expansion = field(default_factory=Expansion)  # graph expansion
    relevances: dict[UUID, float] = field(default_factory=dict)  # selection's cache
    chosen: list[Candidate] = field(default_factory=list)  # selection
    # whose: rows it read in full (no index terms), which the context's Opening reuses
    prefetched: dict[UUID, StoredMemory] = field(default_factory=dict)
    opened: list[ScoredMemory] = field(default_factory=list)  # opening
    roles: dict[UUID, ContextRole] = field(default_factory=dict)  # eligibility, joins
    contexts: list[MemoryContext] = field(default_factory=list)  # contexts, budget
    profile: str = ""  # profile: the block's opening lines
    said: Mapping[UUID, frozenset[str]] = field(default_factory=dict)  # profile: its words
    text: str = ""  # rendering: the prompt block
    hints: dict[UUID, str] = field(default_factory=dict)  # budget: the hint lines shown
    levels: list[tuple[UUID, Tier]] = field(default_factory=list)  # level of detail
    finished: bool = False  # set by a stage when nothing can follow (no candidate left)
    _tasks: dict[str, asyncio.Task[Any]] = field(default_factory=dict)

    def named_in_question(self) -> frozenset[UUID]:
        """The chosen memories the question names: by its words, or a name matched (both
        renderings show them whole, first)."""
        return frozenset({c.id for c in self.chosen if c.lexical} | self.named)

    def finish(self) -> None:
        """Nothing is left to choose from: later stages are skipped."""
        self.finished = True

    def start(self, name: str, work: Coroutine[Any, Any, Any]) -> None:
        """Run `work` beside the stages that follow; `result(name)` waits for it."""
        self._tasks[name] = asyncio.create_task(work)

    def started(self, name: str) -> bool:
        return name in self._tasks

    async def result(self, name: str, default: T) -> T:
        """What the work started as `name` gave (`default` when no stage started it)."""
        task = self._tasks.get(name)
        if task is None:
            return default
        result: T = await task
        return result

    async def settle(self) -> None:
        """Cancel the work nobody waited for, and mark a failed one as seen (the error of
        the stage that stopped the pipeline is the one raised)."""
        for task in self._tasks.values():
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            elif not task.cancelled():
                task.exception()


class Stage(Protocol):
    """One step of a retrieval: reads some fields of the request's state, writes others."""

    async def __call__(self, retrieval: Retrieval, /) -> None: ...


class Pipeline:
    """Stages run in order; a stage may start work that later stages wait for, and may
    finish the retrieval early. Background work is settled in one place, here, after the
    `closing` stages (so one of them may wait for work started earlier). The closing stages
    run after the others whether or not they finished early (a prompt block with no
    memories still opens with the profile), not after a stage failed."""

    def __init__(self, stages: Sequence[Stage], closing: Sequence[Stage] = ()) -> None:
        self.stages = tuple(stages)
        self.closing = tuple(closing)

    async def run(self, retrieval: Retrieval) -> Retrieval:
        try:
            for stage in self.stages:
                if retrieval.finished:
                    break
                await stage(retrieval)
            for stage in self.closing:
                await stage(retrieval)
        finally:
            await retrieval.settle()
        return retrieval
