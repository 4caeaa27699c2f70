"""Idempotent demo data for `make run`; prints the demo users' credentials."""

from django.core.management.base import BaseCommand

from portal.demo.services import seed_demo


class Command(BaseCommand):
    help = "Create the demo holders, users and records (safe to run again)."

    def handle(self, *args, **options):
        credentials = seed_demo()
        self.stdout.write("Demo users (username / password / role):")
        for username, password, role in credentials:
            self.stdout.write(f"  {username:<10} {password}  {role}")
