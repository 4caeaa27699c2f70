import pytest
from django.core.exceptions import ImproperlyConfigured

from portal.env import env_bool, env_choice, env_database, env_int, env_list, env_str


def test_env_bool_reads_the_usual_spellings():
    assert env_bool("X", False, env={"X": "yes"}) is True
    assert env_bool("X", True, env={"X": "0"}) is False
    assert env_bool("X", True, env={}) is True


@pytest.mark.parametrize("value", ["maybe", "2", "tru"])
def test_env_bool_refuses_anything_else(value):
    with pytest.raises(ImproperlyConfigured, match=f"X must be one of .*got '{value}'"):
        env_bool("X", False, env={"X": value})


def test_env_int_parses_and_bounds():
    assert env_int("N", 5, env={}) == 5
    assert env_int("N", 5, env={"N": "12"}) == 12
    with pytest.raises(ImproperlyConfigured, match="N must be a whole number; got '1.5'"):
        env_int("N", 5, env={"N": "1.5"})
    with pytest.raises(ImproperlyConfigured, match="N must be at least 10; got 3"):
        env_int("N", 50, minimum=10, env={"N": "3"})
    with pytest.raises(ImproperlyConfigured, match="N must be at most 9; got 30"):
        env_int("N", 5, maximum=9, env={"N": "30"})


def test_env_list_and_str():
    assert env_list("L", ["a"], env={"L": "x, y"}) == ["x", "y"]
    assert env_list("L", ["a"], env={}) == ["a"]
    assert env_str("S", "d", env={"S": "  "}) == "d"
    with pytest.raises(ImproperlyConfigured, match="empty item"):
        env_list("L", [], env={"L": "x,,y"})


def test_env_choice_names_the_choices():
    with pytest.raises(ImproperlyConfigured, match="LEVEL must be one of DEBUG, INFO; got 'LOUD'"):
        env_choice("LEVEL", "INFO", ("DEBUG", "INFO"), env={"LEVEL": "LOUD"})


def test_env_database_defaults_to_sqlite_in_wal_with_immediate_transactions():
    config = env_database("DATABASE_URL", "/tmp/x.sqlite3", env={})

    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]


def test_env_database_reads_a_postgres_url():
    config = env_database("DATABASE_URL", "x", env={"DATABASE_URL": "postgresql://u:p@h:5433/db"})

    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["HOST"], config["PORT"], config["NAME"]) == ("h", 5433, "db")


def test_env_database_prepares_statements_on_postgres_when_asked():
    url = {"DATABASE_URL": "postgresql://u:p@h:5433/db"}

    prepared = env_database("DATABASE_URL", "x", prepare_threshold=2, env=url)
    plain = env_database("DATABASE_URL", "x", prepare_threshold=0, env=url)
    sqlite = env_database("DATABASE_URL", "/tmp/x.sqlite3", prepare_threshold=2, env={})

    assert prepared["OPTIONS"] == {"server_side_binding": True, "prepare_threshold": 2}
    assert "server_side_binding" not in plain.get("OPTIONS", {})
    assert "server_side_binding" not in sqlite["OPTIONS"]


@pytest.mark.parametrize("url", ["mysql://u@h/db", "nonsense://x", "sqlite:///tmp/x.db"])
def test_env_database_refuses_other_engines(url):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        env_database("DATABASE_URL", "x", env={"DATABASE_URL": url})


def test_env_example_lists_every_variable_the_settings_read():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    settings_source = (root / "portal" / "settings.py").read_text()
    read = set(re.findall(r'env_\w+\(\s*"([A-Z0-9_]+)"', settings_source))
    listed = {
        line.split("=", 1)[0].strip()
        for line in (root / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    }

    assert read, "no env_* calls found in settings.py"
    assert read == listed


def test_the_production_profile_passes_check_deploy_with_no_warning(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    profile = {
        key.strip(): value.strip()
        for key, value in (
            line.split("=", 1)
            for line in (root / "deploy" / "production.env").read_text().splitlines()
            if line.strip() and not line.startswith("#")
        )
    }
    listed = (root / ".env.example").read_text()
    assert all(f"\n{key}=" in listed for key in profile), "every profile key is documented"

    # Not the browser tests' allowance of the ORM beside Playwright's event loop, which no
    # deployment sets (and check --deploy rightly refuses).
    inherited = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    environment = {
        **inherited,
        **profile,
        "DJANGO_SETTINGS_MODULE": "portal.settings",
        "DJANGO_SECRET_KEY": "production-like-" + "k" * 50,
        "JINZI_VAR_DIR": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_production_profile_reads_the_same_when_a_shell_sources_it():
    """.ci/run and deployments source the profile with a shell: each value must survive it
    (a bare "<" or a space would be read as a redirection or a command)."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    profile = root / "deploy" / "production.env"
    written = dict(
        line.split("=", 1)
        for line in profile.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    )
    sourced = subprocess.run(
        ["bash", "-c", f'set -a; . "{profile}"; env -0'],
        capture_output=True,
        check=True,
        env={"PATH": "/usr/bin:/bin"},
    ).stdout.decode()
    shell = dict(item.split("=", 1) for item in sourced.split("\0") if "=" in item)
    assert {key: shell.get(key) for key in written} == written
