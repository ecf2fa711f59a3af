"""Ports of security: the audit log, data keys, API keys, integrity scans, sealed fields."""
