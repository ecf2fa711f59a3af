"""Erasure against backups: journal records of destroyed data keys, and what a replay erases."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from uuid import UUID

from memlane.domain.model import Owner
from memlane.domain.security.audit import SYSTEM_ERASURE_REPLAY
from memlane.domain.security.keyring import ROOT

# Who the audit trail names for an erasure a replay made again.
ERASURE_REPLAY_ACTOR = SYSTEM_ERASURE_REPLAY

# A journal key is random bytes kept outside the database; its id names the journal's files,
# so installations sharing one directory never read each other's records.
JOURNAL_KEY_BYTES = 32
_PERSON = b"memlane-erasure"  # BLAKE2b personalisation: this use of the key and no other
_DIGEST_BYTES = 32
_LINE = re.compile(rb"erased ([0-9a-f]{64})")


@dataclass(frozen=True, slots=True)
class KeyRef:
    """An owner's data key as the database names it (never the secret)."""

    owner: Owner
    key_id: UUID


def journal_key_id(journal_key: bytes) -> str:
    """The public name of a journal key (16 hex digits): safe in file names and messages."""
    return hashlib.blake2b(journal_key, digest_size=8, person=b"memlane-jkey-id").hexdigest()


def erasure_digest(journal_key: bytes, key: KeyRef) -> bytes:
    """The keyed hash a journal records for a destroyed data key: no user id in the clear,
    and nothing from the database or the master key goes into the key, so it holds after a
    master rotation and against a restored database alike."""
    text = f"{key.owner.tenant}\x1f{key.owner.user_id}\x1f".encode() + key.key_id.bytes
    return hashlib.blake2b(
        text, key=journal_key, digest_size=_DIGEST_BYTES, person=_PERSON
    ).digest()


def journal_line(digest: bytes) -> bytes:
    """One record, one line of fixed length (72 bytes): a torn append is easy to tell."""
    return b"erased " + digest.hex().encode() + b"\n"


@dataclass(frozen=True, slots=True)
class JournalContents:
    """What a journal file holds: the recorded digests, and the lines that are not records
    (damage; a torn last line without its newline is not counted: its erasure never
    committed, because the record is made durable before the erasure's transaction commits)."""

    digests: frozenset[bytes]
    damaged: int = 0

    def __or__(self, other: JournalContents) -> JournalContents:
        return JournalContents(self.digests | other.digests, self.damaged + other.damaged)


def parse_journal(data: bytes) -> JournalContents:
    """The records of one journal file's bytes."""
    lines = data.split(b"\n")
    complete = lines[:-1]  # the piece after the last newline is empty or torn
    digests = set()
    damaged = 0
    for line in complete:
        if not line:
            continue  # the newline a writer adds before appending after a torn line
        match = _LINE.fullmatch(line)
        if match is None:
            damaged += 1
        else:
            digests.add(bytes.fromhex(match.group(1).decode()))
    return JournalContents(frozenset(digests), damaged)


def to_erase_again(keys: Iterable[KeyRef], recorded: Callable[[KeyRef], bool]) -> list[KeyRef]:
    """The stored keys a journal names as destroyed: a database holding one was restored from
    before that erasure, so the owner's rows in it are erased again. The root key is never
    a user's key."""
    return [key for key in keys if key.owner != ROOT and recorded(key)]


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """What a replay found (or, for a dry run, would do): journal records read, data keys
    compared, the owners erased again (those whose stored key the journal names and is
    still theirs when erased), and the memories that took."""

    records: int
    keys_checked: int
    owners: tuple[Owner, ...] = ()
    memories: int = 0
    damaged_lines: int = 0

    @property
    def erased(self) -> int:
        return len(self.owners)
