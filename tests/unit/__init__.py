"""Unit tests: pure domain and the service over in-memory fakes."""
