"""Migrate, then walk the audit chain, the round chains and the records beside them.

Prints, after its marker line, each verifier's verdict: whether it passed (a failure is the
command's error, as it would end ``manage.py`` with a non-zero exit), its output, its error.
"""

import io
import json

from django.core.management import call_command
from django.core.management.base import CommandError

call_command("migrate", interactive=False, verbosity=0)
verdicts = {}
for command in ("verify_audit_chain", "verify_round_chain", "verify_records"):
    said = io.StringIO()
    try:
        call_command(command, stdout=said)
    except CommandError as error:
        verdicts[command] = {"ok": False, "output": said.getvalue(), "error": str(error)}
    else:
        verdicts[command] = {"ok": True, "output": said.getvalue(), "error": ""}
print("=== verify ===")
print(json.dumps(verdicts))
