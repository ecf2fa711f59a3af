"""The cleanup rule: which memories `memlane cleanup` may delete (one predicate, SQL mirrors it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from memlane.domain.errors import InvalidTuning

# A memory written or imported less than this long ago is never cleaned up, whatever its
# importance: a caller who writes something at importance 0.1 (or imports last year's chats)
# gets to see it again before the next cleanup does away with it.
DEFAULT_GRACE_DAYS = 7.0
MAX_GRACE_DAYS = 36_500


@dataclass(frozen=True, slots=True)
class CleanupRule:
    """The tunables: the importance at or below which a memory has faded, and the grace
    period after a memory arrived (was written or imported) during which it stays."""

    min_importance: float = 0.1
    grace_days: float = DEFAULT_GRACE_DAYS

    def __post_init__(self) -> None:
        if not 0.0 <= self.min_importance <= 1.0:
            raise InvalidTuning("min_importance", f"must be within [0, 1], got "
                                f"{self.min_importance}")
        if not 0.0 <= self.grace_days <= MAX_GRACE_DAYS:
            raise InvalidTuning("cleanup_grace_days", f"must be within [0, {MAX_GRACE_DAYS}], "
                                f"got {self.grace_days}")

    def arrived_by(self, now: datetime) -> datetime:
        """The latest arrival a memory may have and still be cleaned up at `now`. Computed
        once per run (whole microseconds, so SQL compares the very same instant)."""
        return now - timedelta(microseconds=round(self.grace_days * 86_400_000_000))


@dataclass(frozen=True, slots=True)
class CleanupCandidate:
    """What cleanup knows of one memory at `now`.

    `importance` is its importance at now (decay computed exactly); `arrived_at` when it was
    written or imported into this installation (not its `created_at`, which an import keeps
    from the export); `imported` whether it is chat history a user imported; `carries_fact`
    whether a fact that holds now was read from it; `names_entity` whether it names a person,
    place, organisation, product or pet; `carries_key_fact` whether a fact that holds now,
    of one value at a time (home, job, name...) or of health and safety, was read from it
    (domain.facts.keeps_its_memory).
    """

    importance: float
    pinned: bool
    arrived_at: datetime
    imported: bool = False
    carries_fact: bool = False
    names_entity: bool = False
    carries_key_fact: bool = False


def may_clean_up(memory: CleanupCandidate, rule: CleanupRule, now: datetime) -> bool:
    """Whether cleanup may delete `memory` now. Every clause keeps a memory; a new reason to
    keep one is one more clause here and in `memlane_may_clean_up` (migrations 0163 and
    0182), which a property test holds equal to this function.

    - pinned: the user said keep it;
    - above min_importance: it has not faded;
    - within the grace period after it arrived;
    - it carries the current value of a single-valued fact or a health and safety one: a
      correction ("I moved to Porto") that faded would otherwise take the only current
      home with it (issue 31); once a newer value replaces that fact, it decays as before;
    - imported history that carries a fact or names an entity: that is what the user
      imported it for, and fading says nothing about it (the curve of an imported memory
      starts at the import, so an exchange the user never needs again still goes).
    """
    if memory.pinned or memory.importance > rule.min_importance:
        return False
    if memory.arrived_at > rule.arrived_by(now):
        return False
    if memory.carries_key_fact:
        return False
    return not (memory.imported and (memory.carries_fact or memory.names_entity))
