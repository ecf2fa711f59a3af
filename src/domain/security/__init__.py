"""Who may act and what proves it: API keys, data keys, the audit chain, integrity."""
