"""The traits a memory stored before they were kept is given by the upgrade's backfill."""

from __future__ import annotations

from typing import Any

import pytest

from memlane.domain.detail import Provenance
from memlane.service.security.tier_sealing import traits_when_unknown


@pytest.mark.parametrize(("metadata", "provenance", "confidence"), [
    ({}, Provenance.STATED, 1.0),
    ({"segment": 3, "roles": ["user", "assistant"]}, Provenance.EXTRACTED, 0.8),
    ({"speaker": "Ana"}, Provenance.EXTRACTED, 0.8),
    ({"segment": 4, "roles": ["assistant"]}, Provenance.REPLIED, 0.5),
    ({"segment": 5, "roles": ["system", "assistant"]}, Provenance.REPLIED, 0.5),
])
def test_provenance_follows_whose_words_a_memory_holds(
    metadata: dict[str, Any], provenance: Provenance, confidence: float
) -> None:
    traits = traits_when_unknown("We talked about the weather.", metadata)
    assert (traits.provenance, traits.confidence) == (provenance, confidence)
