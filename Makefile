# gpuops: `make run` starts the product on its embedded defaults; `make test` sets up and runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint typecheck pytest bench e2e chaos load clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: PORT ?= 8000
run: $(STAMP)
	$(BIN)/gpuops dev --port $(PORT)

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

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis gpuops.db
