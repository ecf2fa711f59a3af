"""A memory's own rules: importance and type, decay, summaries, tiers, traits, segments, the
heuristic gate, consolidation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.domain.memories.cleanup import (
        DEFAULT_GRACE_DAYS as DEFAULT_GRACE_DAYS,
        CleanupCandidate as CleanupCandidate,
        CleanupRule as CleanupRule,
        may_clean_up as may_clean_up,
    )
    from memlane.domain.memories.consolidation import (
        Consolidation as Consolidation,
        check_sources as check_sources,
        condensed as condensed,
        in_time_order as in_time_order,
        links as links,
    )
    from memlane.domain.memories.corrections import (
        Corrected as Corrected,
        Replacement as Replacement,
        as_correction as as_correction,
        correction_heat as correction_heat,
        newest_per_old as newest_per_old,
    )
    from memlane.domain.memories.decay import (
        MAX_REINFORCEMENT as MAX_REINFORCEMENT,
        REINFORCEMENT_PER_ACCESS as REINFORCEMENT_PER_ACCESS,
        TYPE_DECAY as TYPE_DECAY,
        base_rate_per_day as base_rate_per_day,
        importance_at as importance_at,
        raw_importance as raw_importance,
    )
    from memlane.domain.memories.gate import (
        ALWAYS as ALWAYS,
        GATE_KEY as GATE_KEY,
        GateDecision as GateDecision,
        GateInput as GateInput,
        Trigger as Trigger,
        decide as decide,
        previous_state as previous_state,
    )
    from memlane.domain.memories.importance import (
        CueBook as CueBook,
        classify as classify,
        estimate_importance as estimate_importance,
    )
    from memlane.domain.memories.segments import (
        MAX_MESSAGES as MAX_MESSAGES,
        NAMES_KEY as NAMES_KEY,
        ROLES_KEY as ROLES_KEY,
        SEGMENT_KEY as SEGMENT_KEY,
        AddedMessages as AddedMessages,
        Message as Message,
        Role as Role,
        Segment as Segment,
        segment_document as segment_document,
        segment_messages as segment_messages,
        user_words as user_words,
    )
    from memlane.domain.memories.sleep import (
        DEFAULT_BATCH as DEFAULT_BATCH,
        MERGE_COST as MERGE_COST,
        NEAR_NEIGHBOURS as NEAR_NEIGHBOURS,
        WEAVE_WEIGHT as WEAVE_WEIGHT,
        Changed as Changed,
        NearPair as NearPair,
        SleepReport as SleepReport,
        fragment_groups as fragment_groups,
        merges_within as merges_within,
        next_batch_size as next_batch_size,
        watermarks as watermarks,
    )
    from memlane.domain.memories.summary import (
        qa_content as qa_content,
        summarize as summarize,
    )
    from memlane.domain.memories.tiers import (
        L0_MAX_CHARS as L0_MAX_CHARS,
        L1_MAX_CHARS as L1_MAX_CHARS,
        L2_MAX_CHARS as L2_MAX_CHARS,
        build_tiers as build_tiers,
        split_parts as split_parts,
    )
    from memlane.domain.memories.traits import (
        CONFIDENCE as CONFIDENCE,
        domain_evidence as domain_evidence,
        resonance as resonance,
        traits_of as traits_of,
        with_arousal as with_arousal,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "ALWAYS": "gate",
    "CONFIDENCE": "traits",
    "GATE_KEY": "gate",
    "GateDecision": "gate",
    "GateInput": "gate",
    "L0_MAX_CHARS": "tiers",
    "L1_MAX_CHARS": "tiers",
    "L2_MAX_CHARS": "tiers",
    "Trigger": "gate",
    "build_tiers": "tiers",
    "decide": "gate",
    "domain_evidence": "traits",
    "previous_state": "gate",
    "resonance": "traits",
    "split_parts": "tiers",
    "traits_of": "traits",
    "with_arousal": "traits",
    "AddedMessages": "segments",
    "CleanupCandidate": "cleanup",
    "CleanupRule": "cleanup",
    "Consolidation": "consolidation",
    "Corrected": "corrections",
    "CueBook": "importance",
    "DEFAULT_GRACE_DAYS": "cleanup",
    "MAX_MESSAGES": "segments",
    "MAX_REINFORCEMENT": "decay",
    "Message": "segments",
    "NAMES_KEY": "segments",
    "REINFORCEMENT_PER_ACCESS": "decay",
    "ROLES_KEY": "segments",
    "Replacement": "corrections",
    "Role": "segments",
    "SEGMENT_KEY": "segments",
    "Segment": "segments",
    "TYPE_DECAY": "decay",
    "as_correction": "corrections",
    "base_rate_per_day": "decay",
    "check_sources": "consolidation",
    "classify": "importance",
    "condensed": "consolidation",
    "correction_heat": "corrections",
    "estimate_importance": "importance",
    "importance_at": "decay",
    "in_time_order": "consolidation",
    "links": "consolidation",
    "may_clean_up": "cleanup",
    "newest_per_old": "corrections",
    "qa_content": "summary",
    "raw_importance": "decay",
    "segment_document": "segments",
    "segment_messages": "segments",
    "user_words": "segments",
    "summarize": "summary",
    "DEFAULT_BATCH": "sleep",
    "MERGE_COST": "sleep",
    "merges_within": "sleep",
    "next_batch_size": "sleep",
    "NEAR_NEIGHBOURS": "sleep",
    "WEAVE_WEIGHT": "sleep",
    "Changed": "sleep",
    "NearPair": "sleep",
    "SleepReport": "sleep",
    "fragment_groups": "sleep",
    "watermarks": "sleep",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
