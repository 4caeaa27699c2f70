"""The demo app is installed only where JINZI_DEMO=1: never in production.

Its ``seed_demo`` makes users who share one published password, and its generators write
records no service would; a portal started without the flag (the production profile)
has neither the app nor its commands. A malformed flag stops the portal at start-up.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SHOW = (
    "import django; django.setup(); from django.conf import settings; "
    "from django.core.management import get_commands; commands = get_commands(); "
    "print('portal.demo' in settings.INSTALLED_APPS, 'seed_demo' in commands, "
    "'generate_round_history' in commands, 'generate_expiry_history' in commands)"
)


def _start(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key != "JINZI_DEMO"}
    environment.update(DJANGO_SETTINGS_MODULE="portal.settings", JINZI_VAR_DIR=str(tmp_path))
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-c", SHOW], cwd=ROOT, env=environment, capture_output=True, text=True
    )


def _production_profile() -> dict[str, str]:
    lines = (ROOT / "deploy" / "production.env").read_text().splitlines()
    pairs = (line.split("=", 1) for line in lines if line.strip() and not line.startswith("#"))
    return {key.strip(): value.strip() for key, value in pairs}


def test_without_the_flag_the_demo_app_and_its_commands_are_absent(tmp_path):
    started = _start(tmp_path)

    assert started.returncode == 0, started.stderr
    assert started.stdout.split() == ["False"] * 4


def test_the_production_profile_installs_no_demo_app(tmp_path):
    started = _start(tmp_path, **_production_profile(), DJANGO_SECRET_KEY="k" * 50)

    assert started.returncode == 0, started.stderr
    assert started.stdout.split() == ["False"] * 4


def test_with_the_flag_the_demo_app_brings_its_commands(tmp_path):
    started = _start(tmp_path, JINZI_DEMO="1")

    assert started.returncode == 0, started.stderr
    assert started.stdout.split() == ["True"] * 4


def test_a_malformed_flag_stops_the_portal(tmp_path):
    started = _start(tmp_path, JINZI_DEMO="demo")

    assert started.returncode != 0
    assert "JINZI_DEMO must be one of" in started.stderr
