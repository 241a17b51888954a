# Two entry points: `make play` (a terminal game) and `make test` (lint, types, tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml setup.py src/bones/fast/_playout.c src/bones/fast/_search.c | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/bones play $(ARGS)

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy --strict src/bones
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/engine_paths.py
	$(BIN)/python benchmarks/search_paths.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
