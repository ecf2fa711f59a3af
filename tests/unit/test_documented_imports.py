"""Every Python path the README and docs show still imports: users were told to use them."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
# Dotted names in prose and code: `memlane.domain.model`, `memlane.client.NotFound`, ...
DOTTED = re.compile(r"(?<![\w/:.])memlane(?:\.[A-Za-z_]\w*)+")
FROM_IMPORT = re.compile(r"from (memlane[\w.]*) import (?:\(([\w, \n]+)\)|([\w, ]+))")
HOSTS = re.compile(r"//memlane\.")  # a URL's host, not a module


def documented_paths() -> set[str]:
    found: set[str] = set()
    for document in DOCUMENTS:
        text = HOSTS.sub("//", document.read_text(encoding="utf-8"))
        found |= set(DOTTED.findall(text))
        for module, grouped, inline in FROM_IMPORT.findall(text):
            names = (grouped or inline).split(",")
            found |= {f"{module}.{n.strip()}" for n in names if n.strip()}
    return found


def resolves(path: str) -> bool:
    """A module, or an attribute of one (a class, a function, a submodule)."""
    try:
        importlib.import_module(path)
        return True
    except ModuleNotFoundError:
        module, _, name = path.rpartition(".")
        return bool(module) and resolves(module) and hasattr(importlib.import_module(module), name)


@pytest.mark.parametrize("path", sorted(documented_paths()))
def test_a_documented_python_path_imports(path: str) -> None:
    assert resolves(path), f"{path} is named in the docs but does not import"


def test_the_docs_name_the_public_paths_users_were_shown() -> None:
    assert {"memlane.domain.model", "memlane.client", "memlane.open_memory"} <= documented_paths()
