"""The profile's lines in a prompt, honestly headed: kept by a person, or told and read."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from uuid import UUID

from memlane.domain.facts.model import USER, Fact
from memlane.domain.facts.profile import NEUTRAL_SCORE, render_fact
from memlane.domain.graph import content_words, stem

# What a person chose to keep: the only lines an assistant may call "never to forget".
KEPT_HEADER = "What the user asked you never to forget:"
# What memlane read from what the user said: true as far as memlane knows, nothing more.
TOLD_HEADER = "What the user has told you:"
MAX_HEADER_CHARS = 200
# Words that say when or how sure, not what: "I now live in Porto" says what "lives in: Porto"
# says. A memory with any other word beyond its facts' lines says more, and stays.
_FILLERS = frozenset({
    "now", "actually", "currently", "really", "still", "anymore", "nowadays", "today",
    "jetzt", "mittlerweile", "inzwischen", "nun", "eigentlich", "gerade", "derzeit",
    "aktuell", "momentan", "wirklich", "mehr",
})


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
    """The profile's lines as rendered, the facts they show, and for each memory those facts
    were read from the words its lines say (stemmed): what a memory line would repeat."""

    text: str = ""
    shown: tuple[Fact, ...] = ()
    said: Mapping[UUID, frozenset[str]] = field(default_factory=dict)


def kept_by_a_person(fact: Fact, pinned: Collection[UUID]) -> bool:
    """Whether a person chose to keep the fact: stated directly (POST /v1/facts), read from a
    memory they pinned, or scored above the default by them."""
    if fact.source_memory_id is None or fact.source_memory_id in pinned:
        return True
    return fact.user_fact_score is not None and fact.user_fact_score > NEUTRAL_SCORE


def render_block(
    facts: Sequence[Fact], pinned: Collection[UUID], headers: ProfileHeaders, char_budget: int
) -> ProfileBlock:
    """The kept facts under `headers.kept`, then the others under `headers.told`, within
    `char_budget` all told. Lines are chosen whole in the order of `facts` (the profile's:
    safety constraints first), so a tight budget drops the last facts, never an allergy for
    a kept name; a section with no line chosen is left out, header and all."""
    chosen: dict[str, list[tuple[Fact, str]]] = {headers.kept: [], headers.told: []}
    used = -1  # no newline before the first line
    for fact in facts:
        header = headers.kept if kept_by_a_person(fact, pinned) else headers.told
        line = " ".join(render_fact(fact).split())
        cost = 1 + len(line) + (0 if chosen[header] else 1 + len(header))
        if used + cost <= char_budget:
            chosen[header].append((fact, line))
            used += cost
    parts: list[str] = []
    shown: list[Fact] = []
    for header, lines in chosen.items():  # kept, then told
        if lines:
            parts += [header, *(line for _, line in lines)]
            shown += [fact for fact, _ in lines]
    return ProfileBlock("\n".join(parts), tuple(shown), said_by_memory(shown))


def said_by_memory(shown: Iterable[Fact]) -> dict[UUID, frozenset[str]]:
    """For each source memory of the shown facts, the words their lines say."""
    said: dict[UUID, set[str]] = {}
    for fact in shown:
        if fact.source_memory_id is not None:
            subject = "" if fact.subject == USER else fact.subject
            line = f"{subject} {fact.relation.replace('_', ' ')} {fact.object}"
            said.setdefault(fact.source_memory_id, set()).update(_words(line))
    return {memory_id: frozenset(words) for memory_id, words in said.items()}


def repeats_the_profile(
    content: str, memory_id: UUID, said: Mapping[UUID, frozenset[str]]
) -> bool:
    """Whether a memory line adds nothing beyond the profile's lines: every word it says
    (but function words and fillers) is said by the lines of the facts read from it."""
    words = said.get(memory_id)
    return words is not None and _words(content) <= words


def _words(text: str) -> set[str]:
    return {stem(w) for w in content_words(" ".join(text.casefold().split()))
            if w not in _FILLERS}
