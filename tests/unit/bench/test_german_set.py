"""The hand-labelled German/English recall set: its shape, labels and halves (bench/german.py)."""

from __future__ import annotations

from collections import Counter

from bench.german import DATA, half, read, summary


def test_the_set_holds_enough_questions_of_every_language_pairing() -> None:
    users, questions = read(DATA)
    kinds = Counter(q["kind"] for q in questions)
    assert len(questions) >= 30
    # German about German, German about English facts and the reverse, and English.
    assert set(kinds) == {"de-de", "de-en", "en-de", "en-en"}
    assert kinds["de-en"] >= 5 and kinds["en-de"] >= 5
    languages = Counter(m["lang"] for memories in users.values() for m in memories)
    assert languages["de"] >= 10 and languages["en"] >= 10


def test_every_answer_is_a_memory_of_the_asking_user_in_the_labelled_language() -> None:
    users, questions = read(DATA)
    for q in questions:
        memories = {m["id"]: m for m in users[q["user"]]}
        assert q["answer"] in memories, q["id"]
        assert memories[q["answer"]]["lang"] == q["kind"].split("-")[1], q["id"]


def test_both_halves_hold_questions_and_the_split_is_fixed() -> None:
    _, questions = read(DATA)
    halves = Counter(half(q["id"]) for q in questions)
    # The figures in docs/benchmarks.md are on these halves: 14 tuning, 20 test.
    assert halves == {"tuning": 14, "test": 20}


def test_the_summary_counts_each_half_and_kind() -> None:
    rows = [
        {"half": "test", "kind": "de-en", "top1": True, "context_first": False, "context5": True},
        {"half": "test", "kind": "de-en", "top1": False, "context_first": False, "context5": True},
        {"half": "tuning", "kind": "en-de", "top1": True, "context_first": True, "context5": True},
    ]
    out = summary(rows)
    assert out["test"]["top1"] == 0.5 and out["test"]["n"] == 2
    assert out["test"]["by_kind"]["de-en"]["context5"] == 1.0
    assert out["all"]["n"] == 3
