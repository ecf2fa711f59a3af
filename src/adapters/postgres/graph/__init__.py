"""PostgreSQL adapters of the graph: edges and their use."""
