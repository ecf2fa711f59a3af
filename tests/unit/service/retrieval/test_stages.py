"""Each retrieval stage on its own: what it reads from the request's state and what it writes."""

from __future__ import annotations

import asyncio
from uuid import UUID

from memlane.domain.facts.prompt_block import ProfileBlock
from memlane.domain.model import ContextRole
from memlane.domain.policy import MemoryPolicy, RecallTuning
from memlane.domain.retrieval.context import ContextOrder
from memlane.service.retrieval.candidates import Expansion, Rankings
from memlane.service.retrieval.contexts import Contexts
from memlane.service.retrieval.conversation_prior import ConversationPrior
from memlane.service.retrieval.filters import Superseded
from memlane.service.retrieval.fusion import Fusion
from memlane.service.retrieval.opening import SearchCut
from memlane.service.retrieval.pipeline import Pipeline, Retrieval
from memlane.service.retrieval.prompt import Budget, Profile, Rendering, Repeats, StartProfile
from memlane.service.retrieval.selection import Ranking, Selection
from tests.unit.service.retrieval.stage_builders import (
    OWNER,
    candidate,
    context,
    hit,
    opened,
    request,
)


async def test_fusion_ranks_what_both_searches_found_first_and_marks_words_and_names() -> None:
    both, dense_only, words_only, named = hit(0.9), hit(0.8), hit(0.0), hit(0.1)
    r = request()
    r.rankings = Rankings(
        dense=[both, dense_only], lexical=[both, words_only], by_name=[named],
        similarities={both.id: 0.9, dense_only.id: 0.8, words_only.id: 0.2, named.id: 0.1},
    )
    await Fusion(RecallTuning(), entity_weight=0.5)(r)
    assert r.candidates[0].id == both.id
    assert {c.id for c in r.candidates} == {both.id, dense_only.id, words_only.id, named.id}
    flags = {c.id: c.lexical for c in r.candidates}
    assert flags == {both.id: True, dense_only.id: False, words_only.id: True, named.id: True}
    assert r.named == frozenset({named.id})
    assert {c.id: c.similarity for c in r.candidates}[words_only.id] == 0.2


async def test_the_conversation_prior_raises_a_hit_from_a_conversation_with_several() -> None:
    lone = candidate(1.0, conversation="elsewhere")
    chatty = [candidate(0.9, conversation="trip") for _ in range(3)]
    r = request()
    r.candidates = [lone, *chatty]
    await ConversationPrior(RecallTuning(conversation_weight=0.5, conversation_hits=3))(r)
    assert r.candidates[0].hit.conversation_id == "trip"


async def test_search_cut_keeps_the_best_places_at_or_above_the_similarity_floor() -> None:
    r = request(places=2)
    r.min_similarity = 0.5
    r.vector = [1.0]
    r.candidates = [candidate(3, 0.9), candidate(2, 0.2, lexical=True), candidate(1, 0.6),
                    candidate(0.5, 0.7)]
    await SearchCut()(r)
    assert [c.match for c in r.chosen] == [3, 1]


async def test_what_was_superseded_gives_way_unless_the_past_is_asked_for() -> None:
    old, new, neighbour = candidate(1.0), candidate(0.9), candidate(0.5)
    r = request()
    r.candidates, r.added = [old, new], [neighbour]
    r.expansion = Expansion(superseded_by={old.id: new.id, neighbour.id: new.id})
    await Superseded()(r)
    assert r.candidates == [new] and r.added == []
    asked = request(include_superseded=True)
    asked.candidates = [old, new]
    asked.expansion = Expansion(superseded_by={old.id: new.id})
    await Superseded()(asked)
    assert asked.candidates == [old, new]


async def test_selection_keeps_the_best_places_with_relevance_breaking_a_near_tie() -> None:
    policy = MemoryPolicy()
    stale = candidate(1.0, 0.5, age_days=400, importance=0.2)
    fresh = candidate(0.999, 0.5, age_days=0, importance=0.9)
    weak = candidate(0.1)
    r = request(places=2)
    r.candidates, r.added = [stale, weak], [fresh]
    await Selection(Ranking(policy))(r)
    assert r.chosen == [fresh, stale]


