"""Round history over past Pennsylvania days, in bulk, as the bench and the demo make it."""

from django.core.management import call_command

call_command(
    "generate_round_history",
    "--rounds=200",
    "--holders=2",
    "--players=5",
    "--days=3",
    "--seed=22",
    verbosity=0,
)
