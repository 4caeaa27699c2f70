"""A small approvals history written in bulk beside the services (no audit events)."""

from django.core.management import call_command

call_command(
    "generate_expiry_history", "--offerings=20", "--versions=70", "--holders=2", verbosity=0
)
