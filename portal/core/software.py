"""The game software's identity (§ 461a.4, reading:software-approval): the files that make
the game, declared once, and one SHA-256 digest over them that a laboratory can recompute
from the same files.

The files are the ``jinzi`` package and the portal's round and settlement path: every module
of the project that ``round_play`` imports, directly or through another (a test fails when it
imports one this manifest does not list). The digest is SHA-256 over the files in sorted
order of their repository-relative paths (with ``/``), each given as its path, a newline, its
length in bytes, a newline and its bytes, so no two sets of files give the same text.

The identity is read once per process, from the files the process runs.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from portal.core.version import PORTAL_VERSION

REPOSITORY = Path(__file__).resolve().parents[2]
DIGEST = re.compile(r"[0-9a-f]{64}")

# The game engine: every module of the package.
ENGINE = "jinzi/*.py"
# The portal's round and settlement path: what ``portal.game.play.services.round_play``
# imports of the project, directly or not, with the ``__init__`` of every package above
# each module (importing it runs them), and the check that the software is approved (its
# imports of Django and other libraries are the platform's, not the game's).
ROUND_PATH = (
    "portal/__init__.py",
    "portal/access/__init__.py",
    "portal/access/four_eyes.py",
    "portal/access/policy.py",
    "portal/access/roles.py",
    "portal/access/workflow.py",
    "portal/accounts/__init__.py",
    "portal/accounts/account_events.py",
    "portal/accounts/models.py",
    "portal/accounts/passwords.py",
    "portal/accounts/second_factor.py",
    "portal/accounts/tokens.py",
    "portal/audit/__init__.py",
    "portal/audit/chain.py",
    "portal/audit/models.py",
    "portal/audit/services.py",
    "portal/celery.py",
    "portal/compliance/__init__.py",
    "portal/compliance/messages.py",
    "portal/compliance/models.py",
    "portal/compliance/selectors.py",
    "portal/compliance/table_changes.py",
    "portal/compliance/workflow.py",
    "portal/core/__init__.py",
    "portal/core/errors.py",
    "portal/core/hashing.py",
    "portal/core/money.py",
    "portal/core/padates.py",
    "portal/core/request_context.py",
    "portal/core/software.py",
    "portal/core/validation.py",
    "portal/core/version.py",
    "portal/game/__init__.py",
    "portal/game/chain.py",
    "portal/game/ledger.py",
    "portal/game/models/__init__.py",
    "portal/game/models/accounts.py",
    "portal/game/models/complaints.py",
    "portal/game/models/corrections.py",
    "portal/game/models/records.py",
    "portal/game/money/__init__.py",
    "portal/game/money/limits.py",
    "portal/game/money/messages.py",
    "portal/game/money/selectors.py",
    "portal/game/money/services/__init__.py",
    "portal/game/money/services/accounts.py",
    "portal/game/money/standing.py",
    "portal/game/money/terms.py",
    "portal/game/play/__init__.py",
    "portal/game/play/messages.py",
    "portal/game/play/read_checks.py",
    "portal/game/play/services.py",
    "portal/game/play/sql.py",
    "portal/game/play/store.py",
    "portal/game/play/wagers.py",
    "portal/game/sessions/__init__.py",
    "portal/game/sessions/lifecycle.py",
    "portal/game/sessions/notice.py",
    "portal/software/__init__.py",
    "portal/software/models.py",
    "portal/software/selectors.py",
    # Loaded with the package by ``portal/celery.py``, which logs a worker's start in the
    # Software Installation/Removal Log (§ 811a.7(e)).
    "portal/software/startup.py",
    "portal/software/services/__init__.py",
    "portal/software/services/installations.py",
    "portal/software/installations.py",
    "portal/core/lists.py",
    "portal/core/pages.py",
    "portal/core/csv_export.py",
)


@dataclass(frozen=True)
class SoftwareFile:
    path: str  # repository-relative, with "/"
    size: int
    sha256: str


@dataclass(frozen=True)
class SoftwareIdentity:
    """What runs the game: the portal's version, and the digest of the manifest's files."""

    version: str
    digest: str
    files: tuple[SoftwareFile, ...]

    @property
    def short(self) -> str:
        """How a page names it: the version and the digest's first 12 characters."""
        return short_form(self.version, self.digest)


def short_form(version: str, digest: str) -> str:
    """An identity as a page names it: the version and the digest's first 12 characters."""
    return f"{version} ({digest[:12]})"


def manifest(root: Path = REPOSITORY) -> tuple[str, ...]:
    """The manifest's paths, sorted."""
    engine = (p.relative_to(root).as_posix() for p in root.glob(ENGINE))
    return tuple(sorted({*engine, *ROUND_PATH}))


def identity_of(root: Path = REPOSITORY, version: str = PORTAL_VERSION) -> SoftwareIdentity:
    """The identity of the files under ``root``: a file of the manifest that is missing is an
    error, never skipped."""
    whole = hashlib.sha256()
    files = []
    for path in manifest(root):
        data = (root / path).read_bytes()
        whole.update(f"{path}\n{len(data)}\n".encode())
        whole.update(data)
        files.append(SoftwareFile(path, len(data), hashlib.sha256(data).hexdigest()))
    return SoftwareIdentity(version=version, digest=whole.hexdigest(), files=tuple(files))


@functools.cache
def running_identity() -> SoftwareIdentity:
    """The identity of the software this process runs (read once)."""
    return identity_of()


def is_digest(text: str) -> bool:
    """A SHA-256 digest as the identity writes it: 64 lower-case hexadecimal characters."""
    return bool(DIGEST.fullmatch(text))
