"""The prompt block says what memlane knows honestly: kept, told, each fact once, newest wins."""

from __future__ import annotations

from memlane.domain.facts.prompt_block import KEPT_HEADER, TOLD_HEADER, ProfileHeaders
from memlane.domain.facts.records import FactPatch, NewFact
from memlane.domain.model import NewMemory
from memlane.domain.retrieval.context import PREAMBLE
from tests.fakes.world import FakeWorld, new_owner


async def test_never_forget_heads_only_what_a_person_chose_to_keep() -> None:
    world, owner = FakeWorld(), new_owner()
    await world.service.remember(owner, NewMemory("I live in Porto."))
    await world.service.remember(owner, NewMemory("I work at Bosch.", pinned=True))
    raised = await world.service.remember(owner, NewMemory("I am allergic to shellfish."))
    await world.service.facts.state(owner, NewFact(relation="diet", object="vegetarian"))
    (shellfish,) = [f for f in await world.service.facts.current(owner)
                    if f.source_memory_id == raised.memory.id]
    await world.service.facts.update(owner, shellfish.id, FactPatch(user_fact_score=8))
    text = (await world.service.prompt_context(owner, "Where do I live?")).text
    kept, told = text.split(TOLD_HEADER)
    assert kept.startswith(KEPT_HEADER)
    assert "works at: Bosch" in kept and "diet: vegetarian" in kept
    assert "allergic to: shellfish" in kept
    assert "lives in: Porto" in told and "lives in" not in kept


async def test_a_memory_line_that_repeats_a_profile_line_is_left_out_and_newer_wins() -> None:
    world, owner = FakeWorld(), new_owner()
    await world.service.remember(owner, NewMemory("I live in Porto."))
    await world.service.remember(owner, NewMemory("I love the tiles in Porto. They are blue."))
    prompt = await world.service.prompt_context(owner, "Porto")
    assert "- [identity] lives in: Porto" in prompt.text
    assert "I live in Porto." not in prompt.text  # its one sentence is the profile line
    assert [m.content for m in prompt.memories] == ["I love the tiles in Porto. They are blue."]
    assert PREAMBLE in prompt.text and "newer statement replaces" in PREAMBLE


async def test_both_headers_are_the_deployments_words() -> None:
    from memlane.adapters.facts.heuristic import HeuristicFactExtractor
    from memlane.composition.services import memory_service
    from memlane.ports.facts.store import FactPorts

    world, owner = FakeWorld(), new_owner()
    german = ProfileHeaders("Vergiss nie:", "Der Nutzer hat dir erzählt:")
    service = memory_service(
        world.memories, world.embedder, world.encryption, world.keywords, world.policy,
        world.clock, graph=world.graph, facts=FactPorts(world.facts, HeuristicFactExtractor()),
        profile_headers=german,
    )
    await service.remember(owner, NewMemory("Ich wohne in Linz."))
    await service.facts.state(owner, NewFact(relation="diet", object="vegan"))
    text = (await service.prompt_context(owner, "Wo wohne ich?")).text
    assert text.startswith("Vergiss nie:\n- [constraint] diet: vegan\nDer Nutzer hat dir erzählt:")
    assert KEPT_HEADER not in text and TOLD_HEADER not in text
