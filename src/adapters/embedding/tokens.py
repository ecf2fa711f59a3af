"""WindowTokenizer: a model's tokenizer and its window, for the ids a run reads and for counting."""

from __future__ import annotations

import threading
from collections.abc import Callable

from tokenizers import Encoding, Tokenizer


class WindowTokenizer:
    """Token ids as the model reads them (cut to its window) and counts before the cut.

    The cut keeps the first `window_tokens - 1` ids and the closing special token, as the
    tokenizers library truncates one sequence ([CLS] … [SEP], <s> … </s>). `normalise` runs
    before the tokenizer's own normaliser: a character map the library cannot express.
    """

    def __init__(
        self,
        tokenizer: Tokenizer,
        window_tokens: int,
        normalise: Callable[[str], str] | None = None,
    ) -> None:
        if window_tokens < 2:
            raise ValueError("a window holds at least the two special tokens")
        tokenizer.no_truncation()
        tokenizer.no_padding()
        self._tokenizer = tokenizer
        self._window_tokens = window_tokens
        self._normalise = normalise
        self._cut = 0
        self._cut_lock = threading.Lock()  # the model's worker threads cut concurrently

    @property
    def window_tokens(self) -> int:
        """The most tokens of one text the model reads, special tokens included."""
        return self._window_tokens

    def all_ids(self, text: str) -> list[int]:
        """Every token id of `text`, special tokens included, nothing cut."""
        ids: list[int] = self._encode(text).ids
        return ids

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

    def _encode(self, text: str) -> Encoding:
        if self._normalise is not None:
            text = self._normalise(text)
        return self._tokenizer.encode(text)
