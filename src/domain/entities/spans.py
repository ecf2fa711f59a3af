"""Where names are in a text: tokens, sentence starts, German nouns, gazetteer and capital spans."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memlane.domain.entities import cues as cues
from memlane.domain.entities.gazetteer import (
    CASE_SENSITIVE,
    LONGEST_ENTRY_WORDS,
    lookup,
    may_start,
)

TOKEN = re.compile(r"\w+(?:['&.\-]\w+)*")
SENTENCE_BREAK = re.compile(r"[.!?:;\n]|\s[-•*]\s")
# Same length, so offsets into the text hold: "Sarah\u2019s" reads as "Sarah's".
APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    start: int
    end: int
    sentence_start: bool

    @property
    def key(self) -> str:
        """The casefolded word without clitic or possessive: "I'm" is "i", "Sarah's" "sarah"."""
        return self.text.casefold().split("'", 1)[0]


@dataclass(frozen=True, slots=True)
class Span:
    """Tokens [first, stop) naming one thing; `name` is canonical for gazetteer and known hits."""

    first: int
    stop: int
    name: str
    hint: str | None = None  # the kind a gazetteer or the caller's known names give
    hint_confidence: float = 0.0


def tokenise(text: str) -> list[Token]:
    """Words with their offsets; apostrophes read as "'" (callers translate text the same)."""
    text = text.translate(APOSTROPHES)
    tokens: list[Token] = []
    for match in TOKEN.finditer(text):
        previous = tokens[-1] if tokens else None
        gap = text[previous.end : match.start()] if previous else ""
        # "Dr. Lin" and "St. Pauli" go on the sentence; "works. Then" starts a new one.
        starts = previous is None or (
            bool(SENTENCE_BREAK.search(gap))
            and not (gap.strip() == "." and previous.key in cues.ABBREVIATIONS)
        )
        tokens.append(Token(match.group(), match.start(), match.end(), starts))
    return tokens


def is_german(tokens: list[Token]) -> bool:
    """More German function words than English ones; umlauts and ß tip a tie."""
    keys = [t.text.casefold() for t in tokens]
    german = sum(k in cues.GERMAN_MARKERS for k in keys) + 0.5 * any(
        c in "äöüß" for k in keys for c in k
    )
    return german > sum(k in cues.ENGLISH_MARKERS for k in keys)


def case_is_informative(tokens: list[Token], german: bool) -> bool:
    """False for all-lowercase chat and for Title Case Headlines, where capitals say nothing
    (German capitalises every noun, so there only a text of capitals alone is one)."""
    letters = [t for t in tokens if t.text[0].isalpha()]
    capitals = sum(t.text[0].isupper() for t in letters)
    if capitals == 0:
        return False
    return not (len(letters) >= 4 and capitals >= (1.0 if german else 0.75) * len(letters))


def is_german_noun(word: str) -> bool:
    """A common German noun by the stoplist (any inflection), a compound head or a suffix."""
    w = word.casefold()
    if "-" in w:  # "Döner-Laden", "E-Bike": the last part is the head
        tail = w.rsplit("-", 1)[1]
        return is_german_noun(tail) or tail in cues.GERMAN_NOUN_HEADS
    for ending in cues.GERMAN_ENDINGS:
        stem = w[: len(w) - len(ending)] if ending else w
        if not w.endswith(ending) or not stem:
            continue
        if stem in cues.GERMAN_NOUNS:
            return True
        if any(stem.endswith(h) and len(stem) >= len(h) + 3 for h in cues.GERMAN_NOUN_HEADS):
            return True
    return any(w.endswith(s) and len(w) >= len(s) + 3 for s in cues.GERMAN_NOUN_SUFFIXES)


def is_place_shaped(word: str) -> bool:
    """A German place name by its ending ("Walldorf", "Tegernsee"), not a bare common noun."""
    w = word.casefold()
    return w not in cues.GERMAN_NOUNS and any(
        w.endswith(e) and len(w) >= len(e) + 3 for e in cues.PLACE_ENDINGS
    )


def shaped_like_name(token: Token) -> bool:
    """iPhone, BMW, Ravi, X1: a capital, an inner capital or an acronym, and no known word."""
    text = token.text
    if not text[0].isalpha() and not text[0].isdigit():
        return False
    inner_capital = text[0].islower() and any(c.isupper() for c in text[1:])
    return (text[0].isupper() or inner_capital) and token.key not in cues.NOT_NAMES and (
        token.key not in cues.PERSON_NOUNS and token.key not in cues.PET_NOUNS
    )


def distinctive(token: Token) -> bool:
    """Shapes no German common noun has: an acronym, an inner capital, a digit."""
    text = token.text
    return (len(text) > 1 and text.isupper()) or any(c.isdigit() for c in text) or (
        text[0].islower() and any(c.isupper() for c in text[1:])
    )


def gazetteer_spans(tokens: list[Token], german: bool, cased: bool) -> list[Span]:
    """Well-known names, longest entry first; a product takes its model ("iPhone 15 Pro")."""
    spans: list[Span] = []
    i = 0
    while i < len(tokens):
        if not may_start(tokens[i].text):  # no entry begins here: no lookup can hit
            i += 1
            continue
        hit = None
        for size in range(min(LONGEST_ENTRY_WORDS, len(tokens) - i), 0, -1):
            chunk = tokens[i : i + size]
            capitalised = (cased and chunk[0].text[0].isupper()) or distinctive(chunk[0])
            hit = lookup([t.text for t in chunk], capitalised=capitalised)
            if hit is not None and not part_of_longer_name(tokens, i, i + size, german):
                break
            hit = None
        if hit is None:
            i += 1
            continue
        stop = i + size
        # "iPhone 15 Pro", "Siemens Healthineers": a product takes its model, a company its unit.
        while hit[1] in ("product", "organisation") and stop < len(tokens) and is_model(
            tokens, stop, german
        ) and (hit[1] == "product" or not tokens[stop].text[0].isdigit()):
            stop += 1
        model = " ".join(t.text for t in tokens[i + size : stop])
        name = f"{hit[0]} {model}" if model else hit[0]
        spans.append(Span(i, stop, name, hit[1], 0.85))
        i = stop
    return spans


def part_of_longer_name(tokens: list[Token], first: int, stop: int, german: bool) -> bool:
    """"University of Toronto", "Liverpool FC", "Berlin Marathon", "Uni Mannheim": the entry
    is a word of a longer name; "das Essen" is food, and a sentence-initial "Nice" no city."""
    before = [t.key for t in tokens[max(0, first - 2) : first]]
    after = tokens[stop] if stop < len(tokens) else None
    if after is not None and after.text[0].isupper() and (
        after.key in cues.ORG_SUFFIXES | cues.PLACE_SUFFIXES | cues.EVENT_WORDS
    ):
        return True
    if before and (before[-1] in cues.ORG_PREFIXES or before[-2:] == ["university", "of"]):
        return tokens[first - 1].text[0].isupper() or before[-1] == "of"
    word = tokens[first].key if stop - first == 1 else ""
    if tokens[first].sentence_start and (word in CASE_SENSITIVE or word in cues.GERMAN_NOUNS):
        return True
    return german and word in cues.GERMAN_NOUNS and after_determiner(tokens, first)


def is_model(tokens: list[Token], i: int, german: bool) -> bool:
    """A model after a product name: a number or a capitalised word that is no common word."""
    token = tokens[i]
    if token.sentence_start or not (token.text[0].isdigit() or shaped_like_name(token)):
        return False
    known = lookup([token.text], capitalised=True) is not None
    return not known and not (german and not distinctive(token) and is_german_noun(token.text))


def after_determiner(tokens: list[Token], i: int) -> bool:
    """An article or possessive right before, or before one lowercase adjective ("ein neues")."""
    before = [t for t in tokens[max(0, i - 2) : i]]
    if before and before[-1].key in cues.DETERMINERS:
        return True
    return len(before) == 2 and before[1].text.islower() and before[0].key in cues.DETERMINERS


def may_start_name(tokens: list[Token], i: int, german: bool) -> bool:
    token = tokens[i]
    if not shaped_like_name(token):
        return False
    following = tokens[i + 1] if i + 1 < len(tokens) else None
    if token.key in cues.TITLES or token.key in cues.ORG_PREFIXES:
        # "Dr. Lin", "Uni Mannheim", "University of Toronto"
        of = following is not None and following.key == "of" and i + 2 < len(tokens)
        named = tokens[i + 2] if of else following
        return named is not None and shaped_like_name(named)
    previous = tokens[i - 1].key if i else ""
    # "Hamster Pünktchen", "heißt Frau Müller": after a naming cue any word may be a name.
    cued = previous in cues.PET_NOUNS | cues.PERSON_NOUNS | cues.NAMING_WORDS | cues.TITLES
    if german and not distinctive(token) and not cued and (
        is_german_noun(token.text)
        or (after_determiner(tokens, i) and not is_place_shaped(token.text))
    ):
        return False
    if token.sentence_start:
        # "Mark my words", "Running is fun": an imperative or a gerund, not a name.
        return (following is None or following.key not in cues.OBJECT_PRONOUNS) and not (
            not german and token.key.endswith("ing") and len(token.key) >= 5
        )
    return True


def continues_name(tokens: list[Token], text: str, i: int, german: bool) -> int:
    """How many tokens from i go on the span before it (0: it ends), particles included."""
    if i >= len(tokens):
        return 0
    gap = text[tokens[i - 1].end : tokens[i].start]
    if gap not in (" ", " & ") and not (gap == ". " and tokens[i - 1].key in cues.ABBREVIATIONS):
        return 0
    token = tokens[i]
    if token.text[0].isdigit():
        return 1
    if token.key in cues.NAME_PARTICLES and token.text.islower():
        return 1 + continues_name(tokens, text, i + 1, german) if i + 1 < len(tokens) and (
            shaped_like_name(tokens[i + 1])
        ) else 0
    if not shaped_like_name(token) or token.sentence_start:
        return 0
    return 0 if german and not distinctive(token) and is_german_noun(token.text) else 1


def capital_spans(tokens: list[Token], text: str, german: bool, taken: set[int]) -> list[Span]:
    spans: list[Span] = []
    i = 0
    while i < len(tokens):
        if i in taken or not may_start_name(tokens, i, german):
            i += 1
            continue
        stop = i + 1
        while stop not in taken and (step := continues_name(tokens, text, stop, german)):
            stop += step
        name = text[tokens[i].start : tokens[stop - 1].end]
        spans.append(Span(i, stop, name))
        i = stop
    return spans
