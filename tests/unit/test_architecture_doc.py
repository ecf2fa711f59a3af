"""docs/architecture.md's port table tells the truth: every port, its module, its methods."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| `(\w+)` \| `(ports/[\w/]+\.py)` \| (\d+): ([\w, ]+) \| (.*) \|$")


def ports_in_code() -> dict[str, tuple[str, list[str]]]:
    """Every ABC in src/ports with abstract methods: its module and methods, in order."""
    found = {}
    for path in sorted((REPO / "src" / "ports").rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.ClassDef):
                continue
            methods = [
                item.name for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                and any(ast.unparse(d).endswith("abstractmethod") for d in item.decorator_list)
            ]
            if methods:
                found[node.name] = (str(path.relative_to(REPO / "src")), methods)
    return found


def ports_in_doc() -> dict[str, tuple[str, list[str], str]]:
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        if match := ROW.match(line):
            name, module, count, methods, where = match.groups()
            listed = [m.strip() for m in methods.split(",")]
            assert int(count) == len(listed), line
            rows[name] = (module, listed, where)
    return rows


def test_the_port_table_lists_every_port_with_its_module_and_methods() -> None:
    documented = {name: (module, methods) for name, (module, methods, _) in ports_in_doc().items()}
    assert documented == ports_in_code()


def test_each_port_is_implemented_where_the_table_says() -> None:
    for name, (_, _, where) in ports_in_doc().items():
        for module in re.findall(r"`([\w/]+\.py)`", where):
            source = (REPO / "src" / module).read_text(encoding="utf-8")
            assert re.search(rf"class \w+\([^)]*\b{name}\b", source), f"{module} implements {name}?"
