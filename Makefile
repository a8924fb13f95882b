# d2lgpu: the two commands a learner needs are `make lab` and `make test`.
# `make help` lists the others.

PYTHON ?= python3
VENV   ?= .venv
VPY    := $(VENV)/bin/python
# `make check` runs in whatever environment is active; `make test` uses .venv.
CHECK_PY ?= python
# Python keeps the bytecode it compiles (in __pycache__/, which git ignores) even where the
# environment says not to: the suite starts some 200 Python processes (pytest's, kernels,
# torchrun's workers, fresh interpreters), and each would otherwise compile again the modules
# it imports, and pytest the tests it rewrites (3 s of a core for each pytest process).
unexport PYTHONDONTWRITEBYTECODE

# Two runs, side by side: the unit tests in a random order (pytest-randomly prints the seed; to
# replay an order, `pytest -p randomly -p no:cacheprovider --randomly-seed=N tests`), and the
# notebooks, whose cells must run in order. Both spread their work over processes
# (pytest-xdist): the unit tests one test at a time over UNIT_WORKERS (--dist load; a costly
# set-up that tests share is made once for all processes: tests/session_once.py), the
# notebooks one file at a time over PYTEST_WORKERS (--dist loadfile: a notebook's cells
# share one kernel). tests/scheduling.py hands out the longest tests and notebooks first, and
# --maxschedchunk=1 hands the unit tests out a few at a time, so that no process sits idle at
# the end while another runs a long test. The unit tests get two processes more than there
# are cores: many of them wait (on torchrun, a kernel, Chromium, a fresh Python, a time limit
# a test sets on purpose), and the others fill the cores meanwhile (on the 2-core machine,
# `make check` took 786 s with 4 processes; with 3, its unit tests alone took 696 to 857 s).
# The notebooks' timing claims hold beside them: each takes the fastest of several tries,
# since another program can only add time.
PYTEST_WORKERS ?= auto
CORES := $(shell nproc 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 2)
UNIT_WORKERS ?= $(if $(filter auto,$(PYTEST_WORKERS)),$(shell echo $$(($(CORES) + 2))),$(PYTEST_WORKERS))
UNIT_FLAGS := -rfEs -p randomly -p no:nbval -p xdist -n $(UNIT_WORKERS) --dist load --maxschedchunk=1 \
	-p tests.scheduling
NBVAL_FLAGS := -rfEs -p no:randomly -p xdist -n $(PYTEST_WORKERS) --dist loadfile -p tests.scheduling \
	--nbval --nbval-current-env \
	--nbval-sanitize-with tests/sanitize.cfg --nbval-cell-timeout=300 \
	--nbval-kernel-startup-timeout=300
# exercises/ has no stored outputs for nbval to compare: tests/test_exercises.py runs each
# exercise notebook top to bottom in a fresh CPU kernel and checks that every check(...)
# says NOT ATTEMPTED YET (nbval would run the same cells again and check less).
NOTEBOOKS := notebooks solutions
# More pytest options for both runs, e.g. PYTEST_ARGS="--durations=20" or "-x".
PYTEST_ARGS ?=
UNIT_TESTS ?= tests
# The learners' torch: pyproject.toml's floor (2.11, what Colab's GPU runtime ships) in
# .venv-floor; there, nbval on the chapters and solutions and these tests: the checkers,
# the exercises, and the tests that run a torch-version branch (tests/test_torch_branches.py;
# tests/test_versions.py runs d2lgpu.versions, where the lessons' branches live).
FLOOR_VENV ?= .venv-floor
FLOOR_TESTS ?= tests/test_checks*.py tests/test_exercises.py tests/test_torch_branches.py \
	tests/test_memory.py tests/test_versions.py tests/test_op_send.py

.PHONY: help setup lab env test test-floor test-fast check check-static check-units check-notebooks lint main-path lock outputs exercises bench site said mutation gpu-check clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/'

setup:  ## create .venv, install the lock and the package, register the kernel (idempotent)
	$(PYTHON) tools/setup_env.py --venv $(VENV)

# `make lab` checks PORT and D2LGPU_DEVICE first, with the system Python, so that a bad value
# stops it before a long set-up; NEW=1 starts a second server over work/.
lab:  ## set up, update your copies in work/ (never losing your changes), start JupyterLab over work/
	@$(PYTHON) tools/lab.py --check-only
	@$(MAKE) --no-print-directory setup
	$(PYTHON) tools/setup_env.py --venv $(VENV) --copy-work
	$(VPY) tools/lab.py $(if $(NEW),--new)

# The course's .venv, whichever python is first on PATH: the system's has no torch.
env:  ## print the block to paste into an issue: commit, Python, torch, GPUs, driver, D2LGPU_DEVICE
	@if [ -x $(VPY) ]; then $(VPY) -m d2lgpu env; else \
		echo "make env: no $(VENV) here yet; run make setup (or make lab) first, then make env" >&2; \
		exit 2; fi

