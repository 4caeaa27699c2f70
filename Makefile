# Two commands for a newcomer: `make run` and `make test`. Both build the virtualenv
# from the pinned constraints first, so they work on a fresh clone and are idempotent.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# pytest over every core (pytest-xdist; -n 0 runs it in one process), and the 30 slowest tests
# printed at the end.
PYTEST_OPTS ?= -n auto --durations=30
# `make run` is the development profile: DEBUG on (a built-in secret key, no second factor)
# unless the environment says otherwise. With DJANGO_DEBUG=0 the portal needs DJANGO_SECRET_KEY.
# JINZI_DEMO=1 installs the demo app (`seed_demo`, the bench history generators): set for
# `make run`, `make test` and `make bench` only; production never installs it.
DEMO_ENV := JINZI_DEMO=1
DEV_ENV := DJANGO_DEBUG=$${DJANGO_DEBUG:-1} $(DEMO_ENV)
# axe-core, the accessibility rules the browser tests run inside Chromium: from npm at this
# exact version, into var/node/ (ignored), with no package.json and no lockfile.
AXE_VERSION := 4.14.1
NODE_DIR := var/node
AXE_STAMP := $(NODE_DIR)/.axe-core-$(AXE_VERSION)-stamp

.PHONY: run test test-second-database lint bench install axe migrate seed lock clean fmt mutation

$(STAMP): pyproject.toml requirements/constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (set PYTHON=...)")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade "pip>=24"
	$(PY) -m pip install --quiet --disable-pip-version-check -c requirements/constraints.txt -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

$(AXE_STAMP):
	@command -v npm >/dev/null || { echo "npm is needed to install axe-core (Debian: apt-get install npm)"; exit 1; }
	rm -rf $(NODE_DIR)
	mkdir -p $(NODE_DIR)
	npm install --prefix $(NODE_DIR) --no-save --no-package-lock --ignore-scripts \
	  --no-audit --no-fund --loglevel=error axe-core@$(AXE_VERSION)
	rm -f $(NODE_DIR)/node_modules/.package-lock.json
	touch $(AXE_STAMP)

axe: $(AXE_STAMP)

migrate: install
	$(DEV_ENV) $(PY) manage.py migrate --noinput

seed: migrate
	$(DEV_ENV) $(PY) manage.py seed_demo

# The web server, two Celery workers (reports; notifications and schedule) and beat (Procfile),
# on a broker that needs no server.
run: seed
	$(DEV_ENV) $(PY) manage.py collectstatic --noinput --verbosity 0
	@echo "Serving the portal on http://$(HOST):$(PORT)/ with two workers and beat (Ctrl-C stops all)"
	PATH="$(abspath $(BIN)):$$PATH" HOST=$(HOST) PORT=$(PORT) \
	  $(DEV_ENV) CELERY_BROKER_URL=$${CELERY_BROKER_URL:-filesystem://} \
	  JINZI_SITE_URL=$${JINZI_SITE_URL:-http://$(HOST):$(PORT)} \
	  $(BIN)/honcho start -f Procfile

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/vulture

test: lint axe
	$(DEV_ENV) $(PY) manage.py makemigrations --check --dry-run --noinput
	$(DEMO_ENV) $(BIN)/pytest $(PYTEST_OPTS) $(PYTEST_ARGS)

# CI's second pass (.ci/run): the suite again on a second database (DATABASE_URL), keeping only
# what can depend on it. Lint, the migrations check, the tests that use no database and the
# browser tests ran once, in `make test` (--second-database: tests/conftest.py).
test-second-database: install axe
	$(DEMO_ENV) $(BIN)/pytest $(PYTEST_OPTS) --second-database $(PYTEST_ARGS)

bench: install
	$(DEMO_ENV) $(PY) bench/run.py

# Mutation testing of the engine (docs/mutation.md); minutes, so not part of `make test` or CI.
# mutmut changes the modules [tool.mutmut] lists one small step at a time in a fresh copy under
# mutants/ (ignored) and runs tests/jinzi on each change; then the score of each file is
# printed, and any surviving change that docs/mutation.md does not explain fails the target.
mutation: install
	rm -rf mutants
	$(DEMO_ENV) $(BIN)/mutmut run
	$(BIN)/mutmut results --all true | $(PY) tests/jinzi/mutation_scores.py docs/mutation.md

fmt: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Re-resolve the pins from pyproject.toml's ranges (needs the package registry).
lock:
	rm -rf .venv-lock
	$(PYTHON) -m venv .venv-lock
	.venv-lock/bin/pip install --quiet --disable-pip-version-check -e '.[dev]'
	.venv-lock/bin/pip freeze --exclude-editable --exclude jinzi-backoffice | sort > requirements/constraints.txt
	rm -rf .venv-lock

clean:
	rm -rf $(VENV) $(NODE_DIR) .pytest_cache .ruff_cache .hypothesis
