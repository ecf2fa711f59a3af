"""HTTP client adapter: MemoryContextPort over the memlane REST API."""
