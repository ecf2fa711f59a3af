"""Applying statements to the facts that hold: restatements, supersession, negation, batches."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import count
from uuid import UUID

from memlane.domain.facts.extraction import extract_facts
from memlane.domain.facts.ledger import Statement, apply_statements, relations_touched
from memlane.domain.facts.model import ExtractedFact

NOW = datetime(2030, 6, 1, tzinfo=UTC)
SOURCE_A, SOURCE_B = UUID(int=1001), UUID(int=1002)


def ids() -> object:
    numbers = count(1)
    return lambda: UUID(int=next(numbers))


def said(text: str) -> ExtractedFact:
    [fact] = extract_facts(text)
    return fact


def test_a_new_home_is_stored_and_ends_the_old_one_by_its_successor() -> None:
    first = apply_statements([], [Statement(said("I live in Berlin"), SOURCE_A, NOW)],
                             now=NOW, new_id=ids())
    [berlin] = first.new
    later = NOW + timedelta(days=2)
    second = apply_statements(
        first.new, [Statement(said("I moved to Lisbon"), SOURCE_B, later)], now=later,
        new_id=lambda: UUID(int=77),
    )
    [lisbon] = second.new
    ended = second.ended[berlin.id]
    assert ended.superseded_by == lisbon.id and ended.valid_until == later
    assert second.replacements() == [(lisbon, ended)]
    assert lisbon.source_memory_id == SOURCE_B and lisbon.source_time == later


def test_restating_a_fact_stores_nothing_and_names_the_fact_it_repeats() -> None:
    first = apply_statements([], [Statement(said("I live in Berlin"), SOURCE_A)],
                             now=NOW, new_id=ids())
    again = apply_statements(first.new, [Statement(said("I live in berlin."), SOURCE_B)],
                             now=NOW, new_id=ids())
    assert again.new == [] and again.ended == {}
    assert again.restated == {0: first.new[0]}


def test_a_negation_ends_the_fact_without_a_successor() -> None:
    first = apply_statements([], [Statement(said("I work at Google"), SOURCE_A)],
                             now=NOW, new_id=ids())
    later = NOW + timedelta(hours=1)
    ended = apply_statements(first.new, [Statement(said("I no longer work at Google"))],
                             now=later, new_id=ids())
    assert ended.new == [] and ended.created == {}
    [gone] = ended.ended.values()
    assert gone.superseded_by is None and gone.valid_until == later


def test_a_later_statement_in_the_same_batch_ends_an_earlier_one() -> None:
    changes = apply_statements([], [
        Statement(said("I live in Berlin"), SOURCE_A), Statement(said("I moved to Rome"), SOURCE_B),
    ], now=NOW, new_id=ids())
    berlin, rome = changes.new
    assert berlin.superseded_by == rome.id and rome.is_current(NOW)
    assert changes.ended == {}
    assert changes.replacements() == [(rome, berlin)]


def test_accumulating_relations_keep_every_value() -> None:
    changes = apply_statements([], [
        Statement(said("I am allergic to peanuts")), Statement(said("I am allergic to latex")),
    ], now=NOW, new_id=ids())
    assert [f.object for f in changes.new] == ["peanuts", "latex"]
    assert all(f.is_current(NOW) for f in changes.new)


def test_a_statement_said_earlier_is_valid_from_when_it_was_said() -> None:
    said_at = NOW - timedelta(days=30)
    changes = apply_statements([], [Statement(said("My name is Ada"), SOURCE_A, said_at)],
                               now=NOW, new_id=ids())
    assert changes.new[0].valid_from == said_at and changes.new[0].created_at == NOW


def test_the_relations_touched_include_the_opposites() -> None:
    assert relations_touched([said("I like coffee")]) == {"likes", "dislikes", "avoids"}


def test_a_statement_said_before_the_holding_fact_began_is_stored_as_history() -> None:
    """An old chat imported late: "I moved to Porto" said a year before "I live in Lisbon"
    leaves Lisbon current and is kept as what held until Lisbon began."""
    first = apply_statements([], [Statement(said("I live in Lisbon"), SOURCE_A, NOW)],
                             now=NOW, new_id=ids())
    [lisbon] = first.new
    year_before = NOW - timedelta(days=365)
    later = NOW + timedelta(days=2)
    imported = apply_statements(
        first.new, [Statement(said("I moved to Porto"), SOURCE_B, year_before)], now=later,
        new_id=lambda: UUID(int=77),
    )
    [porto] = imported.new
    assert imported.ended == {} and imported.replacements() == []
    assert porto.valid_from == year_before and porto.valid_until == lisbon.valid_from
    assert porto.superseded_by == lisbon.id and not porto.is_current(later)
