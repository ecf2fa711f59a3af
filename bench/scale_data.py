"""Synthetic but realistic data for bench/scale.py: texts, clustered vectors, bulk loads."""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import numpy as np

from memlane.domain.model import Heat, Memory, MemoryType, Owner
from memlane.service.security.sealing import Sealer

DIMENSION = 384
# asyncpg reads timeout=None as "the pool's command timeout": bulk work needs a real bound.
LONG_S = 3600.0
HNSW_DDL = (
    "CREATE INDEX memories_embedding_hnsw_idx ON memories USING hnsw (embedding vector_cosine_ops)"
)
# Real memories embedded to learn how they scatter around their topic centres (TopicSpace).
SCATTER_SAMPLE = 768
TYPES = [t for t in MemoryType]
TYPE_WEIGHTS = [0.35, 0.2, 0.05, 0.1, 0.3]  # fact, preference, correction, tool_result, context

_NAMES = ["Anna", "Ben", "Chloe", "David", "Elif", "Farid", "Greta", "Hiro", "Ines", "Jonas"]
_SUBJECTS = [
    "the garden", "my sister's wedding", "the quarterly report", "our trip to Lisbon",
    "the new bicycle", "the kitchen renovation", "the Python migration", "the piano lessons",
    "the marathon training", "the dentist appointment", "the book club", "the job interview",
    "the tax return", "the sourdough starter", "the family reunion", "the server outage",
    "the hiking trip", "the vegetable patch", "the chess tournament", "the insurance claim",
]
_VERBS = [
    "needs attention before", "was postponed until", "went better than expected on",
    "should be finished by", "keeps getting delayed because of", "was discussed at length on",
    "depends on the weather for", "is scheduled right after", "was cancelled because of",
]
_OBJECTS = [
    "next Tuesday", "the end of the month", "the long weekend", "the spring holidays",
    "the budget meeting", "the conference in Berlin", "the school play", "the move in June",
]
_EXTRAS = [
    "I prefer to handle it in the morning when it is quiet.",
    "Remember that the deadline is firm and nobody can move it.",
    "Actually, the earlier plan was wrong; the new one is better.",
    "My favourite part is talking it through over coffee.",
    "It costs more than last year, roughly twice as much.",
    "We agreed to check again in two weeks and decide then.",
    "The tool reported three warnings and one error in the log.",
]


