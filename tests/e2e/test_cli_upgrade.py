"""`memlane upgrade` through the real CLI on installations an older memlane left: version-1
envelopes and plaintext tags, metadata, conversation ids and fact relations, on the current
schema and on a schema from before data keys. The dry run counts and changes nothing, the
run upgrades everything (checked by `memlane verify` and the stored bytes), a rerun finds
nothing; a ciphertext that does not open fails the run until it is quarantined."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path
from uuid import UUID, uuid4

import asyncpg
import pytest

from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter, key_fingerprint
from memlane.adapters.postgres.migrations import apply_migrations, load_migrations
from memlane.ports.encryption import FieldBinding
from tests.conftest import scratch_database
from tests.e2e.test_cli_exit_codes import EXIT_UNAVAILABLE, memlane as plain_memlane
from tests.e2e.test_cli_master_key import ADD_HEAT, run
from tests.e2e.test_serve_process import free_port

pytestmark = pytest.mark.e2e

ADD_MEMORY = """
INSERT INTO memories (tenant, user_id, id, memory_type, content, summary, tags, metadata,
                      conversation_id, created_at, updated_at)
VALUES ($1, $2, $3, 'fact', $4, $5, ARRAY['travel'], '{"trip": "Lisbon"}', $6, now(), now())
"""
ADD_FACT = """
INSERT INTO facts (tenant, user_id, id, subject, object, subject_index, object_index, relation,
                   fact_type, time_span, confidence, valid_from, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, 's', 'o', 'secretly_admires', 'trait', 'current', 0.9, now(),
        now(), now())
"""
RECORD_KEY = "INSERT INTO memlane_meta (key, value) VALUES ('encryption_key_fingerprint', $1)"
# Every row of the tables an upgrade writes, as one digest: equal digests, nothing changed.
DIGEST = "SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM {} AS t"
TABLES = ("memories", "memory_quarantine", "facts", "memlane_meta", "schema_migrations")
PLAINTEXT = "SELECT count(*) FROM memories WHERE 'travel' = ANY(tags) OR metadata <> '{}'"
VERSION_1 = """
SELECT (SELECT count(*) FROM memories WHERE get_byte(content, 0) = 1 OR get_byte(summary, 0) = 1)
     + (SELECT count(*) FROM facts WHERE get_byte(subject, 0) = 1 OR get_byte(object, 0) = 1)
"""
# Every memory holds one topic token, of its one tag; none is left without tokens.
TOPIC_TOKENS = """
SELECT count(*) FILTER (WHERE cardinality(topic_tokens) = 1)
     - count(*) FILTER (WHERE topic_tokens IS NULL) FROM memories
