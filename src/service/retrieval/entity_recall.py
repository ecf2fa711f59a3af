"""Recall through entities: names in a question reach the memories that mention them,
ranked among themselves by meaning, as one more ranking for the fusion."""

from __future__ import annotations

from collections.abc import Coroutine, Mapping
from typing import Any
from uuid import UUID

from memlane.domain.entities import name_terms, query_name_keys
from memlane.domain.model import Owner, SearchCandidate, Vector
from memlane.domain.policy import GraphTuning
from memlane.ports.encryption import EncryptionPort
from memlane.ports.entities import EntityPort
from memlane.ports.memories import CandidateSearchPort


class EntityRecall:
    """One read of the blind name index (started before the question is embedded), one
    of lean rows for the memories not found otherwise."""

    def __init__(
        self,
        entities: EntityPort,
        search: CandidateSearchPort,
        encryption: EncryptionPort,
        tuning: GraphTuning,
    ) -> None:
        self._entities = entities
        self._search = search
        self._encryption = encryption
        self._tuning = tuning

    @property
    def weight(self) -> float:
        """The weight of this ranking in the fusion (0: recall by entity is off)."""
        return self._tuning.entity_weight if self._tuning.enabled else 0.0

    def lookup(self, owner: Owner, query: str) -> Coroutine[Any, Any, list[UUID]] | None:
        """The read of the memories that mention the question's names (to run while it is
        embedded); None when it names nothing to look up (or recall by entity is off)."""
        keys = query_name_keys(query)
        if self.weight <= 0 or not keys or self._tuning.entity_candidates < 1:
            return None
        indexes = self._encryption.blind_terms(owner.tenant, name_terms(keys))
        return self._entities.mentioning(
            owner, indexes, self._tuning.entity_candidates, self._tuning.entity_max_share
        )

    async def ranked(
        self,
        owner: Owner,
        mentioning: list[UUID],
        known: Mapping[UUID, SearchCandidate],
        similarities: Mapping[UUID, float],
        vector: Vector | None,
        limit: int,
    ) -> list[SearchCandidate]:
        """The memories mentioning the names, by cosine to the question (by salience and
        recency, as the port returned them, without a vector); lean rows read only for
        those the other rankings did not bring."""
        missing = [i for i in mentioning if i not in known]
        rows = dict(known)
        if missing:
            rows.update({c.id: c for c in await self._search.candidates_by_id(
                owner, missing, vector
            )})
        found = [rows[i] for i in mentioning if i in rows]
        if vector is not None:
            cosine = {c.id: similarities.get(c.id, c.score) for c in found}
            found.sort(key=lambda c: -cosine[c.id])
        return found[:limit]
