"""The gazetteer's first-word shortcut never skips a chunk `lookup` would find."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from memlane.domain.entities import mentions_in, spans
from memlane.domain.entities.gazetteer import GAZETTEER, fold, lookup, may_start

DATA = Path(__file__).resolve().parents[4] / "bench" / "data"


def test_every_entry_as_written_and_inflected_may_start_its_chunk() -> None:
    names = [name for name, _ in GAZETTEER.values()]
    # German adjective endings on all but the last word, as running text inflects them.
    chunks = [name.split() for name in names] + [
        [words[0] + ending, *words[1:]]
        for words in (name.split() for name in names) if len(words) > 1
        for ending in ("e", "en", "er", "es", "em")
    ]
    found = [words for words in chunks if lookup(words, capitalised=True) is not None]

    assert len(found) >= len(names)
    assert [words for words in found if not may_start(words[0])] == []


@given(st.text(st.sampled_from("abcdeinrsuäößABDEGKMS- "), min_size=1, max_size=12),
       st.lists(st.sampled_from(["Bahn", "Garten", "Golf", "Pro", "of", "Toronto"]),
                max_size=2))
def test_a_chunk_lookup_finds_begins_with_a_word_that_may_start(
    first: str, rest: list[str]
) -> None:
    hit = fold(" ".join([first, *rest])) in GAZETTEER

    assert may_start(first) or not hit
    assert may_start(first) or lookup([first, *rest], capitalised=True) is None


@pytest.fixture(scope="module")
def labelled_texts() -> list[str]:
    texts = []
    for path in sorted(DATA.rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else {}
            texts += [v for k, v in row.items() if k in ("text", "new") and isinstance(v, str)]
            texts += [v for v in row.get("history", ()) if isinstance(v, str)]
    return texts


def test_the_labelled_texts_name_the_same_entities_with_and_without_the_shortcut(
    labelled_texts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = [mentions_in(text) for text in labelled_texts]
    monkeypatch.setattr(spans, "may_start", lambda word: True)
    slow = [mentions_in(text) for text in labelled_texts]

    assert len(labelled_texts) > 3000
    assert sum(map(len, slow)) > 500
    assert fast == slow