"""
LEGACY_COUNTS = (
    "seal-existing: 3 memories and 1 fact relations to seal",
    "topic-index: 3 memories to index by topic",
    "tiers: 3 memories to give their levels of detail",
    "keys migrate: 8 version-1 ciphertexts to re-seal (memory_content 3, memory_summary 3, "
    "fact_subject 1, fact_object 1)",
)
NO_ERASURES_PENDING = "erasure-replay: 0 erased owners to erase again (0 journal records, 0 data " \
    "keys checked)"
NO_ERASURES_REPLAYED = "erasure-replay: 0 erased owners erased again (0 memories; 0 journal " \
    "records, 0 data keys checked)"
NOTHING_PENDING = (
    "migrate: 0 migrations pending",
    NO_ERASURES_PENDING,
    "seal-existing: 0 memories and 0 fact relations to seal",
    "topic-index: 0 memories to index by topic",
    "tiers: 0 memories to give their levels of detail",
    "keys migrate: 0 version-1 ciphertexts to re-seal",
)


@pytest.fixture
async def empty_database_url(database_url: str) -> AsyncIterator[str]:
    async with scratch_database(database_url, migrated=False) as url:
        yield url


def new_key(path: Path) -> bytes:
    path.write_bytes(os.urandom(32))
    os.chmod(path, 0o600)
    return path.read_bytes()


async def add_old_data(url: str, key: bytes, *, damaged: bool = False) -> None:
    """Three users' memories and one fact as memlane wrote them before sealing attributes and
    before data keys: plaintext attributes, version-1 envelopes under the master key. With
    `damaged`, one more memory whose content no longer authenticates."""
    crypto = XChaChaEncryptionAdapter(key)

    def seal(text: str, owner: tuple[str, str], row_id: UUID, field: str) -> bytes:
        return crypto.seal(text, FieldBinding(*owner, row_id, field))

    connection = await asyncpg.connect(url)
    try:
        for i in range(3):
            owner, memory_id = ("t", f"u{i}"), uuid4()
            await connection.execute(
                ADD_MEMORY, *owner, memory_id, seal(f"secret {i}", owner, memory_id, "content"),
                seal(f"summary {i}", owner, memory_id, "summary"), f"chat-{i}",
            )
            await connection.execute(ADD_HEAT, *owner, memory_id)
        fact_id = uuid4()
        await connection.execute(
            ADD_FACT, "t", "u0", fact_id, seal("Ana", ("t", "u0"), fact_id, "fact_subject"),
            seal("Rui", ("t", "u0"), fact_id, "fact_object"),
        )
        if damaged:
            memory_id = uuid4()
            summary = seal("summary", ("t", "u9"), memory_id, "summary")
            await connection.execute(
                ADD_MEMORY, "t", "u9", memory_id, b"\x01" + os.urandom(60), summary, "chat-9"
            )
            await connection.execute(ADD_HEAT, "t", "u9", memory_id)
    finally:
        await connection.close()


async def query(url: str, sql: str) -> object:
    connection = await asyncpg.connect(url)
    try:
        return await connection.fetchval(sql)
    finally:
        await connection.close()


async def digest(url: str) -> list[object]:
    connection = await asyncpg.connect(url)
    try:
        return [await connection.fetchval(DIGEST.format(table)) for table in TABLES]
    finally:
        await connection.close()


async def memlane(url: str, key: Path, *args: str) -> tuple[int, list[str], str]:
    code, out, stderr = await asyncio.to_thread(run, url, key, *args)
    return code, out.splitlines(), stderr


async def assert_upgraded(url: str, key: Path) -> None:
    """Nothing plaintext or version 1 is left, and every ciphertext opens."""
    assert await query(url, PLAINTEXT) == 0
    assert await query(url, VERSION_1) == 0
    assert await query(url, TOPIC_TOKENS) == 3  # one topic each ("travel"), none left out
    code, _, stderr = await memlane(url, key, "verify")
    assert code == 0, stderr
    assert "3 memories checked, 0 unreadable" in stderr
    assert "1 facts checked, 0 unreadable" in stderr
    code, lines, stderr = await memlane(url, key, "export", "--tenant", "t", "--user", "u1")
    assert code == 0, stderr
    memory = json.loads(lines[0])
    assert (memory["tags"], memory["metadata"]) == (["travel"], {"trip": "Lisbon"})


async def test_a_dry_run_counts_a_run_upgrades_everything_and_a_rerun_finds_nothing(
    fresh_database_url: str, tmp_path: Path
) -> None:
    url, key = fresh_database_url, tmp_path / "memlane.key"
    code, _, stderr = await memlane(url, key, "stats")  # first start: key and root key
    assert code == 0, stderr
    await add_old_data(url, key.read_bytes())
    before = await digest(url)

    code, lines, stderr = await memlane(url, key, "upgrade", "--dry-run")
    assert code == 0, stderr
    assert lines == ["migrate: 0 migrations pending", NO_ERASURES_PENDING, *LEGACY_COUNTS]
    assert await digest(url) == before  # the dry run changed nothing

    code, lines, stderr = await memlane(url, key, "upgrade", "--batch-rows", "2")
    assert code == 0, stderr
    assert lines == [
        "migrate: 0 migrations applied",
        NO_ERASURES_REPLAYED,
        "seal-existing: 3 memories sealed (0 of them quarantined), 1 fact relations sealed",
        "topic-index: 3 memories indexed by topic",
        "tiers: 3 memories given their levels of detail",
        "keys migrate: 8 ciphertexts re-sealed under data keys (memory_content 3, "
        "memory_summary 3, fact_subject 1, fact_object 1), 0 unreadable",
        "upgrade: up to date",
    ]
    await assert_upgraded(url, key)

    upgraded = await digest(url)
    code, lines, stderr = await memlane(url, key, "upgrade", "--dry-run")
    assert code == 0 and lines == list(NOTHING_PENDING), stderr
    code, lines, stderr = await memlane(url, key, "upgrade")
    assert code == 0, stderr
    assert lines[1:] == [
        NO_ERASURES_REPLAYED,
        "seal-existing: 0 memories sealed (0 of them quarantined), 0 fact relations sealed",
        "topic-index: 0 memories indexed by topic",
        "tiers: 0 memories given their levels of detail",
        "keys migrate: 0 ciphertexts re-sealed under data keys, 0 unreadable",
        "upgrade: up to date",
    ]
    assert await digest(url) == upgraded  # the rerun changed nothing


async def test_an_installation_from_before_data_keys_is_migrated_sealed_and_resealed(
    empty_database_url: str, tmp_path: Path
) -> None:
    url, key = empty_database_url, tmp_path / "memlane.key"
    old = [m for m in load_migrations() if m.version < 100]  # the schema before data keys
    connection = await asyncpg.connect(url)
    try:
        await apply_migrations(connection, old)
        await connection.execute(RECORD_KEY, key_fingerprint(new_key(key)))
    finally:
        await connection.close()
    await add_old_data(url, key.read_bytes())
    before = await digest(url)
    newer = [m.name for m in load_migrations() if m.version >= 100]

    code, lines, stderr = await memlane(url, key, "upgrade", "--dry-run")
    assert code == 0, stderr
    assert lines[0] == f"migrate: {len(newer)} migrations pending ({', '.join(newer)})"
    assert all("counted once the migrations are applied" in line for line in lines[1:])
    assert await digest(url) == before
    assert await query(url, "SELECT to_regclass('data_keys')") is None

    code, lines, stderr = await memlane(url, key, "upgrade", "--progress")
    assert code == 0, stderr
    assert "keys migrate" in stderr  # its progress bar
    assert lines[0] == f"migrate: {len(newer)} migrations applied ({', '.join(newer)})"
    assert lines[1] == NO_ERASURES_REPLAYED
    assert lines[2].startswith("seal-existing: 3 memories sealed") and lines[-1].endswith(
        "up to date"
    )
    await assert_upgraded(url, key)
    code, lines, stderr = await memlane(url, key, "upgrade", "--dry-run")
    assert code == 0 and lines == list(NOTHING_PENDING), stderr


async def test_a_ciphertext_that_does_not_open_fails_the_run_until_it_is_quarantined(
    fresh_database_url: str, tmp_path: Path
) -> None:
    url, key = fresh_database_url, tmp_path / "memlane.key"
    code, _, stderr = await memlane(url, key, "stats")
    assert code == 0, stderr
    await add_old_data(url, key.read_bytes(), damaged=True)

    code, lines, stderr = await memlane(url, key, "upgrade")
    assert code == 1
    assert lines[-1].endswith("1 unreadable")
    assert "1 ciphertexts do not decrypt" in stderr
    assert "memlane verify --quarantine" in stderr and "Traceback" not in stderr

    code, _, stderr = await memlane(url, key, "verify", "--quarantine")
    assert "1 quarantined" in stderr, stderr
    code, lines, stderr = await memlane(url, key, "upgrade")
    assert code == 0, stderr
    assert lines[-1] == "upgrade: up to date"


async def test_without_encryption_the_upgrade_seals_nothing_under_keys_and_says_so(
    fresh_database_url: str,
) -> None:
    env = {"MEMLANE_DATABASE__URL": fresh_database_url,
           "MEMLANE_MEMORY__ENABLE_ENCRYPTION": "false"}
    for args in (("upgrade", "--dry-run"), ("upgrade",)):
        done = await asyncio.to_thread(plain_memlane, *args, **env)
        assert done.returncode == 0, done.stderr
        assert "keys migrate: encryption is off, nothing to re-seal" in done.stdout.splitlines()


def test_a_step_that_cannot_run_is_named_with_the_usual_exit_code() -> None:
    done = plain_memlane(
        "upgrade",
        MEMLANE_DATABASE__URL=f"postgresql://memlane@127.0.0.1:{free_port()}/memlane",
        MEMLANE_DATABASE__COMMAND_TIMEOUT_MS="2000",
    )
    assert done.returncode == EXIT_UNAVAILABLE
    assert "migrate did not finish" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""
