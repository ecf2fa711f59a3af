"""How deep the lexical search reads the postings, and how much of its top it makes exact."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LexicalReading:
    """The budget of one lexical search (migration 0250's safe stop).

    Each query term's postings are read best first, `first_depth` of them, then four times
    as many per pass until nothing unread can change the first `exact_top` results, but never
    more than `postings_per_term` of one term, and never more than `checks` memories scored
    exactly (every query term) in one pass. Within the budget the first `exact_top` are BM25's
    own; past it they are the best the postings read could tell.
    """

    # One pass of 1,000 by default: an owner whose every query term is held by fewer memories
    # gets full BM25 and no exact scoring at all (nothing is left unread), as before the safe
    # stop; a bigger owner gets up to 2,000 hopeful memories scored exactly, index-only
    # (docs/recall.md, "The lexical search's budget").
    first_depth: int = 1000
    postings_per_term: int = 1000
    exact_top: int = 10
    checks: int = 2000

    def __post_init__(self) -> None:
        if min(self.first_depth, self.postings_per_term, self.exact_top, self.checks) < 1:
            raise ValueError("a lexical reading needs at least one posting, result and check")


DEFAULT_READING = LexicalReading()
