"""VaderAffectAdapter: valence and arousal from VADER (vaderSentiment, MIT), no model.

VADER scores words from a lexicon of ~7,500 English entries (words, slang, emoticons and
emoji) rated by ten people each, with rules for negation, degree words ("extremely"),
capitals and exclamation marks. Its compound score is the valence. VADER has no arousal
dimension: memlane takes its intensity, the share of the text VADER reads as charged (its
positive plus negative proportion, which its emphasis rules raise), as the arousal.
German: VADER's lexicon is English; it reads the emoji, emoticons and the few loanwords a
German text shares with it (docs/levels.md measures the coverage)."""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import version

from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

from memlane.domain.detail import Affect
from memlane.ports.affect import AffectPort

# Longer texts are read in their first characters only: VADER's cost grows with the text
# and a memory's charge is set by what it opens with (a 5,000-character part in ~1 ms).
MAX_CHARS = 2_000


class VaderAffectAdapter(AffectPort):
    def __init__(self) -> None:
        self._analyzer = SentimentIntensityAnalyzer()

    @property
    def lexicon(self) -> str:
        return f"vaderSentiment {version('vaderSentiment')}"

    def affect(self, texts: Sequence[str]) -> list[Affect]:
        return [self._one(text[:MAX_CHARS]) for text in texts]

    def _one(self, text: str) -> Affect:
        scores = self._analyzer.polarity_scores(text)
        valence = max(-1.0, min(1.0, float(scores["compound"])))
        arousal = max(0.0, min(1.0, float(scores["pos"]) + float(scores["neg"])))
        return Affect(round(valence, 4), round(arousal, 4))
