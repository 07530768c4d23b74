# `make run` and `make test` each set up everything they need on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test]"
	touch $(STAMP)

# The main job: simulate a few battles on the embedded SQLite store and print one battle's log.
run: $(STAMP)
	$(BIN)/ringside simulate --ruleset deckduel --battles 5 --seed 1 --show-log

test: $(STAMP)
	scripts/services
	RINGSIDE_REQUIRE_SERVICES=$${RINGSIDE_REQUIRE_SERVICES:-1} $(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) ringside.db ringside.db-wal ringside.db-shm
