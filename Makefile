# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test bench lint typecheck clean browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.base-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# The tests run the Ray backend too (tests/backend), the web server and pages
# (tests/web), the neural layer (tests/nn) and the RL environments (tests/envs), so they
# install the extras `distributed`, `web`, `nn` and `envs`; `make demo` keeps the lean
# base install. torch is installed first,
# pinned: that is the CPU build (quick to install); an unpinned torch is a CUDA build
# of several GB.
TORCH := torch==2.13.0
$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet $(TORCH)
	$(BIN)/python -m pip install --quiet -e '.[dev,distributed,web,nn,envs]'
	touch $(VENV)/.base-installed $@

# The browser tests drive Debian's chromium through Playwright (never `playwright
# install`). Installed where we can (root on Debian, as in CI); without it those tests
# are reported as skipped with the reason.
browser:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq chromium) \
	  || echo "chromium not installed: the browser tests (tests/web/test_browser.py) will be skipped"

demo: $(VENV)/.base-installed
	$(BIN)/checkraise demo --out demo-out

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

test: lint browser
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q

bench: $(VENV)/.dev-installed
	@for f in benchmarks/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) demo-out .mypy_cache .ruff_cache .pytest_cache
