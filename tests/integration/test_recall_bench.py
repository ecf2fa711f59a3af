"""bench/locomo.py's memlane side on a small LoCoMo-shaped chat: through the real service, the
embedding cache changes no ranking, and the answers map back to the turns that hold them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.embedding_cache import EmbeddingCacheStore
from bench.memory_sets import MemorySet, read_conversation
from bench.recall_memlane import run_memlane

from memlane.settings import Settings

SMALL_TALK = ["Haha, yes!", "Okay, sounds good.", "Sure thing.", "Talk soon!", "Right, right."]


def _chat() -> dict[str, Any]:
    first = ["I adopted a grey cat called Biscuit last week.", *SMALL_TALK,
             "She sleeps on my keyboard all day."]
    second = [*SMALL_TALK, "I finally finished reading 'The Left Hand of Darkness'.",
              "Next I'll go hiking in the Dolomites."]

    def session(texts: list[str], number: int) -> list[dict[str, str]]:
        return [{"speaker": ("Ana", "Ben")[i % 2], "text": t, "dia_id": f"D{number}:{i + 1}"}
                for i, t in enumerate(texts)]

    return {
        "sample_id": "small",
        "conversation": {
            "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": session(first, 1),
            "session_2_date_time": "10:37 am on 27 June, 2023", "session_2": session(second, 2),
        },
        "qa": [
            {"question": "What is the name of Ana's cat?", "evidence": ["D1:1"], "category": 4},
            {"question": "Which book was finished?", "evidence": ["D2:6"], "category": 4},
            {"question": "Where will they go hiking?", "evidence": ["D2:7"], "category": 1},
        ],
    }


def _settings(url: str, tmp_path: Path) -> Settings:
    return Settings(
        database={"url": url, "pool_min_size": 1, "pool_max_size": 4},
        memory={"encryption_key_path": tmp_path / "key"},
        worker={"enabled": False},
    )


async def test_cached_runs_rank_like_an_uncached_one(
    fresh_database_url: str, tmp_path: Path
) -> None:
    settings = _settings(fresh_database_url, tmp_path)
    store = EmbeddingCacheStore(tmp_path / "cache.sqlite3")
    chat = read_conversation(_chat())
    # Each run writes its own memory users (the set's name is part of the user id).
    runs = []
    for name, cache in (("plain", None), ("filling", store), ("cached", store)):
        memory_set = MemorySet(name, (replace(chat),))
        done = await run_memlane(settings, [memory_set], k=10, depth=50, conversations=True,
                                 cache=cache)
        runs.append(done.answers[name])

    plain, filling, cached = runs
    # The same turns and the same best one; the order of equal fused scores (a dense rank and
    # a lexical rank can give the same score) is not fixed from one store to the next.
    for run in (filling, cached):
        assert {q: set(a.ranking) for q, a in run.items()} == {
            q: set(a.ranking) for q, a in plain.items()
        }
        assert {q: a.ranking[0] for q, a in run.items()} == {
            q: a.ranking[0] for q, a in plain.items()
        }
    # The turn that answers is found and mapped back to its id.
    assert cached["small:0"].ranking[0] == {"D1:1"}
    assert {"D2:6"} in cached["small:1"].context5


async def test_the_second_run_of_a_model_embeds_nothing(
    fresh_database_url: str, tmp_path: Path
) -> None:
    settings = _settings(fresh_database_url, tmp_path)
    store = EmbeddingCacheStore(tmp_path / "cache.sqlite3")
    chat = read_conversation(_chat())
    first = await run_memlane(settings, [MemorySet("one", (chat,))], k=10, depth=50,
                              conversations=True, cache=store)
    second = await run_memlane(settings, [MemorySet("two", (chat,))], k=10, depth=50,
                               conversations=True, cache=store)
    assert first.timings["embedding_cache"]["misses"] > 0
    assert second.timings["embedding_cache"]["misses"] == 0


async def test_a_kept_store_answers_like_the_run_that_built_it(
    fresh_database_url: str, tmp_path: Path
) -> None:
    # --keep: one run ingests and asks nothing; later runs ask on the stored memories.
    settings = _settings(fresh_database_url, tmp_path)
    memory_set = MemorySet("kept", (read_conversation(_chat()),))
    built = await run_memlane(settings, [memory_set], k=10, depth=50, conversations=True,
                              cache=None, ask_questions=False)
    assert built.answers == {}
    assert "ingest_s" in built.timings
    asked = await run_memlane(settings, [memory_set], k=10, depth=50, conversations=True,
                              cache=None, stored=built.stored)
    assert "ingest_s" not in asked.timings
    assert asked.answers["kept"]["small:0"].ranking[0] == {"D1:1"}
    assert {"D2:6"} in asked.answers["kept"]["small:1"].context5
