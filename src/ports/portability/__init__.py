"""Ports of portability: chat exports, the import ledger, rows of older schemas."""
