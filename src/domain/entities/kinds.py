"""What a found name is (person, place, organisation, product, pet), from the words around it."""

from __future__ import annotations

from dataclasses import dataclass

from memlane.domain.entities import cues as cues
from memlane.domain.entities.gazetteer import BRANDS
from memlane.domain.entities.spans import Span, Token, distinctive, is_place_shaped

# Confidence of each kind of evidence; it becomes the mention's salience, scaled by position.
STRONG, GAZETTEER, MEDIUM, WEAK, GUESS = 0.9, 0.85, 0.7, 0.55, 0.4
POSSESSIVES = cues.words("my our your his her their mein meine unser unsere dein deine sein")
PRONOUN_OBJECTS = cues.words("her him it them ihn sie es")
BEING = cues.words("is was ist war")
AND_WORDS = cues.words("and und")
ORIGIN_PREPOSITIONS = cues.words("from von")


@dataclass(frozen=True, slots=True)
class Context:
    """The words around a span within its sentence, casefolded; `content_before` skips
    articles and one adjective ("bei der Deutschen Bahn", "einen alten VW Golf")."""

    before: list[str]
    content_before: list[str]
    after: list[str]
    sentence: list[str]
    # "Sony headphones" names a product; "Jonas Auto" is Jonas's car (German nouns have capitals).
    lowercase_next: bool

    def prev(self, k: int = 1) -> str:
        return self.before[k - 1] if len(self.before) >= k else ""

    def near_before(self, vocabulary: frozenset[str], window: int) -> bool:
        return any(w in vocabulary for w in self.content_before[:window])


def context_of(tokens: list[Token], text: str, span: Span) -> Context:
    start = span.first
    while start > 0 and not tokens[start].sentence_start:
        start -= 1
    stop = span.stop
    while stop < len(tokens) and not tokens[stop].sentence_start:
        stop += 1
    before = [t.key for t in reversed(tokens[start : span.first])]
    content = [w for w in before if w not in cues.DETERMINERS]
    if len(content) > 1 and content[0].islower() and content[0] not in cues.NOT_NAMES and (
        len(before) > 1 and before[1] in cues.DETERMINERS
    ):
        content = content[1:]  # "einen alten VW": the adjective is no cue either
    after = [t.key for t in tokens[span.stop : stop]]
    lowercase_next = bool(after) and tokens[span.stop].text.islower()
    return Context(before, content, after, [t.key for t in tokens[start:stop]], lowercase_next)


def judge(tokens: list[Token], text: str, span: Span) -> tuple[str, float] | None:
    """(kind, confidence) for a span, or None when it names an event ("Berlin Marathon")."""
    words = [t.key for t in tokens[span.first : span.stop]]
    if any(w in cues.EVENT_WORDS for w in words):
        return None
    if span.hint is not None and span.hint_confidence >= 1.0:
        return span.hint, span.hint_confidence  # the caller's own entity: it knows best
    c = context_of(tokens, text, span)
    if span.hint is None and c.prev(1) in cues.WORK_VERBS:
        return None
    return (
        named_by_cue(c, words, tokens[span.first])
        or by_shape(words, tokens[span.first : span.stop], c)
        or by_gazetteer(span, c)
        or by_neighbours(c, tokens[span.stop - 1])
        or by_shape_guess(tokens[span.first : span.stop], c)
    )


def named_by_cue(c: Context, words: list[str], first: Token) -> tuple[str, float] | None:
    """A noun or naming word right before: "my dog Biscuit", "Schwester Priya", "namens X"."""
    p1 = c.prev(1)
    pet_said = any(w in cues.PET_NOUNS for w in c.before)
    if p1 in cues.PET_NOUNS:
        return "pet", STRONG
    naming = p1 in cues.NAMING_WORDS or (p1 in PRONOUN_OBJECTS and c.prev(2) in cues.NAMING_WORDS)
    if naming:
        return ("pet", STRONG) if pet_said else ("person", STRONG)
    if p1 in cues.PERSON_NOUNS or first.key in cues.TITLES:
        return "person", STRONG
    if c.after[:1] == ["the"] and c.after[1:2] and c.after[1] in cues.PET_NOUNS:
        return "pet", STRONG  # "Oscar the cat"
    # "Biscuit is my dog", "Priya ist meine Schwester"
    if len(c.after) >= 3 and c.after[0] in BEING and c.after[1] in POSSESSIVES:
        if c.after[2] in cues.PET_NOUNS:
            return "pet", STRONG
        if c.after[2] in cues.PERSON_NOUNS:
            return "person", STRONG
    return None


