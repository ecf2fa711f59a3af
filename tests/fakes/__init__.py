"""In-memory fakes of the ports, with the same semantics as the real adapters."""
