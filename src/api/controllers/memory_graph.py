"""One memory's place in the graph (/v1/memories/{id}/graph and /edges)."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import Controller, delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, Parameter
from litestar.status_codes import HTTP_201_CREATED

from memlane.api.deps import MEMORIES, OWNER, Memories, owner_from_body
from memlane.api.graph_schemas import EdgeIn, EdgeOut, GraphNodeOut, GraphOut
from memlane.api.mapping import rounded
from memlane.api.params import ERRORS, READ, WRITE
from memlane.domain.errors import InvalidMemory
from memlane.domain.graph import Edge, EdgeKind
from memlane.domain.model import Owner


def edge_out(edge: Edge) -> EdgeOut:
    return EdgeOut(source=edge.source, target=edge.target, kind=edge.kind.value,
                   weight=rounded(edge.weight))


def _kinds(kinds: str | None) -> list[EdgeKind] | None:
    if kinds is None or not kinds.strip():
        return None
    try:
        return [EdgeKind(k.strip()) for k in kinds.split(",") if k.strip()]
    except ValueError:
        allowed = ", ".join(k.value for k in EdgeKind)
        raise InvalidMemory(f"kinds must be a comma-separated list of: {allowed}") from None


class MemoryGraphController(Controller):
    """The edges of one memory: its neighbourhood, and the edges a caller states."""

    path = "/v1/memories/{memory_id:uuid}"
    tags = ["graph"]
    dependencies = {"memories": MEMORIES, "owner": OWNER}

    @get("/graph", operation_id="memoryGraph", opt=READ, raises=ERRORS)
    async def graph(
        self,
        memory_id: FromPath[UUID],
        memories: Memories,
        owner: NamedDependency[Owner],
        depth: Annotated[int, Parameter(ge=1, le=3, description="Hops, 1..3.")] = 1,
        kinds: Annotated[
            str | None, Parameter(max_length=200, description="Edge kinds, comma-separated.")
        ] = None,
    ) -> GraphOut:
        """The memory and the memories within `depth` edges of it, with those edges; with
        `kinds` unset or naming `entity`, also the entities they name (docs/graph.md)."""
        found = await memories.neighbourhood(owner, memory_id, depth, _kinds(kinds))
        replaced_by = {e.target: e.source for e in found.edges if e.kind.replaces}
        nodes = [
            GraphNodeOut(
                id=m.id, memory_type=m.memory_type.value, summary=m.summary,
                importance=rounded(m.importance), created_at=m.created_at,
                conversation_id=m.conversation_id,
                superseded_by=m.superseded_by or replaced_by.get(m.id),
            )
            for m in found.nodes
        ]
        nodes += [
            GraphNodeOut(id=n.id, kind="entity", importance=rounded(n.weight), label=n.label,
                         entity_kind=n.kind)  # type: ignore[arg-type]
            for n in found.entities
        ]
        edges = [edge_out(e) for e in found.edges + found.mentions]
        return GraphOut(nodes=nodes, edges=edges)

    @post("/edges", operation_id="addEdge", opt=WRITE, raises=ERRORS,
          status_code=HTTP_201_CREATED, dependencies={"owner": owner_from_body(EdgeIn)})
    async def add_edge(
        self, memory_id: FromPath[UUID], data: JSONBody[EdgeIn], memories: Memories,
        owner: NamedDependency[Owner],
    ) -> EdgeOut:
        """State a causal, temporal or narrative edge from this memory to `target`."""
        edge = await memories.connect(
            owner, memory_id, data.target, EdgeKind(data.kind), data.weight
        )
        return edge_out(edge)

    @delete("/edges/{target:uuid}", operation_id="removeEdge", opt=WRITE, raises=ERRORS)
    async def remove_edge(
        self,
        memory_id: FromPath[UUID],
        target: FromPath[UUID],
        memories: Memories,
        owner: NamedDependency[Owner],
        kind: Annotated[str | None, Parameter(description="Only this kind.")] = None,
    ) -> None:
        """Remove the edge(s) from this memory to `target` (204; 404 when there is none)."""
        chosen = _kinds(kind)
        if chosen is not None and len(chosen) != 1:
            raise InvalidMemory("kind names one edge kind")
        await memories.disconnect(owner, memory_id, target, chosen[0] if chosen else None)