def by_shape(words: list[str], span: list[Token], c: Context) -> tuple[str, float] | None:
    """The name's own words: "Riverside FC", "University of Toronto", "Baker Street",
    "Lake Como", "Walldorf"; and a brand before a product noun, "the Bosch dishwasher"."""
    several = len(words) > 1
    if several and (words[-1] in cues.ORG_SUFFIXES or words[0] in cues.ORG_PREFIXES):
        return "organisation", STRONG
    if several and (words[-1] in cues.PLACE_SUFFIXES or words[0] in cues.PLACE_PREFIXES):
        return "place", STRONG
    if c.after and c.after[0] in cues.PRODUCT_NOUNS and c.lowercase_next:
        return "product", STRONG
    # "ein Staubsauger von Dyson", "an e-bike from Riese & Müller"
    if len(c.content_before) > 1 and c.content_before[0] in ORIGIN_PREPOSITIONS and (
        c.content_before[1] in cues.PRODUCT_NOUNS
    ):
        return "product", STRONG
    if c.content_before[:1] and c.content_before[0] in cues.ORG_PREPOSITIONS and (
        c.near_before(cues.ORG_VERBS, 5) or (c.after and c.after[0] in cues.ORG_VERBS)
    ):
        return "organisation", STRONG
    if c.prev(1) in ("joined", "joining", "join"):
        return "organisation", STRONG
    if len(span) == 1 and not span[0].sentence_start and is_place_shaped(span[0].text):
        return "place", MEDIUM
    return None


def by_gazetteer(span: Span, c: Context) -> tuple[str, float] | None:
    if span.hint is None:
        return None
    if span.name.casefold() in BRANDS:
        # A brand is what the sentence does with it: "works at Spotify", "I use Spotify".
        if c.content_before[:1] and c.content_before[0] in cues.ORG_PREPOSITIONS:
            return "organisation", GAZETTEER
        if c.near_before(cues.PRODUCT_VERBS, 3) or bought_after(c):
            return "product", GAZETTEER
    return span.hint, span.hint_confidence


def bought_after(c: Context) -> bool:
    """German puts the verb last: "einen gebrauchten Tesla gekauft"."""
    return any(w in cues.PRODUCT_VERBS for w in c.after[:3])


def by_neighbours(c: Context, last: Token) -> tuple[str, float] | None:
    """Prepositions and verbs around an unknown name: "in Lisbon", "at Stripe", "Tom said"."""
    p1 = c.content_before[0] if c.content_before else ""
    if c.prev(1) in cues.PET_VERBS_BEFORE:
        return "pet", MEDIUM
    if p1 in cues.PLACE_PREPOSITIONS:
        return "place", MEDIUM
    if p1 in ("to", "zu") and c.near_before(cues.MOTION_WORDS, 3):
        return "place", MEDIUM
    if p1 == "from" and c.near_before(cues.ORIGIN_WORDS, 3):
        return "place", MEDIUM
    if p1 in ("at", "bei"):
        return "organisation", WEAK
    after = c.after
    if (after and after[0] in cues.PERSON_VERBS_AFTER) or (
        len(after) > 1 and after[0] in AND_WORDS and after[1] in ("i", "ich")
    ):
        return "person", MEDIUM
    if c.prev(1) in cues.PERSON_VERBS_BEFORE or last.text.endswith("'s"):
        return "person", MEDIUM
    if c.near_before(cues.PRODUCT_VERBS, 3) or bought_after(c) or (
        c.prev(1) in cues.NEW_OR_OLD and c.prev(2) in POSSESSIVES | cues.DETERMINERS
    ):
        return "product", WEAK
    if any(w in cues.PET_CONTEXT for w in c.sentence):
        return "pet", WEAK
    return None


def by_shape_guess(span: list[Token], c: Context) -> tuple[str, float]:
    """No cue at all: acronyms are mostly organisations, iPhone-shapes products, "the X" no
    person; anything else is most often a person in what people tell an assistant."""
    if any(distinctive(t) for t in span):
        acronym = all(t.text.isupper() for t in span)
        return ("organisation", GUESS) if acronym else ("product", GUESS)
    if c.prev(1) == "the":
        return "organisation", GUESS
    return "person", WEAK if len(span) > 1 else GUESS
