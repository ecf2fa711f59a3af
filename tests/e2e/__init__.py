"""End-to-end tests: memlane started as processes, as a user would."""
