"""A slice's public face, resolved lazily: importing the slice loads none of its modules."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import import_module


class Face:
    """What a slice exports: each name mapped to the module (inside the slice) that defines
    it, and the submodules other slices may import whole. A name is imported on first use,
    so that `memlane --help` and loading the settings load no more than they need."""

    def __init__(
        self, package: str, exports: Mapping[str, str], submodules: Iterable[str] = ()
    ) -> None:
        self._package = package
        self._exports = dict(exports)
        self._submodules = frozenset(submodules)

    @property
    def names(self) -> list[str]:
        return sorted({*self._exports, *self._submodules})

    def attribute(self, name: str) -> object:
        if name in self._submodules:
            return import_module(f"{self._package}.{name}")
        module = self._exports.get(name)
        if module is None:
            raise AttributeError(f"module {self._package!r} has no attribute {name!r}")
        return getattr(import_module(f"{self._package}.{module}"), name)
