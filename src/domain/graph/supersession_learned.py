"""The learned judge of supersession: a small logistic model of "same slot, new value"."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memlane.domain.graph import supersession_lexicon as lexicon
from memlane.domain.graph.supersession_reading import SELF, Reading
from memlane.domain.graph.supersession_topic import (
    flips,
    holders_agree,
    same_topic,
    shared_words,
)

# What the model sees of one (new statement, older candidate) pair: the cosine of the two and
# where it stands among the candidates, whether the candidate is the chain's head, and the
# structural reading of both (holder, slots, polarity, tense, change language). No word of
# any statement is a feature, so the weights cannot learn the bench's sentences by heart.
FEATURES = (
    "cosine", "cosine_gap", "nearest", "head", "holders_agree", "same_topic", "flips",
    "new_cued", "old_cued", "asserted_differs", "shared_single_slots", "shared_other_slots",
    "shared_strong_slots", "shared_words", "shared_names", "shared_shapes", "new_slotless",
    "old_slotless", "slots_disjoint", "new_negative", "old_negative", "new_refines",
    "old_refers", "new_third_person", "old_third_person", "new_self", "old_self", "fact",
    "new_again", "number_only",
)


class InvalidJudgeWeights(ValueError):
    """Weights that do not fit the features the judge computes."""


@dataclass(frozen=True, slots=True)
class LearnedJudge:
    """Logistic weights over standardised features, and the probability from which the
    judge replaces a candidate the rules left undecided (bench/supersession_judge.py)."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coefficients: tuple[float, ...]
    intercept: float
    threshold: float

    def __post_init__(self) -> None:
        unknown = set(self.features) - set(FEATURES)
        if unknown:
            raise InvalidJudgeWeights(f"unknown features: {sorted(unknown)}")
        sizes = {len(self.features), len(self.mean), len(self.scale), len(self.coefficients)}
        if len(sizes) != 1:
            raise InvalidJudgeWeights("features, mean, scale and coefficients differ in length")
        if any(s <= 0 for s in self.scale) or not 0.0 < self.threshold <= 1.0:
            raise InvalidJudgeWeights("scales must be positive and the threshold in (0, 1]")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> LearnedJudge:
        """From the weights file's parsed content (the adapter reads the file)."""
        try:
            return cls(
                tuple(data["features"]), tuple(map(float, data["mean"])),
                tuple(map(float, data["scale"])), tuple(map(float, data["coefficients"])),
                float(data["intercept"]), float(data["threshold"]),
            )
        except (KeyError, TypeError) as error:
            raise InvalidJudgeWeights(f"malformed weights: {error}") from error

    def probability(self, values: Mapping[str, float]) -> float:
        """How likely the pair is "same slot, new value"."""
        z = self.intercept + sum(
            w * (values[name] - m) / s
            for name, m, s, w in zip(self.features, self.mean, self.scale, self.coefficients,
                                     strict=True)
        )
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


@dataclass(frozen=True, slots=True)
class PairContext:
    """Where a candidate stands among the others, and what the rules read of the pair."""

    cosine: float
    best_cosine: float
    head: bool
    new_cued: bool
    old_cued: bool
    fact: bool


def pair_features(new: Reading, old: Reading, context: PairContext) -> dict[str, float]:
    """The features of one pair, by name (FEATURES)."""
    shared = new.slots & old.slots
    single = len(shared & lexicon.SINGLE_VALUED_SLOTS)
    flags = {
        "nearest": context.cosine >= context.best_cosine, "head": context.head,
        "holders_agree": holders_agree(new, old),
        "same_topic": same_topic(new, old, context.old_cued), "flips": flips(new, old),
        "new_cued": context.new_cued, "old_cued": context.old_cued,
        "asserted_differs": new.asserted != old.asserted,
        "new_slotless": not new.slots, "old_slotless": not old.slots,
        "slots_disjoint": bool(new.slots and old.slots and not shared),
        "new_negative": new.negative, "old_negative": old.negative,
        "new_refines": new.refines, "old_refers": old.refers,
        "new_third_person": new.third_person, "old_third_person": old.third_person,
        "new_self": new.holder == SELF, "old_self": old.holder == SELF, "fact": context.fact,
        "new_again": new.again, "number_only": new.number_only,
    }
    counts = {
        "cosine": context.cosine, "cosine_gap": context.cosine - context.best_cosine,
        "shared_single_slots": min(single, 2), "shared_other_slots": min(len(shared) - single, 3),
        "shared_strong_slots": min(len(new.strong_slots & old.strong_slots), 3),
        "shared_words": min(len(shared_words(new, old)), 4),
        "shared_names": min(len(new.names & old.names), 2),
        "shared_shapes": min(len(new.shapes & old.shapes), 2),
    }
    return {**{k: float(v) for k, v in flags.items()}, **{k: float(v) for k, v in counts.items()}}
