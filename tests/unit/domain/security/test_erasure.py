"""The erasure journal's records: keyed hashes of destroyed keys, one fixed-length line each."""

from __future__ import annotations

from uuid import uuid4

from hypothesis import given, strategies as st

from memlane.domain.model import Owner
from memlane.domain.security import (
    KeyRef,
    erasure_digest,
    journal_key_id,
    journal_line,
    parse_journal,
    to_erase_again,
)
from memlane.domain.security.keyring import ROOT

KEY = bytes(range(32))


def test_a_record_names_the_key_not_the_user_and_needs_the_journal_key() -> None:
    alice = Owner("t", "alice")
    first, second = KeyRef(alice, uuid4()), KeyRef(alice, uuid4())
    line = journal_line(erasure_digest(KEY, first))
    assert b"alice" not in line and str(first.key_id).encode() not in line
    assert len(line) == 72 and line.endswith(b"\n")
    assert erasure_digest(KEY, first) != erasure_digest(KEY, second)  # a new key, a new record
    assert erasure_digest(KEY, first) != erasure_digest(bytes(32), first)
    assert journal_key_id(KEY) != journal_key_id(bytes(32)) and len(journal_key_id(KEY)) == 16


@given(st.lists(st.binary(min_size=32, max_size=32), max_size=20), st.binary(max_size=71))
def test_a_torn_last_line_is_not_a_record_and_hides_none(digests: list[bytes], torn: bytes) -> None:
    data = b"".join(journal_line(d) for d in digests) + torn.replace(b"\n", b"")
    contents = parse_journal(data)
    assert contents.digests == frozenset(digests) and contents.damaged == 0


def test_a_line_written_after_a_torn_one_counts_and_the_damage_is_counted() -> None:
    kept = erasure_digest(KEY, KeyRef(Owner("t", "u"), uuid4()))
    # A crash left half a line; the next writer starts on a new line after it.
    data = journal_line(bytes(32))[:30] + b"\n" + journal_line(kept)
    contents = parse_journal(data)
    assert contents.digests == {kept} and contents.damaged == 1


def test_a_replay_erases_only_owners_whose_stored_key_the_journal_names() -> None:
    gone, alive = KeyRef(Owner("t", "a"), uuid4()), KeyRef(Owner("t", "b"), uuid4())
    root = KeyRef(ROOT, uuid4())
    named = {erasure_digest(KEY, gone), erasure_digest(KEY, root)}
    found = to_erase_again([root, gone, alive], lambda k: erasure_digest(KEY, k) in named)
    assert found == [gone]
