"""The heuristic gate (RMG decision 2): per conversation segment, whether the heavier steps
(entity linking, fact extraction, supersession search, an LLM probe) run."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from memlane.domain.memories.traits import MemoryDomain

GATE_KEY = "gate"  # metadata: the decision, visible on the memory
SILENT_LIMIT = 8  # the dead man's switch: after this many silent segments the next fires


class Trigger(StrEnum):
    """Why the gate fired."""

    OPENING = "opening"  # the first segment of a conversation
    NEW_ENTITY = "new_entity"  # a name this user's graph does not hold yet
    DOMAIN_SHIFT = "domain_shift"  # the conversation moved to another territory
    DECISION = "decision"  # "let's go with", "we decided", "wir nehmen"
    CORRECTION = "correction"  # "actually", "that's wrong", "eigentlich"
    SILENCE = "silence"  # the dead man's switch


# Cue phrases (EN / DE), matched case-blind on word boundaries; data, not code branches.
DECISION_CUES = (
    "let's go with", "lets go with", "we decided", "i decided", "we've decided",
    "i've decided", "decided to", "the plan is", "we'll go with", "i'll go with",
    "we're going with", "i'm going with", "final decision", "settled on", "we agreed",
    "wir nehmen", "ich nehme", "entschieden", "wir haben beschlossen", "beschlossen",
    "der plan ist", "wir machen es so", "abgemacht",
)
CORRECTION_CUES = (
    "actually", "that's wrong", "that is wrong", "not right", "i meant", "no wait",
    "wait, no", "not that", "correction", "i was wrong", "scratch that", "rather",
    "eigentlich", "das ist falsch", "ich meinte", "nein warte", "stimmt nicht",
    "korrektur", "doch nicht", "vielmehr",
)


def _pattern(cues: Sequence[str]) -> re.Pattern[str]:
    # One lookbehind in front of the alternation (not one per cue): linear in the text.
    alternatives = "|".join(re.escape(c) for c in sorted(cues, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


_DECISION = _pattern(DECISION_CUES)
_DOMAINS = frozenset(d.value for d in MemoryDomain)
_CORRECTION = _pattern(CORRECTION_CUES)


@dataclass(frozen=True, slots=True)
class GateInput:
    """What the gate reads of one segment: its words, the names in it this user's graph does
    not hold, its territory (None: no cue words) and the conversation's state before it."""

    text: str
    new_names: int
    domain: MemoryDomain | None
    previous_domain: MemoryDomain | None
    silent_before: int
    opening: bool


@dataclass(frozen=True, slots=True)
class GateDecision:
    """Whether the gate fired, why, and how many silent segments the conversation has had
    (0 after one that fired). `domain` is the conversation's territory after the segment."""

    fired: bool
    triggers: tuple[Trigger, ...]
    silent: int
    domain: MemoryDomain | None

    def as_metadata(self) -> dict[str, Any]:
        return {"fired": self.fired, "triggers": [t.value for t in self.triggers],
                "silent": self.silent,
                **({"domain": self.domain.value} if self.domain is not None else {})}


ALWAYS = GateDecision(True, (), 0, None)  # a write outside a conversation: nothing gated


def decide(segment: GateInput, silent_limit: int = SILENT_LIMIT) -> GateDecision:
    """The gate's decision for one segment: any trigger fires it."""
    triggers: list[Trigger] = []
    if segment.opening:
        triggers.append(Trigger.OPENING)
    if segment.new_names:
        triggers.append(Trigger.NEW_ENTITY)
    if (segment.domain is not None and segment.previous_domain is not None
            and segment.domain is not segment.previous_domain):
        triggers.append(Trigger.DOMAIN_SHIFT)
    if _DECISION.search(segment.text):
        triggers.append(Trigger.DECISION)
    if _CORRECTION.search(segment.text):
        triggers.append(Trigger.CORRECTION)
    if not triggers and segment.silent_before >= silent_limit:
        triggers.append(Trigger.SILENCE)
    domain = segment.domain or segment.previous_domain
    if triggers:
        return GateDecision(True, tuple(triggers), 0, domain)
    return GateDecision(False, (), segment.silent_before + 1, domain)


def previous_state(metadata: Mapping[str, Any]) -> tuple[int, MemoryDomain | None]:
    """The silent count and territory a stored segment's decision left (0, None if none)."""
    recorded = metadata.get(GATE_KEY)
    if not isinstance(recorded, Mapping):
        return 0, None
    silent = recorded.get("silent")
    domain = recorded.get("domain")
    return (
        silent if isinstance(silent, int) and silent >= 0 else 0,
        MemoryDomain(domain) if domain in _DOMAINS else None,
    )
