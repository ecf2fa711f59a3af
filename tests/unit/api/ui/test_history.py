"""The inspector's word diff of a memory's history: both sides can be read back from it."""

from __future__ import annotations

from hypothesis import given, strategies as st

from memlane.api.ui.history_view import word_diff

WORDS = st.lists(st.sampled_from(["tea", "sencha", "gyokuro", "from", "Uji", "my", "is"]),
                 max_size=12).map(" ".join)


@given(old=WORDS, new=WORDS)
def test_the_kept_and_removed_words_are_the_old_text_and_the_kept_and_added_the_new(
    old: str, new: str
) -> None:
    pieces = word_diff(old, new)
    assert " ".join(p.text for p in pieces if p.change != "new").split() == old.split()
    assert " ".join(p.text for p in pieces if p.change != "old").split() == new.split()


def test_one_changed_word_is_one_removal_and_one_addition() -> None:
    pieces = word_diff("my tea is sencha", "my tea is gyokuro")
    assert [(p.change, p.text) for p in pieces] == [
        ("same", "my tea is"), ("old", "sencha"), ("new", "gyokuro")
    ]
