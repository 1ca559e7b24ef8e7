# gpuops: `make run` starts the product on its embedded defaults; `make test` sets up and runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test tools lint typecheck pytest bench e2e chaos load mutate clean

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

# The command-line validators some tests run (promtool for the alert rules, kubectl for kustomize), from Debian's
# packages when missing and apt-get can install them; without them those tests skip, and fail under CI.
tools:
	@command -v promtool >/dev/null && command -v kubectl >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	      $$(command -v promtool >/dev/null || echo prometheus) \
	      $$(command -v kubectl >/dev/null || echo kubernetes-client) >/dev/null; \
	  else echo "make tools: install promtool (Debian: prometheus) and kubectl (Debian: kubernetes-client)"; fi; }

# One pytest worker per core (PYTEST_WORKERS=0 runs in one process): every database test has a schema or file of its
# own, every fake listens on a free port and every Redis key has a per-test prefix, so workers never share state.
PYTEST_WORKERS ?= auto
pytest: $(STAMP) tools
	$(BIN)/pytest -n $(PYTEST_WORKERS)

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
