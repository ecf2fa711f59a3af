"""The lexical search's budget: its setting's default is the adapter's, and nonsense is refused."""

from __future__ import annotations

import pytest

from memlane.adapters.postgres.memories.lexical_reading import LexicalReading
from memlane.settings import RecallSettings


def test_the_settings_default_is_the_adapters() -> None:
    assert RecallSettings().lexical_checks == LexicalReading().checks


def test_a_budget_of_no_checks_is_refused_by_the_settings_and_the_adapter() -> None:
    with pytest.raises(ValueError, match="lexical_checks"):
        RecallSettings(lexical_checks=0)
    with pytest.raises(ValueError, match="at least one"):
        LexicalReading(checks=0)
