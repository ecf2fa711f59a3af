"""Causal links between adjacent segments, from cue words (EN, DE), no LLM."""

from __future__ import annotations

import re

# Cues that open a sentence explaining or following from what came just before.
CAUSAL_CUES: tuple[str, ...] = (
    "because", "since then", "so", "therefore", "that's why", "that is why", "as a result",
    "which is why", "due to that", "consequently", "hence",
    "weil", "deshalb", "daher", "darum", "deswegen", "folglich", "also habe", "also bin",
    "aus diesem grund", "dadurch",
)
CAUSAL_WEIGHT = 0.7
_CUE = re.compile(
    r"(?:^|[.!?]\s+|\n(?:user|assistant)[^:\n]*:\s*)(?:"
    + "|".join(re.escape(c) for c in sorted(CAUSAL_CUES, key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)


def follows_causally(later_text: str) -> bool:
    """Whether a segment opens (or opens a sentence) with a causal cue: it explains or
    follows from the segment before it."""
    text = later_text.strip()
    text = re.sub(r"^(?:user|assistant)[^:\n]*:\s*", "", text, flags=re.IGNORECASE)
    return bool(_CUE.search(text))
