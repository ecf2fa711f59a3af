"""Words for supersession: normalising, content words, a crude EN/DE stem, cue patterns."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from memlane.domain.graph.supersession_slots import STOPWORDS

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_WORD = re.compile(r"\w+")
# Suffixes stripped (twice at most) so "meetings"/"meeting", "Kaffees"/"Kaffee" meet.
# (German "-ung" nouns share the stem of their verb and agent: "Schriftführung", "Schriftführer".)
_SUFFIXES = ("ungen", "ung", "ing", "ed", "es", "en", "er", "em", "s", "e", "n")
# German feminine forms are one role with the masculine: "Teamleiterin" / "Teamleiter".
_FEMININE = ("innen", "in")


def normalise(text: str) -> str:
    """Casefolded, curly apostrophes straightened, whitespace collapsed (ß becomes ss)."""
    return " ".join(text.translate(_APOSTROPHES).casefold().split())


def content_words(text: str) -> list[str]:
    """The words of normalised text that are not stopwords."""
    return [w for w in _WORD.findall(text) if w not in STOPWORDS]



@lru_cache(maxsize=1 << 16)  # a word's stem is asked for again and again, a few thousand words
def stem(word: str) -> str:
    """A crude EN/DE stem: only ever compared with other stems made the same way."""
    feminine = next((s for s in _FEMININE if word.endswith("er" + s) and len(word) > 7), "")
    word = word[: -len(feminine)] if feminine else word
    for _ in range(2):
        suffix = next((s for s in _SUFFIXES if word.endswith(s) and len(word) - len(s) >= 3), "")
        if not suffix:
            break
        word = word[: -len(suffix)]
    # An English consonant doubled before -ing/-ed: "shopping"/"shop", "stopped"/"stop".
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] in "bdgmnprt":
        word = word[:-1]
    return word


def _word_regex(word: str) -> str:
    start = r"\w*" if word.startswith("*") else ""
    end = r"\w*" if word.endswith("*") else ""
    return start + re.escape(word.strip("*")) + end


def _cue_regex(phrase: str) -> str:
    pattern = ""
    for word in normalise(phrase).split(" "):
        # '~' is a gap of up to three words ("kein* ~ mehr": "keinen Kaffee mehr").
        pattern += r"(?:\S+\s+){0,3}" if word == "~" else _word_regex(word) + r"\s+"
    return pattern.removesuffix(r"\s+") + r"(?!\w)"


def compile_cues(phrases: Iterable[str]) -> re.Pattern[str]:
    """One pattern for a cue list, matched on normalised text at word starts."""
    usable = [p for p in phrases if normalise(p).strip("*~ ")]
    if not usable:
        return re.compile(r"(?!x)x")  # matches nothing: an empty list is a valid config
    return re.compile(r"(?<!\w)(?:" + "|".join(_cue_regex(p) for p in usable) + ")")
