"""Applying statements to the facts that hold: new facts, restatements, and what they end."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from uuid import UUID

from memlane.domain.facts.model import (
    OPPOSITE_RELATIONS,
    ExtractedFact,
    Fact,
    fact_from_extracted,
    normalise,
    supersede,
    superseded_facts,
)


@dataclass(frozen=True, slots=True)
class Statement:
    """A fact as someone stated it: from a memory (its id and when it was said) or directly."""

    fact: ExtractedFact
    source_memory_id: UUID | None = None
    said_at: datetime | None = None
    user_fact_score: float | None = None


@dataclass(slots=True)
class LedgerChanges:
    """What applying statements changes: facts to insert, and current facts that end.

    `restated` maps each statement's index to the fact it repeated (nothing new is stored);
    `created` maps it to the new fact; a negated statement has neither."""

    new: list[Fact] = field(default_factory=list)
    ended: dict[UUID, Fact] = field(default_factory=dict)
    created: dict[int, Fact] = field(default_factory=dict)
    restated: dict[int, Fact] = field(default_factory=dict)

    def replacements(self) -> list[tuple[Fact, Fact]]:
        """(newer, older) for every fact a new one superseded."""
        by_id = {f.id: f for f in self.new}
        return [
            (by_id[old.superseded_by], old) for old in (*self.ended.values(), *self.new)
            if old.superseded_by is not None and old.superseded_by in by_id
        ]


def relations_touched(statements: Sequence[ExtractedFact]) -> set[str]:
    """The relations whose current facts these statements may end (their opposites too)."""
    touched: set[str] = set()
    for fact in statements:
        touched.add(fact.relation)
        touched |= OPPOSITE_RELATIONS.get(fact.relation, frozenset())
    return touched


def _same(a: Fact, b: ExtractedFact) -> bool:
    return (a.relation == b.relation and normalise(a.subject) == normalise(b.subject)
            and normalise(a.object) == normalise(b.object))


def apply_statements(
    current: Sequence[Fact],
    statements: Sequence[Statement],
    *,
    now: datetime,
    new_id: Callable[[], UUID],
) -> LedgerChanges:
    """Apply statements in order to the facts holding now.

    A statement of a fact that already holds stores nothing (the older fact keeps its
    provenance); a negated one ends the facts it names; any other is stored and ends the
    facts it supersedes (functional relations, opposites). A fact stored by an earlier
    statement of the same batch can be ended by a later one. A statement said before a
    holding fact began (an old chat imported late) never ends it: it is stored as history,
    ended where the newer fact began.
    """
    changes = LedgerChanges()
    holding = [f for f in current if f.is_current(now)]
    for index, statement in enumerate(statements):
        extracted = statement.fact
        if not extracted.negated:
            repeated = next((f for f in holding if _same(f, extracted)), None)
            if repeated is not None:
                changes.restated[index] = repeated
                continue
        ended_by: UUID | None = None
        if not extracted.negated:
            said_at = statement.said_at or now
            fact = replace(
                fact_from_extracted(
                    extracted, fact_id=new_id(), now=now,
                    source_memory_id=statement.source_memory_id, source_time=statement.said_at,
                ),
                valid_from=min(said_at, now), user_fact_score=statement.user_fact_score,
            )
            ended_by = fact.id
        replaced = superseded_facts(holding, extracted, now=now)
        newer = [o for o in replaced if _began_after(o, statement.said_at)]
        for old in (o for o in replaced if o not in newer):
            ended = supersede(old, now=now, by=ended_by)
            holding.remove(old)
            if any(f.id == old.id for f in changes.new):
                # Stored and ended within one batch: store it already ended.
                changes.new = [ended if f.id == old.id else f for f in changes.new]
            else:
                changes.ended[old.id] = ended
        if ended_by is not None:
            if newer:  # history: it held until the newer value began
                first = min(newer, key=lambda f: f.valid_from)
                fact = replace(supersede(fact, now=first.valid_from, by=first.id), updated_at=now)
            changes.new.append(fact)
            changes.created[index] = fact
            if not newer:
                holding.append(fact)
    return changes


def _began_after(fact: Fact, said_at: datetime | None) -> bool:
    """Whether `fact` began after a statement said at `said_at` (None: said now)."""
    return said_at is not None and fact.valid_from > said_at
