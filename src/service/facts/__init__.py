"""Fact use cases: recording, sealing, listing and editing facts, the profile and topics."""
