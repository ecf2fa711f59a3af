"""The learned supersession judge: its shipped weights, where it decides beside the rules,
and the vetoes it never overrides (a past-anchored statement replaces nothing)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest
from hypothesis import given, settings, strategies as st

from memlane.adapters.supersession.weights import shipped_judge
from memlane.domain.graph.supersession import (
    Candidate,
    SupersessionKind,
    candidate_features,
    judge_supersession,
)
from memlane.domain.graph.supersession_learned import FEATURES, InvalidJudgeWeights, LearnedJudge

NOW = datetime(2025, 6, 11, 10, tzinfo=UTC)
# A judge that replaces whatever it may: only the vetoes stand between it and a decision.
ALWAYS = LearnedJudge(("cosine",), (0.0,), (1.0,), (1.0,), 50.0, 0.5)
# A judge that weighs the cosine alone: likely from 0.6 up.
BY_COSINE = LearnedJudge(("cosine",), (0.6,), (0.1,), (3.0,), 0.0, 0.5)


def candidates(older: list[tuple[str, float]]) -> list[Candidate]:
    """Older statements said an hour apart, oldest first, with their cosines."""
    return [Candidate(UUID(int=i + 1), text, cosine, NOW - timedelta(hours=30 - i))
            for i, (text, cosine) in enumerate(older)]


def judged(new: str, older: list[tuple[str, float]], learned: LearnedJudge | None) -> list[int]:
    decisions = judge_supersession(new, candidates(older), said_at=NOW, learned=learned)
    return [d.replaces.int - 1 for d in decisions]


def test_the_shipped_weights_fit_the_features_and_give_the_same_answer_every_time() -> None:
    judge = shipped_judge()
    # Every feature it weighs is one the judge computes; not the raw cosine, which differs
    # between the write routes, nor the chain's head, which depends on the candidates a route
    # hands over.
    assert set(judge.features) <= set(FEATURES)
    assert not {"cosine", "head"} & set(judge.features)
    assert 0.5 <= judge.threshold <= 1.0
    older = candidates([("I mostly code in Go.", 0.7), ("I like hiking.", 0.1)])
    features = candidate_features("These days I mostly code in Rust.", older, said_at=NOW)
    first = {i: judge.probability(v) for i, v in features.items()}
    again = {i: shipped_judge().probability(v) for i, v in features.items()}
    assert first == again
    # The statement about the same thing is likely replaced, the unrelated one is not.
    assert first[UUID(int=1)] >= judge.threshold and first[UUID(int=2)] < 0.1


def test_it_decides_only_where_the_rules_find_nothing() -> None:
    # Rules: no change language, no shared slot; the learned judge goes by the cosine.
    older = [("Breakfast is porridge with apples.", 0.9), ("I like hiking.", 0.2)]
    assert judged("Mornings start with granola.", older, None) == []
    decisions = judge_supersession("Mornings start with granola.", candidates(older),
                                   said_at=NOW, learned=BY_COSINE)
    assert [d.replaces.int for d in decisions] == [1]
    assert decisions[0].reasons == ("learned",)
    assert decisions[0].kind is SupersessionKind.SUPERSEDES
    # Where the rules decide, their decision stands, whatever the learned judge would say.
    rules_older = [("I live in Berlin.", 0.2), ("Breakfast is porridge.", 0.9)]
    assert judged("I moved to Lisbon.", rules_older, BY_COSINE) == judged(
        "I moved to Lisbon.", rules_older, None) == [0]


def test_below_its_threshold_nothing_is_replaced() -> None:
    older = [("Breakfast is porridge with apples.", 0.3)]
    assert judged("Mornings start with granola.", older, BY_COSINE) == []


@pytest.mark.parametrize("new", [
    "Is the dentist on Monday?", "I might switch to tea.", "I also like tea.",
    "I still drink coffee.", "Vielleicht trinke ich bald Tee.",
])
def test_what_replaces_nothing_by_the_rules_is_vetoed_for_it_too(new: str) -> None:
    assert judged(new, [("I drink coffee every morning.", 0.9)], ALWAYS) == []


def test_history_and_already_replaced_values_are_never_its_candidates() -> None:
    older = [("I lived in Munich before.", 0.9), ("I live in Graz.", 0.8)]
    found = judge_supersession("Vienna is home.", candidates(older), said_at=NOW,
                               replaced={UUID(int=2)}, learned=ALWAYS)
    assert found == []


ANCHORS = st.sampled_from([
    "Years ago", "Back in 2015", "As a kid", "When I was a student", "A long time ago",
    "Vor Jahren", "Als Kind", "Damals", "In meiner Jugend", "Vor vielen Jahren",
])
PLACES = st.sampled_from(["Lisbon", "Porto", "York", "Köln", "Graz", "Bremen", "Oslo"])
DEEDS = st.sampled_from(["I moved to {}", "I lived in {}", "I worked in {}",
                         "wohnte ich in {}", "bin ich nach {} gezogen", "I studied in {}"])


@settings(max_examples=60, deadline=None)
@given(anchor=ANCHORS, place=PLACES, deed=DEEDS, cosine=st.floats(0.0, 1.0))
def test_a_past_anchored_statement_never_supersedes_whatever_the_judge(
    anchor: str, place: str, deed: str, cosine: float
) -> None:
    new = f"{anchor} {deed.format(place)}."
    older = [("I live in Berlin.", cosine), ("Ich arbeite bei Siemens.", cosine)]
    for judge in (ALWAYS, shipped_judge()):
        assert judged(new, older, judge) == [], new


def test_weights_that_do_not_fit_the_features_are_refused() -> None:
    with pytest.raises(InvalidJudgeWeights):
        LearnedJudge.from_mapping({"features": ["cosine"], "mean": [0.0]})
    with pytest.raises(InvalidJudgeWeights):
        LearnedJudge(("no such feature",), (0.0,), (1.0,), (1.0,), 0.0, 0.5)
    with pytest.raises(InvalidJudgeWeights):
        LearnedJudge(("cosine",), (0.0,), (1.0,), (1.0, 2.0), 0.0, 0.5)
    with pytest.raises(InvalidJudgeWeights):
        LearnedJudge(("cosine",), (0.0,), (0.0,), (1.0,), 0.0, 0.5)
