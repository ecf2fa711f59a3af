"""The Litestar HTTP API."""
