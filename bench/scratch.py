"""A scratch portal for a bench: a throwaway var folder, the database migrated and the demo
data loaded, then Django set up in this process. Uses DATABASE_URL when set (a scratch
PostgreSQL database); otherwise a throwaway SQLite file. DEBUG is off, as in production,
with a secret key made for the run unless one is given."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def scratch_portal(name: str, **settings: str) -> Path:
    """Set up the scratch portal for the bench ``name``; ``settings``: more environment
    variables. Returns its var folder."""
    work = Path(tempfile.mkdtemp(prefix=f"jinzi-bench-{name}-"))
    env = dict(os.environ, JINZI_VAR_DIR=str(work), DJANGO_DEBUG="0", CELERY_BROKER_URL="")
    env["JINZI_DEMO"] = "1"  # the demo data and the history generators are the demo app's
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.stack import throwaway_secrets

    for name, value in throwaway_secrets().items():
        env.setdefault(name, value)
    env.update(settings)
    for args in (("migrate", "--noinput", "-v0"), ("seed_demo",)):
        subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True
        )
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    return work
