"""bench/recall_kept.py: a kept store keeps which turns each memory is, and refuses a run
that asks for another build."""

from __future__ import annotations

from pathlib import Path
from uuid import uuid4

import pytest
from bench.memory_sets import MemorySet
from bench.recall_kept import KeptStoreMismatch, check, kept, load_stored, meta, save

ROOT = Path(__file__).resolve().parents[3]


def test_the_turns_of_each_memory_come_back_as_saved(tmp_path: Path) -> None:
    stored = {"set/a": {uuid4(): frozenset({"D1:1"}), uuid4(): frozenset({"D1:2", "D1:3"})}}
    wanted = meta([MemorySet("set", ())], "all-MiniLM-L6-v2", "on", "conversations", ROOT)
    assert not kept(tmp_path)
    save(tmp_path, wanted, stored)
    assert kept(tmp_path)
    assert load_stored(tmp_path) == stored


def test_a_store_built_otherwise_is_refused(tmp_path: Path) -> None:
    built = meta([MemorySet("set", ())], "all-MiniLM-L6-v2", "on", "conversations", ROOT)
    save(tmp_path, built, {})
    check(tmp_path, built)
    with pytest.raises(KeptStoreMismatch, match="model"):
        check(tmp_path, {**built, "model": "multilingual-e5-small"})
    with pytest.raises(KeptStoreMismatch, match="graph"):
        check(tmp_path, {**built, "graph": "off"})
