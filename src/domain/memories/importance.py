"""Importance heuristics and type classification from cue phrases (no LLM call)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from memlane.domain.model import MemoryType

BASE_IMPORTANCE = 0.30
MIN_IMPORTANCE = 0.20
MAX_IMPORTANCE = 0.90


class CueFamily(StrEnum):
    AI_NAMING = "ai_naming"
    IDENTITY = "identity"
    CORRECTION = "correction"
    PREFERENCE = "preference"


CUE_WEIGHTS: Mapping[CueFamily, float] = {
    CueFamily.AI_NAMING: 0.40,
    CueFamily.IDENTITY: 0.35,
    CueFamily.CORRECTION: 0.30,
    CueFamily.PREFERENCE: 0.25,
}

DEFAULT_CUES: Mapping[CueFamily, tuple[str, ...]] = {
    CueFamily.AI_NAMING: (
        "your name is", "call yourself", "i'll call you", "from now on you are",
        "nenn dich", "du heißt", "dein name ist", "ich nenne dich",
    ),
    CueFamily.IDENTITY: (
        "my name is", "i live in", "i'm from", "i am from", "i work as", "i work at",
        "my birthday", "i was born",
        "ich heiße", "ich wohne in", "ich lebe in", "ich komme aus", "ich arbeite als",
        "mein geburtstag",
    ),
    CueFamily.CORRECTION: (
        "that's wrong", "that is wrong", "not right", "please remember", "actually", "i meant",
        "eigentlich", "das ist falsch", "bitte merk dir", "merk dir", "ich meinte",
    ),
    CueFamily.PREFERENCE: (
        "i prefer", "i like", "i love", "i don't like", "i hate", "i'd rather", "my favorite",
        "my favourite",
        # German builds favourites as compounds (Lieblingsfarbe, Lieblingsessen): prefix cue.
        "ich mag", "ich bevorzuge", "ich liebe", "ich hasse", "lieblings*",
    ),
}

# Classification order: the first family that matches decides the type.
CLASSIFICATION_ORDER: tuple[tuple[CueFamily, MemoryType], ...] = (
    (CueFamily.AI_NAMING, MemoryType.FACT),
    (CueFamily.CORRECTION, MemoryType.CORRECTION),
    (CueFamily.PREFERENCE, MemoryType.PREFERENCE),
    (CueFamily.IDENTITY, MemoryType.FACT),
)

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
PREFIX_MARK = "*"


def _normalise(text: str) -> str:
    # Curly apostrophes, case (casefold also maps ß to ss) and runs of whitespace are noise.
    return " ".join(text.translate(_APOSTROPHES).casefold().split())


def _cue_pattern(phrase: str) -> str:
    """A cue as a regex that starts a word: whole words, except that a trailing '*' makes
    it a word prefix (the start-of-word check is shared, see CueBook._patterns)."""
    is_prefix = phrase.endswith(PREFIX_MARK)
    body = re.escape(_normalise(phrase.removesuffix(PREFIX_MARK)))
    return body + ("" if is_prefix else r"(?!\w)")


def _is_blank(phrase: str) -> bool:
    # A blank or bare '*' cue would match everywhere.
    return not _normalise(phrase).removesuffix(PREFIX_MARK).strip()


@dataclass(frozen=True)
class CueBook:
    """Cue phrases per family; extendable from configuration.

    A phrase matches case-insensitively on word boundaries; a trailing '*' makes it a prefix
    of a word instead ("lieblings*" matches "Lieblingsfarbe").
    """

    cues: Mapping[CueFamily, tuple[str, ...]]

    @classmethod
    def default(cls, extra: Mapping[str, Iterable[str]] | None = None) -> CueBook:
        """The built-in EN/DE cues plus any extra phrases per family name."""
        merged = {family: tuple(phrases) for family, phrases in DEFAULT_CUES.items()}
        for name, phrases in (extra or {}).items():
            family = CueFamily(name)
            merged[family] = merged[family] + tuple(p for p in phrases if not _is_blank(p))
        return cls(merged)

    @cached_property
    def _patterns(self) -> dict[CueFamily, re.Pattern[str]]:
        # Lookarounds instead of \b so cues ending in an apostrophe or umlaut still match whole.
        usable = {f: [p for p in phrases if not _is_blank(p)] for f, phrases in self.cues.items()}
        # One start-of-word check before the alternatives, not one per alternative: the
        # search then skips every position inside a word at once (~8x faster).
        return {
            family: re.compile(r"(?<!\w)(?:" + "|".join(_cue_pattern(p) for p in phrases) + ")")
            for family, phrases in usable.items()
            if phrases
        }

    def families_in(self, text: str) -> frozenset[CueFamily]:
        """Which cue families occur in the text (case-insensitive, whole words)."""
        normalised = _normalise(text)
        return frozenset(f for f, pattern in self._patterns.items() if pattern.search(normalised))


def word_count_adjustment(word_count: int) -> float:
    """Longer exchanges carry a little more; very short ones a little less (not cumulative)."""
    if word_count >= 50:
        return 0.10
    if word_count >= 20:
        return 0.05
    if word_count < 5:
        return -0.05
    return 0.0


def estimate_importance(question: str, answer: str = "", cues: CueBook | None = None) -> float:
    """Importance of a user message (and its answer, for length) in [0.2, 0.9]."""
    families = (cues or _DEFAULT_BOOK).families_in(question)
    score = BASE_IMPORTANCE + sum(CUE_WEIGHTS[f] for f in families)
    score += word_count_adjustment(len(question.split()) + len(answer.split()))
    return min(MAX_IMPORTANCE, max(MIN_IMPORTANCE, score))


def classify(text: str, cues: CueBook | None = None) -> MemoryType:
    """The memory type a message implies; `tool_result` is never inferred."""
    families = (cues or _DEFAULT_BOOK).families_in(text)
    for family, memory_type in CLASSIFICATION_ORDER:
        if family in families:
            return memory_type
    return MemoryType.CONTEXT


_DEFAULT_BOOK = CueBook.default()
