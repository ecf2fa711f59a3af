"""Ports of facts: the fact store, extraction, scans, topics and the topic index."""
