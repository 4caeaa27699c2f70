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
# `make run` is the development profile: DEBUG on (a built-in secret key, no second factor)
# unless the environment says otherwise. With DJANGO_DEBUG=0 the portal needs DJANGO_SECRET_KEY.
DEV_ENV := DJANGO_DEBUG=$${DJANGO_DEBUG:-1}

.PHONY: run test lint bench install migrate seed lock clean fmt

$(STAMP): pyproject.toml requirements/constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (set PYTHON=...)")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade "pip>=24"
	$(PY) -m pip install --quiet --disable-pip-version-check -c requirements/constraints.txt -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(DEV_ENV) $(PY) manage.py migrate --noinput

seed: migrate
	$(DEV_ENV) $(PY) manage.py seed_demo

# The web server, a Celery worker and beat (Procfile), on a broker that needs no server.
run: seed
	$(DEV_ENV) $(PY) manage.py collectstatic --noinput --verbosity 0
	@echo "Serving the portal on http://$(HOST):$(PORT)/ with a worker and beat (Ctrl-C stops all)"
	PATH="$(abspath $(BIN)):$$PATH" HOST=$(HOST) PORT=$(PORT) \
	  $(DEV_ENV) CELERY_BROKER_URL=$${CELERY_BROKER_URL:-filesystem://} \
	  $(BIN)/honcho start -f Procfile

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: lint
	$(DEV_ENV) $(PY) manage.py makemigrations --check --dry-run --noinput
	$(BIN)/pytest $(PYTEST_ARGS)

bench: install
	$(PY) bench/run.py

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
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