async def test_contexts_say_how_each_memory_was_found() -> None:
    entry, named, chained, reached = opened(), opened(), opened(), opened()
    r = request()
    r.opened = [entry, named, chained, reached]
    r.candidates = [
        candidate(1.0, memory_id=entry.memory.id),
        candidate(0.5, 0.1, memory_id=named.memory.id),
    ]
    r.named = frozenset({named.memory.id})
    r.added = [candidate(0.4, memory_id=chained.memory.id)]
    r.expansion = Expansion(roles={reached.memory.id: ContextRole.SEMANTIC},
                            superseded_by={entry.memory.id: reached.memory.id})
    await Contexts(rag_threshold=0.25)(r)
    roles = {c.id: c.role for c in r.contexts}
    assert roles == {
        entry.memory.id: ContextRole.ENTRY, named.memory.id: ContextRole.ENTITY,
        chained.memory.id: ContextRole.CHAIN, reached.memory.id: ContextRole.SEMANTIC,
    }
    assert {c.id: c.superseded_by for c in r.contexts}[entry.memory.id] == reached.memory.id


class Facts:
    def __init__(self, said: dict[UUID, frozenset[str]] | None = None) -> None:
        self.said = said or {}

    async def profile_block(self, owner: object, char_budget: int) -> ProfileBlock:
        text = "What the user has told you:\n- [identity] lives in: Porto"
        return ProfileBlock(text, said=self.said)


async def test_the_profile_opens_the_block_and_the_memories_share_what_is_left() -> None:
    r = request()
    r.char_budget = 2000
    r.contexts = [context(f"memory {i}") for i in range(3)]
    await Profile(Facts())(r)
    profile = (await Facts().profile_block(OWNER, 2000)).text
    assert r.char_budget == 2000 - len(profile) - 1
    await Budget()(r)
    await Rendering()(r)
    assert r.text.startswith(profile + "\n")
    assert len(r.text) <= 2000 and r.text.count("\n- [fact]") == 3


class CountedFacts(Facts):
    """Facts whose reads are counted, each noting the stages already run when it began."""

    def __init__(self, log: list[str]) -> None:
        super().__init__()
        self.log = log
        self.reads: list[list[str]] = []

    async def profile_block(self, owner: object, char_budget: int) -> ProfileBlock:
        self.reads.append(list(self.log))
        return await super().profile_block(owner, char_budget)


async def test_the_profile_is_read_once_while_the_memories_are_chosen() -> None:
    log: list[str] = []
    facts = CountedFacts(log)

    async def choose(r: Retrieval) -> None:
        log.append("choose")
        await asyncio.sleep(0)  # the read started before runs meanwhile
        log.append("chosen")

    r = request()
    r.char_budget = 2000
    await Pipeline([StartProfile(facts), choose], closing=[Profile(facts)]).run(r)
    assert facts.reads == [["choose"]]
    assert r.profile == (await Facts().profile_block(OWNER, 2000)).text


async def test_a_retrieval_that_finished_before_the_profile_started_reads_it_at_the_close() -> (
    None
):
    facts = CountedFacts([])

    async def nothing_found(r: Retrieval) -> None:
        r.finish()

    r = request()
    r.char_budget = 2000
    await Pipeline([nothing_found, StartProfile(facts)], closing=[Profile(facts)]).run(r)
    assert len(facts.reads) == 1 and r.profile.startswith("What the user has told you")


async def test_a_memory_line_that_only_repeats_a_profile_line_is_left_out() -> None:
    repeat, more = context("I now live in Porto."), context("I live in Porto. I love it here.")
    other = context("I keep bees on the roof.")
    r = request()
    r.char_budget = 2000
    r.contexts = [repeat, more, other]
    porto = frozenset({"liv", "porto"})  # what "lives in: Porto" says, stemmed
    await Profile(Facts({repeat.id: porto, more.id: porto}))(r)
    await Repeats()(r)
    assert r.contexts == [more, other]  # loving it here says more than the profile line


async def test_the_budget_keeps_only_whole_lines_that_fit() -> None:
    r = request(order=ContextOrder.PRIORITY)
    r.contexts = [context(f"memory number {i}") for i in range(50)]
    r.char_budget = 300
    await Budget()(r)
    await Rendering()(r)
    assert 0 < len(r.contexts) < 50 and len(r.text) <= 300
    assert r.text.count("\n- ") == len(r.contexts)


async def test_a_memory_marked_superseded_gives_way_when_the_graph_knows_nothing() -> None:
    new = candidate(0.9)
    old = candidate(1.0, superseded_by=new.id)
    orphan = candidate(0.8, superseded_by=new.id)  # its replacement was not found
    r = request()
    r.candidates = [old, new, orphan]
    await Superseded()(r)
    assert r.candidates == [new]
