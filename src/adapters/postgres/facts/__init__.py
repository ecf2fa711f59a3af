"""PostgreSQL adapters of facts, topics and the topic index."""
