# memlane: `make run` starts the service on embedded defaults, `make test` runs every check.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: install run test lint unit bench clean

install: $(STAMP)
	@$(BIN)/python scripts/ensure_pgvector.py

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "memlane needs Python >= 3.11")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[embedded,dev]"
	@touch $(STAMP)

run: install
	$(BIN)/memlane serve

lint: install
	$(BIN)/ruff check src tests bench migrations
	$(BIN)/lint-imports
	$(BIN)/mypy src

unit: install
	$(BIN)/pytest tests/unit -q

test: lint
	$(BIN)/pytest -q

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
