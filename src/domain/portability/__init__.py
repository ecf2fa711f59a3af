"""Data in and out: the export/import records, chat exports, and rows of older schemas."""
