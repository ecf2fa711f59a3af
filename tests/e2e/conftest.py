"""Fixtures of the end-to-end tests: `deployment`, `memlane serve` as a process on a temp
data dir (module-scoped: one server per test module), and `upstream`, a stub OpenAI-compatible
model server."""

from tests.e2e.test_proxy_serve import upstream  # noqa: F401  (a stub model server)
from tests.e2e.test_serve_process import deployment  # noqa: F401
