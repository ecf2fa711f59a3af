"""HTTP adapters: MemoryContextPort over the memlane REST API; the proxy's upstream (httpx)."""
