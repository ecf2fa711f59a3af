"""SnowballKeywordAdapter: NFKC + casefold, word tokens, stop words out, Snowball stems."""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache

import snowballstemmer

from memlane.adapters.keywords.stopwords import ENGLISH_STOP_WORDS, GERMAN_STOP_WORDS
from memlane.domain.errors import ConfigurationError
from memlane.ports.keywords import KeywordPort

# Letters and digits, with inner apostrophes kept so the stemmer can strip
# possessives ("user's" -> "user") and contractions can hit the stop list.
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\uff07": "'"})
# Longer runs are hashes, base64 or URLs glued together: noise in the index.
MAX_TERM_CHARS = 64
# The English stemmers drop German function words too: users of the default mix languages.
_MIXED = ENGLISH_STOP_WORDS | GERMAN_STOP_WORDS
_STOP_WORDS = {"english": _MIXED, "porter": _MIXED, "german": GERMAN_STOP_WORDS}


class SnowballKeywordAdapter(KeywordPort):
    """The same function for documents and queries, so their terms meet in the index."""

    def __init__(self, language: str = "english", stem_cache_size: int = 65536) -> None:
        if language not in snowballstemmer.algorithms():
            known = ", ".join(snowballstemmer.algorithms())
            raise ConfigurationError(
                f"unknown keyword language {language!r}; choose one of {known}"
            )
        self._language = language
        self._stop_words = _STOP_WORDS.get(language, frozenset())
        stemmer = snowballstemmer.stemmer(language)
        # A Snowball stemmer keeps its working word in the instance: one caller at a time.
        lock = threading.Lock()

        def stem(word: str) -> str:
            with lock:
                return str(stemmer.stemWord(word))

        # Vocabularies are small and repetitive; caching makes stemming a dict lookup.
        self._stem = lru_cache(maxsize=stem_cache_size)(stem)

    @property
    def language(self) -> str:
        return self._language

    def terms(self, text: str) -> list[str]:
        normalised = unicodedata.normalize("NFKC", text).casefold().translate(_APOSTROPHES)
        out: list[str] = []
        for match in _WORD.finditer(normalised):
            word = match.group()
            if word in self._stop_words or len(word) > MAX_TERM_CHARS:
                continue
            if word.isdigit():
                out.append(word)
                continue
            term = self._stem(word).replace("'", "")
            if term and term not in self._stop_words:
                out.append(term)
        return out
