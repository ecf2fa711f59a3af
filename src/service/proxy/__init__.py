"""The memory proxy's use cases: a chat forwarded with memory, and its exchange learned."""