def topic_text(topic: int) -> str:
    """The sentence that defines a topic (its vector is the topic's centre)."""
    subject = _SUBJECTS[topic % len(_SUBJECTS)]
    verb = _VERBS[(topic // len(_SUBJECTS)) % len(_VERBS)]
    obj = _OBJECTS[(topic // (len(_SUBJECTS) * len(_VERBS))) % len(_OBJECTS)]
    return f"{subject} {verb} {obj}"


# Content words for the free-text part, drawn Zipf-like (weight 1/rank) as in real
# language: a few words are everywhere, most are rare, so lexical matches are realistic.
_WORDS = (  # noqa: SIM905 - a word list reads better as text
    "time year people way day man thing woman life child world school state family student "
    "group country problem hand part place case week company system program question work "
    "government number night point home water room mother area money story fact month lot "
    "right study book eye job word business issue side kind head house service friend father "
    "power hour game line end member law car city community name president team minute idea "
    "kid body information back parent face others level office door health person art war "
    "history party result change morning reason research girl guy moment air teacher force "
    "education foot boy age policy music market sense nation plan college interest death "
    "experience effect class control care field development role effort rate heart drug show "
    "leader light voice wife police mind price report decision son view relationship town "
    "road arm difference value building action model season society tax director position "
    "player record paper space ground form event official matter center couple site project "
    "activity star table need court oil situation cost industry figure street image phone "
    "data picture practice piece land product doctor wall patient worker news test movie "
    "north love support technology step baby computer type attention film tree source organ "
    "river bank bread garden coffee sugar flight ticket train station hotel beach island "
    "mountain forest lake bridge castle museum concert guitar violin painting camera laptop "
    "printer keyboard router battery charger kettle oven fridge sofa blanket pillow carpet "
    "recipe onion garlic pepper tomato lemon cheese butter salmon chicken noodle rice "
    "soup salad dessert cake cookie yoghurt muesli tea juice wine beer vitamin allergy "
    "dentist surgeon nurse pharmacy insurance mortgage salary invoice receipt budget loan "
    "passport visa license contract lawyer landlord neighbour cousin aunt uncle grandma "
    "puppy kitten hamster parrot aquarium bicycle scooter helmet tent backpack compass "
    "sweater jacket boots scarf umbrella glasses watch ring necklace wallet keys "
    "yoga pilates swimming tennis football chess poetry novel podcast album playlist "
    "spreadsheet deadline meeting presentation interview promotion colleague manager "
    "holiday birthday anniversary wedding funeral graduation exam semester thesis lecture"
).split()
_WORD_WEIGHTS = [1 / (rank + 1) for rank in range(len(_WORDS))]
_ADJECTIVES = (  # noqa: SIM905
    "old new small large quiet noisy cheap expensive broken shiny early late weekly "
    "favourite strange useful annoying lovely tiny heavy"
).split()


def _clause(rng: random.Random) -> str:
    first, second = rng.choices(_WORDS, _WORD_WEIGHTS, k=2)
    return (f"the {rng.choice(_ADJECTIVES)} {first} near the {second} "
            f"costs {rng.randint(2, 400)} euros")


def memory_text(topic: int, rng: random.Random) -> str:
    """A memory about a topic, 100-400 characters like real chat memories."""
    name = rng.choice(_NAMES)
    text = f"{name} said that {topic_text(topic)}."
    target = rng.randint(100, 400)
    while len(text) < target:
        if rng.random() < 0.3:
            text += " " + rng.choice(_EXTRAS)
        else:
            text += f" Also, {_clause(rng)}."
    return text[:400]


def query_text(topic: int, rng: random.Random) -> str:
    """A question a user might ask about a topic."""
    lead = rng.choice(["What do you know about", "Remind me about", "Any news on", "What about"])
    return f"{lead} {topic_text(topic)} and the {rng.choices(_WORDS, _WORD_WEIGHTS)[0]}?"


def topic_count() -> int:
    return len(_SUBJECTS) * len(_VERBS) * len(_OBJECTS)


@dataclass(frozen=True)
class TopicSpace:
    """Topic centres and how real memories scatter around them, under one model.

    A model's vectors are not isotropic: multilingual-e5-small gives a question and an
    unrelated memory ~0.81, MiniLM ~0.2. Noise of one fixed size around the centres put
    e5's memories below its own rag line (a question met its topic's memories at 0.73),
    so each model's synthetic vectors are drawn with the mean and covariance of real
    memories' offsets from their centres: `SCATTER_SAMPLE` memory texts embedded by the
    model itself. `realism` says how close the drawn vectors come to embedded ones.
    """

    model: str
    centres: np.ndarray
    offset: np.ndarray  # the mean of (memory - its centre)
    spread: np.ndarray  # the centred offsets / sqrt(n): a draw is z @ spread, z ~ N(0, I)
    realism: dict[str, float]

    def draw(self, topics: np.ndarray, seed: int) -> np.ndarray:
        """Unit vectors for memories about `topics`."""
        rng = np.random.default_rng(seed)
        noise = rng.normal(0, 1, (len(topics), len(self.spread))) @ self.spread
        vectors = self.centres[topics] + self.offset + noise
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors.astype(np.float32)


async def topic_space(embedder: Any) -> TopicSpace:
    """The served model's topic centres and scatter, measured on embedded memory texts."""
    centres = np.asarray(await embedder.embed(
        [topic_text(t) for t in range(topic_count())], kind="document"), dtype=np.float64)
    rng = random.Random(5)
    topics = np.asarray([rng.randrange(len(centres)) for _ in range(SCATTER_SAMPLE)])
    real = np.asarray(await embedder.embed(
        [memory_text(int(t), rng) for t in topics], kind="document"), dtype=np.float64)
    offsets = real - centres[topics]
    mean = offsets.mean(axis=0)
    space = TopicSpace(embedder.model, centres, mean,
                       (offsets - mean) / np.sqrt(len(offsets)), {})
    probe = np.asarray([rng.randrange(len(centres)) for _ in range(256)])
    held = np.asarray(await embedder.embed(
        [memory_text(int(t), rng) for t in probe], kind="document"), dtype=np.float64)
    questions = np.asarray(await embedder.embed(
        [query_text(int(t), rng) for t in probe], kind="query"), dtype=np.float64)
    realism = {**_cosines("embedded", questions, held, probe),
               **_cosines("drawn", questions, space.draw(probe, 9), probe)}
    return replace(space, realism=realism)


def _cosines(label: str, questions: np.ndarray, memories: np.ndarray,
             topics: np.ndarray) -> dict[str, float]:
    """Mean cosine of a question to a memory of its own topic and of another topic."""
    pairs = questions @ np.asarray(memories, dtype=np.float64).T
    own = topics[:, None] == topics[None, :]
    return {f"{label}_own_topic": round(float(pairs[own].mean()), 3),
            f"{label}_other_topic": round(float(pairs[~own].mean()), 3)}


def random_heat(rng: random.Random, now: datetime) -> Heat:
    """Heat of a memory used for a while: some old, some recent, some read often."""
    age_days = rng.expovariate(1 / 60)
    return Heat(
        base_importance=rng.uniform(0.2, 0.9),
        access_count=min(int(rng.expovariate(1 / 3)), 50),
        accessed_at=now - timedelta(days=age_days),
    )


_STAGE = """
CREATE UNLOGGED TABLE bench_stage (
    tenant text, user_id text, id uuid, memory_type text, content bytea, summary bytea,
    tags text[], pinned boolean, embedding vector(384), embedding_model text, keywords text[],
    created_at timestamptz, importance float8, base_importance float8, access_count int,
    accessed_at timestamptz, attributes bytea)
"""
_STAGE_COLUMNS = [
    "tenant", "user_id", "id", "memory_type", "content", "summary", "tags", "pinned",
    "embedding", "embedding_model", "keywords", "created_at", "importance", "base_importance",
    "access_count", "accessed_at", "attributes",
]
_MOVE_WIDE = """
INSERT INTO memories (tenant, user_id, id, memory_type, content, summary, tags, metadata,
                      attributes, pinned, embedding, embedding_model, keywords, created_at,
                      updated_at)
SELECT tenant, user_id, id, memory_type, content, summary, tags, '{}', attributes,
       pinned, embedding, embedding_model, memlane_terms_tsvector(keywords), created_at, created_at
FROM bench_stage
"""
# Arrived when created (the synthetic history is written over months): past cleanup's grace
# period, as a long-running installation's rows are (migration 0163).
_MOVE_HEAT = """
INSERT INTO memory_heat (tenant, user_id, id, memory_type, pinned, importance, base_importance,
                         access_count, accessed_at, arrived_at)
SELECT tenant, user_id, id, memory_type, pinned, importance, base_importance, access_count,
       accessed_at, created_at
FROM bench_stage
"""


def sealed_rows(
    sealer: Sealer, owner: Owner, texts: Sequence[str], vectors: np.ndarray | None,
    rng: random.Random, now: datetime, model: str | None = None,
) -> list[tuple[object, ...]]:
    """Rows sealed by the real Sealer (real encryption, real blinded index terms)."""
    rows = []
    for index, text in enumerate(texts):
        memory_type = rng.choices(TYPES, TYPE_WEIGHTS)[0]
        heat = random_heat(rng, now)
        created = heat.accessed_at - timedelta(days=rng.expovariate(1 / 30))
        memory = Memory(
            id=uuid.uuid4(), owner=owner, memory_type=memory_type, content=text,
            summary=text.split(".")[0][:200], importance=heat.base_importance, heat=heat,
            created_at=created, updated_at=created, tags=("bench",), metadata={"source": "bench"},
            pinned=rng.random() < 0.02, embedding_model=model,
        )
        vector = None if vectors is None else vectors[index]
        # Materialised a day ago: the next decay run has real work to do.
        stored = sealer.seal(memory, vector, now - timedelta(days=1))
        rows.append((
            owner.tenant, owner.user_id, stored.id, memory_type.value, stored.content,
            stored.summary, list(stored.tags), stored.pinned, vector, stored.embedding_model,
            list(stored.keywords), created, stored.importance, heat.base_importance,
            heat.access_count, heat.accessed_at, stored.attributes,
        ))
    return rows


async def stage(connection: asyncpg.Connection, rows: list[tuple[object, ...]]) -> None:
    """`rows` alone in a fresh stage. An unlogged table survives a clean shutdown: a load
    stopped between staging and moving left its rows there, and staging onto them loaded
    the context user twice (199,695 memories instead of 100,000)."""
    await connection.execute("DROP TABLE IF EXISTS bench_stage")
    await connection.execute(_STAGE)
    await connection.copy_records_to_table("bench_stage", records=rows, columns=_STAGE_COLUMNS,
                                          timeout=LONG_S)


async def move_stage(connection: asyncpg.Connection, rebuild_hnsw: bool) -> None:
    """Stage -> memories + memory_heat; the HNSW index is rebuilt after, with its exact DDL."""
    indexdef = await connection.fetchval(
        "SELECT indexdef FROM pg_indexes WHERE indexname = 'memories_embedding_hnsw_idx'"
    )
    # An interrupted earlier load may have left the index dropped: put back the migration's.
    indexdef = indexdef or HNSW_DDL
    if rebuild_hnsw:
        await connection.execute("DROP INDEX IF EXISTS memories_embedding_hnsw_idx")
    await connection.execute(_MOVE_WIDE, timeout=LONG_S)
    await connection.execute(_MOVE_HEAT, timeout=LONG_S)
    await connection.execute("DROP TABLE bench_stage")
    if rebuild_hnsw:
        await connection.execute("SET maintenance_work_mem = '1GB'")
        await connection.execute(indexdef, timeout=LONG_S)
    # VACUUM, not just ANALYZE: a reload deletes the user's previous rows first, and until
    # autovacuum gets to them their index entries send every search to dead tuples (the
    # lexical search read 5,263 heap pages for 1,000 candidates: 30 ms instead of 10).
    await connection.execute("VACUUM ANALYZE memories", timeout=LONG_S)
    await connection.execute("VACUUM ANALYZE memory_heat", timeout=LONG_S)
    # The lexical search reads postings index-only once the visibility map is set; the rest
    # so that autovacuum does not start on them while latency is measured.
    for table in ("memory_postings", "memory_terms", "memory_owner_stats"):
        await connection.execute(f"VACUUM ANALYZE {table}", timeout=LONG_S)
    await connection.execute("CHECKPOINT", timeout=LONG_S)


REPLICATE = """
INSERT INTO bench_stage
SELECT s.tenant, 'decay-' || (g % $2), gen_random_uuid(), s.memory_type, s.content, s.summary,
       s.tags, s.pinned, NULL, NULL, s.keywords, s.created_at - make_interval(secs => g % 86400),
       s.importance, s.base_importance, s.access_count,
       s.accessed_at - make_interval(secs => g % 86400), s.attributes
FROM generate_series(0, $1 - 1) AS g
JOIN bench_template AS s ON s.n = g % $3
"""


async def load_decay_rows(
    connection: asyncpg.Connection, template: list[tuple[object, ...]], total: int, users: int,
) -> None:
    """`total` rows without embeddings for `users` users, replicated in SQL from sealed
    template rows (their ciphertext is real, but bound to the template's id: decay and
    cleanup never open it)."""
    await stage(connection, template)
    await connection.execute("DROP TABLE IF EXISTS bench_template")
    await connection.execute(
        "CREATE UNLOGGED TABLE bench_template AS "
        "SELECT row_number() OVER () - 1 AS n, * FROM bench_stage"
    )
    await connection.execute("TRUNCATE bench_stage")
    await connection.execute(REPLICATE, total, users, len(template), timeout=LONG_S)
    await connection.execute("DROP TABLE bench_template")
    await move_stage(connection, rebuild_hnsw=False)


def unit_now() -> datetime:
    return datetime.now(UTC)
