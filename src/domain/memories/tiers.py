"""Levels of detail (Chvor): an extractive abstract and overview of a memory, and long input
cut into parts that each fit the full-detail tier. Deterministic, no model."""

from __future__ import annotations

import math
import re
from collections import Counter

from memlane.domain.detail import Tier, Tiers
from memlane.domain.memories.summary import ELLIPSIS, truncate

__all__ = ["Tier", "Tiers", "abstract", "build_tiers", "overview", "sentences", "split_parts"]

L0_MAX_CHARS = 120  # the abstract: one line
L1_MAX_CHARS = 1_000  # the overview: a paragraph
L2_MAX_CHARS = 5_000  # the detail: the full text; longer input becomes several parts

# A sentence ends after . ! ? (and any closing quote or bracket) before a space, or at a line
# break; splitting there keeps every character of the text in some sentence.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[.!?][\"')\]])\s+|\n+")
_WORD = re.compile(r"\w+", re.UNICODE)
# A line led by who said it ("user: …", "Caroline: …"): the abstract reads the words, not
# the label, when the label alone would take its place.
_LABEL = re.compile(r"\A[\w .'-]{1,40}:\s+")


def sentences(text: str) -> list[str]:
    """The text's sentences (a line break also ends one), whitespace collapsed."""
    return _split(text, _SENTENCE_END)


def _split(text: str, at: re.Pattern[str]) -> list[str]:
    found = (" ".join(piece.split()) for piece in at.split(text))
    return [piece for piece in found if piece]


def build_tiers(content: str) -> Tiers:
    """The abstract and overview of a memory's content, extractive and deterministic."""
    return Tiers(abstract(content), overview(content))


def abstract(content: str) -> str:
    """≤ L0_MAX_CHARS: the first sentence that says something, cut at a word."""
    found = sentences(content)
    if not found:
        return truncate(content, L0_MAX_CHARS)
    first = next((s for s in found if len(_WORD.findall(_LABEL.sub("", s))) >= 3), found[0])
    return truncate(first, L0_MAX_CHARS)


def overview(content: str) -> str:
    """≤ L1_MAX_CHARS: the whole text when it fits; else its first sentence and the
    sentences whose words the text repeats most while few sentences hold them (tf-idf
    over sentences, Luhn's idea), in their original order."""
    flat = " ".join(content.split())
    if len(flat) <= L1_MAX_CHARS:
        return flat
    found = sentences(content)
    words = [[w.casefold() for w in _WORD.findall(s) if len(w) > 3] for s in found]
    counts = Counter(w for ws in words for w in ws)
    holders = Counter(w for ws in words for w in set(ws))

    def weight(index: int) -> float:
        said = words[index]
        score = sum(counts[w] * math.log(len(found) / holders[w]) for w in said)
        return score / (1 + len(said))

    order = [0, *sorted(range(1, len(found)), key=lambda i: (-weight(i), i))]
    chosen: list[int] = []
    used = 0
    for index in order:
        if any(found[index] == found[c] for c in chosen):
            continue  # a repeated sentence says nothing new
        cost = len(found[index]) + (1 if chosen else 0)
        if used + cost <= L1_MAX_CHARS:
            chosen.append(index)
            used += cost
    if not chosen:  # a first sentence longer than the overview itself
        return truncate(found[0], L1_MAX_CHARS)
    return " ".join(found[i] for i in sorted(chosen))


def split_parts(content: str, max_chars: int = L2_MAX_CHARS) -> list[str]:
    """The content in parts of at most `max_chars`, cut at paragraph, then sentence, then
    word boundaries (a longer word is cut where it must). Nothing is dropped: the parts
    hold every word of the content, in order (whitespace between them collapsed)."""
    text = content.strip()
    if len(text) <= max_chars:
        return [text]
    parts: list[str] = []
    current = ""
    for piece, opens_paragraph in _pieces(text, max_chars):
        joint = "\n\n" if opens_paragraph else " "
        joined = f"{current}{joint}{piece}" if current else piece
        if len(joined) <= max_chars:
            current = joined
        else:
            parts.append(current)
            current = piece
    if current:
        parts.append(current)
    return parts


def _pieces(text: str, max_chars: int) -> list[tuple[str, bool]]:
    """Paragraphs, else sentences, else words, else slices: each at most max_chars, and
    whether it opens a paragraph."""
    out: list[tuple[str, bool]] = []
    for paragraph in re.split(r"\n\s*\n", text):
        opens = True
        for piece in _fitting(paragraph.strip(), max_chars):
            out.append((piece, opens))
            opens = False
    return out


def _fitting(paragraph: str, max_chars: int) -> list[str]:
    if len(paragraph) <= max_chars:
        return [paragraph] if paragraph else []
    out: list[str] = []
    for sentence in _split(paragraph, _SENTENCE_END):
        if len(sentence) <= max_chars:
            out.append(sentence)
            continue
        for word in sentence.split():
            out.extend(word[i:i + max_chars] for i in range(0, len(word), max_chars))
    return out


def is_cut(text: str) -> bool:
    """Whether a tier's text ends where it was cut (an ellipsis the content did not have)."""
    return text.endswith(ELLIPSIS)
