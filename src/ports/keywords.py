"""KeywordPort: text to normalised, stemmed lexical terms (before blinding)."""

from __future__ import annotations

from abc import ABC, abstractmethod


class KeywordPort(ABC):
    """Turns text into index terms; the same function serves documents and queries."""

    @abstractmethod
    def terms(self, text: str) -> list[str]:
        """Normalised, stemmed, stop-word-free tokens, in order, duplicates kept."""
