"""FileErasureJournal: appends per host, other keys' files left alone, a lost key refused."""

from __future__ import annotations

from pathlib import Path
from uuid import uuid4

import pytest

from memlane.adapters.encryption.erasure_journal import FileErasureJournal, open_file_journal
from memlane.domain.errors import ConfigurationError
from memlane.domain.model import Owner
from memlane.domain.security import KeyRef


def key_of(user: str) -> KeyRef:
    return KeyRef(Owner("t", user), uuid4())


def journal_files(directory: Path) -> list[tuple[str, int, int]]:
    """Each journal file's host, size and mode."""
    return sorted((p.name.split(".")[1], p.stat().st_size, p.stat().st_mode & 0o777)
                  for p in directory.glob("*.journal"))


def tear(directory: Path) -> None:
    """Half a line at the end, as a crash mid-append leaves it."""
    with open(next(directory.glob("*.journal")), "ab") as handle:
        handle.write(b"erased 0123")


async def test_records_of_every_host_are_read_and_a_rerecord_appends_nothing(
    tmp_path: Path,
) -> None:
    key = bytes(range(32))
    here, there = FileErasureJournal(tmp_path, key, "here"), FileErasureJournal(tmp_path, key,
                                                                                "there")
    alice, bob = key_of("alice"), key_of("bob")
    await here.record(alice)
    await there.record(bob)
    await here.record(bob)  # already in the journal (another host's file): not again
    contents = await here.contents()
    assert here.names(contents, alice) and here.names(contents, bob)
    assert not here.names(contents, key_of("carol"))
    assert journal_files(tmp_path) == [("here", 72, 0o600), ("there", 72, 0o600)]


async def test_an_append_after_a_torn_line_starts_a_line_of_its_own(tmp_path: Path) -> None:
    journal = FileErasureJournal(tmp_path, bytes(32), "host")
    first = key_of("a")
    await journal.record(first)
    tear(tmp_path)
    second = key_of("b")
    await journal.record(second)
    contents = await journal.contents()
    assert journal.names(contents, first) and journal.names(contents, second)
    assert contents.damaged == 1


async def test_another_journal_keys_files_in_the_same_directory_are_not_read(
    tmp_path: Path,
) -> None:
    mine, theirs = FileErasureJournal(tmp_path, bytes(32)), FileErasureJournal(tmp_path,
                                                                               bytes(range(32)))
    await theirs.record(key_of("x"))
    assert (await mine.contents()).digests == frozenset()


def test_a_database_that_recorded_a_journal_key_refuses_a_missing_or_other_key(
    tmp_path: Path,
) -> None:
    journal = open_file_journal(tmp_path / "j", tmp_path / "journal.key", None)
    assert journal is not None and (tmp_path / "journal.key").stat().st_mode & 0o777 == 0o600
    with pytest.raises(ConfigurationError, match="does not exist"):
        open_file_journal(tmp_path / "j", tmp_path / "lost.key", journal.key_id)
    (tmp_path / "other.key").write_bytes(bytes(32))
    (tmp_path / "other.key").chmod(0o600)
    with pytest.raises(ConfigurationError, match="is not the one"):
        open_file_journal(tmp_path / "j", tmp_path / "other.key", journal.key_id)
    again = open_file_journal(tmp_path / "j", tmp_path / "journal.key", journal.key_id)
    assert again is not None and again.key_id == journal.key_id


def test_a_read_only_opening_creates_nothing(tmp_path: Path) -> None:
    assert open_file_journal(tmp_path / "j", tmp_path / "journal.key", None, create=False) is None
    assert not (tmp_path / "j").exists() and not (tmp_path / "journal.key").exists()
