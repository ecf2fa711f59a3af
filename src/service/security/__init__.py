"""Security use cases: sealing, data keys, API keys, the audit trail, verification."""
