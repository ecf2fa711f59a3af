"""The `[memory.extraction]` settings: the optional model that reads fired segments, and the
older `[facts]` names for it, still read."""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from memlane.domain.errors import ConfigurationError
from memlane.ports.facts import ExtractionProvider

log = logging.getLogger(__name__)

# The `[facts]` settings that named the model before `[memory.extraction]`, and their names
# there. Still read (a deprecation warning at start); a clash with the new name is refused.
LEGACY_FACT_SETTINGS = {
    "extractor": "provider", "ollama_url": "url", "model": "model", "timeout_ms": "timeout_ms",
}


class ExtractionSettings(BaseModel):
    """Who reads a segment the heuristic gate fired on, beyond the patterns (docs/levels.md).
    "heuristic": nobody, no model. "ollama": a local chat model asked after the write, for a
    graph patch and facts; the heuristics' result stands whenever it fails."""

    model_config = ConfigDict(extra="forbid")

    provider: ExtractionProvider = ExtractionProvider.HEURISTIC
    model: str = Field("llama3.2", min_length=1)
    url: str = "http://127.0.0.1:11434"
    # The longest the model may take for one segment; then the heuristics' result stands.
    timeout_ms: int = Field(3_000, ge=1, le=600_000)


def with_legacy(extraction: ExtractionSettings, legacy: dict[str, Any]) -> ExtractionSettings:
    """`extraction` with the older `[facts]` values (by their old names, None: not set) for
    what it does not set itself; ConfigurationError when both set a value and disagree."""
    given = {LEGACY_FACT_SETTINGS[old]: value for old, value in legacy.items()
             if value is not None}
    if not given:
        return extraction
    for old, new in LEGACY_FACT_SETTINGS.items():
        if new in given and new in extraction.model_fields_set \
                and getattr(extraction, new) != given[new]:
            raise ConfigurationError(
                f"setting facts.{old} disagrees with memory.extraction.{new}: "
                f"set memory.extraction.{new} only (facts.{old} is its older name)")
    olds = ", ".join(f"facts.{old}" for old, new in LEGACY_FACT_SETTINGS.items() if new in given)
    log.warning("%s: older names, read as memory.extraction.* (docs/levels.md)", olds)
    kept = {k: v for k, v in given.items() if k not in extraction.model_fields_set}
    return ExtractionSettings.model_validate({**extraction.model_dump(), **kept})
