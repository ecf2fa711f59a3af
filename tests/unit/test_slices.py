"""Capability slices keep a small public face: other slices import only what it exports."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
SLICED_LAYERS = ("domain", "service", "ports", "adapters/postgres")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["memlane", *parts])


def slices() -> dict[str, Path]:
    """Each capability slice (a subpackage of a sliced layer) and its folder."""
    found = {}
    for layer in SLICED_LAYERS:
        for folder in sorted((SRC / layer).iterdir()):
            if (folder / "__init__.py").is_file():
                found[module_name(folder / "__init__.py")] = folder
    return found


SLICES = slices()


def slice_of(module: str) -> str | None:
    return next((s for s in SLICES if module == s or module.startswith(s + ".")), None)


def reaches_past_faces(path: Path) -> list[str]:
    """The imports in a module that name a module inside another slice, not its face."""
    mine = slice_of(module_name(path))
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = (
            [node.module] if isinstance(node, ast.ImportFrom) and node.module
            else [a.name for a in node.names] if isinstance(node, ast.Import) else []
        )
        for name in names:
            other = slice_of(name)
            if other is not None and other != mine and name != other:
                found.append(f"{module_name(path)} imports {name}")
    return found


def test_other_slices_import_only_a_slice_s_face() -> None:
    offenders = [o for path in sorted(SRC.rglob("*.py")) for o in reaches_past_faces(path)]
    assert offenders == []


def test_the_check_finds_an_import_past_a_face(tmp_path: Path) -> None:
    inside = SRC / "service" / "memories" / "probe_for_the_test.py"
    try:
        inside.write_text("from memlane.domain.facts.model import Fact\n"
                          "from memlane.domain.facts import Fact as F\n")
        assert reaches_past_faces(inside) == [
            "memlane.service.memories.probe_for_the_test imports memlane.domain.facts.model"
        ]
    finally:
        inside.unlink()


def face_declarations(init: Path) -> tuple[dict[str, str], set[str], dict[str, str]]:
    """The face's runtime map (name -> module), its submodules, and what its TYPE_CHECKING
    block imports (name -> module), read from the source."""
    tree = ast.parse(init.read_text(encoding="utf-8"))
    exports: dict[str, str] = {}
    submodules: set[str] = set()
    typed: dict[str, str] = {}
    package = module_name(init)
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "_FACE":
            call = node.value
            assert isinstance(call, ast.Call)
            exports = ast.literal_eval(call.args[1])
            for keyword in call.keywords:
                submodules = set(ast.literal_eval(keyword.value))
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom) and imp.module
                for alias in imp.names:
                    assert alias.asname == alias.name, f"{init}: re-export {alias.name} as itself"
                    module = imp.module.removeprefix(package).lstrip(".") or alias.name
                    typed[alias.name] = module
    return exports, submodules, typed


FACES = [
    init for folder in SLICES.values()
    if "_FACE" in (init := folder / "__init__.py").read_text()
]


@pytest.mark.parametrize("init", FACES, ids=lambda p: module_name(p))
def test_a_face_types_exactly_what_it_resolves(init: Path) -> None:
    exports, submodules, typed = face_declarations(init)
    assert typed == {**exports, **{s: s for s in submodules}}


@pytest.mark.parametrize("init", FACES, ids=lambda p: module_name(p))
def test_every_name_a_face_exports_resolves_and_none_is_shadowed_by_a_submodule(
    init: Path,
) -> None:
    exports, submodules, _ = face_declarations(init)
    package = importlib.import_module(module_name(init))
    modules_here = {p.stem for p in init.parent.glob("*.py")} | {
        p.name for p in init.parent.iterdir() if (p / "__init__.py").is_file()
    }
    for name, module in exports.items():
        # A submodule once imported becomes an attribute of the package and hides the name.
        assert name not in modules_here, f"{name} is both exported and a submodule"
        assert getattr(package, name) is getattr(
            importlib.import_module(f"{module_name(init)}.{module}"), name
        )
    for name in submodules:
        assert getattr(package, name).__name__ == f"{module_name(init)}.{name}"


def test_importing_a_slice_loads_none_of_its_modules() -> None:
    """The faces are lazy: the settings and `memlane --help` load no more than they need."""
    code = (
        "import sys, memlane.domain.facts as f; "
        "print(sorted(m for m in sys.modules if m.startswith('memlane.domain.facts.')))"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[]"
