"""An upgrade does not silently start afresh: data left in the current directory is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlane.cli.paths import LEGACY_DATA_DIR, hint_legacy_data


def test_a_database_left_in_the_current_directory_is_pointed_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("MEMLANE_DATABASE__DATA_DIR", raising=False)
    hint_legacy_data(tmp_path)
    assert capsys.readouterr().err == ""  # nothing there, nothing said
    (tmp_path / LEGACY_DATA_DIR).mkdir(parents=True)
    (tmp_path / LEGACY_DATA_DIR / "PG_VERSION").write_text("18")
    hint_legacy_data(tmp_path)
    said = capsys.readouterr().err
    assert f"MEMLANE_DATABASE__DATA_DIR={tmp_path / LEGACY_DATA_DIR}" in " ".join(said.split())
    monkeypatch.setenv("MEMLANE_DATABASE__DATA_DIR", str(tmp_path / "chosen"))
    hint_legacy_data(tmp_path)
    assert capsys.readouterr().err == ""  # the user chose a data dir: no hint
