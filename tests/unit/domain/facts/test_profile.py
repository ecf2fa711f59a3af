"""The "do not forget" profile: grouping by type, ranking, caps per tier, prompt rendering."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

from hypothesis import given, strategies as st

from memlane.domain.facts.model import RELATION_TYPES, Fact, FactType, TimeSpan
from memlane.domain.facts.profile import (
    TYPE_ORDER,
    ProfileCaps,
    build_profile,
)
from memlane.domain.facts.prompt_block import KEPT_HEADER, ProfileHeaders, render_block
from memlane.domain.text_rules import is_blank

NOW = datetime(2030, 6, 1, tzinfo=UTC)
RELATION_OF = {t: next(r for r, ft in RELATION_TYPES.items() if ft is t) for t in FactType}


def fact(
    fact_type: FactType = FactType.IDENTITY, *, obj: str = "x", score: float | None = None,
    confidence: float = 0.85, source: UUID | None = None, ended: bool = False,
) -> Fact:
    return Fact(
        id=uuid4(), subject="user", relation=RELATION_OF[fact_type], object=obj,
        fact_type=fact_type, time_span=TimeSpan.CURRENT, confidence=confidence,
        valid_from=NOW - timedelta(days=1), created_at=NOW, updated_at=NOW,
        user_fact_score=score, source_memory_id=source,
        valid_until=NOW - timedelta(hours=1) if ended else None,
    )


def test_types_come_in_the_profile_order_whatever_the_input_order() -> None:
    facts = [fact(t) for t in reversed(list(FactType))]
    profile = build_profile(facts, {}, ProfileCaps(core_per_type=1), NOW)
    assert [f.fact_type for f in profile.core] == list(TYPE_ORDER)
    assert TYPE_ORDER[:3] == (FactType.IDENTITY, FactType.COMMITMENT, FactType.CONSTRAINT)


def test_a_users_score_ranks_before_confidence_times_importance() -> None:
    weak_source, strong_source = uuid4(), uuid4()
    scored = fact(obj="scored", score=9, confidence=0.2, source=weak_source)
    strong = fact(obj="strong", confidence=1.0, source=strong_source)
    weak = fact(obj="weak", confidence=0.9, source=weak_source)
    low = fact(obj="low", score=2, confidence=1.0)
    importance = {weak_source: 0.1, strong_source: 0.9}
    profile = build_profile([weak, low, strong, scored], importance, ProfileCaps(4, 0), NOW)
    assert [f.object for f in profile.core] == ["scored", "strong", "weak", "low"]


def test_each_tier_is_capped_per_type_and_secondary_takes_the_next() -> None:
    facts = [fact(FactType.PREFERENCE, obj=str(i), confidence=i / 10) for i in range(1, 9)]
    facts += [fact(FactType.IDENTITY, obj="name")]
    profile = build_profile(facts, {}, ProfileCaps(core_per_type=2, secondary_per_type=3), NOW)
    assert [f.object for f in profile.core] == ["name", "8", "7"]
    assert [f.object for f in profile.secondary] == ["6", "5", "4"]


def test_ended_facts_and_facts_scored_zero_are_left_out() -> None:
    kept = fact(obj="kept")
    profile = build_profile(
        [kept, fact(obj="wrong", score=0), fact(obj="old", ended=True)], {}, ProfileCaps(), NOW
    )
    assert profile.core == (kept,) and profile.secondary == ()


@given(
    types=st.lists(st.sampled_from(list(FactType)), max_size=40),
    core=st.integers(0, 5), secondary=st.integers(0, 5),
)
def test_no_type_ever_exceeds_its_caps_and_no_fact_appears_twice(
    types: list[FactType], core: int, secondary: int
) -> None:
    facts = [fact(t) for t in types]
    profile = build_profile(facts, {}, ProfileCaps(core, secondary), NOW)
    for fact_type in FactType:
        available = types.count(fact_type)
        assert sum(f.fact_type is fact_type for f in profile.core) == min(core, available)
        assert sum(f.fact_type is fact_type for f in profile.secondary) == min(
            secondary, max(0, available - core)
        )
    ids = [f.id for f in (*profile.core, *profile.secondary)]
    assert len(ids) == len(set(ids))


def test_the_rendered_profile_keeps_whole_lines_within_the_budget() -> None:
    facts = [fact(FactType.IDENTITY, obj="nurse"), fact(FactType.CONSTRAINT, obj="peanuts")]
    text = render_block(facts, set(), ProfileHeaders(), 200).text
    assert text.splitlines() == [
        KEPT_HEADER, "- [identity] name: nurse", "- [constraint] allergic to: peanuts",
    ]  # stated facts (no source memory): kept by a person
    tight = render_block(facts, set(), ProfileHeaders(), len(KEPT_HEADER) + 26).text
    assert tight.splitlines() == [KEPT_HEADER, "- [identity] name: nurse"]
    assert render_block(facts, set(), ProfileHeaders(), 10).text == ""
    assert render_block([], set(), ProfileHeaders(), 500).text == ""


@given(budget=st.integers(0, 400), objects=st.lists(st.text(min_size=1, max_size=80).filter(
    lambda o: not is_blank(o)), max_size=10))
def test_a_rendered_profile_never_exceeds_its_budget(budget: int, objects: list[str]) -> None:
    block = render_block([fact(obj=o) for o in objects], set(), ProfileHeaders(), budget)
    assert len(block.text) <= budget
