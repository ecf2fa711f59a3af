"""Startup key checks through the real CLI: over existing data a mistyped key path creates no
key file, and a lost fingerprint record is refused, not overwritten; both exit 78."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from uuid import uuid4

import asyncpg
import pytest

from tests.e2e.test_cli_exit_codes import EXIT_CONFIG, memlane

pytestmark = pytest.mark.e2e

ADD_ROW = """
INSERT INTO memories (tenant, user_id, id, memory_type, content, summary, created_at, updated_at)
VALUES ('t', 'u', $1, 'fact', '\\x01'::bytea, '\\x01'::bytea, now(), now())
"""
FORGET_FINGERPRINT = "DELETE FROM memlane_meta WHERE key = 'encryption_key_fingerprint'"
FINGERPRINT = "SELECT value FROM memlane_meta WHERE key = 'encryption_key_fingerprint'"


def stats(url: str, key: Path) -> tuple[int, str]:
    done = memlane(
        "stats", MEMLANE_DATABASE__URL=url, MEMLANE_MEMORY__ENCRYPTION_KEY_PATH=str(key)
    )
    return done.returncode, done.stderr


async def test_a_wrong_key_path_over_existing_data_exits_78_and_creates_no_key(
    fresh_database_url: str, tmp_path: Path
) -> None:
    right, typo = tmp_path / "memlane.key", tmp_path / "memlane.kye"
    code, _ = await asyncio.to_thread(stats, fresh_database_url, right)
    assert code == 0 and right.exists()

    code, stderr = await asyncio.to_thread(stats, fresh_database_url, typo)

    assert code == EXIT_CONFIG
    assert "does not exist" in stderr and "no new key is created" in stderr
    assert "Traceback" not in stderr
    assert not typo.exists()


async def test_memories_without_a_recorded_fingerprint_are_refused_not_adopted(
    fresh_database_url: str, tmp_path: Path
) -> None:
    key = tmp_path / "memlane.key"
    code, _ = await asyncio.to_thread(stats, fresh_database_url, key)
    assert code == 0
    connection = await asyncpg.connect(fresh_database_url)
    try:
        await connection.execute(ADD_ROW, uuid4())
        await connection.execute(FORGET_FINGERPRINT)

        code, stderr = await asyncio.to_thread(stats, fresh_database_url, key)

        assert code == EXIT_CONFIG
        assert "no encryption key fingerprint is recorded" in stderr
        assert "Traceback" not in stderr
        assert await connection.fetchval(FINGERPRINT) is None  # nothing overwritten
    finally:
        await connection.close()


async def test_a_fresh_database_gets_its_first_key_and_fingerprint(
    fresh_database_url: str, tmp_path: Path
) -> None:
    key = tmp_path / "keys" / "memlane.key"
    code, stderr = await asyncio.to_thread(stats, fresh_database_url, key)
    assert code == 0, stderr
    assert key.exists() and os.stat(key).st_mode & 0o077 == 0
    connection = await asyncpg.connect(fresh_database_url)
    try:
        assert await connection.fetchval(FINGERPRINT) is not None
    finally:
        await connection.close()
