"""The portal's software version: recorded with every round (§ 810a.11), and printed on
every report and archive file. Here, below every app, so each can read it without
importing the top-level package (which loads the Celery app)."""

from importlib.metadata import PackageNotFoundError, version

try:
    PORTAL_VERSION = version("jinzi-backoffice")
except PackageNotFoundError:  # run from a checkout that is not installed
    PORTAL_VERSION = "0.0.0+unknown"
