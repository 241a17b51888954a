# Three entry points: `make play` (a terminal game), `make serve` (the web table) and
# `make test` (lint, types, tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

# Three installs: `make play` needs only what bones needs to run; `make serve` adds the web
# extra (Starlette, uvicorn, SQLAlchemy, Alembic); `make test` adds the dev tools, the web
# extra, whose code it checks and tests, and the research extras (OpenSpiel, PettingZoo,
# Gymnasium: docs/research.md). OpenSpiel is taken only as a ready-made wheel: some Pythons
# and platforms have none (3.15, when this was written), and building it from source needs
# a C++ toolchain and a long download, so where no wheel exists its tests are skipped, and
# PettingZoo and Gymnasium are installed alone (the `environments` extra); where they cannot
# be, theirs are too. Ray (the `cluster` extra, `--cluster`: docs/cluster.md) is installed
# after them, in a step of its own, also only as a wheel: where there is none, the cluster
# tests are skipped. pip's reason for each extra it refused stays in $(VENV)/*.log, and the
# skipped tests quote it.
RUN_STAMP := $(VENV)/.installed-run
WEB_STAMP := $(VENV)/.installed-web
DEV_STAMP := $(VENV)/.installed-dev
SOURCES := pyproject.toml setup.py src/bones/fast/_playout.c src/bones/fast/_search.c

.PHONY: play serve test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): $(SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(WEB_STAMP): $(SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[web]'
	touch $(RUN_STAMP) $@

$(DEV_STAMP): $(SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --only-binary open_spiel -e '.[dev,web,research]' \
	    2>$(VENV)/openspiel.log \
	  || { echo "make: OpenSpiel not installed, its tests will be skipped ($$(grep ERROR \
	         $(VENV)/openspiel.log | tail -n 1))"; \
	       $(BIN)/python -m pip install --quiet -e '.[dev,web,environments]' \
	           2>$(VENV)/environments.log \
	         || { echo "make: PettingZoo and Gymnasium not installed, their tests will be \
	skipped ($$(grep ERROR $(VENV)/environments.log | tail -n 1))"; \
	              $(BIN)/python -m pip install --quiet -e '.[dev,web]'; }; }
	$(BIN)/python -m pip install --quiet --only-binary ray,grpcio -e '.[cluster]' \
	    2>$(VENV)/cluster.log \
	  || echo "make: Ray not installed, the --cluster tests will be skipped ($$(grep ERROR \
	         $(VENV)/cluster.log | tail -n 1))"
	touch $(RUN_STAMP) $(WEB_STAMP) $@

play: $(RUN_STAMP)
	$(BIN)/bones play $(ARGS)

serve: $(WEB_STAMP)
	$(BIN)/bones serve $(ARGS)

test: $(DEV_STAMP)
	$(BIN)/ruff check src tests benchmarks examples conftest.py
	$(BIN)/mypy --strict src/bones
	$(BIN)/pytest

bench: $(DEV_STAMP)
	$(BIN)/python benchmarks/engine_paths.py
	$(BIN)/python benchmarks/search_paths.py
	$(BIN)/python benchmarks/research_paths.py || [ $$? -eq 2 ]  # 2: no research extras

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
