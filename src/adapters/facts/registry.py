"""The model probes by provider: the composition root opens the configured one, if any.

A new probe is one member of `ExtractionProvider` (ports/facts/probe.py, which settings
validate against), one adapter module and one line in PROBES.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from memlane.adapters.facts.ollama_probe import OllamaProbe
from memlane.domain.errors import ConfigurationError
from memlane.ports.facts import ExtractionProvider, ProbePort


class ProbeConfig(Protocol):
    """What a probe factory reads (the `[memory.extraction]` settings section)."""

    @property
    def model(self) -> str: ...
    @property
    def url(self) -> str: ...
    @property
    def timeout_ms(self) -> int: ...


# None: no model; the heuristics alone read every segment.
ProbeFactory = Callable[[ProbeConfig], ProbePort | None]


def _heuristic(config: ProbeConfig) -> ProbePort | None:
    return None


def _ollama(config: ProbeConfig) -> ProbePort | None:
    return OllamaProbe(config.model, config.url, config.timeout_ms)


PROBES: dict[ExtractionProvider, ProbeFactory] = {
    ExtractionProvider.HEURISTIC: _heuristic,
    ExtractionProvider.OLLAMA: _ollama,
}


def open_probe(provider: ExtractionProvider, config: ProbeConfig) -> ProbePort | None:
    """The configured probe, None for the heuristics (ConfigurationError naming the known
    providers for another name)."""
    factory = PROBES.get(provider)
    if factory is None:
        known = ", ".join(PROBES)
        raise ConfigurationError(f"unknown extraction provider {provider!r}; use one of {known}")
    return factory(config)
