"""The heuristic gate on a conversation's segments: decided before the write, recorded on
each memory, counted for /metrics; the write path reads the decision to skip heavier steps."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from memlane.domain.memories import (
    GATE_KEY,
    GateDecision,
    GateInput,
    decide,
    domain_evidence,
    previous_state,
)
from memlane.domain.model import Owner
from memlane.domain.policy import DetailTuning
from memlane.service.entities import EntityLinker, Named


@dataclass
class GateCounts:
    """What the gate decided since start: segments seen, fired, by trigger, and the time
    its own reading took (names, cues, domain), for /metrics and the benchmark."""

    segments: int = 0
    fired: int = 0
    triggers: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def add(self, decisions: Sequence[GateDecision], seconds: float) -> None:
        self.segments += len(decisions)
        self.fired += sum(d.fired for d in decisions)
        self.triggers.update(t.value for d in decisions for t in d.triggers)
        self.seconds += seconds


def gate_fired(metadata: Mapping[str, Any]) -> bool:
    """Whether the heavier steps run for a memory: yes unless its gate said no."""
    recorded = metadata.get(GATE_KEY)
    return not isinstance(recorded, Mapping) or recorded.get("fired") is not False


class SegmentGate:
    """Decides, per segment of one call, in conversation order; a segment's state (silent
    count, territory) carries to the next, and the conversation's last stored segment
    gives the first one its state. Without a namer no name counts as new."""

    def __init__(self, namer: EntityLinker | None, tuning: DetailTuning) -> None:
        self._namer = namer
        self._tuning = tuning
        self.counts = GateCounts()

    @property
    def enabled(self) -> bool:
        return self._tuning.gate

    async def decide(
        self,
        owner: Owner,
        named: Sequence[Named],
        previous: Mapping[str, Any] | None,
    ) -> list[GateDecision]:
        """One decision per segment; `previous`: the metadata of the conversation's last
        stored segment (None: the conversation opens with these)."""
        started = time.perf_counter()
        new = [0] * len(named)
        if self._namer is not None:
            new = await self._namer.new_names(owner, named)
        silent, domain = previous_state(previous or {})
        decisions: list[GateDecision] = []
        for index, segment in enumerate(named):
            found, evidence = domain_evidence(segment.text)
            decision = decide(GateInput(
                text=segment.text, new_names=new[index],
                domain=found if evidence else None, previous_domain=domain,
                silent_before=silent, opening=previous is None and index == 0,
            ), self._tuning.silent_limit)
            decisions.append(decision)
            silent, domain = decision.silent, decision.domain
        self.counts.add(decisions, time.perf_counter() - started)
        return decisions
