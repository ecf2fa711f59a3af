"""Entity nodes of an owner as stored: a blind-indexed name, a sealed label, mentions."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from uuid import UUID

from memlane.domain.entities.recognition import (
    EntityKind,
    EntityMention,
    candidate_name_keys,
    normalise_entity_name,
    recognise_entities,
)

# Entity names are blinded with the tenant's key like lexical terms; this prefix keeps the
# two apart (a name's index never equals the index of the same word in memory text).
NAME_INDEX_PREFIX = "entity\x1f"
# Below this salience a mention is a guess from a capital letter alone (docs/entities.md:
# typed precision 0.89 at >= 0.5 against 0.74 for all): a guess makes no node, it only
# joins a node the owner already has by that name ("Ravi fixed the tap" once Ravi is known).
MIN_SALIENCE = 0.5
# Weaker than this, not even that (a lone capital with no cue at all, after the first).
MIN_TENTATIVE = 0.3
LABEL_FIELD = "entity_label"
# A name is too common to single memories out when more than a share of the owner's
# memories mention it (GraphTuning.entity_max_share), and more than this many: among a
# few memories every name counts.
COMMON_NAME_FLOOR = 20


def name_terms(keys: Iterable[str]) -> list[str]:
    """What the encryption port blinds for these normalised name keys (empty ones dropped)."""
    return [NAME_INDEX_PREFIX + key for key in dict.fromkeys(keys) if key]


def kept_mentions(
    mentions: Iterable[EntityMention], min_salience: float = MIN_TENTATIVE
) -> list[EntityMention]:
    """The mentions worth storing (tentative ones included: `tentative` tells them), with
    a non-empty key, one per key and kind (the most salient)."""
    best: dict[tuple[str, EntityKind], EntityMention] = {}
    for mention in mentions:
        key = normalise_entity_name(mention.name)
        if not key or mention.salience < min_salience:
            continue
        known = best.get((key, mention.kind))
        if known is None or mention.salience > known.salience:
            best[(key, mention.kind)] = mention
    return list(best.values())


def tentative(salience: float) -> bool:
    """Whether a mention this salient only joins a known entity (it makes no node)."""
    return salience < MIN_SALIENCE


@dataclass(frozen=True, slots=True)
class SealedMention:
    """One memory naming one entity, ready to store. `entity_id` is the id a new entity
    gets (its label is sealed bound to it); an entity already known by the same name index
    and kind keeps its own id and label. A tentative mention (salience below
    MIN_SALIENCE) makes no node: it joins the owner's entity of that name index, of
    whichever kind, or is dropped."""

    memory_id: UUID
    entity_id: UUID
    name_index: str
    kind: EntityKind
    label: bytes
    salience: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.salience <= 1.0:
            raise ValueError(f"salience must be within [0, 1], got {self.salience}")
        if not self.name_index:
            raise ValueError("an entity needs a name index")

    @property
    def tentative(self) -> bool:
        return tentative(self.salience)


@dataclass(frozen=True, slots=True)
class StoredMention:
    """A stored mention with its entity's node (label still sealed)."""

    memory_id: UUID
    entity_id: UUID
    kind: EntityKind
    label: bytes
    salience: float
    entity_weight: float


def mentions_in(text: str, speakers: Iterable[str] = ()) -> list[EntityMention]:
    """The entities a memory's text names that become nodes. Its speakers (a conversation's
    named participants) are known people: "Melanie: I painted …" names Melanie for sure,
    where a line-initial capital alone would be a guess."""
    known = [(s, EntityKind.PERSON) for s in dict.fromkeys(speakers) if s.strip()]
    return kept_mentions(recognise_entities(text, known))


def query_name_keys(query: str) -> list[str]:
    """The name keys a question may mean: every run of up to three content words, and the
    canonical names the recogniser finds ("bei der Deutschen Bahn" -> "deutsche bahn")."""
    found = [normalise_entity_name(m.name) for m in recognise_entities(query)]
    return list(dict.fromkeys([*candidate_name_keys(query), *found]))
