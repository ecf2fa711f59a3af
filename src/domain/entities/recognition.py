"""Entities in a memory without an LLM: people, places, organisations, products, pets (EN/DE)."""

from __future__ import annotations

from collections.abc import Iterable, Set as AbstractSet
from dataclasses import dataclass, replace
from enum import StrEnum

from memlane.domain.entities import cues as cues
from memlane.domain.entities.kinds import judge
from memlane.domain.entities.names import (
    POSSESSIVE_END,
    candidate_name_keys,
    cue_spans,
    known_spans,
    normalise_entity_name,
)
from memlane.domain.entities.spans import (
    APOSTROPHES,
    Span,
    Token,
    capital_spans,
    case_is_informative,
    gazetteer_spans,
    is_german,
    tokenise,
)

__all__ = [
    "EntityKind",
    "EntityMention",
    "KnownEntity",
    "candidate_name_keys",
    "mentions_of_known",
    "normalise_entity_name",
    "recognise_entities",
]


class EntityKind(StrEnum):
    PERSON = "person"
    PLACE = "place"
    ORGANISATION = "organisation"
    PRODUCT = "product"
    PET = "pet"


@dataclass(frozen=True, slots=True)
class EntityMention:
    """One entity a text names, at its first occurrence text[start:end]: `name` as written,
    or canonical for a gazetteer or known name ("Deutschen Bahn" -> "Deutsche Bahn");
    `salience` in [0, 1] says how certain and central it is (the entity edge's weight)."""

    name: str
    kind: EntityKind
    start: int
    end: int
    salience: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.salience <= 1.0:
            raise ValueError(f"salience must be within [0, 1], got {self.salience}")
        if not 0 <= self.start < self.end:
            raise ValueError("a mention spans at least one character")

    @property
    def key(self) -> str:
        return normalise_entity_name(self.name)


KnownEntity = tuple[str, EntityKind]


def recognise_entities(text: str, known: Iterable[KnownEntity] = ()) -> list[EntityMention]:
    """The entities `text` names, one mention per (name key, kind), in order of appearance.

    `known` are the owner's entities (name, kind), found in any case ("ravi", "Biscuit")
    and keeping their kind; questions work the same ("What do you know about Ravi?")."""
    text = text.translate(APOSTROPHES)  # same length: offsets hold for the caller's text
    tokens = tokenise(text)
    if not tokens:
        return []
    german = is_german(tokens)
    cased = case_is_informative(tokens, german)
    known = list(known)
    spans = known_spans(tokens, known)
    taken = {i for s in spans for i in range(s.first, s.stop)}
    for found in gazetteer_spans(tokens, german, cased):
        if not taken.intersection(range(found.first, found.stop)):
            spans.append(found)
            taken.update(range(found.first, found.stop))
    found_spans = capital_spans(tokens, text, german, taken) if cased else cue_spans(tokens, taken)
    judged: list[tuple[Span, str, float]] = []
    for span in sorted([*spans, *found_spans], key=lambda s: s.first):
        verdict = judge(tokens, text, span)
        if verdict is not None:
            judged.append((fit_model(tokens, text, span, verdict[0]), *verdict))
    known_keys = {normalise_entity_name(name) for name, _ in known}
    return mentions(text, tokens, share_kinds(tokens, judged), german, known_keys)


def mentions_of_known(text: str, known: Iterable[KnownEntity]) -> list[EntityMention]:
    """Only the owner's known entities in `text`, in any case: "was weißt du über ravi"."""
    text = text.translate(APOSTROPHES)  # same length: offsets hold for the caller's text
    tokens = tokenise(text)
    spans = [(s, s.hint or "person", 1.0) for s in known_spans(tokens, known)]
    return mentions(text, tokens, spans)


def fit_model(tokens: list[Token], text: str, span: Span, kind: str) -> Span:
    """Only a product keeps a number at its end ("Pixel 8"); "Ravi 2" is Ravi."""
    stop = span.stop
    while kind != "product" and stop - 1 > span.first and tokens[stop - 1].text[0].isdigit():
        stop -= 1
    if stop == span.stop:
        return span
    name = text[tokens[span.first].start : tokens[stop - 1].end]
    return Span(span.first, stop, name, span.hint, span.hint_confidence)


def share_kinds(
    tokens: list[Token], judged: list[tuple[Span, str, float]]
) -> list[tuple[Span, str, float]]:
    """"Anna and Markus": a weakly judged name joined by and/und to a better-judged one takes
    its kind; a name said twice keeps the kind of its best-judged mention."""
    out = list(judged)
    for n in range(1, len(out)):
        (left, lkind, lconf), (right, rkind, rconf) = out[n - 1], out[n]
        if right.first == left.stop + 1 and tokens[left.stop].key in ("and", "und"):
            if lconf > rconf:
                out[n] = (right, lkind, rconf)
            elif rconf > lconf:
                out[n - 1] = (left, rkind, lconf)
    best: dict[str, tuple[str, float]] = {}
    for span, kind, conf in out:
        key = normalise_entity_name(span.name)
        if conf > best.get(key, ("", -1.0))[1]:
            best[key] = (kind, conf)
    return [(s, *best[normalise_entity_name(s.name)]) for s, _, _ in out]


def bare_name(
    tokens: list[Token], text: str, span: Span, german: bool, known: AbstractSet[str]
) -> str:
    """The name without a possessive: "Sarah's" is Sarah; a German genitive "Annas Geburtstag"
    is Anna when the base is known, or ends in a vowel and is no name ending in s (Jonas)."""
    if span.hint:
        return span.name
    name = POSSESSIVE_END.sub("", span.name)
    last = tokens[span.stop - 1]
    following = tokens[span.stop] if span.stop < len(tokens) else None
    genitive = (
        german and name.endswith("s") and not name.endswith("ss") and following is not None
        and following.text[0].isupper() and not following.sentence_start
        and last.key not in cues.NAMES_ENDING_IN_S
    )
    if genitive and (normalise_entity_name(name[:-1]) in known or name[-2] in "aeiouy"):
        return name[:-1]
    return name


def mentions(
    text: str,
    tokens: list[Token],
    judged: list[tuple[Span, str, float]],
    german: bool = False,
    known: AbstractSet[str] = frozenset(),
) -> list[EntityMention]:
    """One mention per (key, kind); salience = confidence, less for later entities, more for
    names said again (the first-named entity is usually what the memory is about)."""
    firsts: dict[tuple[str, str], EntityMention] = {}
    counts: dict[tuple[str, str], int] = {}
    for span, kind, confidence in judged:
        name = bare_name(tokens, text, span, german, known)
        start = tokens[span.first].start
        end = start + len(name) if text.startswith(name, start) else tokens[span.stop - 1].end
        key = (normalise_entity_name(name), kind)
        counts[key] = counts.get(key, 0) + 1
        if key not in firsts:
            position = 1.0 if not firsts else 0.85
            salience = round(confidence * position, 3)
            firsts[key] = EntityMention(name, EntityKind(kind), start, end, salience)
    return [
        replace(m, salience=round(min(1.0, m.salience + 0.05 * (counts[key] - 1)), 3))
        for key, m in firsts.items()
    ]
