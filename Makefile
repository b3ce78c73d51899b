# make demo — set up and run a whole En Garde! month by email on local Maildirs
# (make demo-dwtk, make demo-fief: the first turns of the other two games).
# make test — set up and run the whole test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo demo-dwtk demo-fief test lint bench clean mailservers

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/moderator demo

demo-dwtk demo-fief: $(STAMP)
	$(BIN)/moderator demo --kind $(@:demo-%=%)

# The real-mail tests need Dovecot + Postfix (Debian packages, root). Where they cannot
# be installed the mail tests skip with a message saying so (CI makes that an error).
mailservers:
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  bash scripts/mailtest.sh install; \
	else echo "not root or no apt-get: real-mail tests will be skipped"; fi

test: $(STAMP) mailservers lint
	$(BIN)/python -m pytest

# ruff, the import contracts (pyproject: layers, pure engines, no cycles), and mypy:
# strict on the engines and the dice, default strictness on the whole package.
lint: $(STAMP)
	$(BIN)/ruff check moderator tests benchmarks
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy
	$(BIN)/mypy --strict moderator/games moderator/dice.py

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_month.py

clean:
	rm -rf $(VENV) var *.egg-info
