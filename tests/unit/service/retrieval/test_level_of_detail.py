"""The level-of-detail prompt block: focus in full, one hop out as abstracts, further out
as counts, and never over its token budget, over random graphs (docs/levels.md)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from itertools import cycle

from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from memlane.domain.detail import Tier
from memlane.domain.graph.edges import Edge, EdgeKind
from memlane.domain.model import ContextRole, NewMemory, Owner
from memlane.domain.policy import DetailTuning, MemoryPolicy
from memlane.domain.retrieval import PREAMBLE, ContextOptions, render_line
from memlane.domain.retrieval.detail import RELATED_HEADER, FocusLine, Layers, fit_levels
from tests.contract.builders import at_cosine, axis
from tests.fakes.world import DIMENSION, FakeWorld, new_owner

QUERY = "what happened with the boat?"
WORDS = ("boat", "sail", "harbour", "storm", "Lisbon", "mast", "engine", "crew", "rope",
         "weekend", "Mina", "repair", "insurance", "varnish", "anchor", "bilge", "radio")
AT = datetime(2026, 5, 1, tzinfo=UTC)
# Shrinking a failing graph through the whole service takes minutes: the failing example
# is reported as found.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


def detailed() -> FakeWorld:
    """A world whose prompt block is rendered by level of detail (off by default)."""
    return FakeWorld(policy=MemoryPolicy(detail=DetailTuning(level_of_detail=True)))


async def _link(world: FakeWorld, owner: Owner, pairs: list[tuple[int, int, float]],
                ids: list[object]) -> None:
    edges = [Edge(ids[a], ids[b], EdgeKind.NARRATIVE, w, AT, AT)  # type: ignore[arg-type]
             for a, b, w in pairs if ids[a] != ids[b]]
    await world.graph.add_edges(owner, edges, cap_per_node=50)


texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=120).map(" ".join)


@settings(max_examples=40, deadline=None, phases=NO_SHRINK,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    contents=st.lists(texts, min_size=1, max_size=10),
    pairs=st.lists(st.tuples(st.integers(0, 13), st.integers(0, 13), st.floats(0.05, 1.0)),
                   max_size=30),
    budget=st.integers(1, 400),
    limit=st.integers(1, 8),
    profile=st.booleans(),
)
def test_the_block_never_exceeds_its_token_budget_over_random_graphs(
    contents: list[str], pairs: list[tuple[int, int, float]], budget: int, limit: int,
    profile: bool,
) -> None:
    async def scenario() -> None:
        world, owner = detailed(), new_owner()
        ids = []
        for i, text in enumerate(contents):
            written = await world.service.remember(owner, NewMemory(f"{text} ({i})."))
            ids.append(written.memory.id)
        await _link(world, owner, [(a % len(ids), b % len(ids), w) for a, b, w in pairs], ids)
        prompt = await world.service.prompt_context(
            owner, QUERY, limit, ContextOptions(token_budget=budget, include_profile=profile))
        if prompt.text:
            used = await world.embedder.count_tokens([prompt.text])
            assert used is not None and used[0] <= budget
        shown = dict(prompt.levels)
        assert {m.id for m in prompt.memories} <= set(shown)  # returned: shown
        flat = " ".join(prompt.text.split())  # a line holds its memory on one line
        assert all(" ".join(m.content.split()) in flat
                   for m in prompt.memories if shown[m.id] is Tier.L2)

    asyncio.run(scenario())


async def test_focus_is_in_full_its_neighbour_a_line_and_further_out_a_count() -> None:
    world, owner = detailed(), new_owner()
    world.embedder.vectors[QUERY] = axis(DIMENSION, 0)
    others = cycle(range(1, DIMENSION))
    texts = ["The boat's mast cracked in the storm off Lisbon.",
             "Mina booked the repair yard in Cascais for the mast.",
             "The insurance paid for the new varnish in June.",
             "The crew bought new rope for the anchor."]
    ids = []
    for cosine, text in zip((0.9, 0.1, 0.1, 0.1), texts, strict=True):
        world.embedder.vectors[text] = at_cosine(DIMENSION, cosine, other=next(others))
        ids.append((await world.service.remember(owner, NewMemory(text))).memory.id)
    await _link(world, owner, [(0, 1, 0.9), (1, 2, 0.8), (1, 3, 0.7)], ids)

    prompt = await world.service.prompt_context(owner, QUERY, 1, ContextOptions(
        token_budget=300, include_profile=False))
    assert [m.id for m in prompt.memories if m.role is ContextRole.ENTRY] == [ids[0]]
    levels = dict(prompt.levels)
    assert levels[ids[0]] is Tier.L2 and texts[0] in prompt.text
    related = prompt.text.split(RELATED_HEADER)[1]
    assert levels[ids[1]] is Tier.L0 and "Mina booked the repair yard" in related  # one hop
    # Two hops: counted, unless the graph's own reach brought one in as a hint line.
    counted = [i for i in ids[2:] if i not in levels]
    assert all(levels[i] is Tier.L0 for i in ids[2:] if i in levels)
    assert f"+{len(counted)} more about" in related if counted else "more about" not in related

    tight = await world.service.prompt_context(owner, QUERY, 1, ContextOptions(
        token_budget=12, include_profile=False))
    assert texts[0] not in tight.text and not tight.text.count("\n") > 2


async def test_by_default_the_block_is_whole_lines_and_names_no_levels() -> None:
    world, owner = FakeWorld(), new_owner()  # level of detail is off unless switched on
    world.embedder.vectors[QUERY] = axis(DIMENSION, 0)
    text = "The boat's mast cracked in the storm off Lisbon."
    world.embedder.vectors[text] = at_cosine(DIMENSION, 0.9, other=1)
    await world.service.remember(owner, NewMemory(text))
    prompt = await world.service.prompt_context(owner, QUERY, 1, ContextOptions(
        token_budget=3, include_profile=False))
    assert prompt.levels == ()
    assert prompt.text == PREAMBLE + "\n" + render_line(prompt.memories[0])


def test_a_focus_memory_falls_back_to_its_overview_then_its_abstract() -> None:
    def focus(name: str, named: bool = False) -> FocusLine:
        return FocusLine(ids[name], {Tier.L2: f"{name} " * 50, Tier.L1: f"{name} " * 10,
                                     Tier.L0: name}, named)

    from uuid import uuid4
    ids = {name: uuid4() for name in ("a", "b")}
    layers = Layers(fixed=["pre"], focus=[focus("a"), focus("b", named=True)])
    cost = lambda line: len(line.split())  # noqa: E731
    fitted = fit_levels(layers, cost, overhead=0, token_budget=1 + 2 + 50 + 10)
    assert fitted.tiers == {ids["b"]: Tier.L2, ids["a"]: Tier.L1}  # the named one first
    fitted = fit_levels(layers, cost, overhead=0, token_budget=20)
    assert fitted.tiers == {ids["b"]: Tier.L1, ids["a"]: Tier.L0}
    assert fit_levels(layers, cost, overhead=0, token_budget=0).tiers == {}
