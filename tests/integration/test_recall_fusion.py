"""Recall through the real stack: fusion finds keyword-only and paraphrase-only matches, and
conversation neighbours come along within the k budget."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.domain.model import NewMemory, Owner
from memlane.service.memory_service import MemoryService
from tests.integration.conftest import build_service

pytestmark = pytest.mark.integration

DISTRACTORS = [
    "I walked the dog along the river this morning.",
    "We had pasta with friends on Saturday evening.",
    "The garden needs watering twice a week in summer.",
    "Work has been busy with the quarterly planning.",
    "My sister is moving to Denmark next spring.",
    "I started learning the guitar two months ago.",
    "The car needs new tyres before the winter.",
    "Our team won the pub quiz on Thursday.",
    "I prefer tea over coffee in the afternoon.",
    "The museum has a new exhibition about whales.",
    "My laptop battery barely lasts two hours now.",
    "We are planning a hiking trip in the Alps.",
    "I read a novel about a lighthouse keeper.",
    "The neighbours are renovating their kitchen.",
    "I have a dentist appointment on Monday.",
    "My favourite season is autumn because of the colours.",
]
KEYWORD_ONLY = "The spare key is hidden under the Quillonby planter."
PARAPHRASE_ONLY = "There is a diner near my flat that serves food until 3 am."
QUERY = "Quillonby? Also, where can I grab a bite after midnight?"


async def test_fusion_puts_a_keyword_only_and_a_paraphrase_only_match_in_the_top_k(
    service: MemoryService, owner: Owner
) -> None:
    texts = [*DISTRACTORS[:8], KEYWORD_ONLY, *DISTRACTORS[8:], PARAPHRASE_ONLY]
    await service.remember_many(owner, [NewMemory(t) for t in texts])
    # The premise: one target shares only a rare word, the other only meaning.
    words = SnowballKeywordAdapter()
    keyword_terms = set(words.terms(KEYWORD_ONLY))
    paraphrase_terms = set(words.terms(PARAPHRASE_ONLY))
    query_terms = set(words.terms(QUERY))
    assert keyword_terms & query_terms and not paraphrase_terms & query_terms
    chosen = await service.retrieve_context(owner, QUERY, 3)
    assert {KEYWORD_ONLY, PARAPHRASE_ONLY} <= {c.content for c in chosen}


async def test_a_year_old_memory_that_matches_beats_fresh_ones_that_do_not(
    service: MemoryService, owner: Owner
) -> None:
    old = NewMemory(
        "My daughter's violin teacher is called Mrs. Okonkwo.",
        created_at=datetime.now(UTC) - timedelta(days=400),
    )
    await service.remember_many(owner, [old, *(NewMemory(t) for t in DISTRACTORS)])
    chosen = await service.retrieve_context(owner, "Who teaches my daughter the violin?", 1)
    assert [c.content for c in chosen] == [old.content]


async def test_the_turn_after_a_strong_hit_comes_along_in_the_same_conversation(
    pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, owner: Owner
) -> None:
    key = os.urandom(32)
    service = build_service(pg_pool, embedder, key)
    without = build_service(pg_pool, embedder, key, neighbour_seeds=0)
    start = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)
    talk = [
        "Did you ever get that scooter repaired?",
        "Yes, it cost me two hundred euros in the end.",
        "Nice, the weather is lovely today.",
    ]
    turns = [
        NewMemory(t, conversation_id="chat-7", created_at=start + timedelta(minutes=i))
        for i, t in enumerate(talk)
    ]
    await service.remember_many(owner, [*turns, *(NewMemory(t) for t in DISTRACTORS)])
    # The answer shares no word with the question: on its own it misses the top 3; its
    # place right after the question it answers (a strong hit) brings it in. (The first
    # call records access to what it chose, which only makes the second assertion harder.)
    query = "What happened with the scooter repair?"
    assert talk[1] not in {c.content for c in await without.retrieve_context(owner, query, 3)}
    assert talk[1] in {c.content for c in await service.retrieve_context(owner, query, 3)}
