"""The profile's lines in a prompt, honestly headed: kept by a person, or told and read."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from uuid import UUID

from memlane.domain.facts.model import Fact
from memlane.domain.facts.profile import NEUTRAL_SCORE, render_fact
from memlane.domain.facts.sentences import sentences

# What a person chose to keep: the only lines an assistant may call "never to forget".
KEPT_HEADER = "What the user asked you never to forget:"
# What memlane read from what the user said: true as far as memlane knows, nothing more.
TOLD_HEADER = "What the user has told you:"
MAX_HEADER_CHARS = 200


@dataclass(frozen=True, slots=True)
class ProfileHeaders:
    """The two headers of the profile's lines in a prompt (`[facts]` kept_header and
    told_header), so a German deployment can word its own."""

    kept: str = KEPT_HEADER
    told: str = TOLD_HEADER

    def __post_init__(self) -> None:
        for name, value in (("kept_header", self.kept), ("told_header", self.told)):
            if not value.strip() or len(value) > MAX_HEADER_CHARS or "\n" in value:
                raise ValueError(f"{name} must be one line of 1 to {MAX_HEADER_CHARS} characters")


@dataclass(frozen=True, slots=True)
class ProfileBlock:
    """The profile's lines as rendered, the facts they show, and the memories all of whose
    current facts they show (a one-sentence memory among those would only repeat them)."""

    text: str = ""
    shown: tuple[Fact, ...] = ()
    covered: frozenset[UUID] = frozenset()


def kept_by_a_person(fact: Fact, pinned: Collection[UUID]) -> bool:
    """Whether a person chose to keep the fact: stated directly (POST /v1/facts), read from a
    memory they pinned, or scored above the default by them."""
    if fact.source_memory_id is None or fact.source_memory_id in pinned:
        return True
    return fact.user_fact_score is not None and fact.user_fact_score > NEUTRAL_SCORE


def render_block(
    facts: Sequence[Fact], pinned: Collection[UUID], headers: ProfileHeaders, char_budget: int
) -> ProfileBlock:
    """The kept facts under `headers.kept`, then the others under `headers.told`: each
    section its header and the whole lines that fit, in order, within `char_budget` all told
    (a section with no line that fits is left out, header and all)."""
    kept = [f for f in facts if kept_by_a_person(f, pinned)]
    told = [f for f in facts if not kept_by_a_person(f, pinned)]
    parts: list[str] = []
    shown: list[Fact] = []
    used = -1  # no newline before the first line
    for header, section in ((headers.kept, kept), (headers.told, told)):
        lines: list[str] = []
        cost = used + 1 + len(header)
        for fact in section:
            line = " ".join(render_fact(fact).split())
            if cost + 1 + len(line) > char_budget:
                continue
            lines.append(line)
            shown.append(fact)
            cost += 1 + len(line)
        if lines:
            parts += [header, *lines]
            used = cost
    return ProfileBlock("\n".join(parts), tuple(shown))


def repeats_the_profile(content: str, memory_id: UUID, covered: Collection[UUID]) -> bool:
    """Whether a memory line adds nothing beyond the profile's lines: the memory says one
    thing (a single sentence) and every current fact read from it is already shown
    (`covered`: the memories all of whose current facts the block shows)."""
    return memory_id in covered and len(sentences(content)) == 1


def covered_memories(shown: Sequence[Fact], current: Sequence[Fact]) -> frozenset[UUID]:
    """The source memories all of whose current facts are among `shown`."""
    shown_ids = {f.id for f in shown}
    sources = {f.source_memory_id for f in shown if f.source_memory_id is not None}
    return frozenset(
        source for source in sources
        if all(f.id in shown_ids for f in current if f.source_memory_id == source)
    )
