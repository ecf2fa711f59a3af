"""Facts (seed 004): the model, extraction patterns per language, the ledger, profile, topics."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.domain.facts.extraction import (
        extract_facts as extract_facts,
    )
    from memlane.domain.facts.ledger import (
        LedgerChanges as LedgerChanges,
        Statement as Statement,
        apply_statements as apply_statements,
        relations_touched as relations_touched,
    )
    from memlane.domain.facts.model import (
        FUNCTIONAL_RELATIONS as FUNCTIONAL_RELATIONS,
        MAX_USER_FACT_SCORE as MAX_USER_FACT_SCORE,
        RELATION_TYPES as RELATION_TYPES,
        TYPES_KEPT_FROM_CLEANUP as TYPES_KEPT_FROM_CLEANUP,
        USER as USER,
        ExtractedFact as ExtractedFact,
        Fact as Fact,
        FactType as FactType,
        InvalidFact as InvalidFact,
        TimeSpan as TimeSpan,
        keeps_its_memory as keeps_its_memory,
        normalise as normalise,
        superseded_facts as superseded_facts,
        validate_user_fact_score as validate_user_fact_score,
    )
    from memlane.domain.facts.probe import (
        PROBE_EDGE_KINDS as PROBE_EDGE_KINDS,
        PROBE_INSTRUCTIONS as PROBE_INSTRUCTIONS,
        PROBE_SCHEMA as PROBE_SCHEMA,
        EdgeChange as EdgeChange,
        GraphPatch as GraphPatch,
        PatchEdge as PatchEdge,
        PatchNode as PatchNode,
        grounded as grounded,
        patch_from_answer as patch_from_answer,
        probe_message as probe_message,
    )
    from memlane.domain.facts.profile import (
        NEUTRAL_SCORE as NEUTRAL_SCORE,
        Profile as Profile,
        ProfileCaps as ProfileCaps,
        build_profile as build_profile,
    )
    from memlane.domain.facts.prompt_block import (
        ProfileBlock as ProfileBlock,
        ProfileHeaders as ProfileHeaders,
        render_block as render_block,
        repeats_the_profile as repeats_the_profile,
    )
    from memlane.domain.facts.questions import (
        relations_asked as relations_asked,
    )
    from memlane.domain.facts.records import (
        MAX_FACT_CHARS as MAX_FACT_CHARS,
        FactFilter as FactFilter,
        FactNotFound as FactNotFound,
        FactPatch as FactPatch,
        FactUnreadable as FactUnreadable,
        NewFact as NewFact,
        StoredFact as StoredFact,
        check_text as check_text,
        checked as checked,
    )
    from memlane.domain.facts.schema import (
        FACT_SCHEMA as FACT_SCHEMA,
        InvalidModelAnswer as InvalidModelAnswer,
        facts_from_answer as facts_from_answer,
    )
    from memlane.domain.facts.topic_index import (
        MemoryTopicTokens as MemoryTopicTokens,
        TopicEntry as TopicEntry,
        TopicIndexReport as TopicIndexReport,
        TopicTally as TopicTally,
        head as head,
    )
    from memlane.domain.facts.topics import (
        OpenQuestion as OpenQuestion,
        TopicNotFound as TopicNotFound,
        TopicSummary as TopicSummary,
        TopicTurn as TopicTurn,
        open_questions as open_questions,
        split_speakers as split_speakers,
        topic_key as topic_key,
        topic_label as topic_label,
        topics_of as topics_of,
    )
    from memlane.domain.facts.whose import (
        PersonReading as PersonReading,
        person_asked as person_asked,
        person_stated as person_stated,
        stated_factor as stated_factor,
        whose_factor as whose_factor,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "EdgeChange": "probe",
    "FUNCTIONAL_RELATIONS": "model",
    "GraphPatch": "probe",
    "PROBE_EDGE_KINDS": "probe",
    "PROBE_INSTRUCTIONS": "probe",
    "PROBE_SCHEMA": "probe",
    "PatchEdge": "probe",
    "PatchNode": "probe",
    "grounded": "probe",
    "patch_from_answer": "probe",
    "probe_message": "probe",
    "ExtractedFact": "model",
    "FACT_SCHEMA": "schema",
    "Fact": "model",
    "FactFilter": "records",
    "FactNotFound": "records",
    "FactPatch": "records",
    "FactType": "model",
    "FactUnreadable": "records",
    "InvalidFact": "model",
    "InvalidModelAnswer": "schema",
    "LedgerChanges": "ledger",
    "MAX_FACT_CHARS": "records",
    "MAX_USER_FACT_SCORE": "model",
    "MemoryTopicTokens": "topic_index",
    "NEUTRAL_SCORE": "profile",
    "NewFact": "records",
    "OpenQuestion": "topics",
    "Profile": "profile",
    "ProfileBlock": "prompt_block",
    "ProfileCaps": "profile",
    "ProfileHeaders": "prompt_block",
    "RELATION_TYPES": "model",
    "TYPES_KEPT_FROM_CLEANUP": "model",
    "Statement": "ledger",
    "StoredFact": "records",
    "TimeSpan": "model",
    "TopicEntry": "topic_index",
    "TopicIndexReport": "topic_index",
    "TopicNotFound": "topics",
    "TopicSummary": "topics",
    "TopicTally": "topic_index",
    "TopicTurn": "topics",
    "USER": "model",
    "apply_statements": "ledger",
    "build_profile": "profile",
    "superseded_facts": "model",
    "check_text": "records",
    "checked": "records",
    "extract_facts": "extraction",
    "facts_from_answer": "schema",
    "head": "topic_index",
    "keeps_its_memory": "model",
    "normalise": "model",
    "open_questions": "topics",
    "relations_asked": "questions",
    "relations_touched": "ledger",
    "render_block": "prompt_block",
    "repeats_the_profile": "prompt_block",
    "split_speakers": "topics",
    "topic_key": "topics",
    "topic_label": "topics",
    "topics_of": "topics",
    "validate_user_fact_score": "model",
    "PersonReading": "whose",
    "person_asked": "whose",
    "person_stated": "whose",
    "stated_factor": "whose",
    "whose_factor": "whose",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
