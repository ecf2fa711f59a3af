"""WindowTokenizer: a model's tokenizer and its window, for the ids a run reads and for counting."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod

from tokenizers import Tokenizer


class WindowTokenizer(ABC):
    """Token ids as the model reads them (cut to its window) and counts before the cut.

    The cut keeps the first `window_tokens - 1` ids and the closing special token, as the
    tokenizers library truncates one sequence ([CLS] … [SEP], <s> … </s>).
    """

    def __init__(self, window_tokens: int) -> None:
        if window_tokens < 2:
            raise ValueError("a window holds at least the two special tokens")
        self._window_tokens = window_tokens
        self._cut = 0
        self._cut_lock = threading.Lock()  # the model's worker threads cut concurrently

    @property
    def window_tokens(self) -> int:
        """The most tokens of one text the model reads, special tokens included."""
        return self._window_tokens

    @abstractmethod
    def all_ids(self, text: str) -> list[int]:
        """Every token id of `text`, special tokens included, nothing cut."""

    def ids(self, text: str) -> list[int]:
        """The ids the model reads: all of them when they fit its window, else the first
        window_tokens - 1 and the closing special token."""
        ids = self.all_ids(text)
        if len(ids) <= self._window_tokens:
            return ids
        with self._cut_lock:
            self._cut += 1
        return ids[: self._window_tokens - 1] + ids[-1:]

    @property
    def texts_cut(self) -> int:
        """How many texts `ids` has cut to the window so far."""
        return self._cut

    def count(self, text: str) -> int:
        """How many tokens `text` makes, before any cut (more than window_tokens: cut)."""
        return len(self.all_ids(text))


class LibraryTokenizer(WindowTokenizer):
    """A tokenizer of the tokenizers library (MiniLM's WordPiece) in its window."""

    def __init__(self, tokenizer: Tokenizer, window_tokens: int) -> None:
        super().__init__(window_tokens)
        tokenizer.no_truncation()
        tokenizer.no_padding()
        self._tokenizer = tokenizer

    def all_ids(self, text: str) -> list[int]:
        ids: list[int] = self._tokenizer.encode(text).ids
        return ids
