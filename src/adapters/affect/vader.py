"""VaderAffectAdapter: valence and arousal from VADER (vaderSentiment, MIT), no model.

VADER scores words from a lexicon of ~7,500 English entries (words, slang, emoticons and
emoji) rated by ten people each, with rules for negation, degree words ("extremely"),
capitals and exclamation marks. Its compound score is the valence. VADER has no arousal
dimension: memlane takes its intensity, the share of the text VADER reads as charged (its
positive plus negative proportion, which its emphasis rules raise), as the arousal.
German: VADER's lexicon is English, and German function words are English entries with a
charge ("die", "war" read as negative): "Die Hochzeit war wunderschön" scores -0.83. A text
that reads as German (its share of German function words) is therefore not read: its affect
is unknown (docs/levels.md measures it)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from importlib.metadata import version

from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

from memlane.domain.detail import Affect
from memlane.ports.affect import AffectPort

# Longer texts are read in their first characters only: VADER's cost grows with the text
# and a memory's charge is set by what it opens with (a 5,000-character part in ~1 ms).
MAX_CHARS = 2_000
# Words frequent in German and rare in English; a text with this share of them is German.
GERMAN_WORDS = frozenset({
    "der", "die", "das", "und", "ist", "nicht", "ich", "wir", "mit", "ein", "eine", "auf",
    "den", "dem", "des", "für", "von", "zu", "auch", "sich", "sie", "es", "war", "sind",
    "bin", "hat", "haben", "wie", "aber", "noch", "nur", "mein", "meine", "dass", "wenn",
    "oder", "schon", "sehr", "heute", "morgen", "uns", "mich", "dir", "bei", "nach", "aus",
})
GERMAN_SHARE = 0.2
_WORD = re.compile(r"\w+")


class VaderAffectAdapter(AffectPort):
    def __init__(self) -> None:
        self._analyzer = SentimentIntensityAnalyzer()

    @property
    def lexicon(self) -> str:
        return f"vaderSentiment {version('vaderSentiment')}"

    def affect(self, texts: Sequence[str]) -> list[Affect | None]:
        return [None if reads_german(text[:MAX_CHARS]) else self._one(text[:MAX_CHARS])
                for text in texts]

    def _one(self, text: str) -> Affect:
        scores = self._analyzer.polarity_scores(text)
        valence = max(-1.0, min(1.0, float(scores["compound"])))
        arousal = max(0.0, min(1.0, float(scores["pos"]) + float(scores["neg"])))
        return Affect(round(valence, 4), round(arousal, 4))


def reads_german(text: str) -> bool:
    """Whether at least GERMAN_SHARE of the text's words are German function words."""
    words = [w.casefold() for w in _WORD.findall(text)]
    return bool(words) and sum(w in GERMAN_WORDS for w in words) >= GERMAN_SHARE * len(words)
