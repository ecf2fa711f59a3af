"""Topic views at scale: GET /v1/topics and GET /v1/topics/{topic} as service calls.

    .venv/bin/python bench/topics.py [--memories N] [--users U] [--rounds R] [--data-dir D]

Loads U users of N memories each (sealed by the real Sealer: XChaCha20-Poly1305, blinded
index terms), tagged from a Zipf-distributed vocabulary of 60 topics (1-3 tags each; one
memory in ten carries an imported chat's title; tags, titles and the rest of the attributes
sealed, tags and topic keys stored as blind tokens, as the service writes them),
bulk-copied into the production schema of a private embedded PostgreSQL. Then, for one
user, times the topic list and three single topics (the most common, a middling and a rare
one) over R rounds, and prints one JSON object: medians and p95 in ms, and how many
memories each topic holds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import scale_data as data

from memlane.adapters.encryption.keyfile import load_or_create_key
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.container import open_memlane
from memlane.domain.model import Memory, Owner
from memlane.service.security.sealing import Sealer
from memlane.settings import DatabaseSettings, MemorySettings, Settings, WorkerSettings

TENANT = "bench-topics"
VOCABULARY = [f"topic-{n:02d}" for n in range(60)]
WEIGHTS = [1 / (rank + 1) for rank in range(len(VOCABULARY))]  # Zipf: a few topics dominate
STAGE = """
CREATE UNLOGGED TABLE bench_topics_stage (
    tenant text, user_id text, id uuid, memory_type text, content bytea, summary bytea,
    tags text[], attributes bytea, keywords text[], created_at timestamptz, importance float8,
    base_importance float8, access_count int, accessed_at timestamptz, topic_tokens text[])
"""
MOVE = [
    """INSERT INTO memories (tenant, user_id, id, memory_type, content, summary, tags,
           metadata, attributes, pinned, keywords, created_at, updated_at, topic_tokens)
       SELECT tenant, user_id, id, memory_type, content, summary, tags, '{}', attributes, false,
              memlane_terms_tsvector(keywords), created_at, created_at, topic_tokens
       FROM bench_topics_stage""",
    """INSERT INTO memory_heat (tenant, user_id, id, memory_type, pinned, importance,
           base_importance, access_count, accessed_at)
       SELECT tenant, user_id, id, memory_type, false, importance, base_importance,
              access_count, accessed_at
       FROM bench_topics_stage""",
    "DROP TABLE bench_topics_stage",
    "VACUUM ANALYZE memories",
    "VACUUM ANALYZE memory_heat",
]


def rows(sealer: Sealer, owner: Owner, count: int, seed: int) -> list[tuple[object, ...]]:
    rng = random.Random(seed)
    now = datetime.now(UTC)
    found = []
    for index in range(count):
        text = data.memory_text(index % data.topic_count(), rng)
        if rng.random() < 0.2:
            text += " Should we move it to next week?"  # a question the topic view reads
        heat = data.random_heat(rng, now)
        created = heat.accessed_at - timedelta(days=rng.expovariate(1 / 30))
        tags = tuple(dict.fromkeys(rng.choices(VOCABULARY, WEIGHTS, k=rng.randint(1, 3))))
        metadata = {"conversation_title": f"Chat {rng.randint(1, 40)}"} \
            if rng.random() < 0.1 else {}
        memory = Memory(
            id=uuid.uuid4(), owner=owner, memory_type=rng.choices(data.TYPES)[0], content=text,
            summary=text.split(".")[0][:200], importance=heat.base_importance, heat=heat,
            created_at=created, updated_at=created, tags=tags, metadata=metadata,
        )
        stored = sealer.seal(memory, None, now)
        found.append((
            owner.tenant, owner.user_id, stored.id, memory.memory_type.value, stored.content,
            stored.summary, list(stored.tags), stored.attributes, list(stored.keywords), created,
            heat.base_importance, heat.base_importance, heat.access_count, heat.accessed_at,
            list(stored.topic_tokens or ()),
        ))
    return found


async def load(pool: Any, sealer: Sealer, users: int, count: int) -> None:
    async with pool.acquire() as connection:
        held = await connection.fetchval(
            "SELECT count(*) FROM memories WHERE tenant = $1", TENANT)
        if held == users * count:
            return  # a rerun on --data-dir reuses the load
        await connection.execute("DELETE FROM memory_heat WHERE tenant = $1", TENANT)
        await connection.execute("DELETE FROM memories WHERE tenant = $1", TENANT)
        await connection.execute("DROP TABLE IF EXISTS bench_topics_stage")
        await connection.execute(STAGE)
        for user in range(users):
            records = rows(sealer, Owner(TENANT, f"user-{user}"), count, seed=user)
            await connection.copy_records_to_table(
                "bench_topics_stage", records=records, timeout=data.LONG_S)
        for statement in MOVE:
            await connection.execute(statement, timeout=data.LONG_S)


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median_ms": round(statistics.median(ordered), 2),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 2)}


async def timed(call: Any, rounds: int) -> tuple[dict[str, float], Any]:
    result, samples = None, []
    for _ in range(rounds):
        start = time.perf_counter()
        result = await call()
        samples.append((time.perf_counter() - start) * 1000)
    return summary(samples), result


async def run(args: argparse.Namespace) -> dict[str, Any]:
    settings = Settings(
        database=DatabaseSettings(data_dir=args.data_dir / "pgdata"),
        memory=MemorySettings(encryption_key_path=args.data_dir / "memory_encryption.key"),
        worker=WorkerSettings(enabled=False),
    )
    async with open_memlane(settings, load_model=False) as memlane:
        sealer = Sealer(
            XChaChaEncryptionAdapter(load_or_create_key(settings.memory.encryption_key_path)),
            SnowballKeywordAdapter(), settings.memory.policy().base_rate,
        )
        await load(memlane.database.pool, sealer, args.users, args.memories)
        owner, topics = Owner(TENANT, "user-0"), memlane.service.topics
        listing, listed = await timed(lambda: topics.topics(owner), args.rounds)
        counts = {t.topic: t.count for t in listed}
        chosen = {"common": VOCABULARY[0], "middling": VOCABULARY[10], "rare": VOCABULARY[-1]}
        result: dict[str, Any] = {
            "memories_per_user": args.memories, "users": args.users, "rounds": args.rounds,
            "topics_listed": len(listed), "list": listing,
        }
        for label, name in chosen.items():
            figures, view = await timed(lambda name=name: topics.topic(owner, name), args.rounds)
            result[f"topic_{label}"] = {**figures, "memories": counts.get(name, 0),
                                        "open_questions": len(view.open_questions)}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--users", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--data-dir", default=None, help="keep and reuse data here")
    args = parser.parse_args()
    args.data_dir = Path(args.data_dir or tempfile.mkdtemp(prefix="memlane-topics-")).resolve()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
