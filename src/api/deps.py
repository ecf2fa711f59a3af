"""What the API needs from the composition root, and how handlers receive it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from litestar.datastructures import State

from memlane.service.keys import KeyService
from memlane.service.memory_service import MemoryService
from memlane.service.worker import DecayWorker

Readiness = Callable[[], Awaitable[dict[str, bool]]]


@dataclass(slots=True)
class ApiServices:
    """Live services for the app's lifetime; `readiness` reports database and embedder."""

    service: MemoryService
    keys: KeyService
    readiness: Readiness
    worker: DecayWorker | None = None


def provide_services(state: State) -> ApiServices:
    """Handlers get the services the lifespan stored on the app state."""
    services: ApiServices = state.services
    return services
