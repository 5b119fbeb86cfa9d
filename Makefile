# xce: `make run` starts a one-host cluster from etc/, `make test` runs the suite.
# The system Python when there is one, so that every user can run the
# installed commands (a Python under root's home is not reachable by them).
PYTHON ?= $(shell [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3)
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Skip the machine setup (apt packages) with SKIP_DEPS=1.
SKIP_DEPS ?=
# The cluster that run, stop and status act on (its xce.yaml).
ENVDIR ?= etc

.PHONY: run stop status test deps venv install bench clean

run: install
	$(VENV)/bin/xce start --envdir $(ENVDIR)
	@echo
	@echo "xce is running: configuration $(ENVDIR)/xce.yaml."
	@echo "Submit a job:"
	@echo "  export PATH=\"$(CURDIR)/bin:\$$PATH\""
	@echo "  bsub -o out.%J echo hello"
	@echo "  bjobs -a"
	@echo "Stop it with: make stop"

stop:
	@if [ -x $(VENV)/bin/xce ]; then $(VENV)/bin/xce stop --envdir $(ENVDIR); \
	else echo "xce is not installed"; fi

# xce status exits 1 when the controller is stopped (xce(1)); for make
# that is an answer, not a failure.
status: install
	@$(VENV)/bin/xce status --envdir $(ENVDIR); rc=$$?; \
	if [ $$rc = 1 ]; then echo "xce is not running (start it with: make run)"; \
	elif [ $$rc != 0 ]; then exit $$rc; fi

$(PY):
	$(PYTHON) -m venv $(VENV) || { \
	  [ "$$(id -u)" = 0 ] && apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv && \
	  $(PYTHON) -m venv $(VENV); }

venv: $(PY)

# A regular (not editable) install: commands start faster without the
# editable finder, and pip compiles their bytecode once.  Any source change
# reinstalls.  Then the user commands' launchers skip the site module
# (xce.cli.launchers), after every pip run that rewrites the wrappers.
SOURCES := $(shell find xce -name '*.py') setup.cfg pyproject.toml
LAUNCHERS = $(PY) -m xce.cli.launchers $(VENV)/bin

$(STAMP): $(PY) $(SOURCES)
	$(PY) -m pip install -q --upgrade pip
	rm -rf build  # a stale build/lib would install modules that were moved away
	$(PY) -m pip install -q .
	$(LAUNCHERS)
	touch $(STAMP)

install: $(STAMP)

# The test runner and the real workflow tools the suite drives.
TEST_STAMP := $(VENV)/.installed-test
$(TEST_STAMP): $(STAMP)
	$(PY) -m pip install -q '.[test,tools]'
	$(LAUNCHERS)
	touch $(TEST_STAMP)

# What the tests need on the machine: sshd, ip, setpriv, useradd, groff.
deps:
	@if [ -z "$(SKIP_DEPS)" ] && [ "$$(id -u)" = 0 ]; then \
	  sh tests/install-deps.sh; fi

# The suite runs on TEST_WORKERS pytest-xdist workers (make test
# TEST_WORKERS=1 for one).  Its end-to-end tests mostly wait on daemons
# and subprocesses, so there are more workers than cores.  Tests that need
# the machine alone say so (tests/README.md); --dist loadgroup keeps them
# on one worker.  TESTS narrows the run (make test TESTS=tests/unit).
NPROC := $(shell nproc 2>/dev/null || echo 1)
TEST_WORKERS ?= $(shell echo $$(( $(NPROC) + 1 )))
TESTS ?= tests
PYTEST_OPTS = -q -p no:cacheprovider --durations=20 -n $(TEST_WORKERS) --dist loadgroup

# The tests' files go to a fresh short directory, kept only when pytest
# failed: an agent's socket is <spool>/agents/<host>/agent.sock, and a
# Unix socket path has at most 107 bytes (pytest's own directories with
# a worker's are 42 bytes deep before the test's).  Any failure, and no
# test collected (exit 5), fails make.
test: deps $(TEST_STAMP)
	@tmp=$$(mktemp -d /tmp/xt.XXXXXX) || exit 1; \
	cmd="$(PY) -m pytest $(PYTEST_OPTS) --basetemp=$$tmp $(TESTS)"; \
	echo "$$cmd"; $$cmd; rc=$$?; \
	if [ $$rc = 0 ] || [ $$rc = 5 ]; then rm -rf $$tmp; \
	else echo "make test: pytest exited $$rc; the tests' files are in $$tmp"; fi; \
	exit $$rc

bench: install
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info spool/*
	touch spool/.keep
