"""`memlane import-chats` as a process on the session database: once, then nothing added."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from uuid import uuid4

import pytest

from tests.e2e.test_serve_process import MEMLANE, REPO

pytestmark = pytest.mark.e2e

FIXTURES = REPO / "tests" / "fixtures" / "imports"
EXIT_USAGE = 2


def memlane(database_url: str, key_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "MEMLANE_DATABASE__URL": database_url,
        "MEMLANE_MEMORY__ENCRYPTION_KEY_PATH": str(key_path),
        "MEMLANE_WORKER__ENABLED": "false",
    }
    return subprocess.run(
        [MEMLANE, *args], env=env, cwd=REPO, capture_output=True, text=True, timeout=300
    )


def test_importing_the_claude_fixture_twice_adds_nothing_the_second_time(
    migrated_database_url: str, session_key_path: Path
) -> None:
    user = f"importer-{uuid4().hex[:8]}"
    args = ("import-chats", "--format", "claude", str(FIXTURES / "claude_conversations.json"),
            "--tenant", "cli-import", "--user", user)

    first = memlane(migrated_database_url, session_key_path, *args)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout) == {
        "chats": 2, "chats_added": 2, "messages_added": 7, "messages_known": 0,
        "messages_shortened": 0, "memories_added": 5,
    }
    second = memlane(migrated_database_url, session_key_path, *args, "--progress")
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["messages_added"] == 0  # stdout stays JSON alone
    assert "importing chats" in second.stderr  # the bar asked for goes to stderr

    stats = memlane(migrated_database_url, session_key_path, "stats", "--tenant",
                    "cli-import", "--user", user)
    assert json.loads(stats.stdout)["total"] == 5


def test_a_malformed_export_exits_2_with_one_line_naming_where(
    migrated_database_url: str, session_key_path: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "conversations.json"
    broken.write_text('[{"uuid": "c-1", "chat_messages": "not a list"}]')
    result = memlane(migrated_database_url, session_key_path, "import-chats", "--format",
                     "claude", str(broken), "--user", "nobody")
    assert result.returncode == EXIT_USAGE
    assert "conversation 0 (c-1)" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""


def test_a_missing_file_or_unknown_format_is_a_usage_error(
    migrated_database_url: str, session_key_path: Path
) -> None:
    missing = memlane(migrated_database_url, session_key_path, "import-chats", "--format",
                      "chatgpt", "/nonexistent/conversations.json", "--user", "u")
    unknown = memlane(migrated_database_url, session_key_path, "import-chats", "--format",
                      "gemini", str(FIXTURES / "claude_conversations.json"), "--user", "u")
    assert missing.returncode == unknown.returncode == EXIT_USAGE
