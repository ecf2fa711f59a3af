"""Unit tests of the memory proxy's use cases."""
