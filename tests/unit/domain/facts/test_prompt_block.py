"""The profile's lines in a prompt: "never forget" only over what a person chose to keep."""

from __future__ import annotations

from uuid import uuid4

import pytest
from hypothesis import given, strategies as st

from memlane.domain.facts.model import FactType
from memlane.domain.facts.prompt_block import (
    KEPT_HEADER,
    TOLD_HEADER,
    ProfileHeaders,
    kept_by_a_person,
    render_block,
    repeats_the_profile,
)
from tests.unit.domain.facts.test_profile import fact


def test_only_stated_pinned_or_raised_facts_are_kept_by_a_person() -> None:
    pinned, read = uuid4(), uuid4()
    assert kept_by_a_person(fact(source=None), set())  # POST /v1/facts
    assert kept_by_a_person(fact(source=pinned), {pinned})
    assert kept_by_a_person(fact(source=read, score=8), set())
    assert not kept_by_a_person(fact(source=read), set())  # memlane read it
    assert not kept_by_a_person(fact(source=read, score=5), set())  # the default, not raised
    assert not kept_by_a_person(fact(source=read, score=3), set())


def test_extracted_facts_go_under_the_neutral_header_and_kept_ones_first() -> None:
    home = fact(obj="Porto", source=uuid4())
    allergy = fact(FactType.CONSTRAINT, obj="peanuts", source=None)
    block = render_block([home, allergy], set(), ProfileHeaders(), 1000)
    assert block.text.split("\n") == [
        KEPT_HEADER, "- [constraint] allergic to: peanuts",
        TOLD_HEADER, "- [identity] name: Porto",
    ]
    told_only = render_block([home], set(), ProfileHeaders(), 1000)
    assert told_only.text.split("\n") == [TOLD_HEADER, "- [identity] name: Porto"]
    assert KEPT_HEADER not in told_only.text


def test_a_deployment_words_its_own_headers() -> None:
    german = ProfileHeaders("Was du nie vergessen sollst:", "Was der Nutzer dir erzählt hat:")
    block = render_block([fact(obj="Linz", source=uuid4()), fact(obj="x", source=None)],
                         set(), german, 1000)
    assert block.text.startswith("Was du nie vergessen sollst:\n")
    assert "\nWas der Nutzer dir erzählt hat:\n- [identity] name: Linz" in block.text
    with pytest.raises(ValueError):
        ProfileHeaders("two\nlines")


@given(st.integers(0, 400), st.lists(st.booleans(), max_size=12))
def test_the_block_never_exceeds_its_budget_and_shows_what_it_renders(
    budget: int, kept: list[bool]
) -> None:
    facts = [fact(obj=f"place number {i}", source=None if k else uuid4())
             for i, k in enumerate(kept)]
    block = render_block(facts, set(), ProfileHeaders(), budget)
    assert len(block.text) <= budget
    assert block.text.count("\n- ") + block.text.startswith("- ") == len(block.shown)


def test_a_memory_repeats_the_profile_only_when_its_facts_lines_say_every_word_of_it() -> None:
    home, job, pet = uuid4(), uuid4(), uuid4()
    shown = [fact(obj="Porto", source=home), fact(obj="Bosch", source=job),
             fact(FactType.PREFERENCE, obj="Bruno", source=pet)]
    said = render_block(shown, set(), ProfileHeaders(), 1000).said
    assert said.keys() == {home, job, pet}
    # `fact()` makes `name` facts: "name: Porto" says name and Porto.
    assert repeats_the_profile("My name is Porto.", home, said)
    assert repeats_the_profile("Actually, my name is now Porto!", home, said)  # fillers
    assert not repeats_the_profile("My name is Porto since last May.", home, said)
    assert not repeats_the_profile("My name is Bosch.", home, said)  # another memory's line
    assert not repeats_the_profile("My name is Porto.", uuid4(), said)  # no line of its own
