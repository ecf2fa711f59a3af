"""Unit tests of the memory proxy's rules."""
