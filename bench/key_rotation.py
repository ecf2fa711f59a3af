"""Master-key rotation and the v1 -> v2 migration at scale, as JSON.

    .venv/bin/python bench/key_rotation.py [--memories 100000] [--users 1000] [--url postgresql://...]

Builds the data fast on a scratch embedded PostgreSQL (or --url, an empty database): every
memory's content and summary sealed in bulk as memlane sealed them before data keys (version
1, the master key itself), inserted by COPY. Then times `memlane keys migrate`'s work
(KeyMigration: a data key per user, every version-1 ciphertext re-sealed under it) and
`memlane keys rotate-master`'s work (MasterRotation: only the wrapped data keys rewrapped),
and checks the rotation left every memory row as it was. See docs/security.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memlane.adapters.encryption.fingerprint import admit_key
from memlane.adapters.encryption.keyring import XChaChaKeyring
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter, key_fingerprint
from memlane.adapters.postgres.database import open_database
from memlane.adapters.postgres.installation import PostgresInstallationAdapter
from memlane.adapters.postgres.security.data_keys import PostgresDataKeyAdapter
from memlane.adapters.postgres.security.sealed_fields import PostgresSealedFieldsAdapter
from memlane.ports.encryption import FieldBinding
from memlane.service.security.key_migration import KeyMigration
from memlane.service.security.key_rotation import MasterRotation
from memlane.service.security.keyring import KeyringService
from memlane.settings import load_settings

MEMORY_COLUMNS = ["tenant", "user_id", "id", "memory_type", "content", "summary",
                  "created_at", "updated_at"]
HEAT_COLUMNS = ["tenant", "user_id", "id", "memory_type", "importance", "base_importance",
                "accessed_at"]
CHECKSUM = "SELECT count(*), sum(hashtext(encode(content, 'base64'))) FROM memories"


def sealed_rows(master: bytes, memories: int, users: int) -> tuple[list[tuple], list[tuple]]:
    crypto = XChaChaEncryptionAdapter(master)
    now = datetime.now(UTC)
    rows, heat = [], []
    for i in range(memories):
        user, memory_id = f"user-{i % users:04d}", uuid4()
        text = f"note {i}: the spare key of flat {i % 97} is with neighbour {i % 13}"
        rows.append(("bench", user, memory_id, "fact",
                     crypto.seal(text, FieldBinding("bench", user, memory_id, "content")),
                     crypto.seal(text[:40], FieldBinding("bench", user, memory_id, "summary")),
                     now, now))
        heat.append(("bench", user, memory_id, "fact", 0.5, 0.5, now))
    return rows, heat


async def measure(url: str | None, workdir: Path, memories: int, users: int) -> dict[str, object]:
    database_settings: dict[str, str] = {"data_dir": str(workdir / "pgdata")}
    if url:
        database_settings["url"] = url
    settings = load_settings(database=database_settings)
    old, new = os.urandom(32), os.urandom(32)
    async with open_database(settings.database) as database:
        pool = database.pool
        installation = PostgresInstallationAdapter(pool)
        store = PostgresDataKeyAdapter(pool)
        await admit_key(installation, key_fingerprint(old))

        started = time.perf_counter()
        rows, heat = await asyncio.to_thread(sealed_rows, old, memories, users)
        sealed_s = time.perf_counter() - started
        started = time.perf_counter()
        async with pool.acquire() as conn, conn.transaction():
            await conn.copy_records_to_table("memories", records=rows, columns=MEMORY_COLUMNS)
            await conn.copy_records_to_table("memory_heat", records=heat, columns=HEAT_COLUMNS)
        copy_s = time.perf_counter() - started
        del rows, heat

        ring = XChaChaKeyring(old, lambda: [old, new])
        crypto = XChaChaEncryptionAdapter(old, ring)
        keys = KeyringService(store, ring)
        await keys.start()
        migration = KeyMigration(PostgresSealedFieldsAdapter(pool), crypto, keys)
        started = time.perf_counter()
        migrated = await migration.run(batch=2000)
        migrate_s = time.perf_counter() - started

        before = tuple(await pool.fetchrow(CHECKSUM))
        target = XChaChaKeyring(new, lambda: [old])
        target.refresh()
        rotation = MasterRotation(store, target, installation)
        started = time.perf_counter()
        rotated = await rotation.run(key_fingerprint(old), key_fingerprint(new), batch=500)
        rotate_s = time.perf_counter() - started
        after = tuple(await pool.fetchrow(CHECKSUM))
    return {
        "memories": memories,
        "users": users,
        "build": {"seal_s": round(sealed_s, 2), "copy_s": round(copy_s, 2)},
        "migrate_v1_to_v2": {
            "seconds": round(migrate_s, 2),
            "ciphertexts_resealed": migrated.total,
            "per_second": round(migrated.total / migrate_s) if migrate_s else None,
            "unreadable": migrated.unreadable,
        },
        "rotate_master": {
            "seconds": round(rotate_s, 3),
            "keys_rewrapped": rotated.rewrapped,
            "remaining": rotated.remaining,
            "finished": rotated.finished,
            "memory_rows_unchanged": before == after,
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=1_000)
    parser.add_argument("--url", default=None, help="an empty, migrated-or-not database")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memlane-keys-bench-") as workdir:
        result = asyncio.run(measure(args.url, Path(workdir), args.memories, args.users))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
