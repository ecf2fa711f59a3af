"""The inspector's statistics: counts, forgetting curves per type, the embedding gap."""

from __future__ import annotations

from typing import Any

from litestar import Controller, Response, get
from litestar.di import NamedDependency, Provide

from memlane.api.deps import MEMORIES, Memories
from memlane.api.ui.plots import count_bars, forgetting_curves, waiting_for_embedding
from memlane.api.ui.rendering import page
from memlane.api.ui.session import UI_PATH, UiSession, current_session
from memlane.domain.model import Cursor, Memory, MemoryFilter
from memlane.ports.clock import system_clock

DOT_PAGES, DOT_PAGE_SIZE = 3, 200  # the newest 600 memories are plotted as dots


class StatsPageController(Controller):
    """/ui/stats for the signed-in key's user."""

    path = f"{UI_PATH}/stats"
    include_in_schema = False
    dependencies = {"memories": MEMORIES, "session": Provide(current_session)}

    @get("/")
    async def stats(
        self, memories: Memories, session: NamedDependency[UiSession]
    ) -> Response[Any]:
        stats = await memories.stats(session.owner)
        plotted: list[Memory] = []
        cursor: Cursor | None = None
        for _ in range(DOT_PAGES):
            listed = await memories.list(session.owner, MemoryFilter(), cursor, DOT_PAGE_SIZE)
            plotted.extend(listed.items)
            cursor = listed.next_cursor
            if cursor is None:
                break
        policy = memories.policy
        return page(
            "stats.html", session, stats=stats, waiting=waiting_for_embedding(stats),
            curves=forgetting_curves(policy.base_rate, system_clock(), plotted),
            bars=count_bars(stats), decay_factor=policy.decay_factor,
            plotted=len(plotted), more=cursor is not None,
        )
