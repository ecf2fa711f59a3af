"""Entity use cases: names read from memories as they are written."""