test: setup  ## set up, then lint and run the whole suite (unit tests + nbval)
	$(MAKE) --no-print-directory check CHECK_PY=$(abspath $(VPY))

test-floor: setup  ## nbval and the checker tests with the learners' oldest torch (2.11) in .venv-floor
	$(VPY) tools/setup_env.py --venv $(FLOOR_VENV) --torch-floor
	$(MAKE) --no-print-directory -j2 --output-sync=target check-units check-notebooks \
		CHECK_PY=$(abspath $(FLOOR_VENV)/bin/python) UNIT_TESTS="$(FLOOR_TESTS)"

# For day-to-day work: no set-up, no type check, no notebooks (nbval), and none of the tests
# marked slow (those that start torchrun, a kernel, JupyterLab, Chromium or a fresh Python).
# `make test` stays the whole suite, and CI runs it.
test-fast:  ## lint, then the unit tests not marked slow, in .venv (leaves out: set-up, mypy, notebooks, slow tests)
	@echo "make test-fast leaves out: set-up, mypy, the notebooks (nbval) and the tests marked slow; make test runs them all"
	$(VPY) -m ruff check .
	$(VPY) -m pytest $(UNIT_FLAGS) -m "not slow" $(PYTEST_ARGS) tests
	@echo "make test-fast left out: set-up, mypy, the notebooks (nbval) and the tests marked slow; make test runs them all"

check:  ## lint, type-check d2lgpu/ and run the whole suite in the active environment, installing nothing
	@echo "lint and type check, unit tests and notebooks run side by side; each prints its report when it ends"
	$(MAKE) --no-print-directory -j3 --output-sync=target check-static check-units check-notebooks

# ruff and mypy beside the tests, not before them: mypy without its cache (a clean clone)
# takes a core for a quarter of a minute, while the tests spend much of their time waiting.
check-static:  ## ruff (lint and format) and mypy on d2lgpu/
	$(CHECK_PY) -m ruff check .
	$(CHECK_PY) -m ruff format --check .
	$(CHECK_PY) -m mypy

check-units:  ## the unit tests alone, in a random order
	$(CHECK_PY) -m pytest $(UNIT_FLAGS) $(PYTEST_ARGS) $(UNIT_TESTS)

check-notebooks:  ## the notebooks alone (nbval), each in order
	$(CHECK_PY) -m pytest $(NBVAL_FLAGS) $(PYTEST_ARGS) $(NOTEBOOKS)

lint:  ## ruff only
	$(CHECK_PY) -m ruff check . && $(CHECK_PY) -m ruff format --check .

# Each chapter's main path: its words (at most 3,000) and the rules of its Going-further parts
# (CONTRIBUTING.md); exit 1 on any violation. tests/test_main_path.py checks the same.
main-path:  ## each chapter's main-path words, and what breaks the Going-further rules (tools/main_path.py)
	$(VPY) tools/main_path.py

lock: setup  ## regenerate requirements.lock from pyproject.toml (uv, every platform)
	$(VPY) tools/lock.py

outputs: setup  ## re-run notebooks/ and solutions/ on the CPU and store their outputs (GPU cells: the reference they show)
	$(VPY) tools/make_outputs.py notebooks solutions

exercises: setup  ## generate exercises/ from solutions/
	$(VPY) tools/make_exercises.py

site: setup  ## the course as a static HTML book in build/site/ (Sphinx, myst-nb; offline, nothing executed)
	$(VPY) tools/site.py

bench: setup  ## measure this machine (python -m d2lgpu bench) into bench-results/
	$(VPY) -m d2lgpu bench --out bench-results

# mutmut 3 on one module (MODULE=d2lgpu/stream_sim.py) or on every module of tools/mutation.py's
# table in turn, each with its fast test files and a time limit; not part of `make test`.
MODULE ?=

said:  ## record what a checker says to each red-team answer, EXERCISE=<id> (tests/test_redteam.py)
	$(VPY) tests/test_redteam.py $(EXERCISE)

mutation:  ## mutation testing with mutmut, MODULE=d2lgpu/... or every checker module (docs/mutation.md)
	$(VPY) tools/mutation.py $(MODULE)

# The parts of gpu-check (run least-verified first, not part by part); LIMIT=540 ends a call
# within 540 s, and RESUME=1 goes on where the last call at this commit stopped (docs/gpu-run.md).
PART ?= tests,notebooks,bench

gpu-check:  ## on a CUDA machine, installing nothing: suite, notebooks (GPU outputs kept), bench -> docs/results/<device>/
	$(CHECK_PY) tools/gpu_check.py --part $(PART) $(if $(GPU_NOTEBOOKS),--notebooks $(GPU_NOTEBOOKS)) \
		$(if $(LIMIT),--time-limit $(LIMIT)) $(if $(RESUME),--resume)

clean:  ## remove caches (keeps .venv and work/)
	rm -rf .pytest_cache .ruff_cache .mypy_cache
	find . -name __pycache__ -not -path './.venv/*' -prune -exec rm -rf {} +
