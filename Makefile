# The README's commands. Everything the project needs is installed here.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
PROGRAMS := engine/scanner/regex-programs.marshal
BYTECODE := $(VENV)/.bytecode
DEMO   ?= demo.db
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: install run check test bench bench-1m bench-tables eval screenshots train-scanner scanner-eval clean

install: $(STAMP) $(PROGRAMS) $(BYTECODE)

$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt torch==2.13.0
	$(PY) -m pip install -q -c constraints.txt -e '.[dev]'
	touch $(STAMP)

# The scanner's rule regexes, compiled once here and read at import (engine/scanner/fastre.py):
# parsing ~600 long patterns cost every process start ~0.6 s.
$(PROGRAMS): $(STAMP) $(wildcard engine/scanner/*.py)
	$(PY) -c "from engine.scanner import fastre; print(fastre.write_programs(), 'rule programs')"

# The project's own bytecode, written here: where PYTHONDONTWRITEBYTECODE is set (it is on
# the machines the benchmarks ran on) Python never caches it, and every process start
# compiled the engine and the app from source again (~90 ms of `import engine` alone).
$(BYTECODE): $(STAMP) $(shell find engine echo_memory_tui -name '*.py')
	$(PY) -m compileall -q engine echo_memory_tui
	touch $@

run: install
	test -f $(DEMO) || $(VENV)/bin/echo-memory --db $(DEMO) demo
	$(VENV)/bin/echo-memory --db $(DEMO)

# Static checks, run before the tests: lint and format, the import contracts
# (engine below the app, the app on engine's public modules) and types.
SOURCES := engine echo_memory_tui tests benchmarks tools
check: install
	$(VENV)/bin/ruff check $(SOURCES)
	$(VENV)/bin/ruff format --check $(SOURCES)
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

test: install check
	$(PY) -m pytest -q -p no:cacheprovider

# Each engine benchmark writes benchmarks/results/NAME.json (revision, date, machine, load);
# one alone: `$(PY) -m benchmarks.run NAME` (write-path, import, recall, mcp, backfill).
bench: install
	$(PY) -m benchmarks.run --sizes 10000 100000
	$(PY) -m benchmarks.tui_bench
	$(MAKE) bench-tables

# Recall at 1,000,000 entries (benchmarks/results/recall-1m.json): peak RSS ~7 GB with the
# baselines (check `free -g` first); 5.3-5.6 min on an idle 2-core machine. Then the app's
# browser at 1M (tui-1m.json; its store is built once, ~2 min, and cached outside the repo;
# the run itself ~1.5 min).
bench-1m: install
	$(PY) -m benchmarks.run recall --sizes 1000000 --tag 1m
	$(PY) -m benchmarks.tui_bench --entries 1000000 --runs 1 --no-lag
	$(MAKE) bench-tables

# The README's benchmark tables, regenerated from the committed result files.
bench-tables: install
	$(PY) -m benchmarks.readme_tables

# the dev sets (LongMemEval at session and turn granularity, SciFact train); document
# embeddings are cached in .eval-cache between runs (the first turn run embeds ~23k turns)
eval: install
	$(VENV)/bin/echo-memory eval --longmemeval ../shared/data/longmemeval-dev/longmemeval_s_dev.json --cache .eval-cache --json | tee eval-longmemeval.json
	$(VENV)/bin/echo-memory eval --beir ../shared/data/scifact-train --split train --cache .eval-cache --json | tee eval-scifact.json
	$(VENV)/bin/echo-memory eval --longmemeval ../shared/data/longmemeval-dev/longmemeval_s_dev.json --granularity turn --cache .eval-cache --json | tee eval-longmemeval-turn.json

# Retrain the scanner's learned layer (deterministic; writes engine/scanner/model/).
train-scanner: install
	$(PY) -m benchmarks.train_scanner

# Leave-one-source-out detection and false positives of the whole scanner (JSON), then
# its refusals on benign chat, science and documentation it never saw (results/scanner-benign.json).
scanner-eval: install
	$(PY) -m benchmarks.scanner_eval | tee scanner-eval.json
	$(PY) -m benchmarks.scanner_benign

screenshots: install
	$(PY) -m benchmarks.screenshots

clean:
	rm -rf $(VENV) .pytest_cache $(PROGRAMS)
