from portal.celery import app as celery_app

# The portal's software version, recorded with every round (§ 810a.11). The apps read it
# from ``portal.core.version``: this package loads the Celery app, above them all.
from portal.core.version import PORTAL_VERSION as __version__

__all__ = ("__version__", "celery_app")
