"""The house rules import-linter cannot say: the domain imports only the standard library, and
the root package opens the composition only when asked."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def imported_modules(path: Path, *, top_level_only: bool = False) -> set[str]:
    """Absolute module names a file imports (relative imports resolved within memlane)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                raise AssertionError(f"{path}: relative import; memlane uses absolute imports")
            if node.module is not None:
                found.add(node.module)
    return found


def non_stdlib(modules: set[str], *, allowed_prefix: str) -> set[str]:
    return {
        m for m in modules
        if m.split(".")[0] not in sys.stdlib_module_names
        and m != allowed_prefix
        and not m.startswith(allowed_prefix + ".")
        and m != "__future__"
    }


def test_every_domain_module_imports_only_the_standard_library_and_the_domain() -> None:
    offenders = {
        str(path.relative_to(SRC)): sorted(bad)
        for path in sorted((SRC / "domain").rglob("*.py"))
        if (bad := non_stdlib(imported_modules(path), allowed_prefix="memlane.domain"))
    }
    assert offenders == {}


def test_the_check_finds_a_third_party_import(tmp_path: Path) -> None:
    module = tmp_path / "impure.py"
    module.write_text("import numpy\nfrom memlane.domain.model import Owner\nimport json\n")
    assert non_stdlib(imported_modules(module), allowed_prefix="memlane.domain") == {"numpy"}


def test_the_root_package_imports_the_composition_only_inside_open_memory() -> None:
    top_level = imported_modules(SRC / "__init__.py", top_level_only=True)
    memlane_imports = {m for m in top_level if m.startswith("memlane")}
    assert all(m.startswith(("memlane.domain", "memlane.ports")) for m in memlane_imports)
    assert "memlane.container" in imported_modules(SRC / "__init__.py")
