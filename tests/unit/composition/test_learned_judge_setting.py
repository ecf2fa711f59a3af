"""`graph.supersession_judge` chooses the judge: the rules alone by default, the learned judge
with its shipped weights when set to "learned" (the composition root loads them)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memlane.adapters.supersession.weights import shipped_judge
from memlane.composition.resources import policy
from memlane.settings import Settings


@pytest.fixture(autouse=True)
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No config.toml and no MEMLANE_* variables."""
    monkeypatch.chdir(tmp_path)
    for name in [n for n in os.environ if n.startswith("MEMLANE_")]:
        monkeypatch.delenv(name)


def test_the_rules_decide_alone_by_default() -> None:
    assert Settings().graph.supersession_judge == "rules"
    assert policy(Settings()).graph.learned_judge is None


def test_learned_loads_the_shipped_weights_into_the_graph_tuning() -> None:
    tuned = policy(Settings(graph={"supersession_judge": "learned"})).graph
    assert tuned.learned_judge == shipped_judge()
    assert tuned.supersession_band == policy(Settings()).graph.supersession_band


def test_another_judge_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="supersession_judge"):
        Settings(graph={"supersession_judge": "llm"})
