"""The test suite's settings: the portal's own, with two values a developer's shell lacks.

With ``DJANGO_DEBUG=0`` (the suite's mode) the portal refuses to start without a secret key,
so the suite brings a throwaway one. The second factor is off by default, as for `make run`;
the tests of the second factor switch it on where they need it.
"""

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-" + "x" * 50)
os.environ.setdefault("JINZI_REQUIRE_2FA", "0")

from portal.settings import *  # noqa: E402, F403
