# make demo — set up and run a whole En Garde! month by email on local Maildirs.
# make test — set up and run the whole test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/moderator demo

test: $(STAMP)
	$(BIN)/ruff check moderator tests benchmarks
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check moderator tests benchmarks

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_month.py

clean:
	rm -rf $(VENV) var *.egg-info
