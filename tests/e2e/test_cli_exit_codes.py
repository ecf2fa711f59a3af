"""The CLI's exit codes say what went wrong: 69 for an unreachable database, 78 for a wrong key."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.test_serve_process import MEMLANE, REPO, free_port

pytestmark = pytest.mark.e2e

EXIT_UNAVAILABLE = 69
EXIT_CONFIG = 78


@pytest.fixture
def home() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="memlane-cli-"))
    os.chmod(path, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def memlane(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **env}
    environment.pop("MEMLANE_TEST_DATABASE_URL", None)
    return subprocess.run(
        [MEMLANE, *args], env=environment, cwd=REPO, capture_output=True, text=True, timeout=120
    )


def test_an_unreachable_database_exits_69_with_one_clear_line() -> None:
    result = memlane(
        "stats",
        MEMLANE_DATABASE__URL=f"postgresql://memlane@127.0.0.1:{free_port()}/memlane",
        MEMLANE_DATABASE__COMMAND_TIMEOUT_MS="2000",
    )

    assert result.returncode == EXIT_UNAVAILABLE
    assert "unavailable" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_different_key_for_existing_data_exits_78(home: Path) -> None:
    data = {"MEMLANE_DATABASE__URL": "", "MEMLANE_DATABASE__DATA_DIR": str(home / "data")}
    first = memlane("stats", MEMLANE_MEMORY__ENCRYPTION_KEY_PATH=str(home / "a.key"), **data)
    assert first.returncode == 0, first.stderr

    second = memlane("stats", MEMLANE_MEMORY__ENCRYPTION_KEY_PATH=str(home / "b.key"), **data)

    assert second.returncode == EXIT_CONFIG
    assert "key" in second.stderr
    assert "Traceback" not in second.stderr
    assert not (home / "b.key").exists()  # a wrong key path over data creates no key


def test_prepare_model_fills_the_cache_and_names_an_unwritable_one(home: Path) -> None:
    cache = home / "cache"
    done = memlane("prepare-model", MEMLANE_MEMORY__EMBEDDING__MODEL_CACHE_DIR=str(cache))
    assert done.returncode == 0, done.stderr
    # Both models, whichever one memory.embedding.model names: an image can switch later.
    lines = [line.split() for line in done.stdout.strip().splitlines()]
    assert [(line[0], line[1]) for line in lines] == [
        ("prepare-model:", "all-MiniLM-L6-v2"), ("prepare-model:", "multilingual-e5-small"),
    ]
    for line in lines:
        model = Path(line[2])
        assert model.parent == cache and model.is_file()
        assert (cache / (model.name + ".sha256")).is_file()

    blocked = home / "a-file"
    blocked.write_text("not a directory")
    refused = memlane(
        "prepare-model", "--model", "all-MiniLM-L6-v2",
        MEMLANE_MEMORY__EMBEDDING__MODEL_CACHE_DIR=str(blocked / "cache"),
    )
    assert refused.returncode == EXIT_CONFIG
    assert "model_cache_dir" in refused.stderr and "Traceback" not in refused.stderr

    unknown = memlane("prepare-model", "--model", "bge-m3")
    assert unknown.returncode == EXIT_CONFIG
    assert "multilingual-e5-small" in unknown.stderr and "Traceback" not in unknown.stderr
