# Everything a fresh machine needs is installed by these targets themselves:
# a Python virtual environment from requirements.txt and the official
# MicroPython WebAssembly build from package-lock.json.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# pytest with bytecode written even where PYTHONDONTWRITEBYTECODE is set: the modules
# are then compiled (and the tests' asserts rewritten) once, not again in each worker
# and each `python -m sim` a test starts, on every run (__pycache__/ is git-ignored).
PYTEST := PYTHONDONTWRITEBYTECODE= $(PY) -m pytest

.PHONY: pictures test check lint ruff pyright-board pyright-host sim table bench bench-bots golden deps clean flash new-game

# Everything, lint first: what .ci/run runs.
test: deps chromium lint
	$(PYTEST)

# The edit loop: ruff, then every test but those marked slow (pyproject.toml
# registers the marker).  make test runs everything and make lint first, pyright
# included: the two pyright runs take 34 s of CPU, a quarter of make check's work, and
# with them make check took 79-83 s on two cores (editors run pyright as you type).
# Its tests wait on the processes they start (python -m sim, MicroPython, the browser)
# about as much as they compute, so one worker more than the cores (on 2 cores, before
# the console's whole-table runs moved to make test: 3 workers 61 s, 2 workers 79 s, 4
# workers 65 s).  More pytest options with ARGS (make check ARGS="tests/test_app.py -x").
CHECK_WORKERS := $(shell echo $$(( $$(nproc) + 1 )))
check: deps chromium ruff
	$(PYTEST) -m "not slow" -n $(CHECK_WORKERS) $(ARGS)

# ruff (pinned in requirements.txt, configured in pyproject.toml) over the whole
# tree: the lint rules and the format (ruff format . fixes the latter).
ruff: deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# ruff, then pyright (pinned in package-lock.json), its two runs side by side (each
# one's output printed whole when it ends; either failing fails lint): the board code
# against MicroPython's rp2 stubs (they live in .typings/, apart from the venv), and
# the host tools, the simulator and the hardware scripts against CPython.
lint: deps .typings/.installed ruff
	@$(MAKE) --no-print-directory -j2 --output-sync=target pyright-board pyright-host

pyright-board: deps .typings/.installed
	node_modules/.bin/pyright -p firmware/pyrightconfig.json

pyright-host: deps
	node_modules/.bin/pyright -p pyrightconfig.json

# make sim ARGS="--game nokosu --players 5 --seed 3"   (python -m sim --help lists all)
# Not echoed, so stdout is the transcript; a closed pipe (make sim | head) is not an
# error (python -m sim exits 141 for it, quietly).  Any other failure: python -m sim's
# one line, then make's "*** [sim] Error N" with its status N; make itself exits 2.
sim: $(VENV)/.installed
	@$(PY) -m sim $(ARGS) || { status=$$?; [ $$status -eq 141 ] || exit $$status; }

# make table   (then open http://127.0.0.1:8765/; this machine only; Ctrl-C stops it)
# The table as a web page: the firmware on the virtual table, bots and clicks (docs/web.md).
# ARGS passes options: make table ARGS="--http-port 0 --open walzer.match" (--help lists them).
table: $(VENV)/.installed
	@$(PY) -m sim.web $(ARGS) || { status=$$?; [ $$status -eq 130 ] || exit $$status; }

# make flash PORT=/dev/ttyACM0   (compile the firmware, copy what changed, soft-reset)
# Without PORT: $$DICETABLE_PORT, else the first USB serial board (no board: one line says so).
# ARGS passes more options (make flash ARGS="--firmware other/").
flash: $(VENV)/.installed
	$(PY) -m host_tools flash $(if $(PORT),--port '$(PORT)') $(ARGS)

# Every figure the docs quote (docs/performance.md says which bench prints which).
# The benches live in tools/bench/, apart from the tests (some tests import them).
bench: deps $(VENV)/.bench-installed
	$(PY) tools/bench/bench_core.py
	$(PY) tools/bench/bench_match.py
	$(PY) tools/bench/bench_report.py
	$(PY) tools/bench/bench_heap.py
	$(PY) tools/bench/bench_flash.py
	$(PY) tools/bench/bench_ws2812.py
	$(PY) tools/bench/bench_latency.py
	$(PY) tools/bench/bench_mirror.py
	$(PY) tools/bench/bench_stack.py
	$(PY) tools/bench/bench_boot.py
	$(PY) tools/bench/bench_web.py

# The bots' strength (docs/bots.md): one ismcts seat against heuristic and against random
# opponents in every game and player count, win shares with 95 % intervals. Long (matches
# of searching bots), so apart from make bench; ARGS narrows it (--help lists them):
# make bench-bots ARGS="--games walzer --matches 20".
bench-bots: $(VENV)/.installed
	$(PY) tools/bench/bench_bots.py $(ARGS)

# The bench's own dependencies (requirements-bench.txt: OpenSpiel, which bench_match.py
# compares the engine with), for make bench only: make test never installs them.
$(VENV)/.bench-installed: requirements-bench.txt $(VENV)/.installed
	$(PY) -m pip install --quiet -r requirements-bench.txt
	touch $@

# Redraw the docs' pictures from the code they show: the LED legend (docs/img/) from
# sim/legend.py, the wiring drawing (hardware/wiring.svg) from firmware/pins.py, the games' boxes
# (docs/img/items.svg) from sim/item_art.py, and a
# screenshot of the web page in a match (docs/img/table.png, in headless chromium).
pictures: $(VENV)/.installed chromium
	$(PY) tools/pictures.py
	$(PY) tools/screenshot.py

# make new-game NAME=key TITLE="Title": a new game made from High card (the tests' toy
# game) that plays and passes make test as it is; then make it yours
# (docs/architecture.md, "Adding a game").
new-game: $(VENV)/.installed
	$(PY) tools/new_game.py '$(NAME)' $(if $(TITLE),--title '$(TITLE)')

# Rewrite the reviewed golden transcripts (tests/golden/) after a deliberate change.
golden: deps
	$(PY) tests/golden_transcripts.py

deps: $(VENV)/.installed node_modules/.installed

# The browser tests/test_web_browser.py drives: Debian's chromium package, installed
# only when /usr/bin/chromium is missing (as root, as CI runs; else through sudo).
.PHONY: chromium
chromium:
	@test -x /usr/bin/chromium || { \
	  echo "make: installing Debian's chromium for tests/test_web_browser.py"; \
	  $(if $(filter 0,$(shell id -u)),,sudo) apt-get update -qq && \
	  $(if $(filter 0,$(shell id -u)),,sudo) env DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq chromium >/dev/null; }

# The project itself too (editable): the dicetable-sim and dicetable-tools commands.
# make sim and make flash need only this, not Node.
$(VENV)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

.typings/.installed: requirements-stubs.txt $(VENV)/.installed
	rm -rf .typings
	$(PY) -m pip install --quiet --no-user --target .typings -r requirements-stubs.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

clean:
	rm -rf $(VENV) node_modules .typings .pytest_cache .hypothesis build
