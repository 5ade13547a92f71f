PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit browser bench clean native

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The engine's hot modules compiled with mypyc (drawpoker._native); a failed build
# leaves the pure-Python engine, which behaves the same, only slower.
native: $(STAMP)
	@$(BIN)/python scripts/build_native.py \
		|| echo "mypyc build failed: the engine runs as pure Python (about 1.6x slower)"

run: native
	$(BIN)/drawpoker serve

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/lint-imports --no-cache

typecheck: $(STAMP)
	$(BIN)/mypy

# The browser tests drive Debian's Chromium; install it when missing (needs root).
browser:
	@command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium) \
		|| echo "Chromium could not be installed: the browser tests will be skipped (or fail when CI is set)"

# The whole suite on the compiled engine, then the engine's own tests on its Python source.
unit: native browser
	$(BIN)/pytest -q
	DRAWPOKER_PURE=1 $(BIN)/pytest -q -p no:cacheprovider tests/engine tests/test_cards.py \
		tests/test_deck.py tests/test_native.py

test: lint typecheck unit

bench: native
	$(BIN)/python benchmarks/evaluator.py
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
	rm -f src/*.so src/drawpoker/*.so src/drawpoker/_native.json
