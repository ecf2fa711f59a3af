"""`memlane keys rotate-master` and `memlane keys migrate` through the real CLI: a rotation
interrupted and resumed, the new master accepted at startup and the old one refused clearly,
version-1 rows migrated with a JSON summary."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from uuid import uuid4

import asyncpg
import pytest

from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter, key_fingerprint
from memlane.ports.encryption import FieldBinding
from tests.e2e.test_cli_exit_codes import EXIT_CONFIG, memlane

pytestmark = pytest.mark.e2e

ADD_ROW = """
INSERT INTO memories (tenant, user_id, id, memory_type, content, summary, created_at, updated_at)
VALUES ($1, $2, $3, 'fact', $4, $5, now(), now())
"""
ADD_HEAT = """
INSERT INTO memory_heat (tenant, user_id, id, memory_type, importance, base_importance,
                         accessed_at)
VALUES ($1, $2, $3, 'fact', 0.5, 0.5, now())
"""
FINGERPRINT = "SELECT value FROM memlane_meta WHERE key = 'encryption_key_fingerprint'"


def run(url: str, key: Path, *args: str) -> tuple[int, str, str]:
    done = memlane(
        *args, MEMLANE_DATABASE__URL=url, MEMLANE_MEMORY__ENCRYPTION_KEY_PATH=str(key)
    )
    return done.returncode, done.stdout, done.stderr


async def add_legacy_rows(url: str, key: Path, users: int) -> None:
    """Memories as memlane sealed them before data keys (version 1, the master key)."""
    crypto = XChaChaEncryptionAdapter(await asyncio.to_thread(key.read_bytes))
    connection = await asyncpg.connect(url)
    try:
        for i in range(users):
            memory_id = uuid4()
            sealed = [crypto.seal(f"secret {i}", FieldBinding("t", f"u{i}", memory_id, field))
                      for field in ("content", "summary")]
            await connection.execute(ADD_ROW, "t", f"u{i}", memory_id, *sealed)
            await connection.execute(ADD_HEAT, "t", f"u{i}", memory_id)
    finally:
        await connection.close()


async def test_migrate_then_an_interrupted_rotation_resumed_and_the_new_key_accepted(
    fresh_database_url: str, tmp_path: Path
) -> None:
    url, key = fresh_database_url, tmp_path / "memlane.key"
    code, _, stderr = await asyncio.to_thread(run, url, key, "stats")  # first start: the key
    assert code == 0, stderr
    await add_legacy_rows(url, key, users=3)
    old_key = key.read_bytes()

    code, out, stderr = await asyncio.to_thread(run, url, key, "keys", "migrate", "--batch", "2")
    assert code == 0, stderr
    summary = json.loads(out)
    assert summary["resealed"]["memory_content"] == 3 and summary["total"] == 6
    assert "re-sealed" in stderr  # progress

    code, out, stderr = await asyncio.to_thread(
        run, url, key, "keys", "rotate-master", "--batch", "1", "--max-batches", "2"
    )
    assert code == 1 and "run it again" in stderr
    assert json.loads(out)["finished"] is False
    assert key.with_name("memlane.key.next").exists() and key.read_bytes() == old_key

    code, out, stderr = await asyncio.to_thread(run, url, key, "keys", "rotate-master")
    assert code == 0, stderr
    report = json.loads(out)
    assert report["finished"] and report["remaining"] == 0 and report["rewrapped"] == 2
    assert key.read_bytes() != old_key
    assert key.with_name("memlane.key.previous").read_bytes() == old_key
    assert not key.with_name("memlane.key.next").exists()
    connection = await asyncpg.connect(url)
    try:
        assert await connection.fetchval(FINGERPRINT) == key_fingerprint(key.read_bytes())
    finally:
        await connection.close()

    code, _, stderr = await asyncio.to_thread(run, url, key, "verify")
    assert code == 0, stderr  # every memory opens under the new master
    assert "3 memories checked, 0 unreadable" in stderr

    retired = tmp_path / "retired.key"
    retired.write_bytes(old_key)
    os.chmod(retired, 0o600)
    code, _, stderr = await asyncio.to_thread(run, url, retired, "stats")
    assert code == EXIT_CONFIG and "does not match" in stderr and "Traceback" not in stderr


async def test_a_rotation_finished_in_the_database_but_not_on_disk_is_named_and_finished(
    fresh_database_url: str, tmp_path: Path
) -> None:
    url, key = fresh_database_url, tmp_path / "memlane.key"
    code, _, stderr = await asyncio.to_thread(run, url, key, "stats")
    assert code == 0, stderr
    await add_legacy_rows(url, key, users=1)
    code, _, stderr = await asyncio.to_thread(run, url, key, "keys", "rotate-master")
    assert code == 0, stderr
    # As if the process died after the database moved and before the files did.
    key.with_name("memlane.key.next").write_bytes(key.read_bytes())
    key.write_bytes(key.with_name("memlane.key.previous").read_bytes())
    os.chmod(key.with_name("memlane.key.next"), 0o600)

    code, _, stderr = await asyncio.to_thread(run, url, key, "stats")
    assert code == EXIT_CONFIG and "rotate-master` again to finish" in stderr

    code, _, stderr = await asyncio.to_thread(run, url, key, "keys", "rotate-master")
    assert code == 0, stderr
    code, _, stderr = await asyncio.to_thread(run, url, key, "verify")
    assert code == 0 and "1 memories checked, 0 unreadable" in stderr
