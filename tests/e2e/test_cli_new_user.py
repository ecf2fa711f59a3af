"""What a new user hit, as processes: data in the XDG data home, keys, export, progress."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.test_serve_process import MEMLANE

pytestmark = pytest.mark.e2e

EXIT_ERROR, EXIT_CONFIG = 1, 78


class Home:
    """A user's home: an XDG data home and two unrelated working directories."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.data = root / "xdg-data"
        self.first, self.second = root / "project-a", root / "somewhere" / "else"
        self.first.mkdir()
        self.second.mkdir(parents=True)

    def memlane(
        self, *args: str, cwd: Path | None = None, **env: str
    ) -> subprocess.CompletedProcess[str]:
        environment = {
            k: v for k, v in os.environ.items() if not k.startswith(("MEMLANE_", "XDG_"))
        }
        environment.update(
            XDG_DATA_HOME=str(self.data), XDG_CACHE_HOME=os.environ.get(
                "XDG_CACHE_HOME", str(Path.home() / ".cache")
            ), MEMLANE_WORKER__ENABLED="false", **env,
        )
        return subprocess.run(
            [MEMLANE, *args], env=environment, cwd=cwd or self.first, capture_output=True,
            text=True, timeout=300,
        )


@pytest.fixture(scope="module")
def home() -> Iterator[Home]:
    root = Path(tempfile.mkdtemp(prefix="memlane-user-"))
    os.chmod(root, 0o755)
    yield Home(root)
    shutil.rmtree(root, ignore_errors=True)


def test_a_key_created_in_one_directory_is_listed_from_another_in_full_at_40_columns(
    home: Home,
) -> None:
    created = home.memlane("keys", "create", "--tenant", "default", "--user", "alice",
                           cwd=home.first)
    assert created.returncode == 0, created.stderr
    key_id = created.stderr.split("key ", 1)[1].split()[0]
    assert (home.data / "memlane" / "pgdata" / "PG_VERSION").is_file()
    assert not any(home.first.iterdir()), "nothing is written into the current directory"

    listed = home.memlane("keys", "list", cwd=home.second, COLUMNS="40")
    assert listed.returncode == 0, listed.stderr
    assert key_id in listed.stdout  # whole, not cut to "3f2a…"


def test_keys_revoke_takes_a_unique_prefix_and_refuses_an_unknown_one(home: Home) -> None:
    # Ambiguous prefixes are pinned in tests/unit/domain/security/test_key_prefix.py: random ids
    # cannot be made to share a prefix here.
    created = home.memlane("keys", "create", "--tenant", "t2", "--user", "bob")
    assert created.returncode == 0, created.stderr
    key_id = created.stderr.split("key ", 1)[1].split()[0]
    unknown = home.memlane("keys", "revoke", "not-a-key")
    revoked = home.memlane("keys", "revoke", key_id[:13])  # what a cut table showed
    again = home.memlane("keys", "revoke", key_id[:13])

    assert unknown.returncode == EXIT_ERROR and "no active key" in unknown.stderr
    assert revoked.returncode == 0, revoked.stderr
    assert revoked.stdout.strip() == f"revoked {key_id}"
    assert again.returncode == EXIT_ERROR  # revoked keys are not matched any more


def test_export_writes_a_private_file_and_progress_goes_to_stderr_only(home: Home) -> None:
    source = home.root / "memories.ndjson"
    source.write_text(json.dumps({"content": "I live in Lisbon"}) + "\n")
    imported = home.memlane("import", "--user", "dave", str(source), "--progress")
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.startswith("import: 1 stored") and "importing" in imported.stderr

    target = home.second / "dave.ndjson"
    target.write_text("old")
    os.chmod(target, 0o644)  # an existing file is made private too
    exported = home.memlane("export", "--user", "dave", "-o", str(target), "--progress")
    assert exported.returncode == 0, exported.stderr
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    # The memory first; the graph and facts follow it (Lisbon, an entity and a fact of dave's).
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    assert lines[0]["content"] == "I live in Lisbon"
    assert {r.get("record") for r in lines[1:]} <= {"edge", "entity", "fact"}
    facts = [r for r in lines if r.get("record") == "fact"]
    assert [(f["relation"], f["object"], f["source_memory"]) for f in facts] == [
        ("lives_in", "Lisbon", lines[0]["id"])]
    again = home.memlane("import", "--user", "erin", str(target))
    assert again.returncode == 0, again.stderr
    assert again.stdout.rstrip().endswith("1 facts stored, 0 skipped")  # from its record
    # Idempotent by id: the same file again adds nothing, and every chain still verifies.
    twice = home.memlane("import", "--user", "erin", str(target))
    assert twice.returncode == 0, twice.stderr
    assert twice.stdout.startswith("import: 0 stored, 1 skipped (already held);")
    assert twice.stdout.rstrip().endswith("0 facts stored, 1 skipped")
    verified = home.memlane("verify-audit")
    assert verified.returncode == 0, verified.stdout
    assert json.loads(verified.stdout.splitlines()[0])["intact"] is True
    assert "exporting" in exported.stderr

    decayed = home.memlane("decay", "--progress")
    assert decayed.returncode == 0, decayed.stderr
    assert decayed.stdout.startswith("decay: ") and "decay" in decayed.stderr
    # The sleep cycle reads dave's memory once; run again, it finds nothing to do.
    slept = home.memlane("consolidate", "--user", "dave", "--progress")
    assert slept.returncode == 0, slept.stderr
    assert json.loads(slept.stdout) == {"scope": "user", "scanned": 1, "merged": 0,
                                        "sources": 0, "woven": 0, "pruned": 0, "skipped": 0,
                                        "clusters": 0, "left": 0}
    assert "consolidate" in slept.stderr
    again = json.loads(home.memlane("consolidate", "--user", "dave").stdout)
    assert again["scanned"] == again["merged"] == again["woven"] == 0
    quiet = home.memlane("stats", "--user", "dave")  # not a terminal: no bar, JSON alone
    assert json.loads(quiet.stdout)["total"] == 1 and quiet.stderr == ""


def test_a_mistyped_setting_exits_78_with_one_line_naming_it(home: Home) -> None:
    result = home.memlane("stats", MEMLANE_MEMORY__RAG_LIMT="3")
    assert result.returncode == EXIT_CONFIG
    assert "memory.rag_limt" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_key_may_be_created_to_trust_open_webuis_user_headers(home: Home) -> None:
    created = home.memlane(
        "keys", "create", "--tenant", "owui", "--trust-openwebui-headers", cwd=home.first
    )
    assert created.returncode == 0, created.stderr
    assert "trusts Open WebUI's user headers" in created.stderr
    listed = home.memlane("keys", "list", "--tenant", "owui", cwd=home.first, COLUMNS="200")
    assert "* (Open WebUI headers)" in listed.stdout
