"""The [proxy] settings: the upstream key never from config.toml, but from env or a file."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlane.domain.errors import ConfigurationError
from memlane.settings import load_settings
from memlane.settings_proxy import ProxySettings


def test_an_upstream_key_in_the_config_file_is_refused_naming_where_it_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[proxy]\nupstream_url = "http://127.0.0.1:1/v1"\nupstream_key = "sk-1"\n')
    monkeypatch.setenv("MEMLANE_CONFIG", str(config))
    with pytest.raises(ConfigurationError, match="MEMLANE_UPSTREAM_KEY") as raised:
        load_settings()
    assert "sk-1" not in str(raised.value)


def test_the_key_comes_from_the_named_variable_or_a_secret_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_LLM_KEY", "sk-from-env")
    assert ProxySettings(upstream_key_env="MY_LLM_KEY").upstream_key() == "sk-from-env"
    secret = tmp_path / "upstream_key"
    secret.write_text("sk-from-file\n")
    assert ProxySettings(upstream_key_file=secret).upstream_key() == "sk-from-file"
    monkeypatch.delenv("MEMLANE_UPSTREAM_KEY", raising=False)
    assert ProxySettings().upstream_key() is None
    with pytest.raises(ConfigurationError, match="cannot be read"):
        ProxySettings(upstream_key_file=tmp_path / "missing").upstream_key()


def test_the_upstream_url_must_be_http(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMLANE_PROXY__UPSTREAM_URL", "ftp://example/v1")
    with pytest.raises(ConfigurationError, match="upstream_url"):
        load_settings()
