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

# The main job: the HTTP/WebSocket service on the embedded SQLite store (./ringside.db).
run: $(STAMP)
	$(BIN)/ringside serve --host $${HOST:-127.0.0.1} --port $${PORT:-8000}

test: $(STAMP)
	scripts/browser
	scripts/services
	scripts/wrk
	$(BIN)/mypy
	RINGSIDE_REQUIRE_SERVICES=$${RINGSIDE_REQUIRE_SERVICES:-1} $(BIN)/python -m pytest -q

bench: $(STAMP)
	scripts/services
	scripts/wrk
	$(BIN)/python bench/run.py
	$(BIN)/python bench/seek.py
	$(BIN)/python bench/leaderboard.py
	$(BIN)/python bench/spectators.py
	$(BIN)/python bench/commands.py
	$(BIN)/python bench/clocks.py
	$(BIN)/python bench/matchmaking.py

clean:
	rm -rf $(VENV) ringside.db ringside.db-wal ringside.db-shm
