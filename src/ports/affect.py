"""AffectPort: the emotional charge of texts (valence, arousal), read by a lexicon."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from memlane.domain.detail import Affect


class AffectPort(ABC):
    """Reads texts for their charge; pure CPU, fast enough for the write path (~0.1 ms a
    sentence), so callers batch it off the event loop."""

    @property
    @abstractmethod
    def lexicon(self) -> str:
        """The lexicon's name and version, as docs and metrics name it."""

    @abstractmethod
    def affect(self, texts: Sequence[str]) -> list[Affect | None]:
        """One Affect per text, in order; a text with no charged word is Affect(0, 0), one in
        a language the lexicon does not read is None (unknown)."""
