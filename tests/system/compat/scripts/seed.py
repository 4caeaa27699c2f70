"""A new database: every migration, then the demo data (its users, holders, records, a few
rounds and one report of each kind), by the tree's own commands."""

from django.core.management import call_command

call_command("migrate", interactive=False, verbosity=0)
call_command("seed_demo", verbosity=0)
