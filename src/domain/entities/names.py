"""Entity names as keys: normalisation for the blind index, known names, names in plain chat."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from memlane.domain.entities import cues as cues
from memlane.domain.entities.spans import APOSTROPHES, Span, Token, is_german_noun, tokenise

_TITLES = "|".join(sorted(cues.TITLES, key=len, reverse=True))
_TITLE_PREFIX = re.compile(rf"^(?:(?:{_TITLES})\.?\s+)+")
POSSESSIVE_END = re.compile(r"(?:'s|')$")
_EDGE_PUNCTUATION = re.compile(r"^[\W_]+|[^\w'.&+]+$|(?<=\w)\.$")
MAX_NAME_WORDS = 4


def normalise_entity_name(name: str) -> str:
    """The blind-index key of a name: NFKC, casefolded, whitespace collapsed, a leading
    "the" and titles dropped ("Dr. Lin" is "lin"), and an English possessive stripped
    ("Sarah's", "Jonas'"). A bare German genitive -s is kept: "Jonas", "Paris", "Siemens"
    end in s of their own, so only recognition, which sees the text, may drop it."""
    key, previous = name, None
    for _ in range(8):  # to a fixed point, so a key normalised again is the same key
        if key == previous:
            break
        previous = key
        key = unicodedata.normalize("NFKC", key.translate(APOSTROPHES).casefold())
        key = " ".join(_EDGE_PUNCTUATION.sub("", key).split())
        key = re.sub(r"^the\s+", "", key)
        key = _TITLE_PREFIX.sub("", key) or key  # "Frau" alone stays "frau"
        key = POSSESSIVE_END.sub("", key) if len(key) > 2 else key
    return key


def candidate_name_keys(text: str, max_words: int = 3) -> list[str]:
    """Every run of up to `max_words` words that could be a name, as index keys, for probing
    the blind index where no recogniser can tell ("who is priya", "was macht ravi"): words
    that are never names (function words, calendar words) and sentence ends break the runs."""
    runs: list[list[Token]] = [[]]
    for token in tokenise(text):
        if (token.sentence_start or token.key in cues.NOT_NAMES) and runs[-1]:
            runs.append([])
        if token.key not in cues.NOT_NAMES:
            runs[-1].append(token)
    keys: dict[str, None] = {}
    for run in runs:
        for first in range(len(run)):
            for stop in range(first + 1, min(first + max_words, len(run)) + 1):
                keys[normalise_entity_name(" ".join(t.text for t in run[first:stop]))] = None
    return list(keys)


def known_spans(tokens: list[Token], known: Iterable[tuple[str, str]]) -> list[Span]:
    """The caller's known names in any case, longest first: (name, kind) -> spans hinted with
    that kind at full confidence."""
    by_key = {tuple(normalise_entity_name(n).split()): (n, str(k)) for n, k in known}
    by_key.pop((), None)
    sizes = sorted({len(k) for k in by_key}, reverse=True)
    keys = [normalise_entity_name(t.text) for t in tokens]
    spans: list[Span] = []
    i = 0
    while i < len(tokens):
        for size in sizes:
            hit = by_key.get(tuple(keys[i : i + size])) if i + size <= len(tokens) else None
            if hit is not None:
                spans.append(Span(i, i + size, hit[0], hit[1], 1.0))
                i += size - 1
                break
        i += 1
    return spans


def cue_spans(tokens: list[Token], taken: set[int]) -> list[Span]:
    """Names in text whose capitals say nothing ("met ravi at the cafe"): a word right after
    a kinship or pet noun, "met", "mit", or before "and I", or ending a question "about X"."""
    spans: list[Span] = []
    for i, token in enumerate(tokens):
        key = token.key
        if i in taken or not key.isalpha() or len(key) < 2 or key in cues.NOT_NAMES or (
            key in cues.PERSON_NOUNS | cues.PET_NOUNS | cues.NAMING_WORDS or is_german_noun(key)
        ):
            continue
        p1 = tokens[i - 1].key if i else ""
        p2 = tokens[i - 2].key if i > 1 else ""
        after = [t.key for t in tokens[i + 1 : i + 3]]
        cued = (
            p1 in cues.PERSON_NOUNS | cues.PET_NOUNS | cues.NAMING_WORDS
            or p1 in ("met", "meet", "mit", "told", "texted")
            or after in (["and", "i"], ["und", "ich"])
            or (p1 in ("about", "über") and i == len(tokens) - 1)
            or (p2, p1) in (("who", "is"), ("wer", "ist"))
        )
        if cued:
            spans.append(Span(i, i + 1, token.text))
    return spans
