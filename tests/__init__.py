"""memlane tests: unit (fakes), contract suites, integration (PostgreSQL), e2e."""
