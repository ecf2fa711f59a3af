"""FakeKeywords: lowercase word split, the simplest KeywordPort."""

from __future__ import annotations

import re

from memlane.ports.keywords import KeywordPort

_WORD = re.compile(r"\w+")


class FakeKeywords(KeywordPort):
    """No stemming and no stop words: enough to test lexical fusion deterministically."""

    def terms(self, text: str) -> list[str]:
        return _WORD.findall(text.lower())
