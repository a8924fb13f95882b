# d2lgpu: the two commands a learner needs are `make lab` and `make test`.
# `make help` lists the others.

PYTHON ?= python3
VENV   ?= .venv
VPY    := $(VENV)/bin/python
# `make check` runs in whatever environment is active; `make test` uses .venv.
CHECK_PY ?= python

NBVAL_FLAGS := -rs --nbval --nbval-current-env --nbval-sanitize-with tests/sanitize.cfg \
	--nbval-cell-timeout=300
SUITE := tests notebooks solutions exercises

.PHONY: help setup lab test check lint lock outputs exercises bench gpu-check clean

help:  ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/'

setup:  ## create .venv, install the lock and the package, register the kernel (idempotent)
	$(PYTHON) tools/setup_env.py --venv $(VENV)

lab: setup  ## set up, copy chapters and exercises into work/ (never overwriting), start JupyterLab
	$(PYTHON) tools/setup_env.py --venv $(VENV) --copy-work
	$(VPY) tools/lab.py

test: setup  ## set up, then lint and run the whole suite (unit tests + nbval)
	$(MAKE) --no-print-directory check CHECK_PY=$(abspath $(VPY))

check:  ## lint and run the whole suite in the active environment, installing nothing
	$(CHECK_PY) -m ruff check .
	$(CHECK_PY) -m ruff format --check .
	$(CHECK_PY) -m pytest $(NBVAL_FLAGS) $(SUITE)

lint:  ## ruff only
	$(CHECK_PY) -m ruff check . && $(CHECK_PY) -m ruff format --check .

lock: setup  ## regenerate requirements.lock from pyproject.toml (uv, every platform)
	$(VPY) tools/lock.py

outputs: setup  ## re-run notebooks/ and solutions/ on the CPU and store their outputs
	$(VPY) tools/make_outputs.py notebooks solutions

exercises: setup  ## generate exercises/ from solutions/
	$(VPY) tools/make_exercises.py

bench: setup  ## measure this machine (python -m d2lgpu bench) into bench-results/
	$(VPY) -m d2lgpu bench --out bench-results

# The parts of gpu-check, in order; two runs of under 9 minutes: PART=tests, then PART=notebooks,bench.
PART ?= tests,notebooks,bench

gpu-check:  ## on a CUDA machine, installing nothing: suite, notebooks (GPU outputs kept), bench -> docs/results/<device>/
	$(CHECK_PY) tools/gpu_check.py --part $(PART) $(if $(NOTEBOOKS),--notebooks $(NOTEBOOKS))

clean:  ## remove caches (keeps .venv and work/)
	rm -rf .pytest_cache .ruff_cache
	find . -name __pycache__ -not -path './.venv/*' -prune -exec rm -rf {} +
