# skir: set-up, demo and tests. `make demo` and `make test` each do all the set-up first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(abspath $(VENV))/bin

.PHONY: venv extras acl-headers demo test lit pytest typecheck fuzz bench torch-examples test-hf4 clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

venv: $(VENV)/.installed

# The optional extras: torch (a CPU build; 2.13.0 is the release the CI machines keep),
# matplotlib for the --report charts and transformers (the newest, 5.x) for the real-model
# tests. Without them their tests skip.
TORCH ?= torch==2.13.0
extras: venv
	$(BIN)/pip install -q '$(TORCH)'
	$(BIN)/pip install -q -e '.[test,torch,report,hf]'

# The HuggingFace tests on transformers 4 (`make extras` installs the newest, 5.x, which the test
# command runs them on): transformers 4.57 and its dependencies go to .hf4, ahead on the path.
HF4 ?= transformers==4.57.6
test-hf4: extras
	$(BIN)/pip install -q --target .hf4 '$(HF4)'
	PYTHONPATH=.hf4 $(BIN)/python -m pytest -q -p no:cacheprovider test/unit/test_torch_hf.py

torch-examples: venv
	$(BIN)/python examples/torch/mlp_block.py
	$(BIN)/python examples/torch/decoder_layer.py
	$(BIN)/python examples/torch/attention_moe.py
	$(BIN)/python examples/torch/serving_decode.py
	$(BIN)/python examples/torch/tp_decode.py

# The ACL headers (torch-npu's wheel, fetched, never committed): the CPU runtime model and the
# header-layout probe are built against them (docs/device.md).
ACL_DIR ?= .acl
$(ACL_DIR)/acl/acl_rt.h: | $(VENV)/.installed
	$(BIN)/python tools/fetch_acl_headers.py $(ACL_DIR)

acl-headers: $(ACL_DIR)/acl/acl_rt.h

demo: venv
	$(BIN)/sk-compile examples/decode_layer.json -o out/decode_layer --check --emulate

lit: venv
	PATH=$(BIN):$$PATH $(BIN)/lit -v test/filecheck

# -rs: the reason of every skip (an optional part not installed) in the summary
pytest: venv acl-headers
	SKIR_ACL_INCLUDE=$(abspath $(ACL_DIR)) $(BIN)/python -m pytest -q -rs test/unit

# The fixed-seed fuzzing campaign (tools/fuzz.py): fails on any traceback, internal error, hang,
# unlocated or multi-line message, stray file or invalid product. FUZZ_MUTANTS=100000 for a long run.
FUZZ_MUTANTS ?= 12000
fuzz: venv
	$(BIN)/python tools/fuzz.py --mutants $(FUZZ_MUTANTS) --seed 1 --progress

# The type checker, strict, on the whole package (configuration in pyproject.toml).
typecheck: venv
	$(BIN)/python tools/typecheck.py

# Every step runs, whatever an earlier one gave; the end names each step that failed.
TEST_STEPS := lit pytest typecheck fuzz
test: venv
	@failed=""; for step in $(TEST_STEPS); do \
	  echo "== make $$step"; \
	  $(MAKE) --no-print-directory $$step || failed="$$failed $$step"; \
	done; \
	if [ -n "$$failed" ]; then echo "make test: failed:$$failed (the other steps passed)"; exit 1; fi; \
	echo "make test: $(TEST_STEPS): all passed"

bench: venv acl-headers
	$(BIN)/python tools/bench_compile.py --product 10000
	$(BIN)/python tools/bench_sync.py
	$(BIN)/python tools/bench_schedule.py
	$(BIN)/python tools/bench_scale.py
	$(BIN)/python tools/bench_share.py
	SKIR_ACL_INCLUDE=$(abspath $(ACL_DIR)) $(BIN)/python tools/bench_apply.py

clean:
	rm -rf out build *.egg-info test/filecheck/**/Output $(ACL_DIR)
