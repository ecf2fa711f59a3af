"""Reads the learned supersession judge's weights shipped in the package (no other I/O)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from memlane.domain.graph import LearnedJudge

# Trained by bench/supersession_judge.py on the tuning half of memlane's own scenarios; its
# "provenance" field says from what.
WEIGHTS = "judge_weights.json"


@cache
def shipped_judge() -> LearnedJudge:
    """The judge from the weights file this package ships (read once per process)."""
    text = resources.files(__package__).joinpath(WEIGHTS).read_text(encoding="utf-8")
    return LearnedJudge.from_mapping(json.loads(text))
