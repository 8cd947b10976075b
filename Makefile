# Everything a fresh machine needs is installed by these targets themselves:
# a Python virtual environment from requirements.txt and the official
# MicroPython WebAssembly build from package-lock.json.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python

.PHONY: test sim bench golden deps clean

test: deps
	$(PY) -m pytest

# make sim ARGS="--game nokosu --players 5 --seed 3"   (python -m sim --help lists all)
sim: deps
	$(PY) -m sim $(ARGS)

bench: deps
	$(PY) tests/bench_core.py
	$(PY) tests/bench_match.py

golden: deps
	$(PY) tests/golden_transcripts.py

deps: $(VENV)/.installed node_modules/.installed

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis build
