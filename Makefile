# gpuops: `make run` starts the product on its embedded defaults; `make test` sets up and runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint typecheck pytest bench e2e chaos load mutate clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/gpuops dev

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy bot policy contract service gpuops

pytest: $(STAMP)
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m bench

e2e: $(STAMP)
	$(BIN)/python -m bench.e2e

chaos: $(STAMP)
	$(BIN)/python -m bench.chaos

load: $(STAMP)
	$(BIN)/python -m bench.load

# Mutation testing of the money-critical modules, each against its own tests; minutes, so never part of `test`.
# MUTATE_ARGS narrows it, e.g. `make mutate MUTATE_ARGS="guardrails --max 20"`.
mutate: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,mutate]'
	nice -n 10 $(BIN)/python scripts/mutate.py $(MUTATE_ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis gpuops.db
