"""The test suite's settings: the portal's own, with the values a developer's shell lacks.

With ``DJANGO_DEBUG=0`` (the suite's mode) the portal refuses to start without a secret key
and the player file's keys, so the suite brings throwaway ones. The second factor is off
by default, as for `make run`; the tests of the second factor switch it on where they need
it. /metrics has a throwaway token, so the table of every URL shows its guard. The demo
app is installed (``JINZI_DEMO=1``, as `make test` sets it): the suite tests
the demo data and the history generators, and the portals it starts in other processes
inherit the flag.
"""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-" + "x" * 50)
os.environ.setdefault("JINZI_PLAYER_FILE_KEYS", "dGVzdC1vbmx5LXBsYXllci1maWxlLWtleS1qaW56aS0=")
os.environ.setdefault("JINZI_PLAYER_INDEX_KEY", "test-only-" + "i" * 40)
os.environ.setdefault("JINZI_REQUIRE_2FA", "0")
os.environ.setdefault("JINZI_METRICS_TOKEN", "test-only-metrics-" + "m" * 30)
os.environ["JINZI_DEMO"] = "1"

from portal.settings import *  # noqa: E402, F403

# A replica (DATABASE_REPLICA_URL, the CI's PostgreSQL pass) is read only by the tests that
# ask for the real one (tests/portal/replica): the others' rolled-back data never reaches a
# replica, so their reads stay on the primary.
JINZI_READ_REPLICA = False
