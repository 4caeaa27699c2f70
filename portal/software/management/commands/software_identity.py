"""``manage.py software_identity``: the identity of the game software this checkout runs
(§ 461a.4, reading:software-approval), for a laboratory to compare with its own reckoning
of the same files: the version, the digest, and each file with its size and SHA-256."""

from __future__ import annotations

import json
from dataclasses import asdict

from django.core.management.base import BaseCommand

from portal.core.software import identity_of


class Command(BaseCommand):
    help = (
        "Print the identity of the game software (§ 461a.4): the portal's version, the SHA-256 "
        "digest of the manifest's files, and each file (path, size in bytes, SHA-256); "
        "--json prints it as one JSON object."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--json", action="store_true", help="Print it as JSON.")

    def handle(self, *args, **options) -> None:
        # The files as they are on disk now, not as this process read them at its start.
        identity = identity_of()
        if options["json"]:
            self.stdout.write(json.dumps(asdict(identity), indent=2))
            return
        self.stdout.write(f"version {identity.version}")
        self.stdout.write(f"digest  {identity.digest}")
        self.stdout.write(f"{len(identity.files)} files (path, bytes, SHA-256):")
        for found in identity.files:
            self.stdout.write(f"{found.path}  {found.size}  {found.sha256}")
