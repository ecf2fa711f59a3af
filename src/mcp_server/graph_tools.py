"""The knowledge-graph tools under the reference MCP memory server's names and shapes."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, ConfigDict, Field

from memlane.domain.graph import Entity, Relation
from memlane.domain.security import Scope
from memlane.mcp_server.caller import acting, tool_errors
from memlane.mcp_server.memory_tools import ADDS, READS, UserId
from memlane.mcp_server.views import entity_view, graph_view, relation_view


class EntityIn(BaseModel):
    name: str = Field(description="The entity's name, e.g. 'Ana Silva' or 'Acme'.")
    entityType: str = Field(description="What it is: person, organization, place, project…")
    observations: list[str] = Field(
        default_factory=list, description="Things known about it, one statement each."
    )


class RelationIn(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    source: str = Field(alias="from", description="The entity the relation starts at.")
    target: str = Field(alias="to", description="The entity it points to.")
    relationType: str = Field(description="In active voice, e.g. 'works_at', 'is_married_to'.")


class ObservationsIn(BaseModel):
    entityName: str
    contents: list[str] = Field(min_length=1)


def register_graph_tools(server: MCPServer) -> None:
    """Add create_entities, create_relations, add_observations, read_graph, search_nodes
    and open_nodes to `server`."""

    @server.tool(annotations=ADDS)
    async def create_entities(
        entities: Annotated[list[EntityIn], Field(min_length=1)], user_id: UserId = None
    ) -> dict[str, Any]:
        """Create entities in the user's knowledge graph (people, organisations, places,
        projects), each with its first observations. An entity whose name exists already is
        skipped; the result lists those created. Names match ignoring case and spacing."""
        with tool_errors("create_entities"):
            owner, services = acting(Scope.WRITE, user_id)
            wanted = [Entity(e.name, e.entityType, tuple(e.observations)) for e in entities]
            created = await services.knowledge_graph().create_entities(owner, wanted)
            return {"entities": [entity_view(e) for e in created]}

    @server.tool(annotations=ADDS)
    async def create_relations(
        relations: Annotated[list[RelationIn], Field(min_length=1)], user_id: UserId = None
    ) -> dict[str, Any]:
        """Connect existing entities with named relations (from -> to, in active voice).
        A relation that exists already is skipped; the result lists those created. Both
        ends must have been created with `create_entities` first."""
        with tool_errors("create_relations"):
            owner, services = acting(Scope.WRITE, user_id)
            wanted = [Relation(r.source, r.target, r.relationType) for r in relations]
            created = await services.knowledge_graph().create_relations(owner, wanted)
            return {"relations": [relation_view(r) for r in created]}

    @server.tool(annotations=ADDS)
    async def add_observations(
        observations: Annotated[list[ObservationsIn], Field(min_length=1)],
        user_id: UserId = None,
    ) -> dict[str, Any]:
        """Add facts about existing entities, one statement each. Statements the entity
        already has are skipped; the result lists what was added per entity."""
        with tool_errors("add_observations"):
            owner, services = acting(Scope.WRITE, user_id)
            added = await services.knowledge_graph().add_observations(
                owner, [(o.entityName, o.contents) for o in observations]
            )
            return {"results": [{"entityName": name, "addedObservations": list(texts)}
                                for name, texts in added]}

    @server.tool(annotations=READS)
    async def read_graph(user_id: UserId = None) -> dict[str, Any]:
        """The user's whole knowledge graph: every entity with its observations, and every
        relation. Prefer `search_nodes` or `open_nodes` when the graph may be large."""
        with tool_errors("read_graph"):
            owner, services = acting(Scope.READ, user_id)
            return graph_view(await services.knowledge_graph().read_graph(owner))

    @server.tool(annotations=READS)
    async def search_nodes(
        query: Annotated[str, Field(description="Words or a question about entities.")],
        user_id: UserId = None,
    ) -> dict[str, Any]:
        """Find entities whose name, type or observations match the query (by meaning and
        by substring), with the relations between them."""
        with tool_errors("search_nodes"):
            owner, services = acting(Scope.READ, user_id)
            return graph_view(await services.knowledge_graph().search_nodes(owner, query))

    @server.tool(annotations=READS)
    async def open_nodes(
        names: Annotated[list[str], Field(min_length=1)], user_id: UserId = None
    ) -> dict[str, Any]:
        """The named entities with their observations, and every relation touching them.
        Unknown names are left out."""
        with tool_errors("open_nodes"):
            owner, services = acting(Scope.READ, user_id)
            return graph_view(await services.knowledge_graph().open_nodes(owner, names))
