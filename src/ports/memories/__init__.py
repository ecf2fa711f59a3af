"""Ports of the memory store: storing, searching, maintaining and cleaning up memories."""
