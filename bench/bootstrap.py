"""Paired bootstrap over questions: is the difference between two runs larger than the noise?

Both runs answered the same questions; resampling the questions (with replacement) and taking
the difference of the means on each resample gives the spread a difference this size would
have from the choice of questions alone. The 95 % interval is the 2.5th-97.5th percentile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

RESAMPLES = 10_000
SEED = 0


@dataclass(frozen=True, slots=True)
class Difference:
    """mean(b) - mean(a) over the paired questions and its 95 % bootstrap interval."""

    delta: float
    low: float
    high: float
    questions: int

    @property
    def significant(self) -> bool:
        """The interval leaves out zero."""
        return self.low > 0 or self.high < 0


def paired_bootstrap(
    a: Sequence[float], b: Sequence[float], *, resamples: int = RESAMPLES, seed: int = SEED
) -> Difference:
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    if not a:
        return Difference(0.0, 0.0, 0.0, 0)
    diffs = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    rng = np.random.default_rng(seed)
    # Resampled in chunks so that 10,000 x 1,000 questions never sits in memory at once.
    means: list[np.ndarray] = []
    for start in range(0, resamples, 1_000):
        rows = min(1_000, resamples - start)
        picks = rng.integers(0, len(diffs), size=(rows, len(diffs)))
        means.append(diffs[picks].mean(axis=1))
    spread = np.concatenate(means)
    low, high = np.percentile(spread, [2.5, 97.5])
    return Difference(float(diffs.mean()), float(low), float(high), len(diffs))


def paired_values(
    before: Mapping[str, float | None], after: Mapping[str, float | None]
) -> tuple[list[float], list[float]]:
    """The values of the questions both runs scored (by question id), in one order."""
    first: list[float] = []
    second: list[float] = []
    for question, value in sorted(before.items()):
        other = after.get(question)
        if value is not None and other is not None:
            first.append(value)
            second.append(other)
    return first, second
