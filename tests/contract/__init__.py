"""Shared contract suites that both fakes and real adapters must pass."""
