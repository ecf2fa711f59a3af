"""The "do not forget" profile: grouping by type, ranking, caps per tier, prompt rendering."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

from hypothesis import given, strategies as st

from memlane.domain.facts.model import RELATION_TYPES, Fact, FactType, TimeSpan
from memlane.domain.facts.profile import (
    SAFETY_RELATIONS,
    TYPE_ORDER,
    ProfileCaps,
    build_profile,
    is_safety,
)
from memlane.domain.facts.prompt_block import (
    KEPT_HEADER,
    TOLD_HEADER,
    ProfileHeaders,
    render_block,
)
from memlane.domain.text_rules import is_blank

NOW = datetime(2030, 6, 1, tzinfo=UTC)
RELATION_OF = {t: next(r for r, ft in RELATION_TYPES.items() if ft is t) for t in FactType}


def fact(
    fact_type: FactType = FactType.IDENTITY, *, obj: str = "x", score: float | None = None,
    confidence: float = 0.85, source: UUID | None = None, ended: bool = False,
    relation: str | None = None, said_days_ago: float = 1,
) -> Fact:
    return Fact(
        id=uuid4(), subject="user", relation=relation or RELATION_OF[fact_type], object=obj,
        fact_type=fact_type, time_span=TimeSpan.CURRENT, confidence=confidence,
        valid_from=NOW - timedelta(days=said_days_ago), created_at=NOW, updated_at=NOW,
        user_fact_score=score, source_memory_id=source,
        valid_until=NOW - timedelta(hours=1) if ended else None,
    )


def safety(obj: str = "peanuts", **kw: Any) -> Fact:
    return fact(FactType.CONSTRAINT, relation="allergic_to", obj=obj, **kw)


def test_safety_comes_first_then_the_types_in_the_profile_order_whatever_the_input_order(
) -> None:
    facts = [fact(t, relation="afraid_of" if t is FactType.CONSTRAINT else None)
             for t in reversed(list(FactType))]
    allergy = safety()
    profile = build_profile([*facts, allergy], ProfileCaps(core_per_type=1), NOW)
    assert profile.core[0] is allergy
    assert [f.fact_type for f in profile.core[1:]] == list(TYPE_ORDER)
    assert TYPE_ORDER[:3] == (FactType.IDENTITY, FactType.COMMITMENT, FactType.CONSTRAINT)
    assert {"allergic_to", "intolerant_to", "condition"} == SAFETY_RELATIONS


def test_an_allergy_said_a_month_ago_stays_core_before_any_other_constraint() -> None:
    # The held-out case: a severe allergy, 30 days old, ranked behind "afraid of heights".
    allergy = safety("penicillin", said_days_ago=30, confidence=0.6, source=uuid4())
    fears = [fact(FactType.CONSTRAINT, relation="afraid_of", obj=o, confidence=1.0, score=9,
                  source=uuid4(), said_days_ago=days)
             for days, o in enumerate(("heights", "spiders", "flying", "dogs"), start=1)]
    profile = build_profile([*fears, allergy], ProfileCaps(core_per_type=3), NOW)
    assert profile.core[0] is allergy
    assert [f.object for f in profile.core[1:]] == ["heights", "spiders", "flying"]  # newest
    assert [f.object for f in profile.secondary] == ["dogs"]


def test_safety_constraints_are_all_core_and_take_no_other_constraints_place() -> None:
    allergies = [safety(str(i)) for i in range(6)]
    rules = [fact(FactType.CONSTRAINT, relation="rule", obj=f"rule {i}") for i in range(2)]
    profile = build_profile([*rules, *allergies], ProfileCaps(core_per_type=2), NOW)
    assert {f.object for f in profile.core[:6]} == {str(i) for i in range(6)}
    assert {f.object for f in profile.core[6:]} == {"rule 0", "rule 1"}
    only = build_profile([*rules, *allergies], ProfileCaps(0, 0), NOW)
    assert [f.relation for f in only.core] == ["allergic_to"] * 6 and only.secondary == ()


def test_the_users_score_ranks_first_then_confidence_then_the_newer_statement() -> None:
    scored = fact(obj="scored", score=9, confidence=0.2, source=uuid4())
    strong = fact(obj="strong", confidence=1.0, source=uuid4(), said_days_ago=300)
    newer = fact(obj="newer", confidence=0.9, said_days_ago=1)
    older = fact(obj="older", confidence=0.9, said_days_ago=2)
    low = fact(obj="low", score=2, confidence=1.0)
    profile = build_profile([older, low, newer, strong, scored], ProfileCaps(5, 0), NOW)
    assert [f.object for f in profile.core] == ["scored", "strong", "newer", "older", "low"]
    low_allergy, allergy = safety("nuts", score=1), safety("latex")
    assert build_profile([low_allergy, allergy], ProfileCaps(), NOW).core == (
        allergy, low_allergy)


def test_facts_written_together_rank_by_what_their_relation_says_about_the_user() -> None:
    # One message, equal confidence and time: the id (random) must not decide which is core.
    together = [fact(relation=r, obj=r) for r in ("pet", "works_at", "lives_in", "name")]
    for order in (together, together[::-1]):
        profile = build_profile(order, ProfileCaps(core_per_type=3), NOW)
        assert [f.object for f in profile.core] == ["name", "lives_in", "works_at"]
        assert [f.object for f in profile.secondary] == ["pet"]


def test_each_tier_is_capped_per_type_and_secondary_takes_the_next() -> None:
    facts = [fact(FactType.PREFERENCE, obj=str(i), confidence=i / 10) for i in range(1, 9)]
    facts += [fact(FactType.IDENTITY, obj="name")]
    profile = build_profile(facts, ProfileCaps(core_per_type=2, secondary_per_type=3), NOW)
    assert [f.object for f in profile.core] == ["name", "8", "7"]
    assert [f.object for f in profile.secondary] == ["6", "5", "4"]


def test_ended_facts_and_facts_scored_zero_are_left_out() -> None:
    kept = fact(obj="kept")
    profile = build_profile(
        [kept, fact(obj="wrong", score=0), fact(obj="old", ended=True),
         safety("wrong", score=0), safety("old", ended=True)], ProfileCaps(), NOW
    )
    assert profile.core == (kept,) and profile.secondary == ()


@given(
    kinds=st.lists(st.sampled_from([*FactType, "safety"]), max_size=40),
    core=st.integers(0, 5), secondary=st.integers(0, 5),
)
def test_no_type_ever_exceeds_its_caps_no_safety_fact_is_dropped_and_none_appears_twice(
    kinds: list[FactType | str], core: int, secondary: int
) -> None:
    facts = [safety() if k == "safety" else fact(
        k, relation="rule" if k is FactType.CONSTRAINT else None) for k in kinds
        if isinstance(k, FactType) or k == "safety"]
    profile = build_profile(facts, ProfileCaps(core, secondary), NOW)
    assert sum(is_safety(f) for f in profile.core) == kinds.count("safety")
    assert not any(is_safety(f) for f in profile.secondary)
    for fact_type in FactType:
        available = kinds.count(fact_type)
        assert sum(f.fact_type is fact_type and not is_safety(f)
                   for f in profile.core) == min(core, available)
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


def test_a_tight_budget_keeps_a_told_allergy_before_a_kept_name() -> None:
    allergy = safety("penicillin", source=uuid4())  # read from what the user said: told
    name = fact(FactType.IDENTITY, obj="Alice")  # stated: kept
    line = "- [constraint] allergic to: penicillin"
    block = render_block([allergy, name], set(), ProfileHeaders(), len(TOLD_HEADER) + 1 + len(line))
    assert block.text.splitlines() == [TOLD_HEADER, line] and block.shown == (allergy,)
    roomy = render_block([allergy, name], set(), ProfileHeaders(), 500)
    assert roomy.text.splitlines() == [KEPT_HEADER, "- [identity] name: Alice", TOLD_HEADER, line]
    assert roomy.shown == (name, allergy)


@given(budget=st.integers(0, 400), objects=st.lists(st.text(min_size=1, max_size=80).filter(
    lambda o: not is_blank(o)), max_size=10))
def test_a_rendered_profile_never_exceeds_its_budget(budget: int, objects: list[str]) -> None:
    block = render_block([fact(obj=o) for o in objects], set(), ProfileHeaders(), budget)
    assert len(block.text) <= budget
