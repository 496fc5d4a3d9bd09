# skir: set-up, demo and tests. `make demo` and `make test` each do all the set-up first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(abspath $(VENV))/bin

.PHONY: venv demo test lit pytest bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

venv: $(VENV)/.installed

demo: venv
	$(BIN)/sk-compile examples/decode_layer.json -o out/decode_layer --check --emulate

lit: venv
	PATH=$(BIN):$$PATH $(BIN)/lit -sv test/filecheck

pytest: venv
	$(BIN)/python -m pytest -q test/unit

test: lit pytest

bench: venv
	$(BIN)/python tools/bench_compile.py
	$(BIN)/python tools/bench_sync.py

clean:
	rm -rf out build *.egg-info test/filecheck/**/Output
