from importlib.metadata import PackageNotFoundError, version

from portal.celery import app as celery_app

try:
    # The portal's software version, recorded with every round (§ 810a.11).
    __version__ = version("jinzi-backoffice")
except PackageNotFoundError:  # run from a checkout that is not installed
    __version__ = "0.0.0+unknown"

__all__ = ("__version__", "celery_app")
