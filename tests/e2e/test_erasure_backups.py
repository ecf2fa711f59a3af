"""An erased user stays erased when an older database backup is restored: the erasure journal,
kept apart from the data dir, is replayed at start (issue 28, docs/security.md)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from memlane.adapters.postgres.embedded import release_embedded, start_embedded
from tests.e2e.erasure_world import (
    A_MARKERS,
    WAIT_S,
    Install,
    data_key_ids,
    installation,
    owner_rows,
    populate,
    readable_markers,
)

pytestmark = pytest.mark.e2e


def erase(install: Install, user: str) -> None:
    with httpx.Client(base_url=install.base_url, timeout=WAIT_S) as http:
        erased = http.delete("/v1/memories", params={"confirm": "true"},
                             headers=install.headers(user))
    assert erased.status_code == 200, erased.text


def assert_erased_and_other_whole(install: Install, ids: list[str], bob_before: bytes) -> None:
    """0 rows of alice in every owner table (tombstones apart), nothing of hers readable
    anywhere, bob's export byte for byte as before the backup."""
    with install.serving() as served:
        leftover = {table: n for table, n in owner_rows(install.dsn(), "alice").items() if n}
        assert leftover == {}
        assert readable_markers(install, "alice", ids) == []
        assert install.export("bob") == bob_before
        served.send_signal(2)
        output = served.communicate(timeout=WAIT_S)[0]
    assert "erasure journal replayed: 1 erased owners" in output, output[-3000:]


@dataclass(frozen=True)
class World:
    """Both users' data, written once for the module (memlane stopped): alice's memory ids,
    bob's export, alice's data keys. Each test works on its own copy of the home."""

    template: Install
    ids: list[str]
    bob_before: bytes
    alice_keys: list[str]


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    with installation("memlane-erase-world-") as install:
        with install.serving():
            ids = populate(install)
            seen = set(readable_markers(install, "alice", ids))
            assert seen == set(A_MARKERS), seen  # every surface checked below does show them
            prepared = World(install, ids, install.export("bob"), data_key_ids(install, "alice"))
        yield prepared


@pytest.fixture
def install(world: World, request: pytest.FixtureRequest) -> Iterator[Install]:
    with installation(f"memlane-erase-{request.node.name[:20]}-", like=world.template) as copy:
        yield copy


def test_a_restored_file_copy_has_the_erased_user_erased_again(
    install: Install, world: World
) -> None:
    install.copy_data(install.home / "backup")  # memlane stopped
    with install.serving():
        erase(install, "alice")
    install.restore_data(install.home / "backup")
    assert_erased_and_other_whole(install, world.ids, world.bob_before)
    with install.serving():
        assert set(data_key_ids(install, "alice")).isdisjoint(world.alice_keys)


def test_a_restored_pg_dump_has_the_erased_user_erased_again(
    install: Install, world: World, tmp_path: Path
) -> None:
    from pgserver._commands import POSTGRES_BIN_PATH

    dump = tmp_path / "memlane.dump"
    with install.serving():
        done = subprocess.run([str(POSTGRES_BIN_PATH / "pg_dump"), "-Fc", "-f", str(dump),
                               install.dsn()], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        erase(install, "alice")
    # Restored into a new data dir of the same installation (its key, its journal).
    os.rename(install.data_dir, install.home / "erased-data")
    dsn = start_embedded(install.data_dir)
    try:
        done = subprocess.run([str(POSTGRES_BIN_PATH / "pg_restore"), "--no-owner", "-d",
                               dsn, str(dump)], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
    finally:
        release_embedded(install.data_dir)  # stopped: the restore is done
    assert_erased_and_other_whole(install, world.ids, world.bob_before)


def test_memories_written_after_an_erasure_survive_every_replay(
    install: Install, world: World
) -> None:
    install.copy_data(install.home / "before-erasure")
    with install.serving(), httpx.Client(base_url=install.base_url, timeout=WAIT_S) as http:
        erase(install, "alice")
        again = http.post("/v1/memories", headers=install.headers("alice"),
                          json={"content": "I moved to Porto in spring"})
        assert again.status_code == 201, again.text
    install.copy_data(install.home / "after-rewrite")

    def alice_reads() -> str:
        with install.serving(), httpx.Client(base_url=install.base_url,
                                             timeout=WAIT_S) as http:
            listed = http.get("/v1/memories", headers=install.headers("alice"))
            assert install.export("bob") == world.bob_before
            return listed.text

    assert "Porto" in alice_reads()  # a restart: the replay leaves the new key alone
    install.restore_data(install.home / "after-rewrite")
    assert "Porto" in alice_reads()
    install.restore_data(install.home / "before-erasure")
    erased_again = alice_reads()
    assert "Porto" not in erased_again and "quokka" not in erased_again
    with install.serving(), httpx.Client(base_url=install.base_url, timeout=WAIT_S) as http:
        newer = http.post("/v1/memories", headers=install.headers("alice"),
                          json={"content": "My sister lives in Faro"})
        assert newer.status_code == 201, newer.text
    assert "Faro" in alice_reads()  # written after the replay: kept by the next one


def test_the_erased_user_stays_erased_after_the_master_key_rotated(
    install: Install, world: World
) -> None:
    install.copy_data(install.home / "backup")
    with install.serving():
        erase(install, "alice")
    rotated = install.cli("keys", "rotate-master")
    assert rotated.returncode == 0, rotated.stderr
    install.restore_data(install.home / "backup")
    refused = install.cli("stats")  # the backup's keys are wrapped by `.previous`
    assert refused.returncode == 78, refused.stderr
    assert "rotate-master" in refused.stderr
    caught_up = install.cli("keys", "rotate-master")
    assert caught_up.returncode == 0, caught_up.stderr
    assert '"finished": true' in caught_up.stdout
    assert_erased_and_other_whole(install, world.ids, world.bob_before)
