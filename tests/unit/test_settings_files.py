"""Settings: data and key in the user's data directory, a bad setting named in one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memlane.domain.errors import ConfigurationError
from memlane.settings import load_settings

REPO_CONFIG = Path(__file__).resolve().parents[2] / "config.toml"


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A current directory without config.toml, an XDG data home, no MEMLANE_* variables."""
    cwd = tmp_path / "somewhere-else"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    for name in [n for n in os.environ if n.startswith("MEMLANE_")]:
        monkeypatch.delenv(name)
    return tmp_path


def test_the_database_and_key_live_in_the_xdg_data_home_not_the_current_directory(
    elsewhere: Path,
) -> None:
    settings = load_settings()
    assert settings.database.data_dir == elsewhere / "xdg-data" / "memlane" / "pgdata"
    assert settings.memory.encryption_key_path == (
        elsewhere / "xdg-data" / "memlane" / "memory_encryption.key"
    )


def test_without_xdg_data_home_the_default_is_under_local_share(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(elsewhere / "home"))
    settings = load_settings()
    assert settings.database.data_dir == elsewhere / "home" / ".local/share/memlane/pgdata"


def test_the_shipped_config_toml_keeps_those_defaults(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMLANE_CONFIG", str(REPO_CONFIG))
    settings = load_settings()
    assert settings.database.data_dir.is_absolute()
    assert settings.database.data_dir.parent == elsewhere / "xdg-data" / "memlane"
    assert settings.memory.encryption_key_path.parent == elsewhere / "xdg-data" / "memlane"


@pytest.mark.parametrize(("variable", "value", "named"), [
    ("MEMLANE_MEMORY__RAG_LIMT", "3", "memory.rag_limt"),
    ("MEMLANE_MEMROY__RAG_LIMIT", "3", "MEMLANE_MEMROY__RAG_LIMIT"),
    ("MEMLANE_SERVER__PORT", "99999", "server.port"),
    ("MEMLANE_MEMORY__RAG_LIMIT", "many", "memory.rag_limit"),
    ("MEMLANE_CONFIG", "/nonexistent/config.toml", "MEMLANE_CONFIG"),
])
def test_a_mistyped_setting_or_bad_value_is_one_line_naming_it(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str, named: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigurationError) as raised:
        load_settings()
    assert named in str(raised.value) and "\n" not in str(raised.value)


def test_a_typo_in_the_config_file_is_named_and_its_value_never_quoted(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = elsewhere / "config.toml"
    config.write_text('[database]\nurl = "postgresql://u:s3cret@db/m"\npool_max_size = 0\n')
    monkeypatch.setenv("MEMLANE_CONFIG", str(config))
    with pytest.raises(ConfigurationError, match=r"database\.pool_max_size") as raised:
        load_settings()
    assert "s3cret" not in str(raised.value)
    config.write_text("[database\n")
    with pytest.raises(ConfigurationError, match="not valid TOML"):
        load_settings()


def test_variables_that_are_not_settings_are_left_alone(
    elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMLANE_URL", "http://127.0.0.1:8080")  # a client's, no `__`
    assert load_settings().server.port == 8080
